"""attachments, attachment_chunks and attachment_uploads: files users upload for the
assistant to read, their bytes (database storage) and each day's uploaded bytes.

Revision ID: pagechat_0012
Revises: pagechat_0011
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "pagechat_0012"
down_revision: str | Sequence[str] | None = "pagechat_0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "attachments",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("conversation_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("media_type", sa.String(100), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_attachments_user_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_attachments"),
    )
    op.create_index("ix_attachments_user_created", "attachments", ["user_id", "created_at"])
    op.create_index("ix_attachments_conversation", "attachments", ["conversation_id"])
    op.create_table(
        "attachment_chunks",
        sa.Column("attachment_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("attachment_id", "seq", name="pk_attachment_chunks"),
    )
    op.create_table(
        "attachment_uploads",
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("bytes", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_attachment_uploads_user_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "day", name="pk_attachment_uploads"),
    )


def downgrade() -> None:
    op.drop_table("attachment_uploads")
    op.drop_table("attachment_chunks")
    op.drop_index("ix_attachments_conversation", table_name="attachments")
    op.drop_index("ix_attachments_user_created", table_name="attachments")
    op.drop_table("attachments")
