from __future__ import annotations

import asyncio
import time

import pytest

from horizon.pubmed import RateLimiter


async def test_callers_arriving_together_wait_one_interval_more_each() -> None:
    waits: list[float] = []

    async def record_wait(seconds: float) -> None:
        waits.append(seconds)

    limiter = RateLimiter(4, clock=lambda: 100.0, sleep=record_wait)

    await asyncio.gather(*(limiter.acquire() for _ in range(5)))

    assert waits == pytest.approx([0.25, 0.5, 0.75, 1.0])


async def test_callers_are_let_through_at_most_rate_per_second() -> None:
    limiter = RateLimiter(20)
    passed: list[float] = []

    async def caller() -> None:
        await limiter.acquire()
        passed.append(time.monotonic())

    await asyncio.gather(*(caller() for _ in range(6)))

    # Each caller passes no earlier than its slot; a late wake-up under load may
    # shorten the gap to the next caller, so slots are checked from the first one.
    assert all(t - passed[0] >= i * 0.05 - 0.005 for i, t in enumerate(passed))


async def test_an_idle_limiter_lets_the_next_caller_through_at_once() -> None:
    now = [100.0]
    waits: list[float] = []

    async def record_wait(seconds: float) -> None:
        waits.append(seconds)

    limiter = RateLimiter(10, clock=lambda: now[0], sleep=record_wait)
    await limiter.acquire()
    now[0] += 0.15
    await limiter.acquire()

    assert waits == []


@pytest.mark.parametrize("rate", [0, -1, float("inf"), float("nan")])
def test_a_rate_must_be_a_positive_number(rate: float) -> None:
    with pytest.raises(ValueError, match="positive"):
        RateLimiter(rate)
