"""accounts: people who come back (issue 67).

Two new tables, ``accounts`` (a name, its case-folded key, unique, and the password's
hash) and ``account_sessions`` (the SHA-256 of each signed-in browser's token), and a
nullable ``game_seats.account_id``: the account holding a seat, set to NULL when the
account is deleted (the seat and its game stay, for the opponent).

The downgrade drops the column and the tables (the accounts are lost with them).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("game_seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
        batch.create_foreign_key("fk_game_seats_account_id", "accounts", ["account_id"],
                                 ["id"], ondelete="SET NULL")
        batch.create_index("ix_game_seats_account_id", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_index("ix_game_seats_account_id")
        batch.drop_constraint("fk_game_seats_account_id", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
