"""multi games: games of three and four players (Rolit, 4人対戦オセロ) in the web app.

A multi-player game is not a two-player game's setup and events (its rows name Black and
White): it has a table of its own, ``multi_games``, holding the rules' name, the seats
(colours, names, programs) in turn order, the hashes of the seats' tokens and join codes,
the moves as text, a write counter and the result once over.

Only a new table: nothing existing changes, so the downgrade simply drops it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "multi_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("secrets", sa.JSON, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("result", sa.String(80), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("multi_games")
