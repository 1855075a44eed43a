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
`LoginLimiter` counts in process memory (one server process); `RedisLoginLimiter`
counts in Redis, so several workers share the counts (else an attacker would get as
many guesses as there are workers).
"""

from __future__ import annotations

import abc
import math
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING

from ..defaults import LOGIN_MAX_ATTEMPTS, LOGIN_WINDOW_SECONDS

if TYPE_CHECKING:
    from ..redis_client import RedisClient

__all__ = ["LoginLimiter", "LoginLimits", "RedisLoginLimiter"]


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


class LoginLimits(abc.ABC):
    """Failed logins counted per (email, client) and per account; see the module doc."""

    def __init__(
        self,
        *,
        max_attempts: int = LOGIN_MAX_ATTEMPTS,
        window_seconds: float = LOGIN_WINDOW_SECONDS,
        account_attempts: int = 20,
    ) -> None:
        self.max_attempts = max_attempts
        self.window_seconds = window_seconds
        self.account_attempts = account_attempts

    @abc.abstractmethod
    async def retry_after(self, email: str, client: str) -> int | None:
        """Whole seconds until another attempt is allowed; None when it is allowed now."""

    @abc.abstractmethod
    async def failed(self, email: str, client: str) -> None:
        """Count a failed login of `email` from `client` against both limits."""

    @abc.abstractmethod
    async def succeeded(self, email: str, client: str) -> None:
        """Forget the failures of `email` from `client`: the password was right."""

    def _wait(self, pair: Sequence[float], account: Sequence[float], now: float) -> int | None:
        """The wait, from the recent failure times (oldest first) of the pair and the account."""
        waits: list[float] = []
        if len(pair) >= self.max_attempts:
            waits.append(pair[-self.max_attempts] + self.window_seconds - now)
        if len(account) >= self.account_attempts:
            backoff = min(self.window_seconds, 2.0 ** (len(account) - self.account_attempts))
            waits.append(account[-1] + backoff - now)
        wait = max(waits, default=0.0)
        return max(1, math.ceil(wait)) if wait > 0 else None


class LoginLimiter(LoginLimits):
    """Counts in this process's memory."""

    def __init__(
        self,
        *,
        max_attempts: int = LOGIN_MAX_ATTEMPTS,
        window_seconds: float = LOGIN_WINDOW_SECONDS,
        account_attempts: int = 20,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(
            max_attempts=max_attempts,
            window_seconds=window_seconds,
            account_attempts=account_attempts,
        )
        self._clock = clock
        self._pairs = _Failures(
            keep=max_attempts, window=window_seconds, max_keys=max_keys, clock=clock
        )
        # Enough history to count the doublings of a long attack within the window.
        self._accounts = _Failures(
            keep=account_attempts + 64, window=window_seconds, max_keys=max_keys, clock=clock
        )

    async def retry_after(self, email: str, client: str) -> int | None:
        pair = self._pairs.recent((email, client)) or ()
        account = self._accounts.recent(email) or ()
        return self._wait(list(pair), list(account), self._clock())

    async def failed(self, email: str, client: str) -> None:
        self._pairs.add((email, client))
        self._accounts.add(email)

    async def succeeded(self, email: str, client: str) -> None:
        self._pairs.clear((email, client))
        self._accounts.clear(email)


class RedisLoginLimiter(LoginLimits):
    """Counts in Redis, shared by every worker: a sorted set of failure times per key."""

    def __init__(
        self,
        redis: RedisClient,
        *,
        max_attempts: int = LOGIN_MAX_ATTEMPTS,
        window_seconds: float = LOGIN_WINDOW_SECONDS,
        account_attempts: int = 20,
        prefix: str = "pagechat:",
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(
            max_attempts=max_attempts,
            window_seconds=window_seconds,
            account_attempts=account_attempts,
        )
        self.redis = redis
        self._prefix = prefix
        self._clock = clock

    def _keys(self, email: str, client: str) -> tuple[str, str]:
        account = f"{self._prefix}login:{email}"
        return f"{account}:{client}", account

    async def retry_after(self, email: str, client: str) -> int | None:
        now = self._clock()
        pipe = self.redis.pipeline(transaction=False)
        for key in self._keys(email, client):
            pipe.zremrangebyscore(key, "-inf", now - self.window_seconds)
            pipe.zrange(key, 0, -1, withscores=True)
        replies = await pipe.execute()
        pair, account = ([score for _, score in replies[i]] for i in (1, 3))
        return self._wait(pair, account, now)

    async def failed(self, email: str, client: str) -> None:
        now = self._clock()
        keep = {0: self.max_attempts, 1: self.account_attempts + 64}
        pipe = self.redis.pipeline(transaction=False)
        for i, key in enumerate(self._keys(email, client)):
            pipe.zadd(key, {f"{now}:{uuid.uuid4().hex[:8]}": now})
            pipe.zremrangebyrank(key, 0, -keep[i] - 1)
            pipe.expire(key, math.ceil(self.window_seconds))
        await pipe.execute()

    async def succeeded(self, email: str, client: str) -> None:
        await self.redis.delete(*self._keys(email, client))
