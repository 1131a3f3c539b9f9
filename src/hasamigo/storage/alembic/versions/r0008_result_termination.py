"""result termination: how a tournament board's game ended, beside its card.

A tournament's result holds the game's :class:`~hasamigo.game.result.GameResult`, the
same value the game, ``hasamigo match`` and the web give; a card's counts and the
``forfeit`` flag do not say whether a stored game ended by a time-out, a resignation or
with both flags down. ``termination`` keeps it (``Termination.code``). Rows entered
before it have ``NULL``, read as before: ``forfeit`` or a normal end.

Only a new nullable column: the downgrade drops it.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_results") as batch:
        batch.add_column(sa.Column("termination", sa.String(20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_results") as batch:
        batch.drop_column("termination")
