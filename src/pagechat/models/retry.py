"""Retrying a model call — only before its first event.

Once a token has reached the user, a retry would show them a second, different
beginning; so after the first event every failure is final. Before it, rate
limits, overload, 5xx and connection failures are retried with exponential
backoff and full jitter, honouring the provider's `retry-after`, within a
bound on attempts and on total waiting.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass

from .base import Model, ModelEvent, ModelRequest
from .errors import ProviderError

__all__ = ["NO_RETRY", "RetryPolicy", "retry_after_seconds", "stream_with_retry"]

logger = logging.getLogger(__name__)


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Seconds a server asks us to wait: `retry-after-ms`, else `retry-after` as seconds
    or an HTTP date; None when neither says. `headers` should match names without case
    (httpx's do)."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to retry a model call that failed with a retryable error."""

    max_attempts: int = 3
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_total_wait: float = 20.0
    """A `retry-after` beyond what is left of this is not waited for: the error stands."""

    def delay(self, attempt: int, retry_after: float | None, rand: Callable[[], float]) -> float:
        """Seconds to wait after failed attempt `attempt`: `retry_after`, else jittered backoff."""
        if retry_after is not None:
            return max(0.0, retry_after)
        # Capping the exponent keeps a large attempt number from overflowing a float.
        return rand() * min(self.max_delay, self.base_delay * 2.0 ** min(attempt - 1, 64))


NO_RETRY = RetryPolicy(max_attempts=1)


async def stream_with_retry(
    model: Model,
    request: ModelRequest,
    policy: RetryPolicy,
    *,
    on_retry: Callable[[ProviderError, float], None] | None = None,
    rand: Callable[[], float] = random.random,
) -> AsyncIterator[ModelEvent]:
    """The model's events for `request`, retrying failures that happen before the first event."""
    waited = 0.0
    attempt = 0
    while True:
        attempt += 1
        started = False
        stream = model.stream(request)
        try:
            async for event in stream:
                started = True
                yield event
            return
        except ProviderError as err:
            if started or not err.retryable or attempt >= policy.max_attempts:
                raise
            delay = policy.delay(attempt, err.retry_after, rand)
            if waited + delay > policy.max_total_wait:
                raise
            waited += delay
            logger.info("model call failed (%s); retry %d in %.2fs", err.kind, attempt, delay)
            if on_retry is not None:
                on_retry(err, delay)
            await asyncio.sleep(delay)
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()
