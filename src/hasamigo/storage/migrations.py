"""Schema migrations, numbered and applied in order; each is frozen once released.

A migration is a function of a connection inside a transaction. The applied numbers are
kept in ``schema_version``. Migration 1 spells its tables out (rather than calling
``Base.metadata.create_all``) so later model changes cannot alter what it creates; a test
checks that the migrated schema matches :mod:`hasamigo.storage.models`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

Migration = Callable[[Connection], None]


def _initial(conn: Connection) -> None:
    meta = sa.MetaData()
    sa.Table(
        "games",
        meta,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("phase", sa.String(20), nullable=False, index=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("black", sa.String(80), nullable=False),
        sa.Column("white", sa.String(80), nullable=False),
        sa.Column("opponent", sa.String(40), nullable=False),
        sa.Column("casual", sa.Boolean, nullable=False),
        sa.Column("move_count", sa.Integer, nullable=False),
        sa.Column("result_black", sa.Integer, nullable=True),
        sa.Column("result_white", sa.Integer, nullable=True),
        sa.Column("winner", sa.String(8), nullable=True),
        sa.Column("termination", sa.String(20), nullable=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
    )
    sa.Table(
        "moves",
        meta,
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("move", sa.String(8), nullable=False),
        sa.Column("seconds", sa.Float, nullable=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
    )
    meta.create_all(conn)


MIGRATIONS: list[tuple[int, str, Migration]] = [
    (1, "games and moves", _initial),
]


def current_version(engine: Engine) -> int:
    with engine.connect() as conn:
        if not sa.inspect(conn).has_table("schema_version"):
            return 0
        value = conn.execute(sa.text("SELECT MAX(version) FROM schema_version")).scalar()
        return int(value or 0)


def migrate(engine: Engine) -> list[int]:
    """Apply the migrations not yet applied; returns their numbers."""
    applied = []
    with engine.begin() as conn:
        meta = sa.MetaData()
        table = sa.Table(
            "schema_version",
            meta,
            sa.Column("version", sa.Integer, primary_key=True),
            sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
        )
        meta.create_all(conn)
        done = {row[0] for row in conn.execute(sa.select(table.c.version))}
        for number, _title, step in MIGRATIONS:
            if number in done:
                continue
            step(conn)
            conn.execute(table.insert().values(version=number, applied_at=datetime.now(UTC)))
            applied.append(number)
    return applied
