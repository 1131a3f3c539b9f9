"""Reading and writing tournaments: settings, entrants, rounds, pairings, results, audit.

A tournament is stored as its facts and loaded by folding them again
(:class:`hasamigo.tournament.state.Tournament`), so whatever was committed is the whole
state: a server (or a command) stopped in the middle of a round resumes exactly there.

Every write is one transaction together with its audit-log entry (who, when, what before
and after, why), and bumps the tournament's ``updated_at``. Two writers racing for the
same fact (a round paired twice, a board's first result entered twice, two entrants
numbered alike) collide on its primary key: the later one gets
:class:`~hasamigo.storage.repository.ConcurrentWrite` and writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hasamigo.game.result import Termination
from hasamigo.game.setup import NAME_LENGTH
from hasamigo.storage.db import Database
from hasamigo.storage.models import (
    TournamentAuditRow,
    TournamentEntrantRow,
    TournamentPairingRow,
    TournamentResultRow,
    TournamentRoundRow,
    TournamentRow,
)
from hasamigo.storage.repository import ConcurrentWrite
from hasamigo.storage.rows import aware
from hasamigo.tournament.model import (
    BoardResult,
    Colours,
    Decision,
    Entrant,
    Pairing,
    PairingKind,
    Settings,
    Stage,
)
from hasamigo.tournament.state import Tournament

#: the audit log's action of a sanction (注意・警告・退場, rule 21): the record keeps it there
SANCTION = "sanction"


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A tournament as loaded: its id and name, when it was made and last changed, and
    the rebuilt :class:`Tournament`."""

    id: str
    name: str
    created_at: datetime
    updated_at: datetime
    has_password: bool
    tournament: Tournament


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A line of the list of tournaments."""

    id: str
    name: str
    format: str
    entrants: int
    rounds_paired: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One change: who made it when, what it was, the value before and after, why."""

    id: int
    at: datetime
    who: str
    action: str
    round: int | None
    board: int | None
    before: Any
    after: Any
    reason: str | None


def _entrant(row: TournamentEntrantRow) -> Entrant:
    return Entrant(row.number, row.name, row.rank, row.birth_year, row.woman, row.seed,
                   row.division, row.program, row.withdrawn_from, row.born, row.student,
                   row.school_year, row.account_id, row.rating)


def _pairing(row: TournamentPairingRow) -> Pairing:
    return Pairing(row.round, row.board, Stage(row.stage), row.player_a, row.player_b,
                   PairingKind(row.kind), Colours(row.colours),
                   tuple(Decision.from_json(d) for d in row.why))


def _result(row: TournamentResultRow) -> BoardResult:
    return BoardResult.from_card(
        row.black, row.white, row.black_discs, row.white_discs, row.winner,
        forfeit=row.forfeit, rated=row.rated, draw_win=row.draw_win, game_id=row.game_id,
        termination=None if row.termination is None else Termination.from_code(row.termination),
        reason=row.reason)


class TournamentRepository:
    """Tournaments in a :class:`~hasamigo.storage.db.Database` (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- tournaments -------------------------------------------------------------------------
    def create(self, tournament_id: str, name: str, settings: Settings, *,
               password_hash: str | None = None, who: str = "director") -> None:
        """Store a new tournament (no entrants yet); an id that exists raises
        :class:`ConcurrentWrite`."""
        now = datetime.now(UTC)
        row = TournamentRow(id=tournament_id, name=name, format=settings.format,
                            settings=settings.to_json(), password_hash=password_hash,
                            created_at=now, updated_at=now)
        try:
            with self.db.session() as session, session.begin():
                session.add(row)
                session.flush()
                _audit(session, tournament_id, now, who, "create", after={
                    "name": name, "settings": settings.to_json()})
        except IntegrityError as exc:
            raise ConcurrentWrite(f"tournament {tournament_id} exists already") from exc

    def load(self, tournament_id: str) -> StoredTournament | None:
        """The tournament rebuilt from its facts (``None``: no such tournament)."""
        with self.db.session() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                return None
            key = TournamentEntrantRow.tournament_id == tournament_id
            entrants = [_entrant(r) for r in session.scalars(
                select(TournamentEntrantRow).where(key).order_by(TournamentEntrantRow.number))]
            pairings = [_pairing(r) for r in session.scalars(
                select(TournamentPairingRow)
                .where(TournamentPairingRow.tournament_id == tournament_id)
                .order_by(TournamentPairingRow.round, TournamentPairingRow.board))]
            results = {(r.round, r.board): _result(r) for r in session.scalars(
                select(TournamentResultRow)
                .where(TournamentResultRow.tournament_id == tournament_id))}
            settings = Settings.from_json(row.settings)
            return StoredTournament(row.id, row.name, aware(row.created_at),
                                    aware(row.updated_at), row.password_hash is not None,
                                    Tournament(settings, entrants, pairings, results))

    def find(self, id_or_name: str) -> str | None:
        """The id of the tournament with this id, else the newest with this name."""
        with self.db.session() as session:
            if session.get(TournamentRow, id_or_name) is not None:
                return id_or_name
            return session.scalars(
                select(TournamentRow.id).where(TournamentRow.name == id_or_name)
                .order_by(TournamentRow.created_at.desc())).first()

    def summaries(self) -> list[TournamentSummary]:
        """Every tournament, the most recently changed first."""
        with self.db.session() as session:
            entrants = (select(TournamentEntrantRow.tournament_id,
                               func.count().label("n"))
                        .group_by(TournamentEntrantRow.tournament_id).subquery())
            rounds = (select(TournamentRoundRow.tournament_id,
                             func.max(TournamentRoundRow.number).label("r"))
                      .group_by(TournamentRoundRow.tournament_id).subquery())
            query = (select(TournamentRow, entrants.c.n, rounds.c.r)
                     .outerjoin(entrants, entrants.c.tournament_id == TournamentRow.id)
                     .outerjoin(rounds, rounds.c.tournament_id == TournamentRow.id)
                     .order_by(TournamentRow.updated_at.desc(), TournamentRow.id))
            return [TournamentSummary(row.id, row.name, row.format, n or 0, r or 0,
                                      aware(row.created_at), aware(row.updated_at))
                    for row, n, r in session.execute(query)]

    def password_hash(self, tournament_id: str) -> str | None:
        with self.db.session() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise KeyError(tournament_id)
            return row.password_hash

    def set_password_hash(self, tournament_id: str, password_hash: str | None, *,
                          who: str = "director") -> None:
        """Store the director's password hash (the audit log says only that it changed)."""
        with self._write(tournament_id, who, "password") as (session, _now):
            session.execute(update(TournamentRow).where(TournamentRow.id == tournament_id)
                            .values(password_hash=password_hash))

    def replace_password_hash(self, tournament_id: str, old: str, new: str) -> bool:
        """``new`` in place of ``old``, the same password hashed anew (no audit entry);
        False when the stored hash is no longer ``old`` (changed meanwhile)."""
        with self.db.session() as session, session.begin():
            result = session.execute(update(TournamentRow)
                                     .where(TournamentRow.id == tournament_id,
                                            TournamentRow.password_hash == old)
                                     .values(password_hash=new))
            return bool(getattr(result, "rowcount", 0))

    def delete(self, tournament_id: str) -> bool:
        with self.db.session() as session, session.begin():
            result = session.execute(delete(TournamentRow)
                                     .where(TournamentRow.id == tournament_id))
            return bool(getattr(result, "rowcount", 0))

    # ---- the facts -----------------------------------------------------------------------------
    def add_entrant(self, tournament_id: str, entrant: Entrant, *, who: str = "director",
                    reason: str | None = None) -> None:
        """Store a new entrant; ``reason``: why the director let them in (an eligibility
        overridden), kept in the audit log."""
        with self._write(tournament_id, who, "register", after=entrant.to_json(),
                         reason=reason) as (session, now):
            session.add(TournamentEntrantRow(
                tournament_id=tournament_id, number=entrant.number, name=entrant.name,
                rank=entrant.rank, birth_year=entrant.birth_year, woman=entrant.woman,
                seed=entrant.seed, division=entrant.division, program=entrant.program,
                withdrawn_from=entrant.withdrawn_from, registered_at=now,
                born=entrant.born, student=entrant.student,
                school_year=entrant.school_year, account_id=entrant.account_id,
                rating=entrant.rating))

    def update_entrant(self, tournament_id: str, before: Entrant, after: Entrant, *,
                       action: str = "withdraw", who: str = "director",
                       reason: str | None = None) -> None:
        with self._write(tournament_id, who, action, before=before.to_json(),
                         after=after.to_json(), reason=reason) as (session, _now):
            session.execute(
                update(TournamentEntrantRow)
                .where(TournamentEntrantRow.tournament_id == tournament_id,
                       TournamentEntrantRow.number == after.number)
                .values(name=after.name, rank=after.rank, birth_year=after.birth_year,
                        woman=after.woman, seed=after.seed, division=after.division,
                        program=after.program, withdrawn_from=after.withdrawn_from,
                        born=after.born, student=after.student,
                        school_year=after.school_year, account_id=after.account_id,
                        rating=after.rating))

    def set_settings(self, tournament_id: str, before: Settings, after: Settings, *,
                     who: str = "director", action: str = "settings") -> None:
        """Replace the tournament's settings (the audit log keeps both); a concurrent
        change of them (the stored settings no longer ``before``) raises
        :class:`ConcurrentWrite`."""
        with self._write(tournament_id, who, action, before=before.to_json(),
                         after=after.to_json()) as (session, _now):
            row = session.get(TournamentRow, tournament_id, with_for_update=True)
            if row is None or Settings.from_json(row.settings) != before:
                raise ConcurrentWrite("the settings were changed by someone else: load "
                                      "them again")
            row.settings = after.to_json()

    def forget_account(self, account_id: str, name: str) -> int:
        """An account deleted (issue 67): each entrant it was renamed ``name`` with its
        number (``name #3``: names stay unique in a tournament), without rank, birth
        date, student status or school year, and unlinked; in those tournaments the old
        name is replaced by the new one wherever it was written (the pairings' reasons,
        the audit log's entries, their author ``account:<name>``), and the audit log's
        copies of the entrant lose the same details. Returns the entrants changed."""
        with self.db.session() as session, session.begin():
            rows = list(session.scalars(select(TournamentEntrantRow).where(
                TournamentEntrantRow.account_id == account_id).with_for_update()))
            for row in rows:
                old, new = row.name, f"{name} #{row.number}"[:NAME_LENGTH]
                row.name, row.account_id = new, None
                row.rank = row.birth_year = row.born = row.student = None
                row.school_year = None
                word = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)")
                for pairing in session.scalars(select(TournamentPairingRow).where(
                        TournamentPairingRow.tournament_id == row.tournament_id)):
                    pairing.why = _renamed(pairing.why, word, new)
                for entry in session.scalars(select(TournamentAuditRow).where(
                        TournamentAuditRow.tournament_id == row.tournament_id)):
                    entry.before = _renamed(_scrubbed(entry.before, row.number, new),
                                            word, new)
                    entry.after = _renamed(_scrubbed(entry.after, row.number, new), word, new)
                    if entry.reason is not None:
                        entry.reason = word.sub(new, entry.reason)
                    if entry.who == f"account:{old}":
                        entry.who = f"account:{new}"[:80]
            return len(rows)

    def add_round(self, tournament_id: str, number: int, pairings: Sequence[Pairing], *,
                  who: str = "director") -> None:
        """Store a paired round; a round stored already raises :class:`ConcurrentWrite`."""
        after = [p.to_json() for p in pairings]
        with self._write(tournament_id, who, "pair", round_number=number, after=after) \
                as (session, now):
            session.add(TournamentRoundRow(tournament_id=tournament_id, number=number,
                                           paired_at=now))
            session.flush()
            session.add_all(TournamentPairingRow(
                tournament_id=tournament_id, round=p.round, board=p.board,
                stage=p.stage.value, player_a=p.a, player_b=p.b, kind=p.kind.value,
                colours=p.colours.value, why=[d.to_json() for d in p.why])
                for p in pairings)

    def delete_round(self, tournament_id: str, number: int, pairings: Sequence[Pairing], *,
                     who: str = "director", reason: str | None = None) -> None:
        """Take back a paired round without results (its pairings go with it)."""
        with self._write(tournament_id, who, "unpair", round_number=number,
                         before=[p.to_json() for p in pairings], reason=reason) \
                as (session, _now):
            session.execute(delete(TournamentPairingRow).where(
                TournamentPairingRow.tournament_id == tournament_id,
                TournamentPairingRow.round == number))
            session.execute(delete(TournamentRoundRow).where(
                TournamentRoundRow.tournament_id == tournament_id,
                TournamentRoundRow.number == number))

    def put_result(self, tournament_id: str, round_number: int, board: int,
                   result: BoardResult, *, before: BoardResult | None = None,
                   who: str = "director",
                   reason: str | None = None) -> None:
        """Enter a board's result (``before`` None: its first; a stored one raises
        :class:`ConcurrentWrite`) or replace ``before`` (a correction: the stored
        result must still be ``before``, else :class:`ConcurrentWrite`)."""
        r = result.result
        values = {"black": result.black, "white": result.white, "black_discs": r.black,
                  "white_discs": r.white, "winner": result.winner, "forfeit": r.forfeit,
                  "rated": r.rated, "termination": r.termination.code,
                  "draw_win": result.draw_win, "game_id": result.game_id, "entered_by": who,
                  "reason": result.reason}
        action = "result" if before is None else "correct"
        if r.penalty and (before is None or not before.result.penalty):
            action = "penalty"  # rule 21: declared, with its reason
            reason = reason or result.reason
        with self._write(tournament_id, who, action, round_number=round_number, board=board,
                         before=None if before is None else before.to_json(),
                         after=result.to_json(), reason=reason) as (session, now):
            if before is None:
                session.add(TournamentResultRow(tournament_id=tournament_id,
                                                round=round_number, board=board,
                                                entered_at=now, **values))
                return
            row = session.get(TournamentResultRow, (tournament_id, round_number, board),
                              with_for_update=True)
            if row is None or _result(row) != before:
                raise ConcurrentWrite(f"round {round_number} board {board} was changed by "
                                      "someone else: load it again")
            for key, value in values.items():
                setattr(row, key, value)
            row.entered_at = now

    def audit(self, tournament_id: str, action: str | None = None) -> list[AuditEntry]:
        """The audit log, oldest first (only the entries of ``action`` if given)."""
        query = select(TournamentAuditRow).where(
            TournamentAuditRow.tournament_id == tournament_id)
        if action is not None:
            query = query.where(TournamentAuditRow.action == action)
        with self.db.session() as session:
            rows = session.scalars(query.order_by(TournamentAuditRow.id))
            return [AuditEntry(r.id, aware(r.at), r.who, r.action, r.round, r.board,
                               r.before, r.after, r.reason) for r in rows]

    def add_sanction(self, tournament_id: str, after: dict[str, Any], *, reason: str,
                     round_number: int | None, board: int | None, who: str = "director"
                     ) -> AuditEntry:
        """Record a sanction of rule 21 (:mod:`hasamigo.tournament.sanctions`): an entry
        of the audit log, action ``sanction``, and nothing else changes; the entry."""
        with self._write(tournament_id, who, SANCTION, round_number=round_number,
                         board=board, after=after, reason=reason):
            pass
        return self.audit(tournament_id, SANCTION)[-1]

    # ---- plumbing ------------------------------------------------------------------------------
    def _write(self, tournament_id: str, who: str, action: str, *,
               round_number: int | None = None, board: int | None = None,
               before: Any = None, after: Any = None, reason: str | None = None
               ) -> _Write:
        return _Write(self, tournament_id, who, action, round_number, board, before, after,
                      reason)


class _Write:
    """A write and its audit entry in one transaction; a key collision (a concurrent
    writer, or an unknown tournament) becomes :class:`ConcurrentWrite` / ``KeyError``."""

    def __init__(self, repo: TournamentRepository, tournament_id: str, who: str,
                 action: str, round_number: int | None, board: int | None, before: Any,
                 after: Any, reason: str | None) -> None:
        self.repo, self.tournament_id, self.who, self.action = repo, tournament_id, who, action
        self.round, self.board, self.before, self.after = round_number, board, before, after
        self.reason = reason
        self.session: Session | None = None

    def __enter__(self) -> tuple[Session, datetime]:
        self.session = self.repo.db.session()
        self.session.begin()
        self.now = datetime.now(UTC)
        changed = self.session.execute(
            update(TournamentRow).where(TournamentRow.id == self.tournament_id)
            .values(updated_at=self.now))
        if not getattr(changed, "rowcount", 0):
            self.session.rollback()
            self.session.close()
            raise KeyError(f"no tournament {self.tournament_id}")
        return self.session, self.now

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 _tb: object) -> None:
        session = self.session
        assert session is not None
        try:
            if kind is not None:
                session.rollback()
                if isinstance(exc, IntegrityError):
                    raise ConcurrentWrite(f"{self.action}: someone else changed the "
                                          "tournament first; nothing was written") from exc
                return
            _audit(session, self.tournament_id, self.now, self.who, self.action,
                   round_number=self.round, board=self.board, before=self.before,
                   after=self.after, reason=self.reason)
            try:
                session.commit()
            except IntegrityError as error:
                session.rollback()
                raise ConcurrentWrite(f"{self.action}: someone else changed the tournament "
                                      "first; nothing was written") from error
        finally:
            session.close()


def _scrubbed(data: Any, number: int, new: str) -> Any:
    """An audit entry's entrant JSON (``number``'s) without a forgotten account's details."""
    if isinstance(data, list):
        return [_scrubbed(item, number, new) for item in data]
    if not isinstance(data, dict) or data.get("number") != number or "name" not in data:
        return data
    kept = {k: v for k, v in data.items()
            if k not in ("account_id", "born", "student", "school_year", "rating")}
    return {**kept, "name": new, "rank": None, "birth_year": None}


def _renamed(data: Any, word: re.Pattern[str], new: str) -> Any:
    """``data`` (JSON) with every text's old name (``word``) replaced by ``new``."""
    if isinstance(data, str):
        return word.sub(new, data)
    if isinstance(data, list):
        return [_renamed(item, word, new) for item in data]
    if isinstance(data, dict):
        return {k: _renamed(v, word, new) for k, v in data.items()}
    return data


def _audit(session: Session, tournament_id: str, now: datetime, who: str, action: str, *,
           round_number: int | None = None, board: int | None = None, before: Any = None,
           after: Any = None, reason: str | None = None) -> None:
    session.add(TournamentAuditRow(tournament_id=tournament_id, at=now, who=who[:80] or "?",
                                   action=action, round=round_number, board=board,
                                   before=before, after=after, reason=reason))


__all__ = ["AuditEntry", "StoredTournament", "TournamentRepository", "TournamentSummary"]
