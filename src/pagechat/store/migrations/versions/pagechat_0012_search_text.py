"""messages.search_text: conversation search indexes what the user read.

An answer's content holds `[[tool:N]]` markers and ```` ```choices ```` blocks of JSON,
whose keys (`label`, `value`, `options`) matched a search although no user read them.
A finished answer whose content differs from what the user read keeps that text in
`search_text` (store/read_text.py); the indexes take `coalesce(search_text, content)`.
The rows already there are filled here, then SQLite's `messages_fts` is rebuilt from
them and PostgreSQL's GIN index is made again on the new expression.

Revision ID: pagechat_0012
Revises: pagechat_0011
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from pagechat.store.read_text import searchable_text

revision: str = "pagechat_0012"
down_revision: str | Sequence[str] | None = "pagechat_0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OWNER = "(SELECT owner_id FROM conversations WHERE id = new.conversation_id)"


def _sqlite_triggers(text_of: str, columns: str) -> tuple[str, ...]:
    """pagechat_0007's message triggers, indexing `text_of` (`new.` columns) whenever one
    of `columns` changes."""
    return (
        "DROP TRIGGER IF EXISTS messages_fts_insert",
        "DROP TRIGGER IF EXISTS messages_fts_update",
        "CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages "
        "WHEN new.status != 'running' BEGIN "
        "INSERT INTO messages_fts(rowid, content, owner_id) "
        f"VALUES (new.seq, {text_of}, {_OWNER}); END",
        f"CREATE TRIGGER messages_fts_update AFTER UPDATE OF {columns} ON messages BEGIN "
        "DELETE FROM messages_fts WHERE rowid = old.seq; "
        "INSERT INTO messages_fts(rowid, content, owner_id) "
        f"SELECT new.seq, {text_of}, {_OWNER} WHERE new.status != 'running'; END",
    )


def _sqlite_reindex(text_of: str) -> tuple[str, ...]:
    return (
        "DELETE FROM messages_fts",
        "INSERT INTO messages_fts(rowid, content, owner_id) "
        f"SELECT m.seq, {text_of}, c.owner_id FROM messages AS m "
        "JOIN conversations AS c ON c.id = m.conversation_id WHERE m.status != 'running'",
    )


_READ = "coalesce(new.search_text, new.content)"
_POSTGRES_INDEX = (
    "CREATE INDEX ix_messages_search ON messages USING gin "
    "(to_tsvector('simple'::regconfig, {text_of})) WHERE status <> 'running'"
)


def _fill() -> None:
    """search_text for the rows already there whose content is not what the user read."""
    bind = op.get_bind()
    messages = sa.table(
        "messages", sa.column("seq"), sa.column("content"), sa.column("search_text")
    )
    rows = bind.execute(
        sa.select(messages.c.seq, messages.c.content).where(
            sa.or_(
                messages.c.content.contains("```choices", autoescape=True),
                messages.c.content.contains("[[tool:", autoescape=True),
            )
        )
    ).all()
    values = [
        {"b_seq": seq, "b_text": text}
        for seq, content in rows
        if (text := searchable_text(content)) is not None
    ]
    if values:
        bind.execute(
            messages.update()
            .where(messages.c.seq == sa.bindparam("b_seq"))
            .values(search_text=sa.bindparam("b_text")),
            values,
        )


def upgrade() -> None:
    op.add_column("messages", sa.Column("search_text", sa.Text(), nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        for statement in _sqlite_triggers(_READ, "content, status, search_text"):
            op.execute(statement)
        _fill()
        for statement in _sqlite_reindex("coalesce(m.search_text, m.content)"):
            op.execute(statement)
    else:
        _fill()
        op.execute("DROP INDEX IF EXISTS ix_messages_search")
        op.execute(_POSTGRES_INDEX.format(text_of="coalesce(search_text, content)"))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for statement in (
            *_sqlite_triggers("new.content", "content, status"),
            *_sqlite_reindex("m.content"),
        ):
            op.execute(statement)
    else:
        op.execute("DROP INDEX IF EXISTS ix_messages_search")
        op.execute(_POSTGRES_INDEX.format(text_of="content"))
    op.drop_column("messages", "search_text")
