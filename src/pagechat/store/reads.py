"""A conversation's messages as read: a page of its active path for the history routes,
and the model's history at the start of a turn.

Each is one statement whatever the conversation's length: the owned conversation, joined
to its path walked up from the leaf (or from the cursor) for `limit + 1` messages
(store/paths.py).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import CTE, Select, and_, select, true

from ..identity import Principal
from ..protocol import ConversationDetail, MessagePublic
from .core import StoreCore
from .paths import cursor_in, path_up, sibling_count, sibling_position
from .records import ConversationNotFound, InvalidCursor, cursor_value
from .rows import conversation_public, message_public
from .tables import Conversation, Message, MessageFeedback

__all__ = ["Reads"]


def _along(path: CTE, owner_id: str, conversation_id: str, *columns: Any) -> Select[Any]:
    """`columns` of the owned conversation joined to the messages of `path`, root first:
    one row with no message for a conversation whose path is empty, none for another's."""
    return (
        select(*columns)
        .select_from(Conversation)
        .outerjoin(path, path.c.conversation_id == Conversation.id)
        .outerjoin(Message, Message.seq == path.c.seq)
        .where(Conversation.id == conversation_id, Conversation.owner_id == owner_id)
        .order_by(path.c.depth.desc())
    )


class Reads(StoreCore):
    """The store's part for reading a conversation's messages."""

    async def get_conversation(
        self,
        *,
        user: Principal,
        conversation_id: str,
        limit: int | None = None,
        before: str | None = None,
    ) -> ConversationDetail:
        """The active path's messages oldest first, with every stored field (admin-only ones
        included), each with its place among its siblings and the user's feedback.

        With `limit`, only the newest `limit` of them (before the cursor `before`, an
        earlier page's `older`); `older` is then the cursor of the page before. Raises
        ConversationNotFound, and InvalidCursor for a cursor no page gave.

        The cursor is the `seq` of the oldest message of the page after it, and the page
        before walks up from that message's parent. Any message of the conversation's is a
        cursor, on the active path or not: a client still showing a branch the user has
        since left elsewhere gets what came before what it shows.
        """
        cursor = cursor_value(before) if before is not None else None
        path = path_up(conversation_id=conversation_id, before=cursor, limit=limit)
        cursor_known = (
            cursor_in(conversation_id=conversation_id, before=cursor)
            if cursor is not None
            else true()
        )
        statement = _along(
            path,
            user.id,
            conversation_id,
            Conversation,
            Message,
            MessageFeedback,
            sibling_count(Message).label("sibling_count"),
            sibling_position(Message).label("sibling_position"),
            cursor_known.label("cursor_known"),
        ).outerjoin(
            MessageFeedback,
            and_(MessageFeedback.message_id == Message.id, MessageFeedback.user_id == user.id),
        )
        async with self._reading(user) as session:
            rows = (await session.execute(statement)).all()
        if not rows:
            raise ConversationNotFound(conversation_id)
        conv = rows[0].Conversation
        if not rows[0].cursor_known:
            raise InvalidCursor(before)
        page = [row for row in rows if row.Message is not None]
        older = None
        if limit is not None and len(page) > limit:
            page = page[-limit:]
            older = str(page[0].Message.seq)
        messages = [
            message_public(
                row.Message,
                sibling_count=row.sibling_count,
                sibling_position=row.sibling_position,
                feedback=row.MessageFeedback,
            )
            for row in page
        ]
        return ConversationDetail(
            **conversation_public(conv).model_dump(),
            messages=messages,
            older=older,
            active_leaf_id=conv.active_leaf_id,
        )

    async def history(
        self,
        *,
        user: Principal,
        conversation_id: str,
        limit: int = 200,
        leaf_id: str | None = None,
    ) -> list[MessagePublic]:
        """The newest `limit` finished messages of the path from the root to `leaf_id`
        (default: the active leaf), oldest first (a running placeholder excluded).

        One statement, like a page: read at the start of every turn.
        """
        # One more than asked: the path may end with a running placeholder, left out below.
        path = path_up(conversation_id=conversation_id, leaf_id=leaf_id, limit=limit)
        statement = _along(path, user.id, conversation_id, Conversation.id, Message)
        async with self._reading(user) as session:
            rows = (await session.execute(statement)).all()
        if not rows:
            raise ConversationNotFound(conversation_id)
        done = [
            message_public(msg) for _, msg in rows if msg is not None and msg.status != "running"
        ]
        return done[-limit:]
