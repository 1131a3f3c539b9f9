"""The exact endgame solver against known answers (FFO) and a naive negamax."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from naive_search import ALL, empties, moves, negamax, play, random_position

from hasamigo import Board, Move
from hasamigo._kernels import search as search_module
from hasamigo._kernels.endgame import SHALLOW_MAX, solve_small_entry
from hasamigo._kernels.hashtable import hash_new
from hasamigo._kernels.search import (
    ALL_FLAGS,
    CTL_SIZE,
    NODES,
    USE_ETC,
    USE_HASH,
    USE_ORDER,
    USE_STABILITY,
    search,
)
from hasamigo.engine import Engine, Limit, read_obf, solve_obf_file
from hasamigo.engine.evaluation import evaluation_params

FFO = Path(__file__).parent / "data" / "ffo"
PARAMS = evaluation_params("trained")  # the ordering the engine uses
STOP = np.zeros(1, dtype=np.int64)


def kernel_solve(p: int, o: int, alpha: int = -64, beta: int = 64, flags: int = ALL_FLAGS,
                 mask: int = ALL, table: np.ndarray | None = None) -> int:
    rows = table if table is not None else hash_new(1 << 12)
    ctl = np.zeros(CTL_SIZE, dtype=np.int64)
    v = search(np.uint64(p), np.uint64(o), np.uint64(mask), 64, alpha, beta, rows, 1,
               PARAMS, STOP, ctl, flags)
    assert ctl[NODES] > 0
    return int(v)


def in_window(v: int, exact: int, alpha: int, beta: int) -> bool:
    """Fail-soft contract: exact inside the window, a correct bound outside."""
    if exact <= alpha:
        return v <= alpha and v >= exact
    if exact >= beta:
        return v >= beta and v <= exact
    return v == exact


def windows(exact: int) -> list[tuple[int, int]]:
    return [(-64, 64), (exact - 1, exact + 1), (exact, exact + 1), (exact - 1, exact), (-1, 1),
            (exact + 2, exact + 6), (exact - 6, exact - 2)]


# ---- known answers ---------------------------------------------------------------


def test_ffo_1_19_scores_and_best_moves() -> None:
    result = solve_obf_file(FFO / "fforum-1-19.obf", "exact")
    assert [p["index"] for p in result["positions"]] == list(range(1, 20))
    bad = [p for p in result["positions"] if not p["ok"]]
    assert not bad
    assert result["all_ok"] and result["total_seconds"] > 0


def test_ffo_1_19_win_loss_draw() -> None:
    result = solve_obf_file(FFO / "fforum-1-19.obf", "wld")
    assert result["all_ok"]
    assert all(p["score"] in (-1, 0, 1) for p in result["positions"])


@pytest.mark.slow
def test_ffo_20_39() -> None:
    result = solve_obf_file(FFO / "fforum-20-39.obf", "exact")
    assert [p for p in result["positions"] if not p["ok"]] == []


def test_parity_example_a1_is_best() -> None:
    """偶数理論 (parity): White to move; a1 leaves an even region upper-left (wikipedia ja)."""
    board = Board("--X--XXX" "X-XXXOOO" "OOOOOOOO" "OOXOOXXO" "OOOXOXXO" "OOXOXXXO"
                  "OXXXXXOO" "XXXXXXXO" " O")
    engine = Engine(table_size=1 << 12)
    analysis = engine.solve(board)
    assert analysis.move == Move.from_str("a1")
    assert analysis.exact and analysis.pv[0] == analysis.move
    hints = engine.hints(board, Limit(depth=64))
    assert hints[0].move == Move.from_str("a1")
    assert hints[0].score > hints[1].score  # the only best move


# ---- against the naive negamax ------------------------------------------------------


def test_small_solvers_match_negamax_on_random_positions() -> None:
    """Thousands of random positions with 0-7 empties, every window."""
    rng = random.Random(20240601)
    checked = 0
    while checked < 2000:
        pos = random_position(rng, rng.randint(0, 7))
        if pos is None:
            continue
        p, o = pos
        exact = negamax(p, o)
        for alpha, beta in windows(exact)[: 3 if checked % 4 else 7]:
            v, _nodes = solve_small_entry(np.uint64(p), np.uint64(o), np.uint64(ALL), alpha, beta)
            assert in_window(int(v), exact, alpha, beta), (hex(p), hex(o), exact, alpha, beta, v)
        checked += 1


def _fastest_first(p: int, o: int) -> tuple[int, int, int]:
    """The move the 7 empties solver tries first: fewest opponent replies, a square in a
    quadrant with an odd number of empties first among equals, then the lower square.
    Returns it and the child position."""
    empty = empties(p, o)
    best: tuple[tuple[int, int], int, int] | None = None
    for sq, f in moves(p, o):
        quadrant = [e for e in empty
                    if (e // 8 < 4) == (sq // 8 < 4) and (e % 8 < 4) == (sq % 8 < 4)]
        cp, co = play(p, o, sq, f)
        key = (2 * len(moves(cp, co)) + (0 if len(quadrant) % 2 else 1), sq)
        if best is None or key < best[0]:
            best = (key, cp, co)
    assert best is not None
    return best[0][1], best[1], best[2]


def test_seven_empties_solver_tries_the_fastest_first_move_first() -> None:
    """Against a null window just below the score of the move that leaves the opponent the
    fewest replies, the 7 empties solver searches that child and stops: its nodes are one
    more than that child's own solve."""
    rng = random.Random(20261207)
    checked = 0
    while checked < 150:
        pos = random_position(rng, 7)
        if pos is None or len(empties(*pos)) != 7 or len(moves(*pos)) < 2:
            continue
        p, o = pos
        sq, cp, co = _fastest_first(p, o)
        v = -negamax(cp, co)
        alpha = v - 1
        score, nodes = solve_small_entry(np.uint64(p), np.uint64(o), np.uint64(ALL), alpha,
                                         alpha + 1)
        _child, child_nodes = solve_small_entry(np.uint64(cp), np.uint64(co), np.uint64(ALL),
                                                -alpha - 1, -alpha)
        assert int(score) > alpha, (hex(p), hex(o), sq)
        assert int(nodes) == 1 + int(child_nodes), (hex(p), hex(o), sq)
        checked += 1


def test_search_kernel_matches_negamax_up_to_10_empties() -> None:
    rng = random.Random(7)
    table = hash_new(1 << 14)  # shared on purpose: stale entries must never mislead
    checked = 0
    while checked < 60:
        pos = random_position(rng, rng.randint(5, 10))
        if pos is None:
            continue
        p, o = pos
        exact = negamax(p, o)
        for flags in (ALL_FLAGS, 0, USE_HASH, USE_ORDER, USE_STABILITY, USE_HASH | USE_ETC):
            for alpha, beta in windows(exact)[:5]:
                v = kernel_solve(p, o, alpha, beta, flags, table=table)
                assert in_window(v, exact, alpha, beta), (hex(p), hex(o), exact, alpha, beta, v)
        checked += 1


def test_frameless_nodes_above_the_solvers_match_negamax() -> None:
    """Null-window exact nodes of ``SHALLOW_MAX + 1`` and ``SHALLOW_MAX + 2`` empties are
    searched without a frame, and so is the opponent's node after such a node's pass: at
    every null window around the score and every switch setting, one table shared, each
    agrees with negamax (a side that must pass, and one that need not, at both sizes)."""
    rng = random.Random(88)
    found = dict.fromkeys([(n, must) for n in (1, 2) for must in (False, True)], 0)
    settings = (ALL_FLAGS, 0, USE_HASH, USE_ORDER, USE_STABILITY, USE_HASH | USE_STABILITY)
    while min(found.values()) < 8:
        n = rng.randint(1, 2)
        pos = random_position(rng, SHALLOW_MAX + n)
        if pos is None:
            continue
        p, o = pos
        kind = (n, not moves(p, o))
        if found[kind] >= 8 or not moves(o, p):
            continue
        found[kind] += 1
        exact = negamax(p, o)
        table = hash_new(1 << 10)
        for flags in settings:
            for alpha in range(exact - 3, exact + 3):
                v = kernel_solve(p, o, alpha, alpha + 1, flags, table=table)
                assert in_window(v, exact, alpha, alpha + 1), (hex(p), hex(o), exact, alpha, v)


def test_stability_and_etc_keep_exact_scores_and_bounds() -> None:
    """Positions deep enough for both features (ETC from ETC_MIN_EMPTIES empties, the
    stability cutoff from STABILITY_MIN_EMPTIES): every switch setting agrees."""
    assert search_module.ETC_MIN_EMPTIES <= 13 and search_module.STABILITY_MIN_EMPTIES <= 13
    rng = random.Random(17)
    settings = (USE_HASH | USE_ORDER | USE_STABILITY, USE_HASH | USE_ORDER | USE_ETC, ALL_FLAGS,
                USE_HASH | USE_ETC | USE_STABILITY)
    checked = 0
    while checked < 12:
        pos = random_position(rng, rng.randint(12, 14))
        if pos is None:
            continue
        p, o = pos
        exact = kernel_solve(p, o, flags=USE_HASH | USE_ORDER, table=hash_new(1 << 16))
        for flags in settings:
            table = hash_new(1 << 16)
            for alpha, beta in windows(exact):
                v = kernel_solve(p, o, alpha, beta, flags, table=table)
                assert in_window(v, exact, alpha, beta), (hex(p), hex(o), exact, alpha, beta, v)
        checked += 1


def test_every_move_score_matches_negamax() -> None:
    rng = random.Random(11)
    engine = Engine(table_size=1 << 12)
    checked = 0
    while checked < 12:
        pos = random_position(rng, 9)
        if pos is None or not moves(*pos):
            continue
        p, o = pos
        board = Board()
        board.black, board.white = p, o  # black to move in this synthetic board
        want = {Move(sq): -negamax(*play(p, o, sq, f)) for sq, f in moves(p, o)}
        got = {line.move: line.score for line in engine.hints(board, Limit(depth=64))}
        assert got == want
        solved = engine.solve(board)
        assert solved.score == max(want.values()) and want[solved.move] == solved.score
        checked += 1


def test_forced_pass_at_the_root_and_finished_games() -> None:
    rng = random.Random(5)
    engine = Engine(table_size=1 << 10)
    found = 0
    while found < 10:
        pos = random_position(rng, rng.randint(3, 9))
        if pos is None or moves(*pos) or not moves(pos[1], pos[0]):
            continue
        p, o = pos
        exact = negamax(p, o)
        assert kernel_solve(p, o) == exact
        board = Board()
        board.black, board.white = p, o
        assert board.must_pass()
        solved = engine.solve(board)
        assert solved.move.is_pass and solved.score == exact
        found += 1
    with pytest.raises(ValueError, match="over"):
        engine.solve(Board("X" * 64 + " X"))
    assert kernel_solve(0xFFFF, 0) == 64  # one colour wiped out: the empties to the winner


def test_other_board_shapes_match_negamax() -> None:
    """The solver respects the geometry mask: 6×6 positions from random play."""
    from hasamigo.variants import find_variant

    cls = find_variant("6x6")
    mask = cls.playable()
    board = cls()
    start = (board.black, board.white)
    rng = random.Random(3)
    checked = 0
    while checked < 40:
        pos = random_position(rng, rng.randint(4, 9), start=start, mask=mask)
        if pos is None:
            continue
        p, o = pos
        assert kernel_solve(p, o, mask=mask) == negamax(p, o, mask)
        checked += 1


def test_read_obf_numbers_from_the_file_name() -> None:
    records = read_obf(FFO / "fforum-20-39.obf")
    assert records[0].index == 20 and records[-1].index == 39
    assert records[0].best_score == 6 and Move.from_str("h5") in records[0].best_moves
