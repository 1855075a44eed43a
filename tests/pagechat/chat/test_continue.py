"""Continue: an answer cut short goes on from where the user saw it stop.

Its completed tool calls go back to the model with their stored results (never run
again), the text after them is the model's unfinished turn, and the new text joins it
without a doubled space, live and after a reload.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fastapi import FastAPI

from pagechat.models import (
    AssistantTurn,
    FunctionModel,
    ModelMessage,
    ModelRequest,
    Pause,
    ScriptItem,
    ToolResultsTurn,
    tool_call,
)
from pagechat.pages import register_page
from pagechat.server import ModelSource, create_app_from_settings
from pagechat.settings import Settings
from pagechat.testing import LiveApp, events, running_app
from pagechat.tools import ToolContext, tool

RUNS: list[str] = []


@tool
def read_section(ctx: ToolContext, section: str) -> str:
    """Read one section of the report."""
    RUNS.append(section)
    return f"{section}: three findings."


def _create_app(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
    register_page("report", instructions="You summarise the report.", tools=[read_section])
    return create_app_from_settings(settings, model=model)


class Writer:
    """Reads a section, then writes numbered words; a continue goes on from the prefill."""

    def __init__(self) -> None:
        self.requests: list[list[ModelMessage]] = []

    def __call__(self, request: ModelRequest) -> list[ScriptItem]:
        self.requests.append(list(request.messages))
        last = request.messages[-1]
        if isinstance(last, AssistantTurn) and last.partial:
            return [" w2 w3."]  # as a model goes on after a prefill: a space first
        if isinstance(last, ToolResultsTurn):
            if len(self.requests) > 2:  # the continue, stopped right after the tool
                return ["Summary: w0 w1 w2 w3."]
            return ["Summary: w0 w1 ", Pause(30), "never"]
        return ["Reading. ", tool_call("read_section", {"section": "methods"})]


@pytest.fixture
async def app() -> AsyncIterator[LiveApp]:
    RUNS.clear()
    async with running_app(_create_app) as live:
        yield live


async def _stopped_answer(app: LiveApp) -> tuple[str, str]:
    """Asks, stops the answer once 'w1 ' showed; the conversation and the answer's ids."""
    body = {"message": "summarise this report", "context": {"current_page": "report"}}
    headers = app.account.headers
    async with app.http.stream("POST", "/api/chat/stream", json=body, headers=headers) as r:
        shown = ""
        async for event in events(r):
            if event.type == "text_delta":
                shown += event.text
            if shown.endswith("w1 "):
                await app.http.post(
                    f"/api/chat/runs/{r.headers['x-run-id']}/cancel", headers=headers
                )
            if event.type == "cancelled":
                break
        conversation_id = r.headers["x-conversation-id"]
    detail = (await app.http.get(f"/api/conversations/{conversation_id}", headers=headers)).json()
    answer = detail["messages"][-1]
    assert answer["status"] == "cancelled"
    return conversation_id, answer["id"]


async def _continue(app: LiveApp, conversation_id: str, message_id: str) -> list[str]:
    url = f"/api/conversations/{conversation_id}/messages/{message_id}/continue"
    body = {"context": {"current_page": "report"}}
    async with app.http.stream("POST", url, json=body, headers=app.account.headers) as r:
        assert r.status_code == 200
        return [event.type async for event in events(r)]


async def test_continue_after_stop_runs_no_tool_again_and_repeats_no_text(app: LiveApp) -> None:
    writer = Writer()
    app.use_model(FunctionModel(writer))
    conversation_id, message_id = await _stopped_answer(app)

    kinds = await _continue(app, conversation_id, message_id)

    assert RUNS == ["methods"]  # ran once, before the stop
    assert "tool_start" not in kinds and kinds[-1] == "complete"
    shown = writer.requests[-1]
    results = [m for m in shown if isinstance(m, ToolResultsTurn)]
    assert results and results[-1].results[0].content == "methods: three findings."
    assert shown[-1] == AssistantTurn("Summary: w0 w1 ", partial=True)
    headers = app.account.headers
    detail = (await app.http.get(f"/api/conversations/{conversation_id}", headers=headers)).json()
    answer = detail["messages"][-1]
    assert answer["id"] == message_id and answer["status"] == "complete"
    assert answer["content"] == "Reading. [[tool:0]]Summary: w0 w1 w2 w3."
    assert len(answer["tool_history"]) == 1


async def test_continue_right_after_a_tool_goes_on_from_its_result(app: LiveApp) -> None:
    class StopsAfterTool(Writer):
        def __call__(self, request: ModelRequest) -> list[ScriptItem]:
            if len(self.requests) == 1 and isinstance(request.messages[-1], ToolResultsTurn):
                self.requests.append(list(request.messages))
                return [Pause(30), "never"]
            return super().__call__(request)

    writer = StopsAfterTool()
    app.use_model(FunctionModel(writer))
    body = {"message": "summarise this report", "context": {"current_page": "report"}}
    headers = app.account.headers
    async with app.http.stream("POST", "/api/chat/stream", json=body, headers=headers) as r:
        async for event in events(r):
            if event.type == "tool_complete":
                await app.http.post(
                    f"/api/chat/runs/{r.headers['x-run-id']}/cancel", headers=headers
                )
        conversation_id = r.headers["x-conversation-id"]
    detail = (await app.http.get(f"/api/conversations/{conversation_id}", headers=headers)).json()

    await _continue(app, conversation_id, detail["messages"][-1]["id"])

    assert RUNS == ["methods"]
    assert isinstance(writer.requests[-1][-1], ToolResultsTurn)  # no empty prefill
    detail = (await app.http.get(f"/api/conversations/{conversation_id}", headers=headers)).json()
    assert detail["messages"][-1]["content"] == "Reading. [[tool:0]]Summary: w0 w1 w2 w3."


@tool(requires_approval=True)
def drop_section(ctx: ToolContext, section: str) -> str:
    """Drop one section of the report."""
    RUNS.append(f"drop {section}")
    return f"{section} dropped."


def _create_app_that_asks(
    settings: Settings | None = None, *, model: ModelSource | None = None
) -> FastAPI:
    register_page(
        "report", instructions="You summarise the report.", tools=[read_section, drop_section]
    )
    return create_app_from_settings(settings, model=model)


class AsksOnContinue(Writer):
    """Continued, it goes on a little and calls a tool that needs approval."""

    def __call__(self, request: ModelRequest) -> list[ScriptItem]:
        last = request.messages[-1]
        if isinstance(last, AssistantTurn) and last.partial:
            self.requests.append(list(request.messages))
            return [" w2. ", tool_call("drop_section", {"section": "methods"})]
        if isinstance(last, ToolResultsTurn) and len(self.requests) > 2:
            self.requests.append(list(request.messages))
            return ["Dropped."]
        return super().__call__(request)


async def test_a_continued_answer_that_pauses_replays_its_earlier_cards() -> None:
    RUNS.clear()
    async with running_app(_create_app_that_asks) as live:
        live.use_model(FunctionModel(AsksOnContinue()))
        conversation_id, message_id = await _stopped_answer(live)
        headers = live.account.headers
        url = f"/api/conversations/{conversation_id}/messages/{message_id}/continue"
        body = {"context": {"current_page": "report"}}
        async with live.http.stream("POST", url, json=body, headers=headers) as r:
            paused = [event async for event in events(r)][-1]
        assert paused.type == "approval_requested"

        decided = await live.http.post(
            f"/api/chat/approvals/{paused.approval_id}",
            json={"decision": "approved"},
            headers=headers,
        )
        run_id = decided.json()["run_id"]
        async with live.http.stream("GET", f"/api/chat/runs/{run_id}/events", headers=headers) as r:
            resumed = [event async for event in events(r)]

    replayed = [(e.type, getattr(e, "text", getattr(e, "index", None))) for e in resumed[:6]]
    assert replayed == [
        ("text_delta", "Reading. "),
        ("tool_start", None),
        ("tool_complete", 0),
        ("text_delta", "[[tool:0]]"),
        ("text_delta", "Summary: w0 w1 w2. "),
        ("approval_resolved", None),
    ]
    assert RUNS == ["methods", "drop methods"]
    done = resumed[-1]
    assert done.type == "complete"
    assert done.payload.message == ("Reading. [[tool:0]]Summary: w0 w1 w2. [[tool:1]]Dropped.")
