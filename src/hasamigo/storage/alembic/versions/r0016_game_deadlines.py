"""game deadlines: when a correspondence game's side to move loses on time.

A correspondence game (``GameOptions.days_per_move``, issue 67) waits days for a move,
out of every server's memory; ``games.deadline`` (seconds since the epoch, as the
events' instants and the leases' expiries) is the instant the side to move's deadline
passes, ``NULL`` for every other game and for a correspondence game not waiting on a
move. It is rewritten with the game's summary at every append; its index lets every
server find the games whose deadline has passed with one small query
(:meth:`~hasamigo.storage.leases.LeaseRepository.orphan_games`), a server started after
one passed included.

Only a new nullable column and its index: every game stored before it is a game with a
chess clock or none (the option is new), so ``NULL`` is right for them all; the
downgrade drops both, in place (see below), the games' events and seats untouched.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision: str | None = "0015"
branch_labels: str | None = None
depends_on: str | None = None


# Plain ALTER TABLE, not a batch: SQLite's batch copies the table and drops the old
# one, and with foreign keys on, dropping ``games`` deletes every game's events and seats
# (ON DELETE CASCADE). SQLite adds and drops a plain column in place (3.35 and later).
def upgrade() -> None:
    op.add_column("games", sa.Column("deadline", sa.Float, nullable=True))
    op.create_index("ix_games_deadline", "games", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_games_deadline", table_name="games")
    op.drop_column("games", "deadline")
