"""Reading and writing multi-player games (table ``multi_games``, revision 0011).

A game of three or four players (:mod:`hasamigo.multi`) is stored as what it is: the
rules' name, the seats in turn order, the hashes of its seats' secrets and the moves as
text. Every change is a compare-and-set on ``version`` (:meth:`MultiGameRepository.save`):
a writer that read an older version changes nothing and gets
:class:`~hasamigo.storage.games.ConcurrentWrite`, so two moves (or two join codes) never
both land on the same position, and a move the caller was told about is committed.

A seat may be held by an account (table ``multi_game_seats``, revision 0017, issue 67):
written in the same transaction as the game or the seat's join, ``NULL`` once the
account is deleted. The token stays the proof of a seat; the account may add a fresh
token of its own seat (:meth:`MultiGameRepository.save` with ``secrets``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from hasamigo.storage.db import Database
from hasamigo.storage.games import ConcurrentWrite
from hasamigo.storage.models import MultiGameRow, MultiGameSeatRow
from hasamigo.storage.rows import aware, rowcount

#: the program that plays a seat left by a deleted account while other people still play
#: (:meth:`MultiGameRepository.forget_account`): a legal move at random, favouring nobody
LEFT_SEAT_PROGRAM = "random"


@dataclass(frozen=True, slots=True)
class MultiSeat:
    """A seat: its colour's index (:data:`hasamigo.multi.MultiRules.colours`), the
    player's name, and the program's spec (``None`` for a person). ``left``: its person
    deleted their account before the game ended (its turns then played by
    :data:`LEFT_SEAT_PROGRAM`, or by nobody when no other person plays)."""

    colour: int
    name: str
    program: str | None = None
    left: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"colour": self.colour, "name": self.name,
                                "program": self.program}
        if self.left:
            data["left"] = True
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MultiSeat:
        return cls(int(data["colour"]), str(data["name"]), data.get("program"),
                   bool(data.get("left", False)))


@dataclass(frozen=True, slots=True)
class MultiSecret:
    """A secret acting for ``colours``: a seat ``token``, or a ``join`` code exchanged
    once for a token (``used``). Only its hash (the caller's
    :func:`~hasamigo.storage.secrets.secret_hash`) is stored."""

    kind: Literal["token", "join"]
    hash: str
    colours: tuple[int, ...]
    used: bool = False
    #: the account a token was given to (a signed-in person's), so that an account's
    #: older tokens can end; ``None`` for an anonymous one
    account: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "hash": self.hash,
                                "colours": list(self.colours), "used": self.used}
        if self.account is not None:
            data["account"] = self.account
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MultiSecret:
        kind: Literal["token", "join"] = "join" if data["kind"] == "join" else "token"
        account = data.get("account")
        return cls(kind, str(data["hash"]), tuple(int(c) for c in data["colours"]),
                   bool(data.get("used")), None if account is None else str(account))


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
    #: rated once over (issue 67: every seat held by a different account)
    rated: bool = False
    #: the accounts holding seats: ``(colour, account id)`` by colour
    accounts: tuple[tuple[int, str], ...] = ()

    def holder(self, colour: int) -> str | None:
        """The account holding seat ``colour``, if any."""
        return next((a for c, a in self.accounts if c == colour), None)


def _stored(row: MultiGameRow, accounts: list[tuple[int, str]]) -> StoredMultiGame:
    return StoredMultiGame(
        row.id, row.game, tuple(MultiSeat.from_json(s) for s in row.seats),
        tuple(MultiSecret.from_json(s) for s in row.secrets), tuple(row.moves.split()),
        row.version, row.result, aware(row.created_at), aware(row.updated_at),
        bool(row.rated), tuple(sorted(accounts)))


def _accounts(session: Session, game_id: str) -> list[tuple[int, str]]:
    return [(colour, account) for colour, account in session.execute(
        select(MultiGameSeatRow.colour, MultiGameSeatRow.account_id).where(
            MultiGameSeatRow.game_id == game_id)) if account is not None]


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
                updated_at=game.updated_at, rated=game.rated))
            session.flush()
            for colour, account in game.accounts:
                session.add(MultiGameSeatRow(game_id=game.id, colour=colour,
                                             account_id=account))

    def get(self, game_id: str) -> StoredMultiGame | None:
        with self.db.session() as session:
            row = session.get(MultiGameRow, game_id)
            return None if row is None else _stored(row, _accounts(session, game_id))

    def save(self, game: StoredMultiGame, *, moves: tuple[str, ...] | None = None,
             secrets: tuple[MultiSecret, ...] | None = None,
             result: str | None = None, seats: tuple[MultiSeat, ...] | None = None,
             holder: tuple[tuple[int, ...], str] | None = None) -> StoredMultiGame:
        """Write the moves, secrets, seats and result given (the others as they are) over
        ``game`` as read, if no one wrote since; the game as now stored. ``holder``:
        ``(colours, account)``, seats an account takes (in the same transaction). Raises
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
        if seats is not None:
            values["seats"] = [s.to_json() for s in seats]
        with self.db.session() as session, session.begin():
            changed = session.execute(
                update(MultiGameRow)
                .where(MultiGameRow.id == game.id, MultiGameRow.version == game.version)
                .values(**values).execution_options(synchronize_session=False))
            if rowcount(changed) == 0:
                if session.get(MultiGameRow, game.id) is None:
                    raise KeyError(game.id)
                raise ConcurrentWrite(f"multi-player game {game.id} changed meanwhile")
            if holder is not None:
                for colour in holder[0]:
                    session.add(MultiGameSeatRow(game_id=game.id, colour=colour,
                                                 account_id=holder[1]))
        stored = self.get(game.id)
        if stored is None:  # pragma: no cover - deleted between the two transactions
            raise KeyError(game.id)
        return stored

    def account_games(self, account_id: str) -> dict[str, frozenset[int]]:
        """For each game in which the account holds seats, the colours it holds."""
        held: dict[str, set[int]] = {}
        with self.db.session() as session:
            for game_id, colour in session.execute(
                    select(MultiGameSeatRow.game_id, MultiGameSeatRow.colour)
                    .where(MultiGameSeatRow.account_id == account_id)):
                held.setdefault(game_id, set()).add(colour)
        return {game_id: frozenset(c) for game_id, c in held.items()}

    def account_games_page(self, account_id: str, *, finished: bool = True,
                           rated_only: bool = False, offset: int = 0, limit: int = 20
                           ) -> tuple[int, list[StoredMultiGame]]:
        """The games in which the account holds exactly one seat (holding several, it
        played against itself: no result of its own), finished ones (``finished``) or
        those still going, newest first: how many there are, and those from ``offset``
        (at most ``limit``). ``rated_only``: games created rated only."""
        held = (select(MultiGameSeatRow.game_id)
                .where(MultiGameSeatRow.account_id == account_id)
                .group_by(MultiGameSeatRow.game_id)
                .having(func.count() == 1))
        wanted = [MultiGameRow.id.in_(held),
                  MultiGameRow.result.is_not(None) if finished
                  else MultiGameRow.result.is_(None)]
        if rated_only:
            wanted.append(MultiGameRow.rated.is_(True))
        with self.db.session() as session:
            total = session.scalar(select(func.count()).select_from(MultiGameRow)
                                   .where(*wanted)) or 0
            rows = list(session.scalars(
                select(MultiGameRow).where(*wanted)
                .order_by(MultiGameRow.updated_at.desc(), MultiGameRow.id)
                .offset(max(0, offset)).limit(max(0, limit))))
            return int(total), [_stored(row, _accounts(session, row.id)) for row in rows]

    def forget_account(self, account_id: str, name: str) -> list[str]:
        """An account being deleted: in each game it held seats of, those seats' names
        become ``name`` and its tokens forget it, and the seats are held by no account
        (the game stays, for the others); the games changed. Each write moves the
        game's version on, so every server reads it again.

        A game still going (no resignation exists for three or four) marks those seats
        ``left`` and ends their tokens (nobody moves for a person who is gone): while
        another person plays, :data:`LEFT_SEAT_PROGRAM` plays the left seats' turns, so
        the others can finish it (the rules have no pass for a seat that can move);
        with no other person, nobody moves and the game stays as it was. Such a game is
        not rated (:data:`hasamigo.ratings.outcome.ACCOUNT_DELETED`)."""
        changed = []
        with self.db.session() as session, session.begin():
            held: dict[str, set[int]] = {}
            for game_id, colour in session.execute(
                    select(MultiGameSeatRow.game_id, MultiGameSeatRow.colour)
                    .where(MultiGameSeatRow.account_id == account_id)):
                held.setdefault(game_id, set()).add(colour)
            for game_id in sorted(held):
                row = session.get(MultiGameRow, game_id, with_for_update=True)
                if row is None:  # pragma: no cover - cascaded with its seats
                    continue
                mine = held[game_id]
                seats = [MultiSeat.from_json(s) for s in row.seats]
                kept = [MultiSecret.from_json(d) for d in row.secrets]
                if row.result is None:
                    others = any(s.program is None and not s.left and s.colour not in mine
                                 for s in seats)
                    stand_in = LEFT_SEAT_PROGRAM if others else None
                    row.seats = [(MultiSeat(s.colour, name, stand_in, left=True)
                                  if s.colour in mine else s).to_json() for s in seats]
                    kept = [MultiSecret(s.kind, s.hash, rest, s.used,
                                        None if s.account == account_id else s.account)
                            for s in kept
                            if (rest := tuple(c for c in s.colours if c not in mine))]
                else:
                    row.seats = [(MultiSeat(s.colour, name, s.program, s.left)
                                  if s.colour in mine else s).to_json() for s in seats]
                row.secrets = [
                    (MultiSecret(s.kind, s.hash, s.colours, s.used) if s.account ==
                     account_id else s).to_json() for s in kept]
                row.version += 1
                row.updated_at = datetime.now(UTC)
                changed.append(game_id)
            session.execute(update(MultiGameSeatRow)
                            .where(MultiGameSeatRow.account_id == account_id)
                            .values(account_id=None)
                            .execution_options(synchronize_session=False))
        return changed


__all__ = ["LEFT_SEAT_PROGRAM", "MultiGameRepository", "MultiSeat", "MultiSecret",
           "StoredMultiGame"]
