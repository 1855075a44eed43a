"""A paused turn's saved state: the JSON stored in its `approvals` row, read back as it was
written (rows from before the card numbering was kept too), and the replay it gives."""

from __future__ import annotations

from typing import Any

from pagechat.agent import LoopState
from pagechat.chat.paused import PausedTurn, SavedTurn, ToolCard, replay_events
from pagechat.events import ApprovalResolved, ReplyParts, TextDelta, ToolComplete, ToolStart
from pagechat.models.base import AssistantTurn, TokenUsage, ToolCallPart, UserTurn
from pagechat.pages import ParsedReply
from pagechat.protocol import (
    ApprovalPublic,
    CustomPayload,
    EntityChange,
    Reasoning,
    SuggestedValue,
    ToolHistoryEntry,
    Usage,
)
from pagechat.store.approvals import ClaimedApproval

_CALL = ToolCallPart("call-2", "delete_report", {"id": 7})
_LOOP = LoopState(
    messages=(UserTurn("Delete report 7"), AssistantTurn("Looking.", ())),
    iteration=2,
    usage=TokenUsage(30, 12),
    text="Deleting.",
    calls=(_CALL,),
    results=(),
)
_SEARCH = ToolHistoryEntry(
    tool_name="search", input={"q": "7"}, output="1 report.", tool_use_id="call-1"
)
_CHOICE = ToolHistoryEntry(
    tool_name="present_choices", input={}, output="A or B?", tool_use_id="call-0", in_answer=True
)


def _saved(**changes: Any) -> SavedTurn:
    fields: dict[str, Any] = {
        "loop": _LOOP,
        "context": {"current_page": "reports"},
        "message": "Delete report 7",
        "content": "Looking.[[tool:0]]Deleting.",
        "tool_history": (_SEARCH,),
        "cards": (ToolCard(index=0, at=8),),
        "usage": TokenUsage(30, 12),
        "parsed": ParsedReply(
            message="",
            payloads=[CustomPayload(type="note", data={"keep": "a copy"})],
            suggested_values=[SuggestedValue(label="Undo", value="Undo")],
            suggested_actions=[],
            warnings=["one"],
        ),
    }
    return SavedTurn(**(fields | changes))


def _paused(saved: SavedTurn) -> PausedTurn:
    claimed = ClaimedApproval(
        approval=ApprovalPublic(
            id="a1", tool="delete_report", input={"id": 7}, reason="", status="approved"
        ),
        owner_id="u1",
        conversation_id="c1",
        message_id="m1",
        tool_use_id="call-2",
        state=saved.to_json(),
        run_id="r1",
    )
    return PausedTurn.of(claimed)


def test_a_saved_turn_reads_back_as_it_was_written() -> None:
    saved = _saved()

    assert SavedTurn.from_json(saved.to_json()) == saved


def test_the_stored_json_has_the_keys_rows_were_always_stored_with() -> None:
    state = _saved().to_json()

    assert state == {
        "loop": _LOOP.to_json(),
        "context": {"current_page": "reports"},
        "message": "Delete report 7",
        "content": "Looking.[[tool:0]]Deleting.",
        "tool_history": [_SEARCH.model_dump(mode="json")],
        "usage": [30, 12, 0, 0],
        "parsed": {
            "payloads": [{"type": "note", "data": {"keep": "a copy"}}],
            "values": [SuggestedValue(label="Undo", value="Undo").model_dump(mode="json")],
            "actions": [],
            "warnings": ["one"],
        },
        "cards": [{"index": 0, "at": 8}],
    }


def test_a_row_stored_before_the_cache_counts_reads_back_with_none_cached() -> None:
    state = _saved().to_json() | {"usage": [30, 12]}

    usage = SavedTurn.from_json(state).usage
    assert usage.as_list() == [30, 12, 0, 0]


def test_a_saved_turn_keeps_its_reasoning_and_older_rows_have_none() -> None:
    saved = _saved(reasoning=Reasoning(text="Report 7 is a duplicate.", seconds=2.5))
    state = saved.to_json()

    assert SavedTurn.from_json(state) == saved
    assert state["reasoning"] == {"text": "Report 7 is a duplicate.", "seconds": 2.5}
    assert "reasoning" not in _saved().to_json()
    assert SavedTurn.from_json(_saved().to_json()).reasoning is None


def test_a_saved_turn_without_a_parsed_reply_stores_none() -> None:
    state = _saved(parsed=None).to_json()

    assert "parsed" not in state
    assert SavedTurn.from_json(state).parsed is None


def test_a_row_stored_before_the_cards_were_kept_finds_them_in_its_text() -> None:
    old = _saved(
        content="Found.[[tool:0]]A or B?",
        tool_history=(_SEARCH, _CHOICE),
        parsed=None,
    ).to_json()
    del old["cards"]

    read = SavedTurn.from_json(old)

    assert read.cards == (ToolCard(index=0, at=6),)


def test_the_replay_places_each_card_where_its_number_says() -> None:
    saved = _saved(
        content="Found.[[tool:0]]A or B?",
        tool_history=(_SEARCH, _CHOICE),
        cards=(ToolCard(index=0, at=6),),
    )

    events = replay_events(_paused(saved))

    assert events == [
        TextDelta(text="Found."),
        ToolStart(tool="search", input={"q": "7"}, tool_use_id="call-1"),
        # The last card carries the tokens so far: a takeover of the resumed run counts them.
        ToolComplete(
            tool="search",
            index=0,
            is_error=False,
            output="1 report.",
            usage=Usage(input_tokens=30, output_tokens=12),
        ),
        TextDelta(text="[[tool:0]]"),
        TextDelta(text="A or B?"),
        # What the model wrote besides its text before the pause: a takeover of the resumed
        # run, and a client following it from the start, keep it.
        ReplyParts(
            payloads=[CustomPayload(type="note", data={"keep": "a copy"})],
            suggested_values=[SuggestedValue(label="Undo", value="Undo")],
            warnings=["one"],
        ),
        ApprovalResolved(approval_id="a1", status="approved", note=None),
    ]


def test_the_replay_follows_the_kept_numbering_not_the_text() -> None:
    # A marker the text merely quotes is not a card: only the kept position is.
    content = "Quoted [[tool:0]] here.[[tool:0]]"
    saved = _saved(content=content, cards=(ToolCard(index=0, at=23),))

    events = replay_events(_paused(saved))

    assert [e.text for e in events if isinstance(e, TextDelta)] == [
        "Quoted [[tool:0]] here.",
        "[[tool:0]]",
    ]


def test_a_claimed_decision_resumes_the_call_the_loop_waits_for() -> None:
    paused = _paused(_saved())

    assert paused.resume.state == _LOOP
    assert paused.resume.state.waiting == _CALL
    assert paused.resume.approved
    assert paused.resume.result is None  # an approval: the call runs on the server


def test_the_replay_tells_again_what_each_call_changed() -> None:
    # Regression (issue 35's leftover): a replayed pause's tool_complete lost its `changes`,
    # so a page following the resumed run from its start never refetched what changed.
    changed = (EntityChange(entity="report", id="7", change="deleted"),)
    saved = SavedTurn.from_json(_saved(cards=(ToolCard(index=0, at=8, changes=changed),)).to_json())

    (complete,) = [e for e in replay_events(_paused(saved)) if isinstance(e, ToolComplete)]

    assert saved.cards == (ToolCard(index=0, at=8, changes=changed),)
    assert complete.changes == list(changed)
