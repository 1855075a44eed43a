"""One event of each kind a run emits, with every field set: what the vocabulary's and the
adapters' tests go through. A new kind of event needs its sample here (the tests say so)."""

from __future__ import annotations

from datetime import UTC, datetime

from pagechat.events import (
    ApprovalRequested,
    ApprovalResolved,
    Cancelled,
    Complete,
    Error,
    ReasoningDelta,
    ReplyParts,
    RunEvent,
    Status,
    TextDelta,
    ToolComplete,
    ToolStart,
    ToolUpdate,
)
from pagechat.protocol import (
    ChatResponsePayload,
    CustomPayload,
    Source,
    SuggestedAction,
    SuggestedValue,
    ToolHistoryEntry,
    Usage,
)

__all__ = ["one_of_each_kind"]


def one_of_each_kind() -> list[RunEvent]:
    """A run's events in the order a run could emit them, one of each kind."""
    sources = [
        Source(id="11", title="é", url="https://example.org/11", detail="Nature", number=1),
        Source(id="SYN2", title="A sample", snippet="It shows é.", number=2),
    ]
    payload = ChatResponsePayload(
        message="Found it [[tool:0]]\n```choices\nWhich one?\n- First\n- Second\n```\n",
        suggested_values=[SuggestedValue(label="More", value="Tell me more")],
        suggested_actions=[
            SuggestedAction(label="Save", action="save", handler="server", data={"id": 1})
        ],
        custom_payload=CustomPayload(type="note", data={"title": "é"}),
        payloads=[CustomPayload(type="note", data={"title": "é", "score": 1.5, "none": None})],
        tool_history=[ToolHistoryEntry(tool_name="search", input={"q": "x"}, output="3 hits")],
        conversation_id="c1",
        message_id="m1",
        usage=Usage(input_tokens=12, output_tokens=3),
        warnings=["careful"],
        stop_reason="end_turn",
        sources=sources,
    )
    return [
        Status(message="Thinking..."),
        TextDelta(text="Found it é\n"),
        ReasoningDelta(text="The user wants é\n"),
        ReplyParts(
            payloads=[CustomPayload(type="proposal", data={"name": "x"})],
            suggested_values=[SuggestedValue(label="Yes", value="yes")],
            suggested_actions=[SuggestedAction(label="Open", action="open", handler="client")],
            warnings=["a chip was dropped"],
        ),
        ToolStart(tool="search", input={"q": "x", "n": [1, 2.5]}, tool_use_id="toolu_1"),
        ToolUpdate(tool="search", stage="fetch", message="Fetching", progress=0.5, data={"k": 1}),
        ToolComplete(tool="search", index=0, is_error=False, output="3 hits", sources=sources),
        ApprovalResolved(approval_id="ap0", status="denied", note="not now"),
        Complete(payload=payload),
        Error(message="The model is overloaded.", code="overloaded"),
        Cancelled(),
        ApprovalRequested(
            approval_id="ap1",
            tool="delete_report",
            input={"id": 7},
            reason="Deletes the report",
            tool_use_id="toolu_2",
            expires_at=datetime(2026, 11, 28, 8, 0, 0, 123456, tzinfo=UTC),
            conversation_id="c1",
            message_id="m1",
        ),
    ]
