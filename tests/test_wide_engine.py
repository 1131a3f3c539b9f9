"""The strong engine on the 10-column grid (Grand Othello, Eight Stars, Hasegawa's boards):
the wide search kernel against slow references (``naive_wide_search.py``), the evaluation's
corners per shape, and the engine's API and players on every wide board."""

from __future__ import annotations

import os
import random
import textwrap

import naive_wide_search as nw
import numpy as np
import pytest
from numba import njit, types

from hasamigo import find_variant
from hasamigo._kernels import wide_search as ws
from hasamigo._kernels.evaluate import default_params
from hasamigo._kernels.wide import split
from hasamigo.engine import Engine, Limit
from hasamigo.engine.limits import LEVELS, WIDE_LEVELS
from hasamigo.engine.players import make_player, plays_every_grid

WIDE = ["grand", "eight-stars", "hasegawa-8x9", "hasegawa-9x10"]
PARAMS = default_params()
NO_STOP = np.zeros(1, dtype=np.int64)


def start(name: str) -> tuple[int, int, int]:
    board = find_variant(name)()
    return board.black, board.white, board.playable()


def kernel(p: int, o: int, mask: int, depth: int, alpha: int, beta: int,
           flags: int = ws.ALL_FLAGS, limit: int = 0) -> tuple[int, np.ndarray]:
    """The wide search with a fresh table: ``(score, ctl)``."""
    keys, vals = ws.table_new(1 << 12)
    ctl = np.zeros(ws.CTL_SIZE, dtype=np.int64)
    ctl[ws.LIMIT] = limit
    v = ws.search(*split(p), *split(o), ws.geometry(mask), depth, alpha, beta, keys, vals, 1,
                  PARAMS, NO_STOP, ctl, flags)
    return int(v), ctl


def positions(name: str, max_empties: int, count: int, seed: int) -> list[tuple[int, int]]:
    black, white, mask = start(name)
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < count:
        pos = nw.random_position(rng, (black, white), mask, rng.randint(1, max_empties))
        if pos is not None:
            out.append(pos)
    return out


def fail_soft_holds(v: int, exact: int, alpha: int, beta: int) -> bool:
    """The fail-soft contract: exact inside the window, a true bound outside it."""
    if v <= alpha:
        return exact <= v
    if v >= beta:
        return exact >= v
    return v == exact


# ---- geometry: where the corners are ----------------------------------------------------


@pytest.mark.parametrize(("name", "corners"), [
    ("grand", ["a1", "j1", "a10", "j10"]),
    ("eight-stars", ["c1", "h1", "a3", "j3", "a8", "j8", "c10", "h10"]),
    ("hasegawa-8x9", ["a1", "i1", "a8", "i8"]),
    ("hasegawa-9x10", ["a1", "j1", "a9", "j9"]),
])
def test_corners_of_every_shape(name: str, corners: list[str]) -> None:
    variant = find_variant(name)
    found = ws.corners_of(variant.playable())
    assert sorted(found) == sorted(variant.parse_square(c) for c in corners)


def test_x_and_c_squares_of_an_octagon_corner() -> None:
    variant = find_variant("eight-stars")
    geo = ws.geometry(variant.playable())
    sq = variant.parse_square
    c1 = [k for k in range(ws.G_FIRST, geo.shape[0], 3) if geo[k, 0] == np.uint64(1 << sq("c1"))]
    assert len(c1) == 1
    x = int(geo[c1[0] + 1, 0]) | int(geo[c1[0] + 1, 1]) << 64
    c = int(geo[c1[0] + 2, 0]) | int(geo[c1[0] + 2, 1]) << 64
    assert x == (1 << sq("b2")) | (1 << sq("d2"))
    assert c == (1 << sq("d1")) | (1 << sq("c2"))


# ---- the search kernel against the references ------------------------------------------


@pytest.mark.parametrize("name", WIDE)
def test_exact_scores_match_negamax_in_every_window(name: str) -> None:
    mask = start(name)[2]
    for p, o in positions(name, 7, 6, seed=len(name)):
        exact = nw.negamax(p, o, mask)
        for alpha, beta in [(-101, 101), (exact - 1, exact + 1), (exact, exact + 1),
                            (exact - 1, exact), (exact + 3, exact + 9), (exact - 9, exact - 2),
                            (-2, 2)]:
            for flags in (ws.ALL_FLAGS, 0):
                v, _ctl = kernel(p, o, mask, 100, alpha, beta, flags)
                assert fail_soft_holds(v, exact, alpha, beta), (p, o, alpha, beta, v, exact)


@pytest.mark.slow
def test_exact_scores_match_negamax_at_ten_empties() -> None:
    mask = start("grand")[2]
    for p, o in positions("grand", 10, 4, seed=10):
        exact = nw.negamax(p, o, mask)
        assert kernel(p, o, mask, 100, -101, 101)[0] == exact
        assert fail_soft_holds(kernel(p, o, mask, 100, exact, exact + 1)[0], exact,
                               exact, exact + 1)


@pytest.mark.parametrize("name", ["grand", "eight-stars"])
def test_midgame_scores_match_minimax_over_the_same_evaluation(name: str) -> None:
    black, white, mask = start(name)
    geo = ws.geometry(mask)

    def evaluate(p: int, o: int) -> int:
        return int(ws.evaluate_entry(*split(p), *split(o), geo, PARAMS))

    rng = random.Random(7)
    checked = 0
    for max_empties in (80, 60, 40, 20):
        pos = nw.random_position(rng, (black, white), mask, max_empties)
        if pos is None:
            continue
        p, o = pos
        for depth in (1, 2, 3):
            want = nw.minimax(p, o, depth, evaluate, mask)
            for flags in (ws.ALL_FLAGS, 0):
                assert kernel(p, o, mask, depth, -1000, 1000, flags)[0] == want
                v, _ = kernel(p, o, mask, depth, want, want + 1, flags)
                assert fail_soft_holds(v, want, want, want + 1)
            checked += 1
    assert checked >= 9


def test_the_evaluation_scores_a_finished_game_exactly() -> None:
    mask = start("grand")[2]
    full = mask & ~(1 << 0)  # every square black but a1 (empty): black wins 99-0 + 1
    assert ws.evaluate_entry(*split(full), *split(0), ws.geometry(mask), PARAMS) == 100
    assert ws.evaluate_entry(*split(0), *split(full), ws.geometry(mask), PARAMS) == -100


def test_the_node_budget_stops_the_kernel() -> None:
    black, white, mask = start("grand")
    v, ctl = kernel(black, white, mask, 12, -1000, 1000, limit=3000)
    assert ctl[ws.ABORTED] == 1 and v == 0
    assert 3000 <= ctl[ws.NODES] < 3000 + 1100


def test_the_stop_flag_stops_the_kernel() -> None:
    black, white, mask = start("grand")
    keys, vals = ws.table_new(1 << 10)
    ctl = np.zeros(ws.CTL_SIZE, dtype=np.int64)
    stop = np.ones(1, dtype=np.int64)
    ws.search(*split(black), *split(white), ws.geometry(mask), 12, -1000, 1000, keys, vals, 1,
              PARAMS, stop, ctl, ws.ALL_FLAGS)
    assert ctl[ws.ABORTED] == 1 and ctl[ws.NODES] <= 1100


# ---- compiled code: no float64; the pure-Python path ------------------------------------

W = types.uint64
GEO = types.Array(types.uint64, 2, "C")
PAR = types.Array(types.int16, 1, "C")
I1 = types.Array(types.int64, 1, "C")
SIGNATURES = [
    (ws.evaluate, (W, W, W, W, GEO, PAR)),
    (ws.search, (W, W, W, W, GEO, types.int64, types.int64, types.int64, GEO,
                 types.Array(types.int64, 2, "C"), types.int64, PAR, I1, I1, types.int64)),
    (ws.table_move, (GEO, types.Array(types.int64, 2, "C"), W, W, W, W)),
]


@pytest.mark.parametrize(("dispatcher", "signature"), SIGNATURES,
                         ids=[d.__name__ for d, _ in SIGNATURES])
def test_wide_search_kernels_have_no_float64(dispatcher, signature) -> None:  # type: ignore[no-untyped-def]
    fresh = njit(nogil=True)(dispatcher.py_func)
    fresh.compile(signature)
    for cres in fresh.overloads.values():
        typemap = cres.type_annotation.typemap
        assert typemap
        assert {v: t for v, t in typemap.items() if "float" in str(t)} == {}
        assert "float" not in str(cres.signature.return_type)


NO_JIT_SCRIPT = textwrap.dedent(
    """
    import random, sys
    sys.path.insert(0, sys.argv[1])
    import numpy as np
    import naive_wide_search as nw
    from hasamigo import find_variant
    from hasamigo._kernels import wide_search as ws
    from hasamigo._kernels.evaluate import default_params
    from hasamigo._kernels.wide import split

    params = default_params()
    rng = random.Random(3)
    checked = 0
    for name in ("grand", "eight-stars"):
        board = find_variant(name)()
        mask = board.playable()
        geo = ws.geometry(mask)
        while checked < (3 if name == "grand" else 6):
            pos = nw.random_position(rng, (board.black, board.white), mask, 5)
            if pos is None:
                continue
            p, o = pos
            keys, vals = ws.table_new(1 << 8)
            ctl = np.zeros(ws.CTL_SIZE, dtype=np.int64)
            stop = np.zeros(1, dtype=np.int64)
            v = ws.search(*split(p), *split(o), geo, 100, -101, 101, keys, vals, 1, params,
                          stop, ctl, ws.ALL_FLAGS)
            assert v == nw.negamax(p, o, mask), name
            keys, vals = ws.table_new(1 << 8)  # a fresh table: no deeper scores in it
            v2 = ws.search(*split(p), *split(o), geo, 2, -1000, 1000, keys, vals, 2, params,
                           stop, ctl, ws.ALL_FLAGS)
            ev = lambda a, b: int(ws.evaluate_entry(*split(a), *split(b), geo, params))
            assert v2 == nw.minimax(p, o, 2, ev, mask), name
            ws.table_move(keys, vals, *split(p), *split(o))
            checked += 1
    b = find_variant("grand")()
    keys, vals = ws.table_new(1 << 8)
    ctl = np.zeros(ws.CTL_SIZE, dtype=np.int64)
    ws.search(*split(b.black), *split(b.white), ws.geometry(b.playable()), 4, -1000, 1000,
              keys, vals, 1, params, np.zeros(1, dtype=np.int64), ctl, ws.ALL_FLAGS)
    print("checked", checked)
    """
)


def test_wide_search_logic_without_jit() -> None:
    """The kernels' Python source run as plain Python (coverage sees the kernel logic)."""
    from test_kernels import run_python

    out = run_python(NO_JIT_SCRIPT, os.path.dirname(__file__), env={"NUMBA_DISABLE_JIT": "1"})
    assert "checked 6" in out


# ---- the engine's API on wide boards -----------------------------------------------------


def midgame(name: str, empties: int, seed: int = 1):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    board = find_variant(name)()
    while board.empties.bit_count() > empties and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


def replay_is_legal(board, pv) -> bool:  # type: ignore[no-untyped-def]
    work = board.copy()
    for move in pv:
        if not work.is_legal(move):
            return False
        work.push(move)
    return True


@pytest.mark.parametrize("name", WIDE)
def test_analyse_hints_and_solve_on_wide_boards(name: str) -> None:
    engine = Engine(table_size=1 << 14)
    board = midgame(name, 40)
    a = engine.analyse(board, Limit(depth=4))
    assert a.depth == 4 and not a.exact and board.is_legal(a.move)
    assert replay_is_legal(board, a.pv)
    hints = engine.hints(board, Limit(depth=2))
    assert sorted(h.move.square or -1 for h in hints) == sorted(
        m.square or -1 for m in board.legal_moves)
    assert [h.score for h in hints] == sorted((h.score for h in hints), reverse=True)
    end = midgame(name, 9)
    if end.is_game_over():
        return
    s = engine.solve(end, "exact")
    assert s.exact and replay_is_legal(end, s.pv)
    p, o = (end.black, end.white) if end.turn.value == "black" else (end.white, end.black)
    assert s.score == nw.negamax(p, o, end.playable())
    w = engine.solve(end, "wld")
    assert w.score == (s.score > 0) - (s.score < 0)


def test_the_node_limit_holds_on_grand() -> None:
    engine = Engine(table_size=1 << 14)
    a = engine.analyse(midgame("grand", 60), Limit(nodes=20_000))
    assert 1 <= a.depth < 60 and a.nodes <= 20_000 + 1100


def test_evaluate_on_a_wide_board() -> None:
    engine = Engine(table_size=1 << 10)
    assert engine.evaluate(find_variant("grand")()) == engine.evaluate(find_variant("grand")())
    assert -100 <= engine.evaluate(midgame("eight-stars", 50)) <= 100


# ---- players -----------------------------------------------------------------------------


def test_engine_players_declare_every_grid() -> None:
    assert plays_every_grid("engine:5") and plays_every_grid("engine:top")
    assert plays_every_grid("weakest")
    assert set(WIDE_LEVELS) == set(LEVELS)
    assert all(WIDE_LEVELS[n].depth <= LEVELS[n].depth for n in LEVELS)


@pytest.mark.parametrize("name", WIDE)
def test_engine_players_play_whole_games(name: str) -> None:
    board = find_variant(name)()
    black, white = make_player("engine:2", seed=1), make_player("weakest", seed=2)
    while not board.is_game_over():
        player = black if board.turn.value == "black" else white
        move = player.choose(board)
        assert board.is_legal(move)
        board.push(move)
    assert board.outcome() is not None


def test_engine_beats_random_on_grand() -> None:
    wins = 0
    for game in range(4):
        board = find_variant("grand")()
        engine, rnd = make_player("engine:3", seed=game), make_player("random", seed=100 + game)
        engine_colour = "black" if game % 2 == 0 else "white"
        while not board.is_game_over():
            player = engine if board.turn.value == engine_colour else rnd
            board.push(player.choose(board))
        black, white = board.counts()
        wins += (black > white) if engine_colour == "black" else (white > black)
    assert wins >= 3
