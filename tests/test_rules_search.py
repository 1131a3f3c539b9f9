"""The engine on the rules its kernels do not know (Nip's, the ring's, 挟み碁's): exact
near the end by a plain negamax written here, the corners of each shape, and games."""

from __future__ import annotations

import functools
import random

import pytest

from hasamigo.board import Board
from hasamigo.engine.players import EnginePlayer, GreedyPlayer, plays_every_rule
from hasamigo.engine.rules_search import RulesSearch, candidate_moves, shape
from hasamigo.move import BLACK
from hasamigo.variants import find_variant

EXACT_VARIANTS = ("nip-octagon", "nip-circle", "hasegawa-8x9+one", "octagon+one")


def naive(board: Board) -> int:
    """Negamax over every complete move the rules allow (:meth:`Board.move_choices`)."""
    return _naive(type(board), board.black, board.white, board.turn)


@functools.cache
def _naive(cls: type[Board], black: int, white: int, turn: object) -> int:
    board = cls()
    board.black, board.white, board.turn = black, white, turn  # type: ignore[assignment]
    if board.is_game_over():
        outcome = board.outcome()
        assert outcome is not None
        return outcome.disc_difference * (1 if board.turn is BLACK else -1)
    best = -999
    for move in list(board.move_choices()):
        board.push(move)
        best = max(best, -_naive(cls, board.black, board.white, board.turn))
        board.pop()
    return best


def near_end(name: str, seed: int, empties: int) -> Board:
    board = find_variant(name)()
    rng = random.Random(seed)
    while board.empties.bit_count() > empties and not board.is_game_over():
        board.push(rng.choice(list(board.move_choices())))
    return board


@pytest.mark.parametrize("name", EXACT_VARIANTS)
@pytest.mark.parametrize("seed", range(4))
def test_exact_scores_are_a_plain_negamax(name: str, seed: int) -> None:
    board = near_end(name, seed, 6)
    if board.is_game_over():
        pytest.skip("the random game ended early")
    result = RulesSearch().best(board, depth=2, exact_from=8, seconds=60)
    if len(list(board.move_choices())) > 1:
        assert result.exact and result.score == naive(board)
        after = board.copy()
        after.push(result.move)
        assert -naive(after) == naive(board)  # the move it chose keeps the value


def test_candidates_under_choose_are_all_and_each_single_disc() -> None:
    board = find_variant("standard+choose")()
    for move in ["f5", "f6", "e6", "f4", "e3"]:
        board.play(move)
    for move in candidate_moves(board):
        assert board.is_legal(move)
        bracketed = board.flips(type(move)(move.square))
        assert move.turned is None or (move.turned.bit_count() == 1
                                       and move.turned & bracketed == move.turned)


def test_corners_follow_the_shape() -> None:
    names = {name: sorted(find_variant(name).square_name(sq)
                          for sq in shape(find_variant(name)).corners)
             for name in ("standard", "octagon", "nip-circle", "hasegawa-8x9")}
    assert names["standard"] == ["a1", "a8", "h1", "h8"]
    assert names["octagon"] == ["a3", "a6", "c1", "c8", "f1", "f8", "h3", "h6"]
    assert names["nip-circle"] == []  # every edge point is on the ring: no corner
    assert len(names["hasegawa-8x9"]) == 4


@pytest.mark.parametrize("name", ["nip-circle", "hasegawa-8x9+one", "octagon+choose"])
def test_the_engine_beats_greedy_by_the_rules(name: str) -> None:
    """engine:5 against greedy, a game with each colour: it plays by the rules (every
    move legal) and wins both."""
    assert plays_every_rule("engine:5")
    wins = 0
    for colour in (0, 1):
        engine, greedy = EnginePlayer(5, seed=1), GreedyPlayer(seed=1)
        board = find_variant(name)()
        while not board.is_game_over():
            mover = engine if board.ply % 2 == colour else greedy
            move = mover.choose(board)
            if mover is engine and len(list(board.legal_moves)) > 1:
                assert "by the rules of" in (engine.last_reason or "")
            board.push(move)
        outcome = board.outcome()
        assert outcome is not None
        wins += (outcome.disc_difference > 0) == (colour == 0) and outcome.disc_difference != 0
    assert wins == 2


@pytest.mark.parametrize("name", ["nip-circle", "hasegawa-8x9+one"])
def test_the_engines_analysis_on_these_rules(name: str) -> None:
    """Engine.analyse/hints/solve answer on these boards too (hints, the graph, review):
    exact near the end, each move's score a plain negamax's."""
    from hasamigo.engine import Engine, Limit

    board = near_end(name, 11, 5)
    if board.is_game_over() or board.must_pass():
        pytest.skip("no choice here")
    engine = Engine()
    lines = engine.hints(board, Limit(depth=64))
    assert {line.move for line in lines} == set(board.move_choices())
    for line in lines:
        after = board.copy()
        after.push(line.move)
        assert line.score == -naive(after)
    solved = engine.solve(board)
    assert solved.exact and solved.score == naive(board)
    shallow = engine.analyse(find_variant(name)(), Limit(depth=2))
    assert not shallow.exact and shallow.depth == 2
