"""approvals.kind and approvals.result: a paused turn may wait for an AG-UI client to run
a frontend tool (`frontend_tool`), not only for the user's approval (`approval`); the
client's result is kept with it.

Revision ID: pagechat_0006
Revises: pagechat_0005
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "pagechat_0006"
down_revision: str | Sequence[str] | None = "pagechat_0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.add_column(
        "approvals",
        sa.Column("kind", sa.String(16), nullable=False, server_default="approval"),
    )
    op.add_column("approvals", sa.Column("result", _JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("approvals") as batch:
        batch.drop_column("result")
        batch.drop_column("kind")
