"""tournament penalties and eligibility: a penalty loss's reason, an entrant's birth date,
student status and school year.

JOF rule 21 lets the arbiter declare a loss by penalty (反則負け); the board's result says
so by its termination (``penalty``) and keeps the reason given (``reason``). A division's
eligibility (the master division's 40 and over on the tournament's date, the student and
elementary divisions) is read from the entrant's ``born`` (ISO date), ``student`` and
``school_year``. All new nullable columns: older rows read as before; the downgrade drops
them.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_results") as batch:
        batch.add_column(sa.Column("reason", sa.Text(), nullable=True))
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.add_column(sa.Column("born", sa.String(10), nullable=True))
        batch.add_column(sa.Column("student", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("school_year", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.drop_column("school_year")
        batch.drop_column("student")
        batch.drop_column("born")
    with op.batch_alter_table("tournament_results") as batch:
        batch.drop_column("reason")
