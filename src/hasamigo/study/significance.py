"""The tests the study's report uses, on plain numbers: each returns a
:class:`Significance` (the test's name, ``n``, the statistic and ``p``), with ``p = None``
and a ``reason`` when the data cannot be tested (a zero margin, too few values, a
constant column) — small samples are the rule here (the paper had 6 subjects), not an
error. :mod:`hasamigo.study.stats` applies them to a study's data and re-exports them.

**The paper names no test.** It says of its result only 「勝利指向が０勝６敗，娯楽指向が４勝
２敗，という結果になり，その差は有意であった」 (§4.2). :func:`paper_tests` gives that
result (:data:`PAPER_WINS`) under each test a reader might have used, side by side and
each named: Fisher's exact test one- and two-sided, Pearson's plain χ² test (no
continuity correction) and McNemar's exact test for the paired design (each subject
played both programs; with no win against victory every amusement win is a discordant
pair: ``b`` = 4, ``c`` = 0), one- and two-sided. All by :mod:`scipy.stats`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


def _stats() -> Any:
    """scipy.stats, imported at the first test rather than with the module: it is a
    fifth of the web app's start-up (the study's routers import this module), and most
    servers never test a study."""
    from scipy import stats

    return stats


Table2x2 = tuple[tuple[int, int], tuple[int, int]]

FISHER = "Fisher's exact test, two-sided"
FISHER_ONE = "Fisher's exact test, one-sided"
MCNEMAR = "McNemar's exact test, two-sided"
MCNEMAR_ONE = "McNemar's exact test, one-sided"
CHI2 = "Pearson's χ² test (no continuity correction)"
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


def untested(test: str, n: int, statistic_name: str, reason: str) -> Significance:
    """A test that could not be run, and why ("too few to test: …")."""
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


def as_json(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` ready for JSON (:func:`_plain` of every value)."""
    return {k: _plain(v) for k, v in row.items()}


def _finite(value: Any) -> float | None:
    number = float(value)
    return number if math.isfinite(number) else None


# ---- the tests, on plain numbers ----------------------------------------------------------
def fisher(table: Table2x2, alternative: str = "two-sided") -> Significance:
    """Fisher's exact test on a 2×2 table of counts; the statistic is the sample odds
    ratio (``inf`` when a cell off the diagonal is 0). ``alternative`` as scipy's:
    ``less`` is the one-sided test that the first row's share in the first column is the
    smaller (for ((A wins, A not), (B wins, B not)): subjects win more against B).

    >>> round(fisher(((6, 2), (1, 4))).p, 4)
    0.1026
    >>> round(fisher(((0, 6), (4, 2)), "less").p * 924)
    28
    >>> fisher(((3, 0), (2, 0))).reason
    'too few to test: a row or column of the table is empty'
    """
    (a, b), (c, d) = table
    n = a + b + c + d
    name = FISHER if alternative == "two-sided" else FISHER_ONE
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"an alternative is two-sided, less or greater, not {alternative!r}")
    if min(a, b, c, d) < 0:
        raise ValueError(f"a table of counts has no negative cells: {table}")
    if 0 in (a + b, c + d, a + c, b + d):
        return untested(name, n, "odds ratio", "a row or column of the table is empty")
    result = _stats().fisher_exact([[a, b], [c, d]], alternative=alternative)
    return Significance(name, n, "odds ratio", float(result.statistic),
                        min(1.0, float(result.pvalue)))


def chi_square(table: Table2x2) -> Significance:
    """Pearson's χ² test of independence on a 2×2 table of counts, without Yates's
    continuity correction (the plain test; :func:`scipy.stats.chi2_contingency` with
    ``correction=False``); the statistic is χ² (1 degree of freedom). With expected
    counts under 5, as in the paper's table, its ``p`` is an approximation.

    >>> result = chi_square(((0, 6), (4, 2)))
    >>> result.statistic, round(result.p, 4)
    (6.0, 0.0143)
    >>> chi_square(((3, 0), (2, 0))).reason
    'too few to test: a row or column of the table is empty'
    """
    (a, b), (c, d) = table
    n = a + b + c + d
    if min(a, b, c, d) < 0:
        raise ValueError(f"a table of counts has no negative cells: {table}")
    if 0 in (a + b, c + d, a + c, b + d):
        return untested(CHI2, n, "χ²", "a row or column of the table is empty")
    result = _stats().chi2_contingency([[a, b], [c, d]], correction=False)
    return Significance(CHI2, n, "χ²", float(result.statistic),
                        min(1.0, float(result.pvalue)))


def mcnemar(b: int, c: int, alternative: str = "two-sided") -> Significance:
    """McNemar's exact test of paired yes/no results: the exact binomial test of ``b`` (yes
    only in the second condition) among the ``b + c`` discordant pairs against 1/2;
    ``greater``: one-sided, H1 more ``b`` than ``c``. The statistic is ``b / (b + c)``.

    >>> mcnemar(4, 0).p, mcnemar(4, 0, "greater").p
    (0.125, 0.0625)
    >>> mcnemar(0, 0).reason
    'too few to test: no discordant pairs'
    """
    name = MCNEMAR if alternative == "two-sided" else MCNEMAR_ONE
    if min(b, c) < 0:
        raise ValueError(f"discordant counts are not negative: {b}, {c}")
    if b + c == 0:
        return untested(name, 0, "proportion", "no discordant pairs")
    result = _stats().binomtest(b, b + c, 0.5, alternative=alternative)
    return Significance(name, b + c, "proportion", b / (b + c),
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
        return untested(BINOMIAL, 0, "proportion", "no answers")
    result = _stats().binomtest(k, n, p, alternative="two-sided")
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
        return untested(SPEARMAN, n, "rho", f"{n} pair{'s' * (n != 1)} (at least 3 needed)")
    if len(set(xs)) < 2 or len(set(ys)) < 2:
        return untested(SPEARMAN, n, "rho", "one of the two variables is constant")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = _stats().spearmanr(xs, ys)
    rho, p = _finite(result.statistic), _finite(result.pvalue)
    if rho is None or p is None:
        return untested(SPEARMAN, n, "rho", "the correlation is undefined")
    return Significance(SPEARMAN, n, "rho", rho, min(1.0, p))


#: the paper's result (§4.2): wins and losses of its 6 weak subjects against the victory
#: and the amusement program, 「勝利指向が０勝６敗，娯楽指向が４勝２敗」
PAPER_WINS: Table2x2 = ((0, 6), (4, 2))


def paper_tests(table: Table2x2 = PAPER_WINS) -> tuple[Significance, ...]:
    """The paper's result (``table``: ((victory wins, not), (amusement wins, not))) under
    each test, in the report's order: Fisher's exact test one-sided (H1: more wins against
    amusement) and two-sided, Pearson's χ² test, McNemar's exact test one- and two-sided
    (the discordant pairs as if no subject won both, which the paper's 0 wins against
    victory makes so: ``b`` = amusement wins, ``c`` = victory wins).

    >>> [(r.test, round(r.p, 4)) for r in paper_tests()]  # doctest: +NORMALIZE_WHITESPACE
    [("Fisher's exact test, one-sided", 0.0303), ("Fisher's exact test, two-sided", 0.0606),
     ("Pearson's χ² test (no continuity correction)", 0.0143),
     ("McNemar's exact test, one-sided", 0.0625), ("McNemar's exact test, two-sided", 0.125)]
    """
    (victory, _), (amusement, _) = table
    if victory:
        raise ValueError("the paired counts follow from the table only when no subject "
                         f"won against the first program: {table}")
    return (fisher(table, "less"), fisher(table), chi_square(table),
            mcnemar(amusement, 0, "greater"), mcnemar(amusement, 0))


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


__all__ = [
    "BINOMIAL",
    "CHI2",
    "FISHER",
    "FISHER_ONE",
    "MCNEMAR",
    "MCNEMAR_ONE",
    "PAPER_WINS",
    "SPEARMAN",
    "Significance",
    "Table2x2",
    "as_json",
    "binomial",
    "chi_square",
    "fisher",
    "holm",
    "mcnemar",
    "paper_tests",
    "spearman",
    "untested",
]
