"""ChatClient.approve and deny: a turn that waits for the user, decided, and the turn that
goes on, read to its end as one ChatTurn."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from pagechat.chat.service import ModelSource
from pagechat.models.base import ToolResultsTurn
from pagechat.pages import register_page
from pagechat.protocol import ApprovalResolvedEvent, ToolCompleteEvent
from pagechat.server import create_app_from_settings
from pagechat.settings import Settings
from pagechat.testing import NoPendingApproval, running_app, tool_call
from pagechat.tools import ToolConfig, ToolContext

DELETED: list[int] = []

_SCHEMA = {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}


def _delete_report(params: dict[str, Any], ctx: ToolContext) -> str:
    DELETED.append(params["id"])
    return f"Deleted report {params['id']}."


def _reports_app(settings: Settings | None = None, *, model: ModelSource | None = None) -> FastAPI:
    register_page(
        "reports",
        instructions="You manage the user's reports.",
        tools=[
            ToolConfig(
                name="delete_report",
                description="Delete a report. It cannot be undone.",
                input_schema=_SCHEMA,
                executor=_delete_report,
                requires_approval=True,
            )
        ],
    )
    return create_app_from_settings(settings, model=model)


@pytest.fixture(autouse=True)
def _nothing_deleted() -> None:
    DELETED.clear()


async def test_a_turn_that_waits_shows_the_call_it_waits_for() -> None:
    async with running_app(_reports_app) as app:
        app.script(["I will delete it.", tool_call("delete_report", {"id": 7})])
        turn = await app.client.chat("delete report 7", page="reports")

    assert turn.approval is not None
    assert (turn.approval.tool, turn.approval.input) == ("delete_report", {"id": 7})
    assert turn.approval.conversation_id == turn.conversation_id
    assert DELETED == []


async def test_an_approved_call_runs_and_the_turn_completes_with_its_result() -> None:
    async with running_app(_reports_app) as app:
        app.script(
            ["I will delete it.", tool_call("delete_report", {"id": 7})], ["Report 7 is gone."]
        )
        paused = await app.client.chat("delete report 7", page="reports")
        turn = await app.client.approve(paused)

    assert DELETED == [7]
    assert turn.decision is not None and turn.decision.approval.status == "approved"
    assert turn.run_id == turn.decision.run_id
    assert turn.conversation_id == paused.conversation_id
    resolved = [e for e in turn.events if isinstance(e, ApprovalResolvedEvent)]
    assert [e.status for e in resolved] == ["approved"]
    done = [e for e in turn.events if isinstance(e, ToolCompleteEvent)]
    assert [(e.tool, e.output, e.is_error) for e in done] == [
        ("delete_report", "Deleted report 7.", False)
    ]
    assert turn.payload.message == "I will delete it.[[tool:0]]Report 7 is gone."
    assert turn.approval is None


async def test_a_denied_call_does_not_run_and_the_model_is_told_why() -> None:
    async with running_app(_reports_app) as app:
        model = app.script([tool_call("delete_report", {"id": 7})], ["I kept report 7."])
        paused = await app.client.chat("delete report 7", page="reports")
        turn = await app.client.deny(paused, note="I still need it")

    assert DELETED == []
    assert turn.decision is not None and turn.decision.approval.status == "denied"
    told = [
        (r.content, r.is_error)
        for m in model.requests[-1].messages
        if isinstance(m, ToolResultsTurn)
        for r in m.results
    ]
    assert len(told) == 1 and told[0][1]
    assert "I still need it" in told[0][0]
    assert turn.payload.message.endswith("I kept report 7.")
    [entry] = turn.payload.tool_history or []
    assert entry.approval is not None and entry.approval.note == "I still need it"


async def test_a_turn_that_did_not_pause_cannot_be_approved() -> None:
    async with running_app(_reports_app) as app:
        app.script("Nothing to delete.")
        turn = await app.client.chat("hello", page="reports")

        with pytest.raises(NoPendingApproval, match="ended with complete"):
            await app.client.approve(turn)


async def test_a_second_decision_comes_back_refused_with_no_events() -> None:
    async with running_app(_reports_app) as app:
        app.script([tool_call("delete_report", {"id": 7})], ["Kept it."])
        paused = await app.client.chat("delete report 7", page="reports")
        await app.client.deny(paused)
        again = await app.client.approve(paused)

    assert again.status_code == 409
    assert again.frames == []
    assert again.decision is None
    assert DELETED == []
