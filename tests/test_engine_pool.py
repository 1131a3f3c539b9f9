"""The engine pool and the evaluation of a line (:mod:`hasamigo.engine.pool`): each
position's score is the engine's own, from the point of view asked for; a pass and the
end of the game are positions of the line like the others; engines are kept and reused."""

from __future__ import annotations

import random
import threading

import pytest

from hasamigo.board import Board
from hasamigo.engine import Engine, Limit
from hasamigo.engine.pool import (
    EnginePool,
    Evaluation,
    EvaluationCache,
    evaluate_line,
    evaluate_position,
)
from hasamigo.move import BLACK, WHITE

DEPTH = 2


def played(seed: int, plies: int = 99) -> Board:
    """A random game of ``plies`` moves at most (seed 2: a pass at ply 58, then the end)."""
    rng = random.Random(seed)
    board = Board()
    while not board.is_game_over() and len(board.move_stack) < plies:
        board.push(rng.choice(list(board.legal_moves)))
    return board


def direct(board: Board, depth: int) -> tuple[int, bool]:
    """The position's score for the side to move, by a fresh engine."""
    found = Engine(table_size=1 << 12).analyse(board, Limit(depth=depth))
    return found.score, found.exact


@pytest.mark.parametrize("view", [BLACK, WHITE, None])
def test_each_position_is_the_engines_score_from_the_point_of_view(view: object) -> None:
    board = played(1, plies=12)
    scores = evaluate_line(board, DEPTH, view, engine=Engine(table_size=1 << 12))  # type: ignore[arg-type]
    assert len(scores) == 13
    position = board.root()
    for ply, got in enumerate(scores):
        if ply:
            position.push(board.move_stack[ply - 1])
        score, exact = direct(position, DEPTH)
        viewer = position.turn if view is None else view
        assert got == Evaluation(score if position.turn is viewer else -score, exact)


def test_a_pass_and_the_end_of_the_game_are_positions_of_the_line() -> None:
    board = played(2)
    moves = board.move_stack
    assert board.is_game_over() and moves[58].is_pass
    black = evaluate_line(board, 1, BLACK)
    white = evaluate_line(board, 1, WHITE)
    mover = evaluate_line(board, 1, None)
    assert len(black) == len(moves) + 1
    assert [e.score for e in white] == [-e.score for e in black]
    outcome = board.outcome()
    assert outcome is not None
    assert black[-1] == Evaluation(outcome.disc_difference, True)
    assert mover[-1].score == (outcome.disc_difference if board.turn is BLACK
                               else -outcome.disc_difference)
    # the position after the pass: the other side to move, searched as any other
    after = board.root()
    for move in moves[:59]:
        after.push(move)
    score, _exact = direct(after, 1)
    assert black[59].score == (score if after.turn is BLACK else -score)
    assert board.move_stack == moves and board.is_game_over()  # left as it was


def test_a_finished_position_alone_is_its_result() -> None:
    board = Board.from_string("X" * 61 + "OOO O")
    assert evaluate_position(Engine(table_size=1 << 10), board, 8, WHITE) == \
        Evaluation(-(board.outcome().disc_difference), True)  # type: ignore[union-attr]


class Refusing(Engine):
    def analyse(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
        raise AssertionError("the cache should have answered")


def test_the_cache_answers_positions_seen_at_the_same_depth_and_view() -> None:
    board = played(3, plies=6)
    cache = EvaluationCache(entries=100)
    first = evaluate_line(board, DEPTH, BLACK, cache=cache)
    assert len(cache) == 7
    refusing = Refusing(table_size=1 << 10)
    assert evaluate_line(board, DEPTH, BLACK, engine=refusing, cache=cache) == first
    with pytest.raises(AssertionError):  # another point of view is not the same entry
        evaluate_line(board, DEPTH, WHITE, engine=refusing, cache=cache)
    small = EvaluationCache(entries=3)
    evaluate_line(board, DEPTH, BLACK, cache=small)
    assert len(small) == 3  # the oldest went out


def test_the_pool_lends_each_engine_to_one_thread_and_keeps_it() -> None:
    pool = EnginePool(table_size=1 << 10)
    with pool.engine() as first, pool.engine() as second:  # busy: another one
        assert second is not first
    with pool.engine() as again:
        assert again in (first, second)
    seen: list[Engine] = []
    barrier = threading.Barrier(2)

    def borrow() -> None:
        with pool.engine() as engine:
            barrier.wait()
            seen.append(engine)

    threads = [threading.Thread(target=borrow) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(map(id, seen)) == {id(first), id(second)}  # no third one made
    pool.cancel()
    assert all(engine._cancelled for engine in seen)


def test_the_pools_line_is_the_functions() -> None:
    board = played(4, plies=8)
    pool = EnginePool(table_size=1 << 12)
    assert pool.evaluate_line(board, DEPTH, WHITE) == evaluate_line(
        board, DEPTH, WHITE, engine=Engine(table_size=1 << 12))
