"""Apply the Alembic migrations from code: the CLI, `make run` and server start use this.

The migration scripts live inside the package, so an installed pagechat can
upgrade its database without a checkout. An application adds its own
history (its own `versions` folder, a branch depending on pagechat's) through
`version_locations`; everything is upgraded to `heads`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, text
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine

from .db import create_engine

__all__ = [
    "MIGRATIONS_DIR",
    "alembic_config",
    "current_revisions",
    "upgrade",
    "upgrade_async",
]

MIGRATIONS_DIR = Path(__file__).with_name("migrations")

# Any constant works; it only has to be the same for every pagechat process.
_PG_LOCK_KEY = 0x70616765


def _escape(value: str) -> str:
    # Alembic's Config is a ConfigParser: a literal '%' must be doubled.
    return value.replace("%", "%%")


def alembic_config(*, version_locations: Sequence[Path] = ()) -> Config:
    """An Alembic config for pagechat's migrations plus an application's own."""
    cfg = Config()
    cfg.set_main_option("script_location", _escape(str(MIGRATIONS_DIR)))
    cfg.set_main_option("path_separator", "os")
    locations = [MIGRATIONS_DIR / "versions", *version_locations]
    cfg.set_main_option("version_locations", _escape(os.pathsep.join(str(p) for p in locations)))
    return cfg


def _upgrade_on(connection: Connection, cfg: Config) -> None:
    if connection.dialect.name == "postgresql":
        # Two servers starting at once must not both create the tables.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "heads")


async def upgrade_async(
    target: str | URL | AsyncEngine, *, version_locations: Sequence[Path] = ()
) -> None:
    """Bring the database at `target` (a URL or an engine) to the newest revision."""
    cfg = alembic_config(version_locations=version_locations)
    engine = target if isinstance(target, AsyncEngine) else create_engine(target)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade_on, cfg)
    finally:
        if engine is not target:
            await engine.dispose()


def upgrade(database_url: str | URL, *, version_locations: Sequence[Path] = ()) -> None:
    """`upgrade_async` for callers without an event loop (the CLI)."""
    asyncio.run(upgrade_async(database_url, version_locations=version_locations))


def _revisions_on(connection: Connection) -> tuple[str, ...]:
    return tuple(MigrationContext.configure(connection).get_current_heads())


async def current_revisions(target: str | URL | AsyncEngine) -> tuple[str, ...]:
    """The revisions the database is at; empty before the first upgrade."""
    engine = target if isinstance(target, AsyncEngine) else create_engine(target)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(_revisions_on)
    finally:
        if engine is not target:
            await engine.dispose()
