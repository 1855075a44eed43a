"""messages.run_epoch: the database fences a slow old owner of a taken-over run.

An answer's checkpoints and end carry their run's takeover epoch (`RunFence`); a write
lands only while the answer still belongs to that run and no newer owner has written it.

Revision ID: pagechat_0011
Revises: pagechat_0010
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "pagechat_0011"
# After main's pagechat_0010 (turn_usage); 0009 is another branch's (sessions): whichever
# merges later is chained after the other.
down_revision: str | Sequence[str] | None = "pagechat_0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A constant default: metadata-only on PostgreSQL 11+ and SQLite (no table rewrite);
    # every existing answer was written by its first owner.
    op.add_column(
        "messages",
        sa.Column("run_epoch", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )


def downgrade() -> None:
    op.drop_column("messages", "run_epoch")
