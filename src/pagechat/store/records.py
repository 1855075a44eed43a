"""The records the store takes and gives, and the errors it raises.

A turn is stored in two steps: `ChatStore.begin_turn` writes the user message and a
placeholder assistant message (status `running`) before the run stores anything else,
so a crash mid-run leaves a visible, interrupted answer rather than nothing;
`finish_turn` fills the placeholder from the run's folded events (`AssistantRecord`).

`start_turn` is `begin_turn` with the ids made up front (`new_turn_ids`): the chat
service starts the run (and the model request) at once, while the write goes on
(`StartedTurn`).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..protocol import (
    CustomPayload,
    MessageStatus,
    Reasoning,
    Source,
    SuggestedAction,
    SuggestedValue,
    ToolHistoryEntry,
    Usage,
)

__all__ = [
    "AnswerRunning",
    "AssistantRecord",
    "BranchKind",
    "ConversationNotFound",
    "InvalidCursor",
    "MessageNotFound",
    "NoPayload",
    "NotAnAnswer",
    "NotBranchable",
    "RunFence",
    "StartedTurn",
    "TurnIds",
    "action_summary",
    "cursor_value",
    "new_turn_ids",
]


def action_summary(action: str, result: Any) -> tuple[str, Literal["complete", "error"]]:
    """How a server action's result is stored: its text and status.

    A failed action is stored as failed, with the reason the action gave the user, so
    the conversation (and the model, on the next turn) tells the truth about it.
    """
    ok = not (isinstance(result, Mapping) and result.get("ok") is False)
    message = result.get("message") if isinstance(result, Mapping) else None
    reason = f": {message}" if isinstance(message, str) and message else ""
    if ok:
        return f"Applied action {action}{reason}", "complete"
    return f"Action {action} failed{reason or ' (no reason given)'}", "error"


class InvalidCursor(ValueError):
    """A page cursor that no page of this store gave out."""


_LARGEST_CURSOR = 2**63 - 1
"""A cursor is bound as a 64-bit integer: anything larger is none a page gave."""


def cursor_value(before: str) -> int:
    """The number a page cursor stands for (a message's `seq`); InvalidCursor for
    anything else. ASCII digits only: `str.isdigit` also takes `'²'`, which `int` refuses."""
    if not (before.isascii() and before.isdigit()) or int(before) > _LARGEST_CURSOR:
        raise InvalidCursor(before)
    return int(before)


class ConversationNotFound(LookupError):
    """No such conversation for this user (another user's is reported the same way)."""


class MessageNotFound(LookupError):
    """No such message in this (the user's own) conversation."""


class AnswerRunning(RuntimeError):
    """An answer is still running in the conversation: a new branch must wait for it."""


class NotBranchable(ValueError):
    """The message cannot be regenerated, edited or continued (the reason is the text)."""


BranchKind = Literal["regenerate", "edit", "continue"]
"""`regenerate`: a new answer beside an assistant message; `edit`: a new user message
beside a user message, with its answer; `continue`: the same (stopped or cut-off)
answer, running again to append to it."""


class NotAnAnswer(ValueError):
    """Feedback is given on finished answers only."""


class NoPayload(ValueError):
    """The message is not an answer with a payload, so there is nothing to decide on."""


@dataclass(frozen=True, slots=True)
class TurnIds:
    """The ids of a turn: its conversation, the user message and the answer."""

    conversation_id: str
    user_message_id: str
    assistant_message_id: str


@dataclass(frozen=True, slots=True)
class StartedTurn:
    """A turn whose first write (`begin_turn`) is under way."""

    ids: TurnIds
    written: asyncio.Future[TurnIds]
    """Done once the user message and the placeholder are stored; its exception
    (ConversationNotFound, a database error) when nothing was."""


def new_turn_ids(conversation_id: str | None) -> TurnIds:
    """A turn's ids, made before it is stored; a new conversation's too."""
    return TurnIds(conversation_id or uuid.uuid4().hex, uuid.uuid4().hex, uuid.uuid4().hex)


@dataclass(frozen=True, slots=True)
class RunFence:
    """Who writes an answer: its run, and how many times that run had been taken over when
    this worker began driving it (`Run.epoch`).

    The database takes a write only from the run the answer belongs to now, and from no
    worker older than the last one that wrote it: a slow old owner that wakes up after
    another worker took its run over cannot overwrite that worker's answer (store/turn_rows.py).
    """

    run_id: str
    epoch: int = 0


@dataclass(slots=True)
class AssistantRecord:
    """An assistant message as folded from its run's events."""

    content: str
    status: MessageStatus
    tool_history: list[ToolHistoryEntry] = field(default_factory=list)
    payloads: list[CustomPayload] = field(default_factory=list)
    custom_payload: CustomPayload | None = None
    suggested_values: list[SuggestedValue] | None = None
    suggested_actions: list[SuggestedAction] | None = None
    usage: Usage | None = None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    context_audit: str | None = None
    stop_reason: str | None = None
    model: str | None = None
    writer: RunFence | None = None
    """The run writing it (checkpoint or end), fenced by its epoch; None: any writer."""
    reasoning: Reasoning | None = None
    """The model's reasoning before the answer (stored in the row's payload)."""
    sources: list[Source] = field(default_factory=list)
    """The answer's sources, numbered (stored in the row's payload)."""
