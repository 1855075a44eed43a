"""messages.payload_decision: what the user did with an answer's card.

Revision ID: pagechat_0002
Revises: pagechat_0001
Create Date: 2025-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "pagechat_0002"
down_revision: str | Sequence[str] | None = "pagechat_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable, no default: every existing answer is undecided, and adding such a column
    # is a metadata-only change on both SQLite and PostgreSQL (no table rewrite).
    op.add_column("messages", sa.Column("payload_decision", sa.String(16), nullable=True))


def downgrade() -> None:
    # SQLite drops a column in place since 3.35 (Python's bundled SQLite is newer).
    op.drop_column("messages", "payload_decision")
