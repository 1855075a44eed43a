"""Login throttling: failed attempts counted per email and client address, and per account.

After `max_attempts` failures within `window_seconds`, further attempts for
that (email, client) pair are refused until the oldest failure leaves the
window — even with the right password, so guessing gains nothing. A success
clears the count.

Addresses are cheap for an attacker (a botnet, or forwarded headers where they are
wrongly trusted), so each account also backs off on its own, whatever the address:
after `account_attempts` failures within the window, each further attempt waits
twice as long as the one before (1 s, 2 s, 4 s, ... at most the window). Backoff,
not a lockout: the owner of an attacked account can still sign in, a little later.
Counts live in process memory: enough for one server process.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable

__all__ = ["LoginLimiter"]


class _Failures:
    """Failure times per key within a window, for at most `max_keys` keys."""

    def __init__(self, *, keep: int, window: float, max_keys: int, clock: Callable[[], float]):
        self._keep = keep
        self._window = window
        self._max_keys = max_keys
        self._clock = clock
        self._times: OrderedDict[Hashable, deque[float]] = OrderedDict()

    def recent(self, key: Hashable) -> deque[float] | None:
        times = self._times.get(key)
        if times is None:
            return None
        horizon = self._clock() - self._window
        while times and times[0] <= horizon:
            times.popleft()
        if not times:
            del self._times[key]
            return None
        return times

    def add(self, key: Hashable) -> None:
        times = self.recent(key)
        if times is None:
            times = self._times[key] = deque(maxlen=self._keep)
        times.append(self._clock())
        self._times.move_to_end(key)
        # A flood of distinct emails must not grow memory without bound.
        while len(self._times) > self._max_keys:
            self._times.popitem(last=False)

    def clear(self, key: Hashable) -> None:
        self._times.pop(key, None)


class LoginLimiter:
    def __init__(
        self,
        *,
        max_attempts: int = 10,
        window_seconds: float = 300.0,
        account_attempts: int = 20,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_attempts = max_attempts
        self.window_seconds = window_seconds
        self.account_attempts = account_attempts
        self._clock = clock
        self._pairs = _Failures(
            keep=max_attempts, window=window_seconds, max_keys=max_keys, clock=clock
        )
        # Enough history to count the doublings of a long attack within the window.
        self._accounts = _Failures(
            keep=account_attempts + 64, window=window_seconds, max_keys=max_keys, clock=clock
        )

    def retry_after(self, email: str, client: str) -> int | None:
        """Whole seconds until another attempt is allowed; None when it is allowed now."""
        waits = [self._pair_wait(email, client), self._account_wait(email)]
        wait = max((w for w in waits if w is not None), default=None)
        return None if wait is None else max(1, math.ceil(wait))

    def _pair_wait(self, email: str, client: str) -> float | None:
        times = self._pairs.recent((email, client))
        if times is None or len(times) < self.max_attempts:
            return None
        return times[-self.max_attempts] + self.window_seconds - self._clock()

    def _account_wait(self, email: str) -> float | None:
        times = self._accounts.recent(email)
        if times is None or len(times) < self.account_attempts:
            return None
        backoff = min(self.window_seconds, 2.0 ** (len(times) - self.account_attempts))
        wait = times[-1] + backoff - self._clock()
        return wait if wait > 0 else None

    def failed(self, email: str, client: str) -> None:
        self._pairs.add((email, client))
        self._accounts.add(email)

    def succeeded(self, email: str, client: str) -> None:
        self._pairs.clear((email, client))
        self._accounts.clear(email)
