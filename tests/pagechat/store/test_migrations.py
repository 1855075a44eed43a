"""Migrations: they build the schema the tables describe, and running them again is harmless."""

from __future__ import annotations

from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

from pagechat.store import Base, create_engine, upgrade_async
from pagechat.store.migrate import alembic_config, current_revisions

PAGECHAT_TABLES = {
    "users",
    "conversations",
    "messages",
    "message_feedback",
    "approvals",
    "auth_sessions",
    "api_keys",
}
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


async def test_the_sessions_migration_downgrades_and_upgrades_again_keeping_the_data(
    database_url: str,
) -> None:
    cfg = alembic_config()
    engine = create_engine(database_url)

    def downgrade(connection: Connection) -> tuple[set[str], set[str]]:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "pagechat_0008")
        found = inspect(connection)
        return set(found.get_table_names()), {c["name"] for c in found.get_columns("users")}

    try:
        await upgrade_async(engine)
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO users (id, email, password_hash, is_admin, created_at) "
                    "VALUES ('u1', 'a@example.com', 'h', false, CURRENT_TIMESTAMP)"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO conversations (id, owner_id, title, created_at, updated_at) "
                    "VALUES ('c1', 'u1', 'kept', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                )
            )
        async with engine.begin() as conn:
            tables, columns = await conn.run_sync(downgrade)
        await upgrade_async(engine)
        async with engine.connect() as conn:
            again = await conn.run_sync(_tables)
            diff = await conn.run_sync(_diff)
            users = (await conn.execute(text("SELECT email FROM users"))).scalars().all()
            titles = (await conn.execute(text("SELECT title FROM conversations"))).scalars().all()
    finally:
        await engine.dispose()

    assert not tables & {"auth_sessions", "api_keys"} and "disabled_at" not in columns
    assert {"auth_sessions", "api_keys"} <= again and diff == []
    assert users == ["a@example.com"] and titles == ["kept"]  # nothing cascaded away
