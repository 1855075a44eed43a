"""`RedisRunManager`: two managers on one real redis-server are two workers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from pagechat.events import Complete, TextDelta, to_wire
from pagechat.protocol import ChatResponsePayload
from pagechat.runs import Run, RunNotFound
from pagechat.runs.redis import RedisRunManager


class Worker:
    def __init__(self, url: str, **options: float) -> None:
        self.interrupted: list[str] = []

        async def told(run_ids: list[str]) -> None:
            self.interrupted += run_ids

        self.runs = RedisRunManager(Redis.from_url(url), on_interrupted=told, **options)  # type: ignore[arg-type]


@pytest.fixture
async def workers(redis_url: str) -> AsyncIterator[tuple[Worker, Worker]]:
    a, b = Worker(redis_url, lease_seconds=0.6), Worker(redis_url, lease_seconds=0.6)
    await a.runs.open()
    await b.runs.open()
    yield a, b
    await a.runs.shutdown()
    await b.runs.shutdown()


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


async def _commands(redis: Redis, name: str) -> int:
    stats = await redis.info("commandstats")
    return int(stats.get(f"cmdstat_{name}", {}).get("calls", 0))


def _complete() -> Complete:
    return Complete(payload=ChatResponsePayload(message="done"))


async def test_stream_ids_are_the_events_sequence_numbers(
    workers: tuple[Worker, Worker], redis: Redis
) -> None:
    a, b = workers

    async def body(run: Run) -> None:
        for word in ("one ", "two "):
            run.emit(TextDelta(text=word))
        run.emit(_complete())

    run = a.runs.start(owner_id="ada", conversation_id="c1", body=body)
    await run.task  # type: ignore[misc]

    entries = await redis.xrange(a.runs.keys(run.id).log) or []
    assert [entry_id for entry_id, _ in entries] == [b"1-0", b"2-0", b"3-0"]
    remote = await b.runs.find(run.id, owner_id="ada")
    assert remote.terminal == "complete" and remote.log.last_seq == 3
    wire = b"".join([chunk async for chunk in remote.log.follow_wire(1)])
    assert wire.startswith(b"id: 2\ndata: ") and wire.count(b"id: ") == 2


async def test_events_that_look_like_the_packed_format_reach_another_worker_intact(
    workers: tuple[Worker, Worker],
) -> None:
    # A flush sends each run's events as one string of `<seq> <type> <size>` headers and
    # JSON; text that looks like a header, line breaks and multi-byte characters (sizes
    # are in bytes) must come out on the other side exactly as they went in.
    a, b = workers
    texts = ["2 text_delta 9\n{}", "line\nbreak\r\n", "é🙂 ünïcödé", " ", "x" * 70_000]

    async def body(run: Run) -> None:
        for text in texts:
            run.emit_text(text)
            await asyncio.sleep(0.006)  # more than one flush
        run.emit(_complete())

    run = a.runs.start(owner_id="ada", conversation_id="c1", body=body)
    await run.task  # type: ignore[misc]

    remote = await b.runs.find(run.id, owner_id="ada")
    events = [(seq, json.loads(data)) async for seq, data in remote.log.follow(0)]
    assert [seq for seq, _ in events] == [1, 2, 3, 4, 5, 6]
    assert [event["text"] for _, event in events[:5]] == texts
    assert events[5][1]["type"] == "complete" and remote.terminal == "complete"


async def test_events_written_after_redis_forgot_the_script_are_not_lost(
    workers: tuple[Worker, Worker], redis: Redis
) -> None:
    # Most flushes send the script call alone (no pipeline); a NOSCRIPT answer to it
    # must still load the script again and send the same events.
    a, b = workers

    async def body(run: Run) -> None:
        run.emit_text("before ")
        await asyncio.sleep(0.02)
        await redis.script_flush()
        run.emit_text("after")
        await asyncio.sleep(0.02)
        run.emit(_complete())

    run = a.runs.start(owner_id="ada", conversation_id="c1", body=body)
    await run.task  # type: ignore[misc]

    remote = await b.runs.find(run.id, owner_id="ada")

    async def read() -> list[dict[str, str]]:
        return [json.loads(data) async for _, data in remote.log.follow(0)]

    # A lost terminal event would leave the reader waiting for it.
    events = await asyncio.wait_for(read(), timeout=10)
    assert [e.get("text") for e in events[:2]] == ["before ", "after"]
    assert events[2]["type"] == "complete" and len(events) == 3


async def test_a_burst_of_events_is_written_in_few_round_trips(
    workers: tuple[Worker, Worker], redis: Redis
) -> None:
    a, _ = workers
    before = await _commands(redis, "evalsha")

    async def body(run: Run) -> None:
        for i in range(1000):
            run.emit(TextDelta(text=f"{i} "))
        run.emit(_complete())

    run = a.runs.start(owner_id="ada", conversation_id=None, body=body)
    await run.task  # type: ignore[misc]

    assert await redis.xlen(a.runs.keys(run.id).log) == 1001
    assert await _commands(redis, "evalsha") - before <= 3


async def test_a_finished_runs_log_expires_after_the_retention_time(
    redis_url: str, redis: Redis
) -> None:
    worker = Worker(redis_url, retain_seconds=120)
    await worker.runs.open()

    async def body(run: Run) -> None:
        run.emit(_complete())

    run = worker.runs.start(owner_id="ada", conversation_id=None, body=body)
    await run.task  # type: ignore[misc]
    await worker.runs.shutdown()

    keys = worker.runs.keys(run.id)
    assert 0 < await redis.ttl(keys.log) <= 120
    assert 0 < await redis.ttl(keys.meta) <= 120


async def test_another_users_run_is_not_found_on_another_worker(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers

    async def body(run: Run) -> None:
        run.emit(_complete())

    run = a.runs.start(owner_id="ada", conversation_id=None, body=body)
    await run.task  # type: ignore[misc]
    with pytest.raises(RunNotFound):
        await b.runs.find(run.id, owner_id="bob")
    with pytest.raises(RunNotFound):
        await b.runs.find("no-such-run", owner_id="ada")


async def test_deleting_a_conversation_on_one_worker_stops_its_answer_on_another(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers

    async def body(run: Run) -> None:
        run.emit(TextDelta(text="thinking "))
        await asyncio.sleep(30)

    run = a.runs.start(owner_id="ada", conversation_id="doomed", body=body)
    await asyncio.sleep(0.1)
    await b.runs.stop_conversation("doomed")
    async with asyncio.timeout(2):
        await run.task  # type: ignore[misc]
    assert run.terminal == "cancelled"


async def test_a_run_whose_owner_died_ends_exactly_once_however_many_workers_notice(
    workers: tuple[Worker, Worker], redis: Redis
) -> None:
    a, b = workers
    # What a killed owner leaves behind: its run's events so far, and no lease.
    keys = a.runs.keys("orphan")
    await redis.hset(keys.meta, mapping={"owner": "ada", "conversation": "", "worker": "gone"})
    partial = to_wire(TextDelta(text="partial ")).model_dump_json()
    await redis.xadd(keys.log, {"t": "text_delta", "d": partial}, id="1-0")
    await redis.sadd(a.runs.live_key, "orphan")

    remote = await a.runs.find("orphan", owner_id="ada")
    async with asyncio.timeout(5):
        frames = [json.loads(data) async for _, data in remote.log.follow(0)]

    assert [f["type"] for f in frames] == ["text_delta", "error"]
    assert frames[-1]["code"] == "interrupted"
    await asyncio.sleep(0.5)  # both workers have looked at it by now
    assert a.interrupted + b.interrupted == ["orphan"]
    assert await redis.xlen(keys.log) == 2
    assert not await redis.sismember(a.runs.live_key, "orphan")
