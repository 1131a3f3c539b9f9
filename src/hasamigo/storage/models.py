"""Tables, in SQLAlchemy 2's typed declarative style. API schemas live apart (web.schemas)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One game: searchable summary columns plus the controller state (JSON)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    phase: Mapped[str] = mapped_column(String(20), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    black: Mapped[str] = mapped_column(String(80), default="")
    white: Mapped[str] = mapped_column(String(80), default="")
    opponent: Mapped[str] = mapped_column(String(40), default="")
    casual: Mapped[bool] = mapped_column(default=True)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    result_black: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result_white: Mapped[int | None] = mapped_column(Integer, nullable=True)
    winner: Mapped[str | None] = mapped_column(String(8), nullable=True)
    termination: Mapped[str | None] = mapped_column(String(20), nullable=True)
    revision: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)

    moves: Mapped[list[MoveRow]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="MoveRow.ply"
    )


class MoveRow(Base):
    """One ply of a game (a forced pass is a ply), with the seconds charged for it."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    colour: Mapped[str] = mapped_column(String(8))
    move: Mapped[str] = mapped_column(String(8))
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    game: Mapped[GameRow] = relationship(back_populates="moves")


class SchemaVersion(Base):
    """The migrations applied (see :mod:`hasamigo.storage.migrations`)."""

    __tablename__ = "schema_version"

    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    applied_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
