"""stream_with_retry: retries only before the first event, within its bounds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from pagechat.models.base import (
    Model,
    ModelEvent,
    ModelFinish,
    ModelRequest,
    TextDelta,
    UserTurn,
)
from pagechat.models.errors import ModelOutputError, ProviderError, ProviderErrorKind
from pagechat.models.retry import NO_RETRY, RetryPolicy, retry_after_seconds, stream_with_retry
from pagechat.models.testing import ScriptedModel

REQUEST = ModelRequest(system="", messages=[UserTurn("hi")])
FAST = RetryPolicy(max_attempts=3, base_delay=0.001, max_delay=0.001)


def failure(
    kind: ProviderErrorKind = "overloaded", retry_after: float | None = None
) -> ProviderError:
    return ProviderError(kind, f"{kind} failure", retry_after=retry_after)


async def run(
    model: Model, policy: RetryPolicy = FAST, **kwargs: object
) -> tuple[list[ModelEvent], BaseException | None]:
    events: list[ModelEvent] = []
    try:
        async for event in stream_with_retry(model, REQUEST, policy, **kwargs):  # type: ignore[arg-type]
            events.append(event)
    except (ProviderError, ModelOutputError) as err:
        return events, err
    return events, None


def text_of(events: list[ModelEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


@pytest.mark.parametrize("kind", ["rate_limit", "overloaded", "server", "connection", "timeout"])
async def test_a_retryable_failure_before_the_first_event_is_retried(
    kind: ProviderErrorKind,
) -> None:
    model = ScriptedModel([[failure(kind)], ["Recovered."]])
    retries: list[str] = []

    events, err = await run(model, on_retry=lambda e, _: retries.append(e.kind))

    assert err is None
    assert text_of(events) == "Recovered."
    assert retries == [kind]
    assert len(model.requests) == 2


async def test_a_failure_after_the_first_event_is_final() -> None:
    model = ScriptedModel([["The beginning", failure("overloaded")], ["A different beginning"]])

    events, err = await run(model)

    assert text_of(events) == "The beginning"
    assert isinstance(err, ProviderError)
    assert len(model.requests) == 1


@pytest.mark.parametrize("kind", ["auth", "bad_request", "stream"])
async def test_a_failure_that_retrying_cannot_fix_is_final(kind: ProviderErrorKind) -> None:
    model = ScriptedModel([[failure(kind)], ["never"]])

    _, err = await run(model)

    assert isinstance(err, ProviderError)
    assert err.kind == kind
    assert len(model.requests) == 1


async def test_unusable_model_output_is_not_retried() -> None:
    model = ScriptedModel([[ModelOutputError("bad tool JSON")], ["never"]])

    _, err = await run(model)

    assert isinstance(err, ModelOutputError)
    assert len(model.requests) == 1


async def test_retries_stop_at_max_attempts() -> None:
    model = ScriptedModel([[failure()], [failure()], [failure()], ["never"]])

    _, err = await run(model, FAST)

    assert isinstance(err, ProviderError)
    assert len(model.requests) == 3


async def test_no_retry_policy_makes_one_attempt() -> None:
    model = ScriptedModel([[failure()], ["never"]])

    _, err = await run(model, NO_RETRY)

    assert isinstance(err, ProviderError)
    assert len(model.requests) == 1


async def test_retry_after_is_waited_instead_of_the_backoff() -> None:
    model = ScriptedModel([[failure("rate_limit", retry_after=0.05)], ["ok"]])
    waits: list[float] = []
    policy = RetryPolicy(base_delay=5, max_delay=5)

    _, err = await run(model, policy, on_retry=lambda _, delay: waits.append(delay))

    assert err is None
    assert waits == [0.05]


async def test_a_retry_after_beyond_the_wait_budget_fails_at_once() -> None:
    model = ScriptedModel([[failure("rate_limit", retry_after=60)], ["never"]])
    waits: list[float] = []

    _, err = await run(model, RetryPolicy(max_total_wait=20), on_retry=lambda _, d: waits.append(d))

    assert isinstance(err, ProviderError)
    assert err.retry_after == 60
    assert waits == []
    assert len(model.requests) == 1


def test_backoff_doubles_with_full_jitter_up_to_the_cap() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=3.0)
    top: Callable[[], float] = lambda: 1.0  # noqa: E731

    assert [policy.delay(n, None, top) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 3.0]
    assert policy.delay(3, None, lambda: 0.25) == 0.5
    assert policy.delay(5000, None, top) == 3.0
    assert policy.delay(1, 7.0, top) == 7.0


async def test_the_wait_budget_bounds_the_sum_of_waits() -> None:
    model = ScriptedModel([[failure()], [failure()], [failure()], ["never"]])
    policy = RetryPolicy(max_attempts=5, base_delay=0.01, max_delay=1, max_total_wait=0.025)
    waits: list[float] = []

    _, err = await run(model, policy, rand=lambda: 1.0, on_retry=lambda _, d: waits.append(d))

    # 0.01 fits the budget; 0.01 + 0.02 would not.
    assert isinstance(err, ProviderError)
    assert waits == [0.01]
    assert len(model.requests) == 2


class _ClosingModel(Model):
    """Streams one delta, then waits; records whether its stream was closed."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        try:
            yield TextDelta(text="first")
            await asyncio.sleep(30)
            yield ModelFinish(stop_reason="end_turn")
        finally:
            self.closed.set()


async def test_closing_the_retrying_stream_closes_the_model_stream() -> None:
    model = _ClosingModel()
    stream = stream_with_retry(model, REQUEST, FAST)

    assert await anext(stream) == TextDelta(text="first")
    await stream.aclose()  # type: ignore[attr-defined]

    assert model.closed.is_set()


async def test_cancelling_during_the_backoff_makes_no_further_attempt() -> None:
    model = ScriptedModel([[failure("rate_limit", retry_after=10)], ["never"]])
    waiting = asyncio.Event()

    async def consume() -> None:
        retry = RetryPolicy(max_total_wait=60)
        async for _ in stream_with_retry(model, REQUEST, retry, on_retry=lambda *_: waiting.set()):
            pass

    task = asyncio.create_task(consume())
    await asyncio.wait_for(waiting.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert len(model.requests) == 1


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
        ({"retry-after-ms": "soon", "retry-after": "9"}, 9.0),
        ({"retry-after": "-3"}, 0.0),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),
        ({"retry-after": "not a date"}, None),
        ({}, None),
    ],
)
def test_retry_after_reads_milliseconds_seconds_and_dates(
    headers: dict[str, str], expected: float | None
) -> None:
    assert retry_after_seconds(headers) == expected
