"""Slow, obvious references for the tournament tests (as ``naive.py`` is for the kernels),
and a check of the references themselves.

Everything here is recomputed from the raw games of a tournament (round, stage, who
played Black and White, the counts, the winner, the kind) without the package's
standings, Brightwell or pairing code, in the plainest way: loops over games, and for
pairings every perfect matching of a small field enumerated one by one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from hasamigo.tournament import Tournament

COUNTING = {"swiss", "placement", "round_robin"}


@dataclass(frozen=True)
class RawGame:
    round: int
    stage: str
    black: int
    white: int | None
    black_discs: int | None
    white_discs: int | None
    winner: int | None
    kind: str
    finished: bool
    prescribed: bool


def raw_games(t: Tournament) -> list[RawGame]:
    return [RawGame(g.round, g.stage.value, g.black, g.white, g.black_discs, g.white_discs,
                    g.winner, g.kind.value, g.finished, g.colours.value == "prescribed")
            for g in t.games()]


def points(game: RawGame, player: int) -> float:
    if game.kind == "bye":
        return 1.0
    if game.winner is None:
        return 0.5
    return 1.0 if game.winner == player else 0.0


def counted(games: Sequence[RawGame], through: int) -> list[RawGame]:
    return [g for g in games if g.finished and g.stage in COUNTING and g.round <= through]


def obvious_wins(games: Sequence[RawGame], players: Sequence[int], through: int
                 ) -> dict[int, float]:
    out = {p: 0.0 for p in players}
    for g in counted(games, through):
        out[g.black] += points(g, g.black)
        if g.white is not None:
            out[g.white] += points(g, g.white)
    return out


def obvious_brightwell(games: Sequence[RawGame], players: Sequence[int], c: int,
                       withdrawn: set[int], through: int) -> dict[int, float]:
    """Own discs + C × opponents' wins, game by game; a bye or a withdrawn opponent:
    32 + C × own wins."""
    won = obvious_wins(games, players, through)
    out = {p: 0.0 for p in players}
    for g in counted(games, through):
        sides = [(g.black, g.white, g.black_discs)]
        if g.white is not None:
            sides.append((g.white, g.black, g.white_discs))
        for me, opponent, discs in sides:
            if opponent is None or opponent in withdrawn:
                out[me] += 32 + c * won[me]
            else:
                assert discs is not None
                out[me] += discs + c * won[opponent]
    return out


def obvious_orders(t: Tournament, games: Sequence[RawGame]) -> list[list[int]]:
    """The order before round 1 (the package's initial order, taken as given) and after
    every round: wins, Brightwell points, previous place."""
    players = sorted(t.entrants)
    withdrawn = {n for n, e in t.entrants.items() if e.withdrawn}
    orders = [t.order(0)]
    for r in range(1, t.rounds_paired + 1):
        won = obvious_wins(games, players, r)
        bw = obvious_brightwell(games, players, t.c, withdrawn, r)
        previous = orders[-1]
        orders.append(sorted(players, key=lambda p: (-won[p], -bw[p], previous.index(p))))
    return orders


# ---- pairings of small fields ------------------------------------------------------------
@dataclass(frozen=True)
class Player:
    number: int
    wins: float
    opponents: frozenset[int]
    colours: tuple[str, ...]  # "B"/"W" of games played, in order


def history(t: Tournament, games: Sequence[RawGame], through: int) -> dict[int, Player]:
    players = sorted(t.entrants)
    won = obvious_wins(games, players, through)
    opponents: dict[int, set[int]] = {p: set() for p in players}
    colours: dict[int, list[str]] = {p: [] for p in players}
    for g in games:
        if g.round > through or g.stage not in COUNTING or g.white is None:
            continue
        opponents[g.black].add(g.white)
        opponents[g.white].add(g.black)
        if g.kind == "played" and g.prescribed:
            colours[g.black].append("B")
            colours[g.white].append("W")
    return {p: Player(p, won[p], frozenset(opponents[p]), tuple(colours[p]))
            for p in players}


def count_break(colours: Sequence[str], new: str) -> bool:
    """More than 2 of one colour over the other?"""
    after = [*colours, new]
    return abs(after.count("B") - after.count("W")) > 2


def run_break(colours: Sequence[str], new: str) -> bool:
    """A third game in a row with one colour?"""
    after = [*colours, new]
    return len(after) >= 3 and after[-1] == after[-2] == after[-3]


def pair_breaks(a: Player, b: Player) -> tuple[int, int]:
    """(count, run) rule breaks of the better colour order of a pair."""
    one = (count_break(a.colours, "B") + count_break(b.colours, "W"),
           run_break(a.colours, "B") + run_break(b.colours, "W"))
    two = (count_break(a.colours, "W") + count_break(b.colours, "B"),
           run_break(a.colours, "W") + run_break(b.colours, "B"))
    return min(one, two)


def matchings(items: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of an even number of items."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, partner in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1:]):
            yield [(first, partner), *tail]


def quality(pairs: Sequence[tuple[int, int]], players: dict[int, Player]
            ) -> tuple[int, int, tuple[int, ...], int]:
    """(rematches, colour-count breaks, float counts from the largest float down,
    third-in-a-row breaks) of a pairing, colours chosen per pair to break the fewest
    rules."""
    rematches = count_breaks = run_breaks = 0
    floats = [0] * 200
    for a, b in pairs:
        pa, pb = players[a], players[b]
        rematches += b in pa.opponents
        level = round(2 * abs(pa.wins - pb.wins))
        if level:
            floats[level] += 1
        count, run = pair_breaks(pa, pb)
        count_breaks += count
        run_breaks += run
    return rematches, count_breaks, tuple(reversed(floats)), run_breaks


def best_quality(numbers: Sequence[int], players: dict[int, Player]
                 ) -> tuple[int, int, tuple[int, ...], int]:
    return min(quality(m, players) for m in matchings(list(numbers)))


# ---- the references' own checks ----------------------------------------------------------
def test_matchings_enumerates_every_pairing_once() -> None:
    for n, count in ((2, 1), (4, 3), (6, 15), (8, 105)):
        found = [frozenset(frozenset(p) for p in m) for m in matchings(list(range(n)))]
        assert len(found) == len(set(found)) == count


def test_colour_breaks_reference() -> None:
    assert run_break(["B", "B"], "B") and count_break(["B", "W", "B", "B"], "B")
    assert not count_break(["B", "W", "B"], "B") and not run_break(["B", "W"], "W")
