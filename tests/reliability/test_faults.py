"""Faults, end to end, on the app `pagechat serve` builds (SQLite file, real JWTs, uvicorn).

Every case ends in a defined terminal event, leaves the user message and the partial
answer stored as the user saw them, and leaves nothing of the run behind: no pending
task on the server's loop and no thread still inside a tool.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from pagechat.models import Pause, tool_call
from pagechat.models.anthropic import AnthropicModel
from pagechat.models.openai import OpenAIModel
from pagechat.testing import Frame, event_types, frames, read_all, streamed_text
from pagechat.tools import ToolConfig, ToolContext, ToolProgress, register_tool
from tests.conftest import PASSWORD
from tests.fakes import anthropic_server as fa
from tests.fakes import openai_server as fo
from tests.reliability.conftest import Live, assert_nothing_left_running
from tests.support.crash import (
    crash_env,
    crash_server,
    first_text,
    seed_user,
    until_checkpointed,
)

QUERY = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
TOOL_TIMEOUT = 0.2


def _stored(messages: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(m["role"], m["content"], m["status"]) for m in messages]


# --- the upstream model fails ----------------------------------------------------


@dataclass(frozen=True)
class Upstream:
    name: str
    provider: str
    replies: Callable[[], list[Any]]
    code: str
    partial: str


def _anthropic_529() -> fa.HttpError:
    # No wait between attempts: the retry policy honours retry-after.
    return fa.HttpError(529, "overloaded_error", "Overloaded", {"retry-after": "0"})


def _openai_503() -> fo.Reply:
    return fo.http_error(503, "The engine is currently overloaded.", headers={"retry-after": "0"})


REFUSALS = [
    Upstream("anthropic-429", "anthropic", lambda: [fa.rate_limited(0)] * 3, "rate_limit", ""),
    Upstream("anthropic-529", "anthropic", lambda: [_anthropic_529()] * 3, "overloaded", ""),
    Upstream("openai-429", "openai", lambda: [fo.rate_limited(0)] * 3, "rate_limit", ""),
    Upstream("openai-503", "openai", lambda: [_openai_503()] * 3, "overloaded", ""),
]

MID_STREAM_ERRORS = [
    Upstream(
        "anthropic-error-event",
        "anthropic",
        lambda: [fa.reply("Some ", "text", fa.ErrorEvent())],
        "overloaded",
        "Some text",
    ),
    Upstream(
        "openai-error-chunk",
        "openai",
        lambda: [fo.error_mid_stream("Some ", "text")],
        "stream",
        "Some text",
    ),
]


@dataclass(frozen=True)
class Playing:
    case: Upstream
    requests: list[Any]
    """What the fake provider received."""


@pytest.fixture
async def upstream(request: pytest.FixtureRequest, live: Live) -> AsyncIterator[Playing]:
    """Points the app, through the real SDK, at a fake provider playing `request.param`."""
    case: Upstream = request.param
    model: AnthropicModel | OpenAIModel
    if case.provider == "anthropic":
        async with fa.FakeAnthropic(*case.replies()) as fake_anthropic:
            model = AnthropicModel(
                "claude-haiku-4-5", api_key="test-key", base_url=fake_anthropic.base_url
            )
            live.use_model(model)
            yield Playing(case, fake_anthropic.requests)
            await model.aclose()
    else:
        with fo.FakeOpenAI(case.replies()) as fake_openai:
            model = OpenAIModel("gpt-test", api_key="sk-test-key", base_url=fake_openai.base_url)
            live.use_model(model)
            yield Playing(case, fake_openai.requests)
            await model.aclose()


async def _assert_upstream_error(live: Live, case: Upstream) -> None:
    response, fs = await live.chat("Hi there")
    last = fs[-1]
    assert last.type == "error" and last.event["code"] == case.code, fs
    assert last.event["message"] and "test-key" not in last.event["message"]
    assert streamed_text(fs) == case.partial
    messages = await live.messages(response.headers["x-conversation-id"])
    assert _stored(messages) == [
        ("user", "Hi there", "complete"),
        ("assistant", case.partial, "error"),
    ]
    assert messages[1]["error"]
    await assert_nothing_left_running(live)


@pytest.mark.parametrize("upstream", REFUSALS, ids=lambda c: c.name, indirect=True)
async def test_an_upstream_refusal_before_the_stream_ends_in_an_error_after_bounded_retries(
    live: Live, upstream: Playing
) -> None:
    await _assert_upstream_error(live, upstream.case)

    assert len(upstream.requests) == 3  # the retry policy's bound, then the error stands


@pytest.mark.parametrize("upstream", MID_STREAM_ERRORS, ids=lambda c: c.name, indirect=True)
async def test_an_upstream_error_mid_stream_keeps_the_partial_answer(
    live: Live, upstream: Playing
) -> None:
    await _assert_upstream_error(live, upstream.case)

    assert len(upstream.requests) == 1  # text reached the user: never retried


# --- tools that fail, hang or are stopped ----------------------------------------


@dataclass
class Probe:
    """What a test tool went through, seen from outside its thread or task."""

    started: threading.Event = field(default_factory=threading.Event)
    stopped: threading.Event = field(default_factory=threading.Event)
    """Set when the tool noticed it had to stop (cancelled, closed or told to)."""
    release: threading.Event = field(default_factory=threading.Event)
    """Lets a tool that never noticed go at the end of the test."""

    async def wait_started(self, within: float = 5.0) -> None:
        deadline = time.monotonic() + within
        while not self.started.is_set():
            assert time.monotonic() < deadline, "the tool never started"
            await asyncio.sleep(0.005)


@pytest.fixture
def probe() -> Iterator[Probe]:
    probe = Probe()
    yield probe
    probe.release.set()


def _hanging_executor(kind: str, probe: Probe) -> Callable[..., Any]:
    """A tool that works until it is stopped, as each kind of executor can."""

    async def coroutine(params: dict[str, Any], ctx: ToolContext) -> str:
        probe.started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            probe.stopped.set()
            raise
        return "never"

    async def async_generator(params: dict[str, Any], ctx: ToolContext) -> AsyncIterator[Any]:
        probe.started.set()
        yield ToolProgress(stage="working", message="Working", progress=0.1)
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            probe.stopped.set()
            raise
        yield "never"

    def sync_generator(params: dict[str, Any], ctx: ToolContext) -> Iterator[Any]:
        probe.started.set()
        try:
            while not probe.release.is_set():
                time.sleep(0.01)
                yield ToolProgress(stage="working", message="Still working")
        finally:
            probe.stopped.set()

    def polling_function(params: dict[str, Any], ctx: ToolContext) -> str:
        # A long synchronous tool checks `ctx.cancelled`, as ToolContext asks it to.
        probe.started.set()
        while not (ctx.cancelled.is_set() or probe.release.is_set()):
            time.sleep(0.01)
        if ctx.cancelled.is_set():
            probe.stopped.set()
        return "stopped"

    kinds: dict[str, Callable[..., Any]] = {
        "coroutine": coroutine,
        "async_generator": async_generator,
        "sync_generator": sync_generator,
        "polling_function": polling_function,
    }
    return kinds[kind]


def _failing_executor(kind: str) -> Callable[..., Any]:
    async def coroutine(params: dict[str, Any], ctx: ToolContext) -> str:
        raise ValueError("index corrupt")

    async def async_generator(params: dict[str, Any], ctx: ToolContext) -> AsyncIterator[Any]:
        yield ToolProgress(stage="reading", message="Reading the index")
        raise ValueError("index corrupt")

    def sync_generator(params: dict[str, Any], ctx: ToolContext) -> Iterator[Any]:
        yield ToolProgress(stage="reading", message="Reading the index")
        raise ValueError("index corrupt")

    def function(params: dict[str, Any], ctx: ToolContext) -> str:
        raise ValueError("index corrupt")

    kinds: dict[str, Callable[..., Any]] = {
        "coroutine": coroutine,
        "async_generator": async_generator,
        "sync_generator": sync_generator,
        "function": function,
    }
    return kinds[kind]


@pytest.mark.parametrize("kind", ["coroutine", "async_generator", "sync_generator", "function"])
async def test_a_tool_that_raises_is_an_error_result_and_the_answer_completes(
    live: Live, kind: str
) -> None:
    executor = _failing_executor(kind)
    register_tool(
        ToolConfig(name="lookup", description="Look up", input_schema=QUERY, executor=executor)
    )
    live.script(["Let me look.", tool_call("lookup", {"q": "x"})], ["The lookup failed."])

    response, fs = await live.chat("Find x")

    done = next(f for f in fs if f.type == "tool_complete")
    assert done.event["is_error"] is True and "index corrupt" in done.event["output"]
    assert fs[-1].type == "complete"
    text = "Let me look.[[tool:0]]The lookup failed."
    assert fs[-1].event["payload"]["message"] == text
    messages = await live.messages(response.headers["x-conversation-id"])
    assert _stored(messages) == [("user", "Find x", "complete"), ("assistant", text, "complete")]
    assert messages[1]["tool_history"][0]["is_error"] is True
    await assert_nothing_left_running(live, executor)


HANG_KINDS = [
    "coroutine",
    "async_generator",
    "sync_generator",
    "polling_function",
]


@pytest.mark.parametrize("kind", HANG_KINDS)
async def test_a_tool_that_hangs_past_its_timeout_is_stopped_and_the_answer_completes(
    live: Live, probe: Probe, kind: str
) -> None:
    executor = _hanging_executor(kind, probe)
    register_tool(
        ToolConfig(
            name="slow",
            description="Slow",
            input_schema=QUERY,
            executor=executor,
            timeout=TOOL_TIMEOUT,
        )
    )
    live.script([tool_call("slow", {"q": "x"})], ["It took too long."])

    response, fs = await live.chat("Run it")

    done = next(f for f in fs if f.type == "tool_complete")
    assert done.event["is_error"] is True
    assert done.event["output"] == f"Tool slow timed out after {TOOL_TIMEOUT:g} s."
    assert fs[-1].type == "complete"
    assert fs[-1].event["payload"]["message"] == "[[tool:0]]It took too long."
    messages = await live.messages(response.headers["x-conversation-id"])
    assert messages[1]["status"] == "complete"
    assert messages[1]["tool_history"][0]["is_error"] is True
    await assert_nothing_left_running(live, executor)
    assert probe.stopped.is_set()


@pytest.mark.parametrize(
    "kind", ["coroutine", "async_generator", "sync_generator", "polling_function"]
)
async def test_stop_during_a_tool_stops_the_tool_and_keeps_the_partial_answer(
    live: Live, probe: Probe, kind: str
) -> None:
    executor = _hanging_executor(kind, probe)
    register_tool(
        ToolConfig(name="slow", description="Slow", input_schema=QUERY, executor=executor)
    )
    live.script(["Working on it.", tool_call("slow", {"q": "x"})], ["never shown"])

    async with live.client.stream(
        "POST", "/api/chat/stream", json={"message": "Run it"}, headers=live.alice.headers
    ) as r:
        run_id, conversation_id = r.headers["x-run-id"], r.headers["x-conversation-id"]
        async for f in frames(r):
            if f.type == "tool_start":
                break
        await probe.wait_started()
        stop = await live.client.post(f"/api/chat/runs/{run_id}/cancel", headers=live.alice.headers)
        async with asyncio.timeout(2):
            rest = await read_all(r)

    assert stop.status_code == 202 and stop.json()["cancelled"] is True
    assert rest[-1].type == "cancelled"
    assert "never shown" not in streamed_text(rest)
    assert "tool_complete" not in event_types(rest)
    assert _stored(await live.messages(conversation_id)) == [
        ("user", "Run it", "complete"),
        ("assistant", "Working on it.", "cancelled"),
    ]
    await assert_nothing_left_running(live, executor)
    assert probe.stopped.is_set()
    again = await live.client.post(f"/api/chat/runs/{run_id}/cancel", headers=live.alice.headers)
    assert again.status_code == 202
    assert again.json() == {"run_id": run_id, "cancelled": False, "status": "cancelled"}


# --- the client goes away and comes back ------------------------------------------


async def test_a_client_that_drops_mid_answer_resumes_with_exactly_the_rest(live: Live) -> None:
    live.script(["The ", "first ", Pause(0.3), "second ", "half."])

    async with live.client.stream(
        "POST", "/api/chat/stream", json={"message": "Tell me"}, headers=live.alice.headers
    ) as r:
        run_id, conversation_id = r.headers["x-run-id"], r.headers["x-conversation-id"]
        seen: list[Frame] = []
        async for f in frames(r):
            seen.append(f)
            if streamed_text(seen) == "The first ":
                break
    # The connection is gone mid-answer; the run is not.
    assert [run.id for run in live.runs.active()] == [run_id]

    async def resume(last_event_id: int) -> list[Frame]:
        headers = {**live.alice.headers, "Last-Event-ID": str(last_event_id)}
        async with live.client.stream(
            "GET", f"/api/chat/runs/{run_id}/events", headers=headers
        ) as again:
            assert again.status_code == 200
            return await read_all(again)

    rest = await resume(seen[-1].id)
    everything = await resume(0)

    assert [f.id for f in seen + rest] == list(range(1, len(seen) + len(rest) + 1))
    assert [f.event for f in seen + rest] == [f.event for f in everything]
    assert streamed_text(rest) == "second half." and rest[-1].type == "complete"
    assert await resume(everything[-1].id) == []
    assert _stored(await live.messages(conversation_id)) == [
        ("user", "Tell me", "complete"),
        ("assistant", "The first second half.", "complete"),
    ]
    await assert_nothing_left_running(live)


# --- the server process dies ------------------------------------------------------


async def _until_text(response: httpx.Response) -> AsyncIterator[Frame]:
    async for f in frames(response):
        yield f
        if f.type == "text_delta":
            return


async def test_a_server_killed_mid_run_restarts_with_the_partial_answer_interrupted_and_usable(
    tmp_path: Path,
) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path}/pagechat.db"
    await seed_user(database_url)
    env = crash_env(database_url, tmp_path)

    async with (
        crash_server(env, tmp_path) as (base, proc),
        httpx.AsyncClient(base_url=base, timeout=10) as client,
    ):
        login = await client.post(
            "/api/auth/login", json={"email": "ada@example.com", "password": PASSWORD}
        )
        headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
        async with client.stream(
            "POST", "/api/chat/stream", json={"message": "Explain it all"}, headers=headers
        ) as doomed:
            run_id, conversation_id = (
                doomed.headers["x-run-id"],
                doomed.headers["x-conversation-id"],
            )
            assert await first_text(doomed) == "The first words of a long answer"
            await until_checkpointed(client, conversation_id, headers)
            proc.kill()  # SIGKILL: no shutdown hook runs
            await proc.wait()

    async with (
        crash_server(env, tmp_path) as (base, _proc),
        httpx.AsyncClient(base_url=base, timeout=10) as client,
    ):
        # The client comes back with the run it was following: a clear 404, not a hang.
        resumed = await client.get(
            f"/api/chat/runs/{run_id}/events", headers={**headers, "Last-Event-ID": "2"}
        )
        before = (await client.get(f"/api/conversations/{conversation_id}", headers=headers)).json()
        # The conversation goes on; a new answer can be stopped and is kept.
        async with client.stream(
            "POST",
            "/api/chat/stream",
            json={"message": "Try again", "conversation_id": conversation_id},
            headers=headers,
        ) as second:
            first = [f async for f in _until_text(second)]
            stop = await client.post(
                f"/api/chat/runs/{second.headers['x-run-id']}/cancel", headers=headers
            )
            tail = await read_all(second)
        after = (await client.get(f"/api/conversations/{conversation_id}", headers=headers)).json()

    assert resumed.status_code == 404 and resumed.json() == {"detail": "Run not found"}
    assert _stored(before["messages"]) == [
        ("user", "Explain it all", "complete"),
        ("assistant", "The first words of a long answer", "interrupted"),
    ]
    assert before["messages"][1]["error"]
    assert streamed_text(first) == "The first words of a long answer"
    assert stop.status_code == 202 and tail[-1].type == "cancelled"
    assert _stored(after["messages"]) == [
        ("user", "Explain it all", "complete"),
        ("assistant", "The first words of a long answer", "interrupted"),
        ("user", "Try again", "complete"),
        ("assistant", "The first words of a long answer", "cancelled"),
    ]
