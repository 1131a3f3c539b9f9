"""Reading and writing games (:class:`GameRecords`): a setup, its append-only events and
the library's summary row.

Every write is one transaction, so a committed event is never half-stored: a game's row,
its events and its secrets are created together; an append inserts the new events and
updates the summary together, or does nothing. Every change is announced to the other
server processes (:func:`~hasamigo.storage.announcements.announce`). Events are only ever
appended; two writers that both append after the same event collide on ``(game_id, seq)``
and the later one gets :class:`ConcurrentWrite` with nothing written.

Loading is strict: a row that does not decode, an event the rules refuse, or a gap in the
numbering raises :class:`~hasamigo.game.errors.StoredGameError` naming the game and the
event, never a half-loaded game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import (
    ColumnElement,
    and_,
    case,
    delete,
    exists,
    false,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hasamigo.board import Board
from hasamigo.errors import HasamigoError
from hasamigo.game.controller import GameController
from hasamigo.game.errors import StoredGameError
from hasamigo.game.events import Event, event_from_json, event_to_json
from hasamigo.game.setup import GameSetup
from hasamigo.game.state import Phase, apply, initial
from hasamigo.move import BLACK, WHITE
from hasamigo.storage.announcements import announce
from hasamigo.storage.db import Database
from hasamigo.storage.models import GameEventRow, GameLeaseRow, GameRow, GameSeatRow, ReviewRow
from hasamigo.storage.rows import aware, rowcount
from hasamigo.storage.seats import SeatSecret, participants_text, seat_row
from hasamigo.variants import find_variant

#: Longest page of the library, and the furthest offset (keeps SQLite's integers safe).
MAX_LIMIT = 500
MAX_OFFSET = 10**6
SECRET_KINDS = ("token", "join")
#: the library's result filter, from the point of view of "you" (see ``summaries``)
LibraryResult = Literal["won", "lost", "drawn", "in_progress"]


class ConcurrentWrite(HasamigoError):
    """Another writer appended to (or created) the game first; nothing was written."""

    code = "concurrent_write"




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
    public: bool
    #: the colour "you" played (see :meth:`GameRecords.summaries`), if known
    your_colour: str | None = None
    #: how a board that ends with empties is counted (a
    #: :class:`~hasamigo.game.result.Scoring` code, from the setup: the counts above are
    #: always ``jof-2014``'s)
    scoring: str = "jof-2014"


@dataclass(frozen=True, slots=True)
class StoredGame:
    game: GameController
    public: bool
    creator: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class GameVersion:
    """What another server process (or the command line) may have changed of a game: its
    events, its visibility, the seats still waiting for their player and its count."""

    event_count: int
    public: bool
    awaiting_join: bool
    #: how it counts a board that ends with empties (its setup's; changed by its creator)
    scoring: str = "jof-2014"


def summary_columns(game: GameController) -> dict[str, Any]:
    """The library's columns of ``game``, recomputed from the controller on every write."""
    state = game.state
    black = white = ""
    if state.seats is not None:
        black, white = game.seat(BLACK).name, game.seat(WHITE).name
    result = state.result
    return {
        "phase": state.phase.value,
        "variant": game.variant.name,
        "black": black,
        "white": white,
        "opponent": next((p.program for p in game.participants if p.program), None)
        or "person",
        "casual": game.options.casual,
        "move_count": state.ply_count,
        "result_black": None if result is None else result.black,
        "result_white": None if result is None else result.white,
        "winner": None if result is None or result.winner is None else result.winner.value,
        "termination": None if result is None else result.termination.code,
        "event_count": len(game.events),
        "program_to_move": game.program_to_move() is not None,
        "deadline": state.deadline() if state.phase is Phase.PLAYING else None,
    }


def _event_rows(game_id: str, events: Sequence[Event], first_seq: int,
                variant: type[Board]) -> list[GameEventRow]:
    return [GameEventRow(game_id=game_id, seq=seq, kind=event.kind, at=event.at,
                         data=event_to_json(event, variant))
            for seq, event in enumerate(events, first_seq)]



class GameRecords:
    """The games in a :class:`~hasamigo.storage.db.Database` (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, game: GameController, *, public: bool = False,
               creator: str | None = None, secrets: Sequence[SeatSecret] = ()) -> None:
        """Store a new game (``game.id`` must be set): its row, all its events and the
        seats' secrets, in one transaction. An id that exists raises
        :class:`ConcurrentWrite`."""
        game_id = _game_id(game)
        now = datetime.now(UTC)
        seats = [seat_row(game_id, secret, now) for secret in secrets]
        if len({seat.secret_hash for seat in seats}) != len(seats):
            raise ValueError("two seats share a secret")
        columns = summary_columns(game)
        if columns["deadline"] is None:  # NULL anyway; a database before 0016 has no column
            del columns["deadline"]
        row = insert(GameRow).values(id=game_id, created_at=now, updated_at=now,
                                     setup=game.setup.to_json(), public=public,
                                     creator=creator, **columns)
        try:
            with self.db.session() as session, session.begin():
                session.execute(row)  # the game row first: events and seats refer to it
                session.add_all(_event_rows(game_id, game.events, 1, game.variant))
                session.add_all(seats)
        except IntegrityError as exc:
            raise ConcurrentWrite(f"game {game_id} exists already") from exc

    def append(self, game: GameController, stored: int) -> int:
        """Store ``game.events[stored:]`` (``stored`` of them are in the database) and the
        new summary, in one transaction; returns ``len(game.events)``. Raises
        :class:`ConcurrentWrite` if another writer stored more events first, ``KeyError``
        for an unknown game."""
        try:
            with self.db.session() as session, session.begin():
                return _append(session, game, stored)
        except IntegrityError as exc:
            raise _lost_race(game, stored) from exc

    def append_many(self, items: Sequence[tuple[GameController, int]]
                    ) -> list[int | Exception]:
        """:meth:`append` for several games in **one** transaction (one disk sync for all:
        a group commit), each in a savepoint of its own, so that one game's refusal leaves
        the others' events in. Returns, per item, the new count or the error it raised."""
        out: list[int | Exception] = []
        with self.db.session() as session, session.begin():
            for game, stored in items:
                try:
                    with session.begin_nested():
                        out.append(_append(session, game, stored))
                except IntegrityError:
                    out.append(_lost_race(game, stored))
                except (KeyError, ValueError, ConcurrentWrite) as exc:
                    out.append(exc)
        return out

    def load(self, game_id: str, *, time_source: Callable[[], float] = time.time,
             rng: random.Random | None = None) -> StoredGame | None:
        """The game, replayed from its events (``None`` if there is no such game). Raises
        :class:`StoredGameError` naming the game and event if it is damaged."""
        with self.db.session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            events = session.scalars(select(GameEventRow).where(GameEventRow.game_id == game_id)
                                     .order_by(GameEventRow.seq)).all()
        game = _decode(game_id, row.setup, events, time_source, rng)
        return StoredGame(game, row.public, row.creator, aware(row.created_at),
                          aware(row.updated_at))

    def summaries(self, *, creator: str | None = None, ids: Collection[str] | None = None,
                  client: str | None = None, public_only: bool = False,
                  phase: str | None = None, exclude_phase: str | None = None,
                  min_moves: int = 0, opponent: str | None = None,
                  result: LibraryResult | None = None,
                  updated_from: datetime | None = None, updated_before: datetime | None = None,
                  limit: int = 100, offset: int = 0) -> list[GameSummary]:
        """Library lines, newest update first. ``creator``, ``ids`` and ``client`` pick
        "the client's own games" (created by it, among ``ids``, OR, for ``client``, created
        by it or seated with it: a subquery, however many games it has); every other
        filter narrows (AND).

        ``min_moves``: at least that many plies played. ``opponent``: a program spec
        (``victory``; ``engine`` matches every ``engine:N``) or ``person``.
        ``updated_from`` (inclusive) and ``updated_before`` (exclusive) bound the last
        update. ``result`` is seen from **you**, whose colour every line carries
        (``your_colour``): in a game against a program, the person (the participant
        without a program); between two people, the seat ``client`` holds alone (the
        invited second player), else the creator (participant 0). A game whose one token
        holds both seats (two people on one screen, an imported record, a game over the
        board) has no "you": its colour is ``None``, neither side's win or loss.
        ``won``/``lost``: over, with you the winner/loser; ``drawn``: over without a
        winner; ``in_progress``: not over.
        """
        you = _your_colour(client)
        query = select(GameRow, you.label("your_colour"))
        own = []
        if creator is not None:
            own.append(GameRow.creator == creator)
        if ids is not None:
            own.append(GameRow.id.in_(list(ids)))
        if client is not None:
            seated = select(GameSeatRow.game_id).where(GameSeatRow.client == client)
            own += [GameRow.creator == client, GameRow.id.in_(seated)]
        if own:
            query = query.where(or_(*own))
        if public_only:
            query = query.where(GameRow.public.is_(True))
        if phase is not None:
            query = query.where(GameRow.phase == phase)
        if exclude_phase is not None:
            query = query.where(GameRow.phase != exclude_phase)
        if min_moves > 0:
            query = query.where(GameRow.move_count >= min_moves)
        if opponent is not None:
            query = query.where(or_(GameRow.opponent == opponent,
                                    GameRow.opponent.startswith(f"{opponent}:",
                                                                autoescape=True)))
        if result is not None:
            query = query.where(_result_filter(result, you))
        if updated_from is not None:
            query = query.where(GameRow.updated_at >= _utc(updated_from))
        if updated_before is not None:
            query = query.where(GameRow.updated_at < _utc(updated_before))
        query = (query.order_by(GameRow.updated_at.desc(), GameRow.id)
                 .limit(min(max(limit, 1), MAX_LIMIT))
                 .offset(min(max(offset, 0), MAX_OFFSET)))
        with self.db.session() as session:
            return [_summary(row, colour) for row, colour in session.execute(query)]

    def delete(self, game_id: str) -> bool:
        """Delete a game with its events, seats and review, in one transaction; ``False`` if there
        was no such game. (The children go explicitly, not only by the foreign keys'
        cascade, so a connection without SQLite's foreign-key enforcement leaves no
        orphans.)"""
        with self.db.session() as session, session.begin():
            session.execute(delete(GameEventRow).where(GameEventRow.game_id == game_id)
                            .execution_options(synchronize_session=False))
            session.execute(delete(GameSeatRow).where(GameSeatRow.game_id == game_id)
                            .execution_options(synchronize_session=False))
            session.execute(delete(ReviewRow).where(ReviewRow.game_id == game_id)
                            .execution_options(synchronize_session=False))
            session.execute(delete(GameLeaseRow).where(GameLeaseRow.game_id == game_id)
                            .execution_options(synchronize_session=False))
            announce(session, game_id)
            gone = session.execute(delete(GameRow).where(GameRow.id == game_id)
                                   .execution_options(synchronize_session=False))
            return rowcount(gone) > 0

    def set_public(self, game_id: str, public: bool) -> None:
        with self.db.session() as session, session.begin():
            changed = session.execute(update(GameRow).where(GameRow.id == game_id)
                                      .values(public=public)
                                      .execution_options(synchronize_session=False))
            if rowcount(changed) == 0:
                raise KeyError(game_id)
            announce(session, game_id)

    def set_scoring(self, game_id: str, scoring: str) -> None:
        """Count the game's board by ``scoring`` (a :class:`~hasamigo.game.result.Scoring`
        code) from now on: its setup changes, its events do not, so its result is counted
        anew when it is next loaded. ``KeyError`` for an unknown game; a code that is not a
        scoring raises :class:`~hasamigo.game.errors.GameError` with nothing changed."""
        with self.db.session() as session, session.begin():
            row = session.get(GameRow, game_id, with_for_update=True)
            if row is None:
                raise KeyError(game_id)
            setup = GameSetup.from_json(row.setup)
            row.setup = replace(setup, options=replace(setup.options, scoring=scoring)
                                ).to_json()
            announce(session, game_id)

    def count(self) -> int:
        with self.db.session() as session:
            return int(session.scalar(select(func.count()).select_from(GameRow)) or 0)

    def versions(self, game_ids: Collection[str]) -> dict[str, GameVersion]:
        """The version of each game that exists (a deleted one is missing)."""
        if not game_ids:
            return {}
        ids = list(game_ids)
        # the seats of these games only (by the seats' key), not a scan of every seat
        waiting = (select(GameSeatRow.game_id).where(
            GameSeatRow.game_id.in_(ids), GameSeatRow.kind == "join",
            GameSeatRow.used_at.is_(None)))
        with self.db.session() as session:
            rows = session.execute(
                select(GameRow.id, GameRow.event_count, GameRow.public,
                       GameRow.id.in_(waiting), GameRow.setup)
                .where(GameRow.id.in_(ids)))
            return {game_id: GameVersion(int(count), bool(public), bool(awaiting),
                                         _scoring_of(setup))
                    for game_id, count, public, awaiting, setup in rows}


def _append(session: Session, game: GameController, stored: int) -> int:
    """The body of :meth:`GameRecords.append`, inside the caller's transaction."""
    game_id = _game_id(game)
    events = game.events
    if not 0 <= stored <= len(events):
        raise ValueError(f"{stored} events stored, but the game has {len(events)}")
    values = summary_columns(game)
    values["updated_at"] = datetime.now(UTC)
    # The update comes first: it takes the game's row lock (PostgreSQL) or the write lock
    # (SQLite), so appends to one game queue up here.
    changed = session.execute(
        update(GameRow).where(GameRow.id == game_id).values(**values)
        .execution_options(synchronize_session=False))
    if rowcount(changed) == 0:
        raise KeyError(game_id)
    last = session.scalar(select(func.max(GameEventRow.seq))
                          .where(GameEventRow.game_id == game_id)) or 0
    if last > stored:
        raise _lost_race(game, stored)
    if last < stored:
        raise ValueError(f"game {game_id} has {last} events stored, not {stored}")
    session.add_all(_event_rows(game_id, events[stored:], stored + 1, game.variant))
    session.flush()
    announce(session, game_id)
    return len(events)



def _lost_race(game: GameController, stored: int) -> ConcurrentWrite:
    return ConcurrentWrite(f"game {game.id}: event {stored + 1} was stored by another "
                           "writer first")


def _game_id(game: GameController) -> str:
    if game.id is None:
        raise ValueError("a stored game needs its id (GameController game_id)")
    return game.id


def _summary(row: GameRow, your_colour: str | None = None) -> GameSummary:
    return GameSummary(
        row.id, aware(row.created_at), aware(row.updated_at), row.phase, row.variant,
        row.black, row.white, row.opponent, row.casual, row.move_count, row.result_black,
        row.result_white, row.winner, row.termination, row.public, your_colour,
        _scoring_of(row.setup),
    )


def _scoring_of(setup: Any) -> str:
    """The scoring code a stored setup holds (``jof-2014`` when it chose none)."""
    options = setup.get("options") if isinstance(setup, dict) else None
    chosen = options.get("scoring") if isinstance(options, dict) else None
    return chosen if isinstance(chosen, str) else "jof-2014"


def _utc(moment: datetime) -> datetime:
    """An instant as the stored columns hold it (UTC; a naive one is taken as UTC)."""
    return aware(moment).astimezone(UTC)


def _your_colour(client: str | None) -> ColumnElement[str | None]:
    """SQL for the colour "you" played in each game (see ``summaries``), from the names:
    the setup names the participants (never two alike), the summary names the colours.
    A seat an account took plays under the account's name (a
    :class:`~hasamigo.game.events.SeatNamed` event: the setup keeps the name it had), so
    when "your" setup name names neither colour, the colour is the one the other
    participant's name does not."""
    def setup(index: int, key: str) -> ColumnElement[str]:
        value: ColumnElement[str] = GameRow.setup[("participants", index, key)].as_string()
        return value

    first, second = setup(0, "name"), setup(1, "name")
    holds_second: ColumnElement[bool] = false()
    if client is not None:
        holds_second = exists().where(
            GameSeatRow.game_id == GameRow.id, GameSeatRow.client == client,
            GameSeatRow.kind == "token", GameSeatRow.participants == "1")
    # one token for both seats: both players at one screen (or board), nobody's side
    one_screen = exists().where(
        GameSeatRow.game_id == GameRow.id, GameSeatRow.kind == "token",
        GameSeatRow.participants == participants_text((0, 1)))
    person_first = setup(0, "program").is_(None)
    name = case(
        (GameRow.opponent != "person", case((person_first, first), else_=second)),
        (holds_second, second),
        else_=first)
    other = case(
        (GameRow.opponent != "person", case((person_first, second), else_=first)),
        (holds_second, first),
        else_=second)
    return case((one_screen, None), (GameRow.black == name, "black"),
                (GameRow.white == name, "white"), (GameRow.black == other, "white"),
                (GameRow.white == other, "black"), else_=None)


def _result_filter(result: LibraryResult, you: ColumnElement[str | None]
                   ) -> ColumnElement[bool]:
    over = GameRow.phase == Phase.OVER.value
    if result == "won":
        return and_(over, GameRow.winner == you)
    if result == "lost":
        return and_(over, GameRow.winner.is_not(None), you.is_not(None),
                    GameRow.winner != you)
    if result == "drawn":
        return and_(over, GameRow.winner.is_(None))
    return GameRow.phase != Phase.OVER.value


def _decode(game_id: str, setup_json: Any, rows: Sequence[GameEventRow],
            time_source: Callable[[], float], rng: random.Random | None) -> GameController:
    """Rows to a controller, strictly (see :meth:`GameRecords.load`)."""
    try:
        setup = GameSetup.from_json(setup_json)
        variant = find_variant(setup.options.variant)
    except (HasamigoError, TypeError, ValueError) as exc:
        raise StoredGameError(f"the setup is refused: {exc}", game=game_id) from exc
    events: list[Event] = []
    for number, row in enumerate(rows, 1):
        if row.seq != number:
            raise StoredGameError(f"event {number} is missing (the next is {row.seq})",
                                  game=game_id, event=number)
        try:
            event = event_from_json(row.data, variant)
        except (HasamigoError, TypeError, ValueError) as exc:
            raise StoredGameError(str(exc), game=game_id, event=number) from exc
        if (event.kind, event.at) != (row.kind, row.at):
            raise StoredGameError(f"the row says {row.kind} at {row.at}, its data "
                                  f"{event.kind} at {event.at}", game=game_id, event=number)
        events.append(event)
    try:
        return GameController(setup, events, time_source=time_source, rng=rng,
                              game_id=game_id)
    except StoredGameError:
        raise
    except Exception as exc:
        # The fold raises StoredGameError for what the rules refuse; anything else is
        # still damage in this game: find the event it comes from.
        raise StoredGameError(f"cannot replay: {type(exc).__name__}: {exc}", game=game_id,
                              event=_failing_event(setup, events)) from exc


def _failing_event(setup: GameSetup, events: Sequence[Event]) -> int | None:
    try:
        state = initial(setup)
    except Exception:
        return None
    for number, event in enumerate(events, 1):
        try:
            state = apply(state, event)
        except Exception:
            return number
    return None


__all__ = ["MAX_LIMIT", "MAX_OFFSET", "ConcurrentWrite", "GameRecords", "GameSummary",
           "GameVersion", "LibraryResult", "StoredGame", "summary_columns"]
