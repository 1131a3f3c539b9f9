"""The stored user study (the amusement paper's): create it, take subjects in, keep their
answers, and read it all back as :class:`~hasamigo.study.records.StudyData`.

One home for the procedure:

* the **study** is its settings (:class:`~hasamigo.study.settings.StudySettings`: the
  programs compared, the *arms*, default the paper's ``victory`` and ``amusement``; the
  protocol, default ``paper``; the surprise move's window; an optional clock; the
  languages) and the researcher's password (only a salted argon2id hash is kept). The
  settings change only while no subject has arrived;
* a **subject** gets an anonymous code and the next row of the counterbalancing design
  (:mod:`hasamigo.study.design`, stored with the subject), then goes through
  :data:`STEPS`: consent → the *before* questionnaire → one game against each arm in the
  subject's order (in the extended protocol each followed by how it felt, ``felt``) → the
  *after* questionnaire. Which items each questionnaire has is the protocol's
  (:mod:`hasamigo.study.protocol`): an item of the other protocol is refused;
* the in-game questions are **events of the subject's games**
  (:class:`~hasamigo.game.events.StudyAnswer`; the fold refuses a move until they are
  answered, and a second answer to the same question), so they are read from the stored
  games (:mod:`hasamigo.study.game_data`); the strong engine's evaluations are filled in
  later (``None`` until then);
* a subject may **withdraw**: their row, their games and everything of them is deleted;
  the study counts them. An **archived** study is read-only until re-opened; its report
  and exports still work.

The data leaves the database under **pseudonyms** (``S01``, ``S02``… by arrival,
:func:`pseudonym`): a subject's code is their login and stays in the database. When the
last subject to arrive withdraws, the next one takes their arrival number (their row of
the design, and so their pseudonym), so that the counterbalancing stays complete.

Nothing is kept in memory: every answer is committed before the next question is asked,
so a subject who comes back with the code goes on where they were (:meth:`StudyService.step`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

import hasamigo
from hasamigo.game.controller import GameController
from hasamigo.game.result import verdict_for
from hasamigo.game.state import StudyQuestion
from hasamigo.storage.repository import ConcurrentWrite, GameRepository
from hasamigo.study.design import order_for, orders
from hasamigo.study.game_data import game_answers, game_record, iso
from hasamigo.study.protocol import EXTENDED_PROTOCOL, PAPER, PAPER_PROTOCOL
from hasamigo.study.records import StudyData, StudyMeta, SubjectRecord
from hasamigo.study.settings import (
    DEFAULT_ARMS,
    LANGUAGES,
    StudyError,
    StudySettings,
)
from hasamigo.study.store import StoredStudy, StoredSubject, StudyRepository

#: the choices' codes, read from the protocols (:mod:`hasamigo.study.protocol`, their one
#: home): how often the subject plays and the strategies they know (the extended before
#: questionnaire), how a game felt (its after-game question, 1 dull … 5 fun), and a
#: game's result as the subject reports it (the paper's 「それぞれ対戦した勝敗結果」)
PLAY_FREQUENCIES = EXTENDED_PROTOCOL.question("play_frequency").codes
STRATEGIES = EXTENDED_PROTOCOL.question("strategies").codes
FELT_LEVELS = tuple(int(c) for c in EXTENDED_PROTOCOL.question("felt").codes)
OUTCOMES = PAPER_PROTOCOL.question("reported_outcome").codes
TEXT_LENGTH = 2000
NAME_LENGTH = 120
PASSWORD_LENGTH = (4, 200)
#: a subject's code: 10 characters without look-alikes (about 50 bits)
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 10
ARCHIVED = ("the study is archived: it takes no new subjects, answers, moves or "
            "withdrawals until its researcher re-opens it")

Step = Literal["consent", "before", "game", "felt", "after", "done"]
STEPS: tuple[Step, ...] = ("consent", "before", "game", "felt", "after", "done")


def pseudonym(number: int) -> str:
    """The subject's name in the data: ``S01`` for the first to arrive (``number`` 0).

    >>> pseudonym(0), pseudonym(11), pseudonym(120)
    ('S01', 'S12', 'S121')
    """
    return f"S{number + 1:02d}"


@dataclass(frozen=True, slots=True)
class StudyInfo:
    id: str
    name: str
    settings: StudySettings
    created_at: datetime
    subjects: int = 0
    archived_at: datetime | None = None
    withdrawn: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, **self.settings.to_json(),
                "design": [list(o) for o in orders(self.settings.arms)],
                "specs": {a: self.settings.spec(a) for a in self.settings.arms},
                "created_at": self.created_at.isoformat(), "subjects": self.subjects,
                "archived_at": iso(self.archived_at), "withdrawn": self.withdrawn}


@dataclass(frozen=True, slots=True)
class GameProgress:
    """One of a subject's games as the procedure sees it; ``over``: the result is in
    and no question is waiting (at the paper's timing, the question after the subject's
    last move is answered after the game's end)."""

    index: int
    program: str
    game_id: str
    over: bool
    felt: int | None
    questions: int  # asked so far
    answered: int  # of them, answered in full
    asked: StudyQuestion | None  # awaiting an answer
    #: once the game has ended: how it went for the subject (``win``/``lose``/``draw``)
    #: and the discs (the subject's, the program's), shown to them (the paper's program
    #: shows WIN/LOSE/DRAW; its after questionnaire asks each game's result)
    outcome: str | None = None
    discs: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class SubjectProgress:
    """Where a subject is: the step, the game in play (1-based index) and each game."""

    subject: StoredSubject
    step: Step
    game_index: int | None
    games: tuple[GameProgress, ...] = field(default=())
    protocol: str = PAPER

    def to_json(self) -> dict[str, Any]:
        s = self.subject
        return {"code": s.code, "pseudonym": pseudonym(s.number), "number": s.number,
                "order": list(s.order), "protocol": self.protocol,
                "language": s.language, "step": self.step, "game_index": self.game_index,
                "created_at": s.created_at.isoformat(),
                "finished_at": None if s.finished_at is None else s.finished_at.isoformat(),
                "games": [{"index": g.index, "program": g.program, "game_id": g.game_id,
                           "over": g.over, "felt": g.felt, "questions": g.questions,
                           "answered": g.answered, "outcome": g.outcome,
                           "discs": None if g.discs is None else list(g.discs)}
                          for g in self.games]}


def _outcome(game: GameController) -> tuple[str | None, tuple[int, int] | None]:
    """How a finished study game went for the subject, and the discs (theirs, the
    program's); ``(None, None)`` while it goes on."""
    result, study = game.result, game.study
    if result is None or study is None:
        return None, None
    me = study.subject
    return (verdict_for(result, me).outcome,
            (result.counts_for(me), result.counts_for(me.other)))


def _text(value: Any, what: str, limit: int = TEXT_LENGTH) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > limit:
        raise StudyError(f"{what} is a text of at most {limit} characters")
    return value.strip()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class StudyService:
    """Studies stored in a database (see the module docstring). ``games`` reads the
    subjects' games."""

    def __init__(self, repo: StudyRepository, games: GameRepository) -> None:
        self.repo = repo
        self.games = games

    # ---- studies ------------------------------------------------------------------------------
    def create(self, name: str, settings: StudySettings, password: str) -> StudyInfo:
        from hasamigo.passwords import hash_password

        name = _text(name, "a study's name", NAME_LENGTH)
        if not name:
            raise StudyError("a study needs a name")
        low, high = PASSWORD_LENGTH
        if not isinstance(password, str) or not low <= len(password) <= high:
            raise StudyError(f"the researcher's password is {low} to {high} characters")
        study_id = secrets.token_hex(6)
        self.repo.create(study_id, name, settings.to_json(), hash_password(password))
        return self.info(study_id)

    def stored(self, study_id: str) -> StoredStudy:
        found = self.repo.study(study_id)
        if found is None:
            raise StudyError(f"no study {study_id[:40]!r}", "not_found")
        return found

    def open_study(self, study_id: str) -> StoredStudy:
        """The study, when it takes subjects, answers and moves; ``wrong_phase`` when it is
        archived."""
        found = self.stored(study_id)
        if found.archived_at is not None:
            raise StudyError(ARCHIVED, "wrong_phase")
        return found

    def info(self, study_id: str) -> StudyInfo:
        s = self.stored(study_id)
        return StudyInfo(s.id, s.name, StudySettings.from_json(s.settings), s.created_at,
                         len(self.repo.subjects(study_id)), s.archived_at, s.withdrawn)

    def settings(self, study_id: str) -> StudySettings:
        return StudySettings.from_json(self.stored(study_id).settings)

    def list_studies(self) -> list[StudyInfo]:
        return [StudyInfo(s.id, s.name, StudySettings.from_json(s.settings), s.created_at, n,
                          s.archived_at, s.withdrawn)
                for s, n in self.repo.studies()]

    def change_settings(self, study_id: str, *, arms: Sequence[str] | None = None,
                        protocol: str | None = None, surprise_window: str | None = None
                        ) -> StudyInfo:
        """Change the study's arms, protocol or surprise window: only while no subject has
        arrived (a running study keeps them: ``wrong_phase``)."""
        study = self.open_study(study_id)
        old = StudySettings.from_json(study.settings)
        new = replace(old, arms=old.arms if arms is None else tuple(arms),
                      protocol=old.protocol if protocol is None else protocol,
                      surprise_window=old.surprise_window if surprise_window is None
                      else surprise_window)
        if not self.repo.set_settings(study_id, new.to_json()):
            raise StudyError("a running study cannot change its protocol, window or "
                             "programs: subjects have taken part already", "wrong_phase")
        return self.info(study_id)

    def archive(self, study_id: str) -> StudyInfo:
        """Make the study read-only (see :data:`ARCHIVED`); its report and exports stay."""
        if self.stored(study_id).archived_at is None:
            self.repo.set_archived(study_id, datetime.now(UTC))
        return self.info(study_id)

    def reopen(self, study_id: str) -> StudyInfo:
        """Take subjects, answers and moves again."""
        self.stored(study_id)
        self.repo.set_archived(study_id, None)
        return self.info(study_id)

    def check_password(self, study_id: str, password: str) -> bool:
        """Is ``password`` the researcher's? A matching hash in an old format is replaced
        by an argon2id one."""
        from hasamigo.passwords import verify_and_update

        stored = self.repo.password_hash(study_id)
        if stored is None:
            raise StudyError(f"no study {study_id[:40]!r}", "not_found")
        ok, upgraded = verify_and_update(password, stored)
        if ok and upgraded is not None:
            self.repo.replace_password_hash(study_id, stored, upgraded)
        return ok

    # ---- subjects -----------------------------------------------------------------------------
    def new_subject(self, study_id: str, language: str | None = None) -> StoredSubject:
        """A new subject: an anonymous code and the next order of the design."""
        settings = StudySettings.from_json(self.open_study(study_id).settings)
        language = language or settings.languages[0]
        if language not in settings.languages:
            raise StudyError(f"this study is offered in {', '.join(settings.languages)}")
        for _ in range(20):
            number = self.repo.next_number(study_id)
            try:
                return self.repo.add_subject(study_id, new_code(), number,
                                             order_for(settings.arms, number), language)
            except ConcurrentWrite:
                continue  # another subject took the number (or, once in 10^15, the code)
        raise StudyError("too many subjects arriving at once: try again", "wrong_phase")

    def subject(self, study_id: str, code: str) -> StoredSubject:
        if not isinstance(code, str) or not 1 <= len(code) <= 16:
            raise StudyError("no such subject code", "not_found")
        found = self.repo.subject(study_id, code.strip().upper())
        if found is None:
            self.stored(study_id)
            raise StudyError("no such subject code in this study", "not_found")
        return found

    def progress(self, study_id: str, code: str) -> SubjectProgress:
        """Where the subject is (see :data:`STEPS`)."""
        settings = self.settings(study_id)
        asks_felt = bool(settings.questions.after_game)
        subject = self.subject(study_id, code)
        stored = {g.index: g for g in self.repo.games(study_id, subject.code)}
        games = []
        for index, program in enumerate(subject.order, 1):
            row = stored.get(index)
            if row is None:
                continue
            game = self._game(row.game_id)
            questions = game.study.questions if game.study is not None else ()
            asked = None if game.study is None else game.study.asked
            outcome, discs = _outcome(game)
            games.append(GameProgress(
                index, program, row.game_id, game.result is not None and asked is None,
                row.felt, len(questions), sum(q.complete for q in questions), asked,
                outcome, discs))
        step: Step
        current: int | None = None
        if subject.consented_at is None:
            step = "consent"
        elif subject.before is None:
            step = "before"
        else:
            step = "after"
            for index in range(1, len(subject.order) + 1):
                progress = next((g for g in games if g.index == index), None)
                if progress is None or not progress.over:
                    step, current = "game", index
                    break
                if asks_felt and progress.felt is None:
                    step, current = "felt", index
                    break
            if step == "after" and subject.after is not None:
                step = "done"
        return SubjectProgress(subject, step, current, tuple(games), settings.protocol)

    def _game(self, game_id: str) -> GameController:
        stored = self.games.load(game_id)
        if stored is None:
            raise StudyError(f"the subject's game {game_id} is missing", "not_found")
        return stored.game

    def _expect(self, study_id: str, code: str, step: Step) -> SubjectProgress:
        self.open_study(study_id)
        progress = self.progress(study_id, code)
        if progress.step != step:
            raise StudyError(f"the subject is at the {progress.step} step, not {step}",
                             "wrong_phase")
        return progress

    def consent(self, study_id: str, code: str) -> StoredSubject:
        progress = self._expect(study_id, code, "consent")
        return self.repo.update_subject(study_id, progress.subject.code,
                                        consented_at=datetime.now(UTC))

    def set_language(self, study_id: str, code: str, language: str) -> StoredSubject:
        subject = self.subject(study_id, code)
        if language not in self.settings(study_id).languages:
            raise StudyError("this study is not offered in that language")
        return self.repo.update_subject(study_id, subject.code, language=language)

    def answer_before(self, study_id: str, code: str, *, strength: int,
                      play_frequency: str | None = None,
                      strategies: Sequence[str] | None = None) -> StoredSubject:
        """The before questionnaire: the paper's asks only ``strength`` (5 strong … 1
        weak); the extended one also ``play_frequency`` and ``strategies``."""
        proto = self.settings(study_id).questions
        asked = {q.key for q in proto.before}
        given = {k for k, v in (("play_frequency", play_frequency),
                                ("strategies", strategies)) if v is not None}
        if given - asked:
            raise StudyError(f"the {proto.name} protocol does not ask "
                             f"{', '.join(sorted(given - asked))} before the games")
        if isinstance(strength, bool) or not isinstance(strength, int) \
                or str(strength) not in proto.question("strength").codes:
            raise StudyError("strength is a level from 1 (weakest) to 5 (strongest)")
        before: dict[str, Any] = {"strength": strength}
        if "play_frequency" in asked:
            if play_frequency not in PLAY_FREQUENCIES:
                raise StudyError(f"how often is one of {', '.join(PLAY_FREQUENCIES)}")
            chosen = strategies or ()
            if len(chosen) > len(STRATEGIES) or any(s not in STRATEGIES for s in chosen):
                raise StudyError(f"the strategies are some of {', '.join(STRATEGIES)}")
            before.update(play_frequency=play_frequency,
                          strategies=[s for s in STRATEGIES if s in chosen])
        progress = self._expect(study_id, code, "before")
        return self.repo.update_subject(study_id, progress.subject.code, before=before)

    def add_game(self, study_id: str, code: str, index: int, game_id: str) -> None:
        """Record the subject's game ``index`` (made by the caller, who runs games)."""
        progress = self._expect(study_id, code, "game")
        if progress.game_index != index or any(g.index == index for g in progress.games):
            raise StudyError(f"game {index} is not the subject's next game", "wrong_phase")
        self.repo.add_game(study_id, progress.subject.code, index,
                           progress.subject.order[index - 1], game_id)

    def answer_felt(self, study_id: str, code: str, index: int, felt: int,
                    note: str | None = None) -> None:
        """The extended protocol's question after each game (the paper asks none)."""
        proto = self.settings(study_id).questions
        if not proto.after_game:
            raise StudyError(f"the {proto.name} protocol asks nothing after each game")
        if isinstance(felt, bool) or felt not in FELT_LEVELS:
            raise StudyError("how the game felt is a level from 1 to 5")
        text = _text(note, "the note")
        progress = self._expect(study_id, code, "felt")
        if progress.game_index != index:
            raise StudyError(f"game {index} is not the game to rate now", "wrong_phase")
        if not self.repo.set_felt(study_id, progress.subject.code, index, felt, text):
            raise StudyError("this game's question is answered already", "wrong_phase")

    def answer_after(self, study_id: str, code: str, *, more_fun: str,
                     more_fun_why: str = "", what_makes_fun: str = "",
                     strategies_text: str | None = None,
                     reported_outcomes: Sequence[str] | None = None) -> StoredSubject:
        """The after questionnaire. The paper's: each game's result as the subject
        reports it (``reported_outcomes``, in the subject's order), which was more fun,
        why, the strategies they know (``strategies_text``), what makes a board game fun;
        the extended one has no ``reported_outcomes`` nor ``strategies_text``."""
        proto = self.settings(study_id).questions
        asked = {q.key for q in proto.after}
        given = {k for k, v in (("strategies_text", strategies_text),
                                ("reported_outcome", reported_outcomes)) if v is not None}
        if given - asked:
            raise StudyError(f"the {proto.name} protocol does not ask "
                             f"{', '.join(sorted(given - asked))} after the games")
        progress = self._expect(study_id, code, "after")
        order = progress.subject.order
        if more_fun not in order:
            raise StudyError(f"the more fun game is one of {', '.join(order)}")
        after: dict[str, Any] = {"more_fun": more_fun,
                                 "more_fun_why": _text(more_fun_why, "why"),
                                 "what_makes_fun": _text(what_makes_fun,
                                                         "what makes games fun")}
        if "reported_outcome" in asked:
            outcomes = list(reported_outcomes or ())
            if len(outcomes) != len(order) or any(o not in OUTCOMES for o in outcomes):
                raise StudyError(f"the result of each of the {len(order)} games is one of "
                                 f"{', '.join(OUTCOMES)}")
            after["reported_outcomes"] = outcomes
        if "strategies_text" in asked:
            after["strategies_text"] = _text(strategies_text, "the strategies you know")
        return self.repo.update_subject(study_id, progress.subject.code, after=after,
                                        finished_at=datetime.now(UTC))

    def withdraw(self, study_id: str, code: str) -> list[str]:
        """The subject withdraws: they and everything of theirs (their games with their
        answers, the evaluations) are deleted, the study's count of withdrawals goes up.
        The deleted games' ids (for the caller's memory of live games)."""
        self.open_study(study_id)
        subject = self.subject(study_id, code)
        try:
            return self.repo.withdraw(study_id, subject.code)
        except KeyError:
            raise StudyError("no such subject code in this study", "not_found") from None

    def subjects(self, study_id: str) -> list[SubjectProgress]:
        self.stored(study_id)
        return [self.progress(study_id, s.code) for s in self.repo.subjects(study_id)]

    # ---- the data -----------------------------------------------------------------------------
    def pending_evaluations(self, study_id: str) -> list[tuple[str, int, str, str]]:
        """``(game_id, move_number, position, subject colour)`` of every answered
        question time whose evaluation is not stored yet."""
        rows = self.repo.games(study_id)
        done = self.repo.evaluations([g.game_id for g in rows])
        out = []
        for row in rows:
            game = self._game(row.game_id)
            if game.study is None:
                continue
            for q in game.study.questions:
                if q.answers and (row.game_id, q.move_number) not in done:
                    out.append((row.game_id, q.move_number, q.position,
                                game.study.subject.value))
        return out

    def meta(self, study_id: str) -> StudyMeta:
        """What the study is, for its data (:class:`~hasamigo.study.records.StudyMeta`;
        ``exported_at`` is the export's to fill)."""
        s = self.stored(study_id)
        settings = StudySettings.from_json(s.settings)
        return StudyMeta(s.id, s.name, settings.protocol, settings.arms,
                         settings.surprise_window, settings.clock_minutes, settings.languages,
                         iso(s.created_at), iso(s.archived_at), s.withdrawn,
                         hasamigo.__version__)

    def data(self, study_id: str) -> StudyData:
        """The study's three tables under the subjects' pseudonyms, with its
        :meth:`meta` (evaluations still being computed are ``None``)."""
        meta = self.meta(study_id)
        subjects = self.repo.subjects(study_id)
        names = {s.code: pseudonym(s.number) for s in subjects}
        reported: dict[tuple[str, int], Any] = {}
        data = StudyData(meta=meta)
        for s in subjects:
            before = s.before or {}
            after = s.after or {}
            for index, outcome in enumerate(after.get("reported_outcomes", ()), 1):
                reported[s.code, index] = outcome
            data.subjects.append(SubjectRecord(
                study_id, names[s.code], s.order, s.language, False, iso(s.consented_at),
                before.get("strength"), before.get("play_frequency"),
                tuple(before.get("strategies", ())), after.get("more_fun"),
                after.get("more_fun_why", ""), after.get("what_makes_fun", ""),
                iso(s.finished_at), meta.protocol, after.get("strategies_text", "")))
        rows = self.repo.games(study_id)
        evaluations = self.repo.evaluations([g.game_id for g in rows])
        for row in rows:
            game = self._game(row.game_id)
            name = names.get(row.code, row.code)
            data.games.append(game_record(study_id, name, row.index, row.program, game,
                                          row.felt, row.felt_note,
                                          reported.get((row.code, row.index))))
            data.answers.extend(game_answers(study_id, name, row.index, row.program,
                                             game, evaluations))
        order = {pseudonym(s.number): s.number for s in subjects}
        data.games.sort(key=lambda g: (order.get(g.subject, 0), g.index))
        data.answers.sort(key=lambda a: (order.get(a.subject, 0), a.game_index,
                                         a.move_number))
        return data

__all__ = [
    "ARCHIVED",
    "DEFAULT_ARMS",
    "FELT_LEVELS",
    "LANGUAGES",
    "OUTCOMES",
    "PLAY_FREQUENCIES",
    "STEPS",
    "STRATEGIES",
    "GameProgress",
    "StudyError",
    "StudyInfo",
    "StudyService",
    "StudySettings",
    "SubjectProgress",
    "game_answers",
    "game_record",
    "new_code",
    "pseudonym",
]
