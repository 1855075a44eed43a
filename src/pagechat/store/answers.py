"""What the user makes of an answer: what they did with its card (`payload_decision`)
and their thumbs on it (`message_feedback`, shown only to its author)."""

from __future__ import annotations

from sqlalchemy import select

from ..identity import Principal
from ..protocol import FeedbackRating, MessagePublic, PayloadDecision
from .core import StoreCore
from .records import NoPayload, NotAnAnswer
from .rows import message_in, message_public, owned
from .tables import MessageFeedback, utcnow

__all__ = ["Answers"]


class Answers(StoreCore):
    """The store's part for what users make of answers: card decisions and feedback."""

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
        async with self._writing(user) as session:
            await owned(session=session, owner_id=user.id, conversation_id=conversation_id)
            row = await message_in(
                session=session, conversation_id=conversation_id, message_id=message_id
            )
            if row.role != "assistant" or not row.payload.get("custom_payload"):
                raise NoPayload(message_id)
            if decision != "dismissed" or row.payload_decision in (None, "dismissed"):
                row.payload_decision = decision
                await session.flush()
            return message_public(row)

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
        async with self._writing(user) as session:
            conv = await owned(session=session, owner_id=user.id, conversation_id=conversation_id)
            row = await message_in(session=session, conversation_id=conv.id, message_id=message_id)
            if row.role != "assistant" or row.status == "running":
                raise NotAnAnswer(message_id)
            existing = await session.scalar(
                select(MessageFeedback).where(
                    MessageFeedback.user_id == user.id, MessageFeedback.message_id == message_id
                )
            )
            now = utcnow()
            if existing is None:
                existing = MessageFeedback(
                    message_id=message_id,
                    user_id=user.id,
                    rating=rating,
                    comment=comment,
                    created_at=now,
                    updated_at=now,
                )
                session.add(existing)
            else:
                existing.rating = rating
                existing.comment = comment
                existing.updated_at = now
            await session.flush()
            return message_public(row, feedback=existing)
