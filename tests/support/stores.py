"""A store on a freshly migrated database, for tests that need one and nothing else of it.

SQLite in a temporary file by default; in memory (`in_memory=True`) where a test makes
one request at a time. An in-memory database is one connection that every session
shares (store/db.py), so one session's end also ends another's open transaction: a
live server, answers streaming while other requests read, wants the file.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from pagechat.identity import Principal
from pagechat.store import (
    ChatStore,
    User,
    create_engine,
    create_sessionmaker,
    upgrade_async,
)

__all__ = ["IN_MEMORY", "migrated_store", "sqlite_store"]

IN_MEMORY = "sqlite+aiosqlite://"


@asynccontextmanager
async def migrated_store(url: str, *users: Principal) -> AsyncIterator[ChatStore]:
    """A store on the database at `url`, migrated, with an account for each of `users`
    (their ids: conversations belong to an account); closed and disposed afterwards."""
    engine = create_engine(url)
    try:
        await upgrade_async(engine)
        sessions = create_sessionmaker(engine)
        if users:
            async with sessions.begin() as session:
                session.add_all(
                    User(id=u.id, email=u.email, password_hash="", is_admin=u.is_admin)
                    for u in users
                )
        store = ChatStore(sessions)
        try:
            yield store
        finally:
            await store.aclose()
    finally:
        await engine.dispose()


@asynccontextmanager
async def sqlite_store(*users: Principal, in_memory: bool = False) -> AsyncIterator[ChatStore]:
    """`migrated_store` on SQLite: in a temporary file (a copy of one migrated once per
    process, which then has nothing left to migrate), or in memory."""
    async with AsyncExitStack() as stack:
        if in_memory:
            url = IN_MEMORY
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pagechat-")))
            shutil.copyfile(await _migrated_file(), folder / "pagechat.db")
            url = f"sqlite+aiosqlite:///{folder / 'pagechat.db'}"
        yield await stack.enter_async_context(migrated_store(url, *users))


_migrated: list[Path] = []


async def _migrated_file() -> Path:
    """A SQLite file at the newest revision, made once per process."""
    if not _migrated:
        folder = tempfile.TemporaryDirectory(prefix="pagechat-migrated-")
        atexit.register(folder.cleanup)
        path = Path(folder.name) / "pagechat.db"
        # Disposed: the last connection's close folds the write-ahead log into the file.
        await upgrade_async(f"sqlite+aiosqlite:///{path}")
        _migrated.append(path)
    return _migrated[0]
