"""Horizon's migration branch: it builds the declared tables plus each database's search index."""

from __future__ import annotations

from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

from horizon.migrations import VERSION_LOCATIONS
from pagechat.store import Base, create_engine, upgrade_async
from pagechat.store.migrate import alembic_config, current_revisions

HORIZON_TABLES = {"research_streams", "reports", "report_articles", "articles"}
# Made by the migration only, per database: not in the ORM tables.
SEARCH_OBJECTS = {"articles_fts", "ix_articles_search_vector", "search_vector"}


def _declared(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    return name is None or not (name in SEARCH_OBJECTS or name.startswith("articles_fts"))


def _diff(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(
        connection, opts={"compare_type": True, "include_object": _declared}
    )
    return list(compare_metadata(context, Base.metadata))


def _names(connection: Connection) -> tuple[set[str], set[str]]:
    inspector = inspect(connection)
    tables = set(inspector.get_table_names())
    columns = {c["name"] for c in inspector.get_columns("articles")}
    return tables, columns


async def test_upgrade_builds_exactly_the_declared_schema(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await upgrade_async(engine, version_locations=VERSION_LOCATIONS)
        async with engine.connect() as conn:
            tables, columns = await conn.run_sync(_names)
            diff = await conn.run_sync(_diff)
    finally:
        await engine.dispose()

    assert HORIZON_TABLES | {"users", "conversations", "messages"} <= tables
    assert diff == []
    if database_url.startswith("sqlite"):
        assert "articles_fts" in tables and "search_vector" not in columns
    else:
        assert "articles_fts" not in tables and "search_vector" in columns


async def test_upgrading_twice_reaches_both_heads_and_changes_nothing(database_url: str) -> None:
    script = ScriptDirectory.from_config(alembic_config(version_locations=VERSION_LOCATIONS))

    await upgrade_async(database_url, version_locations=VERSION_LOCATIONS)
    first = await current_revisions(database_url)
    await upgrade_async(database_url, version_locations=VERSION_LOCATIONS)
    current = await current_revisions(database_url)

    # Horizon's branch depends on pagechat's first revision; both heads are applied.
    applied = {r.revision for r in script.iterate_revisions(current, "base")}
    assert set(script.get_heads()) == {"pagechat_0003", "horizon_0001"} <= applied
    assert current == first


async def test_the_branch_downgrades_cleanly_and_upgrades_again(database_url: str) -> None:
    cfg = alembic_config(version_locations=VERSION_LOCATIONS)
    engine = create_engine(database_url)

    def downgrade(connection: Connection) -> set[str]:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "horizon@base")
        return set(inspect(connection).get_table_names())

    try:
        await upgrade_async(engine, version_locations=VERSION_LOCATIONS)
        async with engine.begin() as conn:
            left = await conn.run_sync(downgrade)
        await upgrade_async(engine, version_locations=VERSION_LOCATIONS)
        async with engine.connect() as conn:
            again = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            count = (await conn.execute(text("SELECT count(*) FROM articles"))).scalar_one()
    finally:
        await engine.dispose()

    assert not left & (HORIZON_TABLES | {"articles_fts"})
    assert {"users", "conversations", "messages"} <= left
    assert again >= HORIZON_TABLES and count == 0
