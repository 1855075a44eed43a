"""`present_choices` through the chat route: the choices are the answer's end — no tool card,
no second model call — and the stored answer, a reload and the next turn's history agree."""

from __future__ import annotations

from pagechat.models import AssistantTurn, ToolResultsTurn
from pagechat.pages import find_choice_blocks
from pagechat.protocol import MessagePublic
from pagechat.testing import running_app, tool_call

OPTIONS = [{"label": "RSS feed", "value": "rss"}, {"label": "Agentic", "value": "agentic"}]
CHOOSE = {"question": "How should I add it?", "options": OPTIONS, "context": "Two ways."}


async def test_choices_are_shown_without_a_tool_card_or_another_model_call() -> None:
    async with running_app() as app:
        model = app.script(["Let me ask. ", tool_call("present_choices", CHOOSE)], ["never said"])
        turn = await app.client.chat("add a source")
        stored = await app.http.get(
            f"/api/conversations/{turn.conversation_id}", headers=app.account.headers
        )
    assert len(model.requests) == 1
    kinds = [f.type for f in turn.frames]
    assert "tool_start" not in kinds and "tool_complete" not in kinds
    payload = turn.payload
    assert payload.message == turn.text
    assert "[[tool:" not in payload.message
    assert payload.message.startswith("Let me ask. \n\nTwo ways.\n\n```choices\n")
    [block] = find_choice_blocks(payload.message)
    assert block.valid and [o.value for o in block.options] == ["rss", "agentic"]
    [entry] = payload.tool_history
    assert (entry.tool_name, entry.in_answer, entry.is_error) == ("present_choices", True, False)
    assert payload.custom_payload is None and payload.stop_reason == "end_turn"
    answer = MessagePublic.model_validate(stored.json()["messages"][-1])
    assert (answer.content, answer.tool_history) == (payload.message, payload.tool_history)


async def test_the_pick_is_the_next_message_and_the_history_holds_the_call() -> None:
    async with running_app() as app:
        model = app.script([tool_call("present_choices", CHOOSE)], ["RSS it is."])
        first = await app.client.chat("add a source")
        await app.client.chat("rss", conversation_id=first.conversation_id)
    earlier = model.requests[1].messages
    call_turn, results, shown, pick = earlier[-4:]
    assert isinstance(call_turn, AssistantTurn) and isinstance(results, ToolResultsTurn)
    assert [c.name for c in call_turn.tool_calls] == ["present_choices"]
    assert results.results[0].tool_use_id == call_turn.tool_calls[0].id
    assert isinstance(shown, AssistantTurn) and "```choices" in shown.text
    assert getattr(pick, "text", None) == "rss"


async def test_invalid_choices_are_a_failed_tool_call_the_model_reads() -> None:
    async with running_app() as app:
        model = app.script(
            [tool_call("present_choices", {"question": "Which?", "options": ["a"]})],
            ["Let me ask plainly: a or b?"],
        )
        turn = await app.client.chat("pick")
    assert len(model.requests) == 2
    [entry] = turn.payload.tool_history
    assert entry.is_error and not entry.in_answer
    assert turn.payload.message == "[[tool:0]]Let me ask plainly: a or b?"
