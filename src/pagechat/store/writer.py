"""SQLite's one writer at a time, shared by everything that writes through one engine.

SQLite lets one connection write at a time; the others poll (busy_timeout) and give up
after 5 s with "database is locked". So every writer on a SQLite engine (the store's
transactions and group commits, attachments' metadata and their bytes in the database)
queues on one lock per engine, first come first served, instead of polling. PostgreSQL
has no such lock: its writers run side by side.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from weakref import WeakKeyDictionary

from sqlalchemy import Engine
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .db import is_sqlite

__all__ = ["write_lock", "writing"]

# Per engine: the loop its lock belongs to, and the lock (an engine outliving one event
# loop, as in tests, gets a fresh lock on the next).
_LOCKS: WeakKeyDictionary[Engine, tuple[asyncio.AbstractEventLoop, asyncio.Lock]] = (
    WeakKeyDictionary()
)


def write_lock(sessions: async_sessionmaker[AsyncSession]) -> asyncio.Lock | None:
    """The write lock of `sessions`' SQLite engine (one per engine); None for PostgreSQL.
    Called on the event loop that will use it."""
    bind = sessions.kw.get("bind")
    if bind is None or not is_sqlite(bind.url):
        return None
    loop = asyncio.get_running_loop()
    held = _LOCKS.get(bind.sync_engine)
    if held is None or held[0] is not loop:
        held = (loop, asyncio.Lock())
        _LOCKS[bind.sync_engine] = held
    return held[1]


@asynccontextmanager
async def writing(sessions: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """A write transaction; on SQLite, under the engine's write lock."""
    lock = write_lock(sessions)
    if lock is None:
        async with sessions.begin() as session:
            yield session
        return
    async with lock, sessions.begin() as session:
        yield session
