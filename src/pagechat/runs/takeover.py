"""Taking over a run whose owner died: the claim, its bound, and what the new owner gets.

A run whose lease lapsed (its worker was SIGKILLed, its host lost, or it handed its
answers over on SIGTERM) is claimed by one surviving worker: `CLAIM_SCRIPT` makes the
lease the claimer's and the run's `worker` field its id in one step, so exactly one
wins, and it counts the takeovers in the run's metadata. Past `max_takeovers`, or for a
run that left no resume recipe (one that cannot be rebuilt, e.g. with a client's
frontend tools), the script ends the run with an error event instead.

The winner reads the run's whole event log (`Claim.entries`): what followers saw,
exactly, not the last database checkpoint. What to do with it is the chat layer's
(`TakeoverHook`, chat/resume.py); this module knows nothing of turns.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from ..events import Error
from ..metrics import RUN_TAKEOVERS, TAKEOVER_GAP
from .log import encode_event
from .manager import INTERRUPTED_MESSAGE

if TYPE_CHECKING:  # the redis extra: this module is imported without it too
    from ..redis_client import RedisClient
    from .redis_log import RunKeys

__all__ = [
    "CLAIM_SCRIPT",
    "ClaimOutcome",
    "claim_run",
    "decode_recipe",
    "limit_event",
    "read_entries",
]

TAKEOVER_LIMIT_MESSAGE = (
    "This answer was stopped: the servers running it stopped {count} times. "
    "Continue it, or ask again."
)

# KEYS: log, meta, lease. ARGV: worker, lease ms, max takeovers, maxlen, ttl after the
# end, the error (type, json) that ends a run past the bound, and the one that ends a run
# with no resume recipe. Returns {outcome, number, last write in ms, takeovers}: outcome 1
# (claimed; number = takeovers so far), 2 (ended past the bound; number = the error's seq),
# 3 (ended, no recipe; seq), 0 (nothing to do: ended, unknown, or leased by someone).
CLAIM_SCRIPT = """
if redis.call('EXISTS', KEYS[2]) == 0 then return {0, 0, '0'} end
if redis.call('HEXISTS', KEYS[2], 'ended') == 1 then return {0, 0, '0'} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {0, 0, '0'} end
local at = redis.call('HGET', KEYS[2], 'at') or '0'
local count = redis.call('HINCRBY', KEYS[2], 'takeovers', 1)
local outcome, kind, data = 1, nil, nil
if redis.call('HEXISTS', KEYS[2], 'resume') == 0 then
  outcome, kind, data = 3, ARGV[8], ARGV[9]
elseif count > tonumber(ARGV[3]) then
  outcome, kind, data = 2, ARGV[6], ARGV[7]
end
if outcome ~= 1 then
  local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
  local seq = 1
  if #last > 0 then seq = tonumber(string.match(last[1][1], '^(%d+)')) + 1 end
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], seq .. '-0', 't', kind, 'd', data)
  redis.call('HSET', KEYS[2], 'ended', kind)
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  redis.call('EXPIRE', KEYS[2], ARGV[5])
  return {outcome, seq, at, count}
end
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2])
redis.call('HSET', KEYS[2], 'worker', ARGV[1])
return {1, count, at, count}
"""


def limit_event(count: int) -> Error:
    """The error that ends a run taken over more than `count` times (its worker stopped
    once more then)."""
    return Error(message=TAKEOVER_LIMIT_MESSAGE.format(count=count + 1), code="interrupted")


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimOutcome:
    """What `claim_run` did: `claimed` (this worker owns the run now), or `ended` (it
    ended the run with `error`), or neither (another worker got there first)."""

    claimed: bool = False
    ended: Error | None = None
    takeovers: int = 0
    """How often the run has been taken over, this claim (or end) included."""
    last_write: float = 0.0
    """When the old owner last wrote to the log (epoch seconds; 0: unknown)."""


async def claim_run(
    redis: RedisClient,
    script: Callable[..., Awaitable[Any]],
    keys: RunKeys,
    *,
    worker_id: str,
    lease_seconds: float,
    max_takeovers: int,
    max_events: int,
    log_ttl: int,
) -> ClaimOutcome:
    """Claim the run of `keys` for `worker_id`, atomically (`CLAIM_SCRIPT`)."""
    limit = limit_event(max_takeovers)
    orphaned = Error(message=INTERRUPTED_MESSAGE, code="interrupted")
    reply = await script(
        keys=[keys.log, keys.meta, keys.lease],
        args=[
            worker_id,
            int(lease_seconds * 1000),
            max_takeovers,
            max_events,
            log_ttl,
            "error",
            encode_event(limit),
            "error",
            encode_event(orphaned),
        ],
    )
    outcome, number, at = int(reply[0]), int(reply[1]), int(reply[2] or 0)
    count = int(reply[3]) if len(reply) > 3 else 0
    last_write = at / 1000
    if outcome == 1:
        RUN_TAKEOVERS.labels(outcome="claimed").inc()
        if last_write:
            TAKEOVER_GAP.observe(max(0.0, time.time() - last_write))
        return ClaimOutcome(claimed=True, takeovers=number, last_write=last_write)
    if outcome == 2:
        RUN_TAKEOVERS.labels(outcome="limit").inc()
        return ClaimOutcome(ended=limit, takeovers=count, last_write=last_write)
    if outcome == 3:
        RUN_TAKEOVERS.labels(outcome="no_recipe").inc()
        return ClaimOutcome(ended=orphaned, takeovers=count, last_write=last_write)
    return ClaimOutcome()


async def read_entries(redis: RedisClient, keys: RunKeys) -> list[tuple[int, str, bytes]]:
    """Every event of the run's log, `(seq, type, json)`, read in pages."""
    entries: list[tuple[int, str, bytes]] = []
    start = "-"
    while True:
        page: Any = await redis.xrange(keys.log, start, "+", count=2000)
        for entry_id, fields in page:
            entries.append((int(entry_id.split(b"-", 1)[0]), fields[b"t"].decode(), fields[b"d"]))
        if len(page) < 2000:
            return entries
        start = f"({entries[-1][0]}-0"


def decode_recipe(raw: bytes | None) -> dict[str, Any]:
    """A run's resume recipe from its metadata ({} when there is none)."""
    if not raw:
        return {}
    value = orjson.loads(raw)
    return value if isinstance(value, dict) else {}
