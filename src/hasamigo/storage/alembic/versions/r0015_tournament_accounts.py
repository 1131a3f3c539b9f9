"""tournaments by account (issue 67): an entrant who registered with an account, and the
rating the tournament took for seeding.

``tournament_entrants.account_id``: the account that entered itself (``NULL``: a name the
director entered), set to NULL when the account is deleted (the entrant stays, as a name,
for the opponents' games and the standings); unique with the tournament, so that an
account enters a tournament once even when two servers take its two requests at once.
``tournament_entrants.rating``: the account's Othello rating as shown and seeded
(``NULL``: unrated). New nullable columns: older rows read as before; the downgrade drops
them.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision: str | None = "0014"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("rating", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_tournament_entrants_account_id", "accounts",
                                 ["account_id"], ["id"], ondelete="SET NULL")
        batch.create_index("uq_tournament_entrants_account", ["account_id", "tournament_id"],
                           unique=True)


def downgrade() -> None:
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.drop_index("uq_tournament_entrants_account")
        batch.drop_constraint("fk_tournament_entrants_account_id", type_="foreignkey")
        batch.drop_column("rating")
        batch.drop_column("account_id")
