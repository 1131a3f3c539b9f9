"""games and moves: the schema of the numbered migrations' version 1, as it was.

A database made before Alembic (``schema_version`` at 1) is stamped with this revision
instead of running it. Frozen: the tables are spelt out here, never taken from the models.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("phase", sa.String(20), nullable=False, index=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("black", sa.String(80), nullable=False),
        sa.Column("white", sa.String(80), nullable=False),
        sa.Column("opponent", sa.String(40), nullable=False),
        sa.Column("casual", sa.Boolean, nullable=False),
        sa.Column("move_count", sa.Integer, nullable=False),
        sa.Column("result_black", sa.Integer, nullable=True),
        sa.Column("result_white", sa.Integer, nullable=True),
        sa.Column("winner", sa.String(8), nullable=True),
        sa.Column("termination", sa.String(20), nullable=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
    )
    op.create_table(
        "moves",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("move", sa.String(8), nullable=False),
        sa.Column("seconds", sa.Float, nullable=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("games")
