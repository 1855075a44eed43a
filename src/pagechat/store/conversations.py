"""A user's conversations as wholes: listed, renamed, deleted, and made under a name the
client chose (AG-UI's threads)."""

from __future__ import annotations

from sqlalchemy import delete, func, select, update

from ..identity import Principal
from ..protocol import ConversationList, ConversationPublic
from .core import StoreCore
from .records import ConversationNotFound
from .rows import conversation_public, owned
from .tables import Conversation, Message, MessageFeedback, utcnow
from .titles import make_title

__all__ = ["Conversations"]


class Conversations(StoreCore):
    """The store's part for conversations: list, rename, delete."""

    async def list_conversations(
        self, *, user: Principal, offset: int = 0, limit: int = 20
    ) -> ConversationList:
        """The user's conversations, most recently active first."""
        mine = Conversation.owner_id == user.id
        async with self._reading(user) as session:
            total = await session.scalar(select(func.count()).select_from(Conversation).where(mine))
            result = await session.execute(
                select(Conversation)
                .where(mine)
                .order_by(Conversation.updated_at.desc(), Conversation.id.desc())
                .offset(offset)
                .limit(limit)
            )
            items = [conversation_public(c) for c in result.scalars()]
        return ConversationList(items=items, total=total or 0, offset=offset, limit=limit)

    async def rename_conversation(
        self, *, user: Principal, conversation_id: str, title: str
    ) -> ConversationPublic:
        """Give the user's conversation a new title; the conversation as it now is."""
        async with self._writing(user) as session:
            conv = await owned(session=session, owner_id=user.id, conversation_id=conversation_id)
            conv.title = title
            await session.flush()
            return conversation_public(conv)

    async def retitle_unless_renamed(
        self, *, user: Principal, conversation_id: str, title: str, first_title: str
    ) -> bool:
        """Replace the title made from the first message (`first_title`) with `title`; a
        conversation the user renamed meanwhile, or deleted, is left alone. True if
        retitled. The activity time does not move: a title is no new message."""
        async with self._writing(user) as session:
            result = await session.execute(
                update(Conversation)
                .where(
                    Conversation.id == conversation_id,
                    Conversation.owner_id == user.id,
                    Conversation.title == first_title,
                )
                .values(title=title)
            )
        return bool(getattr(result, "rowcount", 0))

    async def delete_conversation(self, *, user: Principal, conversation_id: str) -> None:
        """Remove the conversation, its messages and their feedback."""
        async with self._writing(user) as session:
            await owned(session=session, owner_id=user.id, conversation_id=conversation_id)
            # Explicit, so a database without enforced foreign keys loses no less than one
            # with them.
            await session.execute(
                delete(MessageFeedback).where(
                    MessageFeedback.message_id.in_(
                        select(Message.id).where(Message.conversation_id == conversation_id)
                    )
                )
            )
            await session.execute(delete(Message).where(Message.conversation_id == conversation_id))
            await session.execute(delete(Conversation).where(Conversation.id == conversation_id))

    async def ensure_conversation(
        self, *, user: Principal, conversation_id: str, title: str
    ) -> bool:
        """Create the user's conversation with this id unless it exists; True if created.

        For clients that name their threads (AG-UI). Raises ConversationNotFound when the
        id is another user's.
        """
        async with self._writing(user) as session:
            existing = await session.get(Conversation, conversation_id)
            if existing is not None:
                if existing.owner_id != user.id:
                    raise ConversationNotFound(conversation_id)
                return False
            now = utcnow()
            session.add(
                Conversation(
                    id=conversation_id,
                    owner_id=user.id,
                    title=make_title(title),
                    created_at=now,
                    updated_at=now,
                )
            )
            return True

    async def conversation_exists(self, *, user: Principal, conversation_id: str) -> bool:
        """Whether the user's conversation with this id exists (False: nobody's yet).

        For clients that name their chats before the first message (the AI SDK's
        `useChat`). Raises ConversationNotFound when the id is another user's.
        """
        async with self._reading(user) as session:
            owner = await session.scalar(
                select(Conversation.owner_id).where(Conversation.id == conversation_id)
            )
        if owner is not None and owner != user.id:
            raise ConversationNotFound(conversation_id)
        return owner is not None
