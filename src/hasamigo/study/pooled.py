"""The in-game answers pooled over subjects, and whether the treatment happened.

* :func:`per_move_shares` — per program and per move, the share of 「勝てそう」 (``can_win``
  ``win``) and of 「意外な手」 (``move_felt`` ``surprising``) among the answers given there,
  and the mean evaluation: the paper's Figure 7 pooled over its subjects. The x axis is
  the paper's 手数, the subject's own moves (``subject_moves``); data written before that
  column existed (all zero) fall back to the game's move number (:func:`move_axis`).
* :func:`treatment_fidelity` — per program, the share of games in which the expectation
  move and the surprise move were played (``expectation_at``, ``surprise_at``), and the
  amusement-type games (a program named ``amusement…``) where they were not: a study
  whose treatment never happened tests nothing. :func:`fidelity_summary` is what the
  researcher's page shows of it: the finished games, with the surprise window and whose
  reading it is (the paper's or the project's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from hasamigo.study.protocol import MIDGAME_WINDOW, WINDOW_SOURCE
from hasamigo.study.records import AnswerRecord, GameRecord, StudyData
from hasamigo.study.stats import study_arms

SUBJECT_MOVES = "subject_moves"
MOVE_NUMBER = "move_number"


def move_axis(answers: Sequence[AnswerRecord]) -> str:
    """Which field is the x axis of ``answers``: ``subject_moves`` (the paper's 手数) when
    any answer has it, else ``move_number`` (older data)."""
    return SUBJECT_MOVES if any(a.subject_moves > 0 for a in answers) else MOVE_NUMBER


def x_of(answer: AnswerRecord, axis: str) -> int:
    return answer.subject_moves if axis == SUBJECT_MOVES else answer.move_number


@dataclass(frozen=True, slots=True)
class MoveShare:
    """The answers given at one move against one program: ``n`` answers, ``can_win`` of
    them 「勝てそう」; ``felt_n`` answered the second question, ``surprising`` of them
    「意外な手」; the mean evaluation over the ``rated`` answers that have one."""

    move: int
    n: int
    can_win: int
    felt_n: int
    surprising: int
    rated: int
    mean_evaluation: float | None

    @property
    def can_win_share(self) -> float | None:
        return self.can_win / self.n if self.n else None

    @property
    def surprising_share(self) -> float | None:
        return self.surprising / self.felt_n if self.felt_n else None


@dataclass(frozen=True, slots=True)
class ProgramShares:
    program: str
    moves: tuple[MoveShare, ...]
    subjects: int


@dataclass(frozen=True, slots=True)
class PooledAnswers:
    """:func:`per_move_shares`' result: ``axis`` names the x axis (:func:`move_axis`)."""

    axis: str
    programs: tuple[ProgramShares, ...]


def per_move_shares(data: StudyData) -> PooledAnswers:
    """Per program and move: the shares of 「勝てそう」 and 「意外な手」 and the mean
    evaluation, over every subject's answers at that move.

    >>> from hasamigo.study.records import AnswerRecord as A
    >>> def answer(subject, move, can_win, felt, ev):
    ...     return A("s", subject, 1, "amusement", "g", 2 * move, "d3", "normal", "",
    ...              can_win, felt, 1.0, ev, subject_moves=move)
    >>> pooled = per_move_shares(StudyData([], [], [
    ...     answer("P1", 1, "win", None, 2.0), answer("P2", 1, "lose", None, None),
    ...     answer("P1", 2, "win", "surprising", 4.0), answer("P2", 2, "win", "expected", 6.0)]))
    >>> [(m.move, m.can_win_share, m.surprising_share, m.mean_evaluation)
    ...  for m in pooled.programs[0].moves]
    [(1, 0.5, None, 2.0), (2, 1.0, 0.5, 5.0)]
    """
    axis = move_axis(data.answers)
    programs = []
    arms = dict.fromkeys([*study_arms(data), *(a.program for a in data.answers)])
    for program in arms:
        answers = [a for a in data.answers if a.program == program]
        by_move: dict[int, list[AnswerRecord]] = {}
        for a in answers:
            by_move.setdefault(x_of(a, axis), []).append(a)
        rows = []
        for move in sorted(by_move):
            here = by_move[move]
            felt = [a for a in here if a.move_felt is not None]
            rated = [float(a.evaluation) for a in here if a.evaluation is not None]
            rows.append(MoveShare(move, len(here), sum(a.can_win == "win" for a in here),
                                  len(felt), sum(a.move_felt == "surprising" for a in felt),
                                  len(rated), sum(rated) / len(rated) if rated else None))
        if rows:
            programs.append(ProgramShares(program, tuple(rows),
                                          len({a.subject for a in answers})))
    return PooledAnswers(axis, tuple(programs))


# ---- treatment fidelity ---------------------------------------------------------------------
def is_amusement(program: str) -> bool:
    """Whether ``program`` is an amusement-type program (``amusement``, ``amusement:…``),
    the one whose treatment is the expectation and the surprise move."""
    return program.startswith("amusement")


@dataclass(frozen=True, slots=True)
class ProgramFidelity:
    """Of a program's ``games``, how many had the expectation move, the surprise move,
    and at least one gift (the entertainer's)."""

    program: str
    games: int
    expectation: int
    surprise: int
    gifts: int

    def share(self, count: int) -> float | None:
        return count / self.games if self.games else None


@dataclass(frozen=True, slots=True)
class Flag:
    """An amusement-type game whose treatment did not (fully) happen: ``missing`` names
    the moves not played (``expectation``, ``surprise``)."""

    game: GameRecord
    missing: tuple[str, ...]

    @property
    def never(self) -> bool:
        return len(self.missing) == 2


@dataclass(frozen=True, slots=True)
class Fidelity:
    programs: tuple[ProgramFidelity, ...]
    flags: tuple[Flag, ...]


def treatment_fidelity(data: StudyData) -> Fidelity:
    """Per program, the games in which each special move was played, and the amusement
    games missing one or both.

    >>> from hasamigo.study.records import GameRecord as G
    >>> games = [G("s", "P1", 1, "amusement", "g1", "black", "win", expectation_at=20,
    ...            surprise_at=31), G("s", "P2", 1, "amusement", "g2", "white", "lose",
    ...            expectation_at=22), G("s", "P1", 2, "victory", "g3", "white", "lose")]
    >>> fidelity = treatment_fidelity(StudyData([], games, []))
    >>> [(p.program, p.games, p.expectation, p.surprise) for p in fidelity.programs]
    [('amusement', 2, 2, 1), ('victory', 1, 0, 0)]
    >>> [(f.game.subject, f.missing) for f in fidelity.flags]
    [('P2', ('surprise',))]
    """
    programs = []
    for program in study_arms(data):
        games = [g for g in data.games if g.program == program]
        if games:
            programs.append(ProgramFidelity(
                program, len(games), sum(g.expectation_at is not None for g in games),
                sum(g.surprise_at is not None for g in games), sum(g.gifts > 0 for g in games)))
    flags = []
    for g in data.games:
        if not is_amusement(g.program):
            continue
        missing = tuple(name for name, at in (("expectation", g.expectation_at),
                                              ("surprise", g.surprise_at)) if at is None)
        if missing:
            flags.append(Flag(g, missing))
    return Fidelity(tuple(programs), tuple(flags))


def fidelity_summary(data: StudyData) -> dict[str, Any]:
    """The treatment fidelity of the study's finished games, for the researcher's page:
    ``{window, window_source, programs: [{program, games, expectation, surprise}],
    missing}`` (``window_source``: ``paper`` or ``project``; ``missing``: the finished
    amusement games without their surprise move).

    >>> from hasamigo.study.records import GameRecord as G, StudyMeta
    >>> games = [G("s", "P1", 1, "amusement", "g1", "black", "win", surprise_at=31),
    ...          G("s", "P2", 1, "amusement", "g2", "white", None)]
    >>> meta = StudyMeta("s", "S", "paper", ("victory", "amusement"), "moves")
    >>> summary = fidelity_summary(StudyData([], games, [], meta=meta))
    >>> summary["window"], summary["window_source"], summary["programs"][-1]
    ('moves', 'paper', {'program': 'amusement', 'games': 1, 'expectation': 0, 'surprise': 1})
    """
    window = data.meta.surprise_window if data.meta is not None else MIDGAME_WINDOW
    finished = replace(data, games=[g for g in data.games if g.outcome is not None])
    fidelity = treatment_fidelity(finished)
    return {"window": window, "window_source": WINDOW_SOURCE.get(window, "project"),
            "programs": [{"program": p.program, "games": p.games,
                          "expectation": p.expectation, "surprise": p.surprise}
                         for p in fidelity.programs],
            "missing": sum("surprise" in f.missing for f in fidelity.flags)}


__all__ = [
    "MOVE_NUMBER",
    "SUBJECT_MOVES",
    "Fidelity",
    "Flag",
    "MoveShare",
    "PooledAnswers",
    "ProgramFidelity",
    "ProgramShares",
    "fidelity_summary",
    "is_amusement",
    "move_axis",
    "per_move_shares",
    "treatment_fidelity",
    "x_of",
]
