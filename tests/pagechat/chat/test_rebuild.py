"""Rebuilding an answer from its run's log, as its followers saw it."""

from __future__ import annotations

import orjson

from pagechat.chat.rebuild import rebuild
from pagechat.pages import ParsedReply
from pagechat.protocol import (
    CustomPayload,
    EntityChange,
    Reasoning,
    SuggestedValue,
    ToolHistoryEntry,
)


def _entries(*events: dict[str, object]) -> list[tuple[int, str, bytes]]:
    return [(i + 1, str(e["type"]), orjson.dumps(e)) for i, e in enumerate(events)]


def test_the_text_and_completed_calls_are_folded_from_the_log() -> None:
    rebuilt = rebuild(
        _entries(
            {"type": "status", "message": "Thinking..."},
            {"type": "text_delta", "text": "w0 w1 "},
            {"type": "tool_start", "tool": "lookup", "input": {"topic": "x"}, "tool_use_id": "t1"},
            {
                "type": "tool_complete",
                "tool": "lookup",
                "index": 0,
                "is_error": False,
                "output": "facts",
            },
            {"type": "text_delta", "text": "[[tool:0]]"},
            {"type": "text_delta", "text": "w2 "},
        )
    )
    assert rebuilt.content == "w0 w1 [[tool:0]]w2 "
    assert rebuilt.tool_history == [
        ToolHistoryEntry(tool_name="lookup", input={"topic": "x"}, output="facts", tool_use_id="t1")
    ]
    assert rebuilt.running == []


def test_a_call_started_and_not_completed_is_running() -> None:
    rebuilt = rebuild(
        _entries(
            {"type": "text_delta", "text": "w0 "},
            {
                "type": "tool_start",
                "tool": "write_note",
                "input": {"title": "x"},
                "tool_use_id": "t9",
            },
        )
    )
    assert [(s.tool, s.tool_use_id) for s in rebuilt.running] == [("write_note", "t9")]
    assert rebuilt.tool_history == []


def test_a_continued_answer_goes_on_from_its_stored_part() -> None:
    before = ToolHistoryEntry(tool_name="lookup", input={}, output="old", tool_use_id="t0")
    rebuilt = rebuild(
        _entries({"type": "text_delta", "text": "more"}),
        content="[[tool:0]]so far ",
        tool_history=[before],
    )
    assert rebuilt.content == "[[tool:0]]so far more"
    assert rebuilt.tool_history == [before]


def test_the_reasoning_shown_is_folded_from_the_log_without_a_duration() -> None:
    rebuilt = rebuild(
        _entries(
            {"type": "reasoning", "text": "Search "},
            {"type": "reasoning", "text": "first."},
            {"type": "text_delta", "text": "w0 "},
        )
    )
    assert rebuilt.reasoning == Reasoning(text="Search first.", seconds=0)
    assert rebuild(_entries({"type": "text_delta", "text": "w0 "})).reasoning is None


def test_the_cards_and_chips_the_model_wrote_are_folded_after_the_stored_ones() -> None:
    # Regression: they were not in the log, so a takeover's answer lost them.
    stored = ParsedReply(message="", payloads=[CustomPayload(type="note", data={"n": 0})])
    rebuilt = rebuild(
        _entries(
            {"type": "text_delta", "text": "w0 "},
            {"type": "reply_parts", "payloads": [{"type": "note", "data": {"n": 1}}]},
            {"type": "reply_parts", "suggested_values": [{"label": "a", "value": "a"}]},
            {"type": "reply_parts", "warnings": ["dropped one"]},
        ),
        parsed=stored,
    )
    assert rebuilt.parsed == ParsedReply(
        message="",
        payloads=[
            CustomPayload(type="note", data={"n": 0}),
            CustomPayload(type="note", data={"n": 1}),
        ],
        suggested_values=[SuggestedValue(label="a", value="a")],
        suggested_actions=None,
        warnings=["dropped one"],
    )
    assert rebuild(_entries({"type": "text_delta", "text": "w0 "})).parsed is None


def test_what_each_completed_call_changed_is_folded_by_its_index() -> None:
    change = {"entity": "report", "id": "7", "change": "updated"}
    rebuilt = rebuild(
        _entries(
            {"type": "tool_start", "tool": "a", "input": {}, "tool_use_id": "t1"},
            {"type": "tool_complete", "tool": "a", "index": 0, "output": "ok"},
            {"type": "tool_start", "tool": "b", "input": {}, "tool_use_id": "t2"},
            {"type": "tool_complete", "tool": "b", "index": 1, "output": "ok", "changes": [change]},
        )
    )
    assert rebuilt.changes == {1: (EntityChange.model_validate(change),)}
