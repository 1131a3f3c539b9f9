"""The programs' measured ratings: a schedule of matches between program levels, the fit
of their results by the rating library, one program anchored at a stated number, and the
table the server ships (``src/hasamigo/data/program_ratings.json``, read by
:func:`program_ratings`) so that a person sees "Engine level 5 ≈ 1650".

The games themselves are played by the command line (``hasamigo ratings calibrate``,
through :func:`hasamigo.tournament.match.run_match` and the jobs runner, as ``hasamigo
match``); this module knows only their results.

**The fit.** The ratings are those under which the library's own forecast
(:func:`hasamigo.ratings.system.win_chances`: the chance that one beats the other, here
without uncertainty) makes the matches' results most likely, a draw counting half a win,
with ``anchor`` held at its number and every other program given the pool's start as its
prior (1500 ± 400), as a person is: a 20–0 match then gives a finite gap, and a program
with few games is pulled towards 1500 (its ± says by about how much it may be off: the
inverse curvature of the fit). Updating the library's ratings game by game instead (as
the server does for people) depends on the games' order and, on lopsided matches,
ranked engine level 1 above level 3; carried over several passes it did not settle. The
anchor is a program whose strength does not depend on this code's tuning: ``random`` (a
legal move chosen at random) at :data:`DEFAULT_ANCHOR_RATING`, the level of someone who
has just learnt the rules.

The **entertainer** adapts to its opponent (it aims at a close game it may lose): it is
fitted after the others, against them held fixed (its games say nothing of the
opponents' strength); its measured number against the programs is shown in the table,
and the pages say that against a person it aims at that person's own rating
(:data:`ADAPTIVE`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hasamigo.ratings import system

DEFAULT_ANCHOR = "random"
DEFAULT_ANCHOR_RATING = 1000.0
#: programs that play to the opponent's strength: their measured number is against programs
ADAPTIVE = frozenset({"entertainer"})
#: the shipped table
PROGRAM_RATINGS = Path(__file__).resolve().parents[1] / "data" / "program_ratings.json"


@dataclass(frozen=True, slots=True)
class PairResult:
    """A match's results between programs ``a`` and ``b`` (their specs' text)."""

    a: str
    b: str
    a_wins: int
    draws: int
    b_wins: int

    @property
    def games(self) -> int:
        return self.a_wins + self.draws + self.b_wins

    def as_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "a_wins": self.a_wins, "draws": self.draws,
                "b_wins": self.b_wins}


@dataclass(frozen=True, slots=True)
class ProgramRating:
    """A program's fitted rating: its mean over the passes (``rating``), the mean
    uncertainty, its games and its score over them."""

    spec: str
    rating: float
    uncertainty: float
    games: int
    score: float

    def as_json(self) -> dict[str, Any]:
        return {"spec": self.spec, "rating": round(self.rating),
                "uncertainty": round(self.uncertainty), "games": self.games,
                "score_pct": round(100.0 * self.score / self.games, 1) if self.games else None,
                "adaptive": self.spec in ADAPTIVE}


def schedule(programs: Sequence[str], *, reach: int = 2) -> list[tuple[str, str]]:
    """The matches of a calibration: each program against the next ``reach`` ones of the
    list (given weakest first), so that every gap is measured where the results are
    informative (a 100 % score says only "much stronger")."""
    if len(set(programs)) != len(programs) or len(programs) < 2:
        raise ValueError("a calibration needs two or more different programs")
    return [(programs[i], programs[j]) for i in range(len(programs))
            for j in range(i + 1, min(len(programs), i + 1 + reach))]


def _fit_free(results: Sequence[PairResult], fixed: dict[str, float], free: Sequence[str]
              ) -> tuple[dict[str, float], dict[str, float]]:
    """The means of ``free`` that make ``results`` most likely under the library's forecast
    (:func:`hasamigo.ratings.system.win_chances`, without uncertainty; a draw half a win),
    each with the pool's start as its prior (1500 ± 400); and each one's uncertainty
    (the inverse curvature of that objective). ``fixed``: the others' means."""
    import numpy as np
    from scipy.optimize import minimize

    scale = 100.0  # points per unit of the optimiser's variables
    index = {name: i for i, name in enumerate(free)}

    def means(x: Any) -> dict[str, float]:
        return {**fixed, **{name: float(x[i]) * scale for name, i in index.items()}}

    def cost(x: Any) -> float:
        mu = means(x)
        total = 0.0
        for r in results:
            p, q = system.win_chances([(mu[r.a], 0.0), (mu[r.b], 0.0)])
            p, q = min(max(p, 1e-12), 1.0), min(max(q, 1e-12), 1.0)
            total -= (r.a_wins + r.draws / 2) * np.log(p) + (r.b_wins + r.draws / 2) * np.log(q)
        prior = sum(((mu[name] - system.START_MU) / system.START_SIGMA) ** 2 / 2
                    for name in free)
        return float(total + prior)

    start = np.full(len(free), system.START_MU / scale)
    found = minimize(cost, start, method="BFGS")
    spread = np.sqrt(np.clip(np.diag(np.atleast_2d(found.hess_inv)), 0.0, None)) * scale
    fitted = means(found.x)
    return ({name: fitted[name] for name in free},
            {name: float(spread[i]) for name, i in index.items()})


def fit(results: Sequence[PairResult], *, anchor: str = DEFAULT_ANCHOR,
        anchor_rating: float = DEFAULT_ANCHOR_RATING,
        adaptive: frozenset[str] = ADAPTIVE) -> list[ProgramRating]:
    """The programs' ratings from the matches' results, ``anchor`` held at
    ``anchor_rating``; strongest first. The ratings are those under which the library's
    own forecast makes the results most likely (with the pool's start as a prior, so a
    24–0 match does not send a number to infinity). A program that adapts to its opponent
    (``adaptive``) is fitted after the others, against them held fixed: its games say
    nothing of its opponents' strength."""
    names = sorted({name for r in results for name in (r.a, r.b)})
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no game of the calibration")
    steady = [r for r in results if r.a not in adaptive and r.b not in adaptive]
    free = [n for n in names if n != anchor and n not in adaptive]
    mu, sigma = _fit_free(steady, {anchor: anchor_rating}, free) if free else ({}, {})
    mu[anchor], sigma[anchor] = anchor_rating, 0.0
    for name in (n for n in names if n in adaptive):
        own = [r for r in results if name in (r.a, r.b)
               and ({r.a, r.b} - {name}) <= mu.keys()]
        if own:
            one, spread = _fit_free(own, dict(mu), [name])
            mu[name], sigma[name] = one[name], spread[name]
    played = {name: 0 for name in names}
    scored = {name: 0.0 for name in names}
    for r in results:
        played[r.a] += r.games
        played[r.b] += r.games
        scored[r.a] += r.a_wins + r.draws / 2
        scored[r.b] += r.b_wins + r.draws / 2
    fitted = [ProgramRating(name, mu[name], sigma[name], played[name], scored[name])
              for name in names if name in mu]
    return sorted(fitted, key=lambda p: -p.rating)


def table_json(ratings: Sequence[ProgramRating], results: Sequence[PairResult], *,
               anchor: str, anchor_rating: float, command: str, seed: int,
               games_per_pair: int) -> dict[str, Any]:
    """The shipped table: how it was made and what it found."""
    return {"anchor": {"program": anchor, "rating": round(anchor_rating)},
            "command": command, "seed": seed, "games_per_pair": games_per_pair,
            "library": "openskill PlackettLuce (mu 1500, sigma 400, beta 200, tau 4): the "
                       "ratings that make the results most likely under its forecast",
            "programs": [r.as_json() for r in ratings],
            "matches": [r.as_json() for r in results]}


def table_markdown(data: dict[str, Any]) -> str:
    """The table as Markdown, for docs/ratings.md."""
    lines = [f"Anchor: `{data['anchor']['program']}` = {data['anchor']['rating']}. "
             f"Command: `{data['command']}`", "",
             "| program | rating | ± | games | score |", "|---|---:|---:|---:|---:|"]
    for p in data["programs"]:
        note = " (adapts to its opponent)" if p.get("adaptive") else ""
        lines.append(f"| `{p['spec']}`{note} | {p['rating']} | {p['uncertainty']} | "
                     f"{p['games']} | {p['score_pct']} % |")
    lines += ["", "| match | wins | draws | losses |", "|---|---:|---:|---:|"]
    for m in data["matches"]:
        lines.append(f"| `{m['a']}` v `{m['b']}` | {m['a_wins']} | {m['draws']} | "
                     f"{m['b_wins']} |")
    return "\n".join(lines) + "\n"


@functools.cache
def _shipped(path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data


def program_ratings(path: Path = PROGRAM_RATINGS) -> dict[str, int]:
    """The shipped ratings of the programs, by spec (``engine:5`` → 1650); empty if the
    table is missing."""
    data = _shipped(path)
    return {str(p["spec"]): int(p["rating"]) for p in data.get("programs", [])}


__all__ = ["ADAPTIVE", "DEFAULT_ANCHOR", "DEFAULT_ANCHOR_RATING",
           "PROGRAM_RATINGS", "PairResult", "ProgramRating", "fit", "program_ratings",
           "schedule", "table_json", "table_markdown"]
