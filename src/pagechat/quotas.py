"""Per-user quotas: how much of the server one account may take.

Each role (user, admin) has a `QuotaPolicy`: answers running at once, turns per
minute, model tokens per day, and the longest message. A turn is admitted (or
refused with `QuotaExceeded`, which the app answers 429 with `Retry-After`)
before anything is stored; its running answer is released when the run ends,
and the tokens it used are added to the day's count.

`MemoryQuotas` counts in this process. `RedisQuotas` counts in Redis, so the
limits hold across workers: one Lua script checks and records a turn
atomically. A running answer is recorded with an expiry its worker keeps
renewing, so the answers of a worker that died stop counting within a minute.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import math
import time
from collections import defaultdict, deque
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from .identity import Principal
from .metrics import REDIS_ERRORS
from .protocol import MAX_MESSAGE_CHARS

if TYPE_CHECKING:
    from .redis_client import RedisClient

__all__ = [
    "MemoryQuotas",
    "QuotaExceeded",
    "QuotaPolicy",
    "QuotaSettings",
    "Quotas",
    "RedisQuotas",
]

QuotaName = Literal["concurrent_answers", "turns_per_minute", "tokens_per_day", "message_chars"]

_DAY = 86_400
_HOLD_SECONDS = 60.0
"""A running answer's record lives this long unless its worker renews it."""


class QuotaPolicy(BaseModel):
    """The limits of one role: answers at once, turns a minute, tokens a day, message length."""

    concurrent_answers: int = Field(default=3, ge=1)
    turns_per_minute: int = Field(default=20, ge=1)
    tokens_per_day: int = Field(default=2_000_000, ge=1)
    """Model tokens (input and output) a day, UTC."""
    max_message_chars: int = Field(default=MAX_MESSAGE_CHARS, ge=1, le=MAX_MESSAGE_CHARS)
    attachment_bytes: int = Field(default=10 * 1024 * 1024, ge=1)
    """The largest file one upload may be (`POST /api/attachments`: 413 over it)."""
    attachments_per_message: int = Field(default=5, ge=0)
    """Files one message may carry (422 over it)."""
    attachment_bytes_per_day: int = Field(default=100 * 1024 * 1024, ge=1)
    """Bytes a user may upload a day, UTC (429 over it)."""
    attachment_bytes_stored: int = Field(default=500 * 1024 * 1024, ge=1)
    """Bytes of attachments a user may keep at once (429 over it; deleting frees them)."""


class QuotaSettings(BaseModel):
    """`PAGECHAT_QUOTAS` as JSON, e.g. `{"user": {"turns_per_minute": 10}}`."""

    user: QuotaPolicy = Field(default_factory=QuotaPolicy)
    admin: QuotaPolicy = Field(
        default_factory=lambda: QuotaPolicy(concurrent_answers=10, turns_per_minute=60)
    )

    def for_user(self, user: Principal) -> QuotaPolicy:
        """The policy of `user`'s role."""
        return self.admin if user.is_admin else self.user


class QuotaExceeded(Exception):
    """The caller is over its share: try again after `retry_after` seconds."""

    def __init__(self, quota: QuotaName, limit: int, retry_after: int, message: str) -> None:
        super().__init__(message)
        self.quota = quota
        self.limit = limit
        self.retry_after = retry_after
        self.message = message


def _refusal(quota: QuotaName, policy: QuotaPolicy, retry_after: float) -> QuotaExceeded:
    wait = max(1, math.ceil(retry_after))
    if quota == "concurrent_answers":
        limit = policy.concurrent_answers
        text = f"You already have {limit} answers running. Wait for one to finish, or stop one."
    elif quota == "turns_per_minute":
        limit = policy.turns_per_minute
        text = f"You have sent {limit} messages this minute. Please wait {wait} s."
    else:
        limit = policy.tokens_per_day
        text = "You have used today's share of the assistant. It renews at midnight UTC."
    return QuotaExceeded(quota, limit, wait, text)


def _until_midnight(now: float) -> float:
    return _DAY - now % _DAY


def check_message(message: str, policy: QuotaPolicy) -> None:
    if len(message) > policy.max_message_chars:
        raise QuotaExceeded(
            "message_chars",
            policy.max_message_chars,
            0,
            f"The message is too long: at most {policy.max_message_chars:,} characters.",
        )


class Quotas(abc.ABC):
    """Admits turns within their user's quotas and counts what they use."""

    def __init__(self, settings: QuotaSettings | None = None) -> None:
        self.settings = settings or QuotaSettings()

    async def admit(self, user: Principal, run_id: str, message: str) -> None:
        """Record the turn and its running answer, or raise QuotaExceeded."""
        policy = self.settings.for_user(user)
        check_message(message, policy)
        await self._admit(user.id, run_id, policy)

    @abc.abstractmethod
    async def _admit(self, user_id: str, run_id: str, policy: QuotaPolicy) -> None: ...

    @abc.abstractmethod
    async def release(self, user_id: str, run_id: str, *, tokens: int) -> None:
        """The answer ended, having used `tokens` model tokens."""

    async def aclose(self) -> None:  # noqa: B027 (optional: only some hold resources)
        """At shutdown."""


class MemoryQuotas(Quotas):
    """Counts for one process."""

    def __init__(self, settings: QuotaSettings | None = None) -> None:
        super().__init__(settings)
        self._running: dict[str, set[str]] = defaultdict(set)
        self._turns: dict[str, deque[float]] = defaultdict(deque)
        self._tokens: dict[tuple[str, int], int] = defaultdict(int)

    async def _admit(self, user_id: str, run_id: str, policy: QuotaPolicy) -> None:

        now = time.time()
        if len(self._running[user_id]) >= policy.concurrent_answers:
            raise _refusal("concurrent_answers", policy, 5)
        if self._tokens[(user_id, int(now // _DAY))] >= policy.tokens_per_day:
            raise _refusal("tokens_per_day", policy, _until_midnight(now))
        turns = self._turns[user_id]
        while turns and turns[0] <= now - 60:
            turns.popleft()
        if len(turns) >= policy.turns_per_minute:
            raise _refusal("turns_per_minute", policy, turns[0] + 60 - now)
        turns.append(now)
        self._running[user_id].add(run_id)

    async def release(self, user_id: str, run_id: str, *, tokens: int) -> None:
        self._running[user_id].discard(run_id)
        self._tokens[(user_id, int(time.time() // _DAY))] += tokens


# KEYS: running (zset run -> expiry), turns (zset of this minute's turns), tokens (today's).
# ARGV: now, run id, hold seconds, max running, max turns, max tokens, seconds to midnight.
# Returns {quota, retry after} when refused, else {"", 0}.
_ADMIT_SCRIPT = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return {'concurrent_answers', '5'} end
if tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[6]) then
  return {'tokens_per_day', ARGV[7]}
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return {'turns_per_minute', tostring(tonumber(oldest[2]) + 60 - now)}
end
redis.call('ZADD', KEYS[2], now, ARGV[2])
redis.call('EXPIRE', KEYS[2], 61)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('EXPIRE', KEYS[1], 86400)
return {'', '0'}
"""


class RedisQuotas(Quotas):
    """Counts shared by every worker."""

    def __init__(
        self,
        redis: RedisClient,
        settings: QuotaSettings | None = None,
        *,
        prefix: str = "pagechat:",
    ) -> None:
        super().__init__(settings)
        self.redis = redis
        self.prefix = prefix
        self._admit_script = redis.register_script(_ADMIT_SCRIPT)
        self._held: dict[str, str] = {}
        """Running answers admitted here: run id -> user id; renewed while they run."""
        self._renewer: asyncio.Task[None] | None = None

    def _keys(self, user_id: str, now: float) -> list[str]:
        base = f"{self.prefix}quota:{{{user_id}}}"
        return [f"{base}:running", f"{base}:turns", f"{base}:tokens:{int(now // _DAY)}"]

    async def _admit(self, user_id: str, run_id: str, policy: QuotaPolicy) -> None:
        from redis.exceptions import RedisError  # the redis extra: here, not at import

        now = time.time()
        try:
            quota, retry_after = await self._admit_script(
                keys=self._keys(user_id, now),
                args=[
                    now,
                    run_id,
                    _HOLD_SECONDS,
                    policy.concurrent_answers,
                    policy.turns_per_minute,
                    policy.tokens_per_day,
                    _until_midnight(now),
                ],
            )
        except RedisError:
            # Quotas protect the service; without Redis the turn could not run anyway.
            REDIS_ERRORS.labels(operation="quota").inc()
            raise
        if quota:
            raise _refusal(quota.decode(), policy, float(retry_after))
        self._held[run_id] = user_id
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.create_task(self._renew_forever(), name="pagechat-quota-hold")

    async def release(self, user_id: str, run_id: str, *, tokens: int) -> None:
        from redis.exceptions import RedisError

        self._held.pop(run_id, None)
        running, _turns, spent = self._keys(user_id, time.time())
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zrem(running, run_id)
            if tokens > 0:
                pipe.incrby(spent, tokens)
                pipe.expire(spent, 2 * _DAY)
            await pipe.execute()
        except RedisError:
            # The hold expires by itself; the tokens of this answer go uncounted.
            REDIS_ERRORS.labels(operation="quota").inc()

    async def _renew_forever(self) -> None:
        from redis.exceptions import RedisError

        while self._held:
            await asyncio.sleep(_HOLD_SECONDS / 3)
            now = time.time()
            with contextlib.suppress(RedisError):
                pipe = self.redis.pipeline(transaction=False)
                for run_id, user_id in list(self._held.items()):
                    pipe.zadd(self._keys(user_id, now)[0], {run_id: now + _HOLD_SECONDS}, xx=True)
                await pipe.execute()

    async def aclose(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
