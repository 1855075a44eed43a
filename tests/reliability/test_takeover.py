"""Durable answers: a run survives its worker (issue 32).

Real `pagechat serve` workers share one Redis (or a 3-master Redis Cluster) and
PostgreSQL; the model is the Anthropic SDK against a fake upstream that continues a
numbered answer from where its prefill ends (tests/support/numbered.py). The worker
that owns an answer is SIGKILLed, or gets SIGTERM; a follower on another worker sees
the answer complete, every word once, and the stored answer equals what it assembled.
"""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from pagechat.chat.resume import UNKNOWN_OUTCOME_RESULT
from tests.conftest import PASSWORD
from tests.support.deployment import Deployment, deploy
from tests.support.numbered import INPUT_TOKENS, THOUGHT, words
from tests.support.takeover_app import LOOKUP_CARD
from tests.support.workers import Event, Worker, events

EMAIL = "ada@example.com"
APP = "tests.support.takeover_app:create_app"


def _options(request: pytest.FixtureRequest) -> dict[str, Any]:
    return dict(getattr(request, "param", {}))


@pytest.fixture
async def deployment(
    request: pytest.FixtureRequest, postgres_url: str, tmp_path: Path
) -> AsyncIterator[Deployment]:
    """Workers of one deployment (2 by default; `workers`, `cluster`, `env` by param), with
    the takeover app's tools."""
    options = _options(request)
    redis = request.getfixturevalue("redis_cluster" if options.get("cluster") else "redis_server")
    async with deploy(
        database_url=postgres_url,
        redis=redis,
        state_dir=tmp_path / "state",
        email=EMAIL,
        password=PASSWORD,
        workers=options.get("workers", 2),
        PAGECHAT_APP=APP,
        TAKEOVER_TOOL_LOG=str(tmp_path / "tools.log"),
        **options.get("env", {}),
    ) as deployment:
        yield deployment


def _tool_runs(deployment: Deployment) -> list[str]:
    """The takeover app's tool calls so far, in order (each logged as it starts)."""
    log = Path(deployment.a.env["TAKEOVER_TOOL_LOG"])
    return log.read_text().split() if log.exists() else []


def _text(got: list[Event]) -> str:
    return "".join(str(e.data["text"]) for e in got if e.type == "text_delta")


async def _until(stream: AsyncIterator[Event], done: Any) -> list[Event]:
    got: list[Event] = []
    async for event in stream:
        got.append(event)
        if done(got):
            break
    return got


async def _stored(deployment: Deployment, worker: Worker, conversation_id: str) -> dict[str, Any]:
    async with deployment.client(worker) as client:
        detail = (await client.get(f"/api/conversations/{conversation_id}")).json()
    answer: dict[str, Any] = detail["messages"][-1]
    return answer


async def _kill_owner_and_follow(
    deployment: Deployment, message: str, killed_when: Any, *, begun: str = "text_delta"
) -> tuple[list[Event], str]:
    """Start an answer on worker a, follow it from worker b from the start once a streams
    an event of kind `begun`, SIGKILL a once `killed_when(events so far)`; every event b
    saw, and the conversation's id."""
    a, b = deployment.workers[0], deployment.workers[1]
    async with (
        deployment.client(a) as on_a,
        deployment.client(b) as on_b,
        on_a.stream("POST", "/api/chat/stream", json={"message": message}) as live,
    ):
        run_id = live.headers["X-Run-Id"]
        conversation_id = live.headers["X-Conversation-Id"]
        await _until(events(live), lambda got: any(e.type == begun for e in got))
        async with on_b.stream(
            "GET", f"/api/chat/runs/{run_id}/events", headers={"Last-Event-ID": "0"}
        ) as followed:
            from_b = events(followed)
            seen = await _until(from_b, killed_when)
            await a.kill()
            async with asyncio.timeout(20):
                rest = [e async for e in from_b]
    return seen + rest, conversation_id


def _one_stream(got: list[Event]) -> None:
    ids = [e.id for e in got]
    assert ids == list(range(1, len(ids) + 1)), "one stream: ids run on, no gap, no repeat"


ON_A_REDIS_CLUSTER = pytest.mark.parametrize(
    "deployment", [{}, {"cluster": True}], indirect=True, ids=["one redis", "redis cluster"]
)


@ON_A_REDIS_CLUSTER
async def test_killing_the_owner_mid_text_completes_the_answer_with_every_word_once(
    deployment: Deployment,
) -> None:
    got, conversation_id = await _kill_owner_and_follow(
        deployment, "words 60", lambda got: _text(got).count(" ") >= 12
    )

    _one_stream(got)
    assert got[-1].type == "complete"
    assert any(e.type == "status" and "Resuming" in str(e.data["message"]) for e in got)
    assert _text(got) == words(60) == got[-1].data["payload"]["message"]  # type: ignore[index]
    stored = await _stored(deployment, deployment.workers[1], conversation_id)
    assert stored["status"] == "complete"
    assert stored["content"] == _text(got)


async def test_killing_the_owner_after_a_tool_completed_runs_the_tool_once(
    deployment: Deployment,
) -> None:
    got, conversation_id = await _kill_owner_and_follow(
        deployment,
        "tool lookup words 40",
        lambda got: any(e.type == "tool_complete" for e in got) and _text(got).count(" ") >= 8,
    )

    _one_stream(got)
    assert got[-1].type == "complete"
    assert _tool_runs(deployment) == ["lookup"]
    final: dict[str, Any] = got[-1].data["payload"]  # type: ignore[assignment]
    message = final["message"]
    assert message == _text(got) == words(5) + "[[tool:0]]" + words(40, 5)
    stored = await _stored(deployment, deployment.workers[1], conversation_id)
    assert stored["content"] == message
    assert [t["output"] for t in stored["tool_history"]] == ["facts about x"]
    # The card the tool returned on the killed worker, once, live and after a reload.
    assert [t["payload"] for t in final["tool_history"]] == [LOOKUP_CARD]
    assert [t["payload"] for t in stored["tool_history"]] == [LOOKUP_CARD]
    assert stored["payloads"] == final["payloads"] == [LOOKUP_CARD]
    # Tokens of both workers' calls: the first (5 words and the call) before the kill,
    # and the one that went on; the call cut off by the kill reported none.
    resumed = next(i for i, e in enumerate(got) if e.type == "status" and "Resuming" in str(e.data))
    went_on = len(re.findall(r"\bw\d+\b", _text(got[resumed:])))
    assert stored["usage"] == final["usage"]
    counts = {k: stored["usage"][k] for k in ("input_tokens", "output_tokens")}
    assert counts == {"input_tokens": 2 * INPUT_TOKENS, "output_tokens": 6 + went_on}


THINKING = pytest.mark.parametrize(
    "deployment", [{"env": {"PAGECHAT_THINKING_BUDGET": "1024"}}], indirect=True
)


def _thought(got: list[Event]) -> str:
    return "".join(str(e.data["text"]) for e in got if e.type == "reasoning")


@THINKING
async def test_killing_the_owner_after_it_thought_keeps_its_reasoning_once(
    deployment: Deployment,
) -> None:
    got, conversation_id = await _kill_owner_and_follow(
        deployment, "think words 40", lambda got: _text(got).count(" ") >= 8
    )

    _one_stream(got)
    assert got[-1].type == "complete" and _text(got) == words(40)
    # Thinking blocks cannot be sent back without their signatures: the answer went on
    # from its text without thinking again, and the reasoning shown is stored once.
    assert _thought(got) == THOUGHT
    stored = await _stored(deployment, deployment.workers[1], conversation_id)
    assert stored["content"] == _text(got)
    assert stored["reasoning"]["text"] == THOUGHT


@THINKING
async def test_killing_the_owner_mid_thought_keeps_the_part_shown(
    deployment: Deployment,
) -> None:
    got, conversation_id = await _kill_owner_and_follow(
        deployment,
        "think words 20",
        lambda got: _thought(got).count(" ") >= 8,
        begun="reasoning",
    )

    _one_stream(got)
    assert got[-1].type == "complete" and _text(got) == words(20)
    resumed = next(i for i, e in enumerate(got) if e.type == "status" and "Resuming" in str(e.data))
    before, after = _thought(got[:resumed]), _thought(got[resumed:])
    assert THOUGHT.startswith(before) and before and after == THOUGHT
    stored = await _stored(deployment, deployment.workers[1], conversation_id)
    assert stored["reasoning"]["text"] == before + "\n\n" + after


async def test_killing_the_owner_during_a_write_tool_tells_the_model_and_runs_it_once(
    deployment: Deployment,
) -> None:
    got, conversation_id = await _kill_owner_and_follow(
        deployment,
        "tool write_note words 20",
        lambda got: any(e.type == "tool_start" for e in got),
    )
    await asyncio.sleep(0)

    _one_stream(got)
    assert got[-1].type == "complete"
    assert _tool_runs(deployment) == ["write_note"], "not run again"
    completed = [e for e in got if e.type == "tool_complete"]
    assert [(e.data["is_error"], e.data["output"]) for e in completed] == [
        (True, UNKNOWN_OUTCOME_RESULT)
    ]
    stored = await _stored(deployment, deployment.workers[1], conversation_id)
    assert "UNKNOWN-SEEN" in stored["content"]
    assert stored["content"] == _text(got) == words(5) + "[[tool:0]]UNKNOWN-SEEN " + words(20, 5)


async def test_an_owner_paused_past_its_lease_stores_nothing_once_it_wakes(
    deployment: Deployment,
) -> None:
    a, b = deployment.workers[0], deployment.workers[1]
    async with (
        deployment.client(a) as on_a,
        deployment.client(b) as on_b,
        on_a.stream("POST", "/api/chat/stream", json={"message": "words 40"}) as live,
    ):
        run_id = live.headers["X-Run-Id"]
        conversation_id = live.headers["X-Conversation-Id"]
        await _until(events(live), lambda got: any(e.type == "text_delta" for e in got))
        async with on_b.stream(
            "GET", f"/api/chat/runs/{run_id}/events", headers={"Last-Event-ID": "0"}
        ) as followed:
            from_b = events(followed)
            seen = await _until(from_b, lambda got: _text(got).count(" ") >= 8)
            # A stalls (a long GC pause, a frozen VM) past its lease: B takes the run over
            # and finishes it while A still holds its own answer so far.
            a.pause()
            try:
                async with asyncio.timeout(20):
                    got = seen + [e async for e in from_b]
            finally:
                a.resume()
    # A wakes up with the rest of its model's reply waiting in its socket, its checkpoint
    # due and its events unsent: whatever it tries to store now must change nothing.
    async with deployment.client(a) as on_a:
        assert (await on_a.get("/api/health")).status_code == 200
    await asyncio.sleep(2)  # its next beats and checkpoints

    _one_stream(got)
    assert got[-1].type == "complete"
    assert any(e.type == "status" and "Resuming" in str(e.data["message"]) for e in got)
    final: dict[str, Any] = got[-1].data["payload"]  # type: ignore[assignment]
    assert final["message"] == _text(got) == words(40)
    stored = await _stored(deployment, b, conversation_id)
    # B's answer, as B completed it (A's own would count all 40 words as its tokens).
    assert (stored["status"], stored["content"]) == ("complete", final["message"])
    assert stored["usage"] == final["usage"]
    assert final["usage"]["output_tokens"] < 40
    async with deployment.client(b) as on_b:
        detail = (await on_b.get(f"/api/conversations/{conversation_id}")).json()
    assert [m["role"] for m in detail["messages"]] == ["user", "assistant"]
    redis = Redis.from_url(deployment.redis_url)
    try:
        log: Any = await redis.xrange(f"pagechat:run:{{{run_id}}}:log")
    finally:
        await redis.aclose()
    kinds = [fields[b"t"].decode() for _id, fields in log]
    assert kinds.count("complete") == 1 and kinds[-1] == "complete", "A wrote nothing more"


@pytest.mark.parametrize(
    "deployment", [{"workers": 3, "env": {"PAGECHAT_RUN_MAX_TAKEOVERS": "1"}}], indirect=True
)
async def test_an_answer_taken_over_too_often_ends_with_a_clear_error(
    deployment: Deployment,
) -> None:
    a = deployment.workers[0]
    run_id = await _start(deployment, a, "words 400")
    seen: list[Event] = []
    follower = asyncio.create_task(_follow_anywhere(deployment, run_id, seen))
    async with asyncio.timeout(20):
        while not any(e.type == "text_delta" for e in seen):  # it streams, from Redis too
            await asyncio.sleep(0.05)
    await a.kill()
    # Whichever worker took it over is killed too: the next one ends it (1 takeover allowed).
    owner = await _taken_over_by(deployment, run_id, not_pid=a.pid)
    await owner.kill()
    got = await asyncio.wait_for(follower, 30)

    _one_stream(got)
    assert got[-1].type == "error" and got[-1].data["code"] == "interrupted"
    assert "stopped 2 times" in str(got[-1].data["message"])
    conversation_id = await _conversation_of(deployment, run_id)
    alive = next(w for w in deployment.workers if w.proc and w.proc.returncode is None)
    stored = await _stored(deployment, alive, conversation_id)
    assert stored["status"] == "interrupted"
    assert stored["content"] == _text(got)


async def _taken_over_by(deployment: Deployment, run_id: str, *, not_pid: int) -> Worker:
    """The worker that holds the run now (its Redis metadata names the worker's pid)."""
    redis = Redis.from_url(deployment.redis_url)
    try:
        for _ in range(300):  # a lease and a beat at most; a loaded machine is slower
            worker: Any = await redis.hget(f"pagechat:run:{{{run_id}}}:meta", "worker")
            pid = int(str(worker, "utf-8").split(":")[1]) if worker else not_pid
            if pid != not_pid:
                return next(w for w in deployment.workers if w.pid == pid)
            await asyncio.sleep(0.1)
    finally:
        await redis.aclose()
    raise AssertionError("nobody took the answer over")


async def _conversation_of(deployment: Deployment, run_id: str) -> str:
    redis = Redis.from_url(deployment.redis_url)
    try:
        meta: Any = await redis.hget(f"pagechat:run:{{{run_id}}}:meta", "conversation")
    finally:
        await redis.aclose()
    assert meta is not None
    return str(meta, "utf-8")


async def _follow_anywhere(
    deployment: Deployment, run_id: str, got: list[Event] | None = None
) -> list[Event]:
    """A client that resumes on the next worker whenever its stream ends without an end
    (collecting into `got`, which a test may watch)."""
    got = [] if got is None else got
    for attempt in range(600):
        worker = deployment.workers[attempt % len(deployment.workers)]
        last = max((e.id for e in got if e.id is not None), default=0)
        try:
            async with (
                deployment.client(worker) as client,
                client.stream(
                    "GET", f"/api/chat/runs/{run_id}/events", headers={"Last-Event-ID": str(last)}
                ) as response,
            ):
                if response.status_code != 200:
                    raise httpx.TransportError("not served")
                async for event in events(response):
                    if event.id is not None and event.id <= last:
                        continue
                    got.append(event)
                    if event.type in ("complete", "error", "cancelled"):
                        return got
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError("the answer never ended")


async def _start(deployment: Deployment, worker: Worker, message: str) -> str:
    async with (
        deployment.client(worker) as client,
        client.stream("POST", "/api/chat/stream", json={"message": message}) as response,
    ):
        return response.headers["X-Run-Id"]


_MANY = '{"user": {"concurrent_answers": 100, "turns_per_minute": 100}}'


@pytest.mark.parametrize(
    "deployment",
    [{"workers": 3, "env": {"PAGECHAT_DRAIN_SECONDS": "30", "PAGECHAT_QUOTAS": _MANY}}],
    indirect=True,
)
async def test_a_rolling_restart_of_three_workers_completes_every_answer_in_flight(
    deployment: Deployment,
) -> None:
    followers: list[tuple[int, asyncio.Task[list[Event]]]] = []
    for index, worker in enumerate(deployment.workers):
        # Ten answers on this worker, each long enough to outlive its restart.
        for n in range(10):
            count = 150 + 10 * index + n  # 6 s and more: it runs when its worker stops
            run_id = await _start(deployment, worker, f"words {count}")
            followers.append((count, asyncio.create_task(_follow_anywhere(deployment, run_id))))
        await asyncio.sleep(0.3)
        # Hands its answers over at once, instead of draining them for 30 s.
        assert await worker.terminate() in (0, -signal.SIGTERM)
        await worker.start()
    for count, follower in followers:
        got = await asyncio.wait_for(follower, 60)
        _one_stream(got)
        assert got[-1].type == "complete", got[-1]
        assert _text(got) == words(count) == got[-1].data["payload"]["message"]  # type: ignore[index]
        # Handed over, not drained: another worker went on with it.
        assert any(e.type == "status" and "Resuming" in str(e.data["message"]) for e in got)


async def test_sigterm_during_a_write_tool_lets_it_finish_then_hands_the_answer_over(
    deployment: Deployment,
) -> None:
    a = deployment.workers[0]
    run_id = await _start(deployment, a, "tool write_note words 20")
    seen: list[Event] = []
    follower = asyncio.create_task(_follow_anywhere(deployment, run_id, seen))
    async with asyncio.timeout(20):
        while not any(e.type == "tool_start" for e in seen):
            await asyncio.sleep(0.05)
    assert await a.terminate() in (0, -signal.SIGTERM)
    got = await asyncio.wait_for(follower, 60)

    _one_stream(got)
    assert got[-1].type == "complete"
    assert _tool_runs(deployment) == ["write_note"]
    completed = [(e.data["is_error"], e.data["output"]) for e in got if e.type == "tool_complete"]
    assert completed == [(False, "saved x")], "finished on its worker, its outcome known"
    assert _text(got) == words(5) + "[[tool:0]]" + words(20, 5)
    assert any(e.type == "status" and "Resuming" in str(e.data["message"]) for e in got)
