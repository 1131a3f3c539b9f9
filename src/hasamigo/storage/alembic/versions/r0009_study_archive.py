"""study archive and withdrawals: when a study was archived, how many subjects withdrew.

An archived study is read-only (no new subjects, answers, moves or withdrawals) until its
researcher re-opens it; its report and exports still work. A subject who withdraws is
deleted with their games; the study keeps only the count, which its report and export
state. A study's protocol and surprise window live in its ``settings`` JSON (settings
without a ``protocol`` read as the extended protocol's), so they need no column.

Only new columns (``archived_at`` nullable, ``withdrawn`` 0 for the existing studies):
the downgrade drops them.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("studies") as batch:
        batch.add_column(sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("withdrawn", sa.Integer, nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("studies") as batch:
        batch.drop_column("withdrawn")
        batch.drop_column("archived_at")
