"""Swiss pairing, Brightwell points and standings on random tournaments (hypothesis).

Random tournaments of 4 to 200 entrants with random results (draws, forfeits, a
withdrawal now and then) are played round by round; after every pairing the tests check,
against the obvious references of ``tournament_reference.py``:

* no rematch where one can be avoided (small fields: every pairing enumerated; large
  ones: no perfect matching without rematches exists, by a plain cardinality matching);
* every pairing within the smallest possible score spread (small fields: the whole
  lexicographic optimum — rematches, every float level, then colour-rule breaks — by
  brute force; large ones: no pairing of the field has a smaller largest float);
* the colour rules (no more than 2 of one colour over the other, no third in a row)
  hold wherever the field allows it;
* exactly one bye for an odd field, none for an even one, to the lowest-ranked player
  without a bye;
* wins, Brightwell points and the standings order equal the obvious recomputation.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import networkx as nx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_tournament_reference import (  # tests/ is on the path, as for naive
    Player,
    best_quality,
    history,
    obvious_brightwell,
    obvious_orders,
    obvious_wins,
    pair_breaks,
    quality,
    raw_games,
)

from hasamigo.move import BLACK, WHITE
from hasamigo.tournament import Settings, Tournament
from hasamigo.tournament.formats import berger_round, bracket_slots
from hasamigo.tournament.model import PairingKind
from hasamigo.tournament.pairing import (
    Candidate,
    breaks_colour_rule,
    colour_preference,
    pair_swiss,
)

BRUTE_FORCE = 10  # fields up to this size (after the bye) are checked by enumeration


def random_card(t: Tournament, number: int, board: int, rng: random.Random,
                draw_chance: float, forfeit_chance: float) -> None:
    p = t.pairing(number, board)
    card: dict[str, object] = {}
    if not p.draws_allowed:
        card["draw_win"] = p.a
        card["black"] = p.a
    if rng.random() < forfeit_chance:
        t.enter_result(number, board, forfeit_loser=rng.choice(p.players), **card)
        return
    black = 32 if p.draws_allowed and rng.random() < draw_chance else rng.randint(0, 64)
    t.enter_result(number, board, black_discs=black, white_discs=64 - black, **card)


def play_rounds(t: Tournament, rounds: int, rng: random.Random, *, draw_chance: float = 0.05,
                forfeit_chance: float = 0.02, withdraw_chance: float = 0.0,
                check: Callable[[Tournament, int], None] | None = None) -> None:
    for _ in range(rounds):
        if t.finished:
            return
        t.pair_next_round()
        number = t.rounds_paired
        if check is not None:
            check(t, number)
        for p in t.pairings[number]:
            if p.kind is PairingKind.GAME:
                random_card(t, number, p.board, rng, draw_chance, forfeit_chance)
        if rng.random() < withdraw_chance and len(t.active(number + 1)) > 4:
            t.withdraw(rng.choice(t.active(number + 1)))


def field(n: int, seed: int, fmt: str = "swiss", rounds: int | None = 6) -> Tournament:
    rng = random.Random(seed)
    t = Tournament(Settings(fmt, rounds=rounds, seed=seed))
    for i in range(n):
        t.register(f"P{i:03d}", rank=rng.choice([None, "2k", "1d", "4d"]),
                   woman=rng.random() < 0.3, seed=i < 2)
    return t


# ---- the checks --------------------------------------------------------------------------
def check_pairing(t: Tournament, number: int) -> None:
    """Every property of the module docstring for round ``number`` just paired."""
    games = raw_games(t)
    before = [g for g in games if g.round < number]
    everyone = t.pairings[number]
    assert sorted(n for p in everyone for n in p.players) == sorted(t.active(number))
    assert all(p.why for p in everyone)  # every decision is explained
    # the Meijin round-6 byes are decided before the Swiss pairing (tested on their own)
    pairings = [p for p in everyone if not any(d.rule == "round6_bye" for d in p.why)]
    active = [n for p in pairings for n in p.players]
    byes = [p.a for p in pairings if p.kind is PairingKind.BYE]
    assert len(byes) == len(active) % 2
    order = obvious_orders(t, games)[number - 1]
    if byes:
        had = {n: sum(g.kind == "bye" and g.black == n for g in before) for n in active}
        eligible = [n for n in active if had[n] == min(had.values())]
        assert byes[0] == max(eligible, key=order.index), "the lowest-ranked eligible"
    if number == 1:
        return  # drawn at random
    players = history(t, before, number - 1)
    pairs = [(p.a, p.b) for p in pairings if p.b is not None]
    paired = [n for pair in pairs for n in pair]
    ours = quality(pairs, players)
    if len(paired) <= BRUTE_FORCE:
        assert ours == best_quality(paired, players)
    else:  # the top criteria, each by a plain existence check
        rematches, count_breaks, floats, _ = ours
        if rematches:
            assert not perfect(paired, players, None, rematches=False, count_breaks=True)
        if count_breaks:
            assert not perfect(paired, players, None, rematches=bool(rematches),
                               count_breaks=False)
        largest = next((len(floats) - 1 - i for i, c in enumerate(floats) if c), 0)
        if largest:
            assert not perfect(paired, players, largest - 1, rematches=bool(rematches),
                               count_breaks=bool(count_breaks))


def perfect(numbers: list[int], players: dict[int, Player], limit: int | None, *,
            rematches: bool, count_breaks: bool) -> bool:
    """Is there a pairing of everyone with floats up to ``limit`` (half wins), with or
    without rematches and pairs that break the colour-count rule?"""
    graph = nx.Graph()
    graph.add_nodes_from(numbers)
    for i, a in enumerate(numbers):
        for b in numbers[i + 1:]:
            pa, pb = players[a], players[b]
            if not rematches and b in pa.opponents:
                continue
            if not count_breaks and pair_breaks(pa, pb)[0]:
                continue
            if limit is not None and round(2 * abs(pa.wins - pb.wins)) > limit:
                continue
            graph.add_edge(a, b)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(numbers)


def colour_counts_off(t: Tournament) -> list[int]:
    """Players with more than 2 games of one colour over the other."""
    players = history(t, raw_games(t), t.rounds_paired)
    return [n for n, p in players.items()
            if abs(p.colours.count("B") - p.colours.count("W")) > 2]


def check_scores(t: Tournament) -> None:
    games = raw_games(t)
    players = sorted(t.entrants)
    withdrawn = {n for n, e in t.entrants.items() if e.withdrawn}
    orders = obvious_orders(t, games)
    for r in range(1, t.rounds_paired + 1):
        won = obvious_wins(games, players, r)
        bw = obvious_brightwell(games, players, t.c, withdrawn, r)
        rows = t.standings(r)
        assert [s.number for s in rows] == orders[r]
        for s in rows:
            assert s.wins == won[s.number]
            assert s.brightwell.total == bw[s.number]
            assert s.brightwell.total == s.brightwell.discs + t.c * s.brightwell.opponents_wins


# ---- property tests ----------------------------------------------------------------------
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 11), seed=st.integers(0, 10**6), rounds=st.integers(2, 7),
       draws=st.sampled_from([0.0, 0.1, 0.3]))
def test_small_fields_pair_optimally(n: int, seed: int, rounds: int, draws: float) -> None:
    t = field(n, seed, rounds=rounds)
    play_rounds(t, rounds, random.Random(seed), draw_chance=draws, withdraw_chance=0.1,
                check=check_pairing)
    check_scores(t)


@settings(max_examples=8, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(12, 200), seed=st.integers(0, 10**6), rounds=st.integers(2, 5))
@example(n=200, seed=1, rounds=3)
@example(n=199, seed=2, rounds=2)
def test_large_fields(n: int, seed: int, rounds: int) -> None:
    t = field(n, seed, rounds=rounds)
    play_rounds(t, rounds, random.Random(seed), withdraw_chance=0.2, check=check_pairing)
    check_scores(t)
    assert colour_counts_off(t) == []


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(12, 60), seed=st.integers(0, 10**6), rounds=st.integers(6, 9))
def test_colour_counts_stay_within_the_rule(n: int, seed: int, rounds: int) -> None:
    """With a dozen players or more nobody ever has more than 2 games of one colour over
    the other (small fields: the brute force above shows when the field forces it)."""
    t = field(n, seed, rounds=rounds)
    play_rounds(t, rounds, random.Random(seed))
    assert colour_counts_off(t) == []


SWEEP = dict(n=st.integers(4, 200), seed=st.integers(0, 10**6), rounds=st.integers(1, 9),
             fmt=st.sampled_from(["swiss", "meijin", "master"]))


def sweep_one(n: int, seed: int, rounds: int, fmt: str) -> None:
    """Nine rounds of a random field with withdrawals, every pairing and score checked."""
    t = field(n, seed, fmt, rounds=None if fmt != "swiss" else rounds)
    play_rounds(t, 9, random.Random(seed), withdraw_chance=0.1,
                check=lambda t, r: check_pairing(t, r) if t.pairings[r][0].stage.counts
                else None)
    check_scores(t)


@pytest.mark.slow
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(**SWEEP)
def test_sweep(n: int, seed: int, rounds: int, fmt: str) -> None:
    """40 random tournaments (CI); the 200-tournament sweep below repeats it at scale."""
    sweep_one(n, seed, rounds, fmt)


@pytest.mark.exhaustive
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(**SWEEP)
def test_sweep_at_scale(n: int, seed: int, rounds: int, fmt: str) -> None:
    sweep_one(n, seed, rounds, fmt)


# ---- the pieces --------------------------------------------------------------------------
def test_colour_rules_and_preferences() -> None:
    assert breaks_colour_rule([BLACK, BLACK], BLACK)
    assert breaks_colour_rule([BLACK, WHITE, BLACK, BLACK], BLACK)  # 4 B, 1 W
    assert not breaks_colour_rule([BLACK, WHITE, BLACK], BLACK)  # 3-1 is allowed
    assert colour_preference([BLACK, WHITE, BLACK]) == (WHITE, 2)
    assert colour_preference([BLACK, WHITE]) == (BLACK, 1)


def cand(number: int, wins: float, position: int, *, opponents: tuple[int, ...] = (),
         colours: str = "", byes: int = 0) -> Candidate:
    return Candidate(number, f"P{number}", wins, 0.0, position, frozenset(opponents),
                     tuple(BLACK if c == "B" else WHITE for c in colours), byes)


def test_a_legal_pairing_is_found_where_greedy_pairing_fails() -> None:
    """Greedy top-down pairing takes 1-2, then 3 and 4 have met: stuck. The matching
    pairs 1 and 2 with 3 and 4."""
    players = [cand(1, 2, 0, opponents=(5,)), cand(2, 2, 1, opponents=(6,)),
               cand(3, 2, 2, opponents=(4,)), cand(4, 2, 3, opponents=(3,))]
    result = pair_swiss(players, random.Random(0))
    pairs = {frozenset((g.black, g.white)) for g in result.games}
    assert len(pairs) == 2 and frozenset((1, 2)) not in pairs
    assert result.cost.rematches == 0
    why = [d.rule for g in result.games for d in g.why]
    assert "rematch_avoided" in why


def test_rematch_only_when_unavoidable() -> None:
    players = [cand(1, 2, 0, opponents=(2, 3)), cand(2, 1, 1, opponents=(1, 4)),
               cand(3, 1, 2, opponents=(1, 4)), cand(4, 0, 3, opponents=(2, 3))]
    result = pair_swiss(players, random.Random(0))  # 1-4 and 2-3: no rematch
    assert {frozenset((g.black, g.white)) for g in result.games} == {
        frozenset((1, 4)), frozenset((2, 3))}
    full = [cand(1, 1, 0, opponents=(2, 3, 4)), cand(2, 1, 1, opponents=(1, 3, 4)),
            cand(3, 1, 2, opponents=(1, 2, 4)), cand(4, 1, 3, opponents=(1, 2, 3))]
    forced = pair_swiss(full, random.Random(0))
    assert forced.cost.rematches == 2
    assert any(d.rule == "rematch_forced" for g in forced.games for d in g.why)


def test_score_groups_float_the_fewest_and_smallest() -> None:
    # 3 with 2 wins, 3 with 1 win, 2 with 0: one float 2→1 and one 1→0, never 2→0
    players = [cand(i, w, i) for i, w in enumerate([2, 2, 2, 1, 1, 1, 0, 0])]
    result = pair_swiss(players, random.Random(0))
    assert result.cost.floats == ((2, 1),)  # one pair of two half-wins (1 win) apart
    assert result.cost.largest_float == 2


def test_colours_go_to_whoever_had_them_less() -> None:
    players = [cand(1, 1, 0, colours="BWB"), cand(2, 1, 1, colours="WBW")]
    result = pair_swiss(players, random.Random(0))
    (game,) = result.games
    assert (game.black, game.white) == (2, 1)
    assert "had it less" in game.why[-1].text


def test_the_bye_goes_to_the_lowest_without_one() -> None:
    players = [cand(1, 2, 0), cand(2, 1, 1), cand(3, 0, 2, byes=1), cand(4, 0, 3, byes=1),
               cand(5, 0, 4, byes=1)]
    result = pair_swiss(players, random.Random(0))
    assert result.bye == 2
    everyone = pair_swiss([cand(1, 1, 0, byes=1), cand(2, 1, 1, byes=1),
                           cand(3, 0, 2, byes=1)], random.Random(0))
    assert everyone.bye == 3


def test_berger_tables() -> None:
    for n in (4, 6, 8, 10):
        met = set()
        for r in range(1, n):
            pairs = berger_round(n, r)
            assert sorted(x for p in pairs for x in p) == list(range(1, n + 1))
            met |= {frozenset(p) for p in pairs}
        assert len(met) == n * (n - 1) // 2
    assert berger_round(8, 1) == [(1, 8), (2, 7), (3, 6), (4, 5)]
    assert berger_round(8, 2) == [(8, 5), (6, 4), (7, 3), (1, 2)]


def test_bracket_keeps_the_top_seeds_apart() -> None:
    slots = bracket_slots(16)
    assert sorted(slots) == list(range(1, 17))
    assert slots.index(1) < 8 <= slots.index(2)
    assert all(a + b == 17 for a, b in zip(slots[::2], slots[1::2], strict=True))
