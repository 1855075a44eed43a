"""Engines and sessions from a database URL.

SQLite gets the settings a small server needs: write-ahead logging (readers
do not block the writer), enforced foreign keys (deleting a conversation
deletes its messages) and a busy timeout instead of instant lock errors.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import sqlalchemy
from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from ..extras import require_extra

__all__ = [
    "create_engine",
    "create_point_reader",
    "create_sessionmaker",
    "display_url",
    "is_sqlite",
]


def is_sqlite(url: str | URL) -> bool:
    """Whether `url` is an SQLite database."""
    return make_url(url).get_backend_name() == "sqlite"


def display_url(url: str | URL) -> str:
    """The URL with its password hidden, for logs and messages."""
    return make_url(url).render_as_string(hide_password=True)


def _sqlite_file(url: URL) -> Path | None:
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def create_engine(url: str | URL, **kwargs: Any) -> AsyncEngine:
    """An async engine for `url` (sqlite+aiosqlite or postgresql+asyncpg)."""
    parsed = make_url(url)
    sqlite = parsed.get_backend_name() == "sqlite"
    path = _sqlite_file(parsed) if sqlite else None
    if "poolclass" not in kwargs and (path is not None or not sqlite):
        # SQLAlchemy's default pool keeps 5 connections and closes every extra one when
        # it is returned: under a burst of turns each request then opens a connection
        # (for aiosqlite, a new thread, file and pragmas) and throws it away. (An
        # in-memory SQLite database has a single shared connection: no pool to size.)
        kwargs.setdefault("pool_size", 20)
        kwargs.setdefault("max_overflow", 20)
    if sqlite:
        if path is not None and path.parent != Path():
            path.parent.mkdir(parents=True, exist_ok=True)
        if path is not None:
            _create_private(path)
        engine = create_async_engine(parsed, **kwargs)
        event.listen(engine.sync_engine, "connect", _on_sqlite_connect)
        return engine
    if parsed.get_driver_name() == "asyncpg":
        require_extra("postgres", "a PostgreSQL DATABASE_URL")
    kwargs.setdefault("pool_pre_ping", True)
    return create_async_engine(parsed, **kwargs)


def create_point_reader(url: str | URL) -> Engine | None:
    """For a SQLite file: a synchronous engine for reads by primary key, made on the event
    loop itself; None for any other database.

    Through aiosqlite every statement is a round trip to a thread and back, and a read
    of one row costs about a millisecond and a half of CPU (thread hand-offs and the GIL)
    where SQLite itself needs tens of microseconds. Authentication reads the user on every
    request; on SQLite it reads it here. WAL readers do not wait for the writer; when the
    file is busy all the same, the wait is short and the caller falls back to the async
    path (`OperationalError`).
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or _sqlite_file(parsed) is None:
        return None
    engine = sqlalchemy.create_engine(
        parsed.set(drivername="sqlite"),
        # Used from event-loop threads only, one statement at a time.
        connect_args={"check_same_thread": False, "timeout": 0.05},
        pool_size=2,
        max_overflow=2,
    )
    event.listen(engine, "connect", _on_sqlite_reader_connect)
    return engine


def _on_sqlite_reader_connect(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA query_only=ON")
    finally:
        cursor.close()


def _create_private(path: Path) -> None:
    """Create the database file readable by its owner only (SQLite would make it 0644,
    and its -wal and -shm files follow the file's mode). An existing file is left as is."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    # Rows outlive their commit: routes read attributes after the session closes.
    """Sessions whose rows stay readable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
