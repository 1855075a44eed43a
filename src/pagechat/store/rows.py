"""Rows as the protocol shows them, and the lookups every part of the store starts with.

Every lookup that takes `owner_id` answers `ConversationNotFound` for another user's
conversation exactly as for a missing one.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..protocol import (
    ConversationPublic,
    FeedbackPublic,
    FeedbackRating,
    MessagePublic,
    Usage,
)
from .records import ConversationNotFound, MessageNotFound
from .tables import Conversation, Message, MessageFeedback

__all__ = [
    "CONVERSATIONS",
    "MESSAGES",
    "conversation_public",
    "message_in",
    "message_public",
    "message_row",
    "new_id",
    "owned",
]

CONVERSATIONS = cast(Table, Conversation.__table__)
MESSAGES = cast(Table, Message.__table__)
"""The tables as Core sees them, for the statements written without the ORM."""


def new_id() -> str:
    """A fresh random id for a row."""
    return uuid.uuid4().hex


def conversation_public(conv: Conversation) -> ConversationPublic:
    """The row as the client sees it."""
    return ConversationPublic(
        id=conv.id, title=conv.title, created_at=conv.created_at, updated_at=conv.updated_at
    )


def message_public(
    row: Message,
    *,
    sibling_count: int = 1,
    sibling_position: int = 1,
    feedback: MessageFeedback | None = None,
) -> MessagePublic:
    """The row as the client sees it, with its place among its siblings and its feedback."""
    read, written = row.payload.get("cache_tokens") or (0, 0)
    usage = (
        Usage(
            input_tokens=row.input_tokens or 0,
            output_tokens=row.output_tokens or 0,
            cache_read_tokens=read,
            cache_write_tokens=written,
        )
        if row.input_tokens is not None or row.output_tokens is not None
        else None
    )
    return MessagePublic.model_validate(
        {
            **row.payload,
            "id": row.id,
            "role": row.role,
            "content": row.content,
            "status": row.status,
            "created_at": row.created_at,
            # A finished answer keeps its run's id for the fence (store/turn_rows.py);
            # a client follows only a running one.
            "run_id": row.run_id if row.status == "running" else None,
            "usage": usage,
            "error": row.error,
            "context_audit": row.context_audit,
            "payload_decision": row.payload_decision,
            "parent_id": row.parent_id,
            "sibling_count": sibling_count,
            "sibling_position": sibling_position,
            "feedback": _feedback_public(feedback) if feedback else None,
        }
    )


def _feedback_public(row: MessageFeedback) -> FeedbackPublic:
    return FeedbackPublic(
        rating=cast(FeedbackRating, row.rating), comment=row.comment, updated_at=row.updated_at
    )


def message_row(
    message_id: str,
    conversation_id: str,
    role: str,
    content: str,
    now: datetime,
    *,
    run_id: str | None = None,
    parent_id: str | None = None,
) -> dict[str, Any]:
    """A new message as a Core insert's values; an assistant's starts `running`."""
    return {
        "id": message_id,
        "conversation_id": conversation_id,
        "parent_id": parent_id,
        "role": role,
        "content": content,
        "status": "running" if role == "assistant" else "complete",
        "run_id": run_id,
        "created_at": now,
        "payload": {},
        "input_tokens": None,
        "output_tokens": None,
        "error": None,
        "context_audit": None,
        "payload_decision": None,
    }


async def owned(*, session: AsyncSession, owner_id: str, conversation_id: str) -> Conversation:
    """The conversation if `owner_id` owns it; ConversationNotFound otherwise."""
    result = await session.execute(
        select(Conversation).where(
            Conversation.id == conversation_id, Conversation.owner_id == owner_id
        )
    )
    conv = result.scalar_one_or_none()
    if conv is None:
        raise ConversationNotFound(conversation_id)
    return conv


async def message_in(*, session: AsyncSession, conversation_id: str, message_id: str) -> Message:
    """Message `message_id` of the conversation; MessageNotFound when it has none."""
    result = await session.execute(
        select(Message).where(Message.id == message_id, Message.conversation_id == conversation_id)
    )
    row = result.scalar_one_or_none()
    if row is None:
        raise MessageNotFound(message_id)
    return row
