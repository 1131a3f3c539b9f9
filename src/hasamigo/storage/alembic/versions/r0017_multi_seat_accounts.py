"""multi-player seats by account: the account holding each seat of a Rolit or
4-player game, and whether the game is rated (issue 67).

A new table ``multi_game_seats`` (a game, a seat's colour, the account holding it;
``NULL`` once the account is deleted, the game kept for the others) and a column
``multi_games.rated`` (false for every game stored before it: the option is new). The
seats' tokens stay in ``multi_games.secrets``, the one proof of a seat for every move.

The downgrade drops both (the games stay, anonymous as before).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision: str | None = "0016"
branch_labels: str | None = None
depends_on: str | None = None


# A plain ADD COLUMN, not a batch: SQLite adds and drops a column in place, where a batch
# would copy ``multi_games`` and drop the old table.
def upgrade() -> None:
    op.add_column("multi_games", sa.Column("rated", sa.Boolean, nullable=False,
                                           server_default=sa.false()))
    op.create_table(
        "multi_game_seats",
        sa.Column("game_id", sa.String(32),
                  sa.ForeignKey("multi_games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("colour", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="SET NULL",
                                name="fk_multi_game_seats_account_id"),
                  nullable=True, index=True),
    )


def downgrade() -> None:
    op.drop_table("multi_game_seats")
    op.drop_column("multi_games", "rated")
