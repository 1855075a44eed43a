"""Login throttling: failed attempts counted per email and client address.

After `max_attempts` failures within `window_seconds`, further attempts for
that pair are refused until the oldest failure leaves the window — even with
the right password, so guessing gains nothing. A success clears the count.
Counts live in process memory: enough for one server process.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable

__all__ = ["LoginLimiter"]


class LoginLimiter:
    def __init__(
        self,
        *,
        max_attempts: int = 10,
        window_seconds: float = 300.0,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_attempts = max_attempts
        self.window_seconds = window_seconds
        self._max_keys = max_keys
        self._clock = clock
        self._failures: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()

    def _recent(self, key: tuple[str, str]) -> deque[float] | None:
        times = self._failures.get(key)
        if times is None:
            return None
        horizon = self._clock() - self.window_seconds
        while times and times[0] <= horizon:
            times.popleft()
        if not times:
            del self._failures[key]
            return None
        return times

    def retry_after(self, email: str, client: str) -> int | None:
        """Whole seconds until another attempt is allowed; None when it is allowed now."""
        times = self._recent((email, client))
        if times is None or len(times) < self.max_attempts:
            return None
        wait = times[-self.max_attempts] + self.window_seconds - self._clock()
        return max(1, math.ceil(wait))

    def failed(self, email: str, client: str) -> None:
        key = (email, client)
        times = self._recent(key)
        if times is None:
            times = self._failures[key] = deque(maxlen=self.max_attempts)
        times.append(self._clock())
        self._failures.move_to_end(key)
        # A flood of distinct emails must not grow memory without bound.
        while len(self._failures) > self._max_keys:
            self._failures.popitem(last=False)

    def succeeded(self, email: str, client: str) -> None:
        self._failures.pop((email, client), None)
