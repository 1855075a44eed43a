"""Conversation search scoped to its owner inside the full-text index (SQLite).

pagechat_0005's FTS5 tables held only text, so a search matched every user's messages
and titles and only then kept the owner's. Here each row of `messages_fts` and
`conversations_fts` also holds the owner's id as an indexed column, and a search's
MATCH names it: the index intersects the words with the owner's rows itself.
`messages_fts` now keeps its own copy of the text (no external content), because an
external-content or contentless table needs a row's old values to delete it, and a
message's owner lives in another table that a cascade may already have emptied; a
row of its own is deleted by its rowid (the message's `seq`) alone.

PostgreSQL is unchanged: its GIN indexes are on the tables themselves, and the
planner joins them with the owner's index.

Revision ID: pagechat_0007
Revises: pagechat_0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "pagechat_0007"
down_revision: str | Sequence[str] | None = "pagechat_0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TOKENIZE = "tokenize = 'unicode61 remove_diacritics 0'"
_OWNER = "(SELECT owner_id FROM conversations WHERE id = new.conversation_id)"

_DROP = (
    "DROP TRIGGER IF EXISTS conversations_fts_delete",
    "DROP TRIGGER IF EXISTS conversations_fts_update",
    "DROP TRIGGER IF EXISTS conversations_fts_insert",
    "DROP TABLE IF EXISTS conversations_fts",
    "DROP TRIGGER IF EXISTS messages_fts_delete",
    "DROP TRIGGER IF EXISTS messages_fts_update",
    "DROP TRIGGER IF EXISTS messages_fts_insert",
    "DROP TABLE IF EXISTS messages_fts",
)
_CONVERSATION_TRIGGERS = (
    "CREATE TRIGGER conversations_fts_delete AFTER DELETE ON conversations BEGIN "
    "DELETE FROM conversations_fts WHERE conversation_id = old.id; END",
)

_UP = (
    *_DROP,
    f"CREATE VIRTUAL TABLE messages_fts USING fts5(content, owner_id, {_TOKENIZE})",
    "INSERT INTO messages_fts(rowid, content, owner_id) "
    "SELECT m.seq, m.content, c.owner_id FROM messages AS m "
    "JOIN conversations AS c ON c.id = m.conversation_id WHERE m.status != 'running'",
    "CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages "
    "WHEN new.status != 'running' BEGIN "
    f"INSERT INTO messages_fts(rowid, content, owner_id) VALUES (new.seq, new.content, {_OWNER}); "
    "END",
    "CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, status ON messages BEGIN "
    "DELETE FROM messages_fts WHERE rowid = old.seq; "
    "INSERT INTO messages_fts(rowid, content, owner_id) "
    f"SELECT new.seq, new.content, {_OWNER} WHERE new.status != 'running'; END",
    "CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN "
    "DELETE FROM messages_fts WHERE rowid = old.seq; END",
    f"CREATE VIRTUAL TABLE conversations_fts USING fts5("
    f"title, conversation_id UNINDEXED, owner_id, {_TOKENIZE})",
    "INSERT INTO conversations_fts(title, conversation_id, owner_id) "
    "SELECT title, id, owner_id FROM conversations",
    "CREATE TRIGGER conversations_fts_insert AFTER INSERT ON conversations BEGIN "
    "INSERT INTO conversations_fts(title, conversation_id, owner_id) "
    "VALUES (new.title, new.id, new.owner_id); END",
    "CREATE TRIGGER conversations_fts_update AFTER UPDATE OF title, owner_id ON conversations "
    "BEGIN DELETE FROM conversations_fts WHERE conversation_id = old.id; "
    "INSERT INTO conversations_fts(title, conversation_id, owner_id) "
    "VALUES (new.title, new.id, new.owner_id); END",
    *_CONVERSATION_TRIGGERS,
)

# pagechat_0005's tables, as that revision made them.
_DOWN = (
    *_DROP,
    f"CREATE VIRTUAL TABLE messages_fts USING fts5("
    f"content, content = 'messages', content_rowid = 'seq', {_TOKENIZE})",
    "INSERT INTO messages_fts(rowid, content) "
    "SELECT seq, content FROM messages WHERE status != 'running'",
    "CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages "
    "WHEN new.status != 'running' BEGIN "
    "INSERT INTO messages_fts(rowid, content) VALUES (new.seq, new.content); END",
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
    *_CONVERSATION_TRIGGERS,
)


def _run(statements: Sequence[str]) -> None:
    for statement in statements:
        op.execute(statement)


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _run(_UP)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _run(_DOWN)
