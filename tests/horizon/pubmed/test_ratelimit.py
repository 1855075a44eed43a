from __future__ import annotations

import asyncio
import itertools
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

    gaps = [later - earlier for earlier, later in itertools.pairwise(passed)]
    assert all(gap >= 0.05 - 0.005 for gap in gaps)
    assert passed[-1] - passed[0] >= 5 * 0.05 - 0.005


async def test_an_idle_limiter_lets_the_next_caller_through_at_once() -> None:
    limiter = RateLimiter(10)
    await limiter.acquire()
    await asyncio.sleep(0.15)

    started = time.monotonic()
    await limiter.acquire()

    assert time.monotonic() - started < 0.05


@pytest.mark.parametrize("rate", [0, -1, float("inf"), float("nan")])
def test_a_rate_must_be_a_positive_number(rate: float) -> None:
    with pytest.raises(ValueError, match="positive"):
        RateLimiter(rate)
