"""A whole tournament with simulated results (``hasamigo tournament simulate``).

The entrants get a hidden strength, a rank, a birth year, and some are women; the first
two are the seeds (the 43rd Meijin had two: the Meijin and the Ouza). Each
game's winner is drawn from the strength difference (the Elo curve), the winner's count
from 33 up (a draw now and then where draws are allowed, 32–32), and in knockout games
the colours and the draw-win right are drawn as a fuse-ishi would give them. Everything
comes from the seed, so the output can be checked independently and reproduced.

The JSON (:func:`simulate`)::

    {format, c, rounds: [{round, stage, games: [{black, white, black_discs, white_discs,
     kind}]}], ranking: [{rank, name, wins, brightwell, woman, dan}]}

``rounds`` has one entry per round and stage (round 7 of the Meijin: the semifinals,
then the placement round; round 8: final, third-place game, women's final). A bye is
``{black: name, white: null, black_discs: 32, white_discs: null, kind: "bye"}``; a game
not played by the round-6 rule counts 32–32. ``wins`` and ``brightwell`` are over every
game except the semifinal, final, third-place and women's-final games (draws ½).
"""

from __future__ import annotations

import random
from typing import Any

from hasamigo.tournament.model import Colours, GameKind, Pairing, PairingKind, Settings
from hasamigo.tournament.state import Tournament

#: Chance that a game allowing draws ends 32–32.
DRAW_CHANCE = 0.03
RANKS = (None, "3k", "1k", "1d", "2d", "3d", "4d", "5d", "6d")


def make_field(t: Tournament, entrants: int, rng: random.Random, *, seeds: int = 2,
               women: float = 0.2) -> dict[int, float]:
    """Register ``entrants`` simulated players; returns their hidden strengths (Elo)."""
    strength = {}
    for i in range(entrants):
        rank = rng.choice(RANKS)
        e = t.register(f"P{i + 1:03d}", rank=rank, birth_year=rng.randint(1950, 2012),
                       woman=rng.random() < women, seed=i < seeds)
        strength[e.number] = rng.gauss(1500 + (300 if i < seeds else 0), 200)
    return strength


def simulated_card(t: Tournament, p: Pairing, strength: dict[int, float],
                   rng: random.Random) -> dict[str, Any]:
    """The card of a simulated game: counts, and in a fuse-ishi game who played Black
    and who held the draw-win right."""
    assert p.b is not None
    card: dict[str, Any] = {}
    black, white = p.a, p.b
    if p.colours is Colours.FUSE_ISHI:
        if rng.random() < 0.5:
            black, white = white, black
        card["black"] = black
    if not p.draws_allowed:
        card["draw_win"] = black if rng.random() < 0.5 else white
    expected = 1 / (1 + 10 ** ((strength[white] - strength[black]) / 400))
    if p.draws_allowed and rng.random() < DRAW_CHANCE:
        card.update(black_discs=32, white_discs=32)
        return card
    margin = 33 + min(31, int(rng.expovariate(1 / 6)))
    if rng.random() < expected:
        card.update(black_discs=margin, white_discs=64 - margin)
    else:
        card.update(black_discs=64 - margin, white_discs=margin)
    return card


def play_out(t: Tournament, strength: dict[int, float], rng: random.Random) -> None:
    """Pair and fill in every round to the end."""
    while not t.finished:
        for p in t.pair_next_round():
            if p.kind is PairingKind.GAME:
                t.enter_result(p.round, p.board, **simulated_card(t, p, strength, rng))


def simulate(entrants: int, seed: int = 0, *, format: str = "meijin",
             c: int | None = None) -> dict[str, Any]:
    """A whole tournament of ``entrants`` simulated players as JSON (module docstring)."""
    if entrants < 4:
        raise ValueError("a simulated tournament needs at least 4 entrants")
    rng = random.Random(f"hasamigo-simulate:{seed}")
    t = Tournament(Settings(format, c=c, seed=seed))
    strength = make_field(t, entrants, rng)
    play_out(t, strength, rng)
    return tournament_json(t)


def tournament_json(t: Tournament) -> dict[str, Any]:
    """A tournament in the shape of ``simulate --json`` (module docstring)."""
    rounds: list[dict[str, Any]] = []
    for g in t.games():
        if not rounds or rounds[-1]["round"] != g.round or rounds[-1]["stage"] != g.stage:
            rounds.append({"round": g.round, "stage": g.stage.value, "games": []})
        rounds[-1]["games"].append({
            "black": t.name(g.black),
            "white": None if g.white is None else t.name(g.white),
            "black_discs": g.black_discs,
            "white_discs": None if g.kind is GameKind.BYE else g.white_discs,
            "kind": g.kind.value,
        })
    ranking = [{"rank": p.place, "name": p.name, "wins": p.wins,
                "brightwell": p.brightwell, "woman": p.woman, "dan": p.award.dan}
               for p in t.ranking()]
    return {"format": t.settings.format, "c": t.c, "rounds": rounds, "ranking": ranking}


__all__ = ["make_field", "play_out", "simulate", "simulated_card", "tournament_json"]
