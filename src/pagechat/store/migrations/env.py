"""Alembic environment.

pagechat runs migrations itself (`pagechat.store.migrate`), handing over an
open connection. Run through the `alembic` command instead (to write a new
revision), it connects to `DATABASE_URL`.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import Connection

from pagechat.store.db import create_engine
from pagechat.store.tables import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_from_url(url: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            await conn.run_sync(_run)
            await conn.commit()
    finally:
        await engine.dispose()


def _main() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = os.environ.get("DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    if not url:
        url = "sqlite+aiosqlite:///./pagechat.db"
    asyncio.run(_run_from_url(url))


if context.is_offline_mode():
    raise SystemExit("pagechat migrations run online only (no --sql)")
_main()
