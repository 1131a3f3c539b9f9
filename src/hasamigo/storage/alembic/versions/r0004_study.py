"""the user study: studies, subjects, the subjects' games and the engine's evaluations.

A study's subjects play ordinary stored games whose answers are events of the games
(``study-answer``); these tables hold the study's settings and the researcher's password
hash, each subject's code, counterbalanced order and questionnaires, which stored game is
which of the subject's (with the after-game answer), and the evaluations computed in the
background after the answers.

Only new tables: nothing existing changes, so the downgrade simply drops them.

Revision ID: 0004
Revises: 0003
Create Date: 2025-03-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "studies",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "study_subjects",
        sa.Column("study_id", sa.String(32),
                  sa.ForeignKey("studies.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("order", sa.JSON, nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("consented_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("before", sa.JSON, nullable=True),
        sa.Column("after", sa.JSON, nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("study_id", "number", name="uq_study_subject_number"),
    )
    op.create_table(
        "study_games",
        sa.Column("study_id", sa.String(32), primary_key=True),
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("index", sa.Integer, primary_key=True),
        sa.Column("program", sa.String(40), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False, unique=True),
        sa.Column("felt", sa.Integer, nullable=True),
        sa.Column("felt_note", sa.Text, nullable=True),
        sa.ForeignKeyConstraint(["study_id", "code"],
                                ["study_subjects.study_id", "study_subjects.code"],
                                ondelete="CASCADE"),
    )
    op.create_table(
        "study_evaluations",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("move_number", sa.Integer, primary_key=True),
        sa.Column("evaluation", sa.Float, nullable=False),
        sa.Column("exact", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    for table in ("study_evaluations", "study_games", "study_subjects", "studies"):
        op.drop_table(table)
