"""Messages form a tree: messages.parent_id, conversations.active_leaf_id; message_feedback.

Every existing conversation becomes a chain: each message's parent is the message
before it (by `seq`), and the active leaf is the newest message, so the model and a
reload see exactly what they saw before.

Revision ID: pagechat_0003
Revises: pagechat_0002
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "pagechat_0003"
down_revision: str | Sequence[str] | None = "pagechat_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BigSerial = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.add_column("messages", sa.Column("parent_id", sa.String(32), nullable=True))
    op.add_column("conversations", sa.Column("active_leaf_id", sa.String(32), nullable=True))
    # Correlated subqueries on the (conversation_id, seq) index: portable, one pass each.
    op.execute(
        """
        UPDATE messages SET parent_id = (
            SELECT earlier.id FROM messages AS earlier
            WHERE earlier.conversation_id = messages.conversation_id
              AND earlier.seq < messages.seq
            ORDER BY earlier.seq DESC LIMIT 1
        )
        """
    )
    op.execute(
        """
        UPDATE conversations SET active_leaf_id = (
            SELECT newest.id FROM messages AS newest
            WHERE newest.conversation_id = conversations.id
            ORDER BY newest.seq DESC LIMIT 1
        )
        """
    )
    op.create_table(
        "message_feedback",
        sa.Column("id", _BigSerial, autoincrement=True, nullable=False),
        sa.Column("message_id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("rating", sa.String(8), nullable=False),
        sa.Column("comment", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["messages.id"],
            name="fk_message_feedback_message_id_messages",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_message_feedback_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_message_feedback"),
        sa.UniqueConstraint("message_id", "user_id", name="uq_message_feedback_message_id"),
    )


def downgrade() -> None:
    op.drop_table("message_feedback")
    op.drop_column("conversations", "active_leaf_id")
    op.drop_column("messages", "parent_id")
