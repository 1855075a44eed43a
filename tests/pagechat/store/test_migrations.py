"""Migrations: they build the schema the tables describe, and running them again is harmless."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect

from pagechat.store import Base, create_engine, upgrade_async
from pagechat.store.migrate import alembic_config, current_revisions

PAGECHAT_TABLES = {"users", "conversations", "messages", "message_feedback", "approvals"}
# Conversation search, per database (pagechat_0005): FTS5 tables on SQLite, GIN indexes on
# PostgreSQL; made by the migration only, not in the ORM tables.
SEARCH_INDEXES = {"ix_messages_search", "ix_conversations_search"}


def _ours(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    # An application's tables share `Base`; its own migrations create them, not ours.
    if type_ == "index":
        return name not in SEARCH_INDEXES
    return type_ != "table" or name in PAGECHAT_TABLES


def _diff(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(
        connection, opts={"compare_type": True, "include_object": _ours}
    )
    return list(compare_metadata(context, Base.metadata))


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def test_upgrade_builds_exactly_the_declared_schema(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await upgrade_async(engine)
        async with engine.connect() as conn:
            tables = await conn.run_sync(_tables)
            diff = await conn.run_sync(_diff)
    finally:
        await engine.dispose()

    assert {*PAGECHAT_TABLES, "alembic_version"} <= tables
    assert diff == []


async def test_upgrading_twice_changes_nothing(database_url: str) -> None:
    heads = tuple(ScriptDirectory.from_config(alembic_config()).get_heads())

    await upgrade_async(database_url)
    await upgrade_async(database_url)

    assert await current_revisions(database_url) == heads


async def test_a_new_database_has_no_revision(database_url: str) -> None:
    assert await current_revisions(database_url) == ()
