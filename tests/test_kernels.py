"""The compiled kernels and the Board layer against the slow reference in ``naive.py``.

Positions come two ways: random legal playouts (reachable positions) on 8×8, 6×6, 4×4 and
the octagon, and arbitrary disjoint black/white masks inside the playable shape.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit, types
from numba.core.errors import TypingError

from hasamigo import Board, Move, find_variant
from hasamigo._kernels import moves as kernels

U64 = np.uint64
VARIANT_NAMES = sorted(naive.FRAMES)
SLOW_DATA = [HealthCheck.too_slow, HealthCheck.data_too_large]


# Square-by-square mixes: sparse boards, dense ones, and long runs of one colour (the
# shift-based move generator has separate steps for runs of 1-2, 3-4 and 5-6 discs).
POOLS = ["BW-", "BW", "BWW---", "BBW---------", "BW--------------", "BWWWWWW--", "BBBBBBW--"]


# ---- strategies ----------------------------------------------------------------------


@st.composite
def reachable_positions(draw: st.DrawFn) -> tuple[str, list, str]:
    """(variant name, cells, colour to move) after a random legal playout from the start."""
    name = draw(st.sampled_from(VARIANT_NAMES))
    playable = naive.FRAMES[name][2]
    cells = naive.start_cells(playable)
    colour = naive.BLACK_DISC
    length = draw(st.integers(0, 64))
    rng = draw(st.randoms(use_true_random=False))
    for _ in range(length):
        moves = naive.legal_moves(cells, colour)
        if moves:
            cells = naive.apply_move(cells, colour, rng.choice(moves))
        elif not naive.legal_moves(cells, naive.other(colour)):
            break
        colour = naive.other(colour)
    return name, cells, colour


@st.composite
def arbitrary_positions(draw: st.DrawFn) -> tuple[str, list, str]:
    """(variant name, cells, colour) with any disjoint black/white discs on the playable squares."""
    name = draw(st.sampled_from(VARIANT_NAMES))
    playable = naive.FRAMES[name][2]
    if draw(st.integers(0, 3)) == 0:  # hypothesis' own integers: edges, sparse boards
        a = draw(st.integers(0, 2**64 - 1))
        b = draw(st.integers(0, 2**64 - 1))
        black, white = a & playable, b & ~a & playable
    else:  # square by square from a mix of discs and empties (seeded: reproducible)
        rng = draw(st.randoms(use_true_random=False))
        pool = rng.choice(POOLS)
        cells = [rng.choice(pool) for _ in range(64)]
        black = naive.mask_of([sq for sq, c in enumerate(cells) if c == "B"]) & playable
        white = naive.mask_of([sq for sq, c in enumerate(cells) if c == "W"]) & playable
    colour = draw(st.sampled_from([naive.BLACK_DISC, naive.WHITE_DISC]))
    return name, naive.cells_from_masks(black, white, playable), colour


# ---- checks --------------------------------------------------------------------------


def player_opponent(cells: list, colour: str) -> tuple[int, int]:
    p = naive.mask_of(naive.squares_of(cells, colour))
    o = naive.mask_of(naive.squares_of(cells, naive.other(colour)))
    return p, o


# Both implementations of moves and of flips, whichever the host's are (the others
# compile for any CPU, only slower: the choice is speed, not meaning).
@njit
def _flips_fill_at(p, o, sq):  # type: ignore[no-untyped-def]
    return kernels.flips_fill(p, o, sq)


@njit
def _flips_rays_at(p, o, sq):  # type: ignore[no-untyped-def]
    return kernels.flips_rays(p, o, sq)


@njit
def _moves_x4_mask(p, o, mask):  # type: ignore[no-untyped-def]
    return kernels._moves_x4(p, o) & ~(p | o) & mask


@njit
def _moves_x8_mask(p, o, mask):  # type: ignore[no-untyped-def]
    return kernels._moves_x8(p, o) & ~(p | o) & mask


def check_kernels(name: str, cells: list, colour: str) -> None:
    playable = naive.FRAMES[name][2]
    p, o = player_opponent(cells, colour)
    expected = naive.mask_of(naive.legal_moves(cells, colour))
    assert int(kernels.legal_moves_mask(U64(p), U64(o), U64(playable))) == expected
    assert int(_moves_x4_mask(U64(p), U64(o), U64(playable))) == expected, "4-lane fill"
    assert int(_moves_x8_mask(U64(p), U64(o), U64(playable))) == expected, "8-lane fill"
    for sq in naive.squares_of(cells, naive.EMPTY):
        want = naive.mask_of(naive.flips(cells, colour, sq))
        assert int(kernels.flips_at(U64(p), U64(o), sq)) == want, f"flips at {sq}"
        assert int(_flips_fill_at(U64(p), U64(o), sq)) == want, f"fill flips at {sq}"
        assert int(_flips_rays_at(U64(p), U64(o), sq)) == want, f"ray flips at {sq}"


def board_for(name: str, cells: list, colour: str):  # type: ignore[no-untyped-def]
    rows, cols, _ = naive.FRAMES[name]
    return find_variant(name).from_string(naive.board_string(cells, colour, rows, cols))


def check_board(name: str, cells: list, colour: str) -> None:
    board = board_for(name, cells, colour)
    assert board.black == naive.mask_of(naive.squares_of(cells, naive.BLACK_DISC))
    assert board.white == naive.mask_of(naive.squares_of(cells, naive.WHITE_DISC))
    assert board.counts() == naive.disc_counts(cells)
    moves = naive.legal_moves(cells, colour)
    assert board.legal_moves_mask() == naive.mask_of(moves)
    over = naive.game_over(cells)
    passing = naive.must_pass(cells, colour)
    assert board.is_game_over() is over
    assert board.must_pass() is passing
    listed = list(board.legal_moves)
    if moves:
        assert [m.square for m in listed] == moves
    elif passing:
        assert [m.square for m in listed] == [None]
    else:
        assert listed == []
    assert len(board.legal_moves) == len(listed)
    assert bool(board.legal_moves) is bool(listed)
    for sq in naive.squares_of(cells, naive.EMPTY):
        assert board.flips(Move(sq)) == naive.mask_of(naive.flips(cells, colour, sq))
    outcome = board.outcome()
    if over:
        assert outcome is not None
        assert (outcome.black, outcome.white) == naive.official_score(cells)
        assert (outcome.black_discs, outcome.white_discs) == naive.disc_counts(cells)
    else:
        assert outcome is None


# ---- property tests ------------------------------------------------------------------


@settings(max_examples=300, suppress_health_check=SLOW_DATA, deadline=None)
@given(reachable_positions())
def test_kernels_agree_on_reachable_positions(position: tuple[str, list, str]) -> None:
    check_kernels(*position)


@settings(max_examples=1500, suppress_health_check=SLOW_DATA, deadline=None)
@given(arbitrary_positions())
def test_kernels_agree_on_arbitrary_positions(position: tuple[str, list, str]) -> None:
    check_kernels(*position)


@settings(max_examples=150, suppress_health_check=SLOW_DATA, deadline=None)
@given(reachable_positions())
def test_board_agrees_on_reachable_positions(position: tuple[str, list, str]) -> None:
    check_board(*position)


@settings(max_examples=500, suppress_health_check=SLOW_DATA, deadline=None)
@given(arbitrary_positions())
def test_board_agrees_on_arbitrary_positions(position: tuple[str, list, str]) -> None:
    check_board(*position)


@settings(max_examples=40, suppress_health_check=SLOW_DATA, deadline=None)
@given(st.sampled_from(VARIANT_NAMES), st.lists(st.integers(0, 63), min_size=64, max_size=64))
def test_board_playout_follows_reference(name: str, choices: list[int]) -> None:
    """Push/pop along a whole random game, comparing every position and every move."""
    playable = naive.FRAMES[name][2]
    cells, colour = naive.start_cells(playable), naive.BLACK_DISC
    board = find_variant(name)()
    history = []
    for choice in choices:
        moves = naive.legal_moves(cells, colour)
        assert board.legal_moves_mask() == naive.mask_of(moves)
        if moves:
            sq = moves[choice % len(moves)]
            assert board.flips(Move(sq)) == naive.mask_of(naive.flips(cells, colour, sq))
            move = Move(sq)
        elif naive.legal_moves(cells, naive.other(colour)):
            assert board.must_pass()
            sq, move = None, Move(None)
        else:
            assert board.is_game_over()
            break
        history.append((board.black, board.white, board.turn))
        board.push(move)
        cells, colour = naive.apply_move(cells, colour, sq), naive.other(colour)
        assert board.black == naive.mask_of(naive.squares_of(cells, naive.BLACK_DISC))
        assert board.white == naive.mask_of(naive.squares_of(cells, naive.WHITE_DISC))
        assert board.turn.symbol == ("X" if colour == naive.BLACK_DISC else "O")
    while history:
        board.pop()
        assert (board.black, board.white, board.turn) == history.pop()
    assert board == find_variant(name)()


@settings(max_examples=60, suppress_health_check=SLOW_DATA, deadline=None)
@given(reachable_positions())
def test_perft_kernel_agrees_on_reachable_positions(position: tuple[str, list, str]) -> None:
    name, cells, colour = position
    playable = naive.FRAMES[name][2]
    p, o = player_opponent(cells, colour)
    depth = 3 if name in ("4x4", "6x6") else 2
    for d in range(depth + 1):
        got = int(kernels.perft(U64(p), U64(o), U64(playable), d))
        assert got == naive.perft(cells, colour, d), f"depth {d}"


@given(st.integers(0, 63), st.integers(0, (1 << 64) - 1), st.integers(0, (1 << 64) - 1))
def test_last_flip_count_agrees_with_reference(x: int, bits: int, thin: int) -> None:
    """The last empty square's flip count from line lookups equals the reference's flips,
    for either side, on boards full but for ``x`` (``thin`` makes sparse and dense ones)."""
    from hasamigo._kernels.endgame import last_flip_count

    full = (1 << 64) - 1
    p = bits & ~(1 << x) & (thin | bits >> 1)
    o = full & ~p & ~(1 << x)
    cells = naive.cells_from_masks(p, o, full)
    for mover, colour in ((p, "B"), (o, "W")):
        got = int(last_flip_count(U64(mover), x))
        assert got == 2 * len(naive.flips(cells, colour, x)), (hex(mover), x)


def test_reference_sanity() -> None:
    """The reference itself on textbook facts (so a bug cannot hide in both)."""
    cells = naive.start_cells(naive.FRAMES["standard"][2])
    names = ["d3", "c4", "f5", "e6"]
    assert naive.legal_moves(cells, "B") == sorted(naive.square(n) for n in names)
    assert naive.flips(cells, "B", naive.square("f5")) == [naive.square("e5")]
    assert [naive.perft(cells, "B", d) for d in range(5)] == [1, 4, 12, 56, 244]


# ---- compiled code: no float64, the pure-Python path, the on-disk cache ---------------

SIGNATURES = [
    (kernels.legal_moves_mask, (types.uint64, types.uint64, types.uint64)),
    (kernels.flips_at, (types.uint64, types.uint64, types.int64)),
    (kernels.perft, (types.uint64, types.uint64, types.uint64, types.int64)),
]


def float_variables(py_func, signature) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """Variables typed as a float in a fresh (uncached) compile of ``py_func``.

    Loaded-from-cache overloads carry no type annotation, so compile anew; the
    ``inline="always"`` helpers are inlined into the IR and show up in the same typemap.
    """
    fresh = njit(nogil=True)(py_func)
    fresh.compile(signature)
    found: dict[str, object] = {}
    for cres in fresh.overloads.values():
        typemap = cres.type_annotation.typemap
        assert typemap, "no type information"
        found.update({var: t for var, t in typemap.items() if "float" in str(t)})
        if "float" in str(cres.signature.return_type):
            found["<return>"] = cres.signature.return_type
    return found


@pytest.mark.parametrize(
    ("dispatcher", "signature"), SIGNATURES, ids=[d.__name__ for d, _ in SIGNATURES]
)
def test_kernels_have_no_float64(dispatcher, signature) -> None:  # type: ignore[no-untyped-def]
    assert float_variables(dispatcher.py_func, signature) == {}


def test_float64_detector_catches_uint64_int_mixing() -> None:
    def bad(x):  # type: ignore[no-untyped-def]
        return max(x, 1)  # uint64 against a plain int: float64 in numba

    assert float_variables(bad, (types.uint64,))


@pytest.mark.parametrize(
    ("dispatcher", "signature"), SIGNATURES[:2], ids=[d.__name__ for d, _ in SIGNATURES[:2]]
)
def test_bitboard_kernels_return_uint64(dispatcher, signature) -> None:  # type: ignore[no-untyped-def]
    """A bitboard that became signed would shift in sign bits: the result stays uint64."""
    fresh = njit(nogil=True)(dispatcher.py_func)
    fresh.compile(signature)
    assert [c.signature.return_type for c in fresh.overloads.values()] == [types.uint64]


def test_kernels_called_with_python_ints_return_integers() -> None:
    """The entry points as the Board layer calls them (uint64 boards, an int square)."""
    start_b, start_w = 0x0000000810000000, 0x0000001008000000
    moves = kernels.legal_moves_mask(U64(start_b), U64(start_w), U64(2**64 - 1))
    assert isinstance(moves, int | np.integer)
    assert int(moves) == naive.mask_of([naive.square(n) for n in ("d3", "c4", "f5", "e6")])
    f5, e5 = naive.square("f5"), naive.square("e5")
    assert int(kernels.flips_at(U64(start_b), U64(start_w), f5)) == 2**e5
    leaves = kernels.perft(U64(start_b), U64(start_w), U64(2**64 - 1), 3)
    assert isinstance(leaves, int | np.integer) and leaves == 56


SUBSET_SCRIPT = textwrap.dedent(
    """
    import random
    import sys

    import numpy as np

    sys.path.insert(0, sys.argv[1])
    import naive
    from hasamigo._kernels import moves as kernels

    U64 = np.uint64
    rng = random.Random(20240601)
    checked = 0
    for name in sorted(naive.FRAMES):
        playable = naive.FRAMES[name][2]
        cells, colour = naive.start_cells(playable), "B"
        for _ in range(40):
            p = naive.mask_of(naive.squares_of(cells, colour))
            o = naive.mask_of(naive.squares_of(cells, naive.other(colour)))
            want = naive.mask_of(naive.legal_moves(cells, colour))
            assert int(kernels.legal_moves_mask(U64(p), U64(o), U64(playable))) == want
            for sq in naive.squares_of(cells, None):
                f = naive.mask_of(naive.flips(cells, colour, sq))
                assert int(kernels.flips_at(U64(p), U64(o), sq)) == f, (name, sq)
            got = int(kernels.perft(U64(p), U64(o), U64(playable), 2))
            assert got == naive.perft(cells, colour, 2)
            checked += 1
            moves = naive.legal_moves(cells, colour)
            if moves:
                cells = naive.apply_move(cells, colour, rng.choice(moves))
            elif naive.game_over(cells):
                break
            colour = naive.other(colour)
    print("checked", checked)
    """
)


def run_python(code: str, *args: str, env: dict[str, str] | None = None,
               unset: tuple[str, ...] = ()) -> str:
    """``code`` in a fresh interpreter, with ``env`` added to this one's and ``unset``
    taken out of it; its output."""
    # The timeout only guards against a hang: compiling every kernel afresh took over 300 s
    # on a loaded 2-core VM (the engine's kernel groups alone: 294-331 s).
    base = {k: v for k, v in os.environ.items() if k not in unset}
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=1800,
        env={**base, **(env or {})},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


CHOICE_SCRIPT = textwrap.dedent(
    """
    from hasamigo._kernels import moves, patterns
    fill = "x8" if moves._moves_fill is moves._moves_x8 else "x4"
    print(fill, moves.flips.__name__, "gather" if patterns.VECTOR_512 else "loads")
    """
)


@pytest.mark.parametrize(("features", "chosen"), [
    ("+avx2,+avx512f,+avx512cd,+avx512vl,+bmi2", "x8 flips_rays gather"),
    ("+avx2,+avx512f,-avx512cd,+avx512vl,+bmi2", "x8 flips_fill gather"),
    ("+avx2,-avx512f,-avx512cd,-avx512vl,+bmi2", "x4 flips_fill loads"),
    ("+avx512cd,+avx512vlx", "x4 flips_fill loads"),
])
def test_implementations_follow_the_target_cpu(features: str, chosen: str) -> None:
    """The 8-lane move fill and the evaluation's weight gathers only where the CPU the
    kernels compile for has AVX-512, the ray-table flip only where it has vector leading
    zeros (AVX-512 CD with VL): read as numba reads them (``NUMBA_CPU_FEATURES`` here)."""
    out = run_python(CHOICE_SCRIPT, env={"NUMBA_CPU_FEATURES": features})
    assert out.strip() == chosen


def test_ray_flips_refuse_a_table_of_another_type() -> None:
    """The ray flip reads two vectors a square from its table, unchecked: only the ray
    table's own shape and type compile."""
    @njit
    def wrong(p, o, rows):  # type: ignore[no-untyped-def]
        return kernels._flips_rays_x4(p, o, rows, 19)

    with pytest.raises(TypingError, match="C-contiguous 2-d uint64"):
        wrong(U64(1), U64(2), kernels.RAY_ROWS.astype(np.int64))
    with pytest.raises(TypingError, match="C-contiguous 2-d uint64"):
        wrong(U64(1), U64(2), kernels.RAY_ROWS.reshape(-1))


def test_implementations_follow_numba_switching_avx_off() -> None:
    """``NUMBA_ENABLE_AVX=0`` takes every AVX feature off the host's: the plain fills."""
    out = run_python(CHOICE_SCRIPT, env={"NUMBA_ENABLE_AVX": "0"},
                     unset=("NUMBA_CPU_FEATURES",))
    assert out.strip() == "x4 flips_fill loads"


def test_kernel_logic_without_jit() -> None:
    """The kernels' Python source run as plain Python (coverage sees the kernel logic)."""
    out = run_python(SUBSET_SCRIPT, os.path.dirname(__file__), env={"NUMBA_DISABLE_JIT": "1"})
    assert "checked" in out


EVERY_KERNEL_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path

    import numpy as np

    from hasamigo import Board
    from hasamigo.engine import Engine, Limit
    from hasamigo.engine.players.paper import move_values
    from hasamigo.engine.training import read_archives, samples_from_records, train

    out = {}
    boards = [Board(text) for text in sys.argv[2:]]
    for evaluation in ("trained", "hand"):
        engine = Engine(table_size=1 << 10, evaluation=evaluation)
        out[evaluation] = [
            [engine.evaluate(b), str(engine.analyse(b, Limit(depth=3)).move),
             engine.analyse(b, Limit(depth=3)).score] for b in boards]
    selective = Engine(table_size=1 << 10)
    out["selective"] = [[str(a.move), a.score] for a in
                        (selective.analyse(b, Limit(depth=5), selectivity=1) for b in boards[:2])]
    endgame = Engine(table_size=1 << 10).solve(boards[-1])
    out["solve"] = [str(endgame.move), endgame.score]
    out["paper"] = [sorted(move_values(b, 2).items()) for b in boards]
    samples, counts = samples_from_records(read_archives([Path(sys.argv[1]) / "WTH_1977.wtb"]))
    weights, reports = train(samples, holdout_every=4, iterations=2)
    out["training"] = [len(samples), counts["games_used"],
                       [round(r.rmse_trained, 6) for r in reports if r.test_positions]]
    print(json.dumps(out))
    """
)


def test_every_kernel_module_agrees_with_its_python_source() -> None:
    """Every kernel module (search, endgame, stability, hash table, both evaluations, the
    paper's weighted search, the training replay and fitting) run as plain Python gives
    what the compiled kernels give: coverage sees their logic, and a numba-only behaviour
    (an integer overflow, a wrong inferred type) would show as a difference."""
    positions = [
        Board().to_string(),
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",  # FFO #1
    ]
    # a position at 9 empties for the solver (fast in plain Python too)
    board = Board(positions[1])
    while board.empties.bit_count() > 9:
        board.push(next(iter(board.legal_moves)))
    positions.append(board.to_string())
    data = str(Path(__file__).parent / "data" / "wthor")
    plain = json.loads(run_python(EVERY_KERNEL_SCRIPT, data, *positions,
                                  env={"NUMBA_DISABLE_JIT": "1"}))
    compiled = json.loads(run_python(EVERY_KERNEL_SCRIPT, data, *positions))
    assert plain == compiled
    assert plain["training"][0] > 500 and plain["solve"][0] != "pass"


CACHE_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    from hasamigo._kernels import moves as kernels

    U64 = np.uint64
    b, w, full = U64(0x0000000810000000), U64(0x0000001008000000), U64(2**64 - 1)
    print(int(kernels.legal_moves_mask(b, w, full)), int(kernels.flips_at(b, w, 37)),
          int(kernels.perft(b, w, full, 7)), int(kernels.perft(b, w, U64(0x00003C3C3C3C0000), 6)))
    stats = kernels.perft.stats
    print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
    """
)


def test_kernels_from_the_disk_cache(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A fresh process compiles and writes the cache; a second one loads from it."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path)}
    first = run_python(CACHE_SCRIPT, env=env).split("\n")
    second = run_python(CACHE_SCRIPT, env=env).split("\n")
    start = naive.start_cells(naive.FRAMES["standard"][2])
    four = naive.start_cells(naive.FRAMES["4x4"][2])
    expected = [
        naive.mask_of(naive.legal_moves(start, "B")),
        2 ** naive.square("e5"),
        55092,
        naive.perft(four, "B", 6),
    ]
    assert [int(x) for x in first[0].split()] == expected
    assert [int(x) for x in second[0].split()] == expected
    hits, _misses = (int(x) for x in second[1].split())
    assert hits >= 1, "the second process did not load perft from the cache"


LOCAL_TYPES_SCRIPT = textwrap.dedent(
    """
    import json
    from numba.core.registry import CPUDispatcher

    from hasamigo import Board
    from hasamigo._kernels import (bits, endgame, evaluate, fitting, hashtable, moves,
                                   patterns, search, smallboard, stability, warm, weighted,
                                   wide, wide_search)
    from hasamigo.engine import Engine, Limit

    warm.warm(*warm.GROUPS)  # a fresh cache: everything compiles in this process
    engine = Engine(table_size=1 << 10)
    board = Board()
    engine.analyse(board, Limit(depth=5), selectivity=1)
    floats, seen, modules = [], 0, set()
    for module in (bits, endgame, evaluate, fitting, hashtable, moves, patterns, search,
                   smallboard, stability, weighted, wide, wide_search):
        for name in dir(module):
            obj = getattr(module, name)
            if not isinstance(obj, CPUDispatcher):
                continue
            for cres in obj.overloads.values():
                annotation = cres.type_annotation
                if annotation is None:
                    continue
                seen += 1
                modules.add(module.__name__.rsplit(".", 1)[1])
                for var, typ in annotation.typemap.items():
                    if "float" in str(typ):
                        floats.append(f"{module.__name__}.{name}: {var} is {typ}")
    print(json.dumps({"floats": floats, "seen": seen, "modules": sorted(modules)}))
    """
)


@pytest.mark.slow
def test_no_kernel_local_variable_is_a_float(tmp_path: Path) -> None:
    """Every variable of every compiled bitboard kernel (inlined helpers included) is an
    integer, a bool or an array of them: uint64 mixed with a signed int silently becomes
    float64 in numba, which the signatures alone do not show. Compiled afresh (an empty
    cache) so that numba keeps each kernel's types."""
    out = json.loads(run_python(LOCAL_TYPES_SCRIPT, env={"NUMBA_CACHE_DIR": str(tmp_path)}))
    assert out["seen"] >= 10
    assert {"moves", "search", "endgame", "smallboard", "wide", "wide_search"} <= set(
        out["modules"])
    assert out["floats"] == []
