"""The multi-player programs (:mod:`hasamigo.engine.multi_players`)."""

from __future__ import annotations

import random

import pytest

from hasamigo.engine.multi_players import (
    GreedyMulti,
    MaxNMulti,
    ParanoidMulti,
    make_multi_player,
    play_out,
    values,
)
from hasamigo.errors import InvalidOptionError
from hasamigo.multi import MultiBoard


@pytest.mark.parametrize("game", ["rolit", "othello4"])
@pytest.mark.parametrize("specs", [
    ["greedy", "paranoid:2", "maxn:2", "random"],
    ["paranoid:3", "greedy", "greedy"],
    ["maxn:3", "search:2"],
])
def test_the_programs_play_legal_moves_to_the_end(game: str, specs: list[str]) -> None:
    board = MultiBoard(game, players=len(specs))
    players = {colour: make_multi_player(spec, seed=i)
               for i, (colour, spec) in enumerate(zip(board.seats, specs, strict=True))}
    play_out(board, players)  # every move goes through MultiBoard.play, which checks it
    assert board.is_game_over()
    if game == "rolit":
        assert board.occupied.bit_count() == 64


def test_greedy_turns_the_most() -> None:
    board = MultiBoard("rolit")
    rng = random.Random(3)
    for _ in range(12):
        board.play(rng.choice(board.legal_moves()))
    turns = [bin(board.turned_by(m.square or 0)).count("1") for m in board.legal_moves()]
    best = max(turns)
    assert len(set(turns)) > 1  # a real choice
    for seed in range(5):
        move = GreedyMulti(seed).choose(board)
        assert board.turned_by(move.square or 0).bit_count() == best


def test_the_searches_take_a_free_corner() -> None:
    """Red can take a8 (turning b7's yellow), c4 (c5's) or f3 (green e4 and yellow d5):
    the corner is worth more than the two discs at every depth."""
    board = MultiBoard("rolit", seats=["red", "yellow"])
    board.discs = [0] * 4
    board.discs[0] = 1 << 42  # red c6
    board.discs[1] = 1 << 49 | 1 << 35 | 1 << 34  # yellow b7, d5, c5
    board.discs[2] = 1 << 28  # green e4 (nobody's)
    assert sorted(str(m) for m in board.legal_moves()) == ["a8", "c4", "f3"]
    for player in (ParanoidMulti(1), ParanoidMulti(3), MaxNMulti(1), MaxNMulti(3)):
        assert str(player.choose(board)) == "a8", player.name


def test_values_are_each_seats_lead() -> None:
    board = MultiBoard("rolit")
    board.play("f4")
    lead = values(board)
    assert lead[0] == 3 - 1 and lead[1] == 0 - 3 and lead[2] == lead[3] == 1 - 3


def test_the_search_moves_from_the_start_are_legal_for_every_first_colour() -> None:
    for first in range(4):
        board = MultiBoard("rolit", first=first)
        move = make_multi_player("search", seed=1).choose(board)
        assert move in board.legal_moves()


@pytest.mark.parametrize(("spec", "message"), [
    ("chess", "no multi-player program 'chess'"),
    ("paranoid:0", "depth is 1..8"),
    ("maxn:x", "depth is 1..8"),
    ("greedy:2", "no multi-player program"),
])
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        make_multi_player(spec)


def test_a_finished_game_has_no_move_to_choose() -> None:
    board = MultiBoard("rolit", players=2)
    play_out(board, {c: make_multi_player("random", seed=c) for c in board.seats})
    with pytest.raises(InvalidOptionError, match="the game is over"):
        GreedyMulti(0).choose(board)


def test_the_benchmark_tallies_every_seat() -> None:
    """``benchmarks/multi_players.py`` on a few games: every seat counted, the shares of
    first places summing to the games."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "multi_players.py"
    spec = importlib.util.spec_from_file_location("multi_players_benchmark", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # its dataclass looks its module up
    try:
        spec.loader.exec_module(bench)
    finally:
        del sys.modules[spec.name]
    tallies = bench.match("rolit", ["paranoid:1", "paranoid:1", "maxn:1", "maxn:1"], 6, 0)
    assert set(tallies) == {"paranoid:1", "maxn:1"}
    assert all(t.seats == 12 for t in tallies.values())
    assert abs(sum(t.wins for t in tallies.values()) - 6) < 1e-9
    assert sum(t.discs for t in tallies.values()) == 6 * 64
