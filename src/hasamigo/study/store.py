"""Reading and writing studies: the study, its subjects, their games, the evaluations.

A subject's answers about the programs' moves are events of the subject's stored games
(:class:`~hasamigo.game.events.StudyAnswer`), so they are read with the games; these
tables hold the rest (see :mod:`hasamigo.storage.models`, revisions 0004 and 0009). A
subject who withdraws is deleted with their games (:meth:`StudyRepository.withdraw`); the
study keeps only the count. Every write is
one committed transaction; a subject's arrival number (the row of the counterbalancing
design) is unique within a study, so two subjects arriving at once get different rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from hasamigo.storage.db import Database, write_lock
from hasamigo.storage.models import (
    GameRow,
    StudyEvaluationRow,
    StudyGameRow,
    StudyRow,
    StudySubjectRow,
)
from hasamigo.storage.repository import ConcurrentWrite
from hasamigo.storage.rows import aware


@dataclass(frozen=True, slots=True)
class StoredStudy:
    id: str
    name: str
    settings: dict[str, Any]
    created_at: datetime
    archived_at: datetime | None = None
    withdrawn: int = 0


def _study(row: StudyRow) -> StoredStudy:
    created = aware(row.created_at)
    assert created is not None
    return StoredStudy(row.id, row.name, dict(row.settings), created,
                       aware(row.archived_at), row.withdrawn or 0)


@dataclass(frozen=True, slots=True)
class StoredSubject:
    """A subject as stored (questionnaires as the JSON objects they were answered as)."""

    study_id: str
    code: str
    number: int
    order: tuple[str, ...]
    language: str
    created_at: datetime
    consented_at: datetime | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class StoredStudyGame:
    study_id: str
    code: str
    index: int
    program: str
    game_id: str
    felt: int | None
    felt_note: str | None


def _subject(row: StudySubjectRow) -> StoredSubject:
    created = aware(row.created_at)
    assert created is not None
    return StoredSubject(row.study_id, row.code, row.number, tuple(row.order), row.language,
                         created, aware(row.consented_at), row.before, row.after,
                         aware(row.finished_at))


def _game(row: StudyGameRow) -> StoredStudyGame:
    return StoredStudyGame(row.study_id, row.code, row.index, row.program, row.game_id,
                           row.felt, row.felt_note)


class StudyRepository:
    """Studies in a :class:`~hasamigo.storage.db.Database` (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- studies --------------------------------------------------------------------------
    def create(self, study_id: str, name: str, settings: dict[str, Any],
               password_hash: str) -> None:
        row = StudyRow(id=study_id, name=name, settings=settings,
                       password_hash=password_hash, created_at=datetime.now(UTC))
        try:
            with self.db.session() as session, session.begin():
                session.add(row)
        except IntegrityError as exc:
            raise ConcurrentWrite(f"study {study_id} exists already") from exc

    def study(self, study_id: str) -> StoredStudy | None:
        with self.db.session() as session:
            row = session.get(StudyRow, study_id)
            return None if row is None else _study(row)

    def password_hash(self, study_id: str) -> str | None:
        with self.db.session() as session:
            row = session.get(StudyRow, study_id)
            return None if row is None else row.password_hash

    def replace_password_hash(self, study_id: str, old: str, new: str) -> bool:
        """``new`` in place of ``old``, the same password hashed anew; False when the
        stored hash is no longer ``old``."""
        with self.db.session() as session, session.begin():
            result = session.execute(update(StudyRow)
                                     .where(StudyRow.id == study_id,
                                            StudyRow.password_hash == old)
                                     .values(password_hash=new))
            return bool(getattr(result, "rowcount", 0))

    def studies(self) -> list[tuple[StoredStudy, int]]:
        """Every study with its number of subjects, the newest first."""
        with self.db.session() as session:
            counts = {study_id: n for study_id, n in session.execute(
                select(StudySubjectRow.study_id, func.count())
                .group_by(StudySubjectRow.study_id)).all()}
            rows = session.scalars(select(StudyRow).order_by(StudyRow.created_at.desc(),
                                                             StudyRow.id)).all()
            return [(_study(row), counts.get(row.id, 0)) for row in rows]

    def set_settings(self, study_id: str, settings: dict[str, Any]) -> bool:
        """Replace the study's settings while it has no subjects; ``False`` (nothing
        written) once one has arrived: a running study keeps its protocol and arms."""
        with self.db.session() as session, session.begin():
            write_lock(session)  # it reads before it writes
            row = session.get(StudyRow, study_id)
            if row is None:
                raise KeyError(study_id)
            if session.scalar(select(func.count()).select_from(StudySubjectRow)
                              .where(StudySubjectRow.study_id == study_id)):
                return False
            row.settings = settings
            return True

    def set_archived(self, study_id: str, archived_at: datetime | None) -> StoredStudy:
        """Archive the study (read-only) at ``archived_at``, or re-open it (``None``)."""
        with self.db.session() as session, session.begin():
            row = session.get(StudyRow, study_id)
            if row is None:
                raise KeyError(study_id)
            row.archived_at = archived_at
            session.flush()
            return _study(row)

    # ---- subjects -------------------------------------------------------------------------
    def next_number(self, study_id: str) -> int:
        with self.db.session() as session:
            found = session.scalar(select(func.max(StudySubjectRow.number))
                                   .where(StudySubjectRow.study_id == study_id))
            return 0 if found is None else int(found) + 1

    def add_subject(self, study_id: str, code: str, number: int, order: tuple[str, ...],
                    language: str) -> StoredSubject:
        """A new subject with arrival ``number``; a number or code taken already raises
        :class:`ConcurrentWrite` (the caller draws again)."""
        row = StudySubjectRow(study_id=study_id, code=code, number=number, order=list(order),
                              language=language, created_at=datetime.now(UTC))
        try:
            with self.db.session() as session, session.begin():
                session.add(row)
                session.flush()
                return _subject(row)
        except IntegrityError as exc:
            raise ConcurrentWrite(f"subject number {number} or code exists already") from exc

    def subject(self, study_id: str, code: str) -> StoredSubject | None:
        with self.db.session() as session:
            row = session.get(StudySubjectRow, (study_id, code))
            return None if row is None else _subject(row)

    def subjects(self, study_id: str) -> list[StoredSubject]:
        with self.db.session() as session:
            rows = session.scalars(select(StudySubjectRow)
                                   .where(StudySubjectRow.study_id == study_id)
                                   .order_by(StudySubjectRow.number)).all()
            return [_subject(r) for r in rows]

    def update_subject(self, study_id: str, code: str, **values: Any) -> StoredSubject:
        """Set some of ``consented_at``, ``language``, ``before``, ``after``,
        ``finished_at``."""
        allowed = {"consented_at", "language", "before", "after", "finished_at"}
        if set(values) - allowed:
            raise ValueError(f"cannot set {sorted(set(values) - allowed)}")
        with self.db.session() as session, session.begin():
            write_lock(session)  # it reads before it writes
            row = session.get(StudySubjectRow, (study_id, code))
            if row is None:
                raise KeyError(code)
            for key, value in values.items():
                setattr(row, key, value)
            session.flush()
            return _subject(row)

    def withdraw(self, study_id: str, code: str) -> list[str]:
        """Delete the subject ``code`` and everything of theirs in one transaction: the
        evaluations of their games, their games (with the games' events, seats, reviews,
        which cascade), the rows that say which game is which, the subject; count one more
        withdrawn. The deleted game ids; :class:`KeyError` for no such subject."""
        with self.db.session() as session, session.begin():
            write_lock(session)  # it reads before it writes
            subject = session.get(StudySubjectRow, (study_id, code))
            if subject is None:
                raise KeyError(code)
            game_ids = list(session.scalars(
                select(StudyGameRow.game_id).where(StudyGameRow.study_id == study_id,
                                                   StudyGameRow.code == code)).all())
            session.execute(delete(StudyGameRow).where(StudyGameRow.study_id == study_id,
                                                       StudyGameRow.code == code))
            if game_ids:
                session.execute(delete(StudyEvaluationRow)
                                .where(StudyEvaluationRow.game_id.in_(game_ids)))
                session.execute(delete(GameRow).where(GameRow.id.in_(game_ids)))
            session.delete(subject)
            session.execute(update(StudyRow).where(StudyRow.id == study_id)
                            .values(withdrawn=StudyRow.withdrawn + 1))
            return game_ids

    # ---- the subjects' games -----------------------------------------------------------------
    def add_game(self, study_id: str, code: str, index: int, program: str,
                 game_id: str) -> None:
        """Record that ``game_id`` is the subject's game ``index``; a second game for the
        same place raises :class:`ConcurrentWrite`."""
        row = StudyGameRow(study_id=study_id, code=code, index=index, program=program,
                           game_id=game_id)
        try:
            with self.db.session() as session, session.begin():
                session.add(row)
        except IntegrityError as exc:
            raise ConcurrentWrite(f"game {index} of subject {code} exists already") from exc

    def games(self, study_id: str, code: str | None = None) -> list[StoredStudyGame]:
        with self.db.session() as session:
            query = select(StudyGameRow).where(StudyGameRow.study_id == study_id)
            if code is not None:
                query = query.where(StudyGameRow.code == code)
            rows = session.scalars(query.order_by(StudyGameRow.code,
                                                  StudyGameRow.index)).all()
            return [_game(r) for r in rows]

    def set_felt(self, study_id: str, code: str, index: int, felt: int, note: str) -> bool:
        """The after-game answer; ``False`` (nothing written) when it was given already."""
        with self.db.session() as session, session.begin():
            write_lock(session)  # it reads before it writes
            row = session.get(StudyGameRow, (study_id, code, index))
            if row is None:
                raise KeyError(index)
            if row.felt is not None:
                return False
            row.felt, row.felt_note = felt, note
            return True

    # ---- evaluations --------------------------------------------------------------------------
    def evaluations(self, game_ids: list[str]) -> dict[tuple[str, int], tuple[float, bool]]:
        if not game_ids:
            return {}
        with self.db.session() as session:
            rows = session.scalars(select(StudyEvaluationRow)
                                   .where(StudyEvaluationRow.game_id.in_(game_ids))).all()
            return {(r.game_id, r.move_number): (r.evaluation, r.exact) for r in rows}

    def put_evaluation(self, game_id: str, move_number: int, evaluation: float,
                       exact: bool) -> None:
        with self.db.session() as session, session.begin():
            write_lock(session)  # it reads before it writes
            row = session.get(StudyEvaluationRow, (game_id, move_number))
            if row is None:
                session.add(StudyEvaluationRow(game_id=game_id, move_number=move_number,
                                               evaluation=evaluation, exact=exact))
            else:
                row.evaluation, row.exact = evaluation, exact


__all__ = ["StoredStudy", "StoredStudyGame", "StoredSubject", "StudyRepository"]
