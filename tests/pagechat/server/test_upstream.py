"""The whole stack against the fake Anthropic API through the real SDK."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from pagechat.models.anthropic import AnthropicModel
from pagechat.testing import frames, read_all, streamed_text
from pagechat.tools import ToolConfig, ToolContext, clear_tools, register_tool
from tests.fakes.anthropic_server import FakeAnthropic, Stall, ToolUse, reply
from tests.support.harness import AUTH_A, Harness, harness


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    clear_tools()
    async with harness() as h:
        yield h
    clear_tools()


async def _read_until(response: httpx.Response, text: str) -> None:
    """Reads the stream until the answer so far is `text`."""
    seen = []
    async for f in frames(response):
        seen.append(f)
        if streamed_text(seen) == text:
            return
    raise AssertionError(f"the stream ended before {text!r}")


def _model(fake: FakeAnthropic) -> AnthropicModel:
    return AnthropicModel("claude-haiku-4-5", api_key="test-key", base_url=fake.base_url)


async def test_a_tool_turn_through_the_real_sdk(h: Harness) -> None:
    def lookup(params: dict[str, object], ctx: ToolContext) -> str:
        return f"looked up {params['q']}"

    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    register_tool(
        ToolConfig(name="lookup", description="Look up", input_schema=schema, executor=lookup)
    )
    with FakeAnthropic(
        reply("Let me ", "look.", ToolUse("lookup", {"q": "CRISPR"}, id="toolu_1")),
        reply("It is ", "gene editing."),
    ) as fake:
        h.model = _model(fake)  # type: ignore[assignment]
        _, fs = await h.chat("what is CRISPR?")
    payload = fs[-1].event["payload"]
    assert payload["message"] == "Let me look.[[tool:0]]It is gene editing."
    assert payload["tool_history"][0]["output"] == "looked up CRISPR"
    assert payload["usage"]["input_tokens"] > 0 and payload["usage"]["output_tokens"] > 0
    second = fake.requests[1]["messages"]
    assert second[-1]["content"][0]["type"] == "tool_result"


async def test_cancel_closes_the_upstream_request_and_keeps_the_partial_answer(h: Harness) -> None:
    with FakeAnthropic(reply("Partial ", "answer", Stall(30), "never")) as fake:
        h.model = _model(fake)  # type: ignore[assignment]
        async with h.client.stream(
            "POST", "/api/chat/stream", json={"message": "go"}, headers=AUTH_A
        ) as r:
            run_id = r.headers["x-run-id"]
            await _read_until(r, "Partial answer")
            await h.client.post(f"/api/chat/runs/{run_id}/cancel", headers=AUTH_A)
            async with asyncio.timeout(1.0):  # the 200 ms target is measured in bench/cancel.py
                rest = await read_all(r)
        assert rest[-1].type == "cancelled"
        assert await fake.disconnected(within=1.0)
    stored = (await h.stored_conversation()).messages[-1]
    assert stored.status == "cancelled" and stored.content == "Partial answer"


async def test_with_cancel_on_disconnect_a_dropped_connection_stops_the_run() -> None:
    async with harness(cancel_on_disconnect=True) as h:
        with FakeAnthropic(reply("Partial ", "answer", Stall(30), "never")) as fake:
            h.model = _model(fake)  # type: ignore[assignment]
            async with h.client.stream(
                "POST", "/api/chat/stream", json={"message": "go"}, headers=AUTH_A
            ) as r:
                run_id = r.headers["x-run-id"]
                await _read_until(r, "Partial answer")
            # The response is closed: the client has gone away.
            assert await fake.disconnected(within=2.0)
        run = h.runs.get(run_id, owner_id="alice")
        async with asyncio.timeout(2.0):
            assert run.task is not None
            await asyncio.wait([run.task])
        assert run.terminal == "cancelled"
        stored = (await h.stored_conversation()).messages[-1]
    assert stored.status == "cancelled" and stored.content == "Partial answer"


async def test_by_default_a_dropped_connection_leaves_the_run_going(h: Harness) -> None:
    with FakeAnthropic(reply("Partial ", "answer", Stall(0.5), " and the rest.")) as fake:
        h.model = _model(fake)  # type: ignore[assignment]
        async with h.client.stream(
            "POST", "/api/chat/stream", json={"message": "go"}, headers=AUTH_A
        ) as r:
            run_id = r.headers["x-run-id"]
            async for f in frames(r):
                if f.type == "text_delta":
                    break
        run = h.runs.get(run_id, owner_id="alice")
        async with asyncio.timeout(5.0):
            assert run.task is not None
            await asyncio.wait([run.task])
    assert run.terminal == "complete"
    stored = (await h.stored_conversation()).messages[-1]
    assert stored.status == "complete" and stored.content == "Partial answer and the rest."
