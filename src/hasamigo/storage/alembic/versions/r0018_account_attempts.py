"""sign-in limits shared by every server, and trusted browsers (issue 67).

Two new tables: ``account_attempts`` (the failed sign-ins and the sign-ups the accounts'
limits count: a hashed key and an instant, pruned as they age), so that several server
processes and a restart see the same counts; and ``account_devices`` (the SHA-256 of each
browser's device cookie, bound to an account and deleted with it), whose sign-ins are not
held back by failures others made with the account's name.

The downgrade drops both (the counts and the trusted browsers are forgotten).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision: str | None = "0017"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "account_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Index("ix_account_attempts_key_at", "key", "at"),
    )
    op.create_table(
        "account_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("account_devices")
    op.drop_table("account_attempts")
