"""Swiss pairing as a maximum-weight matching, and the random draw of round 1.

A round is paired by one weighted matching (``networkx.max_weight_matching``, Edmonds'
blossom algorithm) over every legal pair of the players to pair, never greedily, so a
pairing is found whenever one exists. The weights are integers that order the whole
pairing **lexicographically** by these criteria, most important first:

1. **No rematch**: pairs that met before are left out of the graph; only when no pairing
   of the field avoids every rematch are they put back, each costing more than all the
   criteria below together (the fewest rematches win).
2. **Colour counts** (absolute, as in FIDE's basic Swiss rules C.04.1 f): nobody ends
   with more than :data:`MAX_COLOUR_DIFFERENCE` games of one colour above the other.
   Pairs that would break this in both colour orders are left out like rematches, and
   only put back (each costing more than everything below) when no pairing keeps it.
3. **Score groups** (wins): a pair's *float* is the difference of the two players' wins,
   in half wins. The largest float is made as small as possible, then the number of
   pairs with that float, then with the next smaller one, and so on: the fewest and
   smallest floats.
4. **No third game in a row with one colour** (the fewest such *runs*).
5. **Colour preferences**: each player gets the colour they had less (a miss costs 2),
   or with colours even the other one than last time (a miss costs 1).
6. **Nearest in the standings**: the order is by wins then Brightwell points then the
   previous rank, so within a score group players close in Brightwell points meet (the
   sum of the two players' distances in the standings, smallest first).

Each criterion's total is bounded, and every level's weight is larger than the most all
lower levels can add up to, so no amount of a lower criterion outweighs a higher one.
Only the pairs whose float is at most the smallest float that allows a pairing enter
the graph (tried from 0 up, skipping floats at which some linked run of score groups
has an odd number of players): the optimum never uses a larger one, and the graph stays
small enough to pair 200 players in about a second. Only byes and games actually played
count for colours (a forfeit or a game not played has no colours).

Byes are decided before the matching: with an odd number to pair, the lowest-ranked
player without a bye gets it (if everyone has had one, the lowest-ranked of those with
the fewest). Colours come from the pair's better orientation; a tie goes by the
higher-ranked player's alternation, else a coin toss from the tournament's seed.

Every decision is explained (:class:`~hasamigo.tournament.model.Decision`): which rule
made the pair, why nearer players in the standings were passed over, why these colours.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from hasamigo.move import BLACK, WHITE, Color
from hasamigo.tournament.model import Decision, TournamentError

#: Colour rule: at most this many games of one colour more than of the other.
MAX_COLOUR_DIFFERENCE = 2
#: Colour rule: at most this many games in a row with one colour.
MAX_COLOUR_RUN = 2
#: The cost of missing a preference: the colour a player had less / alternation.
STRONG_MISS = 2
MILD_MISS = 1
#: How often round 1 is redrawn before giving up on keeping the seeds apart.
MAX_REDRAWS = 10_000


@dataclass(frozen=True, slots=True)
class Candidate:
    """A player to pair and what the pairing needs to know about them.

    ``position`` is their place in the standings the round is paired from (0 is the top:
    wins, then Brightwell points, then the previous rank); ``colours`` the colours of
    their games actually played, in order; ``opponents`` everyone they were paired with.
    """

    number: int
    name: str
    wins: float
    brightwell: float
    position: int
    opponents: frozenset[int] = frozenset()
    colours: tuple[Color, ...] = ()
    byes: int = 0
    seed: bool = False

    @property
    def balance(self) -> int:
        """Games with Black minus games with White."""
        return sum(1 if c is BLACK else -1 for c in self.colours)


@dataclass(frozen=True, slots=True)
class PairedGame:
    black: int
    white: int
    why: tuple[Decision, ...]


@dataclass(frozen=True, slots=True)
class PairingCost:
    """The criteria of the module docstring, for the pairing as a whole.

    ``floats`` maps each float (in half wins, > 0) to the number of pairs with it."""

    rematches: int
    count_breaks: int
    floats: tuple[tuple[int, int], ...]
    run_breaks: int
    colour_misses: int
    distance: int

    @property
    def largest_float(self) -> int:
        return max((level for level, _ in self.floats), default=0)


@dataclass(frozen=True, slots=True)
class SwissRound:
    """A paired round: the games, the bye (if any), and the reasons."""

    games: tuple[PairedGame, ...]
    bye: int | None
    bye_why: tuple[Decision, ...]
    notes: tuple[Decision, ...]
    cost: PairingCost


# ---- colours ------------------------------------------------------------------------------
def breaks_count_rule(colours: Sequence[Color], new: Color) -> bool:
    """Would ``new`` give more than :data:`MAX_COLOUR_DIFFERENCE` games of one colour
    over the other?

    >>> breaks_count_rule([BLACK, WHITE, BLACK, BLACK], BLACK)
    True
    >>> breaks_count_rule([BLACK, WHITE, BLACK], BLACK)
    False
    """
    balance = sum(1 if c is BLACK else -1 for c in colours) + (1 if new is BLACK else -1)
    return abs(balance) > MAX_COLOUR_DIFFERENCE


def breaks_run_rule(colours: Sequence[Color], new: Color) -> bool:
    """Would ``new`` be more than :data:`MAX_COLOUR_RUN` games in a row with one colour?

    >>> breaks_run_rule([WHITE, BLACK, BLACK], BLACK), breaks_run_rule([BLACK], BLACK)
    (True, False)
    """
    run = list(colours[-MAX_COLOUR_RUN:])
    return len(run) == MAX_COLOUR_RUN and all(c is new for c in run)


def breaks_colour_rule(colours: Sequence[Color], new: Color) -> bool:
    """Either colour rule (:func:`breaks_count_rule`, :func:`breaks_run_rule`).

    >>> breaks_colour_rule([BLACK, BLACK], BLACK), breaks_colour_rule([BLACK, WHITE], BLACK)
    (True, False)
    >>> breaks_colour_rule([WHITE, BLACK, BLACK, WHITE, BLACK], BLACK)
    False
    """
    return breaks_count_rule(colours, new) or breaks_run_rule(colours, new)


def colour_preference(colours: Sequence[Color]) -> tuple[Color | None, int]:
    """The colour a player should get and how much missing it costs: the colour they had
    less (:data:`STRONG_MISS`), with colours even the other one than last time
    (:data:`MILD_MISS`), or none before their first game.

    >>> colour_preference([BLACK, BLACK, WHITE])
    (Color.WHITE, 2)
    >>> colour_preference([WHITE, BLACK]), colour_preference([])
    ((Color.WHITE, 1), (None, 0))
    """
    balance = sum(1 if c is BLACK else -1 for c in colours)
    if balance:
        return (WHITE if balance > 0 else BLACK), STRONG_MISS
    if colours:
        return colours[-1].other, MILD_MISS
    return None, 0


#: (count-rule break, run-rule break, preference missed) of one colour for one player
ColourCost = tuple[int, int, int]


def _colour_costs(player: Candidate) -> tuple[ColourCost, ColourCost]:
    """What getting Black, and getting White, costs the player."""
    wanted, strength = colour_preference(player.colours)
    out = []
    for colour in (BLACK, WHITE):
        miss = strength if wanted is not None and colour is not wanted else 0
        out.append((int(breaks_count_rule(player.colours, colour)),
                    int(breaks_run_rule(player.colours, colour)), miss))
    return out[0], out[1]


Costs = dict[int, tuple[ColourCost, ColourCost]]


# ---- the bye ------------------------------------------------------------------------------
def choose_bye(players: Sequence[Candidate]) -> Candidate:
    """The lowest-ranked player without a bye (of those with the fewest byes)."""
    fewest = min(p.byes for p in players)
    return max((p for p in players if p.byes == fewest), key=lambda p: p.position)


def _bye_decision(player: Candidate, players: Sequence[Candidate]) -> Decision:
    if player.byes:
        return Decision("bye", f"{player.name} gets the bye: everyone has had one, and "
                               f"{player.name} is the lowest-ranked of those with the fewest "
                               f"({player.byes}); a bye counts a win and 32 discs")
    lower = [p for p in players if p.position > player.position]
    text = f"{player.name} gets the bye: the lowest-ranked player without a bye"
    if lower:
        text += f" ({', '.join(p.name for p in lower[:3])} below had one already)"
    return Decision("bye", text + "; a bye counts a win and 32 discs")


# ---- round 1 --------------------------------------------------------------------------------
def draw_round(players: Sequence[Candidate], rng: random.Random, *,
               keep_seeds_apart: bool = True) -> SwissRound:
    """Round 1: pairs and colours drawn at random, redrawn while two seeds meet (the 43rd
    Meijin rules: the computer draws round 1 and draws again when two seeds are paired).
    With an odd number the lowest-ranked player (the last before round 1) gets the bye
    first."""
    players = sorted(players, key=lambda p: p.position)
    bye: Candidate | None = None
    bye_why: tuple[Decision, ...] = ()
    if len(players) % 2:
        bye = choose_bye(players)
        bye_why = (_bye_decision(bye, players),)
        players = [p for p in players if p is not bye]
    seeds = sum(p.seed for p in players)
    notes = [Decision("draw_round",
                      "round 1 is drawn at random by the computer (43rd Meijin rules)")]
    order = list(players)
    redraws = 0
    met: list[tuple[Candidate, Candidate]] = []
    while True:
        rng.shuffle(order)
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        met = [(a, b) for a, b in pairs if a.seed and b.seed]
        if not met or not keep_seeds_apart or seeds > len(order) // 2 \
                or redraws >= MAX_REDRAWS:
            break
        redraws += 1
        notes.append(Decision("seeds_redrawn",
                              f"draw {redraws} paired seeds {met[0][0].name} and "
                              f"{met[0][1].name}: redrawn (43rd Meijin rules)"))
    if met and keep_seeds_apart:
        notes.append(Decision("seeds_met", f"{seeds} seeds among {len(order)} players: "
                                           "two seeds must meet"))
    games = []
    for a, b in pairs:
        black, white = (a, b) if rng.random() < 0.5 else (b, a)
        why = (Decision("draw", f"{a.name} v {b.name}: drawn"),
               Decision("colour", f"{black.name} takes Black by the draw"))
        games.append(PairedGame(black.number, white.number, why))
    games.sort(key=lambda g: min(_position(players, g.black), _position(players, g.white)))
    cost = PairingCost(0, 0, (), 0, 0, 0)
    return SwissRound(tuple(games), None if bye is None else bye.number, bye_why,
                      tuple(notes), cost)


def _position(players: Sequence[Candidate], number: int) -> int:
    return next(p.position for p in players if p.number == number)


# ---- the weighted matching -------------------------------------------------------------------
def _level(a: Candidate, b: Candidate) -> int:
    """The float between two players in half wins."""
    return round(2 * abs(a.wins - b.wins))


def _candidate_floats(players: Sequence[Candidate]) -> list[int]:
    """The largest floats worth trying, smallest first: 0 and every difference of two
    score groups at which each linked run of score groups holds an even number."""
    groups: dict[float, int] = {}
    for p in players:
        groups[p.wins] = groups.get(p.wins, 0) + 1
    values = sorted(groups, reverse=True)
    levels = sorted({0} | {round(2 * (a - b)) for i, a in enumerate(values)
                           for b in values[i + 1:]})
    out = []
    for limit in levels:
        run = 0
        even = True
        for i, value in enumerate(values):
            run += groups[value]
            last = i == len(values) - 1
            if last or round(2 * (value - values[i + 1])) > limit:
                if run % 2:
                    even = False
                    break
                run = 0
        if even:
            out.append(limit)
    return out


@dataclass(slots=True)
class _Edge:
    black: Candidate
    white: Candidate
    rematch: bool
    level: int
    count_breaks: int
    run_breaks: int
    misses: int
    distance: int
    tie: bool  # both orientations cost the same


def _edge(a: Candidate, b: Candidate, costs: Costs, rematch: bool) -> _Edge:
    (a_black, a_white), (b_black, b_white) = costs[a.number], costs[b.number]
    one = tuple(x + y for x, y in zip(a_black, b_white, strict=True))  # a Black
    two = tuple(x + y for x, y in zip(b_black, a_white, strict=True))  # b Black
    black, white, best = (a, b, one) if one <= two else (b, a, two)
    return _Edge(black, white, rematch, _level(a, b), best[0], best[1], best[2],
                 abs(a.position - b.position), one == two)


class _Weights:
    """Integer weights that order pairings lexicographically (see the module docstring):
    each level's unit exceeds the largest total all lower levels can reach."""

    def __init__(self, pairs: int, players: int, top_level: int) -> None:
        bound = pairs + 1  # no criterion counts more than twice a pair (below: 2 × bound)
        self.distance = 1
        self.misses = self.distance * (bound * players + 1)
        self.runs = self.misses * (2 * STRONG_MISS * bound + 1)
        # a float of level k (> 0) costs float_unit × bound^(k-1)
        unit = self.runs * (2 * bound + 1)
        self.floats = [0]
        for _ in range(max(1, top_level)):
            self.floats.append(unit)
            unit *= bound
        self.counts = unit
        self.rematch = self.counts * (2 * bound + 1)
        self.base = self.rematch * (bound + 1)

    def weight(self, edge: _Edge) -> int:
        cost = (edge.distance * self.distance + edge.misses * self.misses
                + edge.run_breaks * self.runs + self.floats[edge.level]
                + edge.count_breaks * self.counts)
        if edge.rematch:
            cost += self.rematch
        return self.base - cost


def _matching(players: Sequence[Candidate], limit: int | None, costs: Costs, *,
              rematches: bool, count_breaks: bool) -> list[_Edge] | None:
    """The best pairing using floats up to ``limit`` (None: any), with or without the
    pairs that are rematches or break the colour-count rule; None if there is no
    pairing of everyone with those pairs."""
    edges: dict[tuple[int, int], _Edge] = {}
    top = 0
    for i, a in enumerate(players):
        opponents = a.opponents
        for b in players[i + 1:]:
            rematch = b.number in opponents
            if rematch and not rematches:
                continue
            if limit is not None and _level(a, b) > limit:
                continue
            edge = _edge(a, b, costs, rematch)
            if edge.count_breaks and not count_breaks:
                continue
            edges[a.number, b.number] = edge
            top = max(top, edge.level)
    weights = _Weights(len(players) // 2, len(players), top)
    graph = nx.Graph()
    graph.add_nodes_from(p.number for p in players)
    graph.add_weighted_edges_from((u, v, weights.weight(e)) for (u, v), e in edges.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(players):
        return None
    return [edges[(u, v) if (u, v) in edges else (v, u)] for u, v in matching]


def pair_swiss(players: Sequence[Candidate], rng: random.Random) -> SwissRound:
    """Pair ``players`` (see the module docstring); raises :class:`TournamentError` for
    fewer than two players."""
    if len(players) < 2:
        raise TournamentError("at least two players are needed to pair a round")
    if len({p.number for p in players}) != len(players):
        raise TournamentError("a player is listed twice")
    everyone = sorted(players, key=lambda p: p.position)
    bye: Candidate | None = None
    bye_why: tuple[Decision, ...] = ()
    to_pair = everyone
    if len(everyone) % 2:
        bye = choose_bye(everyone)
        bye_why = (_bye_decision(bye, everyone),)
        to_pair = [p for p in everyone if p is not bye]
    costs = {p.number: _colour_costs(p) for p in to_pair}
    edges: list[_Edge] | None = None
    for limit in _candidate_floats(to_pair):
        edges = _matching(to_pair, limit, costs, rematches=False, count_breaks=False)
        if edges is not None:
            break
    if edges is None:  # the colour-count rule gives way first, then the rematch rule
        edges = _matching(to_pair, None, costs, rematches=False, count_breaks=True)
    forced_rematch = edges is None
    if edges is None:
        edges = _matching(to_pair, None, costs, rematches=True, count_breaks=True)
        assert edges is not None  # every pair is in the graph: a pairing exists
    games = _oriented(edges, rng)
    cost = _cost(edges)
    notes = [_summary(cost, len(to_pair), forced_rematch)]
    by_number = {p.number: p for p in to_pair}
    paired = {}
    for edge in edges:
        paired[edge.black.number] = edge.white.number
        paired[edge.white.number] = edge.black.number
    out = []
    for black, white, colour_why in games:
        why = _pair_reasons(by_number[black], by_number[white], to_pair, paired, costs,
                            forced_rematch)
        out.append(PairedGame(black, white, (*why, colour_why)))
    out.sort(key=lambda g: min(by_number[g.black].position, by_number[g.white].position))
    return SwissRound(tuple(out), None if bye is None else bye.number, bye_why, tuple(notes),
                      cost)


def _oriented(edges: Iterable[_Edge], rng: random.Random) -> list[tuple[int, int, Decision]]:
    """Colours for each pair with the reason; ties are settled in standings order, so
    the coin tosses do not depend on the matching's internal order."""
    out = []
    for edge in sorted(edges, key=lambda e: min(e.black.position, e.white.position)):
        black, white = edge.black, edge.white
        if edge.tie:
            high, low = sorted((black, white), key=lambda p: p.position)
            if high.colours:
                colour = high.colours[-1].other
                black, white = (high, low) if colour is BLACK else (low, high)
                why = Decision("colour", f"both colour choices are equal: {high.name}, "
                                         f"ranked higher, alternates and takes "
                                         f"{colour.name.title()}")
            else:
                black, white = (high, low) if rng.random() < 0.5 else (low, high)
                why = Decision("colour", f"neither has a colour due: {black.name} takes "
                                         "Black by a coin toss")
        else:
            why = _colour_reason(black, white)
        out.append((black.number, white.number, why))
    return out


def _colour_reason(black: Candidate, white: Candidate) -> Decision:
    parts = []
    for player, colour in ((black, BLACK), (white, WHITE)):
        wanted, strength = colour_preference(player.colours)
        tally = (f"{sum(c is BLACK for c in player.colours)} Black, "
                 f"{sum(c is WHITE for c in player.colours)} White")
        if breaks_colour_rule(player.colours, colour.other):
            parts.append(f"{player.name} cannot take {colour.other.name.title()} "
                         f"({tally}, last {_last(player)})")
        elif wanted is colour:
            reason = "had it less" if strength == STRONG_MISS else "alternates"
            parts.append(f"{player.name} {reason} ({tally})")
        elif wanted is not None:
            broken = " and breaks a colour rule" if breaks_colour_rule(player.colours, colour) \
                else ""
            parts.append(f"{player.name} misses their colour{broken} ({tally})")
    text = f"{black.name} Black, {white.name} White"
    return Decision("colour", text + (": " + "; ".join(parts) if parts else ""))


def _last(player: Candidate) -> str:
    return "".join("B" if c is BLACK else "W" for c in player.colours[-3:]) or "none"


def _pair_reasons(a: Candidate, b: Candidate, players: Sequence[Candidate],
                  paired: dict[int, int], costs: Costs, forced_rematch: bool
                  ) -> list[Decision]:
    high, low = sorted((a, b), key=lambda p: p.position)
    out = []
    if high.wins == low.wins:
        out.append(Decision("score_group", f"{high.name} v {low.name}: same score group "
                                           f"({_num(high.wins)} wins)"))
    else:
        out.append(Decision("float", f"{high.name} ({_num(high.wins)} wins) v {low.name} "
                                     f"({_num(low.wins)} wins): a float of "
                                     f"{_num(high.wins - low.wins)}, the smallest with "
                                     "which the whole field can be paired"))
    if high.number in low.opponents:
        out.append(Decision("rematch_forced" if forced_rematch else "rematch",
                            f"{high.name} and {low.name} have met before: no pairing of "
                            "the field avoids every rematch"))
    between = [p for p in players if high.position < p.position < low.position]
    if not between:
        out.append(Decision("standings", f"next to each other in the standings "
                                         f"(places {high.position + 1} and "
                                         f"{low.position + 1}; wins, then Brightwell points)"))
        return out
    for other in between[:3]:
        if other.number in high.opponents:
            reason = f"{high.name} has met {other.name} already (no rematch)"
            rule = "rematch_avoided"
        elif _pair_breaks(high, other, costs) > _pair_breaks(high, low, costs):
            count, _run = _pair_breaks(high, other, costs)
            what = "3 games of one colour over the other" if count else \
                "a third game in a row with one colour"
            reason = f"{high.name} v {other.name} would give one of them {what}"
            rule = "colour"
        else:
            rule, reason = _swap_reason(high, low, other, players, paired, costs)
        out.append(Decision(rule, f"not {other.name} (place {other.position + 1}): "
                                  f"{reason}"))
    if len(between) > 3:
        out.append(Decision("field", f"… and {len(between) - 3} more between them"))
    return out


def _swap_reason(high: Candidate, low: Candidate, other: Candidate,
                 players: Sequence[Candidate], paired: dict[int, int], costs: Costs
                 ) -> tuple[str, str]:
    """Why ``high`` does not meet ``other`` (nearer in the standings): what the swap
    ``high``–``other``, ``low``–(``other``'s opponent) would cost."""
    by_number = {p.number: p for p in players}
    partner = by_number[paired[other.number]]
    head = f"{other.name} plays {partner.name}; {high.name} v {other.name} would leave " \
           f"{low.name} v {partner.name}"
    if partner.number in low.opponents:
        return "rematch_avoided", f"{head}, who have met already (no rematch)"
    if _pair_breaks(low, partner, costs)[0] > _pair_breaks(high, low, costs)[0] \
            + _pair_breaks(other, partner, costs)[0]:
        return "colour", f"{head}: 3 games of one colour over the other"
    now = _level(high, low) + _level(other, partner)
    swapped = _level(high, other) + _level(low, partner)
    if swapped > now:
        return "float", f"{head}: larger floats"
    return "field", (f"{head}: the best pairing of the whole field (floats, colours, then "
                     "the standings) is this one")


def _pair_breaks(a: Candidate, b: Candidate, costs: Costs) -> tuple[int, int]:
    """(count-rule, run-rule) breaks of the better colour order of a possible pair."""
    (ab, aw), (bb, bw) = costs[a.number], costs[b.number]
    one = (ab[0] + bw[0], ab[1] + bw[1])
    two = (bb[0] + aw[0], bb[1] + aw[1])
    return min(one, two)


def _cost(edges: Sequence[_Edge]) -> PairingCost:
    floats: dict[int, int] = {}
    for e in edges:
        if e.level:
            floats[e.level] = floats.get(e.level, 0) + 1
    return PairingCost(sum(e.rematch for e in edges), sum(e.count_breaks for e in edges),
                       tuple(sorted(floats.items(), reverse=True)),
                       sum(e.run_breaks for e in edges), sum(e.misses for e in edges),
                       sum(e.distance for e in edges))


def _summary(cost: PairingCost, players: int, forced_rematch: bool) -> Decision:
    parts = [f"{players} players paired by a maximum-weight matching over all legal pairs"]
    if forced_rematch:
        parts.append(f"{cost.rematches} rematch(es): no pairing avoids them all")
    else:
        parts.append("no rematch")
    if cost.floats:
        floats = ", ".join(f"{count} of {_num(level / 2)}" for level, count in cost.floats)
        parts.append(f"floats: {floats} win(s) (the fewest and smallest possible)")
    else:
        parts.append("everyone meets their own score group")
    if cost.count_breaks:
        parts.append(f"{cost.count_breaks} player(s) get 3 of one colour over the other: "
                     "no pairing avoids it")
    parts.append(f"third games in a row with one colour: {cost.run_breaks}; colours "
                 f"missed: {cost.colour_misses}")
    return Decision("matching", "; ".join(parts))


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


__all__ = [
    "MAX_COLOUR_DIFFERENCE",
    "MAX_COLOUR_RUN",
    "Candidate",
    "PairedGame",
    "PairingCost",
    "SwissRound",
    "breaks_colour_rule",
    "breaks_count_rule",
    "breaks_run_rule",
    "choose_bye",
    "colour_preference",
    "draw_round",
    "pair_swiss",
]
