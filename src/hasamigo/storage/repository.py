"""Reading and writing games. Every write is one transaction: the state and the move rows
it adds or removes are committed together, so a committed move is never half-stored."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select

from hasamigo.game.controller import GameController
from hasamigo.move import BLACK, WHITE
from hasamigo.storage.db import Database
from hasamigo.storage.models import GameRow, MoveRow


@dataclass(frozen=True, slots=True)
class MoveEntry:
    ply: int
    colour: str
    move: str
    seconds: float | None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A line of the game library."""

    id: str
    created_at: datetime
    updated_at: datetime
    phase: str
    variant: str
    black: str
    white: str
    opponent: str
    casual: bool
    move_count: int
    result_black: int | None
    result_white: int | None
    winner: str | None
    termination: str | None


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: str
    state: dict[str, Any]
    moves: list[MoveEntry]


def _summary(row: GameRow) -> GameSummary:
    return GameSummary(
        row.id, row.created_at, row.updated_at, row.phase, row.variant, row.black,
        row.white, row.opponent, row.casual, row.move_count, row.result_black,
        row.result_white, row.winner, row.termination,
    )


def _fill(row: GameRow, game: GameController, now: datetime) -> None:
    state = game.to_dict()
    row.updated_at = now
    row.phase = game.phase.value
    row.variant = game.board.name
    if game.seats is not None:
        row.black, row.white = game.seat(BLACK).name, game.seat(WHITE).name
    row.opponent = next((p.program for p in game.participants if p.program), None) or "person"
    row.casual = game.options.casual
    row.move_count = len(game.history)
    row.revision = game.revision
    if game.result is not None:
        r = game.result
        row.result_black, row.result_white = r.black, r.white
        row.winner = None if r.winner is None else r.winner.value
        row.termination = r.termination.name.lower()
    row.state = state


def _entries(game: GameController) -> list[MoveEntry]:
    return [
        MoveEntry(ply, m.colour.value, game.board.move_name(m.move), m.seconds)
        for ply, m in enumerate(game.history)
    ]


class GameRepository:
    """Games in a :class:`~hasamigo.storage.db.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, game_id: str, game: GameController) -> list[MoveEntry]:
        now = datetime.now(UTC)
        entries = _entries(game)
        with self.db.session() as session, session.begin():
            row = GameRow(id=game_id, created_at=now)
            _fill(row, game, now)
            session.add(row)
            session.flush()
            session.add_all(
                MoveRow(game_id=game_id, ply=e.ply, colour=e.colour, move=e.move,
                        seconds=e.seconds, played_at=now)
                for e in entries
            )
        return entries

    def save(self, game_id: str, game: GameController, stored: list[MoveEntry]
             ) -> list[MoveEntry]:
        """Commit ``game``'s state; ``stored`` are the move rows known to be in the
        database. Rows past the common prefix are replaced (undo). Returns the new rows."""
        now = datetime.now(UTC)
        entries = _entries(game)
        keep = 0
        for old, new in zip(stored, entries, strict=False):
            if old != new:
                break
            keep += 1
        with self.db.session() as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is None:
                raise KeyError(game_id)
            _fill(row, game, now)
            if keep < len(stored):
                session.execute(
                    delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= keep)
                )
            session.add_all(
                MoveRow(game_id=game_id, ply=e.ply, colour=e.colour, move=e.move,
                        seconds=e.seconds, played_at=now)
                for e in entries[keep:]
            )
        return entries

    def load(self, game_id: str) -> StoredGame | None:
        with self.db.session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            moves = session.scalars(
                select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
            ).all()
            return StoredGame(
                row.id,
                dict(row.state),
                [MoveEntry(m.ply, m.colour, m.move, m.seconds) for m in moves],
            )

    def summaries(self, *, limit: int = 100, offset: int = 0, phase: str | None = None
             ) -> list[GameSummary]:
        with self.db.session() as session:
            query = select(GameRow).order_by(GameRow.updated_at.desc()).limit(limit)
            if phase is not None:
                query = query.where(GameRow.phase == phase)
            return [_summary(r) for r in session.scalars(query.offset(offset))]

    def active_ids(self) -> list[str]:
        with self.db.session() as session:
            return list(session.scalars(select(GameRow.id).where(GameRow.phase != "over")))

    def count(self) -> int:
        with self.db.session() as session:
            return int(session.scalar(select(func.count()).select_from(GameRow)) or 0)
