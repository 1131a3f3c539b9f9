"""How many subjects a study would need: the power of the report's exact tests at the
effect a study observed, by exact enumeration (no normal approximation: the samples are
small and the tests discrete).

Each subject plays both arms, so with ``n`` subjects each arm has ``n`` games:

* **Fisher's exact test** — the subjects' wins against arm A and B are taken as
  independent binomials ``Bin(n, pA)`` and ``Bin(n, pB)`` (the test itself ignores the
  pairing); the power is the probability of the tables whose ``p`` is at most ``alpha``.
  The ``p`` of every table is computed at once, per margin, as scipy computes it (the
  one-sided test: H1 ``pB > pA``; two-sided: the tables no likelier than the one seen).
* **McNemar's exact test** — of ``n`` subjects a share ``pb`` wins against B only and
  ``pc`` against A only (the observed discordant shares); the number discordant is
  ``Bin(n, pb + pc)`` and ``b`` among them ``Bin(d, pb / (pb + pc))``.

The answer is the smallest ``n`` (from 2) whose power reaches the target. Exact tests'
power is not monotonic in ``n`` (it saw-tooths), so that is a scan, not a bisection, and
it stops at :data:`MAX_SUBJECTS`: a larger need is reported as "more than". No effect
(equal rates, or no discordant pairs) or one against the one-sided test's direction is
"not estimable".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import special
from scipy import stats as _scipy

#: the scan's end: more subjects than any study of this kind will have
MAX_SUBJECTS = 500
ALPHA = 0.05
TARGET = 0.8
#: the scan looks at the cap once it has passed this many subjects
_LOOK_AHEAD = 40
#: scipy's relative tolerance when it compares two tables' probabilities (two-sided tests)
_TIES = 1 + 1e-7


@dataclass(frozen=True, slots=True)
class Needed:
    """The subjects needed for one test: ``n`` (``None``: not found up to ``cap``, or not
    estimable — ``reason`` says which), the power reached at ``n``."""

    test: str  # "fisher" or "mcnemar"
    alternative: str  # "one-sided" or "two-sided"
    n: int | None
    power: float | None
    reason: str = ""
    cap: int = MAX_SUBJECTS


def _log_choose(n: int, k: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray(special.gammaln(n + 1) - special.gammaln(k + 1)
                      - special.gammaln(n - k + 1), dtype=np.float64)


def fisher_power(n: int, p_a: float, p_b: float, *, alpha: float = ALPHA,
                 one_sided: bool = False) -> float:
    """The power of Fisher's exact test with ``n`` subjects per arm, win rates ``p_a`` and
    ``p_b`` (one-sided: H1 ``p_b > p_a``).

    >>> round(fisher_power(6, 0.0, 4 / 6, one_sided=True), 4)
    0.6804
    """
    x = np.arange(n + 1, dtype=np.float64)
    s = np.arange(2 * n + 1, dtype=np.float64)[:, None]  # the wins in both arms, per row
    xb = s - x  # row s, column xa: the wins against B
    valid = (xb >= 0) & (xb <= n)
    xb_safe = np.clip(xb, 0, n)
    # the hypergeometric law of xa given s (both arms n games)
    with np.errstate(invalid="ignore"):
        log_h = (_log_choose(n, x)[None, :] + _log_choose(n, xb_safe)
                 - _log_choose(2 * n, s))
    h = np.where(valid, np.exp(log_h), 0.0)
    if one_sided:  # small xa is extreme: p = P(X <= xa | s)
        p = np.cumsum(h, axis=1)
    else:  # p = the sum of the row's probabilities no larger than this table's
        scaled = h / h.max(axis=1, keepdims=True)
        order = np.sort(scaled, axis=1)
        sums = np.cumsum(np.sort(h, axis=1), axis=1)
        offset = 2.0 * np.arange(order.shape[0])[:, None]
        flat = (order + offset).ravel()
        at = np.searchsorted(flat, (scaled * _TIES + offset).ravel(), side="right") - 1
        p = sums.ravel()[at].reshape(h.shape)
    weight = (_scipy.binom.pmf(x, n, p_a)[None, :]
              * np.where(valid, _scipy.binom.pmf(xb_safe, n, p_b), 0.0))
    return float(np.sum(weight[valid & (p <= alpha * _TIES)]))


def mcnemar_power(n: int, p_b: float, p_c: float, *, alpha: float = ALPHA,
                  one_sided: bool = False) -> float:
    """The power of McNemar's exact test with ``n`` subjects, discordant shares ``p_b``
    (won against B only) and ``p_c`` (against A only); one-sided: H1 more ``b``.

    >>> round(mcnemar_power(6, 4 / 6, 0.0, one_sided=True), 4)
    0.3512
    """
    d = np.arange(n + 1)[:, None]
    b = np.arange(n + 1)[None, :]
    valid = b <= d
    if one_sided:
        p = _scipy.binom.sf(b - 1, d, 0.5)
    else:  # symmetric under H0: twice the smaller tail, at most 1
        tail = np.minimum(_scipy.binom.cdf(b, d, 0.5), _scipy.binom.sf(b - 1, d, 0.5))
        p = np.minimum(1.0, 2 * tail)
    share = p_b / (p_b + p_c)
    weight = (_scipy.binom.pmf(d, n, p_b + p_c)
              * np.where(valid, _scipy.binom.pmf(b, d, share), 0.0))
    return float(np.sum(weight[valid & (p <= alpha * _TIES)]))


def _scan(power_at: Callable[[int], float], test: str, alternative: str, target: float,
          cap: int) -> Needed:
    for n in range(2, cap + 1):
        if n == _LOOK_AHEAD + 1 and power_at(cap) < target:
            # past the small studies, one look at the end spares a hopeless scan
            break
        power = power_at(n)
        if power >= target:
            return Needed(test, alternative, n, power, cap=cap)
    return Needed(test, alternative, None, None, f"more than {cap} subjects", cap)


def fisher_needed(p_a: float, p_b: float, *, one_sided: bool, alpha: float = ALPHA,
                  target: float = TARGET, cap: int = MAX_SUBJECTS) -> Needed:
    """The subjects Fisher's exact test needs to detect win rates ``p_a`` against ``p_b``.

    >>> fisher_needed(0.0, 4 / 6, one_sided=True).n
    7
    >>> fisher_needed(0.5, 0.5, one_sided=False).reason
    'not estimable: the observed effect is zero'
    """
    alternative = "one-sided" if one_sided else "two-sided"
    if p_a == p_b:
        return Needed("fisher", alternative, None, None,
                      "not estimable: the observed effect is zero", cap)
    if one_sided and p_b < p_a:
        return Needed("fisher", alternative, None, None,
                      "not estimable: the observed effect is against the one-sided "
                      "test's direction", cap)
    return _scan(lambda n: fisher_power(n, p_a, p_b, alpha=alpha, one_sided=one_sided),
                 "fisher", alternative, target, cap)


def mcnemar_needed(p_b: float, p_c: float, *, one_sided: bool, alpha: float = ALPHA,
                   target: float = TARGET, cap: int = MAX_SUBJECTS) -> Needed:
    """The subjects McNemar's exact test needs at discordant shares ``p_b``, ``p_c``.

    >>> mcnemar_needed(4 / 6, 0.0, one_sided=False).n
    11
    """
    alternative = "one-sided" if one_sided else "two-sided"
    if p_b == p_c:
        return Needed("mcnemar", alternative, None, None,
                      "not estimable: the observed effect is zero", cap)
    if one_sided and p_b < p_c:
        return Needed("mcnemar", alternative, None, None,
                      "not estimable: the observed effect is against the one-sided "
                      "test's direction", cap)
    return _scan(lambda n: mcnemar_power(n, p_b, p_c, alpha=alpha, one_sided=one_sided),
                 "mcnemar", alternative, target, cap)


__all__ = [
    "ALPHA",
    "MAX_SUBJECTS",
    "TARGET",
    "Needed",
    "fisher_needed",
    "fisher_power",
    "mcnemar_needed",
    "mcnemar_power",
]
