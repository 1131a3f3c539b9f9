"""tournaments: entrants, rounds, pairings, results and the audit log of every change.

A tournament is stored as its facts (see :mod:`hasamigo.tournament.model`): its settings,
its entrants (numbered in the order of registration), each paired round with its
pairings and the reasons they were chosen, the newest result of each board, and an
audit log (who, when, what before and after, why) of every change, corrections
included. The tournament's state is rebuilt from them, so nothing else is stored.

Only new tables: nothing existing changes, so the downgrade simply drops them.

Revision ID: 0003
Revises: 0002
Create Date: 2025-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("format", sa.String(24), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(32),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("rank", sa.String(16), nullable=True),
        sa.Column("birth_year", sa.Integer, nullable=True),
        sa.Column("woman", sa.Boolean, nullable=False),
        sa.Column("seed", sa.Boolean, nullable=False),
        sa.Column("division", sa.String(24), nullable=True),
        sa.Column("program", sa.String(40), nullable=True),
        sa.Column("withdrawn_from", sa.Integer, nullable=True),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.String(32),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("paired_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("stage", sa.String(16), nullable=False),
        sa.Column("player_a", sa.Integer, nullable=False),
        sa.Column("player_b", sa.Integer, nullable=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("colours", sa.String(12), nullable=False),
        sa.Column("why", sa.JSON, nullable=False),
        sa.ForeignKeyConstraint(["tournament_id", "round"],
                                ["tournament_rounds.tournament_id", "tournament_rounds.number"],
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tournament_id", "player_a"],
                                ["tournament_entrants.tournament_id",
                                 "tournament_entrants.number"],
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tournament_id", "player_b"],
                                ["tournament_entrants.tournament_id",
                                 "tournament_entrants.number"],
                                ondelete="CASCADE"),
    )
    op.create_table(
        "tournament_results",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("black", sa.Integer, nullable=False),
        sa.Column("white", sa.Integer, nullable=False),
        sa.Column("black_discs", sa.Integer, nullable=False),
        sa.Column("white_discs", sa.Integer, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("forfeit", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("draw_win", sa.Integer, nullable=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("entered_by", sa.String(80), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id", "round", "board"],
                                ["tournament_pairings.tournament_id",
                                 "tournament_pairings.round", "tournament_pairings.board"],
                                ondelete="CASCADE"),
    )
    op.create_table(
        "tournament_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(32),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("who", sa.String(80), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("board", sa.Integer, nullable=True),
        sa.Column("before", sa.JSON, nullable=True),
        sa.Column("after", sa.JSON, nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
    )


def downgrade() -> None:
    for table in ("tournament_audit", "tournament_results", "tournament_pairings",
                  "tournament_rounds", "tournament_entrants", "tournaments"):
        op.drop_table(table)
