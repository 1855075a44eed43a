"""A run's event log in a Redis stream, as other workers read it.

One stream per run, keyed by the run id. Entries carry explicit ids `<seq>-0`,
so the SSE `id:` is the stream id and `Last-Event-ID` is where `XREAD` starts.
Each entry holds the event's type (`t`, so a reader knows the terminal one
without parsing) and its JSON (`d`, sent as is).

Writes happen on the owner (runs/redis.py) through the Lua scripts below: they
refuse to add to a run that has ended, which is how a run ends exactly once
even when its owner and a worker that thinks the owner died race to end it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from redis.exceptions import RedisError

from ..events import Error, RunEvent, to_wire
from ..metrics import REDIS_ERRORS
from ..redis_client import RedisClient
from .log import EventLog

__all__ = [
    "APPEND_SCRIPT",
    "CLUSTER_APPEND_SCRIPT",
    "END_SCRIPT",
    "TERMINAL_TYPES",
    "RemoteEventLog",
    "RunKeys",
    "pack_entry",
]

TERMINAL_TYPES = frozenset({"complete", "error", "cancelled", "approval_requested"})

_BLOCK_MS = 2_000
_READ_COUNT = 1_000

LOST_MESSAGE = "The connection to this answer was lost. Reload the conversation to see it."


class RunKeys:
    """A run's keys. The `{run id}` hash tag keeps them on one shard of a cluster."""

    __slots__ = ("cancel", "lease", "log", "meta")

    def __init__(self, prefix: str, run_id: str) -> None:
        base = f"{prefix}run:{{{run_id}}}"
        self.log = f"{base}:log"
        self.meta = f"{base}:meta"
        self.lease = f"{base}:lease"
        self.cancel = f"{base}:cancel"


# One call writes a whole flush: every run with new events. KEYS: (log, meta) per
# run. ARGV: maxlen, ttl after the end, ttl while running, the writing worker's id, the
# time in ms (kept as the run's `at`: a takeover measures its gap from it), then per run one string
# holding its events, each `<seq> <type> <length>\n<json>` (`pack_entry`): three
# arguments per event cost the worker more CPU to send (redis-py packs every
# argument in Python) than the event cost to make. Returns, per run, 1 (written),
# 0 (the run had already ended: nothing written), -1 (the run is unknown: Redis
# lost it) or 2 (another worker took the run over: this one is fenced off). On a
# Redis Cluster a call holds one shard's runs (CLUSTER_APPEND_SCRIPT).
_APPEND_BODY = """
local results = {}
for r = 1, #K / 2 do
  local log, meta = K[2 * r - 1], K[2 * r]
  local packed = A[5 + r]
  local state = redis.call('HMGET', meta, 'owner', 'ended', 'worker')
  if not state[1] then
    results[r] = -1
  elseif state[2] then
    results[r] = 0
  elseif state[3] and state[3] ~= A[4] then
    results[r] = 2
  else
    redis.call('HSET', meta, 'at', A[5])
    local ended = nil
    local at = 1
    while at <= #packed do
      local head_end = string.find(packed, '\\n', at, true)
      local seq, kind, size = string.match(string.sub(packed, at, head_end - 1),
                                           '^(%d+) (%S+) (%d+)$')
      at = head_end + 1 + tonumber(size)
      redis.call('XADD', log, 'MAXLEN', '~', A[1], seq .. '-0',
                 't', kind, 'd', string.sub(packed, head_end + 1, at - 1))
      if seq == '1' then redis.call('EXPIRE', log, A[3]) end
      if kind == 'complete' or kind == 'error' or kind == 'cancelled'
        or kind == 'approval_requested' then ended = kind end
    end
    if ended then
      redis.call('HSET', meta, 'ended', ended)
      redis.call('EXPIRE', log, A[2])
      redis.call('EXPIRE', meta, A[2])
    end
    results[r] = 1
  end
end
return results
"""

APPEND_SCRIPT = "local K, A = KEYS, ARGV\n" + _APPEND_BODY

CLUSTER_APPEND_SCRIPT = (
    "#!lua flags=allow-cross-slot-keys\n"
    "local n = tonumber(ARGV[1])\n"
    "local K, A = {}, {}\n"
    "for i = 1, n do K[i] = ARGV[1 + i] end\n"
    "for i = n + 2, #ARGV do A[#A + 1] = ARGV[i] end\n"
) + _APPEND_BODY
"""APPEND_SCRIPT for the runs of one shard of a Redis Cluster (7.0 or later). Their keys
sit on several slots of that shard, so none is declared (a cluster refuses declared keys
of several slots): ARGV starts with the number of keys, then the keys, then APPEND_SCRIPT's
arguments. Each run's own two keys share one slot (the `{run id}` hash tag)."""


def pack_entry(seq: int, kind: str, data: bytes) -> bytes:
    """One event as `APPEND_SCRIPT` reads it: a header line, then the JSON, sized."""
    return b"%d %s %d\n%s" % (seq, kind.encode(), len(data), data)


# KEYS: log, meta. ARGV: maxlen, ttl after the end, type, json. Ends a run whose
# owner is gone with one terminal event numbered after the last one written.
# Returns its sequence number, or 0 when the run had already ended (or is unknown).
END_SCRIPT = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[2], 'ended') == 1 then return 0 end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local seq = 1
if #last > 0 then seq = tonumber(string.match(last[1][1], '^(%d+)')) + 1 end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], seq .. '-0', 't', ARGV[3], 'd', ARGV[4])
redis.call('HSET', KEYS[2], 'ended', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return seq
"""


def _lost_json() -> str:
    return to_wire(Error(message=LOST_MESSAGE, code="unavailable")).model_dump_json()


class RemoteEventLog(EventLog):
    """A run owned by another worker, read from its stream; read-only.

    `last_seq` and `closed` are as they were when the run was looked up. If Redis
    fails or forgets the run while it is followed, the reader gets an `error`
    event without an `id:` (so it does not move the resume point) and stops:
    it never waits forever.

    `here` tells whether this worker has since taken the run over (runs/takeover.py):
    then its readers go on from the worker's own log in memory, where the events are
    anyway, instead of reading each one back from Redis.
    """

    def __init__(
        self,
        redis: RedisClient,
        keys: RunKeys,
        *,
        last_seq: int,
        ended: bool,
        here: Callable[[], EventLog | None] | None = None,
    ) -> None:
        self._redis = redis
        self._keys = keys
        self._last_seq = last_seq
        self._ended = ended
        self._here = here
        self._local: EventLog | None = None
        """This worker's own log of the run, once it has taken the run over."""

    def add(self, event: RunEvent) -> int:
        raise RuntimeError("another worker owns this run")

    def close(self) -> None:
        raise RuntimeError("another worker owns this run")

    @property
    def closed(self) -> bool:
        return self._ended

    @property
    def last_seq(self) -> int:
        return self._last_seq

    async def _entries(self, after: int) -> AsyncIterator[list[tuple[int, bytes, bytes]] | None]:
        """Batches of `(seq, type, json)` after `after`; None once when the run is lost.
        Ends early, with no end of the run, once `_local` is set (taken over here)."""
        last = max(0, after)
        while True:
            if self._here is not None and (local := self._here()) is not None:
                self._local = local
                return
            try:
                reply: Any = await self._redis.xread(
                    {self._keys.log: f"{last}-0"}, count=_READ_COUNT, block=_BLOCK_MS
                )
                if not reply:
                    # Quiet for a while: is the run still known at all?
                    if not await self._redis.exists(self._keys.meta):
                        yield None
                        return
                    continue
            except RedisError:
                REDIS_ERRORS.labels(operation="follow").inc()
                yield None
                return
            batch: list[tuple[int, bytes, bytes]] = []
            for entry_id, fields in reply[0][1]:
                last = int(entry_id.split(b"-", 1)[0])
                batch.append((last, fields[b"t"], fields[b"d"]))
            yield batch
            if batch and batch[-1][1].decode() in TERMINAL_TYPES:
                return

    async def follow(self, after: int = 0) -> AsyncIterator[tuple[int, str]]:
        last = after
        async for batch in self._entries(after):
            if batch is None:
                # No sequence number of its own: it is not part of the run's log.
                yield 0, _lost_json()
                return
            for seq, _type, data in batch:
                yield seq, data.decode()
            last = batch[-1][0] if batch else last
        if self._local is not None:
            async for item in self._local.follow(last):
                yield item

    async def follow_wire(self, after: int = 0) -> AsyncIterator[bytes]:
        last = after
        async for batch in self._entries(after):
            if batch is None:
                yield b"data: %s\n\n" % _lost_json().encode()
                return
            yield b"".join(b"id: %d\ndata: %s\n\n" % (seq, data) for seq, _type, data in batch)
            last = batch[-1][0] if batch else last
        if self._local is not None:
            async for chunk in self._local.follow_wire(last):
                yield chunk
