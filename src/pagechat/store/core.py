"""What every part of `ChatStore` shares: its sessions and how a call gets one.

A call that reads or writes a user's conversations first waits for that user's turn
starts still being written (store/pending.py), so a reload right after a start finds
the running answer. SQLite lets one connection write at a time, and the others poll
(busy_timeout) and give up after 5 s with "database is locked" when a burst of turns
starts while the event loop is busy: writers queue on the engine's write lock instead
(store/writer.py, shared with attachments), first come first served, and a turn's own
writes (begin, checkpoints, end) are group-committed (store/batch.py).
PostgreSQL writes each in its own transaction, side by side.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from ..identity import Principal
from .batch import WriteBatcher
from .db import is_sqlite
from .pending import PendingTurns
from .writer import write_lock, writing

__all__ = ["StoreCore"]


class StoreCore:
    """What the store's parts share: sessions, the write lock and batcher, pending starts."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions
        bind = sessions.kw.get("bind")
        sqlite = bind is not None and is_sqlite(bind.url)
        self._batch = WriteBatcher(self._batch_writing) if sqlite else None
        self._pending = PendingTurns()

    async def aclose(self) -> None:
        """At shutdown, after the runs have stopped: finish the turn writes still queued."""
        if self._batch is not None:
            await self._batch.aclose()

    @asynccontextmanager
    async def _reading(self, user: Principal) -> AsyncIterator[AsyncSession]:
        """A session to read `user`'s data in, once their turn starts are written."""
        await self._pending.user(user.id)
        async with self.sessions() as session:
            yield session

    @asynccontextmanager
    async def _writing(self, user: Principal | None = None) -> AsyncIterator[AsyncSession]:
        """A write transaction (on SQLite, one at a time), once `user`'s turn starts are
        written."""
        if user is not None:
            await self._pending.user(user.id)
        async with writing(self.sessions) as session:
            yield session

    @asynccontextmanager
    async def _batch_writing(self) -> AsyncIterator[AsyncConnection]:
        """A group commit's transaction (SQLite): a Core connection under the write lock."""
        lock = write_lock(self.sessions)
        assert lock is not None
        engine: AsyncEngine = self.sessions.kw["bind"]
        async with lock, engine.begin() as connection:
            yield connection
