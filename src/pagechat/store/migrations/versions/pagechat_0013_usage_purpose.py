"""turn_usage.purpose: a conversation-title call's tokens counted beside the answers'.

Existing rows are answers; a title call (chat/titles.py) gets a row of its own, under an
id of its own, with purpose "title".

Revision ID: pagechat_0013
Revises: pagechat_0012
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "pagechat_0013"
down_revision: str | Sequence[str] | None = "pagechat_0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A constant default: metadata-only on PostgreSQL 11+ and SQLite (no table rewrite).
    op.add_column(
        "turn_usage",
        sa.Column("purpose", sa.String(16), nullable=False, server_default=sa.text("'answer'")),
    )


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM turn_usage WHERE purpose <> 'answer'"))
    op.drop_column("turn_usage", "purpose")
