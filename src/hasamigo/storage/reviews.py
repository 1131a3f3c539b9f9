"""Reading and writing game reviews (table ``reviews``, revision 0005).

A review is created once per game (:meth:`ReviewRepository.create` returns the existing
one to a second caller) and grows a row at a time (:meth:`ReviewRepository.append`), each
row committed on its own: a crash or a restart loses no finished row, and the review
resumes from the rows stored. An append names how many rows it expects to be stored
already; one that finds another number (a second writer, a stale worker) changes nothing
and raises :class:`~hasamigo.storage.repository.ConcurrentWrite`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from hasamigo.storage.db import Database
from hasamigo.storage.games import ConcurrentWrite
from hasamigo.storage.models import ReviewRow
from hasamigo.storage.rows import aware, rowcount

ReviewStatus = Literal["queued", "running", "done", "failed"]
STATUSES: tuple[ReviewStatus, ...] = ("queued", "running", "done", "failed")
#: the longest failure message kept
ERROR_LENGTH = 500


@dataclass(frozen=True, slots=True)
class StoredReview:
    """A review as stored: ``rows`` are ``MoveReview.to_json()`` dicts in move order."""

    game_id: str
    depth: int
    exact_empties: int
    rows: tuple[dict[str, Any], ...]
    status: ReviewStatus
    error: str | None
    created_at: datetime
    updated_at: datetime

    @property
    def reviewed(self) -> int:
        return len(self.rows)


def _stored(row: ReviewRow) -> StoredReview:
    status: ReviewStatus = row.status if row.status in STATUSES else "failed"
    rows = tuple(row.moves)
    if len(rows) != row.reviewed:  # the two are written together: never apart
        raise ValueError(f"review of game {row.game_id}: {len(rows)} rows stored, "
                         f"counted {row.reviewed}")
    return StoredReview(row.game_id, row.depth, row.exact_empties, rows, status, row.error,
                        aware(row.created_at), aware(row.updated_at))


class ReviewRepository:
    """Reviews in a :class:`~hasamigo.storage.db.Database` (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, game_id: str, *, depth: int, exact_empties: int
               ) -> tuple[StoredReview, bool]:
        """The game's review, queued if it is new; ``(review, created)``. A game that has
        one already keeps it (whatever ``depth`` asks now). ``KeyError`` for an unknown
        game."""
        now = datetime.now(UTC)
        existing = self.get(game_id)
        if existing is not None:
            return existing, False
        try:
            with self.db.session() as session, session.begin():
                session.add(ReviewRow(game_id=game_id, depth=depth,
                                      exact_empties=exact_empties, moves=[], reviewed=0,
                                      status="queued", error=None, created_at=now,
                                      updated_at=now))
        except IntegrityError as exc:
            # a second creator won the race (the primary key), or the game is gone
            existing = self.get(game_id)
            if existing is None:
                raise KeyError(game_id) from exc
            return existing, False
        created = self.get(game_id)
        assert created is not None
        return created, True

    def get(self, game_id: str) -> StoredReview | None:
        with self.db.session() as session:
            row = session.get(ReviewRow, game_id)
            return None if row is None else _stored(row)

    def append(self, game_id: str, stored: int, row: dict[str, Any]) -> int:
        """Store ``row`` as row number ``stored + 1`` (``stored`` rows are in the database)
        and mark the review running, in one transaction; returns the new count. Raises
        :class:`ConcurrentWrite` if the review holds another number of rows (nothing is
        written), ``KeyError`` if the game has no review."""
        with self.db.session() as session, session.begin():
            # The count's update comes first: it takes the row lock (PostgreSQL) or the
            # write lock (SQLite) before anything is read, so two appends queue up here
            # and the second finds the count moved on.
            changed = session.execute(
                update(ReviewRow)
                .where(ReviewRow.game_id == game_id, ReviewRow.reviewed == stored)
                .values(reviewed=stored + 1, status="running", error=None,
                        updated_at=datetime.now(UTC))
                .execution_options(synchronize_session=False))
            if rowcount(changed) == 0:
                count = session.scalar(select(ReviewRow.reviewed)
                                       .where(ReviewRow.game_id == game_id))
                if count is None:
                    raise KeyError(game_id)
                raise ConcurrentWrite(f"review of game {game_id}: {count} rows stored, "
                                      f"not {stored}")
            moves = session.scalar(select(ReviewRow.moves).where(ReviewRow.game_id == game_id))
            session.execute(
                update(ReviewRow).where(ReviewRow.game_id == game_id)
                .values(moves=[*(moves or []), row])
                .execution_options(synchronize_session=False))
        return stored + 1

    def set_status(self, game_id: str, status: ReviewStatus, error: str | None = None
                   ) -> None:
        """Change the status (``error``: why it failed, kept short). ``KeyError`` if the
        game has no review."""
        if status not in STATUSES:
            raise ValueError(f"unknown review status {status!r}")
        with self.db.session() as session, session.begin():
            changed = session.execute(
                update(ReviewRow).where(ReviewRow.game_id == game_id)
                .values(status=status, updated_at=datetime.now(UTC),
                        error=None if error is None else error[:ERROR_LENGTH])
                .execution_options(synchronize_session=False))
            if rowcount(changed) == 0:
                raise KeyError(game_id)

    def unfinished(self) -> list[str]:
        """The games whose review is queued or running (to resume them at start-up),
        oldest request first."""
        with self.db.session() as session:
            return list(session.scalars(
                select(ReviewRow.game_id)
                .where(ReviewRow.status.in_(("queued", "running")))
                .order_by(ReviewRow.created_at, ReviewRow.game_id)))
