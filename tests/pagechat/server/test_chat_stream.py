"""The chat routes end to end: a real uvicorn on loopback, ScriptedModel as the LLM."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from pagechat.models import Pause, tool_call
from pagechat.models.base import ModelFinish
from pagechat.protocol import MAX_MESSAGE_CHARS
from pagechat.testing import Frame, event_types, frames, read_all, streamed_text
from pagechat.tools import (
    ToolConfig,
    ToolContext,
    ToolProgress,
    ToolResult,
    clear_tools,
    register_tool,
)
from tests.support.harness import ALICE, AUTH_A, AUTH_B, Harness, harness

QUERY = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


@pytest.fixture
def _tools() -> Iterator[None]:
    clear_tools()
    yield
    clear_tools()


@pytest.fixture
async def h(_tools: None) -> AsyncIterator[Harness]:
    async with harness() as h:
        yield h


_types = event_types
_text = streamed_text


def _echo(params: dict[str, Any], ctx: ToolContext) -> str:
    return f"echo:{params['q']}"


async def test_text_only_turn(h: Harness) -> None:
    h.script(["Hello", " there."])
    response, fs = await h.chat()
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["x-run-id"] and response.headers["x-conversation-id"]
    assert _types(fs) == ["status", "text_delta", "text_delta", "complete"]
    assert fs[0].event["message"] == "Thinking..."
    assert [f.id for f in fs] == [1, 2, 3, 4]
    payload = fs[-1].event["payload"]
    assert payload["message"] == "Hello there."
    assert payload["tool_history"] == [] and payload["custom_payload"] is None
    assert payload["conversation_id"] == response.headers["x-conversation-id"]
    assert payload["message_id"]


async def test_one_tool_emits_marker_and_tool_history(h: Harness) -> None:
    register_tool(ToolConfig(name="echo", description="Echo", input_schema=QUERY, executor=_echo))
    h.script(["Let me check.", tool_call("echo", {"q": "CRISPR"}, id="t1")], ["Found it."])
    _, fs = await h.chat()
    assert _types(fs) == [
        "status",
        "text_delta",
        "tool_start",
        "tool_complete",
        "text_delta",
        "status",
        "text_delta",
        "complete",
    ]
    start, done, marker = fs[2].event, fs[3].event, fs[4].event
    assert start == {
        "type": "tool_start",
        "tool": "echo",
        "input": {"q": "CRISPR"},
        "tool_use_id": "t1",
    }
    assert done["index"] == 0 and done["tool"] == "echo" and done["output"] == "echo:CRISPR"
    assert marker["text"] == "[[tool:0]]"
    payload = fs[-1].event["payload"]
    assert payload["message"] == "Let me check.[[tool:0]]Found it."
    assert payload["tool_history"][0]["output"] == "echo:CRISPR"
    assert payload["custom_payload"]["type"] == "tool_history"
    assert payload["custom_payload"]["data"][0]["tool_name"] == "echo"


async def test_two_tools_in_one_turn_get_consecutive_indices(h: Harness) -> None:
    register_tool(ToolConfig(name="echo", description="Echo", input_schema=QUERY, executor=_echo))
    h.script([tool_call("echo", {"q": "a"}), tool_call("echo", {"q": "b"})], ["Both done."])
    _, fs = await h.chat()
    completes = [f.event["index"] for f in fs if f.type == "tool_complete"]
    markers = [
        f.event["text"] for f in fs if f.type == "text_delta" and f.event["text"].startswith("[[")
    ]
    assert completes == [0, 1] and markers == ["[[tool:0]]", "[[tool:1]]"]
    history = fs[-1].event["payload"]["tool_history"]
    assert [e["output"] for e in history] == ["echo:a", "echo:b"]


async def test_streaming_tool_progress_and_payload(h: Harness) -> None:
    async def search(params: dict[str, Any], ctx: ToolContext) -> AsyncIterator[Any]:
        yield ToolProgress(stage="searching", message="Searching PubMed...", progress=0.3)
        yield ToolProgress(stage="fetching", message="Fetching 3 articles", progress=0.8)
        yield ToolResult("3 articles", payload={"type": "pubmed_search_results", "data": {"n": 3}})

    register_tool(
        ToolConfig(name="search", description="Search", input_schema=QUERY, executor=search)
    )
    h.script([tool_call("search", {"q": "x"})], ["Here they are."])
    _, fs = await h.chat()
    assert _types(fs)[:5] == [
        "status",
        "tool_start",
        "tool_progress",
        "tool_progress",
        "tool_complete",
    ]
    assert [f.event["progress"] for f in fs if f.type == "tool_progress"] == [0.3, 0.8]
    assert fs[2].event["stage"] == "searching" and fs[2].event["message"] == "Searching PubMed..."
    payload = fs[-1].event["payload"]
    assert payload["custom_payload"] == {"type": "pubmed_search_results", "data": {"n": 3}}
    assert payload["payloads"] == [payload["custom_payload"]]


async def test_failing_tool_is_reported_and_the_answer_goes_on(h: Harness) -> None:
    def broken(params: dict[str, Any], ctx: ToolContext) -> str:
        raise ValueError("index corrupt")

    register_tool(
        ToolConfig(name="broken", description="Broken", input_schema=QUERY, executor=broken)
    )
    model = h.script([tool_call("broken", {"q": "x"})], ["The search failed, sorry."])
    _, fs = await h.chat()
    done = next(f for f in fs if f.type == "tool_complete")
    assert done.event["is_error"] is True
    payload = fs[-1].event["payload"]
    assert (
        payload["tool_history"][0]["is_error"]
        and "index corrupt" in payload["tool_history"][0]["output"]
    )
    assert payload["message"].endswith("The search failed, sorry.")
    assert model.requests[1].messages[-1].results[0].is_error  # type: ignore[union-attr]


async def test_invalid_tool_input_never_reaches_the_tool(h: Harness) -> None:
    calls: list[Any] = []

    def echo(params: dict[str, Any], _ctx: ToolContext) -> str:
        calls.append(params)
        return "x"

    register_tool(ToolConfig(name="echo", description="Echo", input_schema=QUERY, executor=echo))
    h.script([tool_call("echo", {"wrong": 1})], ["I will fix my input."])
    _, fs = await h.chat()
    entry = fs[-1].event["payload"]["tool_history"][0]
    assert entry["is_error"] and "Invalid input" in entry["output"] and calls == []


async def test_iteration_cap_ends_with_a_summary(h: Harness) -> None:
    register_tool(ToolConfig(name="echo", description="Echo", input_schema=QUERY, executor=_echo))
    loops = [[tool_call("echo", {"q": str(i)})] for i in range(5)]
    model = h.script(*loops, ["In summary: five searches."])
    _, fs = await h.chat()
    assert len(model.requests) == 6 and model.requests[-1].tool_choice == "none"
    assert [f.event["index"] for f in fs if f.type == "tool_complete"] == [0, 1, 2, 3, 4]
    assert fs[-1].type == "complete"
    assert fs[-1].event["payload"]["message"].endswith("In summary: five searches.")


async def _first_frames(response: httpx.Response, n: int) -> list[Frame]:
    got: list[Frame] = []
    async for f in frames(response):
        got.append(f)
        if len(got) == n:
            break
    return got


async def test_cancel_during_model_streaming_keeps_the_partial_answer(h: Harness) -> None:
    h.script(["Partial ", "answer", Pause(30), "never shown"])
    async with h.client.stream(
        "POST", "/api/chat/stream", json={"message": "go"}, headers=AUTH_A
    ) as r:
        run_id = r.headers["x-run-id"]
        seen: list[Frame] = []
        async for f in frames(r):
            seen.append(f)
            if _text(seen) == "Partial answer":
                cancel = await h.client.post(f"/api/chat/runs/{run_id}/cancel", headers=AUTH_A)
                assert cancel.status_code == 202
                break
        async with asyncio.timeout(1.0):  # the 200 ms target is measured in bench/cancel.py
            rest = [f async for f in frames(r)]
    assert rest[-1].type == "cancelled"
    assert "never shown" not in _text(seen + rest)
    conv = await h.stored_conversation()
    stored = conv.messages[-1]
    assert stored.status == "cancelled" and stored.content == "Partial answer"


async def test_cancel_during_a_tool_cancels_the_tool(h: Harness) -> None:
    entered = asyncio.Event()
    cancelled = asyncio.Event()

    async def slow(params: dict[str, Any], ctx: ToolContext) -> str:
        entered.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "never"

    register_tool(ToolConfig(name="slow", description="Slow", input_schema=QUERY, executor=slow))
    h.script(["Working.", tool_call("slow", {"q": "x"})], ["never"])
    async with h.client.stream(
        "POST", "/api/chat/stream", json={"message": "go"}, headers=AUTH_A
    ) as r:
        run_id = r.headers["x-run-id"]
        await _first_frames(r, 3)  # status, text, tool_start
        await entered.wait()
        await h.client.post(f"/api/chat/runs/{run_id}/cancel", headers=AUTH_A)
        async with asyncio.timeout(1.0):  # the 200 ms target is measured in bench/cancel.py
            rest = [f async for f in frames(r)]
    assert rest[-1].type == "cancelled" and cancelled.is_set()
    stored = (await h.stored_conversation()).messages[-1]
    assert stored.status == "cancelled" and stored.content == "Working."


async def test_resume_mid_run_gives_exactly_the_missed_events(h: Harness) -> None:
    h.script(["a", "b", Pause(0.2), "c", "d"])
    async with h.client.stream(
        "POST", "/api/chat/stream", json={"message": "go"}, headers=AUTH_A
    ) as r:
        run_id = r.headers["x-run-id"]
        first = await _first_frames(r, 2)
    # The client dropped; the run goes on without it.
    resumed_from = first[-1].id
    async with h.client.stream(
        "GET",
        f"/api/chat/runs/{run_id}/events",
        headers={**AUTH_A, "Last-Event-ID": str(resumed_from)},
    ) as r2:
        rest = await read_all(r2)
    ids = [f.id for f in first + rest]
    assert ids == list(range(1, len(ids) + 1))
    assert _text(first + rest) == "abcd" and rest[-1].type == "complete"


async def test_resume_after_the_run_ended(h: Harness) -> None:
    h.script(["one ", "two"])
    response, fs = await h.chat()
    run_id = response.headers["x-run-id"]
    async with h.client.stream(
        "GET", f"/api/chat/runs/{run_id}/events", headers={**AUTH_A, "Last-Event-ID": "2"}
    ) as r:
        rest = await read_all(r)
    assert [f.id for f in rest] == [f.id for f in fs[2:]]
    assert [f.event for f in rest] == [f.event for f in fs[2:]]


async def test_two_concurrent_runs_never_mix(h: Harness) -> None:
    h.script(*[[f"{c}{i} " for i in range(20)] for c in "xy"], delay=0.001)

    async def one(message: str, headers: dict[str, str]) -> list[Frame]:
        return (await h.chat(message, headers))[1]

    a, b = await asyncio.gather(one("first", AUTH_A), one("second", AUTH_B))
    texts = sorted([_text(a), _text(b)])
    assert texts == sorted(["".join(f"{c}{i} " for i in range(20)) for c in "xy"])
    for fs in (a, b):
        assert [f.id for f in fs] == list(range(1, len(fs) + 1))
        assert fs[-1].event["payload"]["message"] == _text(fs)


async def test_a_dropped_connection_does_not_cancel_the_run(h: Harness) -> None:
    h.script(["start ", Pause(0.1), "end"])
    async with h.client.stream(
        "POST", "/api/chat/stream", json={"message": "go"}, headers=AUTH_A
    ) as r:
        run_id = r.headers["x-run-id"]
        await _first_frames(r, 2)
    run = h.runs.get(run_id, owner_id=ALICE.id)
    assert run.task is not None
    await asyncio.wait_for(asyncio.shield(run.task), 2)
    assert run.terminal == "complete"


# --- bad input ------------------------------------------------------------------


async def test_malformed_body_is_422_json(h: Harness) -> None:
    r = await h.client.post(
        "/api/chat/stream",
        content=b"{not json",
        headers={**AUTH_A, "content-type": "application/json"},
    )
    assert r.status_code == 422 and "detail" in r.json()


@pytest.mark.parametrize("message", ["", "   \n"])
async def test_empty_message_is_422(h: Harness, message: str) -> None:
    r = await h.client.post("/api/chat/stream", json={"message": message}, headers=AUTH_A)
    assert r.status_code == 422 and r.json()["detail"]
    assert await h.stored_conversations() == []


async def test_message_over_the_limit_is_422(h: Harness) -> None:
    r = await h.client.post(
        "/api/chat/stream", json={"message": "x" * (MAX_MESSAGE_CHARS + 1)}, headers=AUTH_A
    )
    assert r.status_code == 422
    assert h.runs.active() == []


async def test_huge_body_is_413(h: Harness) -> None:
    r = await h.client.post(
        "/api/chat/stream",
        json={"message": "x", "context": {"blob": "y" * 400_000}},
        headers=AUTH_A,
    )
    assert r.status_code == 413 and "detail" in r.json()


async def test_missing_or_unknown_token_is_401(h: Harness) -> None:
    assert (await h.client.post("/api/chat/stream", json={"message": "hi"})).status_code == 401
    bad = await h.client.post(
        "/api/chat/stream", json={"message": "hi"}, headers={"Authorization": "Bearer nope"}
    )
    assert bad.status_code == 401 and bad.json()["detail"]


async def test_unknown_run_is_404(h: Harness) -> None:
    for method, path in [
        ("GET", "/api/chat/runs/nope/events"),
        ("POST", "/api/chat/runs/nope/cancel"),
    ]:
        r = await h.client.request(method, path, headers=AUTH_A)
        assert r.status_code == 404 and r.json()["detail"] == "Run not found"


@pytest.mark.parametrize("event_id", ["abc", "-1", "99"])
async def test_bad_or_unknown_event_id_is_400(h: Harness, event_id: str) -> None:
    h.script(["done"])
    response, _ = await h.chat()
    r = await h.client.get(
        f"/api/chat/runs/{response.headers['x-run-id']}/events",
        headers={**AUTH_A, "Last-Event-ID": event_id},
    )
    assert r.status_code == 400 and "event id" in r.json()["detail"]


async def test_another_users_run_is_404_and_keeps_running(h: Harness) -> None:
    h.script(["slow ", Pause(0.3), "end"])
    async with h.client.stream(
        "POST", "/api/chat/stream", json={"message": "go"}, headers=AUTH_A
    ) as r:
        run_id = r.headers["x-run-id"]
        assert (
            await h.client.post(f"/api/chat/runs/{run_id}/cancel", headers=AUTH_B)
        ).status_code == 404
        assert (
            await h.client.get(f"/api/chat/runs/{run_id}/events", headers=AUTH_B)
        ).status_code == 404
        fs = await read_all(r)
    assert fs[-1].type == "complete"


async def test_unknown_conversation_is_404_and_starts_no_run(h: Harness) -> None:
    r = await h.client.post(
        "/api/chat/stream", json={"message": "hi", "conversation_id": "nope"}, headers=AUTH_A
    )
    assert r.status_code == 404 and h.runs.active() == []


async def test_another_users_conversation_is_404(h: Harness) -> None:
    h.script(["hi"])
    response, _ = await h.chat()
    conv = response.headers["x-conversation-id"]
    r = await h.client.post(
        "/api/chat/stream", json={"message": "hi", "conversation_id": conv}, headers=AUTH_B
    )
    assert r.status_code == 404


async def test_health_needs_no_token(h: Harness) -> None:
    r = await h.client.get("/api/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "model": {"provider": "scripted", "name": "scripted"}}


async def test_usage_is_reported_and_a_nearly_full_context_warns(h: Harness) -> None:
    model = h.script(["short answer"])
    model.context_window = 200  # the scripted prompt alone is several hundred tokens
    _, fs = await h.chat()
    payload = fs[-1].event["payload"]
    assert payload["usage"]["input_tokens"] > 140 and payload["usage"]["output_tokens"] > 0
    assert any("context" in w for w in payload["warnings"])
    stored = (await h.stored_conversation()).messages[-1]
    assert stored.usage is not None and stored.usage.model_dump() == payload["usage"]
    assert stored.warnings == payload["warnings"]


async def test_a_roomy_context_does_not_warn(h: Harness) -> None:
    h.script(["short answer"])
    _, fs = await h.chat()
    assert fs[-1].event["payload"]["warnings"] == []


async def test_an_answer_cut_off_by_the_output_limit_says_so_live_and_after_a_reload(
    h: Harness,
) -> None:
    h.script(["The first half of a long ans", ModelFinish(stop_reason="max_tokens")])

    r, fs = await h.chat("explain everything")

    assert fs[-1].type == "complete"
    assert fs[-1].event["payload"]["stop_reason"] == "max_tokens"
    conversation = r.headers["x-conversation-id"]
    stored = (await h.client.get(f"/api/conversations/{conversation}", headers=AUTH_A)).json()
    assert stored["messages"][-1]["stop_reason"] == "max_tokens"


async def test_an_answer_that_ends_by_itself_says_end_turn(h: Harness) -> None:
    h.script(["Short and complete."])

    _, fs = await h.chat("hi")

    assert fs[-1].event["payload"]["stop_reason"] == "end_turn"


async def test_a_burst_of_deltas_comes_in_fewer_events_with_the_same_text(h: Harness) -> None:
    words = [f"w{i} " for i in range(300)]
    h.script(words)
    _, fs = await h.chat()
    texts = [f.event["text"] for f in fs if f.type == "text_delta"]
    assert "".join(texts) == "".join(words)
    assert 1 < len(texts) < len(words)
    assert texts[0] == words[0]  # the first is never held back
    assert [f.id for f in fs] == list(range(1, len(fs) + 1))
    assert fs[-1].event["payload"]["message"] == "".join(words)


async def test_deltas_slower_than_the_merge_window_each_get_their_own_event(h: Harness) -> None:
    h.script(["one ", "two ", "three"], delay=0.05)
    _, fs = await h.chat()
    assert [f.event["text"] for f in fs if f.type == "text_delta"] == ["one ", "two ", "three"]
