"""`ChatStore` on a SQL database (SQLite or PostgreSQL), one transaction per call."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from ..identity import Principal
from ..protocol import (
    ConversationDetail,
    ConversationList,
    ConversationPublic,
    ConversationSearchHit,
    FeedbackRating,
    MessagePublic,
    PayloadDecision,
)
from . import conversations as crud
from .base import (
    AssistantRecord,
    BranchKind,
    ChatStore,
    ConversationNotFound,
    StartedTurn,
    TurnIds,
    new_turn_ids,
)
from .batch import WriteBatcher
from .db import is_sqlite
from .pending import PendingTurns
from .search import search_conversations

__all__ = ["SqlChatStore"]


class SqlChatStore(ChatStore):
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions
        bind = sessions.kw.get("bind")
        # SQLite lets one connection write at a time; the others poll (busy_timeout) and,
        # when a burst of turns starts while the event loop is busy, give up after 5 s with
        # "database is locked". Writers queue here instead, first come first served.
        self._write_lock = asyncio.Lock() if bind is not None and is_sqlite(bind.url) else None
        # A turn's own writes (begin, checkpoints, end) are batched where writers queue
        # anyway; PostgreSQL writes them side by side, each in its own transaction.
        self._batch = WriteBatcher(self._batch_writing) if self._write_lock is not None else None
        self._pending = PendingTurns()

    async def aclose(self) -> None:
        """Waits for the turn writes still queued."""
        if self._batch is not None:
            await self._batch.aclose()

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncSession]:
        """A write transaction; on SQLite, one at a time."""
        if self._write_lock is None:
            async with self.sessions.begin() as session:
                yield session
            return
        async with self._write_lock, self.sessions.begin() as session:
            yield session

    @asynccontextmanager
    async def _batch_writing(self) -> AsyncIterator[AsyncConnection]:
        """A group commit's transaction (SQLite): a Core connection under the write lock."""
        assert self._write_lock is not None
        engine: AsyncEngine = self.sessions.kw["bind"]
        async with self._write_lock, engine.begin() as connection:
            yield connection

    async def begin_turn(
        self,
        *,
        user: Principal,
        conversation_id: str | None,
        message: str,
        run_id: str | None = None,
        ids: TurnIds | None = None,
    ) -> TurnIds:
        await self._pending.user(user.id)
        turn = crud.NewTurn(user.id, conversation_id, message, run_id, ids)
        if self._batch is not None:
            return await self._batch.begin_turn(turn)
        return await self._begin_alone(turn)

    def start_turn(
        self, *, user: Principal, conversation_id: str | None, message: str, run_id: str
    ) -> StartedTurn:
        ids = new_turn_ids(conversation_id)
        turn = crud.NewTurn(user.id, conversation_id, message, run_id, ids)
        # Queued now, so that a read of this user's, even in the next request, waits for it.
        written = (
            self._batch.queue_begin(turn)
            if self._batch is not None
            else asyncio.ensure_future(self._begin_alone(turn))
        )
        self._pending.add(user.id, ids.assistant_message_id, written)
        return StartedTurn(ids, written)

    async def _begin_alone(self, turn: crud.NewTurn) -> TurnIds:
        async with self._writing() as session:
            [result] = await crud.begin_turns(session=session, turns=[turn])
        if isinstance(result, ConversationNotFound):
            raise result
        return result

    async def ensure_conversation(
        self, *, user: Principal, conversation_id: str, title: str
    ) -> bool:
        await self._pending.user(user.id)
        async with self._writing() as session:
            return await crud.ensure_conversation(
                session=session, owner_id=user.id, conversation_id=conversation_id, title=title
            )

    async def history(
        self,
        *,
        user: Principal,
        conversation_id: str,
        limit: int = 200,
        leaf_id: str | None = None,
    ) -> list[MessagePublic]:
        await self._pending.user(user.id)
        async with self.sessions() as session:
            return await crud.recent_messages(
                session=session,
                owner_id=user.id,
                conversation_id=conversation_id,
                limit=limit,
                leaf_id=leaf_id,
            )

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
        await self._pending.user(user.id)
        # Not batched: rare. A run's end is written before its last event is sent, so a
        # client that saw the answer end finds it ended here.
        async with self._writing() as session:
            return await crud.begin_branch(
                session=session,
                owner_id=user.id,
                conversation_id=conversation_id,
                message_id=message_id,
                kind=kind,
                run_id=run_id,
                message=message,
            )

    async def select_branch(
        self, *, user: Principal, conversation_id: str, message_id: str, position: int
    ) -> None:
        await self._pending.user(user.id)
        async with self._writing() as session:
            await crud.select_branch(
                session=session,
                owner_id=user.id,
                conversation_id=conversation_id,
                message_id=message_id,
                position=position,
            )

    async def set_feedback(
        self,
        *,
        user: Principal,
        conversation_id: str,
        message_id: str,
        rating: FeedbackRating,
        comment: str | None,
    ) -> MessagePublic:
        await self._pending.user(user.id)
        async with self._writing() as session:
            return await crud.set_feedback(
                session=session,
                owner_id=user.id,
                conversation_id=conversation_id,
                message_id=message_id,
                rating=rating,
                comment=comment,
            )

    async def finish_turn(self, *, assistant_message_id: str, record: AssistantRecord) -> None:
        if not await self._pending.answer(assistant_message_id):
            return  # never stored: nothing half-done to finish
        if self._batch is not None:
            await self._batch.finish(assistant_message_id, record)
            return
        async with self._writing() as session:
            await crud.finish_messages(session=session, records={assistant_message_id: record})

    async def checkpoint_turns(self, records: Mapping[str, AssistantRecord]) -> None:
        records = {mid: r for mid, r in records.items() if await self._pending.answer(mid)}
        if self._batch is not None:
            await self._batch.checkpoint(records)
            return
        async with self._writing() as session:
            await crud.checkpoint_messages(session=session, records=records)

    async def record_action(
        self,
        *,
        user: Principal,
        conversation_id: str,
        action: str,
        data: dict[str, Any],
        result: Any,
    ) -> str:
        await self._pending.user(user.id)
        async with self._writing() as session:
            return await crud.add_action_message(
                session=session,
                owner_id=user.id,
                conversation_id=conversation_id,
                action=action,
                data=data,
                result=result,
            )

    async def list_conversations(
        self, *, user: Principal, offset: int = 0, limit: int = 20
    ) -> ConversationList:
        await self._pending.user(user.id)
        async with self.sessions() as session:
            return await crud.list_conversations(
                session=session, owner_id=user.id, offset=offset, limit=limit
            )

    async def search_conversations(
        self, *, user: Principal, terms: list[str], limit: int = 20
    ) -> list[ConversationSearchHit]:
        await self._pending.user(user.id)
        async with self.sessions() as session:
            return await search_conversations(
                session=session, owner_id=user.id, terms=terms, limit=limit
            )

    async def get_conversation(
        self,
        *,
        user: Principal,
        conversation_id: str,
        limit: int | None = None,
        before: str | None = None,
    ) -> ConversationDetail:
        await self._pending.user(user.id)
        async with self.sessions() as session:
            return await crud.get_conversation(
                session=session,
                owner_id=user.id,
                conversation_id=conversation_id,
                limit=limit,
                before=before,
            )

    async def rename_conversation(
        self, *, user: Principal, conversation_id: str, title: str
    ) -> ConversationPublic:
        await self._pending.user(user.id)
        async with self._writing() as session:
            return await crud.rename_conversation(
                session=session, owner_id=user.id, conversation_id=conversation_id, title=title
            )

    async def delete_conversation(self, *, user: Principal, conversation_id: str) -> None:
        await self._pending.user(user.id)
        async with self._writing() as session:
            await crud.delete_conversation(
                session=session, owner_id=user.id, conversation_id=conversation_id
            )

    async def mark_interrupted(
        self,
        *,
        run_ids: Collection[str] | None = None,
        keep_run_ids: Collection[str] = (),
        created_before: datetime | None = None,
    ) -> int:
        """Answers whose run died (with the previous process, or its worker) become
        `interrupted`, keeping their last checkpoint; see `crud.mark_interrupted`."""
        async with self._writing() as session:
            return await crud.mark_interrupted(
                session=session,
                run_ids=run_ids,
                keep_run_ids=keep_run_ids,
                created_before=created_before,
            )

    async def decide_payload(
        self,
        *,
        user: Principal,
        conversation_id: str,
        message_id: str,
        decision: PayloadDecision,
    ) -> MessagePublic:
        await self._pending.user(user.id)
        async with self._writing() as session:
            return await crud.decide_payload(
                session=session,
                owner_id=user.id,
                conversation_id=conversation_id,
                message_id=message_id,
                decision=decision,
            )
