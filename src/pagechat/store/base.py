"""What the chat layer needs from storage, independent of the database.

A turn is stored in two steps: `begin_turn` writes the user message and a
placeholder assistant message (status `running`) before the run stores anything
else, so a crash mid-run leaves a visible, interrupted answer rather than nothing;
`finish_turn` fills the placeholder from the run's folded events.

`start_turn` is `begin_turn` with the ids made up front: the chat service starts
the run (and the model request) at once, while the write goes on; the store
keeps a turn's later writes, and its user's reads, behind it.
"""

from __future__ import annotations

import abc
import asyncio
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..identity import Principal
from ..protocol import (
    ConversationDetail,
    ConversationList,
    ConversationPublic,
    ConversationSearchHit,
    CustomPayload,
    FeedbackRating,
    MessagePublic,
    MessageStatus,
    PayloadDecision,
    SuggestedAction,
    SuggestedValue,
    ToolHistoryEntry,
    Usage,
)

__all__ = [
    "AnswerRunning",
    "AssistantRecord",
    "BranchKind",
    "ChatStore",
    "ConversationNotFound",
    "InvalidCursor",
    "MessageNotFound",
    "NoPayload",
    "NotAnAnswer",
    "NotBranchable",
    "StartedTurn",
    "TurnIds",
    "action_summary",
    "cursor_value",
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
    """The number a page cursor stands for (both stores' cursors are one); InvalidCursor
    for anything else. ASCII digits only: `str.isdigit` also takes `'²'`, which `int` refuses."""
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


class ChatStore(abc.ABC):
    async def aclose(self) -> None:  # noqa: B027 - optional: most stores hold nothing
        """At shutdown, after the runs have stopped: finish the writes still queued."""

    @abc.abstractmethod
    async def begin_turn(
        self,
        *,
        user: Principal,
        conversation_id: str | None,
        message: str,
        run_id: str | None = None,
        ids: TurnIds | None = None,
    ) -> TurnIds:
        """Store the user message (creating the conversation when `conversation_id` is None).

        `ids`: made up front (`new_turn_ids`); by default the store makes them."""

    def start_turn(
        self, *, user: Principal, conversation_id: str | None, message: str, run_id: str
    ) -> StartedTurn:
        """`begin_turn` without waiting for it: the ids now, the write under way.

        A turn's checkpoints and end, and its user's reads through the store, wait for
        the write; a write that fails stores nothing (`StartedTurn.written` says why).
        """
        ids = new_turn_ids(conversation_id)
        written = asyncio.ensure_future(
            self.begin_turn(
                user=user,
                conversation_id=conversation_id,
                message=message,
                run_id=run_id,
                ids=ids,
            )
        )
        return StartedTurn(ids, written)

    @abc.abstractmethod
    async def history(
        self,
        *,
        user: Principal,
        conversation_id: str,
        limit: int = 200,
        leaf_id: str | None = None,
    ) -> list[MessagePublic]:
        """The newest `limit` finished messages of the path from the root to `leaf_id`
        (default: the active leaf), oldest first (a running placeholder excluded)."""

    @abc.abstractmethod
    async def begin_branch(
        self,
        *,
        user: Principal,
        conversation_id: str,
        message_id: str,
        kind: BranchKind,
        run_id: str,
        message: str | None = None,
    ) -> TurnIds:
        """Start a branch at `message_id` (see `BranchKind`) and make it the active one.

        `TurnIds.user_message_id` is the question being answered; the answer's placeholder
        (for `continue`, the answer itself, `running` again) is `assistant_message_id`.
        Raises ConversationNotFound, MessageNotFound, AnswerRunning, NotBranchable.
        """

    @abc.abstractmethod
    async def select_branch(
        self, *, user: Principal, conversation_id: str, message_id: str, position: int
    ) -> None:
        """Show the sibling of `message_id` at `position`: the active leaf becomes the newest
        message down that branch. Raises ConversationNotFound, MessageNotFound."""

    @abc.abstractmethod
    async def finish_turn(self, *, assistant_message_id: str, record: AssistantRecord) -> None:
        """Fill the placeholder assistant message."""

    @abc.abstractmethod
    async def checkpoint_turns(self, records: Mapping[str, AssistantRecord]) -> None:
        """Save running answers' progress (by assistant message id), so a crash keeps it.

        An answer that is no longer running is left as it is.
        """

    @abc.abstractmethod
    async def record_action(
        self,
        *,
        user: Principal,
        conversation_id: str,
        action: str,
        data: dict[str, Any],
        result: Any,
    ) -> str:
        """Record an applied server action in the conversation, so the model sees it next turn."""

    @abc.abstractmethod
    async def ensure_conversation(
        self, *, user: Principal, conversation_id: str, title: str
    ) -> bool:
        """Create the user's conversation with this id unless it exists; True if created.

        For clients that name their threads (AG-UI). Raises ConversationNotFound when the
        id is another user's.
        """

    # --- conversations, as the history routes show them ----------------------

    @abc.abstractmethod
    async def list_conversations(
        self, *, user: Principal, offset: int = 0, limit: int = 20
    ) -> ConversationList:
        """The user's conversations, most recently active first."""

    @abc.abstractmethod
    async def search_conversations(
        self, *, user: Principal, terms: list[str], limit: int = 20
    ) -> list[ConversationSearchHit]:
        """The user's conversations whose title, or one of whose finished messages, holds
        every term at the start of a word; most recently active first (`store.search`)."""

    @abc.abstractmethod
    async def get_conversation(
        self,
        *,
        user: Principal,
        conversation_id: str,
        limit: int | None = None,
        before: str | None = None,
    ) -> ConversationDetail:
        """Messages oldest first, with every stored field (admin-only ones included).

        With `limit`, only the newest `limit` of them (before the cursor `before`, an
        earlier page's `older`); `older` is then the cursor of the page before. Raises
        ConversationNotFound, and InvalidCursor for a cursor no page gave.
        """

    @abc.abstractmethod
    async def rename_conversation(
        self, *, user: Principal, conversation_id: str, title: str
    ) -> ConversationPublic: ...

    @abc.abstractmethod
    async def delete_conversation(self, *, user: Principal, conversation_id: str) -> None:
        """Remove the conversation and its messages."""

    @abc.abstractmethod
    async def decide_payload(
        self,
        *,
        user: Principal,
        conversation_id: str,
        message_id: str,
        decision: PayloadDecision,
    ) -> MessagePublic:
        """Record what the user did with an answer's payload; the message as it now is.

        `dismissed` never replaces `accepted` or `rejected`: closing a card reopened with
        View does not undo the decision made in it. Raises ConversationNotFound,
        MessageNotFound, or NoPayload for a message that is not an answer with a payload.
        """

    @abc.abstractmethod
    async def set_feedback(
        self,
        *,
        user: Principal,
        conversation_id: str,
        message_id: str,
        rating: FeedbackRating,
        comment: str | None,
    ) -> MessagePublic:
        """The user's thumbs on an answer (replacing their earlier ones); the message with it.

        Raises ConversationNotFound, MessageNotFound, NotAnAnswer.
        """
