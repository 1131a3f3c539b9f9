"""Tables, in SQLAlchemy 2's typed declarative style. API schemas live apart (web.schemas).

A game is stored as exactly what it is: its setup (``games.setup``) and its events
(``game_events``, one row each, numbered from 1). The other columns of ``games`` are a
summary for the library, recomputed from the controller on every write and never read
back into a game. The migrations (``storage/alembic/versions``) spell these tables out
instead of importing them; a test checks that both agree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One game: its setup (JSON) and the library's summary of its events."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)  # GameSetup.to_json()
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(),
                                         index=True)
    creator: Mapped[str | None] = mapped_column(String(64), index=True)  # a client id
    # ---- the summary (see repository.summary_columns) ----
    phase: Mapped[str] = mapped_column(String(20), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    black: Mapped[str] = mapped_column(String(80))
    white: Mapped[str] = mapped_column(String(80))
    opponent: Mapped[str] = mapped_column(String(40))
    casual: Mapped[bool] = mapped_column(Boolean)
    move_count: Mapped[int] = mapped_column(Integer)
    result_black: Mapped[int | None] = mapped_column(Integer)
    result_white: Mapped[int | None] = mapped_column(Integer)
    winner: Mapped[str | None] = mapped_column(String(8))
    termination: Mapped[str | None] = mapped_column(String(20))
    event_count: Mapped[int] = mapped_column(Integer)
    program_to_move: Mapped[bool] = mapped_column(Boolean)


class GameEventRow(Base):
    """One event of a game (``seq`` from 1, no gaps); ``data`` is ``event_to_json``'s
    output, ``kind`` and ``at`` are copies of two of its fields for queries."""

    __tablename__ = "game_events"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(24))
    at: Mapped[float] = mapped_column(Float)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class GameSeatRow(Base):
    """A secret that acts for participants of a game: a player's token, or a join code
    (used once, then exchanged for a token). Only its SHA-256 is stored."""

    __tablename__ = "game_seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "token" | "join"
    participants: Mapped[str] = mapped_column(String(4))  # "0", "1" or "01"
    client: Mapped[str | None] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ServerRunRow(Base):
    """A server process's life (epoch seconds), so that the clock time of an outage (the
    gap between two runs) is not charged to the player on move."""

    __tablename__ = "server_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    started_at: Mapped[float] = mapped_column(Float)
    last_seen: Mapped[float] = mapped_column(Float)
    stopped_at: Mapped[float | None] = mapped_column(Float)


class LegacyGameRow(Base):
    """An old game (the pre-event state format) that could not be turned into valid
    events when the database was upgraded: kept as it was, with the reason."""

    __tablename__ = "legacy_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    state: Mapped[Any] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(Text)
