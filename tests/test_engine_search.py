"""Midgame search: same scores with and without the table and move ordering, the same as
a plain fixed-depth negamax, limits that stop it, kernels that load from the cache."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from naive_search import ALL, minimax, moves, play, random_position, selective_fails_high
from numba import njit

from hasamigo import Board
from hasamigo._kernels import endgame, evaluate, hashtable, search, stability
from hasamigo._kernels.evaluate import default_params
from hasamigo._kernels.hashtable import hash_new
from hasamigo._kernels.memory import at, data_pointer
from hasamigo._kernels.patterns import N_INSTANCES, pattern_vectors, weights_address
from hasamigo._kernels.search import (
    ABORTED,
    ALL_FLAGS,
    CTL_SIZE,
    LIMIT,
    NODES,
    USE_ETC,
    USE_HASH,
    USE_ORDER,
    USE_STABILITY,
    evaluate_entry,
)
from hasamigo.engine import Engine, Limit
from hasamigo.engine.evaluation import evaluation_params
from hasamigo.engine.limits import SELECTIVITIES
from hasamigo.errors import InvalidOptionError

PARAMS = evaluation_params("trained")  # what the engine plays with
HAND = default_params()


def kernel(p: int, o: int, depth: int, flags: int = ALL_FLAGS, alpha: int = -64, beta: int = 64,
           limit: int = 0, stop: np.ndarray | None = None,
           params: np.ndarray = PARAMS) -> tuple[int, np.ndarray]:
    table = hash_new(1 << 14)
    ctl = np.zeros(CTL_SIZE, dtype=np.int64)
    ctl[LIMIT] = limit
    stop = np.zeros(1, dtype=np.int64) if stop is None else stop
    v = search.search(np.uint64(p), np.uint64(o), np.uint64(ALL), depth, alpha, beta, table,
                      1, params, stop, ctl, flags)
    return int(v), ctl


def ev(p: int, o: int, params: np.ndarray = PARAMS) -> int:
    return int(evaluate_entry(np.uint64(p), np.uint64(o), np.uint64(ALL), params))


def midgame_positions(seed: int, count: int, lo: int = 20, hi: int = 50) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = random_position(rng, rng.randint(lo, hi))
        if pos is not None:
            out.append(pos)
    return out


def _one_ply(p: int, o: int) -> int:
    children = [play(p, o, sq, f) for sq, f in moves(p, o)]
    return max((-ev(*c) for c in children), default=ev(p, o))


def _two_ply(p: int, o: int) -> int:
    """The ordering's two-ply score, plainly: a pass at the root costs no ply, a pass of
    the reply is scored by the evaluation after it."""
    if not moves(p, o):
        return -_one_ply(o, p)
    best = -1000
    for sq, f in moves(p, o):
        child = play(p, o, sq, f)
        replies = [play(*child, s2, f2) for s2, f2 in moves(*child)]
        best = max(best, min((ev(*g) for g in replies), default=ev(child[1], child[0])))
    return best


@njit
def _reply_scores(p, o, legal, params, pat, vec):  # type: ignore[no-untyped-def]
    """The ordering's one- and two-ply scores of ``(p, o)``, from its pattern indices
    (read into ``vec``) with ``pat``, else from each leaf's board."""
    w = weights_address(params)
    q = data_pointer(vec)
    x, y = at(q, 0), at(q, N_INSTANCES)
    if pat:
        pattern_vectors(p, o, x, y)
    two = search._reply_score2(p, o, legal, search.FULL_BOARD, w, params.shape[0], pat, x,
                               at(q, 2 * N_INSTANCES), at(q, 3 * N_INSTANCES))
    one = search._reply_score(p, o, legal, search.FULL_BOARD, w, params.shape[0], pat, y,
                              at(q, 2 * N_INSTANCES))
    return one, two


def test_the_orderings_one_and_two_ply_scores_are_plain_searches() -> None:
    rng = random.Random(5)
    vec = np.zeros(4 * N_INSTANCES, dtype=np.int32)
    for _ in range(25):
        pos = random_position(rng, rng.randint(14, 44))
        if pos is None:
            continue
        p, o = pos
        legal = sum(1 << sq for sq, _ in moves(p, o))
        for pat in (True, False):
            one, two = _reply_scores(np.uint64(p), np.uint64(o), np.uint64(legal), PARAMS, pat,
                                     vec)
            assert (one, two) == (_one_ply(p, o), _two_ply(p, o))
    # a side with no move: the two-ply score is the opponent's one-ply score, negated
    p, o = 0x0000000000000002, 0x0000000000000001  # b1 against a1: only a1 has c1
    for pat in (True, False):
        one, two = _reply_scores(np.uint64(p), np.uint64(o), np.uint64(0), PARAMS, pat, vec)
        assert two == _two_ply(p, o) and one == ev(p, o)
    # the reply is a pass: a1 takes b1 with c1, and white has no disc left
    p, o = 0x0000000000000001, 0x0000000000000002
    for pat in (True, False):
        one, two = _reply_scores(np.uint64(p), np.uint64(o), np.uint64(1 << 2), PARAMS, pat, vec)
        assert (one, two) == (_one_ply(p, o), _two_ply(p, o)) == (64, 64)


@pytest.mark.parametrize("params", [PARAMS, HAND], ids=["trained", "hand"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_search_equals_plain_negamax(depth: int, params: np.ndarray) -> None:
    for p, o in midgame_positions(depth, 12):
        assert kernel(p, o, depth, params=params)[0] == minimax(
            p, o, depth, lambda a, b: ev(a, b, params))


def _passing_lines(rng: random.Random, want: int) -> list[tuple[int, int]]:
    """Midgame positions with a move after which the opponent must pass and the side to
    move plays on (what a searched pass looks like near the horizon)."""
    out = []
    while len(out) < want:
        pos = random_position(rng, rng.randint(14, 30))
        if pos is None:
            continue
        p, o = pos
        for sq, f in moves(p, o):
            cp, co = play(p, o, sq, f)
            if not moves(cp, co) and moves(co, cp):
                out.append(pos)
                break
    return out


def test_passes_near_the_horizon_score_as_plain_negamax() -> None:
    """A node one ply from the horizon scores its children from pattern indices carried
    down from its parent (from one side only); when it must pass, its child reads them
    again: the scores are those of plain negamax."""
    for p, o in _passing_lines(random.Random(8), 6):
        for depth in (2, 3, 4):
            assert kernel(p, o, depth)[0] == minimax(p, o, depth, ev), (hex(p), hex(o), depth)


@pytest.mark.parametrize("params", [PARAMS, HAND], ids=["trained", "hand"])
def test_table_and_ordering_do_not_change_the_score(params: np.ndarray) -> None:
    for p, o in midgame_positions(99, 25, 14, 54):
        for depth in (1, 2, 3, 4, 5):
            ref = kernel(p, o, depth, 0, params=params)[0]
            for flags in (USE_HASH, USE_ORDER, ALL_FLAGS):
                assert kernel(p, o, depth, flags, params=params)[0] == ref, (
                    hex(p), hex(o), depth, flags)
            # a narrow window gives a correct bound
            v = kernel(p, o, depth, ALL_FLAGS, ref, ref + 1, params=params)[0]
            assert v <= ref  # exact <= alpha: a fail low
            assert kernel(p, o, depth, ALL_FLAGS, ref - 1, ref, params=params)[0] >= ref


def test_etc_does_not_change_deep_midgame_scores() -> None:
    """ETC works from depth ETC_MIN_DEPTH: the same scores with it on and off."""
    assert search.ETC_MIN_DEPTH <= 7
    for p, o in midgame_positions(41, 8, 24, 44):
        for depth in (search.ETC_MIN_DEPTH, 7):
            ref = kernel(p, o, depth, USE_HASH | USE_ORDER)[0]
            assert kernel(p, o, depth, USE_HASH | USE_ORDER | USE_ETC)[0] == ref
            assert kernel(p, o, depth, ALL_FLAGS)[0] == ref
            assert kernel(p, o, depth, USE_HASH | USE_ETC)[0] == ref  # unordered: other cuts
            assert kernel(p, o, depth, ALL_FLAGS & ~USE_STABILITY, ref, ref + 1)[0] <= ref


def test_engine_iterative_deepening_keeps_the_fixed_depth_score() -> None:
    engine = Engine(table_size=1 << 14)
    for p, o in midgame_positions(5, 6, 30, 50):
        board = Board()
        board.black, board.white = p, o
        for depth in (3, 4):
            analysis = engine.analyse(board, Limit(depth=depth))
            assert analysis.score == kernel(p, o, depth, 0)[0]
            assert analysis.depth == depth and not analysis.exact


def test_evaluation_is_bounded_and_symmetric_in_sign_of_material() -> None:
    for p, o in midgame_positions(8, 50, 0, 55):
        assert -64 <= ev(p, o) <= 64
    # one colour wiped out (no moves left for anyone) is scored exactly by the search
    assert kernel(0xFF, 0, 3)[0] == 64


def test_node_budget_and_stop_flag_abort_the_kernel() -> None:
    p, o = midgame_positions(1, 1, 40, 40)[0]
    _, ctl = kernel(p, o, 12, limit=5000)
    assert ctl[ABORTED] == 1 and ctl[NODES] < 5000 + 2048
    # the flag is polled at the first 1024 nodes: seen there, give or take the nodes of one
    # node searched in one loop (two plies from the horizon: its children and theirs)
    stop = np.ones(1, dtype=np.int64)
    _, ctl = kernel(p, o, 12, stop=stop)
    assert ctl[ABORTED] == 1 and ctl[NODES] < 1024 + 2048


def test_time_limit_and_stop_from_another_thread() -> None:
    engine = Engine(table_size=1 << 16)
    board = Board()
    t0 = time.perf_counter()
    analysis = engine.analyse(board, Limit(time=0.3))
    assert time.perf_counter() - t0 < 2.0
    assert analysis.depth >= 1 and analysis.move in board.legal_moves
    threading.Timer(0.2, engine.stop).start()
    t0 = time.perf_counter()
    analysis = engine.analyse(board, Limit(depth=40))
    assert time.perf_counter() - t0 < 2.0 and analysis.depth < 40


def test_node_limit_through_the_api() -> None:
    analysis = Engine(table_size=1 << 16).analyse(Board(), Limit(nodes=20_000))
    assert analysis.nodes < 20_000 + 2048 and analysis.depth >= 1


def test_no_kernel_signature_mentions_float64() -> None:
    """Mixing uint64 with signed ints silently gives float64 in numba: none may appear."""
    kernel(0x0000000810000000, 0x0000001008000000, 4)
    kernel(0xFFFFFFFF00FF00FF, 0x00000000FF00FF00, 64)
    ev(0x0000000810000000, 0x0000001008000000)  # entry points list their signatures
    stability.stable_discs_entry(np.uint64(0x81), np.uint64(0x7E), np.uint64(ALL))
    checked = 0
    for module in (endgame, evaluate, hashtable, search, stability):
        for name in dir(module):
            obj = getattr(module, name)
            for sig in getattr(obj, "nopython_signatures", []):
                text = str(sig)
                assert "float" not in text, f"{module.__name__}.{name}: {text}"
                checked += 1
    # entry points called from Python always list their signatures (inner kernels only
    # when compiled in this process rather than loaded from the cache)
    assert search.search.nopython_signatures and checked >= 3


FRESH = """
import numpy as np
from hasamigo import Board
from hasamigo.engine import Engine, Limit
from hasamigo.engine.evaluation import evaluation_params
board = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
a = Engine(table_size=1 << 14).solve(board)
m = Engine(table_size=1 << 14).analyse(Board(), Limit(depth=5))
print(a.move, a.score, m.depth)
"""


def test_kernels_work_when_loaded_from_the_cache_in_a_fresh_process() -> None:
    """Twice: the first run may compile and write the cache, the second loads it
    (recursive cached kernels segfaulted on load, numba #6061: ours are iterative)."""
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["g8", "18", "5"]


# ---- midgame probable cuts (selectivity) ----------------------------------------------

def selective_kernel(p: int, o: int, depth: int, alpha: int, beta: int, level: int,
                     flags: int = ALL_FLAGS) -> tuple[int, int]:
    table = hash_new(1 << 14)
    ctl = np.zeros(CTL_SIZE, dtype=np.int64)
    ctl[search.PROBCUT] = level
    v = search.search(np.uint64(p), np.uint64(o), np.uint64(ALL), depth, alpha, beta, table,
                      1, PARAMS, np.zeros(1, dtype=np.int64), ctl, flags)
    return int(v), int(ctl[NODES])


def test_selective_null_window_search_equals_the_plain_rule() -> None:
    """Without the table (whose bounds come from other windows), a null-window search with
    probable cuts answers exactly what the rule written plainly answers
    (``naive_search.selective_fails_high``): the tests run at the right nodes, with the
    fitted margin, the shallow depth and the evaluation's gate, and cut the right way."""
    level = 1  # the narrowest margin: the most cuts
    cuts = 0
    for p, o in midgame_positions(17, 5, 34, 46):
        full = kernel(p, o, 5, USE_ORDER)[0]
        for beta in range(full - 6, full + 8, 2):
            v, _ = selective_kernel(p, o, 5, beta - 1, beta, level, USE_ORDER)
            expected = selective_fails_high(
                p, o, 5, beta, lambda a, b: ev(a, b),
                lambda ne, d: int(search.probcut_margin(level, ne, d)),
                lambda d: int(search.probcut_depth(d)), search.MPC_MIN_DEPTH)
            assert (v >= beta) == expected, (hex(p), hex(o), beta)
            cuts += (v >= beta) != (full >= beta)
    assert cuts > 0, "no probable cut changed an answer: the test exercises nothing"


def test_selectivity_off_is_full_width_and_the_levels_agree() -> None:
    assert search.PROBCUT_LEVELS == SELECTIVITIES
    assert [search.probcut_depth(d) for d in (3, 4, 5, 8, 12, 13)] == [1, 0, 3, 2, 4, 5]
    # margins grow with the confidence level and never vanish
    assert all(0 < search.probcut_margin(k, 30, 10) < search.probcut_margin(k + 1, 30, 10)
               for k in range(1, search.PROBCUT_LEVELS))
    for p, o in midgame_positions(23, 6, 30, 50):
        # no node below the root is MPC_MIN_DEPTH plies from the horizon: nothing is cut
        shallow = search.MPC_MIN_DEPTH
        assert selective_kernel(p, o, shallow, -64, 64, 1)[0] == kernel(p, o, shallow)[0]


def test_selective_search_is_close_to_full_width_and_cheaper() -> None:
    """At the most confident level most scores are the full-width ones, all within a few
    discs (a little more at the two least confident levels, which cut at 1-1.5 standard
    deviations: 10 discs at worst here with evaluation v3, 8 with v2, while the levels
    3-4 stay within 4 and 6); at every level the search visits fewer nodes."""
    engine = Engine(table_size=1 << 16)
    same = 0
    nodes = [0] * (SELECTIVITIES + 1)
    positions = midgame_positions(29, 16, 28, 46)
    for p, o in positions:
        board = Board()
        board.black, board.white = p, o
        engine.clear()
        full = engine.analyse(board, Limit(depth=7))
        nodes[0] += full.nodes
        for k in range(1, SELECTIVITIES + 1):
            engine.clear()
            sel = engine.analyse(board, Limit(depth=7), selectivity=k)
            nodes[k] += sel.nodes
            assert abs(sel.score - full.score) <= (12 if k <= 2 else 8) and not sel.exact
            if k == SELECTIVITIES:
                same += sel.score == full.score
    assert same >= 0.75 * len(positions)
    assert nodes[1] < nodes[SELECTIVITIES] < nodes[0]


def test_selectivity_keeps_exact_iterations_exact_and_is_checked() -> None:
    engine = Engine(table_size=1 << 16)
    rng = random.Random(8)
    pos = None
    while pos is None:
        pos = random_position(rng, 12)
    board = Board()
    board.black, board.white = pos
    a = engine.analyse(board, Limit(depth=20), selectivity=1)
    assert a.exact and a.score == Engine(table_size=1 << 16).solve(board).score
    for bad in (-1, SELECTIVITIES + 1, 1.5, True, "2"):
        with pytest.raises(InvalidOptionError, match="selectivity"):
            engine.analyse(board, Limit(depth=3), selectivity=bad)  # type: ignore[arg-type]


@njit
def _store(table, p, o, depth, level, date, alpha, beta, score, move):  # type: ignore[no-untyped-def]
    hashtable.hash_store(data_pointer(table), table.shape[0], p, o, depth, level, date, alpha,
                         beta, score, move)


@njit
def _probe(table, p, o):  # type: ignore[no-untyped-def]
    return hashtable.hash_probe(data_pointer(table), table.shape[0], p, o)


def test_table_rows_pack_and_a_torn_row_never_matches() -> None:
    """An entry reads back as stored; a bucket is one 64-byte line; a row whose key words
    come from one store and data word from another (two threads writing at once) is not
    taken for either position."""
    table = hash_new(1 << 8)
    assert table.ctypes.data % 64 == 0 and table.shape == (1 << 8, 4)
    rng = random.Random(4)
    for _ in range(200):
        p = rng.getrandbits(64)
        o = rng.getrandbits(64) & ~p
        lo, hi = sorted((rng.randint(-64, 64), rng.randint(-64, 64)))
        depth, move, level = rng.randint(0, 60), rng.randint(-1, 64), rng.randint(0, 7)
        hashtable.hash_clear(table)
        _store(table, np.uint64(p), np.uint64(o), depth, level, 9,
               lo - 1 if lo > -64 else -65, hi + 1 if hi < 64 else 65, lo, move)
        e = _probe(table, np.uint64(p), np.uint64(o))
        assert (hashtable.entry_lower(e), hashtable.entry_depth(e), hashtable.entry_move(e),
                hashtable.entry_level(e), hashtable.entry_date(e)) == (lo, depth, move, level, 9)
        assert hashtable.hash_move(table, np.uint64(p), np.uint64(o))[0] == move
        # tear the row: another entry's data word under this position's keys
        row = int(hashtable.hash_index(np.uint64(p), np.uint64(o), table.shape[0]))
        if table[row, hashtable.DATA] == 0:
            row += 1
        other = hashtable.pack(lo, lo, depth + 1, move, 9, level)
        table[row, hashtable.DATA] = other
        assert _probe(table, np.uint64(p), np.uint64(o)) == 0
