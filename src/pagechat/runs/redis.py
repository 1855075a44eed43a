"""Runs shared by every worker through Redis: logs, Stop and ownership.

The worker that starts an answer owns its run: it drives the agent loop and
writes the events. Its readers in the same process read memory, as with one
worker; every event also goes to the run's Redis stream (runs/redis_log.py),
where any other worker reads it. Writes are batched: one pipeline per flush,
holding every run's events since the last one, so the number of round trips
falls as load grows instead of following the tokens.

Stop sent to any worker sets a key and is published; the owner cancels the run
as soon as the message arrives, or at its next heartbeat if the message was
missed. The owner renews a lease on each of its runs; a run whose lease lapses
(the owner was killed, its host lost) is taken over by whichever worker notices
first (runs/takeover.py): it claims the run atomically, reads its whole log and
goes on with the answer in the same run, seq numbers continuing (the chat layer's
`TakeoverHook`). A worker that receives SIGTERM hands its answers over at once: it
writes what it has, releases their leases and tells the others, which claim them
without waiting for the lease. The old owner is fenced off: the append script
refuses its writes once another worker holds the run. A run that cannot be taken
over (no resume recipe, or taken over too often) is ended with an error event
instead, and its stored answer holds what its followers saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import orjson
from redis.asyncio.client import PubSub
from redis.exceptions import NoScriptError, RedisError

from .. import defaults
from ..events import Error, decode_event
from ..metrics import REDIS_ERRORS
from ..redis_client import RedisClient, is_cluster
from .log import EventLog, MemoryEventLog, sse_frame
from .manager import (
    MOVED,
    Claim,
    Run,
    RunManager,
    RunNotFound,
    RunsUnavailable,
    TakeoverHook,
    interrupted_event,
    moved_event,
)
from .redis_log import (
    APPEND_SCRIPT,
    CLUSTER_APPEND_SCRIPT,
    END_SCRIPT,
    TERMINAL_TYPES,
    RemoteEventLog,
    RunKeys,
    pack_entry,
)
from .takeover import CLAIM_SCRIPT, claim_run, decode_recipe, read_entries

__all__ = ["RedisRunManager"]

logger = logging.getLogger(__name__)

InterruptedHook = Callable[[list[str]], Awaitable[object]]
"""Told the ids of runs ended because their owner died: their stored answers become interrupted."""

_RUNNING_TTL = 24 * 3600
"""A run's keys expire this long after its last write even if nobody ends it."""

_FLUSH_WINDOW = 0.005
"""At most one write to Redis per this many seconds (and worker): many events per call."""

UNAVAILABLE_MESSAGE = "The answer was stopped: the server lost its connection to the run log."

# KEYS: lease. ARGV: worker. Deletes the lease only if it is still this worker's.
_RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(eq=False)
class _Outbox:
    """Events of one run written locally and not yet in Redis."""

    keys: RunKeys
    entries: list[bytes] = field(default_factory=list)
    """Each event packed as the append script reads it (`pack_entry`)."""
    ending: bool = False
    """A terminal event is among `entries`."""
    registered: bool = False
    ended: bool = False
    retries: int = 0


@dataclass(eq=False, slots=True)
class _Sent:
    """One run's part of a flush: its events as sent, and whether they end it."""

    run_id: str
    box: _Outbox
    entries: list[bytes]
    ending: bool


class _OwnedLog(MemoryEventLog):
    """The owner's log: read from memory here, mirrored to the run's stream."""

    def __init__(self, manager: RedisRunManager, run_id: str) -> None:
        super().__init__()
        self._manager = manager
        self._run_id = run_id
        self.written = asyncio.get_running_loop().create_future()
        """Resolved once the terminal event is in Redis, or the mirror has failed."""
        self.broken = False
        self.open_tools = 0
        """Tool calls started and not completed: a handover waits for them (a write
        cut off would leave its outcome unknown)."""
        self.no_tool_running = asyncio.Event()
        self.no_tool_running.set()

    def _add(self, event_type: str, data: bytes) -> int:
        seq = super()._add(event_type, data)
        if event_type == "tool_start":
            self.open_tools += 1
            self.no_tool_running.clear()
        elif event_type == "tool_complete" and self.open_tools:
            self.open_tools -= 1
            if not self.open_tools:
                self.no_tool_running.set()
        if not self.broken:
            self._manager._enqueue(self._run_id, seq, event_type, data)
        return seq

    def preload(self, entries: list[tuple[int, str, bytes]]) -> None:
        """A taken-over run's log so far (already in Redis): readers here replay it, and
        the new owner's events are numbered after it."""
        for seq, kind, data in entries:
            if seq != len(self._frames) + 1:
                raise ValueError(f"run log of {self._run_id} has a gap before {seq}")
            self._frames.append(sse_frame(data, seq))
            self._events.append(
                orjson.loads(data)["text"] if kind == "text_delta" else decode_event(data.decode())
            )

    def settle(self) -> None:
        if not self.written.done():
            self.written.set_result(None)


class RedisRunManager(RunManager):
    """Runs on any number of workers (and hosts) sharing one Redis, or one Redis Cluster."""

    def __init__(
        self,
        redis: RedisClient,
        *,
        retain_seconds: float = defaults.RUN_LOG_TTL_SECONDS,
        drain_seconds: float = defaults.DRAIN_SECONDS,
        lease_seconds: float = defaults.RUN_LEASE_SECONDS,
        max_events: int = defaults.RUN_LOG_MAX_EVENTS,
        prefix: str = "pagechat:",
        on_interrupted: InterruptedHook | None = None,
        max_takeovers: int = defaults.MAX_TAKEOVERS,
    ) -> None:
        # Finished runs stay in memory briefly (readers here); Redis keeps them `retain_seconds`.
        super().__init__(retain_seconds=min(retain_seconds, 60.0), drain_seconds=drain_seconds)
        self.redis = redis
        self.log_ttl = max(1, int(retain_seconds))
        self.lease_seconds = lease_seconds
        self.max_events = max_events
        self.prefix = prefix
        self.on_interrupted = on_interrupted
        self.max_takeovers = max_takeovers
        """A run taken over more often than this ends with an error instead."""
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.live_key = f"{prefix}runs:live"
        self._channel = f"{prefix}runs:stop"
        self._cluster = is_cluster(redis)
        # On a cluster a flush calls the script once per shard, with the keys of its runs.
        self._append_script = CLUSTER_APPEND_SCRIPT if self._cluster else APPEND_SCRIPT
        self._append = redis.register_script(self._append_script)
        self._end = redis.register_script(END_SCRIPT)
        self._claim = redis.register_script(CLAIM_SCRIPT)
        self._release = redis.register_script(_RELEASE_SCRIPT)
        self._claiming: set[str] = set()
        self._outbox: dict[str, _Outbox] = {}
        self._wake = asyncio.Event()
        self._flushed_at = 0.0
        self._tasks: list[asyncio.Task[None]] = []

    def keys(self, run_id: str) -> RunKeys:
        """The Redis keys of run `run_id`."""
        return RunKeys(self.prefix, run_id)

    # --- lifecycle ----------------------------------------------------------------

    async def open(self) -> None:
        try:
            await self.redis.script_load(self._append_script)
        except RedisError as exc:
            raise RunsUnavailable(f"Redis is not reachable: {exc}") from exc
        ready = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._flush_forever(), name="pagechat-runs-flush"),
            asyncio.create_task(self._heartbeat_forever(), name="pagechat-runs-lease"),
            asyncio.create_task(self._listen_forever(ready), name="pagechat-runs-stop"),
        ]
        # Stop messages published from now on reach us.
        await asyncio.wait_for(ready.wait(), timeout=10)

    async def live_run_ids(self) -> set[str]:
        """Runs some worker owns now (for start-up: their answers are not interrupted)."""
        members: Any = await self.redis.smembers(self.live_key)
        return {m.decode() for m in members}

    async def _closed(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        await self.redis.aclose()

    # --- the owner's side -------------------------------------------------------

    def _new_log(self, run_id: str) -> EventLog:
        self._outbox[run_id] = _Outbox(self.keys(run_id))
        return _OwnedLog(self, run_id)

    def _enqueue(self, run_id: str, seq: int, kind: str, data: bytes) -> None:
        box = self._outbox.get(run_id)
        if box is None:
            return
        box.entries.append(pack_entry(seq, kind, data))
        if kind in TERMINAL_TYPES:
            box.ending = True
        self._wake.set()

    async def _flush_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            # Events of the next few ms go in the same call: the owner's own readers
            # read memory and do not wait; readers on other workers get them this late.
            await asyncio.sleep(max(0.0, self._flushed_at + _FLUSH_WINDOW - loop.time()))
            self._wake.clear()
            self._flushed_at = loop.time()
            batch = {rid: box for rid, box in self._outbox.items() if box.entries}
            if not batch:
                continue
            try:
                await self._flush(batch)
            except Exception:  # never let one bad flush stop every run's writes
                logger.exception("writing run events to Redis failed")

    async def _flush(self, batch: dict[str, _Outbox]) -> None:
        """New runs registered, then every run's events through the append script: one
        round trip on one Redis, one call per shard on a cluster."""
        pipe = None
        sent: list[_Sent] = []
        for run_id, box in batch.items():
            if not box.registered:
                if pipe is None:
                    pipe = self.redis.pipeline(transaction=False)
                self._register(pipe, run_id, box.keys)
                box.registered = True
            entries, box.entries = box.entries, []
            ending, box.ending = box.ending, False
            sent.append(_Sent(run_id, box, entries, ending))
        if self._cluster:
            outcomes = await self._append_per_shard(pipe, sent)
        else:
            outcomes = await self._append_all(pipe, sent)
        retry = [
            item
            for item, outcome in zip(sent, outcomes, strict=True)
            if isinstance(outcome, NoScriptError) and item.box.retries < 3
        ]
        for item in retry:
            # Redis restarted and lost the script: load it and send these events again.
            # The runs Redis knew before the restart are gone: that retry answers -1.
            item.box.retries += 1
            item.box.entries[:0] = item.entries
            item.box.ending = item.box.ending or item.ending
        for item, outcome in zip(sent, outcomes, strict=True):
            if item not in retry:
                self._settle(item.run_id, item.box, item.ending, outcome)
        if retry:
            await self._load_append()
            self._wake.set()

    def _register(self, pipe: Any, run_id: str, keys: RunKeys) -> None:
        run = self._runs[run_id]
        meta = {"owner": run.owner_id, "conversation": run.conversation_id or ""}
        if run.resume is not None and self.takeover is not None:
            meta["resume"] = run.resume  # type: ignore[assignment]
        pipe.hset(keys.meta, mapping={**meta, "worker": self.worker_id})
        pipe.expire(keys.meta, _RUNNING_TTL)
        pipe.set(keys.lease, self.worker_id, px=int(self.lease_seconds * 1000))
        pipe.sadd(self.live_key, run_id)

    def _call_args(self, sent: list[_Sent]) -> tuple[int, list[str | bytes | int]]:
        keys: list[str | bytes | int] = []
        for item in sent:
            keys += (item.box.keys.log, item.box.keys.meta)
        packed = [b"".join(item.entries) for item in sent]
        now_ms = int(time.time() * 1000)
        fixed: list[str | bytes | int] = [
            self.max_events,
            self.log_ttl,
            _RUNNING_TTL,
            self.worker_id,
            now_ms,
        ]
        return len(keys), [*keys, *fixed, *packed]

    async def _append_all(self, pipe: Any, sent: list[_Sent]) -> list[Any]:
        """One Redis: every run in one script call, behind the registrations if any."""
        # EVALSHA, not the Script helper: in a pipeline that asks SCRIPT EXISTS first,
        # one more round trip per flush. A restarted Redis answers NOSCRIPT instead.
        # Most flushes register nothing: the call goes alone, without a pipeline's cost.
        count, call = self._call_args(sent)
        outcome: Any
        try:
            if pipe is None:
                outcome = await self.redis.evalsha(self._append.sha, count, *call)
            else:
                pipe.evalsha(self._append.sha, count, *call)
                outcome = (await pipe.execute(raise_on_error=False))[-1]
        except RedisError as exc:
            outcome = exc
        return [outcome] * len(sent) if isinstance(outcome, Exception) else list(outcome)

    async def _append_per_shard(self, pipe: Any, sent: list[_Sent]) -> list[Any]:
        """A cluster: registrations first, then one script call per shard, side by side."""
        if pipe is not None:
            try:
                await pipe.execute()
            except RedisError as exc:
                return [exc] * len(sent)
        cluster: Any = self.redis
        shards: dict[str, tuple[Any, list[int]]] = {}
        for index, item in enumerate(sent):
            node = cluster.get_node_from_key(item.box.keys.log)
            shards.setdefault(node.name, (node, []))[1].append(index)

        async def call(node: Any, indexes: list[int]) -> list[Any]:
            # No key declared: the script reads them from its arguments, after their count.
            count, args = self._call_args([sent[i] for i in indexes])
            try:
                return list(
                    await cluster.execute_command(
                        "EVALSHA", self._append.sha, 0, count, *args, target_nodes=node
                    )
                )
            except RedisError as exc:  # a shard down or moving: its runs end, not others'
                return [exc] * len(indexes)

        outcomes: list[Any] = [None] * len(sent)
        replies = await asyncio.gather(*(call(node, ix) for node, ix in shards.values()))
        for (_node, indexes), reply in zip(shards.values(), replies, strict=True):
            for index, outcome in zip(indexes, reply, strict=True):
                outcomes[index] = outcome
        return outcomes

    def _settle(self, run_id: str, box: _Outbox, ending: bool, result: Any) -> None:
        run = self._runs.get(run_id)
        log = run.log if run is not None else None
        if result == 1:
            if ending:
                box.ended = True
                self._outbox.pop(run_id, None)
                if isinstance(log, _OwnedLog):
                    log.settle()
            return
        if isinstance(result, Exception):
            REDIS_ERRORS.labels(operation="append").inc()
            logger.warning("writing the events of run %s to Redis failed: %s", run_id, result)
            failure = Error(message=UNAVAILABLE_MESSAGE, code="unavailable")
        elif result == 0:
            # Another worker took us for dead and ended the run: it ends here the same way.
            failure = interrupted_event()
        elif result == 2:
            # Another worker took us for dead and goes on with the run: it stops here.
            failure = moved_event()
        else:
            logger.warning("Redis no longer knows run %s (restarted?)", run_id)
            failure = Error(message=UNAVAILABLE_MESSAGE, code="unavailable")
        self._outbox.pop(run_id, None)
        if isinstance(log, _OwnedLog):
            log.broken = True
            log.settle()
        if run is not None:
            run.cancel(failure)

    async def _load_append(self) -> None:
        with contextlib.suppress(RedisError):
            await self.redis.script_load(self._append_script)

    async def _ended(self, run: Run) -> None:
        log = run.log
        if not isinstance(log, _OwnedLog):
            return
        if run.failure is not None and run.failure.code == MOVED:
            await self._hand_over(run, log)
            return
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(log.written), timeout=10)
        self._outbox.pop(run.id, None)
        keys = self.keys(run.id)
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.srem(self.live_key, run.id)
            pipe.delete(keys.lease)
            await pipe.execute()
        except RedisError:
            REDIS_ERRORS.labels(operation="end").inc()

    # --- Stop, from any worker -------------------------------------------------

    async def find(self, run_id: str, *, owner_id: str) -> Run:
        with contextlib.suppress(RunNotFound):
            return self.get(run_id, owner_id=owner_id)
        keys = self.keys(run_id)
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hgetall(keys.meta)
            pipe.xrevrange(keys.log, "+", "-", count=1)
            meta, last = await pipe.execute()
        except RedisError as exc:
            REDIS_ERRORS.labels(operation="find").inc()
            raise RunsUnavailable("The run log cannot be reached right now.") from exc
        # Another user's run is indistinguishable from a missing one.
        if not meta or meta.get(b"owner", b"").decode() != owner_id:
            raise RunNotFound(run_id)
        last_seq = int(last[0][0].split(b"-", 1)[0]) if last else 0
        ended = meta.get(b"ended")
        run = Run(
            run_id,
            owner_id,
            meta.get(b"conversation", b"").decode() or None,
            RemoteEventLog(
                self.redis,
                keys,
                last_seq=last_seq,
                ended=ended is not None,
                here=lambda: self._driven_here(run_id),
            ),
        )
        run.terminal = ended.decode() if ended is not None else None
        return run

    def _driven_here(self, run_id: str) -> EventLog | None:
        """This worker's own log of `run_id` if it drives the run now (it took it over
        while a reader here followed it from Redis)."""
        run = self._runs.get(run_id)
        return run.log if run is not None and isinstance(run.log, _OwnedLog) else None

    async def stop(self, run: Run) -> bool:
        if run.task is not None:
            return run.cancel()
        if run.done:
            return False
        keys = self.keys(run.id)
        try:
            if self._cluster:  # a cluster's pipeline refuses PUBLISH
                await self.redis.set(keys.cancel, "1", ex=self.log_ttl)
                await self.redis.publish(self._channel, f"run:{run.id}")
            else:
                pipe = self.redis.pipeline(transaction=False)
                pipe.set(keys.cancel, "1", ex=self.log_ttl)
                pipe.publish(self._channel, f"run:{run.id}")
                await pipe.execute()
        except RedisError as exc:
            REDIS_ERRORS.labels(operation="stop").inc()
            raise RunsUnavailable("The run log cannot be reached right now.") from exc
        return True

    async def stop_conversation(self, conversation_id: str) -> None:
        await super().stop_conversation(conversation_id)
        try:
            await self.redis.publish(self._channel, f"conversation:{conversation_id}")
        except RedisError:
            REDIS_ERRORS.labels(operation="stop").inc()

    def _on_stop(self, message: str) -> None:
        kind, _, ident = message.partition(":")
        if kind == "takeover":
            # A worker shutting down released this run: claim it now, not at the next beat.
            if not self.draining:
                task = asyncio.get_running_loop().create_task(self._take_over(ident))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
            return
        for run in self.active():
            if run.task is None:
                continue
            if (kind == "run" and run.id == ident) or (
                kind == "conversation" and run.conversation_id == ident
            ):
                run.cancel()

    async def _listen_forever(self, ready: asyncio.Event) -> None:
        while True:
            pubsub: PubSub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._channel)
                ready.set()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._on_stop(message["data"].decode())
            except RedisError:
                REDIS_ERRORS.labels(operation="subscribe").inc()
                # Stops meanwhile are still seen: the heartbeat reads the stop keys.
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(RedisError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    # --- leases ---------------------------------------------------------------

    async def _heartbeat_forever(self) -> None:
        period = self.lease_seconds / 3
        while True:
            await asyncio.sleep(period)
            try:
                await self._renew()
                await self._reap()
            except RedisError as exc:
                REDIS_ERRORS.labels(operation="lease").inc()
                logger.warning("renewing run leases failed: %s", exc)
            except Exception:
                logger.exception("the run lease heartbeat failed")

    async def _renew(self) -> None:
        mine = [r for r in self.active() if r.task is not None]
        if not mine:
            return
        pipe = self.redis.pipeline(transaction=False)
        for run in mine:
            keys = self.keys(run.id)
            pipe.set(keys.lease, self.worker_id, px=int(self.lease_seconds * 1000))
            pipe.exists(keys.cancel)
            pipe.hget(keys.meta, "worker")
        replies = await pipe.execute()
        for run, stopped, worker in zip(mine, replies[1::3], replies[2::3], strict=True):
            if worker is not None and worker.decode() != self.worker_id:
                # We were taken for dead and another worker goes on with it (the lease
                # just renewed is harmless: claims need it lapsed, and its owner renews too).
                if isinstance(run.log, _OwnedLog):
                    run.log.broken = True
                run.cancel(moved_event())
            elif stopped:
                run.cancel()

    async def _reap(self) -> None:
        """Take over (or end) the runs whose owner stopped renewing its lease."""
        if self.draining:
            return
        live = await self.live_run_ids()
        others = [rid for rid in live if rid not in self._runs and rid not in self._claiming]
        if not others:
            return
        pipe = self.redis.pipeline(transaction=False)
        for run_id in others:
            pipe.exists(self.keys(run_id).lease)
        leased = await pipe.execute()
        orphans = [rid for rid, held in zip(others, leased, strict=True) if not held]
        for run_id in orphans:
            await self._take_over(run_id)

    async def _take_over(self, run_id: str) -> None:
        """Claim one orphaned run: go on with it here, or end it (runs/takeover.py)."""
        if self.draining or run_id in self._runs or run_id in self._claiming:
            return
        self._claiming.add(run_id)
        try:
            keys = self.keys(run_id)
            outcome = await claim_run(
                self.redis,
                self._claim,
                keys,
                worker_id=self.worker_id,
                lease_seconds=self.lease_seconds,
                max_takeovers=self.max_takeovers,
                max_events=self.max_events,
                log_ttl=self.log_ttl,
            )
            if not outcome.claimed and outcome.ended is None:
                # Someone else got there first (or it ended): nothing of ours.
                exists = await self.redis.exists(keys.meta)
                if not exists:
                    await self.redis.srem(self.live_key, run_id)
                return
            meta: Any = await self.redis.hgetall(keys.meta)
            claim = Claim(
                run_id=run_id,
                owner_id=meta.get(b"owner", b"").decode(),
                conversation_id=meta.get(b"conversation", b"").decode() or None,
                resume=decode_recipe(meta.get(b"resume")),
                entries=await read_entries(self.redis, keys),
                takeovers=outcome.takeovers,
                last_write=outcome.last_write,
            )
            if outcome.claimed and self.takeover is not None:
                self._adopt_claimed(claim, self.takeover)
                logger.warning("took over answer %s (takeover %d)", run_id, claim.takeovers)
                return
            await self.redis.srem(self.live_key, run_id)
            await self._store_ended(claim, outcome.ended or interrupted_event())
        finally:
            self._claiming.discard(run_id)

    def _adopt_claimed(self, claim: Claim, hook: TakeoverHook) -> None:
        log = _OwnedLog(self, claim.run_id)
        log.preload(claim.entries)
        box = _Outbox(self.keys(claim.run_id))
        box.registered = True  # its metadata, lease and live entry are there already
        self._outbox[claim.run_id] = box
        run = Run(claim.run_id, claim.owner_id, claim.conversation_id, log)
        run.resume = orjson.dumps(claim.resume)
        run.epoch = claim.takeovers

        async def body(run: Run) -> None:
            await hook.take_over(run, claim)

        self.adopt(run, body)

    async def _store_ended(self, claim: Claim, error: Any) -> None:
        logger.warning("ended answer %s whose worker stopped: %s", claim.run_id, error.message)
        if self.takeover is not None:
            await self.takeover.store_ended(claim, error)
        elif self.on_interrupted is not None:
            await self.on_interrupted([claim.run_id])

    async def _hand_over(self, run: Run, log: _OwnedLog) -> None:
        """A run that goes on elsewhere: what it wrote reaches Redis, its lease is released
        (if still ours) and the other workers are told to claim it now."""
        box = self._outbox.get(run.id)
        loop = asyncio.get_running_loop()
        until = loop.time() + 5
        while box is not None and box.entries and not log.broken and loop.time() < until:
            self._wake.set()
            await asyncio.sleep(_FLUSH_WINDOW)
        self._outbox.pop(run.id, None)
        if log.broken:
            return  # taken over already, or Redis lost: nothing of ours to release
        try:
            await self._release(keys=[self.keys(run.id).lease], args=[self.worker_id])
            await self.redis.publish(self._channel, f"takeover:{run.id}")
        except RedisError:
            REDIS_ERRORS.labels(operation="handover").inc()

    async def _hand_over_when_idle(self, run: Run) -> None:
        """Hand `run` over once no tool call of it is running (within `drain_seconds`):
        the call finishes here, its result in the log, and is never left unknown."""
        log = run.log
        if isinstance(log, _OwnedLog) and log.open_tools and run.task is not None:
            idle = asyncio.ensure_future(log.no_tool_running.wait())
            await asyncio.wait(
                [idle, run.task], timeout=self.drain_seconds, return_when=asyncio.FIRST_COMPLETED
            )
            idle.cancel()
        run.cancel(moved_event())

    async def shutdown(self) -> None:
        """Hand every running answer that can be taken over to the other workers at once
        (SIGTERM: a rolling restart ends no answer); the rest drain as before."""
        self.draining = True
        movable = (
            [r for r in self.active() if r.task is not None and r.resume is not None]
            if self.takeover is not None
            else []
        )
        if movable:
            logger.info("handing %d answers over to the other workers", len(movable))
            await asyncio.gather(*(self._hand_over_when_idle(r) for r in movable))
            await asyncio.gather(*(r.task for r in movable if r.task), return_exceptions=True)
        await super().shutdown()

    def owned(self) -> Collection[str]:
        """Ids of the runs this worker is running."""
        return [r.id for r in self.active() if r.task is not None]
