"""`RedisRunManager` on a real 3-master Redis Cluster: two managers are two workers.

A flush writes the events of every run with news; on a cluster it does so with one
script call per shard, each run's keys on one slot (the `{run id}` hash tag).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from pagechat.events import Complete, TextDelta, to_wire
from pagechat.protocol import ChatResponsePayload
from pagechat.redis_client import connect_redis
from pagechat.runs import Run
from pagechat.runs.redis import RedisRunManager
from tests.support.redis_cluster import RedisClusterServers


class Worker:
    def __init__(self, url: str, **options: float) -> None:
        self.interrupted: list[str] = []

        async def told(run_ids: list[str]) -> None:
            self.interrupted += run_ids

        client = connect_redis(url, cluster=True)
        self.runs = RedisRunManager(client, on_interrupted=told, **options)  # type: ignore[arg-type]


@pytest.fixture
async def workers(redis_cluster: RedisClusterServers) -> AsyncIterator[tuple[Worker, Worker]]:
    a = Worker(redis_cluster.url, lease_seconds=0.6)
    b = Worker(redis_cluster.url, lease_seconds=0.6)
    await a.runs.open()
    await b.runs.open()
    yield a, b
    await a.runs.shutdown()
    await b.runs.shutdown()


def _complete() -> Complete:
    return Complete(payload=ChatResponsePayload(message="done"))


async def test_runs_on_every_shard_are_written_and_followed_from_another_worker(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers
    go = asyncio.Event()

    async def body(run: Run) -> None:
        await go.wait()  # every run's events in the same flushes
        for word in ("one ", "two ", "three "):
            run.emit(TextDelta(text=f"{run.id[:4]} {word}"))
            await asyncio.sleep(0.002)
        run.emit(_complete())

    runs = [a.runs.start(owner_id="ada", conversation_id=None, body=body) for _ in range(24)]
    await asyncio.sleep(0.05)
    go.set()
    await asyncio.gather(*(run.task for run in runs if run.task is not None))

    cluster: Any = a.runs.redis
    shards = {cluster.get_node_from_key(a.runs.keys(run.id).log).name for run in runs}
    assert len(shards) == 3  # 24 runs on 3 masters: each one holds some
    for run in runs:
        remote = await b.runs.find(run.id, owner_id="ada")
        assert remote.terminal == "complete" and remote.log.last_seq == 4
        # Resumed after the first event, as a client with Last-Event-ID: 1 would be.
        events = [(seq, json.loads(data)) async for seq, data in remote.log.follow(1)]
        assert [seq for seq, _ in events] == [2, 3, 4]
        assert [e.get("text") for _, e in events[:2]] == [
            f"{run.id[:4]} two ",
            f"{run.id[:4]} three ",
        ]


async def test_stop_sent_to_another_worker_cancels_the_run_on_a_cluster(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers

    async def body(run: Run) -> None:
        run.emit(TextDelta(text="thinking "))
        await asyncio.sleep(30)

    run = a.runs.start(owner_id="ada", conversation_id="c1", body=body)
    await asyncio.sleep(0.1)
    remote = await b.runs.find(run.id, owner_id="ada")
    assert await b.runs.stop(remote)
    async with asyncio.timeout(2):  # the published stop, well before a heartbeat
        await run.task  # type: ignore[misc]
    assert run.terminal == "cancelled"


async def test_a_run_whose_owner_died_ends_once_on_a_cluster(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers
    redis: Any = a.runs.redis
    # What a killed owner leaves behind: its run's events so far, and no lease.
    keys = a.runs.keys("orphan")
    await redis.hset(keys.meta, mapping={"owner": "ada", "conversation": "", "worker": "gone"})
    partial = to_wire(TextDelta(text="partial ")).model_dump_json()
    await redis.xadd(keys.log, {"t": "text_delta", "d": partial}, id="1-0")
    await redis.sadd(a.runs.live_key, "orphan")

    remote = await b.runs.find("orphan", owner_id="ada")
    async with asyncio.timeout(5):
        frames = [json.loads(data) async for _, data in remote.log.follow(0)]

    assert [f["type"] for f in frames] == ["text_delta", "error"]
    await asyncio.sleep(0.5)  # both workers have looked at it by now
    assert a.interrupted + b.interrupted == ["orphan"]
    assert await redis.xlen(keys.log) == 2
