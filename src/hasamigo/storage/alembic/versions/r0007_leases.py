"""leases: which server process runs a game's clock and programs.

Several server processes may share one database (``hasamigo serve --workers N``, or
several servers behind a proxy). Each game in play has one owner, a row here naming the
owner's server run and when its lease ends; the owner renews it with its heartbeat, and
another process takes the game over once it has expired (its owner died).

Only a new table: nothing existing changes, so the downgrade simply drops it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "game_leases",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("owner", sa.Integer, nullable=False, index=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_leases")
