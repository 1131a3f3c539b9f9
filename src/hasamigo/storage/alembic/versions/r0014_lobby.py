"""lobby: open challenges and the waiting list of "play someone near my rating" (issue 67).

``lobby_challenges``: a challenge posted by an account (deleted with it), its game's
options, its state (open, accepted, cancelled, lapsed), who accepted it and the game made;
``lobby_waiting``: one row per waiting account, its rating when it began waiting, and its
partner and game once paired. Only new tables: the downgrade drops them.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "lobby_challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("poster_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("clock_minutes", sa.Float, nullable=True),
        sa.Column("days_per_move", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("colour", sa.String(12), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("state", sa.String(12), nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("acceptor_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "lobby_waiting",
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("partner_id", sa.String(32), nullable=True),
        sa.Column("paired_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("lobby_waiting")
    op.drop_table("lobby_challenges")
