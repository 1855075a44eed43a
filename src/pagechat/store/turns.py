"""A turn's writes: its beginning, its checkpoints and its end; an applied server action;
answers whose run died marked `interrupted`.

On SQLite a turn's own writes go through the group commit (store/batch.py); on
PostgreSQL each is a transaction of its own, with the same statements (store/turn_rows.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import CursorResult, or_, update

from ..identity import Principal
from ..protocol import CustomPayload
from .core import StoreCore
from .records import (
    AssistantRecord,
    ConversationNotFound,
    StartedTurn,
    TurnIds,
    action_summary,
    new_turn_ids,
)
from .rows import new_id, owned
from .tables import Message, utcnow
from .turn_rows import NewTurn, begin_turns, checkpoint_messages, finish_messages

__all__ = ["INTERRUPTED_NOTE", "Turns"]

INTERRUPTED_NOTE = "The server stopped before this answer was finished."


class Turns(StoreCore):
    """The store's part for turns: begin, checkpoint and finish an answer."""

    async def begin_turn(
        self,
        *,
        user: Principal,
        conversation_id: str | None,
        message: str,
        run_id: str | None = None,
        ids: TurnIds | None = None,
    ) -> TurnIds:
        """Store the user message and a `running` placeholder for the answer (creating
        the conversation when `conversation_id` is None). Raises ConversationNotFound.

        `ids`: made up front (`new_turn_ids`); by default the store makes them."""
        await self._pending.user(user.id)
        turn = NewTurn(user.id, conversation_id, message, run_id, ids)
        if self._batch is not None:
            return await self._batch.begin_turn(turn)
        return await self._begin_alone(turn)

    def start_turn(
        self,
        *,
        user: Principal,
        conversation_id: str | None,
        message: str,
        run_id: str,
        attachments: Sequence[Mapping[str, Any]] = (),
    ) -> StartedTurn:
        """`begin_turn` without waiting for it: the ids now, the write under way.
        `attachments` (`AttachmentRef`s as JSON) are kept on the user message.

        A turn's checkpoints and end, and its user's reads through the store, wait for
        the write; a write that fails stores nothing (`StartedTurn.written` says why).
        """
        ids = new_turn_ids(conversation_id)
        turn = NewTurn(
            user.id, conversation_id, message, run_id, ids, tuple(dict(a) for a in attachments)
        )
        # Queued now, so that a read of this user's, even in the next request, waits for it.
        written = (
            self._batch.queue_begin(turn)
            if self._batch is not None
            else asyncio.ensure_future(self._begin_alone(turn))
        )
        self._pending.add(user.id, ids.assistant_message_id, written)
        return StartedTurn(ids, written)

    async def _begin_alone(self, turn: NewTurn) -> TurnIds:
        async with self._writing() as session:
            [result] = await begin_turns(session=session, turns=[turn])
        if isinstance(result, ConversationNotFound):
            raise result
        return result

    async def finish_turn(self, *, assistant_message_id: str, record: AssistantRecord) -> None:
        """Fill the placeholder assistant message from its run's folded events."""
        if not await self._pending.answer(assistant_message_id):
            return  # never stored: nothing half-done to finish
        if self._batch is not None:
            await self._batch.finish(assistant_message_id, record)
            return
        async with self._writing() as session:
            await finish_messages(session=session, records={assistant_message_id: record})

    async def checkpoint_turns(self, records: Mapping[str, AssistantRecord]) -> None:
        """Save running answers' progress (by assistant message id), so a crash keeps it.

        An answer that is no longer running is left as it is.
        """
        records = {mid: r for mid, r in records.items() if await self._pending.answer(mid)}
        if self._batch is not None:
            await self._batch.checkpoint(records)
            return
        async with self._writing() as session:
            await checkpoint_messages(session=session, records=records)

    async def record_action(
        self,
        *,
        user: Principal,
        conversation_id: str,
        action: str,
        data: dict[str, Any],
        result: Any,
    ) -> str:
        """Record an applied server action in the conversation, so the model sees it next
        turn; the new message's id."""
        async with self._writing(user) as session:
            conv = await owned(session=session, owner_id=user.id, conversation_id=conversation_id)
            now = utcnow()
            conv.updated_at = now
            payload = CustomPayload(
                type="action_result", data={"action": action, "input": data, "result": result}
            )
            content, status = action_summary(action, result)
            msg = Message(
                id=new_id(),
                conversation_id=conv.id,
                parent_id=conv.active_leaf_id,
                role="action",
                content=content,
                status=status,
                created_at=now,
                payload={"custom_payload": payload.model_dump(mode="json")},
            )
            conv.active_leaf_id = msg.id
            session.add(msg)
            await session.flush()
            return msg.id

    async def mark_interrupted(
        self,
        *,
        run_ids: Collection[str] | None = None,
        keep_run_ids: Collection[str] = (),
        created_before: datetime | None = None,
    ) -> int:
        """Answers whose run died (with the previous process, or its worker) become
        `interrupted`, keeping what their checkpoints saved; how many were marked.

        With no filter, every `running` one (at startup no run of ours is alive).
        `run_ids`: only the answers of those runs (their owner died); `keep_run_ids` and
        `created_before` spare runs other workers still own, or may be starting.
        """
        statement = update(Message).where(Message.status == "running")
        if run_ids is not None:
            statement = statement.where(Message.run_id.in_(list(run_ids)))
        if keep_run_ids:
            statement = statement.where(
                or_(Message.run_id.is_(None), Message.run_id.not_in(list(keep_run_ids)))
            )
        if created_before is not None:
            statement = statement.where(Message.created_at < created_before)
        async with self._writing() as session:
            result = await session.execute(
                statement.values(status="interrupted", run_id=None, error=INTERRUPTED_NOTE)
            )
            assert isinstance(result, CursorResult)
            return result.rowcount
