"""variations: other moves tried from a game's positions, a tree of one move per row.

A row's parent is another row of the same game, or none: it branches off the main line,
played from the position after ``ply`` moves. ``parent_key`` repeats the parent's id (0
for none) so that one unique key refuses the same move twice under one parent on every
database (SQL's unique keys never match ``NULL``s). Deleting a row deletes its subtree
(``ON DELETE CASCADE``; the repository also deletes it explicitly), deleting the game
deletes the tree.

Only a new table: nothing existing changes, so the downgrade simply drops it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "variations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("parent_id", sa.Integer,
                  sa.ForeignKey("variations.id", ondelete="CASCADE"), nullable=True,
                  index=True),
        sa.Column("parent_key", sa.Integer, nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("move", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "parent_key", "ply", "move",
                            name="uq_variations_move"),
    )


def downgrade() -> None:
    op.drop_table("variations")
