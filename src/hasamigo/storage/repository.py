"""Reading and writing games: a setup, its events, the seats' secrets, the server's runs.

Every write is one transaction, so a committed event is never half-stored: a game's row,
its events and its secrets are created together; an append inserts the new events and
updates the summary together, or does nothing. On PostgreSQL every change of a game is
announced on the channel :data:`CHANGES` (``NOTIFY``, delivered at commit), so other server
processes on the same database see it at once. Events are only ever appended; two
writers that both append after the same event collide on ``(game_id, seq)`` and the later
one gets :class:`ConcurrentWrite` with nothing written.

Loading is strict: a row that does not decode, an event the rules refuse, or a gap in the
numbering raises :class:`~hasamigo.game.errors.StoredGameError` naming the game and the
event, never a half-loaded game.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import (
    ColumnElement,
    CursorResult,
    and_,
    case,
    delete,
    exists,
    false,
    func,
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
from hasamigo.storage.db import Database, write_lock
from hasamigo.storage.models import (
    GameEventRow,
    GameLeaseRow,
    GameRow,
    GameSeatRow,
    ReviewRow,
    ServerRunRow,
)
from hasamigo.variants import find_variant

log = logging.getLogger(__name__)

#: The PostgreSQL channel on which changes of games are announced (payload: the game's id).
CHANGES = "hasamigo_games"

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
class SeatSecret:
    """A secret acting for ``participants`` (indices into the setup's participants): a
    player's ``token``, or a ``join`` code that is exchanged once for a token. Only its
    hex SHA-256, computed by the caller, is stored."""

    kind: Literal["token", "join"]
    secret_hash: str
    participants: tuple[int, ...]
    client: str | None = None
    used: bool = False


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
    #: the colour "you" played (see :meth:`GameRepository.summaries`), if known
    your_colour: str | None = None


@dataclass(frozen=True, slots=True)
class StoredGame:
    game: GameController
    public: bool
    creator: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class GameVersion:
    """What another server process may have changed of a game: its events, its
    visibility and the seats still waiting for their player."""

    event_count: int
    public: bool
    awaiting_join: bool


def summary_columns(game: GameController) -> dict[str, Any]:
    """The library's columns of ``game``, recomputed from the controller on every write."""
    state = game.state
    black = white = ""
    if state.seats is not None:
        black, white = game.seat(BLACK).name, game.seat(WHITE).name
    result = state.result
    return {
        "phase": state.phase.value,
        "variant": type(game.board).name,
        "black": black,
        "white": white,
        "opponent": next((p.program for p in game.participants if p.program), None)
        or "person",
        "casual": game.options.casual,
        "move_count": len(state.moves),
        "result_black": None if result is None else result.black,
        "result_white": None if result is None else result.white,
        "winner": None if result is None or result.winner is None else result.winner.value,
        "termination": None if result is None else result.termination.name.lower(),
        "event_count": len(game.events),
        "program_to_move": game.program_to_move() is not None,
    }


def _event_rows(game_id: str, events: Sequence[Event], first_seq: int,
                variant: type[Board]) -> list[GameEventRow]:
    return [GameEventRow(game_id=game_id, seq=seq, kind=event.kind, at=event.at,
                         data=event_to_json(event, variant))
            for seq, event in enumerate(events, first_seq)]


def _participants_text(participants: tuple[int, ...]) -> str:
    if participants not in ((0,), (1,), (0, 1)):
        raise ValueError(f"a seat acts for participant 0, 1 or both, not {participants!r}")
    return "".join(str(p) for p in participants)


def _seat_row(game_id: str, secret: SeatSecret, now: datetime) -> GameSeatRow:
    if secret.kind not in SECRET_KINDS:
        raise ValueError(f"a seat secret is a token or a join code, not {secret.kind!r}")
    if not 0 < len(secret.secret_hash) <= 64:
        raise ValueError("a secret's hash is a hex SHA-256 (64 characters)")
    return GameSeatRow(game_id=game_id, secret_hash=secret.secret_hash, kind=secret.kind,
                       participants=_participants_text(secret.participants),
                       client=secret.client, created_at=now,
                       used_at=now if secret.used else None)


def _seat_secret(row: GameSeatRow) -> SeatSecret:
    kind: Literal["token", "join"] = "join" if row.kind == "join" else "token"
    return SeatSecret(kind, row.secret_hash, tuple(int(p) for p in row.participants),
                      row.client, row.used_at is not None)


def _aware(moment: datetime) -> datetime:
    """SQLite returns the stored UTC instants without their zone."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _rowcount(result: Any) -> int:
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


class GameRepository:
    """Games in a :class:`~hasamigo.storage.db.Database` (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- games ----------------------------------------------------------------------
    def create(self, game: GameController, *, public: bool = False,
               creator: str | None = None, secrets: Sequence[SeatSecret] = ()) -> None:
        """Store a new game (``game.id`` must be set): its row, all its events and the
        seats' secrets, in one transaction. An id that exists raises
        :class:`ConcurrentWrite`."""
        game_id = _game_id(game)
        now = datetime.now(UTC)
        seats = [_seat_row(game_id, secret, now) for secret in secrets]
        if len({seat.secret_hash for seat in seats}) != len(seats):
            raise ValueError("two seats share a secret")
        row = GameRow(id=game_id, created_at=now, updated_at=now, setup=game.setup.to_json(),
                      public=public, creator=creator, **summary_columns(game))
        try:
            with self.db.session() as session, session.begin():
                session.add(row)
                session.flush()  # the game row first: events and seats refer to it
                session.add_all(_event_rows(game_id, game.events, 1, type(game.board)))
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
        return StoredGame(game, row.public, row.creator, _aware(row.created_at),
                          _aware(row.updated_at))

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
            _announce(session, game_id)
            gone = session.execute(delete(GameRow).where(GameRow.id == game_id)
                                   .execution_options(synchronize_session=False))
            return _rowcount(gone) > 0

    def set_public(self, game_id: str, public: bool) -> None:
        with self.db.session() as session, session.begin():
            changed = session.execute(update(GameRow).where(GameRow.id == game_id)
                                      .values(public=public)
                                      .execution_options(synchronize_session=False))
            if _rowcount(changed) == 0:
                raise KeyError(game_id)
            _announce(session, game_id)

    def count(self) -> int:
        with self.db.session() as session:
            return int(session.scalar(select(func.count()).select_from(GameRow)) or 0)

    # ---- seats ------------------------------------------------------------------------
    def secret(self, game_id: str, secret_hash: str) -> SeatSecret | None:
        with self.db.session() as session:
            row = session.get(GameSeatRow, (game_id, secret_hash))
            return None if row is None else _seat_secret(row)

    def use_join_code(self, game_id: str, code_hash: str, token: SeatSecret
                      ) -> tuple[int, ...] | None:
        """Exchange an unused join code for ``token`` (a token for the same participants),
        atomically; returns the participants, or ``None`` if the code is unknown or used."""
        if token.kind != "token" or token.used:
            raise ValueError("a join code is exchanged for an unused token")
        now = datetime.now(UTC)
        with self.db.session() as session, session.begin():
            # Marking the code used first makes the exchange single-use under concurrency:
            # a second writer's update finds used_at set and changes nothing.
            changed = session.execute(
                update(GameSeatRow)
                .where(GameSeatRow.game_id == game_id, GameSeatRow.secret_hash == code_hash,
                       GameSeatRow.kind == "join", GameSeatRow.used_at.is_(None))
                .values(used_at=now).execution_options(synchronize_session=False))
            if _rowcount(changed) == 0:
                return None
            participants = session.scalar(
                select(GameSeatRow.participants).where(GameSeatRow.game_id == game_id,
                                                       GameSeatRow.secret_hash == code_hash))
            if participants != _participants_text(token.participants):
                raise ValueError(f"the join code acts for participants {participants}, the "
                                 f"token for {_participants_text(token.participants)}")
            session.add(_seat_row(game_id, token, now))
            _announce(session, game_id)
        return token.participants

    def pending_joins(self, game_id: str) -> list[tuple[int, ...]]:
        """The participants whose join code has not been used yet (their seat is empty)."""
        with self.db.session() as session:
            return [tuple(int(p) for p in text) for text in session.scalars(
                select(GameSeatRow.participants).where(
                    GameSeatRow.game_id == game_id, GameSeatRow.kind == "join",
                    GameSeatRow.used_at.is_(None)))]

    def client_game_ids(self, client: str) -> list[str]:
        """Games the client created or holds a seat in, newest update first."""
        seated = select(GameSeatRow.game_id).where(GameSeatRow.client == client)
        with self.db.session() as session:
            return list(session.scalars(
                select(GameRow.id).where(or_(GameRow.creator == client, GameRow.id.in_(seated)))
                .order_by(GameRow.updated_at.desc(), GameRow.id)))

    # ---- server runs ------------------------------------------------------------------------
    def start_run(self, now: float) -> int:
        """Record a server process starting at ``now``; returns its run id."""
        with self.db.session() as session, session.begin():
            run = ServerRunRow(started_at=now, last_seen=now)
            session.add(run)
            session.flush()
            return run.id

    def heartbeat(self, run_id: int, now: float) -> None:
        """The run is alive at ``now`` (an outage after a crash starts at the last one)."""
        with self.db.session() as session, session.begin():
            session.execute(update(ServerRunRow).where(ServerRunRow.id == run_id)
                            .values(last_seen=now))

    def stop_run(self, run_id: int, now: float) -> None:
        with self.db.session() as session, session.begin():
            session.execute(update(ServerRunRow).where(ServerRunRow.id == run_id)
                            .values(last_seen=now, stopped_at=now))

    def outages_since(self, since: float) -> list[tuple[float, float]]:
        """The times, after ``since``'s run began, when no server process was running,
        oldest first: each from the end of the last run alive (its stop or, after a crash,
        its last heartbeat) to the next start. Several processes serving one database
        overlap: only a time covered by none of them is an outage."""
        with self.db.session() as session:
            before = session.scalars(
                select(ServerRunRow).where(ServerRunRow.started_at <= since)
                .order_by(ServerRunRow.started_at.desc(), ServerRunRow.id.desc()).limit(1)).all()
            first = before[0].started_at if before else since
            # every run alive at or after the first one's start, in the order they began
            runs = session.scalars(
                select(ServerRunRow).where(
                    ServerRunRow.started_at >= first
                    if not before else or_(ServerRunRow.started_at >= first,
                                           ServerRunRow.last_seen >= first))
                .order_by(ServerRunRow.started_at, ServerRunRow.id)).all()
        gaps = []
        covered: float | None = None  # the end of the time covered so far
        for run in runs:
            end = run.stopped_at if run.stopped_at is not None else run.last_seen
            if covered is not None and run.started_at > covered:
                gaps.append((covered, run.started_at))
            covered = end if covered is None else max(covered, end)
        return gaps

    def run_last_seen(self, run_id: int) -> float | None:
        """When the run last said it was alive (its stop, if it stopped)."""
        with self.db.session() as session:
            run = session.get(ServerRunRow, run_id)
            if run is None:
                return None
            return run.stopped_at if run.stopped_at is not None else run.last_seen

    # ---- several server processes ----------------------------------------------------
    @property
    def announces(self) -> bool:
        """Whether changes are announced (PostgreSQL); else other processes poll."""
        return self.db.engine.dialect.name == "postgresql"

    def listen(self, heard: Callable[[str], None], stopping: threading.Event) -> None:
        """Call ``heard(game_id)`` for every change of a game announced on
        :data:`CHANGES`, until ``stopping`` is set (PostgreSQL; for a thread of its own).
        A lost connection is opened again; what was announced meanwhile is missed, which
        the callers' polling makes up for."""
        import psycopg

        url = self.db.engine.url.set(drivername="postgresql")
        dsn = url.render_as_string(hide_password=False)
        while not stopping.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANGES}")
                    while not stopping.is_set():
                        for note in connection.notifies(timeout=0.5):
                            heard(note.payload)
            except Exception:
                if stopping.is_set():
                    return
                log.exception("listening for other server processes failed; again in 1 s")
                stopping.wait(1.0)

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
                       GameRow.id.in_(waiting))
                .where(GameRow.id.in_(ids)))
            return {game_id: GameVersion(int(count), bool(public), bool(awaiting))
                    for game_id, count, public, awaiting in rows}

    def take_lease(self, game_id: str, run_id: int, now: float, seconds: float
                   ) -> tuple[bool, int | None]:
        """Make ``run_id`` the game's owner until ``now + seconds`` if nobody owns it, its
        lease has expired, or it is ``run_id``'s already. Atomic: of two processes taking
        an expired lease together, one gets it. Returns (taken, the previous owner if
        another run's lease had expired, else ``None``)."""
        until = now + seconds
        with self.db.session() as session, session.begin():
            write_lock(session)  # it reads before it writes
            before = session.execute(
                select(GameLeaseRow.owner, GameLeaseRow.expires_at)
                .where(GameLeaseRow.game_id == game_id)).first()
            if before is None:
                if session.get(GameRow, game_id) is None:
                    return False, None
                try:
                    with session.begin_nested():
                        session.add(GameLeaseRow(game_id=game_id, owner=run_id,
                                                 expires_at=until))
                        session.flush()
                except IntegrityError:  # another process inserted it first
                    return False, None
                return True, None
            # the condition is checked again on the row as it is when the update locks it
            changed = session.execute(
                update(GameLeaseRow)
                .where(GameLeaseRow.game_id == game_id,
                       or_(GameLeaseRow.owner == run_id, GameLeaseRow.expires_at < now))
                .values(owner=run_id, expires_at=until)
                .execution_options(synchronize_session=False))
            if _rowcount(changed) == 0:
                return False, None
            previous = int(before.owner)
            return True, (previous if previous != run_id else None)

    def renew_leases(self, run_id: int, now: float, seconds: float) -> set[str]:
        """Extend every lease ``run_id`` holds, and record that the run is alive (a
        heartbeat); returns the games it still owns (a lease that expired and was taken
        by another process is no longer among them)."""
        with self.db.session() as session, session.begin():
            session.execute(update(ServerRunRow).where(ServerRunRow.id == run_id)
                            .values(last_seen=now))
            session.execute(update(GameLeaseRow).where(GameLeaseRow.owner == run_id)
                            .values(expires_at=now + seconds)
                            .execution_options(synchronize_session=False))
            return set(session.scalars(select(GameLeaseRow.game_id)
                                       .where(GameLeaseRow.owner == run_id)))

    def release_leases(self, run_id: int, game_ids: Collection[str] | None = None) -> None:
        """Give up the run's leases (all of them, or those of ``game_ids``): another
        process may take the games at once."""
        query = delete(GameLeaseRow).where(GameLeaseRow.owner == run_id)
        if game_ids is not None:
            if not game_ids:
                return
            query = query.where(GameLeaseRow.game_id.in_(list(game_ids)))
        with self.db.session() as session, session.begin():
            session.execute(query.execution_options(synchronize_session=False))

    def orphan_games(self, now: float, limit: int = 64) -> list[str]:
        """Games not over whose owner's lease has expired (the process died), and games
        in which a program is to move that have no owner: the games another process
        should take over."""
        with self.db.session() as session:
            expired = select(GameLeaseRow.game_id).where(GameLeaseRow.expires_at < now)
            leased = select(GameLeaseRow.game_id)
            return list(session.scalars(
                select(GameRow.id).where(
                    GameRow.phase != Phase.OVER.value,
                    or_(GameRow.id.in_(expired),
                        and_(GameRow.program_to_move.is_(True), GameRow.id.not_in(leased))))
                .order_by(GameRow.updated_at.desc(), GameRow.id).limit(limit)))


def _append(session: Session, game: GameController, stored: int) -> int:
    """The body of :meth:`GameRepository.append`, inside the caller's transaction."""
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
    if _rowcount(changed) == 0:
        raise KeyError(game_id)
    last = session.scalar(select(func.max(GameEventRow.seq))
                          .where(GameEventRow.game_id == game_id)) or 0
    if last > stored:
        raise _lost_race(game, stored)
    if last < stored:
        raise ValueError(f"game {game_id} has {last} events stored, not {stored}")
    session.add_all(_event_rows(game_id, events[stored:], stored + 1, type(game.board)))
    session.flush()
    _announce(session, game_id)
    return len(events)


def _announce(session: Session, game_id: str) -> None:
    """Tell the other server processes that the game changed (PostgreSQL: ``NOTIFY``,
    sent when the transaction commits, not at all if it rolls back; SQLite has no such
    thing: they poll :meth:`GameRepository.versions`)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_notify(CHANGES, game_id)))


def _lost_race(game: GameController, stored: int) -> ConcurrentWrite:
    return ConcurrentWrite(f"game {game.id}: event {stored + 1} was stored by another "
                           "writer first")


def _game_id(game: GameController) -> str:
    if game.id is None:
        raise ValueError("a stored game needs its id (GameController game_id)")
    return game.id


def _summary(row: GameRow, your_colour: str | None = None) -> GameSummary:
    return GameSummary(
        row.id, _aware(row.created_at), _aware(row.updated_at), row.phase, row.variant,
        row.black, row.white, row.opponent, row.casual, row.move_count, row.result_black,
        row.result_white, row.winner, row.termination, row.public, your_colour,
    )


def _utc(moment: datetime) -> datetime:
    """An instant as the stored columns hold it (UTC; a naive one is taken as UTC)."""
    return _aware(moment).astimezone(UTC)


def _your_colour(client: str | None) -> ColumnElement[str | None]:
    """SQL for the colour "you" played in each game (see ``summaries``), from the names:
    the setup names the participants (never two alike), the summary names the colours."""
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
        GameSeatRow.participants == _participants_text((0, 1)))
    name = case(
        (GameRow.opponent != "person",
         case((setup(0, "program").is_(None), first), else_=second)),
        (holds_second, second),
        else_=first)
    return case((one_screen, None), (GameRow.black == name, "black"),
                (GameRow.white == name, "white"), else_=None)


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
    """Rows to a controller, strictly (see :meth:`GameRepository.load`)."""
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
