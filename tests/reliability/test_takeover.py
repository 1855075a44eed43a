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
from tests.support.numbered import CHIPS, INPUT_TOKENS, NOTE, THOUGHT, words
from tests.support.redis_server import RedisServer
from tests.support.takeover_app import LOOKUP_CARD
from tests.support.tcp_proxy import TcpProxy
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
    deployment: Deployment,
    message: str,
    killed_when: Any,
    *,
    begun: str = "text_delta",
    context: dict[str, Any] | None = None,
) -> tuple[list[Event], str]:
    """Start an answer on worker a, follow it from worker b from the start once a streams
    an event of kind `begun`, SIGKILL a once `killed_when(events so far)`; every event b
    saw, and the conversation's id."""
    a, b = deployment.workers[0], deployment.workers[1]
    body = {"message": message, "context": context or {}}
    async with (
        deployment.client(a) as on_a,
        deployment.client(b) as on_b,
        on_a.stream("POST", "/api/chat/stream", json=body) as live,
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


NOTES = {"current_page": "notes"}


def _shown(got: list[Event], field: str) -> list[Any]:
    """What the `reply_parts` events showed of `field` (payloads, suggested values...)."""
    return [item for e in got if e.type == "reply_parts" for item in e.data[field]]  # type: ignore[attr-defined]


async def test_killing_the_owner_after_the_model_wrote_a_card_and_chips_keeps_them(
    deployment: Deployment,
) -> None:
    # Regression: the reply parser took them out of the text and only `complete` told
    # them, so the worker that took over (and its stored answer) had never heard of them.
    got, conversation_id = await _kill_owner_and_follow(
        deployment,
        "card words 40",
        lambda got: _shown(got, "payloads") and _text(got).count(" ") >= 8,
        context=NOTES,
    )

    _one_stream(got)
    assert got[-1].type == "complete"
    assert any(e.type == "status" and "Resuming" in str(e.data["message"]) for e in got)
    # Shown once, as they came, before the kill.
    assert _shown(got, "payloads") == [NOTE] and _shown(got, "suggested_values") == CHIPS
    final: dict[str, Any] = got[-1].data["payload"]  # type: ignore[assignment]
    assert final["message"] == _text(got) == words(40)
    assert (final["payloads"], final["custom_payload"], final["suggested_values"]) == (
        [NOTE],
        NOTE,
        CHIPS,
    )
    stored = await _stored(deployment, deployment.workers[1], conversation_id)
    assert stored["content"] == final["message"]
    assert (stored["payloads"], stored["custom_payload"], stored["suggested_values"]) == (
        [NOTE],
        NOTE,
        CHIPS,
    )


async def test_stopping_after_the_model_wrote_a_card_keeps_the_card_stored(
    deployment: Deployment,
) -> None:
    # Regression: a stopped answer was stored without the card and chips it had shown.
    a, b = deployment.workers[0], deployment.workers[1]
    async with (
        deployment.client(a) as on_a,
        deployment.client(b) as on_b,
        on_a.stream(
            "POST", "/api/chat/stream", json={"message": "card words 40", "context": NOTES}
        ) as live,
    ):
        run_id = live.headers["X-Run-Id"]
        conversation_id = live.headers["X-Conversation-Id"]
        from_a = events(live)
        got = await _until(
            from_a, lambda got: _shown(got, "payloads") and _text(got).count(" ") >= 3
        )
        # Stop on the other worker, as a second tab would.
        assert (await on_b.post(f"/api/chat/runs/{run_id}/cancel")).status_code == 202
        async with asyncio.timeout(20):
            got += [e async for e in from_a]

    assert got[-1].type == "cancelled"
    assert _shown(got, "payloads") == [NOTE] and _shown(got, "suggested_values") == CHIPS
    stored = await _stored(deployment, b, conversation_id)
    assert stored["status"] == "cancelled"
    assert stored["content"] == _text(got)
    assert (stored["payloads"], stored["suggested_values"]) == ([NOTE], CHIPS)


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


@pytest.fixture
async def a_behind_a_proxy(
    postgres_url: str, redis_server: RedisServer, tmp_path: Path
) -> AsyncIterator[tuple[Deployment, TcpProxy]]:
    """Two workers, a's Redis reached through a proxy the test can hold."""
    async with (
        TcpProxy(redis_server.port) as proxy,
        deploy(
            database_url=postgres_url,
            redis=redis_server,
            state_dir=tmp_path / "state",
            email=EMAIL,
            password=PASSWORD,
            env_of={"a": {"REDIS_URL": proxy.url()}},
            PAGECHAT_APP=APP,
            TAKEOVER_TOOL_LOG=str(tmp_path / "tools.log"),
        ) as deployment,
    ):
        yield deployment, proxy


async def test_an_owner_paused_past_its_lease_writes_nothing_over_the_new_owners_answer(
    a_behind_a_proxy: tuple[Deployment, TcpProxy],
) -> None:
    """The database's own fence (`messages.run_epoch`): a stalled owner that wakes after a
    takeover, and ends its answer before Redis tells it another worker has it, stores
    nothing. (Regression: with Redis answering at once, the old owner learnt it was moved
    before it could write, so this test passed with the fence off.)"""
    deployment, proxy = a_behind_a_proxy
    a, b = deployment.workers[0], deployment.workers[1]
    async with (
        deployment.client(a) as on_a,
        deployment.client(b) as on_b,
        on_a.stream("POST", "/api/chat/stream", json={"message": "words 40"}) as live,
    ):
        run_id = live.headers["X-Run-Id"]
        conversation_id = live.headers["X-Conversation-Id"]
        from_a = events(live)
        on_a_so_far = await _until(from_a, lambda got: any(e.type == "text_delta" for e in got))
        async with on_b.stream(
            "GET", f"/api/chat/runs/{run_id}/events", headers={"Last-Event-ID": "0"}
        ) as followed:
            from_b = events(followed)
            seen = await _until(from_b, lambda got: _text(got).count(" ") >= 8)
            # A stalls (a long GC pause, a frozen VM) past its lease: B takes the run over
            # and finishes it, while A's model goes on writing A's answer into its socket.
            a.pause()
            async with asyncio.timeout(20):
                got = seen + [e async for e in from_b]
        stored_by_b = await _stored(deployment, b, conversation_id)
        # A wakes with the rest of its model's reply waiting, and Redis (which would tell
        # it that it was moved) slow to answer: it streams its whole answer to its own
        # readers and stores it, its checkpoints due too. The database must refuse it all.
        proxy.hold()
        a.resume()
        try:
            async with asyncio.timeout(20):
                on_a_so_far += await _until(
                    from_a, lambda got: _text(on_a_so_far + got) == words(40)
                )
            for _ in range(30):  # its end goes through the group commit (25 ms) and more
                await asyncio.sleep(0.1)
                assert await _stored(deployment, b, conversation_id) == stored_by_b
        finally:
            proxy.release()
    assert _text(on_a_so_far) == words(40), "A got as far as storing its own answer"
    async with deployment.client(a) as on_a:
        assert (await on_a.get("/api/health")).status_code == 200
    await asyncio.sleep(1)  # its next beats, now that Redis answers

    _one_stream(got)
    assert got[-1].type == "complete"
    assert any(e.type == "status" and "Resuming" in str(e.data["message"]) for e in got)
    final: dict[str, Any] = got[-1].data["payload"]  # type: ignore[assignment]
    assert final["message"] == _text(got) == words(40)
    stored = await _stored(deployment, b, conversation_id)
    # B's answer, as B completed it (A's own would count all 40 words as its tokens).
    assert stored == stored_by_b
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
    ended_before_stop: set[int] = set()
    for index, worker in enumerate(deployment.workers):
        # Ten answers on this worker, each long enough to outlive its restart.
        seen: list[list[Event]] = []
        for n in range(10):
            count = 150 + 10 * index + n  # 6 s and more: it runs when its worker stops
            run_id = await _start(deployment, worker, f"words {count}")
            seen.append([])
            follower = asyncio.create_task(_follow_anywhere(deployment, run_id, seen[-1]))
            followers.append((count, follower))
        await asyncio.sleep(0.3)
        # Regression: on a loaded machine an answer ended before its worker stopped, and
        # was not handed over; such a one is exempt below, but not all ten of a worker.
        ended = {n for n, got in enumerate(seen) if got and got[-1].type == "complete"}
        assert len(ended) < 10, "the worker stops with answers in flight"
        ended_before_stop |= {len(followers) - 10 + n for n in ended}
        # Hands its answers over at once, instead of draining them for 30 s.
        assert await worker.terminate() in (0, -signal.SIGTERM)
        await worker.start()
    for at, (count, follower) in enumerate(followers):
        got = await asyncio.wait_for(follower, 60)
        _one_stream(got)
        assert got[-1].type == "complete", got[-1]
        assert _text(got) == words(count) == got[-1].data["payload"]["message"]  # type: ignore[index]
        resumed = any(e.type == "status" and "Resuming" in str(e.data["message"]) for e in got)
        # Handed over, not drained: another worker went on with it.
        assert resumed or at in ended_before_stop


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
