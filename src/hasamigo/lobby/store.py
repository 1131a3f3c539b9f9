"""The lobby in the database (:class:`LobbyStore`; tables ``lobby_challenges`` and
``lobby_waiting`` of :mod:`hasamigo.storage.models`): every state is there, so that any of
several servers on one database shows, accepts and pairs alike.

Two acts must happen once whatever the servers do at the same moment, and each is one
transaction that reads, then writes under SQLite's write lock (``BEGIN IMMEDIATE``) or
PostgreSQL's row locks (``SELECT … FOR UPDATE``), its last write conditional on what it
read (``UPDATE … WHERE state = 'open'``): accepting a challenge (:meth:`LobbyStore.claim`:
the second acceptor finds it taken) and pairing two waiting accounts
(:meth:`LobbyStore.pair`: an account already paired is nobody's candidate). The game is
made afterwards, outside the transaction (by the web layer's games); if making it fails,
:meth:`LobbyStore.reopen` and :meth:`LobbyStore.unpair` undo the claim.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    Integer,
    and_,
    bindparam,
    delete,
    exists,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from hasamigo.lobby.model import (
    OPEN_PER_ACCOUNT,
    WAITING_SEEN,
    Challenge,
    ChallengeNotFound,
    ChallengeState,
    LobbyError,
    NotYourChallenge,
    Terms,
    Waiting,
    window,
)
from hasamigo.storage.db import Database, write_lock
from hasamigo.storage.models import (
    AccountRow,
    AccountSessionRow,
    GameRow,
    GameSeatRow,
    LobbyChallengeRow,
    LobbyWaitingRow,
)
from hasamigo.storage.rows import aware, rowcount

#: a challenge's id: 16 hex digits
ID_CHARS = 16
#: closed challenges are kept this long (the poster's page learns of the game from them)
KEPT = timedelta(days=1)
#: a pair whose game was not made this soon (its server stopped) is undone
PAIR_STALE = timedelta(seconds=30)
ATTEMPTS = 4
#: PostgreSQL's transaction-level advisory lock that the waiting list's writes of two rows
#: (a pairing, its game, its undoing) hold: one at a time, as SQLite's write lock makes
#: them (row locks alone met deadlocks: each pairing locks its own row, then the others')
PAIRING_LOCK = 0x6C6F6262  # "lobb"


@dataclass(frozen=True, slots=True)
class LiveGameRow:
    """A game being played between people, as the lobby lists it."""

    id: str
    variant: str
    black: str
    white: str
    rated: bool
    days_per_move: int | None
    created_at: datetime

    def to_json(self) -> dict[str, object]:
        # no move count and no time of the last move: the list polled every few seconds
        # by every lobby page changes when a game starts or ends, not with each move
        return {"id": self.id, "variant": self.variant, "black": self.black,
                "white": self.white, "rated": self.rated,
                "days_per_move": self.days_per_move,
                "created_at": self.created_at.isoformat()}


@dataclass(frozen=True, slots=True)
class HeldGame:
    """An unfinished game in which an account holds a seat: the participants it holds,
    how many events it has (its version), the names at the board."""

    id: str
    correspondence: bool
    participants: frozenset[int]
    event_count: int
    black: str
    white: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ViewerRows:
    """One account's own part of the lobby, as read in one transaction."""

    games: list[HeldGame]
    accepted: list[Challenge]
    waiting: Waiting | None


#: the statements of a lobby poll, built once (a poll only binds its values)
_SEATS_A_GAME = 2
_HELD = (select(GameRow.id, GameSeatRow.participants, GameRow.setup, GameRow.created_at,
                GameRow.event_count, GameRow.black, GameRow.white)
         .join(GameRow, GameRow.id == GameSeatRow.game_id)
         .where(GameSeatRow.account_id == bindparam("account_id"), GameRow.phase != "over")
         .order_by(GameRow.created_at.desc(), GameRow.id)
         .limit(bindparam("rows", type_=Integer)))
_ACCEPTED = (select(LobbyChallengeRow, AccountRow.name)
             .join(AccountRow, AccountRow.id == LobbyChallengeRow.poster_id)
             .where(or_(LobbyChallengeRow.poster_id == bindparam("account_id"),
                        LobbyChallengeRow.acceptor_id == bindparam("account_id")),
                    LobbyChallengeRow.state == ChallengeState.ACCEPTED.value,
                    LobbyChallengeRow.game_id.is_not(None),
                    LobbyChallengeRow.closed_at > bindparam("after"))
             .order_by(LobbyChallengeRow.closed_at.desc()).limit(20))


def _options(setup: Any) -> dict[str, Any]:
    options = setup.get("options") if isinstance(setup, dict) else None
    return options if isinstance(options, dict) else {}


def _challenge(row: LobbyChallengeRow, name: str) -> Challenge:
    terms = Terms(row.variant, row.clock_minutes, row.days_per_move, row.rated, row.colour,
                  row.public)
    return Challenge(row.id, row.poster_id, name, row.rating, terms,
                     ChallengeState(row.state), aware(row.created_at),
                     aware(row.expires_at), row.acceptor_id, row.game_id)


def _waiting(row: LobbyWaitingRow) -> Waiting:
    return Waiting(row.account_id, row.mu, aware(row.since), row.partner_id, row.game_id)


def _pairing_lock(session: Session) -> None:
    """On PostgreSQL, wait for :data:`PAIRING_LOCK` (released at the transaction's end);
    SQLite's ``BEGIN IMMEDIATE`` serialises already."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PAIRING_LOCK})


def _has_session(account_id: Any) -> Any:
    return exists().where(AccountSessionRow.account_id == account_id)


class LobbyStore:
    """The lobby of a :class:`~hasamigo.storage.db.Database` (migrated by its owner);
    ``clock`` gives now (UTC)."""

    def __init__(self, db: Database, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.db = db
        self.now = clock

    def _transaction(self, work: Callable[[Session], Any]) -> Any:
        """``work`` in a transaction that holds the write lock, tried again when another
        server's transaction broke it (a deadlock ended, a unique key met)."""
        for attempt in range(ATTEMPTS):
            try:
                with self.db.session() as session, session.begin():
                    write_lock(session)
                    return work(session)
            except (IntegrityError, OperationalError):
                if attempt == ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    # ---- challenges ----------------------------------------------------------------------
    def _open(self, now: datetime) -> Any:
        """The condition of a challenge still open: not accepted, cancelled or lapsed,
        and its poster signed in somewhere."""
        return and_(LobbyChallengeRow.state == ChallengeState.OPEN.value,
                    LobbyChallengeRow.expires_at > now,
                    _has_session(LobbyChallengeRow.poster_id))

    def post(self, account_id: str, terms: Terms, rating: int) -> Challenge:
        """A new open challenge of ``account_id`` (:class:`LobbyError` beyond
        :data:`~hasamigo.lobby.model.OPEN_PER_ACCOUNT` open at once)."""
        now = self.now()

        def work(session: Session) -> Challenge:
            # the closed and the lapsed are tidied here, as challenges come and go
            session.execute(update(LobbyChallengeRow).where(
                LobbyChallengeRow.state == ChallengeState.OPEN.value,
                LobbyChallengeRow.expires_at <= now).values(
                    state=ChallengeState.LAPSED.value, closed_at=now))
            session.execute(delete(LobbyChallengeRow).where(
                LobbyChallengeRow.state != ChallengeState.OPEN.value,
                LobbyChallengeRow.closed_at < now - KEPT))
            name = session.scalar(select(AccountRow.name).where(AccountRow.id == account_id))
            if name is None:
                raise ChallengeNotFound("no such account")
            count = session.scalar(select(func.count()).select_from(LobbyChallengeRow).where(
                LobbyChallengeRow.poster_id == account_id, self._open(now))) or 0
            if count >= OPEN_PER_ACCOUNT:
                raise LobbyError(f"at most {OPEN_PER_ACCOUNT} open challenges at once: "
                                 "cancel one first")
            row = LobbyChallengeRow(
                id=secrets.token_hex(ID_CHARS // 2), poster_id=account_id,
                variant=terms.variant, clock_minutes=terms.clock_minutes,
                days_per_move=terms.days_per_move, rated=terms.rated, colour=terms.colour,
                public=terms.public, rating=rating, state=ChallengeState.OPEN.value,
                created_at=now, expires_at=now + terms.lapse)
            session.add(row)
            session.flush()
            return _challenge(row, name)

        result: Challenge = self._transaction(work)
        return result

    def get(self, challenge_id: str) -> Challenge:
        """The challenge (any state), or :class:`ChallengeNotFound`."""
        with self.db.session() as session:
            found = session.execute(
                select(LobbyChallengeRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == LobbyChallengeRow.poster_id)
                .where(LobbyChallengeRow.id == challenge_id)).first()
        if found is None:
            raise ChallengeNotFound("no such challenge")
        return _challenge(found[0], found[1])

    def open_challenges(self, limit: int = 100) -> list[Challenge]:
        """The open challenges, oldest first (at most ``limit``)."""
        now = self.now()
        with self.db.session() as session:
            rows = session.execute(
                select(LobbyChallengeRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == LobbyChallengeRow.poster_id)
                .where(self._open(now))
                .order_by(LobbyChallengeRow.created_at, LobbyChallengeRow.id)
                .limit(limit)).all()
        return [_challenge(row, name) for row, name in rows]

    def accepted_since(self, account_id: str, since: timedelta, *,
                       session: Session | None = None) -> list[Challenge]:
        """The account's challenges accepted in the last ``since`` (posted or accepted by
        it): the poster's page goes to the game from there (in ``session`` if given)."""
        if session is None:
            with self.db.session() as own:
                return self.accepted_since(account_id, since, session=own)
        rows = session.execute(_ACCEPTED, {"account_id": account_id,
                                           "after": self.now() - since}).all()
        return [_challenge(row, name) for row, name in rows]

    def claim(self, challenge_id: str, acceptor_id: str) -> Challenge:
        """Accept the challenge for ``acceptor_id``: it is taken in one transaction that
        only one acceptor wins (:class:`LobbyError` for the others, for one's own
        challenge, and for a challenge no longer open; :class:`ChallengeNotFound`)."""
        now = self.now()

        def work(session: Session) -> Challenge:
            row, name = _locked(session, challenge_id)
            if row.poster_id == acceptor_id:
                raise LobbyError("this is your own challenge: another player accepts it")
            if row.state == ChallengeState.ACCEPTED.value:
                raise LobbyError("this challenge was accepted by someone else already")
            if row.state != ChallengeState.OPEN.value:
                raise LobbyError("this challenge is no longer open")
            taken = rowcount(session.execute(
                update(LobbyChallengeRow)
                .where(LobbyChallengeRow.id == challenge_id, self._open(now))
                .values(state=ChallengeState.ACCEPTED.value, acceptor_id=acceptor_id,
                        closed_at=now)))
            if taken != 1:
                raise LobbyError("this challenge is no longer open (its time ran out, or "
                                 "its poster signed out)")
            session.flush()
            session.refresh(row)
            return _challenge(row, name)

        result: Challenge = self._transaction(work)
        return result

    def attach_game(self, challenge_id: str, game_id: str) -> None:
        """The game made for an accepted challenge."""
        with self.db.session() as session, session.begin():
            session.execute(update(LobbyChallengeRow)
                            .where(LobbyChallengeRow.id == challenge_id)
                            .values(game_id=game_id))

    def reopen(self, challenge_id: str) -> None:
        """An accepted challenge whose game could not be made is open again."""
        with self.db.session() as session, session.begin():
            session.execute(update(LobbyChallengeRow).where(
                LobbyChallengeRow.id == challenge_id, LobbyChallengeRow.game_id.is_(None))
                .values(state=ChallengeState.OPEN.value, acceptor_id=None, closed_at=None))

    def cancel(self, challenge_id: str, account_id: str) -> Challenge:
        """Cancel an open challenge: its poster only (:class:`NotYourChallenge`; a
        challenge no longer open, :class:`LobbyError`)."""
        now = self.now()

        def work(session: Session) -> Challenge:
            row, name = _locked(session, challenge_id)
            if row.poster_id != account_id:
                raise NotYourChallenge("only its poster may cancel a challenge")
            if row.state != ChallengeState.OPEN.value:
                raise LobbyError("this challenge is no longer open")
            row.state, row.closed_at = ChallengeState.CANCELLED.value, now
            session.flush()
            return _challenge(row, name)

        result: Challenge = self._transaction(work)
        return result

    # ---- waiting -------------------------------------------------------------------------
    def entry(self, account_id: str, *, session: Session | None = None) -> Waiting | None:
        """The account's place in the waiting list (in ``session`` if given)."""
        if session is None:
            with self.db.session() as own:
                return self.entry(account_id, session=own)
        row = session.get(LobbyWaitingRow, account_id)
        return None if row is None else _waiting(row)

    def wait(self, account_id: str, mu: float) -> Waiting:
        """Put the account on the waiting list (once: a second call keeps its place and
        marks it seen). Once paired, the entry stays as it is while its game goes on;
        after that game, a call waits anew."""
        now = self.now()

        def work(session: Session) -> Waiting:
            row = session.get(LobbyWaitingRow, account_id)
            if row is not None and row.game_id is not None:
                phase = session.scalar(select(GameRow.phase).where(GameRow.id == row.game_id))
                if phase is not None and phase != "over":
                    return _waiting(row)  # paired: its game goes on
                session.delete(row)  # a pair of the past: wait anew
                session.flush()
                row = None
            if row is None:
                row = LobbyWaitingRow(account_id=account_id, mu=mu, since=now, seen_at=now)
                session.add(row)
            else:
                row.seen_at = now
            session.flush()
            return _waiting(row)

        result: Waiting = self._transaction(work)
        return result

    def leave(self, account_id: str) -> bool:
        """Off the waiting list (not once paired: the game is being made). Was it on?"""
        with self.db.session() as session, session.begin():
            return rowcount(session.execute(delete(LobbyWaitingRow).where(
                LobbyWaitingRow.account_id == account_id,
                LobbyWaitingRow.partner_id.is_(None)))) > 0

    def waiting_count(self) -> int:
        since = self.now() - WAITING_SEEN
        with self.db.session() as session:
            return session.scalar(select(func.count()).select_from(LobbyWaitingRow).where(
                LobbyWaitingRow.partner_id.is_(None),
                LobbyWaitingRow.seen_at > since)) or 0

    def pair(self, account_id: str) -> tuple[Waiting | None, bool]:
        """Mark the waiting account seen and, if it has no partner yet, pair it with the
        waiting account nearest its rating within both windows
        (:func:`~hasamigo.lobby.model.window`). Returns its entry (``partner_id`` set
        when paired; ``None``: not waiting) and whether this call paired it (then its
        caller makes the game). One transaction: an account is paired once, whichever
        servers ask at the same moment."""
        now = self.now()

        def work(session: Session) -> tuple[Waiting | None, bool]:
            _pairing_lock(session)
            me = session.scalar(select(LobbyWaitingRow)
                                .where(LobbyWaitingRow.account_id == account_id)
                                .with_for_update())
            if me is None:
                return None, False
            me.seen_at = now
            if me.partner_id is not None:
                stale = me.game_id is None and me.paired_at is not None \
                    and now - aware(me.paired_at) > PAIR_STALE
                if not stale:
                    session.flush()
                    return _waiting(me), False
                self._unpair(session, account_id, me.partner_id)  # its server stopped
                session.refresh(me)
            rows = {row.account_id: row for row in session.scalars(
                select(LobbyWaitingRow).where(
                    LobbyWaitingRow.account_id != account_id,
                    LobbyWaitingRow.partner_id.is_(None),
                    LobbyWaitingRow.seen_at > now - WAITING_SEEN)
                .order_by(LobbyWaitingRow.account_id).with_for_update())}
            mine = window((now - aware(me.since)).total_seconds())
            best: LobbyWaitingRow | None = None
            for other in rows.values():
                if other.account_id == account_id or other.partner_id is not None:
                    continue
                gap = abs(other.mu - me.mu)
                theirs = window((now - aware(other.since)).total_seconds())
                if gap <= min(mine, theirs) and (
                        best is None or gap < abs(best.mu - me.mu)
                        or (gap == abs(best.mu - me.mu) and other.since < best.since)):
                    best = other
            if best is not None:
                for one, two in ((account_id, best.account_id),
                                 (best.account_id, account_id)):
                    done = rowcount(session.execute(
                        update(LobbyWaitingRow)
                        .where(LobbyWaitingRow.account_id == one,
                               LobbyWaitingRow.partner_id.is_(None))
                        .values(partner_id=two, paired_at=now)))
                    if done != 1:  # pragma: no cover - the rows are locked
                        raise OperationalError("pairing", {}, Exception("paired meanwhile"))
                session.flush()
                session.refresh(me)
                return _waiting(me), True
            session.flush()
            return _waiting(me), False

        result: tuple[Waiting | None, bool] = self._transaction(work)
        return result

    @staticmethod
    def _unpair(session: Session, a: str, b: str) -> None:
        session.execute(update(LobbyWaitingRow)
                        .where(LobbyWaitingRow.account_id.in_((a, b)),
                               LobbyWaitingRow.game_id.is_(None))
                        .values(partner_id=None, paired_at=None))

    def set_game(self, a: str, b: str, game_id: str) -> None:
        """The game made for the pair ``a``, ``b``."""
        with self.db.session() as session, session.begin():
            _pairing_lock(session)
            session.execute(update(LobbyWaitingRow)
                            .where(LobbyWaitingRow.account_id.in_((a, b)))
                            .values(game_id=game_id))

    def unpair(self, a: str, b: str) -> None:
        """A pair whose game could not be made waits again, each with its place."""
        with self.db.session() as session, session.begin():
            _pairing_lock(session)
            self._unpair(session, a, b)

    # ---- games ---------------------------------------------------------------------------
    def live_games(self, limit: int = 50) -> list[LiveGameRow]:
        """Public games being played now between two people in two browsers (the second
        has taken its seat), the latest started first (an order a move does not
        change)."""
        second = exists().where(GameSeatRow.game_id == GameRow.id,
                                GameSeatRow.kind == "token", GameSeatRow.participants == "1")
        with self.db.session() as session:
            rows = session.execute(
                select(GameRow.id, GameRow.variant, GameRow.black, GameRow.white,
                       GameRow.setup, GameRow.created_at)
                .where(GameRow.public.is_(True), GameRow.phase != "over",
                       GameRow.opponent == "person", second)
                .order_by(GameRow.created_at.desc(), GameRow.id).limit(limit)).all()
        return [LiveGameRow(gid, variant, black, white,
                            bool(_options(setup).get("rated", False)),
                            _options(setup).get("days_per_move"), aware(created))
                for gid, variant, black, white, setup, created in rows]

    def unfinished_games(self, account_id: str, limit: int = 50, *,
                         session: Session | None = None) -> list[HeldGame]:
        """The games not over in which the account holds a seat (or has one kept for it),
        correspondence games first, then the latest started (in ``session`` if given)."""
        if session is None:
            with self.db.session() as own:
                return self.unfinished_games(account_id, limit, session=own)
        held: dict[str, set[int]] = {}
        found: list[Any] = []
        for row in session.execute(_HELD, {"account_id": account_id,
                                           "rows": _SEATS_A_GAME * limit}):
            if row.id not in held:
                if len(held) == limit:
                    break
                held[row.id] = set()
                found.append(row)
            held[row.id].update(int(p) for p in row.participants)
        games = [HeldGame(row.id, _options(row.setup).get("days_per_move") is not None,
                          frozenset(held[row.id]), row.event_count, row.black, row.white,
                          aware(row.created_at)) for row in found]
        games.sort(key=lambda g: not g.correspondence)  # stable: the latest started next
        return games

    def viewer(self, account_id: str, accepted_within: timedelta, session: Session
               ) -> ViewerRows:
        """What the lobby shows one account of its own, read in ``session`` (one
        transaction of the caller's): its unfinished games, its challenges accepted in
        the last ``accepted_within``, its place in the waiting list."""
        return ViewerRows(self.unfinished_games(account_id, session=session),
                          self.accepted_since(account_id, accepted_within,
                                             session=session),
                          self.entry(account_id, session=session))

    def names(self, account_ids: list[str]) -> dict[str, str]:
        """The names of these accounts (those that exist)."""
        with self.db.session() as session:
            return {account_id: name for account_id, name in session.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(account_ids)))}


def _locked(session: Session, challenge_id: str) -> tuple[LobbyChallengeRow, str]:
    """A challenge's row, locked for this transaction, and its poster's name
    (:class:`ChallengeNotFound` if there is none)."""
    found = session.execute(
        select(LobbyChallengeRow, AccountRow.name)
        .join(AccountRow, AccountRow.id == LobbyChallengeRow.poster_id)
        .where(LobbyChallengeRow.id == challenge_id)
        .with_for_update(of=LobbyChallengeRow)).first()
    if found is None:
        raise ChallengeNotFound("no such challenge")
    row, name = found
    return row, name


__all__ = ["ID_CHARS", "HeldGame", "LiveGameRow", "LobbyStore", "ViewerRows"]
