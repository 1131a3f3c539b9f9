"""Accounts, their sessions and trusted browsers in the database (:class:`AccountStore`;
tables ``accounts``, ``account_sessions`` and ``account_devices`` of
:mod:`hasamigo.storage.models`).

A session is a random token (256 bits) handed to the browser once; only its SHA-256 is
stored, so a copy of the database signs nobody in. A session ends at sign-out (its row is
deleted), after :data:`~hasamigo.accounts.model.SESSION_IDLE_DAYS` unused, or
:data:`~hasamigo.accounts.model.SESSION_MAX_DAYS` after sign-in. Every state is in the
database: any of several servers reads any session.

A trusted browser ("device cookie") is likewise a random token of which only the hash is
stored, bound to one account: given at sign-in, kept at sign-out, unused for
:data:`~hasamigo.accounts.model.DEVICE_DAYS` no longer trusted, deleted with the account
(:mod:`hasamigo.accounts.attempts` says what it is trusted for).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hasamigo.accounts.attempts import device_key, name_key_of
from hasamigo.accounts.model import (
    DEVICE_DAYS,
    DEVICES_KEPT,
    SESSION_IDLE_DAYS,
    SESSION_MAX_DAYS,
    Account,
    AccountNotFound,
    NameTaken,
    check_password,
    name_key,
    normalise_name,
)
from hasamigo.game.events import SeatNamed
from hasamigo.passwords import hash_password, verify_and_update, verify_password
from hasamigo.storage.db import Database
from hasamigo.storage.models import (
    AccountAttemptRow,
    AccountDeviceRow,
    AccountRow,
    AccountSessionRow,
    GameEventRow,
    GameRow,
    GameSeatRow,
)
from hasamigo.storage.rows import aware, rowcount

#: the longest session token read (``secrets.token_urlsafe(32)`` is 43 characters)
TOKEN_LENGTH = 64
#: a session's ``seen_at`` is written at most this often (not on every request)
TOUCH_EVERY = timedelta(hours=1)
#: the name a deleted account's seats show in the games it played (the name rules refuse
#: parentheses: no account can be called this)
DELETED_NAME = "(deleted)"


def token_hash(token: str) -> str:
    """The hex SHA-256 a session token is stored as."""
    return hashlib.sha256(token.encode()).hexdigest()


@functools.cache
def _decoy_hash() -> str:
    """A hash checked when the name is unknown, so that a wrong name takes as long to
    refuse as a wrong password (the answer's time does not tell which names exist)."""
    return hash_password(secrets.token_hex(16))


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, aware(row.created_at))


class AccountStore:
    """The accounts of a :class:`~hasamigo.storage.db.Database`; ``clock`` gives now
    (UTC)."""

    def __init__(self, db: Database, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.db = db
        self.now = clock

    # ---- accounts ------------------------------------------------------------------------
    def create(self, name: str, password: str) -> Account:
        """A new account (:class:`~hasamigo.accounts.model.InvalidName`,
        :class:`~hasamigo.accounts.model.InvalidPassword`, :class:`NameTaken`)."""
        shown = normalise_name(name)
        check_password(password, shown)
        row = AccountRow(id=secrets.token_hex(16), name=shown, name_key=name_key(shown),
                         password_hash=hash_password(password), created_at=self.now())
        try:
            with self.db.session() as session, session.begin():
                session.add(row)
        except IntegrityError:
            raise NameTaken(f"the name {shown!r} is taken") from None
        return _account(row)

    def by_id(self, account_id: str) -> Account | None:
        if not isinstance(account_id, str) or len(account_id) != 32:
            return None
        with self.db.session() as session:
            row = session.get(AccountRow, account_id)
            return None if row is None else _account(row)

    def by_name(self, name: str) -> Account | None:
        """The account of ``name`` (any case, any width), else ``None``."""
        if not isinstance(name, str) or len(name) > 200:
            return None
        key = name_key(name.strip())
        with self.db.session() as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == key))
            return None if row is None else _account(row)

    def get(self, account_id: str) -> Account:
        """:meth:`by_id`, or :class:`AccountNotFound`."""
        account = self.by_id(account_id)
        if account is None:
            raise AccountNotFound("no such account")
        return account

    def all(self) -> list[Account]:
        """Every account, oldest first."""
        with self.db.session() as session:
            return [_account(row) for row in session.scalars(
                select(AccountRow).order_by(AccountRow.created_at, AccountRow.id))]

    def authenticate(self, name: str, password: str) -> Account | None:
        """The account of ``name`` if ``password`` is its password, else ``None`` (an
        unknown name and a wrong password take as long). A hash in an older format or
        with weaker parameters is replaced by a new one on success."""
        key = name_key(name.strip()) if isinstance(name, str) and len(name) <= 200 else ""
        with self.db.session() as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == key))
        if row is None:
            verify_password(password, _decoy_hash())
            return None
        ok, new_hash = verify_and_update(password, row.password_hash)
        if not ok:
            return None
        if new_hash is not None:
            with self.db.session() as session, session.begin():
                session.execute(update(AccountRow).where(AccountRow.id == row.id)
                                .values(password_hash=new_hash))
        return _account(row)

    def check(self, account_id: str, password: str) -> bool:
        """Is ``password`` the account's password (asked again before a deletion)?"""
        with self.db.session() as session:
            stored = session.scalar(select(AccountRow.password_hash)
                                    .where(AccountRow.id == account_id))
        if stored is None:
            verify_password(password, _decoy_hash())
            return False
        return verify_password(password, stored)

    def delete(self, account_id: str) -> list[str]:
        """Delete the account and everything personal of it, in one transaction: its
        sessions, its trusted browsers and the failed sign-ins counted against its name and
        them, its name and password hash, its hold on seats (the seats and games stay
        for the opponents); in each game it held a seat of, that seat's participant is
        renamed :data:`DELETED_NAME` (the setup and the library's columns) and loses its
        rank and birth year. Returns the games changed (:class:`AccountNotFound` if there
        is no such account). Its ratings are not the accounts' to know: the front end
        deletes them (``RatingStore.forget``)."""
        with self.db.session() as session, session.begin():
            row = session.get(AccountRow, account_id)
            if row is None:
                raise AccountNotFound("no such account")
            held: dict[str, set[int]] = {}
            for game_id, participants in session.execute(
                    select(GameSeatRow.game_id, GameSeatRow.participants)
                    .where(GameSeatRow.account_id == account_id)):
                held.setdefault(game_id, set()).update(int(p) for p in participants)
            for game_id, seats in held.items():
                game = session.get(GameRow, game_id)
                if game is not None:
                    _anonymise(session, game, seats)
            session.execute(update(GameSeatRow).where(GameSeatRow.account_id == account_id)
                            .values(account_id=None)
                            .execution_options(synchronize_session=False))
            session.execute(delete(AccountSessionRow)
                            .where(AccountSessionRow.account_id == account_id))
            devices = list(session.scalars(select(AccountDeviceRow.token_hash).where(
                AccountDeviceRow.account_id == account_id)))
            session.execute(delete(AccountDeviceRow)
                            .where(AccountDeviceRow.account_id == account_id))
            counted = [name_key_of(row.name_key), *(device_key(h) for h in devices)]
            session.execute(delete(AccountAttemptRow)
                            .where(AccountAttemptRow.key.in_(counted)))
            session.delete(row)
        return sorted(held)

    # ---- sessions ------------------------------------------------------------------------
    def open_session(self, account_id: str) -> str:
        """A new session of the account: its token (given to the browser; only its hash
        is kept)."""
        token = secrets.token_urlsafe(32)
        now = self.now()
        try:
            with self.db.session() as session, session.begin():
                session.add(AccountSessionRow(token_hash=token_hash(token),
                                              account_id=account_id, created_at=now,
                                              seen_at=now))
        except IntegrityError:  # the account was deleted meanwhile
            raise AccountNotFound("no such account") from None
        return token

    def session_account(self, token: str) -> Account | None:
        """The account the session ``token`` is signed in to, or ``None`` (no such
        session, ended, expired: an expired session's row is deleted). Marks the session
        seen (at most once per :data:`TOUCH_EVERY`)."""
        if not isinstance(token, str) or not 0 < len(token) <= TOKEN_LENGTH:
            return None
        hashed = token_hash(token)
        now = self.now()
        with self.db.session() as session:
            found = session.execute(
                select(AccountSessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == AccountSessionRow.account_id)
                .where(AccountSessionRow.token_hash == hashed)).first()
        if found is None:
            return None
        row, account = found
        seen, created = aware(row.seen_at), aware(row.created_at)
        if now - seen > timedelta(days=SESSION_IDLE_DAYS) \
                or now - created > timedelta(days=SESSION_MAX_DAYS):
            self.close_session(token)
            return None
        if now - seen >= TOUCH_EVERY:
            self.touch(token)
        return _account(account)

    def touch(self, token: str) -> None:
        """Mark the session seen now."""
        with self.db.session() as session, session.begin():
            session.execute(update(AccountSessionRow)
                            .where(AccountSessionRow.token_hash == token_hash(token))
                            .values(seen_at=self.now()))

    def close_session(self, token: str) -> bool:
        """End the session (sign-out): its row is deleted. Was there one?"""
        with self.db.session() as session, session.begin():
            return rowcount(session.execute(
                delete(AccountSessionRow)
                .where(AccountSessionRow.token_hash == token_hash(token)))) > 0

    def close_sessions(self, account_id: str) -> int:
        """End every session of the account; how many there were."""
        with self.db.session() as session, session.begin():
            return rowcount(session.execute(
                delete(AccountSessionRow).where(AccountSessionRow.account_id == account_id)))

    # ---- trusted browsers ----------------------------------------------------------------
    def open_device(self, account_id: str) -> str:
        """Trust a new browser of the account: its device token (given to the browser in
        a long-lived cookie; only its hash is kept). The account's browsers unused for
        :data:`DEVICE_DAYS`, and the least recently used beyond :data:`DEVICES_KEPT`, are
        forgotten."""
        token = secrets.token_urlsafe(32)
        now = self.now()
        try:
            with self.db.session() as session, session.begin():
                session.add(AccountDeviceRow(token_hash=token_hash(token),
                                             account_id=account_id, created_at=now,
                                             seen_at=now))
                session.flush()
                kept = session.scalars(
                    select(AccountDeviceRow.token_hash)
                    .where(AccountDeviceRow.account_id == account_id,
                           AccountDeviceRow.seen_at > now - timedelta(days=DEVICE_DAYS))
                    .order_by(AccountDeviceRow.seen_at.desc(),
                              AccountDeviceRow.created_at.desc())
                    .limit(DEVICES_KEPT)).all()
                session.execute(delete(AccountDeviceRow).where(
                    AccountDeviceRow.account_id == account_id,
                    AccountDeviceRow.token_hash.not_in(kept)))
        except IntegrityError:  # the account was deleted meanwhile
            raise AccountNotFound("no such account") from None
        return token

    def device_account(self, token: str | None) -> str | None:
        """The id of the account that trusts the browser whose device token this is, or
        ``None`` (no such token, forged, or unused for :data:`DEVICE_DAYS`)."""
        if not isinstance(token, str) or not 0 < len(token) <= TOKEN_LENGTH:
            return None
        with self.db.session() as session:
            row = session.get(AccountDeviceRow, token_hash(token))
        if row is None or self.now() - aware(row.seen_at) > timedelta(days=DEVICE_DAYS):
            return None
        return row.account_id

    def touch_device(self, token: str) -> None:
        """Mark the trusted browser used now (a sign-in from it)."""
        with self.db.session() as session, session.begin():
            session.execute(update(AccountDeviceRow)
                            .where(AccountDeviceRow.token_hash == token_hash(token))
                            .values(seen_at=self.now()))

    def device_count(self, account_id: str) -> int:
        with self.db.session() as session:
            return len(session.scalars(select(AccountDeviceRow.token_hash).where(
                AccountDeviceRow.account_id == account_id)).all())

    def session_count(self, account_id: str) -> int:
        with self.db.session() as session:
            return len(session.scalars(select(AccountSessionRow.token_hash).where(
                AccountSessionRow.account_id == account_id)).all())


def _anonymise(session: Session, game: GameRow, seats: set[int]) -> None:
    """Rename the participants ``seats`` of a stored game :data:`DELETED_NAME` (setup,
    summary, and the names its events gave them: an account that took a seat is named by
    a :class:`~hasamigo.game.events.SeatNamed`), without rank or birth year. A seat
    whose opponent is called :data:`DELETED_NAME` already (deleted before, or both seats
    were this account's) is ``(deleted) #2``: a game's two players never share a name."""
    setup = copy.deepcopy(game.setup)
    people = setup.get("participants") if isinstance(setup, dict) else None
    if not isinstance(people, list) or len(people) != 2 \
            or not all(isinstance(p, dict) for p in people):
        return
    named = list(session.scalars(
        select(GameEventRow).where(GameEventRow.game_id == game.id,
                                   GameEventRow.kind == SeatNamed.kind)
        .order_by(GameEventRow.seq)))
    shown = [person.get("name") for person in people]  # as the game calls them now
    for event in named:
        if isinstance(event.data, dict) and event.data.get("seat") in (0, 1):
            shown[event.data["seat"]] = event.data.get("name")
    for seat in sorted(seats):
        if seat not in (0, 1):
            continue
        new = DELETED_NAME if shown[1 - seat] != DELETED_NAME else f"{DELETED_NAME} #2"
        people[seat].update(name=new, rank=None, birth_year=None)
        for event in named:
            if isinstance(event.data, dict) and event.data.get("seat") == seat:
                event.data = {**event.data, "name": new}
        if game.black == shown[seat]:
            game.black = new
        if game.white == shown[seat]:
            game.white = new
        shown[seat] = new
    game.setup = setup


__all__ = ["DELETED_NAME", "TOKEN_LENGTH", "AccountStore", "token_hash"]
