"""The stored user study (the amusement paper's): create it, take subjects in, keep their
answers, and read it all back as :class:`~hasamigo.study.records.StudyData`.

One home for the procedure:

* the **study** is its programs (the *arms*, default ``victory`` and ``amusement``;
  ``entertainer`` may be added), an optional clock, the languages offered, and the
  researcher's password (only a salted argon2id hash is kept);
* a **subject** gets an anonymous code and the next row of the counterbalancing design
  (:mod:`hasamigo.study.design`, stored with the subject), then goes through
  :data:`STEPS`: consent → the *before* questionnaire → one game against each arm in the
  subject's order, each followed by how it felt → the *after* questionnaire;
* the questions after every program move are **events of the subject's games**
  (:class:`~hasamigo.game.events.StudyAnswer`; the fold refuses the subject's move until
  both are answered and a second answer to the same question), so they are read from the
  stored games; the strong engine's evaluations are filled in later (``None`` until then).

Nothing is kept in memory: every answer is committed before the next question is asked,
so a subject who comes back with the code goes on where they were (:meth:`StudyService.step`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from hasamigo.errors import HasamigoError
from hasamigo.game.controller import GameController
from hasamigo.game.result import verdict_for
from hasamigo.game.state import StudyQuestion
from hasamigo.storage.repository import ConcurrentWrite, GameRepository
from hasamigo.study.design import order_for, orders
from hasamigo.study.records import (
    STRENGTH_LEVELS,
    AnswerRecord,
    GameRecord,
    StudyData,
    SubjectRecord,
)
from hasamigo.study.store import StoredStudy, StoredSubject, StudyRepository

#: the programs a study may compare
PROGRAMS = ("victory", "amusement", "entertainer")
DEFAULT_ARMS = ("victory", "amusement")
LANGUAGES = ("ja", "en")
#: how often the subject plays Othello (the before questionnaire)
PLAY_FREQUENCIES = ("never", "rarely", "monthly", "weekly", "daily")
#: the strategies the before questionnaire offers (the strategy words of ja.wikipedia's
#: オセロ article: corners, X- and C-squares, mobility, stable discs, 中割り, parity)
STRATEGIES = ("corners", "x_squares", "c_squares", "edges", "mobility", "stable_discs",
              "quiet_moves", "parity", "openings")
#: the after-game answer: 1 dull … 5 fun
FELT_LEVELS = (1, 2, 3, 4, 5)
TEXT_LENGTH = 2000
NAME_LENGTH = 120
PASSWORD_LENGTH = (4, 200)
#: a subject's code: 10 characters without look-alikes (about 50 bits)
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 10

Step = Literal["consent", "before", "game", "felt", "after", "done"]
STEPS: tuple[Step, ...] = ("consent", "before", "game", "felt", "after", "done")


class StudyError(HasamigoError):
    """A request the study refuses (bad input: ``bad_request``; out of order:
    ``wrong_phase``; unknown: ``not_found``)."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class StudySettings:
    """What a study compares and offers: the arms, the clock (minutes a side, ``None``:
    none, as in the paper) and the languages."""

    arms: tuple[str, ...] = DEFAULT_ARMS
    clock_minutes: float | None = None
    languages: tuple[str, ...] = LANGUAGES

    def __post_init__(self) -> None:
        if not 2 <= len(self.arms) <= len(PROGRAMS) or len(set(self.arms)) != len(self.arms) \
                or any(a not in PROGRAMS for a in self.arms):
            raise StudyError(f"a study compares 2 or 3 different programs of "
                             f"{', '.join(PROGRAMS)}")
        if self.clock_minutes is not None and not (
                isinstance(self.clock_minutes, int | float) and 0 < self.clock_minutes <= 120):
            raise StudyError("the clock is more than 0 and at most 120 minutes (or none)")
        if not self.languages or len(set(self.languages)) != len(self.languages) \
                or any(lang not in LANGUAGES for lang in self.languages):
            raise StudyError(f"the languages are some of {', '.join(LANGUAGES)}")

    def to_json(self) -> dict[str, Any]:
        return {"arms": list(self.arms), "clock_minutes": self.clock_minutes,
                "languages": list(self.languages)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StudySettings:
        return cls(tuple(data["arms"]), data.get("clock_minutes"),
                   tuple(data.get("languages", LANGUAGES)))


@dataclass(frozen=True, slots=True)
class StudyInfo:
    id: str
    name: str
    settings: StudySettings
    created_at: datetime
    subjects: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, **self.settings.to_json(),
                "design": [list(o) for o in orders(self.settings.arms)],
                "created_at": self.created_at.isoformat(), "subjects": self.subjects}


@dataclass(frozen=True, slots=True)
class GameProgress:
    """One of a subject's games as the procedure sees it."""

    index: int
    program: str
    game_id: str
    over: bool
    felt: int | None
    questions: int  # asked so far
    answered: int  # of them, answered in full
    asked: StudyQuestion | None  # awaiting an answer


@dataclass(frozen=True, slots=True)
class SubjectProgress:
    """Where a subject is: the step, the game in play (1-based index) and each game."""

    subject: StoredSubject
    step: Step
    game_index: int | None
    games: tuple[GameProgress, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        s = self.subject
        return {"code": s.code, "number": s.number, "order": list(s.order),
                "language": s.language, "step": self.step, "game_index": self.game_index,
                "created_at": s.created_at.isoformat(),
                "finished_at": None if s.finished_at is None else s.finished_at.isoformat(),
                "games": [{"index": g.index, "program": g.program, "game_id": g.game_id,
                           "over": g.over, "felt": g.felt, "questions": g.questions,
                           "answered": g.answered} for g in self.games]}


def _iso(moment: datetime | float | None) -> str | None:
    if moment is None:
        return None
    if isinstance(moment, float | int):
        moment = datetime.fromtimestamp(moment, UTC)
    return moment.astimezone(UTC).isoformat()


def _text(value: Any, what: str, limit: int = TEXT_LENGTH) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > limit:
        raise StudyError(f"{what} is a text of at most {limit} characters")
    return value.strip()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def game_answers(study_id: str, subject: str, index: int, program: str, game: GameController,
                 evaluations: Mapping[tuple[str, int], tuple[float, bool]]
                 ) -> list[AnswerRecord]:
    """The answers of one study game, one record per program move answered in full."""
    study = game.study
    if study is None or game.id is None:
        return []
    out = []
    variant = game.variant
    for q in study.questions:
        can_win, felt = q.answer("can_win"), q.answer("move_felt")
        if can_win is None or felt is None:
            continue
        evaluation = evaluations.get((game.id, q.move_number))
        last = max(can_win.at, felt.at)
        out.append(AnswerRecord(
            study_id, subject, index, program, game.id, q.move_number,
            "pass" if q.move.is_pass else variant.move_name(q.move),
            can_win.move_kind,  # type: ignore[arg-type]
            q.position, can_win.answer, felt.answer,  # type: ignore[arg-type]
            round(max(can_win.seconds, felt.seconds), 3),
            None if evaluation is None else evaluation[0],
            False if evaluation is None else evaluation[1], _iso(last)))
    return out


def game_record(study_id: str, subject: str, index: int, program: str, game: GameController,
                felt: int | None, felt_note: str | None) -> GameRecord:
    study = game.study
    colour = study.subject if study is not None else game.persons[0]
    result = game.result
    outcome = subject_discs = program_discs = None
    if result is not None:
        outcome = verdict_for(result, colour).outcome
        subject_discs, program_discs = result.counts_for(colour), result.counts_for(colour.other)
    return GameRecord(study_id, subject, index, program, game.id or "",
                      colour.value,
                      outcome, subject_discs, program_discs, len(game.history), felt,
                      felt_note or "")


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

    def info(self, study_id: str) -> StudyInfo:
        s = self.stored(study_id)
        return StudyInfo(s.id, s.name, StudySettings.from_json(s.settings), s.created_at,
                         len(self.repo.subjects(study_id)))

    def settings(self, study_id: str) -> StudySettings:
        return StudySettings.from_json(self.stored(study_id).settings)

    def list_studies(self) -> list[StudyInfo]:
        return [StudyInfo(s.id, s.name, StudySettings.from_json(s.settings), s.created_at, n)
                for s, n in self.repo.studies()]

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
        settings = self.settings(study_id)
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
        subject = self.subject(study_id, code)
        stored = {g.index: g for g in self.repo.games(study_id, subject.code)}
        games = []
        for index, program in enumerate(subject.order, 1):
            row = stored.get(index)
            if row is None:
                continue
            game = self._game(row.game_id)
            questions = game.study.questions if game.study is not None else ()
            games.append(GameProgress(
                index, program, row.game_id, game.result is not None, row.felt,
                len(questions), sum(q.complete for q in questions),
                None if game.study is None else game.study.asked))
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
                if progress.felt is None:
                    step, current = "felt", index
                    break
            if step == "after" and subject.after is not None:
                step = "done"
        return SubjectProgress(subject, step, current, tuple(games))

    def _game(self, game_id: str) -> GameController:
        stored = self.games.load(game_id)
        if stored is None:
            raise StudyError(f"the subject's game {game_id} is missing", "not_found")
        return stored.game

    def _expect(self, study_id: str, code: str, step: Step) -> SubjectProgress:
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
                      play_frequency: str, strategies: Sequence[str]) -> StoredSubject:
        if isinstance(strength, bool) or strength not in STRENGTH_LEVELS:
            raise StudyError("strength is a level from 1 to 5")
        if play_frequency not in PLAY_FREQUENCIES:
            raise StudyError(f"how often is one of {', '.join(PLAY_FREQUENCIES)}")
        if len(strategies) > len(STRATEGIES) or any(s not in STRATEGIES for s in strategies):
            raise StudyError(f"the strategies are some of {', '.join(STRATEGIES)}")
        progress = self._expect(study_id, code, "before")
        before = {"strength": strength, "play_frequency": play_frequency,
                  "strategies": [s for s in STRATEGIES if s in strategies]}
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
        if isinstance(felt, bool) or felt not in FELT_LEVELS:
            raise StudyError("how the game felt is a level from 1 to 5")
        text = _text(note, "the note")
        progress = self._expect(study_id, code, "felt")
        if progress.game_index != index:
            raise StudyError(f"game {index} is not the game to rate now", "wrong_phase")
        if not self.repo.set_felt(study_id, progress.subject.code, index, felt, text):
            raise StudyError("this game's question is answered already", "wrong_phase")

    def answer_after(self, study_id: str, code: str, *, more_fun: str, more_fun_why: str,
                     what_makes_fun: str) -> StoredSubject:
        progress = self._expect(study_id, code, "after")
        if more_fun not in progress.subject.order:
            raise StudyError(f"the more fun game is one of {', '.join(progress.subject.order)}")
        after = {"more_fun": more_fun, "more_fun_why": _text(more_fun_why, "why"),
                 "what_makes_fun": _text(what_makes_fun, "what makes games fun")}
        return self.repo.update_subject(study_id, progress.subject.code, after=after,
                                        finished_at=datetime.now(UTC))

    def subjects(self, study_id: str) -> list[SubjectProgress]:
        self.stored(study_id)
        return [self.progress(study_id, s.code) for s in self.repo.subjects(study_id)]

    # ---- the data -----------------------------------------------------------------------------
    def pending_evaluations(self, study_id: str) -> list[tuple[str, int, str, str]]:
        """``(game_id, move_number, position, subject colour)`` of every answered program
        move whose evaluation is not stored yet."""
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

    def data(self, study_id: str) -> StudyData:
        """The study's three tables (evaluations still being computed are ``None``)."""
        self.stored(study_id)
        subjects = self.repo.subjects(study_id)
        rows = self.repo.games(study_id)
        evaluations = self.repo.evaluations([g.game_id for g in rows])
        data = StudyData()
        for s in subjects:
            before = s.before or {}
            after = s.after or {}
            data.subjects.append(SubjectRecord(
                study_id, s.code, s.order, s.language, False, _iso(s.consented_at),
                before.get("strength"), before.get("play_frequency"),
                tuple(before.get("strategies", ())), after.get("more_fun"),
                after.get("more_fun_why", ""), after.get("what_makes_fun", ""),
                _iso(s.finished_at)))
        for row in rows:
            game = self._game(row.game_id)
            data.games.append(game_record(study_id, row.code, row.index, row.program, game,
                                          row.felt, row.felt_note))
            data.answers.extend(game_answers(study_id, row.code, row.index, row.program,
                                             game, evaluations))
        order = {s.code: s.number for s in subjects}
        data.games.sort(key=lambda g: (order.get(g.subject, 0), g.index))
        data.answers.sort(key=lambda a: (order.get(a.subject, 0), a.game_index,
                                         a.move_number))
        return data


__all__ = [
    "DEFAULT_ARMS",
    "FELT_LEVELS",
    "LANGUAGES",
    "PLAY_FREQUENCIES",
    "PROGRAMS",
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
]
