"""ratings: each subject's current rating per pool, and every change a rated game made.

``ratings`` holds the current (mean, deviation, games) of a subject (``account:<id>`` or
``program:<spec>``) in a pool (``othello``, ``rolit``, ``multi4``); ``rating_changes`` one
row per (pool, game, subject) with the numbers before and after, unique so that a game is
never rated twice, even by two servers at once (the second insert fails and its
transaction writes nothing). Only new tables: the downgrade drops them.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("pool", sa.String(16), primary_key=True),
        sa.Column("subject", sa.String(80), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("game_ref", sa.String(120), nullable=False),
        sa.Column("subject", sa.String(80), nullable=False, index=True),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("games_after", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.UniqueConstraint("pool", "game_ref", "subject",
                            name="uq_rating_changes_game_subject"),
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
