"""An index on messages (conversation_id, parent_id, seq): a message's siblings.

A page of a conversation counts each of its messages' siblings (the messages sharing its
parent, in the order they were written) instead of reading the whole tree
(store/paths.py); this index answers each count with a short range scan, for a root
(parent_id IS NULL) as for any other message.

Revision ID: pagechat_0008
Revises: pagechat_0007
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "pagechat_0008"
down_revision: str | Sequence[str] | None = "pagechat_0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_messages_conversation_parent_seq",
        "messages",
        ["conversation_id", "parent_id", "seq"],
    )


def downgrade() -> None:
    op.drop_index("ix_messages_conversation_parent_seq", table_name="messages")
