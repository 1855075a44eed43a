"""Full-text search over conversation titles and message text.

SQLite: two FTS5 tables filled from the existing rows and kept current by
triggers (`messages_fts` reads its text from `messages` by `seq`;
`conversations_fts` holds titles). PostgreSQL: GIN indexes on the `simple`
text-search vectors of the same columns, built over the existing rows and kept
current by the database. A running answer is indexed once it ends.

Revision ID: pagechat_0005
Revises: pagechat_0004
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "pagechat_0005"
down_revision: str | Sequence[str] | None = "pagechat_0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# unicode61 without diacritic folding: lower-casing only, like PostgreSQL's `simple`.
_TOKENIZE = "tokenize = 'unicode61 remove_diacritics 0'"

_SQLITE_UP = (
    f"CREATE VIRTUAL TABLE messages_fts USING fts5("
    f"content, content = 'messages', content_rowid = 'seq', {_TOKENIZE})",
    "INSERT INTO messages_fts(rowid, content) "
    "SELECT seq, content FROM messages WHERE status != 'running'",
    "CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages "
    "WHEN new.status != 'running' BEGIN "
    "INSERT INTO messages_fts(rowid, content) VALUES (new.seq, new.content); END",
    # One trigger for both halves of an update, so the old entry always goes first.
    "CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, status ON messages BEGIN "
    "INSERT INTO messages_fts(messages_fts, rowid, content) "
    "SELECT 'delete', old.seq, old.content WHERE old.status != 'running'; "
    "INSERT INTO messages_fts(rowid, content) "
    "SELECT new.seq, new.content WHERE new.status != 'running'; END",
    "CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages "
    "WHEN old.status != 'running' BEGIN "
    "INSERT INTO messages_fts(messages_fts, rowid, content) "
    "VALUES ('delete', old.seq, old.content); END",
    f"CREATE VIRTUAL TABLE conversations_fts USING fts5("
    f"title, conversation_id UNINDEXED, {_TOKENIZE})",
    "INSERT INTO conversations_fts(title, conversation_id) SELECT title, id FROM conversations",
    "CREATE TRIGGER conversations_fts_insert AFTER INSERT ON conversations BEGIN "
    "INSERT INTO conversations_fts(title, conversation_id) VALUES (new.title, new.id); END",
    "CREATE TRIGGER conversations_fts_update AFTER UPDATE OF title ON conversations BEGIN "
    "DELETE FROM conversations_fts WHERE conversation_id = old.id; "
    "INSERT INTO conversations_fts(title, conversation_id) VALUES (new.title, new.id); END",
    "CREATE TRIGGER conversations_fts_delete AFTER DELETE ON conversations BEGIN "
    "DELETE FROM conversations_fts WHERE conversation_id = old.id; END",
)
_SQLITE_DOWN = (
    "DROP TRIGGER IF EXISTS conversations_fts_delete",
    "DROP TRIGGER IF EXISTS conversations_fts_update",
    "DROP TRIGGER IF EXISTS conversations_fts_insert",
    "DROP TABLE IF EXISTS conversations_fts",
    "DROP TRIGGER IF EXISTS messages_fts_delete",
    "DROP TRIGGER IF EXISTS messages_fts_update",
    "DROP TRIGGER IF EXISTS messages_fts_insert",
    "DROP TABLE IF EXISTS messages_fts",
)
_POSTGRES_UP = (
    "CREATE INDEX ix_messages_search ON messages "
    "USING gin (to_tsvector('simple'::regconfig, content)) WHERE status <> 'running'",
    "CREATE INDEX ix_conversations_search ON conversations "
    "USING gin (to_tsvector('simple'::regconfig, title))",
)
_POSTGRES_DOWN = (
    "DROP INDEX IF EXISTS ix_conversations_search",
    "DROP INDEX IF EXISTS ix_messages_search",
)


def _run(statements: Sequence[str]) -> None:
    for statement in statements:
        op.execute(statement)


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _run(_SQLITE_UP)
    else:
        _run(_POSTGRES_UP)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _run(_SQLITE_DOWN)
    else:
        _run(_POSTGRES_DOWN)
