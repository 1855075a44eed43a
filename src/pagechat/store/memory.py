"""A `ChatStore` in process memory: for tests and for apps that need no persistence."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..identity import Principal
from ..protocol import MessagePublic
from .base import AssistantRecord, ChatStore, ConversationNotFound, TurnIds

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


class MemoryChatStore(ChatStore):
    def __init__(self) -> None:
        self.conversations: dict[str, _Conversation] = {}

    def _owned(self, user: Principal, conversation_id: str) -> _Conversation:
        conv = self.conversations.get(conversation_id)
        if conv is None or conv.owner_id != user.id:
            raise ConversationNotFound(conversation_id)
        return conv

    async def begin_turn(
        self, *, user: Principal, conversation_id: str | None, message: str, run_id: str | None = None
    ) -> TurnIds:
        if conversation_id is None:
            conv = _Conversation(uuid.uuid4().hex, user.id, message.strip()[:60])
            self.conversations[conv.id] = conv
        else:
            conv = self._owned(user, conversation_id)
        user_msg = MessagePublic(id=uuid.uuid4().hex, role="user", content=message, created_at=_now())
        placeholder = MessagePublic(
            id=uuid.uuid4().hex, role="assistant", content="", status="running", created_at=_now(),
            run_id=run_id,
        )
        conv.messages += [user_msg, placeholder]
        conv.pending.add(placeholder.id)
        return TurnIds(conv.id, user_msg.id, placeholder.id)

    async def history(self, *, user: Principal, conversation_id: str, limit: int = 200) -> list[MessagePublic]:
        conv = self._owned(user, conversation_id)
        done = [m for m in conv.messages if m.id not in conv.pending]
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
                    )
                    conv.pending.discard(msg.id)
                    return

    async def record_action(
        self, *, user: Principal, conversation_id: str, action: str, data: dict[str, Any], result: Any
    ) -> str:
        conv = self._owned(user, conversation_id)
        msg = MessagePublic(
            id=uuid.uuid4().hex,
            role="action",
            content=f"Applied action {action}",
            created_at=_now(),
            custom_payload={"type": "action_result", "data": {"action": action, "input": data, "result": result}},  # type: ignore[arg-type]
        )
        conv.messages.append(msg)
        return msg.id
