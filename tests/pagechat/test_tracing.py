"""Traces of answers: one invoke_agent span, a chat span per model call, a span per tool."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from pagechat.models import ScriptedModel, tool_call
from pagechat.runs import RunManager
from pagechat.server import StaticTokens, create_app
from pagechat.testing import frames, read_all, serve
from pagechat.tools import ToolConfig, ToolContext, clear_tools, register_tool
from pagechat.tracing import configure_tracing
from tests.support.harness import ALICE, AUTH_A
from tests.support.stores import sqlite_store

QUERY = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


def _lookup(params: dict[str, Any], _ctx: ToolContext) -> str:
    if params["q"] == "bad":
        raise ValueError("no such thing")
    return f"found {params['q']}"


@pytest.fixture
def _tools() -> Iterator[None]:
    clear_tools()
    register_tool(
        ToolConfig(
            name="lookup", description="Look something up", input_schema=QUERY, executor=_lookup
        )
    )
    yield
    clear_tools()


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
async def traced(
    _tools: None, exporter: InMemorySpanExporter
) -> AsyncIterator[tuple[httpx.AsyncClient, list[ScriptedModel]]]:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    models = [ScriptedModel([])]
    async with sqlite_store(ALICE) as store:
        app = create_app(
            model=lambda: models[0],
            store=store,
            runs=RunManager(),
            authenticator=StaticTokens({"token-a": ALICE}),
            tracer=configure_tracing(provider),
        )
        async with serve(app) as base, httpx.AsyncClient(base_url=base, timeout=10) as client:
            yield client, models


def _by_name(spans: tuple[ReadableSpan, ...]) -> dict[str, list[ReadableSpan]]:
    found: dict[str, list[ReadableSpan]] = {}
    for span in spans:
        found.setdefault(span.name, []).append(span)
    return found


async def test_an_answer_with_a_tool_is_one_trace_of_two_model_calls_and_a_tool(
    traced: tuple[httpx.AsyncClient, list[ScriptedModel]], exporter: InMemorySpanExporter
) -> None:
    client, models = traced
    models[0] = ScriptedModel(
        [["Looking.", tool_call("lookup", {"q": "CRISPR"}, id="call-1")], ["Found it."]]
    )
    async with client.stream(
        "POST", "/api/chat/stream", json={"message": "hi"}, headers=AUTH_A
    ) as r:
        fs = await read_all(r)
    assert fs[-1].type == "complete"

    spans = _by_name(exporter.get_finished_spans())
    (root,) = spans["invoke_agent pagechat"]
    calls = spans[f"chat {models[0].name}"]
    (tool,) = spans["execute_tool lookup"]
    assert len(calls) == 2
    assert root.attributes is not None and tool.attributes is not None
    assert root.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert root.attributes["gen_ai.conversation.id"] == r.headers["x-conversation-id"]
    assert root.attributes["pagechat.run.id"] == r.headers["x-run-id"]
    assert root.status.status_code is StatusCode.UNSET
    assert tool.attributes["gen_ai.tool.call.id"] == "call-1"
    assert tool.attributes["gen_ai.operation.name"] == "execute_tool"
    trace_ids = {s.context.trace_id for s in (root, tool, *calls) if s.context is not None}
    assert len(trace_ids) == 1
    assert all(
        s.parent is not None and s.parent.span_id == root.context.span_id
        for s in (tool, *calls)
        if root.context
    )
    # The model call ends before the tool starts; the second starts after it ends.
    first, second = sorted(calls, key=lambda s: s.start_time or 0)
    assert (first.end_time or 0) <= (tool.start_time or 0)
    assert (tool.end_time or 0) <= (second.start_time or 0)


async def test_a_failed_tool_and_a_stopped_answer_are_marked_as_errors(
    traced: tuple[httpx.AsyncClient, list[ScriptedModel]], exporter: InMemorySpanExporter
) -> None:
    client, models = traced
    models[0] = ScriptedModel(
        [[tool_call("lookup", {"q": "bad"}, id="call-2")], ["slow "] * 100], delay=0.02
    )
    async with client.stream(
        "POST", "/api/chat/stream", json={"message": "hi"}, headers=AUTH_A
    ) as r:
        async for frame in frames(r):
            if frame.type == "text_delta" and "slow" in frame.event["text"]:
                break
        await client.post(f"/api/chat/runs/{r.headers['x-run-id']}/cancel", headers=AUTH_A)
        rest = [f async for f in frames(r)]
    assert rest[-1].type == "cancelled"

    spans = _by_name(exporter.get_finished_spans())
    (root,) = spans["invoke_agent pagechat"]
    (tool,) = spans["execute_tool lookup"]
    assert tool.status.status_code is StatusCode.ERROR
    assert root.status.status_code is StatusCode.ERROR
    assert root.attributes is not None and root.attributes["error.type"] == "cancelled"
    # Every span opened for the answer was ended: none is left dangling.
    assert len(spans[f"chat {models[0].name}"]) == 2
