"""Payloads slightly off their schema, through the chat route: repaired where the meaning is
clear, else an error card in place of raw JSON — the same live and after a reload."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

import pagechat.pages.registry
import pagechat.tools.registry
from pagechat.pages import PayloadConfig, register_page
from pagechat.protocol import MessagePublic, PayloadErrorData
from pagechat.testing import LiveApp, running_app, tool_call
from pagechat.tools import ToolConfig, ToolContext, ToolResult

PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 1},
        "steps": {"type": "integer", "minimum": 1},
        "urgent": {"type": "boolean", "default": False},
    },
    "required": ["title", "steps"],
    "additionalProperties": False,
}
HITS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"total": {"type": "integer"}},
    "required": ["total"],
}


def _hits(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
    return ToolResult("some hits", payload={"type": "hits", "data": {"total": params["total"]}})


@pytest.fixture
async def app(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LiveApp]:
    monkeypatch.setattr(pagechat.pages.registry, "_PAGES", {})
    monkeypatch.setattr(pagechat.tools.registry, "_TOOLS", {})
    register_page(
        "planner",
        payloads=[
            PayloadConfig(
                type="plan",
                parse_marker="PLAN:",
                llm_instructions="Propose a plan.",
                schema=PLAN_SCHEMA,
            )
        ],
        tools=[
            ToolConfig(
                name="hits",
                description="Count hits",
                input_schema={"type": "object", "properties": {"total": {}}},
                executor=_hits,
                payload_schema=HITS_SCHEMA,
            )
        ],
    )
    async with running_app() as live:
        yield live


async def _stored_answer(app: LiveApp, conversation_id: str) -> MessagePublic:
    response = await app.http.get(
        f"/api/conversations/{conversation_id}", headers=app.account.headers
    )
    return MessagePublic.model_validate(response.json()["messages"][-1])


async def test_a_plan_slightly_off_its_schema_is_repaired_live_and_stored(app: LiveApp) -> None:
    app.script(["Here is a plan.\n", 'PLAN: {"title": "Ship", "steps": "3", "owner": "me"}'])
    turn = await app.client.chat("plan it", page="planner")
    repaired = {"title": "Ship", "steps": 3, "urgent": False}
    assert turn.text == turn.payload.message == "Here is a plan.\n"
    assert turn.payload.custom_payload is not None
    assert turn.payload.custom_payload.data == repaired
    stored = await _stored_answer(app, turn.conversation_id)
    assert stored.custom_payload == turn.payload.custom_payload
    assert stored.payloads == turn.payload.payloads


async def test_a_plan_that_cannot_be_repaired_is_an_error_card_not_raw_json(app: LiveApp) -> None:
    app.script(["Here is a plan.\n", 'PLAN: {"title": "Ship", "steps": "several"}\nAsk away.'])
    turn = await app.client.chat("plan it", page="planner")
    assert "PLAN" not in turn.text and "several" not in turn.text
    assert turn.payload.message == turn.text == "Here is a plan.\nAsk away."
    [card] = turn.payload.payloads
    error = PayloadErrorData.model_validate(card.data)
    assert (card.type, error.payload_type) == ("payload_error", "plan")
    assert "steps" in error.details and '"several"' in error.details
    # An error card is no proposal: nothing waits for a decision, and no raw warning shows.
    assert turn.payload.custom_payload is None and turn.payload.warnings == []
    stored = await _stored_answer(app, turn.conversation_id)
    assert (stored.content, stored.payloads) == (turn.payload.message, turn.payload.payloads)


async def test_the_model_hears_that_its_plan_could_not_be_shown(app: LiveApp) -> None:
    model = app.script(['PLAN: {"title": ""}'], ["Sorry, here it is again."])
    first = await app.client.chat("plan it", page="planner")
    await app.client.chat("again", page="planner", conversation_id=first.conversation_id)
    told = str(model.requests[1].messages)
    assert "plan written here could not be shown to the user" in told


async def test_a_tool_card_off_its_schema_is_repaired_or_an_error_card(app: LiveApp) -> None:
    app.script(
        [tool_call("hits", {"total": "12"})],
        [tool_call("hits", {"total": "many"})],
        ["Done."],
    )
    turn = await app.client.chat("count", page="planner")
    cards = [e.payload for e in turn.payload.tool_history]
    assert cards[0] is not None and (cards[0].type, cards[0].data) == ("hits", {"total": 12})
    assert cards[1] is not None and cards[1].type == "payload_error"
    assert PayloadErrorData.model_validate(cards[1].data).payload_type == "hits"
    assert turn.payload.custom_payload == cards[0]
