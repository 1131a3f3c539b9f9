"""The study's statistics: small pure functions over :class:`~hasamigo.study.records.StudyData`.

Each returns a frozen dataclass holding the counts it read and one or more
:class:`Significance` values (the test's name, ``n``, the statistic and ``p``). Samples are
small (the paper had 6 subjects), so a table that cannot be tested (a zero margin, too few
values, a constant column) is not an error: its :class:`Significance` has ``p = None`` and
a ``reason`` the report prints ("too few to test: …").

The tests (two-sided unless said):

* **wins** — per pair of arms (A before B in the study's order, :func:`study_arms`),
  Fisher's exact test on the 2×2 table (subject won / did not win) × (arm A / arm B),
  two-sided and one-sided (H1: subjects win *more against B* than against A, the paper's
  hypothesis with A = victory, B = amusement); **a draw counts as "did not win"**,
  unfinished games are left out. Each subject plays every arm, so the arms are not
  independent samples: Fisher's test ignores the pairing, McNemar's exact test uses it —
  the binomial test of the discordant subjects
  (won against B only: ``b``; against A only: ``c``), two- and one-sided. For the paper's
  6 subjects (0/6 against victory, 4/6 against amusement) Fisher's one-sided ``p`` is
  28/924 = 0.030, two-sided 0.061; McNemar's (``b`` = 4, ``c`` = 0) 0.0625 and 0.125;
  the plain χ² test's 0.014 (:func:`~hasamigo.study.significance.paper_tests`). The
  paper names no test: which of these it used is not known.
  With three arms every pair is tested and Holm's step-down adjustment is given beside
  the raw ``p``, per test.
* **more fun** — per arm, an exact binomial test of the number of subjects who named it
  against ``1/k`` of those who named any arm (``k`` arms; even preference). With two arms
  both rows give the same ``p``, the usual sign test.
* **surprise** — Fisher's exact test on (answer "surprising" / any other answer) ×
  (right after a special move — expectation, surprise, gift — / right after a normal one).
* **tracking** — Spearman's rank correlation between the "can you win" answer
  (lose −1, unknown 0, win +1) and the evaluation (discs, the subject's side).

The answers of one subject are not independent of each other; the surprise and tracking
tests pool them all and say so in the report.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

from hasamigo.study.records import (
    CAN_WIN,
    MOVE_KINDS,
    CanWin,
    MoveKind,
    StudyData,
    arms_of,
)
from hasamigo.study.significance import (  # re-exported: the tests on plain numbers
    BINOMIAL,
    FISHER,
    FISHER_ONE,
    MCNEMAR,
    MCNEMAR_ONE,
    SPEARMAN,
    Significance,
    Table2x2,
    as_json,
    binomial,
    fisher,
    holm,
    mcnemar,
    spearman,
    untested,
)

#: the move kinds the programs play on purpose (the paper's 期待性・意外性, the entertainer's gifts)
SPECIAL_KINDS: tuple[MoveKind, ...] = ("expectation", "surprise", "gift")
#: the "can you win" answers as numbers, the paper's graph's scale
CAN_WIN_SCORE: dict[CanWin, int] = {"win": 1, "unknown": 0, "lose": -1}


# ---- wins per program ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ArmWins:
    """The subjects' results against one program (``games`` counts finished games)."""

    program: str
    wins: int
    draws: int
    losses: int
    unfinished: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


@dataclass(frozen=True, slots=True)
class Paired:
    """One pair of arms, subject by subject: of the ``pairs`` subjects with a finished game
    against each, how many won against both, against A only (``c``), against B only
    (``b``) and neither; ``unpaired`` subjects had no such pair of games."""

    both: int
    a_only: int
    b_only: int
    neither: int
    unpaired: int

    @property
    def pairs(self) -> int:
        return self.both + self.a_only + self.b_only + self.neither


@dataclass(frozen=True, slots=True)
class PairTest:
    """Two arms compared: ``table`` is ((A wins, A not), (B wins, B not)); ``result`` the
    two-sided Fisher test, ``one_sided`` Fisher's test of H1 "subjects win more against
    B"; ``mcnemar`` and ``mcnemar_one_sided`` the paired tests on ``paired``. Each ``*_holm``
    is the Holm-adjusted ``p`` of that test over all the pairs of the study."""

    a: str
    b: str
    table: Table2x2
    result: Significance
    p_holm: float | None
    one_sided: Significance
    one_sided_holm: float | None
    paired: Paired
    mcnemar: Significance
    mcnemar_holm: float | None
    mcnemar_one_sided: Significance
    mcnemar_one_sided_holm: float | None

    def tests(self) -> tuple[tuple[Significance, float | None], ...]:
        """The four tests with their Holm-adjusted ``p``: Fisher one- and two-sided,
        McNemar one- and two-sided."""
        return ((self.one_sided, self.one_sided_holm), (self.result, self.p_holm),
                (self.mcnemar_one_sided, self.mcnemar_one_sided_holm),
                (self.mcnemar, self.mcnemar_holm))


@dataclass(frozen=True, slots=True)
class WinsTable:
    """Wins per program and the tests of every pair (a draw counts as "not a win")."""

    arms: tuple[ArmWins, ...]
    pairs: tuple[PairTest, ...]

    def to_json(self) -> dict[str, Any]:
        return as_json({"arms": [asdict(a) | {"games": a.games, "win_rate": a.win_rate}
                                for a in self.arms],
                       "pairs": [asdict(p) for p in self.pairs],
                       "draws": "count as not a win",
                       "one_sided": "H1: subjects win more against b than against a"})


def study_arms(data: StudyData) -> list[str]:
    """The arms in the study's order: its settings' (``meta.arms``) when known, then any
    other program met in the data (:func:`~hasamigo.study.records.arms_of`). The order
    sets the one-sided tests' direction, so it must not hang on which subject came first
    in a counterbalanced design."""
    arms = dict.fromkeys(data.meta.arms if data.meta is not None else ())
    arms.update(dict.fromkeys(arms_of(data)))
    return list(arms)


def _won(data: StudyData) -> dict[tuple[str, str], bool | None]:
    """(subject, arm) → won the one finished game against that arm; ``None`` when the
    subject has several (a design the paired test does not fit)."""
    out: dict[tuple[str, str], bool | None] = {}
    for g in data.games:
        if g.outcome is None:
            continue
        key = (g.subject, g.program)
        out[key] = None if key in out else g.outcome == "win"
    return out


def paired_wins(data: StudyData, a: str, b: str) -> Paired:
    """Each subject's results against ``a`` and ``b`` side by side (finished games only)."""
    won = _won(data)
    counts = {"both": 0, "a_only": 0, "b_only": 0, "neither": 0}
    subjects = dict.fromkeys([s.subject for s in data.subjects]
                             + [g.subject for g in data.games])
    unpaired = 0
    for subject in subjects:
        wa, wb = won.get((subject, a)), won.get((subject, b))
        if wa is None or wb is None:
            unpaired += 1
            continue
        key = ("both" if wb else "a_only") if wa else ("b_only" if wb else "neither")
        counts[key] += 1
    return Paired(unpaired=unpaired, **counts)


def wins_by_program(data: StudyData) -> WinsTable:
    """The subjects' wins, draws and losses per program, and for every pair of programs
    Fisher's exact test (two- and one-sided) on (won, did not win) and McNemar's exact
    test (two- and one-sided) on the subjects' paired results.

    >>> from hasamigo.study.records import GameRecord as G
    >>> games = [G("s", f"p{i // 2}", 1, arm, "g", "black", outcome)
    ...          for i, (arm, outcome) in enumerate([("victory", "lose"), ("amusement", "win"),
    ...                                              ("victory", "draw"), ("amusement", "win")])]
    >>> table = wins_by_program(StudyData([], games, []))
    >>> [(a.program, a.wins, a.draws, a.losses) for a in table.arms]
    [('victory', 0, 1, 1), ('amusement', 2, 0, 0)]
    >>> pair = table.pairs[0]
    >>> pair.table, round(pair.result.p, 3), round(pair.one_sided.p, 3), pair.paired.b_only
    (((0, 2), (2, 0)), 0.333, 0.167, 2)
    """
    arms = []
    for arm in study_arms(data):
        games = [g for g in data.games if g.program == arm]
        arms.append(ArmWins(arm,
                            wins=sum(g.outcome == "win" for g in games),
                            draws=sum(g.outcome == "draw" for g in games),
                            losses=sum(g.outcome == "lose" for g in games),
                            unfinished=sum(g.outcome is None for g in games)))
    tables: list[tuple[ArmWins, ArmWins, Table2x2]] = [
        (a, b, ((a.wins, a.games - a.wins), (b.wins, b.games - b.wins)))
        for a, b in combinations(arms, 2)]
    paired = [paired_wins(data, a.program, b.program) for a, b, _ in tables]
    families = [[fisher(t) for _, _, t in tables],
                [fisher(t, "less") for _, _, t in tables],
                [mcnemar(p.b_only, p.a_only) for p in paired],
                [mcnemar(p.b_only, p.a_only, "greater") for p in paired]]
    adjusted = [holm([r.p for r in family]) for family in families]
    pairs = tuple(
        PairTest(a.program, b.program, t, families[0][i], adjusted[0][i],
                 families[1][i], adjusted[1][i], paired[i], families[2][i], adjusted[2][i],
                 families[3][i], adjusted[3][i])
        for i, (a, b, t) in enumerate(tables))
    return WinsTable(tuple(arms), pairs)


# ---- which game was more fun ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FunChoice:
    """How many subjects named ``program`` the more fun, and the binomial test of that
    count against an even preference (``1/k`` of ``n``)."""

    program: str
    count: int
    result: Significance


@dataclass(frozen=True, slots=True)
class FunTest:
    """The "which game was more fun" answers: ``n`` subjects named one of the arms;
    ``no_answer`` gave none, ``other`` named something that is not an arm."""

    choices: tuple[FunChoice, ...]
    n: int
    no_answer: int
    other: int
    expected_share: float | None

    def to_json(self) -> dict[str, Any]:
        return as_json(asdict(self))


def fun_preference(data: StudyData) -> FunTest:
    """Counts of "more fun" per program, each tested against ``1/k`` (binomial, two-sided).

    >>> from hasamigo.study.records import SubjectRecord as S
    >>> subjects = [S("s", f"p{i}", ("victory", "amusement"), more_fun=fun)
    ...             for i, fun in enumerate(["amusement"] * 4 + ["victory"] * 2)]
    >>> test = fun_preference(StudyData(subjects, [], []))
    >>> [(c.program, c.count, c.result.p) for c in test.choices]
    [('victory', 2, 0.6875), ('amusement', 4, 0.6875)]
    """
    arms = study_arms(data)
    named = [s.more_fun for s in data.subjects if s.more_fun]
    counted = [name for name in named if name in arms]
    n, k = len(counted), len(arms)
    share = 1 / k if k else None
    choices = []
    for arm in arms:
        count = counted.count(arm)
        if k < 2:
            result = untested(BINOMIAL, n, "proportion", "fewer than two programs")
        else:
            result = binomial(count, n, 1 / k)
        choices.append(FunChoice(arm, count, result))
    return FunTest(tuple(choices), n, no_answer=len(data.subjects) - len(named),
                   other=len(named) - n, expected_share=share)


# ---- "surprising" after special moves -----------------------------------------------------
@dataclass(frozen=True, slots=True)
class KindRate:
    """The answers given right after moves of one kind, and how many said "surprising"."""

    kind: str
    answers: int
    surprising: int

    @property
    def rate(self) -> float | None:
        return self.surprising / self.answers if self.answers else None


@dataclass(frozen=True, slots=True)
class SurpriseTest:
    """"Surprising" answers after special moves (expectation, surprise, gift) versus after
    normal ones: ``table`` is ((special: surprising, not), (normal: surprising, not))."""

    kinds: tuple[KindRate, ...]
    special: KindRate
    normal: KindRate
    table: Table2x2
    result: Significance

    def to_json(self) -> dict[str, Any]:
        return as_json(asdict(self))


def surprise_rates(data: StudyData) -> SurpriseTest:
    """The rate of "surprising" answers per move kind, and Fisher's exact test of special
    moves against normal ones.

    >>> from hasamigo.study.records import AnswerRecord as A
    >>> def answer(kind, felt):
    ...     return A("s", "p", 1, "amusement", "g", 1, "a1", kind, "", "unknown", felt, 1.0)
    >>> test = surprise_rates(StudyData([], [], [answer("surprise", "surprising"),
    ...                                          answer("normal", "expected")]))
    >>> test.table, test.result.tested
    (((1, 0), (0, 1)), True)
    """
    kinds = []
    for kind in MOVE_KINDS:
        rows = [a for a in data.answers if a.move_kind == kind]
        kinds.append(KindRate(kind, len(rows), sum(a.move_felt == "surprising" for a in rows)))
    special_rows = [k for k in kinds if k.kind in SPECIAL_KINDS]
    special = KindRate("special", sum(k.answers for k in special_rows),
                       sum(k.surprising for k in special_rows))
    normal = next(k for k in kinds if k.kind == "normal")
    table: Table2x2 = ((special.surprising, special.answers - special.surprising),
                       (normal.surprising, normal.answers - normal.surprising))
    return SurpriseTest(tuple(kinds), special, normal, table, fisher(table))


# ---- "can you win" against the evaluation ---------------------------------------------------
@dataclass(frozen=True, slots=True)
class AnswerEvaluation:
    """The evaluations (discs, the subject's side) at which one answer was given."""

    answer: str
    n: int
    mean: float | None
    median: float | None


@dataclass(frozen=True, slots=True)
class TrackingTest:
    """How the "can you win" answers track the evaluation: the mean per answer, and
    Spearman's rho between the answer (−1, 0, +1) and the evaluation over the ``n``
    answers that have one (``missing`` have none yet)."""

    by_answer: tuple[AnswerEvaluation, ...]
    n: int
    missing: int
    result: Significance

    def to_json(self) -> dict[str, Any]:
        return as_json(asdict(self))


def can_win_tracking(data: StudyData) -> TrackingTest:
    """Mean evaluation per "can you win" answer, and Spearman's rho between the two.

    >>> from hasamigo.study.records import AnswerRecord as A
    >>> def answer(can_win, evaluation):
    ...     return A("s", "p", 1, "victory", "g", 1, "a1", "normal", "", can_win, "unknown",
    ...              1.0, evaluation)
    >>> test = can_win_tracking(StudyData([], [], [answer("lose", -8), answer("unknown", 0),
    ...                                            answer("win", 6), answer("win", None)]))
    >>> [(a.answer, a.n, a.mean) for a in test.by_answer], test.missing
    ([('win', 1, 6.0), ('unknown', 1, 0.0), ('lose', 1, -8.0)], 1)
    >>> test.result.statistic
    1.0
    """
    rated = [a for a in data.answers if a.evaluation is not None]
    by_answer = []
    for answer in CAN_WIN:
        values = [float(a.evaluation) for a in rated
                  if a.can_win == answer and a.evaluation is not None]
        mean = sum(values) / len(values) if values else None
        median = statistics.median(values) if values else None
        by_answer.append(AnswerEvaluation(answer, len(values), mean, median))
    xs = [float(CAN_WIN_SCORE[a.can_win]) for a in rated]
    ys = [float(a.evaluation) for a in rated if a.evaluation is not None]
    return TrackingTest(tuple(by_answer), len(rated), len(data.answers) - len(rated),
                        spearman(xs, ys))


# ---- all of it --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StudyStats:
    """Every table of the report, computed once."""

    wins: WinsTable
    fun: FunTest
    surprise: SurpriseTest
    tracking: TrackingTest

    def to_json(self) -> dict[str, Any]:
        return {"wins": self.wins.to_json(), "fun": self.fun.to_json(),
                "surprise": self.surprise.to_json(), "tracking": self.tracking.to_json()}


def analyse(data: StudyData) -> StudyStats:
    """All four analyses of :mod:`hasamigo.study.stats` on ``data``."""
    return StudyStats(wins_by_program(data), fun_preference(data), surprise_rates(data),
                      can_win_tracking(data))


__all__ = [
    "BINOMIAL",
    "CAN_WIN_SCORE",
    "FISHER",
    "FISHER_ONE",
    "MCNEMAR",
    "MCNEMAR_ONE",
    "SPEARMAN",
    "SPECIAL_KINDS",
    "AnswerEvaluation",
    "ArmWins",
    "FunChoice",
    "FunTest",
    "KindRate",
    "PairTest",
    "Paired",
    "Significance",
    "StudyStats",
    "SurpriseTest",
    "TrackingTest",
    "WinsTable",
    "analyse",
    "binomial",
    "can_win_tracking",
    "fisher",
    "fun_preference",
    "holm",
    "mcnemar",
    "paired_wins",
    "spearman",
    "study_arms",
    "surprise_rates",
    "wins_by_program",
]
