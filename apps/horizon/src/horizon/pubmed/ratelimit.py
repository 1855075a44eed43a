"""An asyncio rate limiter that spaces calls evenly.

NCBI allows 3 requests a second (10 with an API key) from one client, counted across
everything that client does at once; so every caller takes a slot from the same
limiter, and slots are at least 1/rate seconds apart.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable

__all__ = ["RateLimiter"]


class RateLimiter:
    """At most `rate` calls per second across all coroutines that share it.

    Slots are handed out in call order. A caller cancelled while waiting gives up its
    slot, which errs on the side of sending fewer requests. Use from one event loop.
    """

    def __init__(
        self,
        rate: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        if not rate > 0 or math.isinf(rate):
            raise ValueError(f"rate must be a positive number of calls per second, not {rate}")
        self.rate = rate
        self.interval = 1.0 / rate
        self._clock = clock
        self._sleep = sleep
        self._next_slot = -math.inf

    async def acquire(self) -> None:
        """Wait for this caller's slot."""
        # Reserving before awaiting keeps this free of locks: nothing else runs in
        # between on the event loop.
        now = self._clock()
        slot = max(now, self._next_slot)
        self._next_slot = slot + self.interval
        if slot > now:
            await self._sleep(slot - now)
