"""The events of a run, from the model to the wire: one family of small typed records.

Every event is a frozen dataclass, built with keywords only, whose `kind` names it
(`Literal`, so a union of them is discriminated: a `match`, or a test of `kind`, narrows
it). The same object travels as far as it goes unchanged: the provider's `TextDelta` is
the loop's and, its text withheld, joined or split by the turn, the log's; the loop's
`Status`, `ToolStart` and `ToolUpdate` are what the run emits. Where an event is folded
into another (a tool's result into `ToolComplete` with its card's number, the loop's end
into `Complete` with the stored answer) the turn builds the next one; nothing renames.

`RunEvent` is what a run's log holds, its readers read and the stream adapters render
(pagechat's own SSE, AG-UI: `pagechat.streams`). Its fields are the wire's: each kind has
its pydantic model in `protocol.py` (the wire contract's schema, from which the web's
TypeScript types are generated), reached with `to_wire` and back with `from_wire`. The
events only the loop and the turn see live beside the loop (`agent/events.py`), the
provider's own beside the providers (`models/base.py`), built the same way.

A new kind of event is its class here (and its wire model), its producer, and a case in
each renderer: the adapters match the union exhaustively, so mypy names any they miss.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Literal

import orjson
from pydantic import BaseModel

from .protocol import (
    ApprovalPublic,
    ApprovalRequestedEvent,
    ApprovalResolvedEvent,
    ApprovalStatus,
    CancelledEvent,
    ChatResponsePayload,
    CompleteEvent,
    CustomPayload,
    EntityChange,
    ErrorEvent,
    ReasoningEvent,
    ReplyPartsEvent,
    Source,
    StatusEvent,
    StreamEvent,
    SuggestedAction,
    SuggestedValue,
    TextDeltaEvent,
    ToolCompleteEvent,
    ToolProgressEvent,
    ToolStartEvent,
    Usage,
    parse_event,
)

__all__ = [
    "TERMINAL_KINDS",
    "ApprovalRequested",
    "ApprovalResolved",
    "Cancelled",
    "Complete",
    "Error",
    "ReasoningDelta",
    "ReplyParts",
    "RunEvent",
    "RunEventKind",
    "Status",
    "TextDelta",
    "ToolComplete",
    "ToolStart",
    "ToolUpdate",
    "decode_event",
    "from_wire",
    "to_wire",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Status:
    """A status line to show while the model works (after a round of tool calls)."""

    kind: Literal["status"] = "status"
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TextDelta:
    """The next piece of the answer's text: from the provider, through the loop, to the log.

    The turn sends a text delta to the log as its `str` (`Run.emit_text`): one per token,
    so the log builds none, and a reader of typed events gets one made as it reads."""

    kind: Literal["text_delta"] = "text_delta"
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ReasoningDelta:
    """The next piece of the model's reasoning before (or between) its answer's text:
    Anthropic's extended thinking, or the `reasoning_content` of an OpenAI-compatible
    server. Shown apart from the answer, never sent to the model as text."""

    kind: Literal["reasoning"] = "reasoning"
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplyParts:
    """What the reply parser took out of the model's text since the last of these: a card,
    suggested values or actions (and warnings about dropped ones). Shown as they come;
    the log keeps them, so a takeover, a Stop or a replayed pause keeps them too."""

    kind: Literal["reply_parts"] = "reply_parts"
    payloads: list[CustomPayload] = field(default_factory=list)
    suggested_values: list[SuggestedValue] = field(default_factory=list)
    suggested_actions: list[SuggestedAction] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolStart:
    """The model called a tool, which starts now."""

    kind: Literal["tool_start"] = "tool_start"
    tool: str
    input: dict[str, Any]
    tool_use_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolUpdate:
    """A running tool's progress (what it yielded as `ToolProgress`); kind `tool_progress`."""

    kind: Literal["tool_progress"] = "tool_progress"
    tool: str
    stage: str = ""
    message: str = ""
    progress: float | None = None
    """0..1, or None when the tool cannot tell."""
    data: Any = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolComplete:
    """The tool call at `index` (its `[[tool:N]]`) finished; `output` is what the model read."""

    kind: Literal["tool_complete"] = "tool_complete"
    tool: str
    index: int
    is_error: bool = False
    output: str | None = None
    payload: CustomPayload | None = None
    """The call's card data, as stored with the answer."""
    approval: ApprovalPublic | None = None
    """The user's decision, for a call that needed approval."""
    usage: Usage | None = None
    """The answer's tokens so far (every model call up to this one): the run's log holds
    all a takeover needs to store the answer as its followers saw it (chat/resume.py)."""
    changes: list[EntityChange] | None = None
    """What the call changed in the app (pages showing it refetch or move on)."""
    sources: list[Source] | None = None
    """The call's sources, numbered in the answer (its citations link as it streams)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Complete:
    """The answer is done: the full response and its payloads, as stored."""

    kind: Literal["complete"] = "complete"
    payload: ChatResponsePayload


@dataclass(frozen=True, slots=True, kw_only=True)
class Error:
    """The run failed: the message to show, and its kind (`code`: rate_limit, interrupted, ...)."""

    kind: Literal["error"] = "error"
    message: str
    code: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Cancelled:
    """The run was stopped; the answer so far is kept."""

    kind: Literal["cancelled"] = "cancelled"


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalRequested:
    """The turn paused before a call the user must approve (or the client must run); the
    run ends. The decision route resumes the turn in a new run."""

    kind: Literal["approval_requested"] = "approval_requested"
    approval_id: str
    tool: str
    input: dict[str, Any]
    reason: str = ""
    tool_use_id: str
    expires_at: datetime | None = None
    conversation_id: str | None = None
    message_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalResolved:
    """First news of a resumed turn: what became of the call it waited for."""

    kind: Literal["approval_resolved"] = "approval_resolved"
    approval_id: str
    status: ApprovalStatus
    note: str | None = None


RunEvent = (
    Status
    | TextDelta
    | ReasoningDelta
    | ReplyParts
    | ToolStart
    | ToolUpdate
    | ToolComplete
    | Complete
    | Error
    | Cancelled
    | ApprovalRequested
    | ApprovalResolved
)
"""What a run emits and its log holds, discriminated by `kind`."""

RunEventKind = Literal[
    "status",
    "text_delta",
    "reasoning",
    "reply_parts",
    "tool_start",
    "tool_progress",
    "tool_complete",
    "complete",
    "error",
    "cancelled",
    "approval_requested",
    "approval_resolved",
]

TERMINAL_KINDS: frozenset[str] = frozenset({"complete", "error", "cancelled", "approval_requested"})
"""The kinds that end a run: its log closes after one."""

# Each kind's wire model (protocol.py), whose fields are the event's but `kind`.
_WIRE: dict[str, type[BaseModel]] = {
    "status": StatusEvent,
    "text_delta": TextDeltaEvent,
    "reasoning": ReasoningEvent,
    "reply_parts": ReplyPartsEvent,
    "tool_start": ToolStartEvent,
    "tool_progress": ToolProgressEvent,
    "tool_complete": ToolCompleteEvent,
    "complete": CompleteEvent,
    "error": ErrorEvent,
    "cancelled": CancelledEvent,
    "approval_requested": ApprovalRequestedEvent,
    "approval_resolved": ApprovalResolvedEvent,
}
_CLASSES: dict[str, type[RunEvent]] = {
    # A slotted class's `kind` is its slot: the kind is the field's default.
    next(f.default for f in fields(cls) if f.name == "kind"): cls  # type: ignore[misc]
    for cls in (
        Status,
        TextDelta,
        ReasoningDelta,
        ReplyParts,
        ToolStart,
        ToolUpdate,
        ToolComplete,
        Complete,
        Error,
        Cancelled,
        ApprovalRequested,
        ApprovalResolved,
    )
}
_FIELDS: dict[str, tuple[str, ...]] = {
    kind: tuple(f.name for f in fields(cls) if f.name != "kind") for kind, cls in _CLASSES.items()
}


def to_wire(event: RunEvent) -> StreamEvent:
    """The event as its wire model (validated, as the contract's schema says)."""
    model = _WIRE[event.kind]
    return model(**{name: getattr(event, name) for name in _FIELDS[event.kind]})  # type: ignore[return-value]


def from_wire(model: StreamEvent) -> RunEvent:
    """The event a wire model tells (one parsed from a log kept elsewhere)."""
    kind = model.type
    return _CLASSES[kind](**{name: getattr(model, name) for name in _FIELDS[kind]})


_loads = orjson.loads


def decode_event(data: str | bytes) -> RunEvent:
    """The event one SSE `data:` payload holds: a text delta read by orjson alone, any
    other kind through its wire model (dates and the response payload typed)."""
    if (
        data[:28] == '{"type":"text_delta","text":'
        if isinstance(data, str)
        else data[:28] == b'{"type":"text_delta","text":'
    ):
        return TextDelta(text=_loads(data)["text"])
    return from_wire(parse_event(data))
