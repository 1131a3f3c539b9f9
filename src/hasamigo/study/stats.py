"""The study's statistics: small pure functions over :class:`~hasamigo.study.records.StudyData`.

Each returns a frozen dataclass holding the counts it read and one or more
:class:`Significance` values (the test's name, ``n``, the statistic and ``p``). Samples are
small (the paper had 6 subjects), so a table that cannot be tested (a zero margin, too few
values, a constant column) is not an error: its :class:`Significance` has ``p = None`` and
a ``reason`` the report prints ("too few to test: …").

The tests, all two-sided:

* **wins** — per pair of arms, Fisher's exact test on the 2×2 table (subject won / did
  not win) × (arm A / arm B); **a draw counts as "did not win"**, unfinished games are left
  out. With three arms every pair is tested and Holm's step-down adjustment is given
  beside the raw ``p``. (Each subject plays every arm, so the arms are not independent
  samples; Fisher's test ignores the pairing, as the paper's comparison does.)
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

import math
import statistics
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

from scipy import stats as _scipy

from hasamigo.study.records import (
    CAN_WIN,
    MOVE_KINDS,
    CanWin,
    MoveKind,
    StudyData,
    arms_of,
)

#: the move kinds the programs play on purpose (the paper's 期待性・意外性, the entertainer's gifts)
SPECIAL_KINDS: tuple[MoveKind, ...] = ("expectation", "surprise", "gift")
#: the "can you win" answers as numbers, the paper's graph's scale
CAN_WIN_SCORE: dict[CanWin, int] = {"win": 1, "unknown": 0, "lose": -1}

Table2x2 = tuple[tuple[int, int], tuple[int, int]]

FISHER = "Fisher's exact test, two-sided"
BINOMIAL = "exact binomial test, two-sided"
SPEARMAN = "Spearman's rank correlation, two-sided"


@dataclass(frozen=True, slots=True)
class Significance:
    """One test's result: ``p`` is ``None`` when it could not be run (``reason`` says why).

    >>> Significance(FISHER, 13, "odds ratio", 12.0, 0.1026).tested
    True
    >>> Significance(FISHER, 0, "odds ratio", None, None, "no games").tested
    False
    """

    test: str
    n: int
    statistic_name: str
    statistic: float | None
    p: float | None
    reason: str = ""

    @property
    def tested(self) -> bool:
        return self.p is not None


def _untested(test: str, n: int, statistic_name: str, reason: str) -> Significance:
    return Significance(test, n, statistic_name, None, None, f"too few to test: {reason}")


def _plain(value: Any) -> Any:
    """``value`` with tuples as lists and an infinite odds ratio as ``"inf"`` (JSON has no
    infinity)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def _json(row: dict[str, Any]) -> dict[str, Any]:
    return {k: _plain(v) for k, v in row.items()}


def _finite(value: Any) -> float | None:
    number = float(value)
    return number if math.isfinite(number) else None


# ---- the tests, on plain numbers ----------------------------------------------------------
def fisher(table: Table2x2) -> Significance:
    """Fisher's exact test (two-sided) on a 2×2 table of counts; the statistic is the
    sample odds ratio (``inf`` when a cell off the diagonal is 0).

    >>> round(fisher(((6, 2), (1, 4))).p, 4)
    0.1026
    >>> fisher(((3, 0), (2, 0))).reason
    'too few to test: a row or column of the table is empty'
    """
    (a, b), (c, d) = table
    n = a + b + c + d
    if min(a, b, c, d) < 0:
        raise ValueError(f"a table of counts has no negative cells: {table}")
    if 0 in (a + b, c + d, a + c, b + d):
        return _untested(FISHER, n, "odds ratio", "a row or column of the table is empty")
    result = _scipy.fisher_exact([[a, b], [c, d]], alternative="two-sided")
    return Significance(FISHER, n, "odds ratio", float(result.statistic),
                        min(1.0, float(result.pvalue)))


def binomial(k: int, n: int, p: float = 0.5) -> Significance:
    """The exact binomial test (two-sided) of ``k`` successes in ``n`` against ``p``; the
    statistic is the observed proportion ``k/n``.

    >>> binomial(4, 6).p
    0.6875
    >>> binomial(0, 0).tested
    False
    """
    if n <= 0:
        return _untested(BINOMIAL, 0, "proportion", "no answers")
    result = _scipy.binomtest(k, n, p, alternative="two-sided")
    return Significance(BINOMIAL, n, "proportion", k / n, min(1.0, float(result.pvalue)))


def spearman(xs: Sequence[float], ys: Sequence[float]) -> Significance:
    """Spearman's rank correlation (two-sided) between paired values; the statistic is rho.

    >>> round(spearman([1, 2, 3, 4], [1, 3, 2, 4]).statistic, 2)
    0.8
    >>> spearman([0, 0, 0], [1, 2, 3]).reason
    'too few to test: one of the two variables is constant'
    """
    n = len(xs)
    if n != len(ys):
        raise ValueError(f"paired values of unequal lengths ({n}, {len(ys)})")
    if n < 3:
        return _untested(SPEARMAN, n, "rho", f"{n} pair{'s' * (n != 1)} (at least 3 needed)")
    if len(set(xs)) < 2 or len(set(ys)) < 2:
        return _untested(SPEARMAN, n, "rho", "one of the two variables is constant")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = _scipy.spearmanr(xs, ys)
    rho, p = _finite(result.statistic), _finite(result.pvalue)
    if rho is None or p is None:
        return _untested(SPEARMAN, n, "rho", "the correlation is undefined")
    return Significance(SPEARMAN, n, "rho", rho, min(1.0, p))


def holm(ps: Sequence[float | None]) -> tuple[float | None, ...]:
    """Holm's step-down adjustment of the p-values given (``None`` stays ``None`` and does
    not count as a test).

    >>> [round(p, 6) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    tested = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(tested)
    out: list[float | None] = [None] * len(ps)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return tuple(out)


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
class PairTest:
    """Two arms compared: ``table`` is ((A wins, A not), (B wins, B not)); ``p_holm`` the
    Holm-adjusted ``p`` over all the pairs of the study."""

    a: str
    b: str
    table: Table2x2
    result: Significance
    p_holm: float | None


@dataclass(frozen=True, slots=True)
class WinsTable:
    """Wins per program and the pairwise Fisher tests (a draw counts as "not a win")."""

    arms: tuple[ArmWins, ...]
    pairs: tuple[PairTest, ...]

    def to_json(self) -> dict[str, Any]:
        return _json({"arms": [asdict(a) | {"games": a.games, "win_rate": a.win_rate}
                                for a in self.arms],
                       "pairs": [asdict(p) for p in self.pairs],
                       "draws": "count as not a win"})


def wins_by_program(data: StudyData) -> WinsTable:
    """The subjects' wins, draws and losses per program, and Fisher's exact test for every
    pair of programs on (won, did not win).

    >>> from hasamigo.study.records import GameRecord as G
    >>> games = [G("s", f"p{i}", 1, arm, "g", "black", outcome)
    ...          for i, (arm, outcome) in enumerate([("victory", "lose"), ("amusement", "win"),
    ...                                              ("victory", "draw"), ("amusement", "win")])]
    >>> table = wins_by_program(StudyData([], games, []))
    >>> [(a.program, a.wins, a.draws, a.losses) for a in table.arms]
    [('victory', 0, 1, 1), ('amusement', 2, 0, 0)]
    >>> table.pairs[0].table, round(table.pairs[0].result.p, 3)
    (((0, 2), (2, 0)), 0.333)
    """
    arms = []
    for arm in arms_of(data):
        games = [g for g in data.games if g.program == arm]
        arms.append(ArmWins(arm,
                            wins=sum(g.outcome == "win" for g in games),
                            draws=sum(g.outcome == "draw" for g in games),
                            losses=sum(g.outcome == "lose" for g in games),
                            unfinished=sum(g.outcome is None for g in games)))
    tables: list[tuple[ArmWins, ArmWins, Table2x2]] = [
        (a, b, ((a.wins, a.games - a.wins), (b.wins, b.games - b.wins)))
        for a, b in combinations(arms, 2)]
    results = [fisher(t) for _, _, t in tables]
    adjusted = holm([r.p for r in results])
    pairs = tuple(PairTest(a.program, b.program, t, r, adj)
                  for (a, b, t), r, adj in zip(tables, results, adjusted, strict=True))
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
        return _json(asdict(self))


def fun_preference(data: StudyData) -> FunTest:
    """Counts of "more fun" per program, each tested against ``1/k`` (binomial, two-sided).

    >>> from hasamigo.study.records import SubjectRecord as S
    >>> subjects = [S("s", f"p{i}", ("victory", "amusement"), more_fun=fun)
    ...             for i, fun in enumerate(["amusement"] * 4 + ["victory"] * 2)]
    >>> test = fun_preference(StudyData(subjects, [], []))
    >>> [(c.program, c.count, c.result.p) for c in test.choices]
    [('victory', 2, 0.6875), ('amusement', 4, 0.6875)]
    """
    arms = list(arms_of(data))
    named = [s.more_fun for s in data.subjects if s.more_fun]
    counted = [name for name in named if name in arms]
    n, k = len(counted), len(arms)
    share = 1 / k if k else None
    choices = []
    for arm in arms:
        count = counted.count(arm)
        if k < 2:
            result = _untested(BINOMIAL, n, "proportion", "fewer than two programs")
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
        return _json(asdict(self))


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
        return _json(asdict(self))


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
    "SPEARMAN",
    "SPECIAL_KINDS",
    "AnswerEvaluation",
    "ArmWins",
    "FunChoice",
    "FunTest",
    "KindRate",
    "PairTest",
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
    "spearman",
    "surprise_rates",
    "wins_by_program",
]
