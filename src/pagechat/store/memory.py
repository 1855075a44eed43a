"""A `ChatStore` in process memory: for tests and for apps that need no persistence."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..identity import Principal
from ..protocol import (
    ConversationDetail,
    ConversationList,
    ConversationPublic,
    ConversationSearchHit,
    CustomPayload,
    FeedbackPublic,
    FeedbackRating,
    MessagePublic,
    PayloadDecision,
)
from .base import (
    AnswerRunning,
    AssistantRecord,
    BranchKind,
    ChatStore,
    ConversationNotFound,
    InvalidCursor,
    MessageNotFound,
    NoPayload,
    NotAnAnswer,
    StartedTurn,
    TurnIds,
    action_summary,
    cursor_value,
    new_turn_ids,
)
from .conversations import check_branch
from .search import matches, snippet_of
from .titles import make_title
from .tree import Node, active_path, newest_leaf, sibling_at, siblings

__all__ = ["MemoryChatStore"]


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Conversation:
    id: str
    owner_id: str
    title: str
    messages: list[MessagePublic] = field(default_factory=list)
    pending: set[str] = field(default_factory=set)
    active_leaf_id: str | None = None
    feedback: dict[str, FeedbackPublic] = field(default_factory=dict)
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)

    def public(self) -> ConversationPublic:
        return ConversationPublic(
            id=self.id, title=self.title, created_at=self.created_at, updated_at=self.updated_at
        )

    def nodes(self) -> list[Node]:
        return [Node(m.id, m.parent_id) for m in self.messages]

    def path(self, leaf_id: str | None = None) -> list[MessagePublic]:
        """The messages from the root to `leaf_id` (default: the active leaf)."""
        by_id = {m.id: m for m in self.messages}
        return [by_id[mid] for mid in active_path(self.nodes(), leaf_id or self.active_leaf_id)]

    def find(self, message_id: str) -> int:
        for i, msg in enumerate(self.messages):
            if msg.id == message_id:
                return i
        raise MessageNotFound(message_id)


class MemoryChatStore(ChatStore):
    def __init__(self) -> None:
        self.conversations: dict[str, _Conversation] = {}

    def _owned(self, user: Principal, conversation_id: str) -> _Conversation:
        conv = self.conversations.get(conversation_id)
        if conv is None or conv.owner_id != user.id:
            raise ConversationNotFound(conversation_id)
        return conv

    async def ensure_conversation(
        self, *, user: Principal, conversation_id: str, title: str
    ) -> bool:
        existing = self.conversations.get(conversation_id)
        if existing is not None:
            if existing.owner_id != user.id:
                raise ConversationNotFound(conversation_id)
            return False
        self.conversations[conversation_id] = _Conversation(
            conversation_id, user.id, make_title(title)
        )
        return True

    async def begin_turn(
        self,
        *,
        user: Principal,
        conversation_id: str | None,
        message: str,
        run_id: str | None = None,
        ids: TurnIds | None = None,
    ) -> TurnIds:
        return self._begin(user, conversation_id, message, run_id, ids)

    def start_turn(
        self, *, user: Principal, conversation_id: str | None, message: str, run_id: str
    ) -> StartedTurn:
        # Written at once: nothing to wait for in memory.
        written: asyncio.Future[TurnIds] = asyncio.get_running_loop().create_future()
        try:
            written.set_result(self._begin(user, conversation_id, message, run_id, None))
        except ConversationNotFound as exc:
            written.set_exception(exc)
            written.exception()  # the run reports it; not "never retrieved"
            return StartedTurn(new_turn_ids(conversation_id), written)
        return StartedTurn(written.result(), written)

    def _begin(
        self,
        user: Principal,
        conversation_id: str | None,
        message: str,
        run_id: str | None,
        ids: TurnIds | None,
    ) -> TurnIds:
        if conversation_id is None:
            cid = ids.conversation_id if ids is not None else uuid.uuid4().hex
            conv = _Conversation(cid, user.id, make_title(message))
            self.conversations[conv.id] = conv
        else:
            conv = self._owned(user, conversation_id)
        user_msg = MessagePublic(
            id=ids.user_message_id if ids is not None else uuid.uuid4().hex,
            role="user",
            content=message,
            created_at=_now(),
            parent_id=conv.active_leaf_id,
        )
        conv.messages.append(user_msg)
        placeholder = self._placeholder(
            conv, user_msg.id, run_id, ids.assistant_message_id if ids is not None else None
        )
        return TurnIds(conv.id, user_msg.id, placeholder.id)

    @staticmethod
    def _placeholder(
        conv: _Conversation, parent_id: str, run_id: str | None, message_id: str | None = None
    ) -> MessagePublic:
        placeholder = MessagePublic(
            id=message_id or uuid.uuid4().hex,
            role="assistant",
            content="",
            status="running",
            created_at=_now(),
            run_id=run_id,
            parent_id=parent_id,
        )
        conv.messages.append(placeholder)
        conv.pending.add(placeholder.id)
        conv.active_leaf_id = placeholder.id
        conv.updated_at = placeholder.created_at
        return placeholder

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
        conv = self._owned(user, conversation_id)
        index = conv.find(message_id)
        target = conv.messages[index]
        if conv.pending:
            raise AnswerRunning(conversation_id)
        check_branch(
            kind=kind,
            role=target.role,
            status=target.status,
            stop_reason=target.stop_reason,
            is_leaf=conv.active_leaf_id == target.id,
        )
        if kind == "continue":
            conv.messages[index] = target.model_copy(
                update={"status": "running", "run_id": run_id, "error": None, "stop_reason": None}
            )
            conv.pending.add(target.id)
            conv.updated_at = _now()
            return TurnIds(conv.id, target.parent_id or "", target.id)
        if kind == "regenerate":
            question_id = target.parent_id or ""
        else:
            question = MessagePublic(
                id=uuid.uuid4().hex,
                role="user",
                content=message or "",
                created_at=_now(),
                parent_id=target.parent_id,
            )
            conv.messages.append(question)
            question_id = question.id
        placeholder = self._placeholder(conv, question_id, run_id)
        return TurnIds(conv.id, question_id, placeholder.id)

    async def select_branch(
        self, *, user: Principal, conversation_id: str, message_id: str, position: int
    ) -> None:
        conv = self._owned(user, conversation_id)
        nodes = conv.nodes()
        chosen = sibling_at(nodes, message_id, position)
        if chosen is None:
            raise MessageNotFound(message_id)
        conv.active_leaf_id = newest_leaf(nodes, chosen)

    async def set_feedback(
        self,
        *,
        user: Principal,
        conversation_id: str,
        message_id: str,
        rating: FeedbackRating,
        comment: str | None,
    ) -> MessagePublic:
        conv = self._owned(user, conversation_id)
        msg = conv.messages[conv.find(message_id)]
        if msg.role != "assistant" or msg.id in conv.pending:
            raise NotAnAnswer(message_id)
        feedback = FeedbackPublic(rating=rating, comment=comment, updated_at=_now())
        conv.feedback[message_id] = feedback
        return msg.model_copy(update={"feedback": feedback})

    async def history(
        self,
        *,
        user: Principal,
        conversation_id: str,
        limit: int = 200,
        leaf_id: str | None = None,
    ) -> list[MessagePublic]:
        conv = self._owned(user, conversation_id)
        done = [m for m in conv.path(leaf_id) if m.id not in conv.pending]
        return done[-limit:]

    async def finish_turn(self, *, assistant_message_id: str, record: AssistantRecord) -> None:
        for conv in self.conversations.values():
            for i, msg in enumerate(conv.messages):
                if msg.id == assistant_message_id:
                    conv.messages[i] = MessagePublic(
                        id=msg.id,
                        role="assistant",
                        created_at=msg.created_at,
                        content=record.content,
                        status=record.status,
                        suggested_values=record.suggested_values,
                        suggested_actions=record.suggested_actions,
                        custom_payload=record.custom_payload,
                        payloads=record.payloads,
                        tool_history=record.tool_history,
                        usage=record.usage,
                        error=record.error,
                        warnings=record.warnings,
                        context_audit=record.context_audit,
                        stop_reason=record.stop_reason,
                        parent_id=msg.parent_id,
                        model=record.model,
                    )
                    conv.pending.discard(msg.id)
                    conv.updated_at = _now()
                    return

    async def checkpoint_turns(self, records: Mapping[str, AssistantRecord]) -> None:
        for conv in self.conversations.values():
            for i, msg in enumerate(conv.messages):
                record = records.get(msg.id)
                if record is not None and msg.id in conv.pending:
                    conv.messages[i] = msg.model_copy(
                        update={
                            "content": record.content,
                            "tool_history": record.tool_history,
                            "payloads": record.payloads,
                            "usage": record.usage,
                        }
                    )

    async def record_action(
        self,
        *,
        user: Principal,
        conversation_id: str,
        action: str,
        data: dict[str, Any],
        result: Any,
    ) -> str:
        conv = self._owned(user, conversation_id)
        content, status = action_summary(action, result)
        msg = MessagePublic(
            parent_id=conv.active_leaf_id,
            id=uuid.uuid4().hex,
            role="action",
            content=content,
            status=status,
            created_at=_now(),
            custom_payload=CustomPayload(
                type="action_result", data={"action": action, "input": data, "result": result}
            ),
        )
        conv.messages.append(msg)
        conv.active_leaf_id = msg.id
        conv.updated_at = msg.created_at
        return msg.id

    async def list_conversations(
        self, *, user: Principal, offset: int = 0, limit: int = 20
    ) -> ConversationList:
        mine = [c for c in self.conversations.values() if c.owner_id == user.id]
        mine.sort(key=lambda c: (c.updated_at, c.id), reverse=True)
        items = [c.public() for c in mine[offset : offset + limit]]
        return ConversationList(items=items, total=len(mine), offset=offset, limit=limit)

    async def search_conversations(
        self, *, user: Principal, terms: list[str], limit: int = 20
    ) -> list[ConversationSearchHit]:
        mine = [c for c in self.conversations.values() if c.owner_id == user.id]
        mine.sort(key=lambda c: (c.updated_at, c.id), reverse=True)
        hits: list[ConversationSearchHit] = []
        for conv in mine:
            found = [
                m for m in conv.messages if m.status != "running" and matches(m.content, terms)
            ]
            if found:
                text = snippet_of(found[-1].content, terms)
                hits.append(
                    ConversationSearchHit(
                        conversation=conv.public(), snippet=text, message_id=found[-1].id
                    )
                )
            elif matches(conv.title, terms):
                hits.append(ConversationSearchHit(conversation=conv.public(), snippet=conv.title))
            if len(hits) == limit:
                break
        return hits

    async def get_conversation(
        self,
        *,
        user: Principal,
        conversation_id: str,
        limit: int | None = None,
        before: str | None = None,
    ) -> ConversationDetail:
        conv = self._owned(user, conversation_id)
        path = conv.path()
        # The cursor is a position in the active path.
        end = len(path)
        if before is not None:
            end = cursor_value(before)
            if end > len(path):
                raise InvalidCursor(before)
        start = 0 if limit is None else max(0, end - limit)
        places = siblings(conv.nodes())
        messages = [
            m.model_copy(
                update={
                    "sibling_count": places[m.id].count,
                    "sibling_position": places[m.id].position,
                    "feedback": conv.feedback.get(m.id),
                }
            )
            for m in path[start:end]
        ]
        return ConversationDetail(
            **conv.public().model_dump(),
            messages=messages,
            older=str(start) if limit is not None and start > 0 else None,
            active_leaf_id=conv.active_leaf_id,
        )

    async def rename_conversation(
        self, *, user: Principal, conversation_id: str, title: str
    ) -> ConversationPublic:
        conv = self._owned(user, conversation_id)
        conv.title = title
        return conv.public()

    async def delete_conversation(self, *, user: Principal, conversation_id: str) -> None:
        self._owned(user, conversation_id)
        del self.conversations[conversation_id]

    async def decide_payload(
        self,
        *,
        user: Principal,
        conversation_id: str,
        message_id: str,
        decision: PayloadDecision,
    ) -> MessagePublic:
        conv = self._owned(user, conversation_id)
        for i, msg in enumerate(conv.messages):
            if msg.id != message_id:
                continue
            if msg.role != "assistant" or msg.custom_payload is None:
                raise NoPayload(message_id)
            if decision != "dismissed" or msg.payload_decision in (None, "dismissed"):
                msg = conv.messages[i] = msg.model_copy(update={"payload_decision": decision})
            return msg
        raise MessageNotFound(message_id)
