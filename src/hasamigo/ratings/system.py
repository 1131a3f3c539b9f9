"""The rating maths: the openskill library's Plackett-Luce model (Weng and Lin's Bayesian
approximation), configured to a familiar 1500 scale — no rating formula is written here.

Why openskill: it is maintained (6.x in 2025), typed, rates games of two to four players
with ties in one model (Othello's draws, Rolit's and the four-player game's ranks), and
keeps an uncertainty per player, as Glicko does. The ``glicko2`` package on PyPI is five
releases of one untyped module, two players only.

**The scale.** openskill's defaults are μ = 25, σ = 25/3, β = 25/6, τ = 25/300. Only
differences of μ matter, so the start is set to 1500; β, each game's performance spread,
is Elo's own: Arpad Elo modelled a player's performance as normal with a deviation of 200
points, so that a 200-point gap gives the stronger 76 % — which is the library's forecast
(:func:`win_chances`: Φ(Δμ / √(2β² + σ₁² + σ₂²))) with β = 200 once the uncertainties are
small. σ and τ keep openskill's own proportions to β (σ = 2β = 400 at the start,
τ = σ/100 = 4). A newcomer's number moves by about 150 to 250 points in its first games
and by a few points once settled.

>>> BETA, START_SIGMA
(200.0, 400.0)
>>> a, b = start(), start()
>>> (wa, _), (wb, _) = rate([a, b], [0, 1])  # a beat b
>>> wa > START_MU > wb and round(wa - START_MU, 6) == round(START_MU - wb, 6)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

START_MU = 1500.0
#: a game's performance spread: Elo's 200 (a 200-point gap is 76 %; see the module's text)
BETA = 200.0
START_SIGMA = 2.0 * BETA
TAU = START_SIGMA / 100.0

#: the one model every rating uses
MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=TAU)

MuSigma = tuple[float, float]


def start() -> MuSigma:
    """A new subject's (μ, σ)."""
    return START_MU, START_SIGMA


def rate(players: Sequence[MuSigma], ranks: Sequence[float]) -> list[MuSigma]:
    """The players' (μ, σ) after one game in which ``ranks[i]`` is player i's place
    (0 first; equal places are a tie), by the library."""
    if len(players) != len(ranks) or not 2 <= len(players) <= 4:
        raise ValueError("a rated game has two to four players, each with a place")
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def win_chances(players: Sequence[MuSigma]) -> list[float]:
    """Each player's chance to finish first, by the library."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    return [float(p) for p in MODEL.predict_win(teams)]


__all__ = ["BETA", "MODEL", "START_MU", "START_SIGMA", "TAU", "MuSigma", "rate", "start",
           "win_chances"]
