"""Feedback on answers, exported for evaluation datasets (`pagechat feedback export`).

Each record is one user's thumbs on one answer, with the conversation as the model saw
it: the path from the first message to that answer (whatever branch is shown now).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .rows import message_public
from .tables import Conversation, Message, MessageFeedback, User

__all__ = ["export_feedback"]


async def export_feedback(*, session: AsyncSession) -> AsyncIterator[dict[str, Any]]:
    """Every feedback record, oldest first, as a JSON-ready dict."""
    result = await session.execute(
        select(MessageFeedback, Message, Conversation, User.email)
        .join(Message, Message.id == MessageFeedback.message_id)
        .join(Conversation, Conversation.id == Message.conversation_id)
        .join(User, User.id == MessageFeedback.user_id)
        .order_by(MessageFeedback.updated_at, MessageFeedback.id)
    )
    for feedback, answer, conv, email in result.tuples():
        tree = await session.execute(
            select(Message).where(Message.conversation_id == conv.id).order_by(Message.seq)
        )
        rows = {row.id: row for row in tree.scalars()}
        path = _path_to(rows, answer.id)
        stored = message_public(answer)
        yield {
            "rating": feedback.rating,
            "comment": feedback.comment,
            "user": email,
            "created_at": feedback.created_at.isoformat(),
            "updated_at": feedback.updated_at.isoformat(),
            "conversation_id": conv.id,
            "message_id": answer.id,
            "model": stored.model,
            "page_context": answer.context_audit,
            "tools": [entry.model_dump(mode="json") for entry in stored.tool_history],
            "messages": [
                {
                    "role": rows[mid].role,
                    "content": rows[mid].content,
                    "status": rows[mid].status,
                    "created_at": rows[mid].created_at.isoformat(),
                }
                for mid in path
            ],
        }


def _path_to(rows: dict[str, Message], leaf_id: str) -> list[str]:
    """The ids from the root to `leaf_id`, root first."""
    path: list[str] = []
    current: str | None = leaf_id
    while current is not None and current in rows and len(path) <= len(rows):
        path.append(current)
        current = rows[current].parent_id
    path.reverse()
    return path
