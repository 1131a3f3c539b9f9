"""Reading and writing ratings (:class:`RatingStore`): the current rating of each subject
per pool, and each change a rated game made, before and after.

:meth:`RatingStore.record` rates a game once: its changes are unique per (pool, game,
subject), so a second call for the same game — the same server again, or another server
that saw the game end at the same moment — writes nothing and returns the changes the
first one stored. The current ratings it reads are locked for the transaction (SQLite's
write lock; ``SELECT … FOR UPDATE`` on PostgreSQL, in the subjects' order), so two games of
one player ending at once on two servers both count, one after the other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from hasamigo.ratings import system
from hasamigo.ratings.model import Pool, Rating, RatingChange, check_subject
from hasamigo.ratings.outcome import Placings
from hasamigo.storage.db import Database, write_lock
from hasamigo.storage.models import RatingChangeRow, RatingRow
from hasamigo.storage.rows import aware, rowcount

#: a game's reference: ``game:<id>``, ``multi:<id>``, ``tournament:<id>:<round>:<board>``…
GAME_REF_CHARS = 120
#: how often a transaction that met another one's write is tried again
ATTEMPTS = 4


def check_game_ref(game_ref: str) -> str:
    if not (0 < len(game_ref) <= GAME_REF_CHARS and game_ref.isprintable()
            and ":" in game_ref and game_ref.isascii()):
        raise ValueError(f"a game's reference is 'kind:id', printable ASCII, at most "
                         f"{GAME_REF_CHARS} characters")
    return game_ref


class RatingStore:
    """The ratings kept in ``db`` (migrated by its owner)."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        self._clock = clock

    def _time(self) -> datetime:
        return datetime.now(UTC) if self._clock is None else self._clock()

    # ---- reading -------------------------------------------------------------------------
    def current(self, subject: str, pool: Pool, *, session: Session | None = None
                ) -> Rating:
        """``subject``'s rating in ``pool``; the pool's start if never rated (read in
        ``session`` if given: a caller's transaction)."""
        return self.current_many([subject], pool, session=session)[subject]

    def current_many(self, subjects: Sequence[str], pool: Pool, *,
                     session: Session | None = None) -> dict[str, Rating]:
        for subject in subjects:
            check_subject(subject)
        if session is None:
            with self.db.session() as own:
                return self.current_many(subjects, pool, session=own)
        rows = session.scalars(select(RatingRow).where(
            RatingRow.pool == pool.value, RatingRow.subject.in_(list(subjects))))
        found = {row.subject: _rating(row) for row in rows}
        return {s: found.get(s) or _fresh(s, pool) for s in subjects}

    def history(self, subject: str, pool: Pool, *, limit: int = 500) -> list[RatingChange]:
        """``subject``'s changes in ``pool``, oldest first (the last ``limit``)."""
        check_subject(subject)
        with self.db.session() as session:
            rows = list(session.scalars(
                select(RatingChangeRow)
                .where(RatingChangeRow.pool == pool.value, RatingChangeRow.subject == subject)
                .order_by(RatingChangeRow.id.desc()).limit(limit)))
        return [_change(row) for row in reversed(rows)]

    def changes_of(self, game_ref: str, pool: Pool | None = None) -> list[RatingChange]:
        """The changes one game made (none: not rated), in the order they were written."""
        with self.db.session() as session:
            return _stored(session, game_ref, pool)

    def pools_of(self, subject: str) -> list[Rating]:
        """``subject``'s ratings in every pool it was rated in."""
        check_subject(subject)
        with self.db.session() as session:
            rows = session.scalars(select(RatingRow).where(RatingRow.subject == subject))
            return sorted((_rating(row) for row in rows), key=lambda r: list(Pool).index(r.pool))

    def top(self, pool: Pool, *, limit: int = 50, prefix: str = "") -> list[Rating]:
        """The highest ratings of ``pool`` (subjects starting with ``prefix``)."""
        with self.db.session() as session:
            query = select(RatingRow).where(RatingRow.pool == pool.value)
            if prefix:
                query = query.where(RatingRow.subject.startswith(prefix, autoescape=True))
            rows = session.scalars(query.order_by(RatingRow.mu.desc()).limit(limit))
            return [_rating(row) for row in rows]

    # ---- writing -------------------------------------------------------------------------
    def record(self, game_ref: str, outcome: Placings) -> list[RatingChange]:
        """Rate one game by the library (:func:`hasamigo.ratings.system.rate`): every
        subject's rating before, after, and its score; all in one transaction. A game
        already rated in this pool is not rated again: its stored changes are returned."""
        check_game_ref(game_ref)
        for attempt in range(ATTEMPTS):
            try:
                with self.db.session() as session, session.begin():
                    return self._record(session, game_ref, outcome)
            except (IntegrityError, OperationalError):
                # another server rated this game, or first rated one of these subjects,
                # or a lock was broken to end a deadlock: what it wrote is read again
                if attempt == ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _record(self, session: Session, game_ref: str, outcome: Placings) -> list[RatingChange]:
        write_lock(session)
        pool = outcome.pool
        done = _stored(session, game_ref, pool)
        if done:
            return done
        order = sorted(outcome.subjects)  # locks in one order on every server
        rows = {row.subject: row for row in session.scalars(
            select(RatingRow).where(RatingRow.pool == pool.value,
                                    RatingRow.subject.in_(order))
            .order_by(RatingRow.subject).with_for_update())}
        now = self._time()
        before = [_rating(rows[s]) if s in rows else _fresh(s, pool) for s in outcome.subjects]
        after = system.rate([(r.mu, r.sigma) for r in before], outcome.ranks)
        changes: list[RatingChange] = []
        for index, (old, (mu, sigma)) in enumerate(zip(before, after, strict=True)):
            subject = outcome.subjects[index]
            row = rows.get(subject)
            if row is None:
                row = RatingRow(pool=pool.value, subject=subject, mu=mu, sigma=sigma, games=1,
                                updated_at=now)
                session.add(row)
            else:
                row.mu, row.sigma, row.games, row.updated_at = mu, sigma, row.games + 1, now
            score = outcome.score(index)
            session.add(RatingChangeRow(
                pool=pool.value, game_ref=game_ref, subject=subject, mu_before=old.mu,
                sigma_before=old.sigma, mu_after=mu, sigma_after=sigma,
                games_after=old.games + 1, score=score, created_at=now))
            changes.append(RatingChange(
                pool, game_ref, subject, old,
                Rating(subject, pool, mu, sigma, old.games + 1, now), score, now))
        session.flush()
        return changes

    def forget(self, subject: str) -> int:
        """Delete ``subject``'s ratings and changes in every pool (an account deleted);
        the opponents' own changes stay. Returns the rows deleted."""
        check_subject(subject)
        with self.db.session() as session, session.begin():
            gone = rowcount(session.execute(delete(RatingChangeRow).where(
                RatingChangeRow.subject == subject)))
            gone += rowcount(session.execute(delete(RatingRow).where(
                RatingRow.subject == subject)))
        return gone


def _fresh(subject: str, pool: Pool) -> Rating:
    mu, sigma = system.start()
    return Rating(subject, pool, mu, sigma)


def _rating(row: RatingRow) -> Rating:
    return Rating(row.subject, Pool(row.pool), row.mu, row.sigma, row.games,
                  aware(row.updated_at))


def _change(row: RatingChangeRow) -> RatingChange:
    pool = Pool(row.pool)
    at = aware(row.created_at)
    before = Rating(row.subject, pool, row.mu_before, row.sigma_before, row.games_after - 1,
                    None)
    after = Rating(row.subject, pool, row.mu_after, row.sigma_after, row.games_after, at)
    return RatingChange(pool, row.game_ref, row.subject, before, after, row.score, at)


def _stored(session: Session, game_ref: str, pool: Pool | None) -> list[RatingChange]:
    query = select(RatingChangeRow).where(RatingChangeRow.game_ref == game_ref)
    if pool is not None:
        query = query.where(RatingChangeRow.pool == pool.value)
    return [_change(row) for row in session.scalars(query.order_by(RatingChangeRow.id))]


__all__ = ["GAME_REF_CHARS", "RatingStore", "check_game_ref"]
