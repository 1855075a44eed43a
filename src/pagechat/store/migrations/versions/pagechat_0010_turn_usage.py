"""The turn_usage table: the tokens each answer used, for the admins' usage figures.

One row per answer (its message id), written when the answer ends, kept when the
conversation is deleted; by user, model and UTC day, with the prompt-cache counts apart.

Revision ID: pagechat_0010
Revises: pagechat_0009
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "pagechat_0010"
down_revision: str | Sequence[str] | None = "pagechat_0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "turn_usage",
        sa.Column("message_id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("input_tokens", sa.BigInteger(), nullable=False),
        sa.Column("output_tokens", sa.BigInteger(), nullable=False),
        sa.Column("cache_read_tokens", sa.BigInteger(), nullable=False),
        sa.Column("cache_write_tokens", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_turn_usage_user_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("message_id", name="pk_turn_usage"),
    )
    op.create_index("ix_turn_usage_day", "turn_usage", ["day"])
    op.create_index("ix_turn_usage_user_id", "turn_usage", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_turn_usage_user_id", table_name="turn_usage")
    op.drop_index("ix_turn_usage_day", table_name="turn_usage")
    op.drop_table("turn_usage")
