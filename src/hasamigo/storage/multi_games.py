"""Reading and writing multi-player games (table ``multi_games``, revision 0011).

A game of three or four players (:mod:`hasamigo.multi`) is stored as what it is: the
rules' name, the seats in turn order, the hashes of its seats' secrets and the moves as
text. Every change is a compare-and-set on ``version`` (:meth:`MultiGameRepository.save`):
a writer that read an older version changes nothing and gets
:class:`~hasamigo.storage.games.ConcurrentWrite`, so two moves (or two join codes) never
both land on the same position, and a move the caller was told about is committed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import update

from hasamigo.storage.db import Database
from hasamigo.storage.games import ConcurrentWrite
from hasamigo.storage.models import MultiGameRow
from hasamigo.storage.rows import aware, rowcount


@dataclass(frozen=True, slots=True)
class MultiSeat:
    """A seat: its colour's index (:data:`hasamigo.multi.MultiRules.colours`), the
    player's name, and the program's spec (``None`` for a person)."""

    colour: int
    name: str
    program: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "name": self.name, "program": self.program}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MultiSeat:
        return cls(int(data["colour"]), str(data["name"]), data.get("program"))


@dataclass(frozen=True, slots=True)
class MultiSecret:
    """A secret acting for ``colours``: a seat ``token``, or a ``join`` code exchanged
    once for a token (``used``). Only its hash (the caller's
    :func:`~hasamigo.storage.secrets.secret_hash`) is stored."""

    kind: Literal["token", "join"]
    hash: str
    colours: tuple[int, ...]
    used: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "hash": self.hash, "colours": list(self.colours),
                "used": self.used}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MultiSecret:
        kind: Literal["token", "join"] = "join" if data["kind"] == "join" else "token"
        return cls(kind, str(data["hash"]), tuple(int(c) for c in data["colours"]),
                   bool(data.get("used")))


@dataclass(frozen=True, slots=True)
class StoredMultiGame:
    """A multi-player game as stored; ``moves`` are square names or ``PA``."""

    id: str
    game: str
    seats: tuple[MultiSeat, ...]
    secrets: tuple[MultiSecret, ...]
    moves: tuple[str, ...] = ()
    version: int = 1
    result: str | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    updated_at: datetime = field(default_factory=lambda: datetime.now(UTC))


def _stored(row: MultiGameRow) -> StoredMultiGame:
    return StoredMultiGame(
        row.id, row.game, tuple(MultiSeat.from_json(s) for s in row.seats),
        tuple(MultiSecret.from_json(s) for s in row.secrets), tuple(row.moves.split()),
        row.version, row.result, aware(row.created_at), aware(row.updated_at))


class MultiGameRepository:
    """Multi-player games in a :class:`~hasamigo.storage.db.Database` (see the module
    docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, game: StoredMultiGame) -> None:
        """Store a new game (its ``version`` as given, 1 for a new one)."""
        with self.db.session() as session, session.begin():
            session.add(MultiGameRow(
                id=game.id, game=game.game, seats=[s.to_json() for s in game.seats],
                secrets=[s.to_json() for s in game.secrets], moves=" ".join(game.moves),
                version=game.version, result=game.result, created_at=game.created_at,
                updated_at=game.updated_at))

    def get(self, game_id: str) -> StoredMultiGame | None:
        with self.db.session() as session:
            row = session.get(MultiGameRow, game_id)
            return None if row is None else _stored(row)

    def save(self, game: StoredMultiGame, *, moves: tuple[str, ...] | None = None,
             secrets: tuple[MultiSecret, ...] | None = None,
             result: str | None = None) -> StoredMultiGame:
        """Write the moves, secrets and result given (the others as they are) over
        ``game`` as read, if no one wrote since; the game as now stored. Raises
        :class:`ConcurrentWrite` (nothing written) if its version moved on, ``KeyError``
        if it is gone."""
        now = datetime.now(UTC)
        values: dict[str, Any] = {"version": game.version + 1, "updated_at": now}
        if moves is not None:
            values["moves"] = " ".join(moves)
        if secrets is not None:
            values["secrets"] = [s.to_json() for s in secrets]
        if result is not None:
            values["result"] = result
        with self.db.session() as session, session.begin():
            changed = session.execute(
                update(MultiGameRow)
                .where(MultiGameRow.id == game.id, MultiGameRow.version == game.version)
                .values(**values).execution_options(synchronize_session=False))
            if rowcount(changed) == 0:
                if session.get(MultiGameRow, game.id) is None:
                    raise KeyError(game.id)
                raise ConcurrentWrite(f"multi-player game {game.id} changed meanwhile")
        stored = self.get(game.id)
        if stored is None:  # pragma: no cover - deleted between the two transactions
            raise KeyError(game.id)
        return stored


__all__ = ["MultiGameRepository", "MultiSeat", "MultiSecret", "StoredMultiGame"]
