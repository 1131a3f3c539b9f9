"""game reviews: each move's best move, scores, disc loss and label, stored with the game.

One row per reviewed game: the search depth and exact-solve threshold it was made with,
the rows done so far as a JSON list in move order (appended one at a time, so a review
resumes where a crash or restart stopped it), their count, the status and when it last
changed.

Only a new table: nothing existing changes, so the downgrade simply drops it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("exact_empties", sa.Integer, nullable=False),
        sa.Column("moves", sa.JSON, nullable=False),
        sa.Column("reviewed", sa.Integer, nullable=False),
        sa.Column("status", sa.String(8), nullable=False, index=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
