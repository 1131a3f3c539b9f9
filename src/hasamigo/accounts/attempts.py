"""The attempts the accounts' limits count, in the database (:class:`AttemptLog`, table
``account_attempts``): failed sign-ins per client address, per name and per trusted
browser, and sign-ups per address.

Counted in the database, not in a server's memory, so that every process serving the
same database (``hasamigo serve --workers N``, several machines) sees the same counts, and
a restart forgets none. A row is a key and an instant: the key is the SHA-256 of what the
attempt is counted against (:func:`address_key`, :func:`name_key_of`, :func:`device_key`,
:func:`signup_key`), never the address, name or anything typed (a password typed into the
name field stays nowhere). Rows older than :data:`KEEP`, the longest window, are pruned.

An attempt is counted before it is tried (:meth:`AttemptLog.begin`: its rows written,
then the window counted), so that requests sent at once to several servers cannot all slip
under a limit; an attempt refused by a limit leaves no row (a client that keeps knocking
waits no longer than the window says), and a sign-in that succeeds takes its rows back
(:meth:`AttemptLog.forget`): only failures count against a sign-in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, insert, select

from hasamigo.storage.db import Database
from hasamigo.storage.models import AccountAttemptRow
from hasamigo.storage.rows import aware, rowcount

#: the longest window a limit may have; older rows are pruned
KEEP = timedelta(hours=1)
#: a process prunes at most this often (as it counts an attempt)
PRUNE_EVERY = timedelta(minutes=1)


def _key(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()


def address_key(address: str) -> str:
    """The key of the failed sign-ins from a client address."""
    return _key("address", address[:200])


def name_key_of(key: str) -> str:
    """The key of the failed sign-ins with a name, given the name's key
    (:func:`hasamigo.accounts.model.name_key`)."""
    return _key("name", key[:80])


def device_key(token_hash: str) -> str:
    """The key of the failed sign-ins from a trusted browser, given its device token's
    hash."""
    return _key("device", token_hash)


def signup_key(address: str) -> str:
    """The key of the sign-ups from a client address."""
    return _key("signup", address[:200])


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``count`` attempts per ``window`` counted against ``key`` (a hashed key of
    this module); ``what`` names them in a refusal ("sign-in attempts for this name")."""

    key: str
    count: int
    window: timedelta
    what: str

    def __post_init__(self) -> None:
        if self.count < 1 or not timedelta(0) < self.window <= KEEP:
            raise ValueError(f"a limit counts at least one attempt over at most {KEEP}")


@dataclass(frozen=True, slots=True)
class Refusal:
    """An attempt refused by a limit: which (``what``) and the seconds until one more
    would be counted."""

    what: str
    wait: float


class AttemptLog:
    """The counted attempts of a :class:`~hasamigo.storage.db.Database`; ``clock`` gives
    now (UTC, the same clock for every process: the wall clock)."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.now = clock
        self._pruned: datetime | None = None

    def begin(self, limits: Sequence[Limit]) -> list[int] | Refusal:
        """Count an attempt against every limit: the ids of its rows (give them to
        :meth:`forget` if the attempt should not count after all), or the
        :class:`Refusal` of the limit that holds the longest (nothing is then counted)."""
        now = self.now()
        self._prune_now_and_then(now)
        with self.db.session() as session, session.begin():
            ids = [int(i) for i in session.scalars(
                insert(AccountAttemptRow).returning(AccountAttemptRow.id),
                [{"key": limit.key, "at": now} for limit in limits])]
        # Counted after the rows are committed: of two attempts made at once on two
        # servers, the later to commit sees both.
        refusals = []
        with self.db.session() as session:
            for limit in limits:
                since = now - limit.window
                others = sorted(aware(at) for at in session.scalars(
                    select(AccountAttemptRow.at).where(
                        AccountAttemptRow.key == limit.key, AccountAttemptRow.at > since,
                        AccountAttemptRow.id.not_in(ids))))
                if len(others) >= limit.count:
                    free_at = others[len(others) - limit.count] + limit.window
                    refusals.append(Refusal(limit.what, max(
                        (free_at - now).total_seconds(), 0.0)))
        if refusals:
            self.forget(ids)
            return max(refusals, key=lambda r: r.wait)
        return ids

    def forget(self, ids: Iterable[int]) -> None:
        """Take back the rows of an attempt (a sign-in that succeeded)."""
        ids = list(ids)
        if ids:
            with self.db.session() as session, session.begin():
                session.execute(delete(AccountAttemptRow)
                                .where(AccountAttemptRow.id.in_(ids)))

    def count(self, key: str, window: timedelta = KEEP) -> int:
        """The attempts counted against ``key`` over the last ``window``."""
        since = self.now() - window
        with self.db.session() as session:
            return int(session.scalar(select(func.count()).select_from(AccountAttemptRow)
                                      .where(AccountAttemptRow.key == key,
                                             AccountAttemptRow.at > since)) or 0)

    def prune(self) -> int:
        """Delete the rows older than :data:`KEEP` (no limit looks at them); how many."""
        now = self.now()
        self._pruned = now
        with self.db.session() as session, session.begin():
            return rowcount(session.execute(
                delete(AccountAttemptRow).where(AccountAttemptRow.at < now - KEEP)))

    def _prune_now_and_then(self, now: datetime) -> None:
        if self._pruned is None or now - self._pruned >= PRUNE_EVERY or now < self._pruned:
            self.prune()


__all__ = ["KEEP", "AttemptLog", "Limit", "Refusal", "address_key", "device_key",
           "name_key_of", "signup_key"]
