from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

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
