"""Two `pagechat serve` workers sharing Redis and PostgreSQL serve one conversation.

Whichever worker a request reaches: a follower resumes without gap or duplicate,
Stop reaches the worker that runs the answer, SIGTERM hands answers over, and a
Redis restart ends the answer cleanly. A killed worker's answer goes on elsewhere:
tests/reliability/test_takeover.py.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import PASSWORD
from tests.support.deployment import Deployment, deploy
from tests.support.redis_server import RedisServer
from tests.support.workers import Event, Worker, events

EMAIL = "ada@example.com"


def _words(count: int) -> str:
    return "".join(f"w{i} " for i in range(count))


Cluster = Deployment
"""Two workers (`a`, `b`): tests/support/deployment.py."""

# A test parametrized with `indirect=True` over these runs on a Redis Cluster too.
ON_A_REDIS_CLUSTER = pytest.mark.parametrize(
    "cluster", ["one redis", "redis cluster"], indirect=True
)


@pytest.fixture
async def cluster(
    request: pytest.FixtureRequest, postgres_url: str, tmp_path: Path
) -> AsyncIterator[Cluster]:
    """Two workers on one Redis, or (param "redis cluster") on a Redis Cluster; answers
    of `words N` numbered words at 25 tokens/s (tests/support/numbered.py)."""
    sharded = getattr(request, "param", "one redis") == "redis cluster"
    redis = request.getfixturevalue("redis_cluster" if sharded else "redis_server")
    async with deploy(
        database_url=postgres_url,
        redis=redis,
        state_dir=tmp_path / "state",
        email=EMAIL,
        password=PASSWORD,
    ) as deployment:
        yield deployment


async def _read_until(stream: AsyncIterator[Event], count: int) -> list[Event]:
    got: list[Event] = []
    async for event in stream:
        got.append(event)
        if len([e for e in got if e.type == "text_delta"]) >= count:
            break
    return got


async def _stored_answer(cluster: Cluster, worker: Worker, conversation_id: str) -> dict[str, Any]:
    async with cluster.client(worker) as client:
        detail = (await client.get(f"/api/conversations/{conversation_id}")).json()
    answer: dict[str, Any] = detail["messages"][-1]
    return answer


@ON_A_REDIS_CLUSTER
async def test_an_answer_started_on_one_worker_is_followed_from_another_with_no_gap(
    cluster: Cluster,
) -> None:
    async with (
        cluster.client(cluster.a) as on_a,
        cluster.client(cluster.b) as on_b,
        on_a.stream("POST", "/api/chat/stream", json={"message": "words 30"}) as live,
    ):
        run_id = live.headers["X-Run-Id"]
        from_a = events(live)
        seen = await _read_until(from_a, 5)
        resume_at = seen[-1].id
        assert resume_at is not None
        async with on_b.stream(
            "GET", f"/api/chat/runs/{run_id}/events", headers={"Last-Event-ID": str(resume_at)}
        ) as followed:
            from_b = [e async for e in events(followed)]
        rest_of_a = [e async for e in from_a]

    all_of_a = seen + rest_of_a
    assert [e.id for e in from_b] == list(range(resume_at + 1, all_of_a[-1].id + 1))  # type: ignore[operator]
    assert from_b == [e for e in all_of_a if e.id is not None and e.id > resume_at]
    assert from_b[-1].type == "complete"
    assert from_b[-1].data["payload"]["message"] == _words(30)  # type: ignore[index]


@ON_A_REDIS_CLUSTER
async def test_stop_sent_to_another_worker_cancels_the_answer_where_it_runs(
    cluster: Cluster,
) -> None:
    async with (
        cluster.client(cluster.a) as on_a,
        cluster.client(cluster.b) as on_b,
        on_a.stream("POST", "/api/chat/stream", json={"message": "words 400"}) as live,
    ):
        run_id = live.headers["X-Run-Id"]
        conversation_id = live.headers["X-Conversation-Id"]
        from_a = events(live)
        await _read_until(from_a, 3)
        stop = await on_b.post(f"/api/chat/runs/{run_id}/cancel")
        assert stop.status_code == 202 and stop.json()["cancelled"] is True
        async with asyncio.timeout(5):
            rest = [e async for e in from_a]

    assert rest[-1].type == "cancelled"
    assert await cluster.upstream.disconnected(within=5)  # the model request was closed
    stored = await _stored_answer(cluster, cluster.b, conversation_id)
    assert stored["status"] == "cancelled"
    assert stored["content"].startswith("w0 w1 w2 ")


async def _follow_across_restarts(cluster: Cluster, run_id: str, first: Worker) -> list[Event]:
    """What a client sees that resumes on the other worker whenever its worker goes away."""
    got: list[Event] = []
    worker = first
    for _ in range(20):
        last = max((e.id for e in got if e.id is not None), default=0)
        try:
            async with (
                cluster.client(worker) as client,
                client.stream(
                    "GET", f"/api/chat/runs/{run_id}/events", headers={"Last-Event-ID": str(last)}
                ) as response,
            ):
                async for event in events(response):
                    got.append(event)
                    if event.type in ("complete", "error", "cancelled"):
                        return got
        except httpx.TransportError:
            pass
        worker = cluster.b if worker is cluster.a else cluster.a
        await asyncio.sleep(0.2)
    raise AssertionError("the answer never ended")


async def _start(cluster: Cluster, worker: Worker, message: str) -> str:
    """Start an answer and hang up at once: the run goes on without its first reader."""
    async with (
        cluster.client(worker) as client,
        client.stream("POST", "/api/chat/stream", json={"message": message}) as response,
    ):
        return response.headers["X-Run-Id"]


async def test_a_rolling_restart_with_answers_in_flight_loses_nothing(cluster: Cluster) -> None:
    for draining, other in ((cluster.a, cluster.b), (cluster.b, cluster.a)):
        run_ids = [await _start(cluster, draining, f"words {n}") for n in (40, 41)]
        followers = [
            asyncio.create_task(_follow_across_restarts(cluster, run_id, draining))
            for run_id in run_ids
        ]
        await asyncio.sleep(0.5)
        # Drains: both answers finish first. uvicorn ends by re-raising the signal.
        assert await draining.terminate() in (0, -signal.SIGTERM)
        for n, follower in zip((40, 41), followers, strict=True):
            got = await follower
            ids = [e.id for e in got]
            assert ids == list(range(1, len(ids) + 1)), "no event lost or repeated"
            assert got[-1].type == "complete"
            assert got[-1].data["payload"]["message"] == _words(n)  # type: ignore[index]
        await draining.start()
        assert other.proc is not None and other.proc.returncode is None


async def test_a_redis_restart_mid_answer_ends_it_with_an_error_and_answers_work_again(
    cluster: Cluster,
) -> None:
    async with (
        cluster.client(cluster.a) as on_a,
        on_a.stream("POST", "/api/chat/stream", json={"message": "words 400"}) as live,
    ):
        conversation_id = live.headers["X-Conversation-Id"]
        from_a = events(live)
        await _read_until(from_a, 3)
        assert isinstance(cluster.redis, RedisServer)
        cluster.redis.restart()
        async with asyncio.timeout(15):
            rest = [e async for e in from_a]

    assert rest[-1].type == "error" and rest[-1].data["code"] == "unavailable"
    stored = await _stored_answer(cluster, cluster.a, conversation_id)
    assert stored["status"] == "error" and stored["content"].startswith("w0 w1 w2 ")

    for worker in (cluster.a, cluster.b):
        async with (
            cluster.client(worker) as client,
            client.stream(
                "POST",
                "/api/chat/stream",
                json={"message": "words 5", "conversation_id": conversation_id},
            ) as again,
        ):
            got = [e async for e in events(again)]
        assert got[-1].type == "complete", (worker.name, [(e.type, e.data) for e in got])
        # This turn's own five words (regression: the first turn's 400, taking 16 s).
        assert got[-1].data["payload"]["message"] == _words(5)  # type: ignore[index]
