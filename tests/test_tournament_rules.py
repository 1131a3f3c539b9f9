"""The special rules of the JOF's 43rd Meijin tournament (第43期オセロ名人戦全国大会, 2023),
each from a hand-made standings table.

A table gives each player's wins after the Swiss rounds; :func:`history` builds rounds of
games that give exactly those wins (no rematches, colours alternating), stored as the
facts a tournament is made of. The tests then ask the format for the next round and
check it against the rule: the round-1 redraw of the seeds, the round-6 bye and the
not-played draw, the semifinal pairing, the women's final with and without a woman in the
semifinals, the ranking's criteria one by one, the result card that does not add up to
64 (JOF rule 18), the dan table and the knockout games' draw-win right (JOF rule 2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from hasamigo.tournament import (
    BoardResult,
    Colours,
    Pairing,
    PairingKind,
    Settings,
    Stage,
    Tournament,
    TournamentError,
)
from hasamigo.tournament.awards import ELEMENTARY, MASTER, OPEN
from hasamigo.tournament.brightwell import nearest_c
from hasamigo.tournament.model import Decision

WHY = (Decision("test", "hand-made"),)


def history(wins: Sequence[float], rounds: int, seed: int = 0,
            meet: Sequence[tuple[int, int]] = ()) -> tuple[list[Pairing],
                                                           dict[tuple[int, int], BoardResult]]:
    """Rounds 1..``rounds`` of Swiss games between players 1..n giving each ``wins[i]``
    (a half win is one draw; the total must be rounds × n / 2), without rematches;
    ``meet``: pairs that must have met. Found by a seeded random search."""
    n = len(wins)
    assert n % 2 == 0 and sum(wins) == rounds * n / 2
    rng = random.Random(seed)
    for _attempt in range(20_000):
        need = {i + 1: w for i, w in enumerate(wins)}
        met: set[frozenset[int]] = set()
        blacks = {p: 0 for p in need}
        pairings: list[Pairing] = []
        results: dict[tuple[int, int], BoardResult] = {}
        must_meet = [frozenset(m) for m in meet]
        ok = True
        for r in range(1, rounds + 1):
            left = rounds - r + 1
            players = list(need)
            rng.shuffle(players)
            draws = [p for p in players if need[p] % 1]
            if len(draws) % 2 or any(need[p] < 0 or need[p] > left for p in players):
                ok = False
                break
            winners = sorted(players, key=lambda p: (-(need[p] >= left), need[p] <= 0,
                                                     -need[p] / left + rng.random() * 0.3))
            drawing = draws[:2] if draws and rng.random() < 0.5 + 0.5 * (left <= 2) else []
            rest = [p for p in winners if p not in drawing]
            top, bottom = rest[:len(rest) // 2], rest[len(rest) // 2:]
            rng.shuffle(bottom)
            for pair in must_meet:  # bring a pair that must meet together
                a, b = sorted(pair, key=lambda p: p not in top)
                if a in top and b in bottom and pair not in met:
                    i, j = top.index(a), bottom.index(b)
                    bottom[i], bottom[j] = bottom[j], bottom[i]
            pairs = [(a, b, a) for a, b in zip(top, bottom, strict=True)]
            if drawing:
                pairs.append((drawing[0], drawing[1], None))
            if any(frozenset((a, b)) in met for a, b, _ in pairs):
                ok = False
                break
            for board, (a, b, winner) in enumerate(pairs, 1):
                black, white = (a, b) if blacks[a] <= blacks[b] else (b, a)
                blacks[black] += 1
                met.add(frozenset((a, b)))
                pairings.append(Pairing(r, board, Stage.SWISS, black, white, why=WHY))
                if winner is None:
                    results[r, board] = BoardResult.from_card(black, white, 32, 32, None)
                    need[a] -= 0.5
                    need[b] -= 0.5
                else:
                    loser = b if winner == a else a
                    discs = 33 + rng.randrange(20)
                    bd, wd = (discs, 64 - discs) if winner == black else (64 - discs, discs)
                    results[r, board] = BoardResult.from_card(black, white, bd, wd, winner)
                    need[winner] -= 1
                    assert loser
        if ok and all(v == 0 for v in need.values()) and all(m in met for m in must_meet):
            return pairings, results
    raise AssertionError("no history found for this table")


def meijin(wins: Sequence[float], rounds: int = 5, *, women: Sequence[int] = (),
           seed: int = 0, meet: Sequence[tuple[int, int]] = ()) -> Tournament:
    pairings, results = history(wins, rounds, seed, meet)
    t = Tournament(Settings("meijin", seed=seed))
    for i in range(len(wins)):
        t.register(chr(ord("A") + i), woman=i + 1 in women)
    return Tournament(t.settings, t.entrants.values(), pairings, results)


def won(t: Tournament, after: int | None = None) -> dict[str, float]:
    wins, _ = t.scores(after)
    return {t.name(n): wins.get(n, 0.0) for n in t.entrants}


def names(t: Tournament, numbers: Sequence[int]) -> list[str]:
    return [t.name(n) for n in numbers]


def finish_round(t: Tournament, winner_of: dict[frozenset[str], str] | None = None) -> None:
    """Enter every game of the last round: the higher place in the standings wins 40–24
    unless ``winner_of`` says otherwise; knockout games: Black is the first player, who
    holds the draw-win right."""
    number = t.rounds_paired
    order = t.order(number - 1)
    for p in t.pairings[number]:
        if p.kind is not PairingKind.GAME:
            continue
        assert p.b is not None
        winner = min(p.players, key=order.index)
        chosen = (winner_of or {}).get(frozenset(names(t, p.players)))
        if chosen is not None:
            winner = t.find(chosen).number
        card: dict[str, object] = {}
        if p.colours is Colours.FUSE_ISHI:
            card = {"black": p.a, "draw_win": p.a}
        black = card.get("black", p.a)
        discs = (40, 24) if winner == black else (24, 40)
        t.enter_result(number, p.board, black_discs=discs[0], white_discs=discs[1], **card)


# ---- round 1 -----------------------------------------------------------------------------
def test_round_one_is_redrawn_while_two_seeds_meet() -> None:
    redrawn = 0
    for seed in range(40):
        t = Tournament(Settings("meijin", seed=seed))
        for i in range(8):
            t.register(f"P{i}", seed=i < 2)  # the Meijin and the Ouza
        pairings = t.pair_next_round()
        seeds = {1, 2}
        assert not any(set(p.players) == seeds for p in pairings)
        rules = [d.rule for p in pairings for d in p.why]
        if "seeds_redrawn" in rules:
            redrawn += 1
            note = next(d.text for p in pairings for d in p.why if d.rule == "seeds_redrawn")
            assert "P0" in note and "P1" in note and "redrawn" in note
    # one draw in seven pairs the two seeds: some of 40 tournaments were redrawn
    assert redrawn >= 1


def test_seeds_that_must_meet_are_said_to() -> None:
    t = Tournament(Settings("meijin", seed=1))
    for i in range(6):
        t.register(f"P{i}", seed=i < 4)  # four seeds among six: two must meet
    pairings = t.pair_next_round()
    assert any(d.rule == "seeds_met" for p in pairings for d in p.why)


def test_round_one_odd_field_bye_to_the_last_before_round_one() -> None:
    t = Tournament(Settings("meijin", seed=3))
    for i, rank in enumerate(["5d", "3d", "1d", "2k", "4d"]):
        t.register(f"P{i}", rank=rank)
    byes = [p for p in t.pair_next_round() if p.kind is PairingKind.BYE]
    assert names(t, [b.a for b in byes]) == ["P3"]  # the 2-kyu, ranked last before round 1


# ---- round 6 -----------------------------------------------------------------------------
# After round 5: A 5, B 4.5 (≥ 1.5 above the 5th: byes), C 4 and D 4 (exactly 1.0 above:
# their game is not played, a draw), E 3 and F 3 (the provisional 5th has 3), the rest lower.
ROUND_SIX = [5, 4.5, 4, 4, 3, 3, 2.5, 2, 1, 1, 0, 0]


def test_round_six_bye_and_not_played_draw() -> None:
    t = meijin(ROUND_SIX, seed=2)
    assert won(t) == dict(zip("ABCDEFGHIJKL", ROUND_SIX, strict=True))
    fifth = t.order(5)[4]
    assert won(t)[t.name(fifth)] == 3
    pairings = t.pair_next_round()
    byes = {t.name(p.a): p for p in pairings if p.kind is PairingKind.BYE}
    assert set(byes) == {"A", "B"}
    assert all(any(d.rule == "round6_bye" and "43rd Meijin rules" in d.text for d in p.why)
               for p in byes.values())
    games = {frozenset(names(t, p.players)): p for p in pairings if p.b is not None}
    cd = games[frozenset("CD")]
    assert cd.kind is PairingKind.NOT_PLAYED_DRAW
    assert any(d.rule == "not_played_draw" for d in cd.why)
    assert [p.kind for p in games.values()].count(PairingKind.NOT_PLAYED_DRAW) == 1
    finish_round(t)  # nothing to enter for C v D
    after = won(t, 6)
    assert (after["A"], after["B"], after["C"], after["D"]) == (6, 5.5, 4.5, 4.5)
    g = t.game(6, cd.board)
    assert (g.kind.value, g.black_discs, g.white_discs, g.winner) == (
        "not_played_draw", 32, 32, None)
    with pytest.raises(TournamentError, match="not played draw"):
        t.enter_result(6, cd.board, black_discs=40, white_discs=24)


def test_round_six_bye_boundary_and_no_draw_for_a_single_player() -> None:
    # A has 4.5 = 5th (3) + 1.5: a bye; B has 4 = 5th + 1.0 but nobody else does: plays
    table = [4.5, 4, 3.5, 3.5, 3, 3, 3, 2, 1.5, 1, 1, 0]
    t = meijin(table, seed=5)
    assert won(t)[t.name(t.order(5)[4])] == 3
    pairings = t.pair_next_round()
    byes = {t.name(p.a): p.why[0].rule for p in pairings if p.kind is PairingKind.BYE}
    # A's bye by the round-6 rule leaves 11 to pair: the lowest-ranked, L, gets a bye too
    assert byes == {"A": "round6_bye", "L": "bye"}
    assert not any(p.kind is PairingKind.NOT_PLAYED_DRAW for p in pairings)


def test_round_six_rules_leave_a_round_before_the_last_alone() -> None:
    t = meijin([4, 3.5, 3, 3, 2, 2, 1.5, 1, 0, 0], rounds=4, seed=1)
    pairings = t.pair_next_round()  # round 5: plain Swiss
    assert not any(p.kind is not PairingKind.GAME for p in pairings)


# ---- semifinals, placement, final --------------------------------------------------------
SIX_ROUNDS = [6, 5, 4.5, 4, 3, 3, 3, 2.5, 2, 2, 1, 0]


def test_semifinals_one_v_four_and_two_v_three_rematches_allowed() -> None:
    t = meijin(SIX_ROUNDS, rounds=6, seed=4, meet=[(1, 4)])
    assert names(t, t.order(6)[:4]) == ["A", "B", "C", "D"]
    pairings = t.pair_next_round()
    semis = [p for p in pairings if p.stage is Stage.SEMIFINAL]
    assert [names(t, p.players) for p in semis] == [["A", "D"], ["B", "C"]]
    assert all(p.colours is Colours.FUSE_ISHI and not p.draws_allowed for p in semis)
    a, d = t.find("A").number, t.find("D").number
    assert any({a, d} == set(g.players) for g in t.games(6))  # A and D met before ...
    assert any("rematches allowed" in d.text for d in semis[0].why)  # ... and meet again
    placement = [p for p in pairings if p.stage is Stage.PLACEMENT]
    assert sorted(n for p in placement for n in p.players) == sorted(t.order(6)[4:])
    assert all(p.draws_allowed and p.colours is Colours.PRESCRIBED for p in placement)
    finish_round(t, {frozenset("AD"): "D", frozenset("BC"): "C"})
    finals = t.pair_next_round()
    final = next(p for p in finals if p.stage is Stage.FINAL)
    third = next(p for p in finals if p.stage is Stage.THIRD_PLACE)
    assert set(names(t, final.players)) == {"D", "C"}
    assert set(names(t, third.players)) == {"A", "B"}


# ---- women's final -----------------------------------------------------------------------
def play_to_the_end(t: Tournament, winner_of: dict[frozenset[str], str] | None = None) -> None:
    while not t.finished:
        t.pair_next_round()
        finish_round(t, winner_of)


def test_womens_final_between_the_top_two_women_after_round_seven() -> None:
    # the women are E (5th after round 6), G and J
    t = meijin(SIX_ROUNDS, rounds=6, seed=4, women=(5, 7, 10))
    t.pair_next_round()
    finish_round(t)  # round 7: E and G stay the top women
    top_women = [t.name(n) for n in t.order(7) if t.entrant(n).woman][:2]
    finals = t.pair_next_round()
    women = [p for p in finals if p.stage is Stage.WOMEN_FINAL]
    assert len(women) == 1 and sorted(names(t, women[0].players)) == sorted(top_women)
    assert women[0].colours is Colours.FUSE_ISHI and not women[0].draws_allowed
    lower = max(women[0].players, key=t.order(7).index)
    finish_round(t, {frozenset(names(t, women[0].players)): t.name(lower)})
    ranking = t.ranking()
    queen = [p.name for p in ranking if p.women_champion]
    assert queen == [t.name(lower)]  # the women's final's winner, not the better placed
    women_places = [p.name for p in ranking if p.woman]
    assert women_places[0] != t.name(lower)


def test_no_womens_final_when_a_woman_reached_the_semifinals() -> None:
    t = meijin(SIX_ROUNDS, rounds=6, seed=4, women=(3, 5, 7))  # C is a semifinalist
    play_to_the_end(t)
    assert not any(p.stage is Stage.WOMEN_FINAL for p in t.pairings[8])
    ranking = t.ranking()
    queen = [p for p in ranking if p.women_champion]
    assert [p.name for p in queen] == [next(p.name for p in ranking if p.woman)]
    assert queen[0].place <= 4


def test_one_woman_only_is_womens_champion_without_a_final() -> None:
    t = meijin(SIX_ROUNDS, rounds=6, seed=4, women=(9,))
    play_to_the_end(t)
    assert not any(p.stage is Stage.WOMEN_FINAL for p in t.pairings[8])
    assert [p.name for p in t.ranking() if p.women_champion] == ["I"]


# ---- ranking -----------------------------------------------------------------------------
def four(rank: Sequence[str | None] = (None, None, None, None)) -> Tournament:
    t = Tournament(Settings("swiss", rounds=3, seed=0))
    for name, r in zip("ABCD", rank, strict=True):
        t.register(name, rank=r)
    return t


def facts(t: Tournament, games: Sequence[tuple[int, str, str, int, int]]) -> Tournament:
    """A tournament of ``t``'s entrants with these games: (round, Black, White, counts)."""
    pairings = []
    results = {}
    boards: dict[int, int] = {}
    for r, black, white, bd, wd in games:
        boards[r] = boards.get(r, 0) + 1
        b, w = t.find(black).number, t.find(white).number
        pairings.append(Pairing(r, boards[r], Stage.SWISS, b, w, why=WHY))
        winner = None if bd == wd else b if bd > wd else w
        results[r, boards[r]] = BoardResult.from_card(b, w, bd, wd, winner)
    return Tournament(t.settings, t.entrants.values(), pairings, results)


def test_ranking_by_wins_then_brightwell_then_previous_rank() -> None:
    t = four(("1d", "2d", "3d", "4d"))  # before round 1: D, C, B, A
    assert names(t, t.order(0)) == ["D", "C", "B", "A"]
    # round 1: A and C win by the same count, B and D lose by it: wins and Brightwell
    # tie in pairs, the previous rank (before round 1) decides
    t = facts(t, [(1, "A", "B", 40, 24), (1, "C", "D", 40, 24)])
    assert names(t, t.order(1)) == ["C", "A", "D", "B"]
    s = {x.name: x for x in t.standings(1)}
    assert s["A"].brightwell.total == s["C"].brightwell.total == 40 + t.c * 0
    # round 2: A beats C 36–28, B and D draw: wins first (A 2, C 1), then for B and D
    # (½ each) Brightwell: B 24 + 28 + C × (2 + ½) v D 24 + 32 + C × (1 + ½)
    t = facts(t, [(1, "A", "B", 40, 24), (1, "C", "D", 40, 24), (2, "A", "C", 36, 28),
                  (2, "B", "D", 32, 32)])
    assert t.c == nearest_c(3) == 21
    s = {x.name: x for x in t.standings(2)}
    assert (s["B"].brightwell.total, s["D"].brightwell.total) == (
        24 + 32 + 21 * 2.5, 24 + 32 + 21 * 1.5)
    assert names(t, t.order(2)) == ["A", "C", "B", "D"]
    assert s["B"].brightwell.formula == "56 + 21 × 2.5 = 108.5"


def test_previous_rank_carries_from_round_to_round() -> None:
    # identical results for A v B and C v D twice: every tie falls back to the order
    # after the round before, which fell back to the order before round 1
    t = four(("1d", "1d", "3d", "3d"))  # before round 1: C, D, A, B
    t = facts(t, [(1, "A", "B", 40, 24), (1, "C", "D", 40, 24),
                  (2, "B", "A", 24, 40), (2, "D", "C", 24, 40)])
    assert names(t, t.order(1)) == ["C", "A", "D", "B"]
    assert names(t, t.order(2)) == ["C", "A", "D", "B"]


def test_final_and_third_place_game_rank_above_wins() -> None:
    t = meijin(SIX_ROUNDS, rounds=6, seed=4)
    t.pair_next_round()
    # D (4th after the Swiss rounds) beats A; B beats C
    finish_round(t, {frozenset("AD"): "D"})
    t.pair_next_round()
    finish_round(t, {frozenset("BD"): "D", frozenset("AC"): "C"})
    ranking = t.ranking()
    assert [p.name for p in ranking[:4]] == ["D", "B", "C", "A"]
    assert ranking[0].wins < ranking[3].wins  # wins rank below the knockout games
    rest = [p for p in ranking[4:]]
    keys = [(-p.wins, -p.brightwell) for p in rest]
    assert keys == sorted(keys)


# ---- results -----------------------------------------------------------------------------
def test_a_card_that_does_not_add_up_counts_against_the_winner() -> None:
    t = four()
    t.pair_next_round()
    p1, p2 = t.pairings[1]
    assert p1.b is not None and p2.b is not None
    r = t.enter_result(1, 1, black_discs=35, white_discs=30)  # 65: the winner's count shrinks
    assert (r.result.black, r.result.white, r.winner) == (34, 30, p1.a)
    r = t.enter_result(1, 2, black_discs=29, white_discs=33)  # 62: the loser's count grows
    assert (r.result.black, r.result.white, r.winner) == (31, 33, p2.b)
    before, after = t.correct_result(1, 2, black_discs=32, white_discs=33)  # 65 → draw
    assert (after.result.black, after.result.white, after.winner) == (32, 32, None)
    assert before.winner == p2.b


def test_a_knockout_card_that_ends_level_goes_to_the_draw_win_holder() -> None:
    t = Tournament(Settings("knockout", seed=0))
    for name in "AB":
        t.register(name)
    (p,) = t.pair_next_round()
    assert p.stage is Stage.FINAL and not p.draws_allowed
    with pytest.raises(TournamentError, match="draw-win"):
        t.enter_result(1, 1, black_discs=32, white_discs=32, black="A")
    with pytest.raises(TournamentError, match="who played Black"):
        t.enter_result(1, 1, black_discs=32, white_discs=32, draw_win="B")
    r = t.enter_result(1, 1, black_discs=33, white_discs=32, black="A", draw_win="B")
    assert (r.result.black, r.result.white, r.winner, r.draw_win) == (32, 32, 2, 2)
    assert [p.name for p in t.ranking()] == ["B", "A"]


def test_forfeits() -> None:
    t = four()
    t.pair_next_round()
    p1, p2 = t.pairings[1]
    assert p1.b is not None and p2.b is not None
    r = t.enter_result(1, 1, forfeit_loser=p1.a)
    assert (r.result.black, r.result.white, r.winner, r.result.forfeit, r.result.rated) == (
        0, 64, p1.b, True, True)
    late = t.enter_result(1, 2, forfeit_loser=p2.b, late=True)  # rule 13: not rated
    assert (late.result.black, late.result.white, late.winner, late.result.rated) == (
        64, 0, p2.a, False)
    assert t.game(1, 2).kind.value == "forfeit"


def test_byes_and_withdrawn_opponents_count_32_and_own_wins() -> None:
    t = Tournament(Settings("swiss", rounds=2, seed=0))
    for name in "ABCDE":
        t.register(name)
    t = facts(t, [(1, "A", "B", 40, 24), (1, "C", "D", 20, 44)])
    bye = Pairing(1, 3, Stage.SWISS, t.find("E").number, None, PairingKind.BYE, why=WHY)
    t = Tournament(t.settings, t.entrants.values(), [*t.pairings[1], bye], t.results)
    t.withdraw("B")  # from round 2 on; A's game against B counts as a bye now
    s = {x.name: x.brightwell for x in t.standings(1)}
    c = t.c
    assert c == 32  # 64 ÷ 2 games
    assert s["E"].total == 32 + c * 1 and s["E"].lines[0].substituted
    assert s["A"].total == 32 + c * 1  # not 40 + C × B's 0 wins
    assert s["C"].total == 20 + c * 1  # D, who beat C, played on
    assert s["D"].total == 44 + c * 0


def test_fixed_c_setting() -> None:
    t = Tournament(Settings("meijin", c=6))
    assert t.c == 6
    assert Tournament(Settings("meijin")).c == 9  # 7 games count: 64 ÷ 7
    assert Tournament(Settings("master")).c == 13  # 5 games: 64 ÷ 5
    assert (nearest_c(10), nearest_c(13)) == (6, 5)


# ---- dan awards --------------------------------------------------------------------------
def test_dan_tables() -> None:
    assert [OPEN.award(p, 0) for p in (1, 2, 3, 4, 8, 9)] == [
        "七段", "六段", "六段", "五段", "五段", None]
    assert [OPEN.award(20, w) for w in (6, 5.5, 5, 4.5, 4, 3.5, 3)] == [
        "四段", "四段", "三段", "三段", "二段", "二段", None]
    assert OPEN.qualifies(30, 5) and not OPEN.qualifies(1, 4.5)
    assert [MASTER.award(p, 0) for p in (1, 2, 3, 4, 5)] == ["五段", "四段", "三段", "二段",
                                                             None]
    assert [MASTER.award(9, w) for w in (5, 4, 3, 2)] == ["二段", "初段", "1級", None]
    assert MASTER.qualifies(20, 4) and not MASTER.qualifies(1, 3.5)
    assert [ELEMENTARY.award(p, 5) for p in (1, 2, 3, 4)] == ["三段", "二段", "初段", None]
    assert ELEMENTARY.qualifies(8, 0) and not ELEMENTARY.qualifies(9, 5)


def test_awards_of_a_finished_meijin() -> None:
    t = meijin(SIX_ROUNDS, rounds=6, seed=4)
    assert t.ranking()[0].award.dan is None  # not before the end
    play_to_the_end(t)
    ranking = t.ranking()
    assert [p.award.dan for p in ranking[:8]] == ["七段", "六段", "六段"] + ["五段"] * 5
    for p in ranking[8:]:
        rounds_1_to_7 = p.wins  # below the semifinals every counting game is in 1-7
        expected = OPEN.award(p.place, rounds_1_to_7)
        assert p.award.dan == expected
        assert p.award.ouza == (rounds_1_to_7 >= 5)


def test_master_division_final_and_third_place() -> None:
    t = Tournament(Settings("master", seed=1))
    rng = random.Random(1)
    for i in range(10):
        t.register(f"M{i}", birth_year=1950 + i)
    while not t.finished:
        for p in t.pair_next_round():
            if p.kind is PairingKind.GAME:
                card: dict[str, object] = {}
                if not p.draws_allowed:
                    card = {"black": p.a, "draw_win": p.b}
                black = rng.choice([20, 30, 40])
                t.enter_result(p.round, p.board, black_discs=black, white_discs=64 - black,
                               **card)
    assert t.rounds_paired == 6
    stages = [p.stage for p in t.pairings[6]]
    assert stages == [Stage.FINAL, Stage.THIRD_PLACE]
    top = t.order(5)[:4]
    assert set(t.pairings[6][0].players) == set(top[:2])
    assert [p.award.dan for p in t.ranking()[:4]] == ["五段", "四段", "三段", "二段"]


# ---- the other formats -------------------------------------------------------------------
def test_round_robin_by_the_berger_tables() -> None:
    t = Tournament(Settings("round-robin", rounds=2, seed=0))
    for name in "ABCDE":
        t.register(name)
    assert t.total_rounds == 10 and t.c == nearest_c(10) == 6
    play_to_the_end(t)
    first = [frozenset(p.players) for r in range(1, 6) for p in t.pairings[r]
             if p.b is not None]
    assert len(first) == len(set(first)) == 10  # everyone meets everyone once a cycle
    byes = [p.a for r in range(1, 6) for p in t.pairings[r] if p.kind is PairingKind.BYE]
    assert sorted(byes) == [1, 2, 3, 4, 5]  # the odd one out each round
    colours = {(p.a, p.b) for r in range(1, 6) for p in t.pairings[r] if p.b is not None}
    second = {(p.a, p.b) for r in range(6, 11) for p in t.pairings[r] if p.b is not None}
    assert second == {(b, a) for a, b in colours}  # colours reversed in cycle 2


def test_knockout_with_byes_and_a_third_place_game() -> None:
    t = Tournament(Settings("knockout", seed=0))
    for i, rank in enumerate(["6d", "5d", "4d", "3d", "2d", "1d"]):
        t.register(f"K{i}", rank=rank)
    first = t.pair_next_round()
    assert [p.kind for p in first].count(PairingKind.BYE) == 2  # seeds 1 and 2
    assert {t.name(p.a) for p in first if p.kind is PairingKind.BYE} == {"K0", "K1"}
    assert all(p.colours is Colours.FUSE_ISHI for p in first if p.b is not None)
    finish_round(t)  # the higher seed wins: K3 over K4, K2 over K5
    semis = t.pair_next_round()
    assert [p.stage for p in semis] == [Stage.SEMIFINAL, Stage.SEMIFINAL]
    assert [names(t, p.players) for p in semis] == [["K0", "K3"], ["K1", "K2"]]
    finish_round(t, {frozenset(("K0", "K3")): "K3"})
    finals = t.pair_next_round()
    assert [p.stage for p in finals] == [Stage.FINAL, Stage.THIRD_PLACE]
    assert [names(t, p.players) for p in finals] == [["K3", "K1"], ["K0", "K2"]]
    finish_round(t)  # K1 beats K3, K0 beats K2
    assert t.finished
    assert [p.name for p in t.ranking()] == ["K1", "K3", "K0", "K2", "K4", "K5"]
