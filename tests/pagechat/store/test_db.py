from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import event, text

from pagechat.store import create_engine
from pagechat.store.db import display_url


async def test_sqlite_gets_wal_foreign_keys_and_its_folder(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path}/new/dir/pagechat.db")
    try:
        async with engine.connect() as conn:
            journal = await conn.scalar(text("PRAGMA journal_mode"))
            foreign_keys = await conn.scalar(text("PRAGMA foreign_keys"))
    finally:
        await engine.dispose()

    assert (journal, foreign_keys) == ("wal", 1)
    assert (tmp_path / "new" / "dir" / "pagechat.db").exists()


def test_a_displayed_url_hides_the_password() -> None:
    shown = display_url("postgresql+asyncpg://app:s3cret@db.internal:5432/pagechat")

    assert "s3cret" not in shown
    assert shown.startswith("postgresql+asyncpg://app:***@db.internal")


async def test_a_burst_of_sessions_reuses_its_connections_instead_of_opening_new_ones(
    database_url: str,
) -> None:
    engine = create_engine(database_url)
    opened = 0

    def _count(*_args: object) -> None:
        nonlocal opened
        opened += 1

    event.listen(engine.sync_engine, "connect", _count)

    async def _query() -> None:
        async with engine.connect() as conn:
            await conn.scalar(text("SELECT 1"))
            await asyncio.sleep(0.01)  # all twelve are open at once

    try:
        for _ in range(3):
            await asyncio.gather(*(_query() for _ in range(12)))
    finally:
        await engine.dispose()

    # Twelve at once, three times: twelve connections, not one per query.
    assert opened == 12


async def test_a_new_sqlite_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path}/private.db")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (x INTEGER)"))
            await conn.execute(text("INSERT INTO t VALUES (1)"))
    finally:
        await engine.dispose()

    for name in ("private.db", "private.db-wal", "private.db-shm"):
        path = tmp_path / name
        if path.exists():
            assert path.stat().st_mode & 0o777 == 0o600, name
