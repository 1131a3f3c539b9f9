"""Move generation, flips and perft on ``(player, opponent)`` pairs.

Legal moves use shift-based parallel prefix (Kogge-Stone) in the eight directions, four
directions at a time in one 4-lane vector of uint64 (written as LLVM vector IR, which the
host's SIMD unit runs: AVX2; with AVX-512 all eight directions in one 8-lane vector); the
flips of one move are either the same fill from the square (AVX2) or, with AVX-512, the
eight rays from the square as two vectors of precomputed masks, each ray's first square
that is not an opponent disc found with one bit operation (lowest bit or leading zeros),
without branches.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import config as numba_config
from numba.core.errors import TypingError
from numba.extending import intrinsic

from hasamigo._kernels.bits import ONE, U64, ZERO, _ctlz, lowest_square, popcount
from hasamigo._kernels.config import NJIT, NJIT_INLINE, has_features
from hasamigo._kernels.memory import llvm_call, splat

TOP_BIT = U64(0x8000000000000000)
INNER_COLUMNS = U64(0x7E7E7E7E7E7E7E7E)  # columns b..g: a run sideways never wraps through them


def _ray_table() -> np.ndarray:
    """``RAYS[d, sq]``: squares strictly beyond ``sq`` in direction ``d``, on the 8×8 grid.

    Directions 0-3 go towards higher indices (E, S, SW, SE), 4-7 towards lower (W, N, NE, NW).
    """
    steps = [(0, 1), (1, 0), (1, -1), (1, 1), (0, -1), (-1, 0), (-1, 1), (-1, -1)]
    rays = np.zeros((8, 64), dtype=np.uint64)
    for d, (dr, dc) in enumerate(steps):
        for sq in range(64):
            r, c = divmod(sq, 8)
            mask = 0
            r, c = r + dr, c + dc
            while 0 <= r < 8 and 0 <= c < 8:
                mask |= 1 << (r * 8 + c)
                r, c = r + dr, c + dc
            rays[d, sq] = mask
    return rays


RAYS = _ray_table()


@njit(**NJIT_INLINE)
def _dir_moves_left(p, om, empty, s):  # type: ignore[no-untyped-def]
    x = om & (p << s)
    x |= om & (x << s)
    pre = om & (om << s)
    s2 = s + s
    x |= pre & (x << s2)
    x |= pre & (x << s2)
    return empty & (x << s)


@njit(**NJIT_INLINE)
def _dir_moves_right(p, om, empty, s):  # type: ignore[no-untyped-def]
    x = om & (p >> s)
    x |= om & (x >> s)
    pre = om & (om >> s)
    s2 = s + s
    x |= pre & (x >> s2)
    x |= pre & (x >> s2)
    return empty & (x >> s)


@njit(**NJIT_INLINE)
def _legal_moves_scalar(p, o, mask):  # type: ignore[no-untyped-def]
    """Legal moves one direction after another: the vector version's reference, and what
    runs uncompiled (``NUMBA_DISABLE_JIT``)."""
    empty = ~(p | o) & mask
    oi = o & INNER_COLUMNS
    s1 = U64(1)
    s7 = U64(7)
    s8 = U64(8)
    s9 = U64(9)
    m = _dir_moves_left(p, oi, empty, s1)
    m |= _dir_moves_right(p, oi, empty, s1)
    m |= _dir_moves_left(p, o, empty, s8)
    m |= _dir_moves_right(p, o, empty, s8)
    m |= _dir_moves_left(p, oi, empty, s7)
    m |= _dir_moves_right(p, oi, empty, s7)
    m |= _dir_moves_left(p, oi, empty, s9)
    m |= _dir_moves_right(p, oi, empty, s9)
    return m


_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_V4 = ir.VectorType(_I64, 4)


def _vector(values: tuple[int, ...]) -> ir.Constant:
    """The constant vector of uint64 ``values`` (as many lanes as values)."""
    return ir.Constant(ir.VectorType(_I64, len(values)), [ir.Constant(_I64, v) for v in values])


_INNER = int(INNER_COLUMNS)
_LANE_MASKS = (_INNER, 0xFFFFFFFFFFFFFFFF, _INNER, _INNER)  # a run sideways never wraps
_STEPS = (1, 8, 7, 9)
_DOUBLE_STEPS = (2, 16, 14, 18)


def _or_lanes(builder: ir.IRBuilder, v: ir.Value) -> ir.Value:
    """The four lanes of ``v`` or-ed into one uint64."""
    out = builder.extract_element(v, ir.Constant(_I32, 0))
    for lane in (1, 2, 3):
        out = builder.or_(out, builder.extract_element(v, ir.Constant(_I32, lane)))
    return out


def _run(builder: ir.IRBuilder, shift: Any, om: ir.Value, seed: ir.Value) -> ir.Value:
    """In each lane, the discs of ``om`` in an unbroken run from ``seed`` one step at a
    time in the lane's direction (up to six: parallel prefix, two steps then doubled)."""
    step = _vector(_STEPS)
    double = _vector(_DOUBLE_STEPS)
    x = builder.and_(om, shift(seed, step))
    x = builder.or_(x, builder.and_(om, shift(x, step)))
    pre = builder.and_(om, shift(om, step))
    x = builder.or_(x, builder.and_(pre, shift(x, double)))
    return builder.or_(x, builder.and_(pre, shift(x, double)))


@intrinsic
def _moves_x4(typingctx, p, o):  # type: ignore[no-untyped-def]
    """Squares that bracket a run of ``o`` from ``p``, before the empty-square mask: the
    same fill as :func:`_legal_moves_scalar`, with the lanes (1, 8, 7, 9) shifting by those
    steps, left then right, and the four lanes or-ed. Perft 11: 0.66x the CPU time of the
    scalar fill (this machine, AVX2)."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        pp, oo = args
        om = builder.and_(splat(builder, oo, 4), _vector(_LANE_MASKS))
        pv = splat(builder, pp, 4)
        step = _vector(_STEPS)
        found = None
        for shift in (builder.shl, builder.lshr):
            x = shift(_run(builder, shift, om, pv), step)
            found = x if found is None else builder.or_(found, x)
        return _or_lanes(builder, found)

    return sig, codegen


_V8 = ir.VectorType(_I64, 8)
_ALL = 0xFFFFFFFFFFFFFFFF
_ROW_1 = 0xFF
_ROW_8 = 0xFF << 56
# The eight directions in one 8-lane vector: lanes 0-3 go towards higher squares, rotated
# left by (1, 8, 7, 9), lanes 4-7 towards lower ones, rotated left by 64 minus those (a
# rotation right). A rotation wraps the last rows round to the first (or the first to
# the last), so in those lanes the opponent's discs and the squares found leave out the
# row a wrap lands on; sideways, the inner columns already keep a run from wrapping.
_ROTATIONS = (1, 8, 7, 9, 63, 56, 57, 55)
_DOUBLE_ROTATIONS = (2, 16, 14, 18, 62, 48, 50, 46)
_LANE_MASKS_X8 = (_INNER, _ALL ^ _ROW_1, _INNER & ~_ROW_1, _INNER & ~_ROW_1,
                  _INNER, _ALL ^ _ROW_8, _INNER & ~_ROW_8, _INNER & ~_ROW_8)
_LANE_TARGETS_X8 = (_ALL, _ALL ^ _ROW_1, _ALL ^ _ROW_1, _ALL ^ _ROW_1,
                    _ALL, _ALL ^ _ROW_8, _ALL ^ _ROW_8, _ALL ^ _ROW_8)


def _rotate8(builder: ir.IRBuilder, x: ir.Value, amounts: ir.Value) -> ir.Value:
    """Each lane of ``x`` rotated left by its amount (AVX-512: one vprolvq)."""
    return llvm_call(builder, "llvm.fshl.v8i64", _V8, x, x, amounts)


@intrinsic
def _moves_x8(typingctx, p, o):  # type: ignore[no-untyped-def]
    """:func:`_moves_x4` with all eight directions in one 8-lane vector, each a rotation
    (:data:`_ROTATIONS`), the lanes or-ed at the end. With AVX-512 (512-bit rotations) it
    takes 0.74x the time of :func:`_moves_x4` (2-core Zen 5 VM, a compiled loop over
    random positions); without, the rotations are emulated and it is slower."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        pp, oo = args
        om = builder.and_(splat(builder, oo, 8), _vector(_LANE_MASKS_X8))
        step = _vector(_ROTATIONS)
        double = _vector(_DOUBLE_ROTATIONS)
        x = builder.and_(om, _rotate8(builder, splat(builder, pp, 8), step))
        x = builder.or_(x, builder.and_(om, _rotate8(builder, x, step)))
        pre = builder.and_(om, _rotate8(builder, om, step))
        x = builder.or_(x, builder.and_(pre, _rotate8(builder, x, double)))
        x = builder.or_(x, builder.and_(pre, _rotate8(builder, x, double)))
        found = builder.and_(_rotate8(builder, x, step), _vector(_LANE_TARGETS_X8))
        return llvm_call(builder, "llvm.vector.reduce.or.v8i64", _I64, found)

    return sig, codegen


if numba_config.DISABLE_JIT:  # pragma: no cover - exercised in a NUMBA_DISABLE_JIT subprocess
    def _moves_x4(p, o):  # type: ignore[no-untyped-def]
        return _legal_moves_scalar(p, o, ~ZERO)

    def _moves_x8(p, o):  # type: ignore[no-untyped-def]
        return _legal_moves_scalar(p, o, ~ZERO)


# Whichever fill is the faster on the CPU the kernels are compiled for (the 8-lane one
# needs AVX-512's 512-bit rotations). Numba's cache is keyed on that CPU's features too,
# so a cached kernel holds the right one.
VECTOR_512 = has_features("avx512f")
_moves_fill = _moves_x8 if VECTOR_512 else _moves_x4


@njit(**NJIT_INLINE)
def legal_moves(p, o, mask):  # type: ignore[no-untyped-def]
    """Bitboard of the squares where the player to move may play (no flips ⇒ not there)."""
    return _moves_fill(U64(p), U64(o)) & ~(p | o) & mask


@njit(**NJIT)
def legal_moves_mask(p, o, mask):  # type: ignore[no-untyped-def]
    """Python entry point for :func:`legal_moves`."""
    return legal_moves(U64(p), U64(o), U64(mask))


@njit(**NJIT_INLINE)
def _flips_scalar(p, o, sq):  # type: ignore[no-untyped-def]
    """Discs flipped by a move on ``sq``, one direction after another: the vector
    version's reference, and what runs uncompiled (``NUMBA_DISABLE_JIT``).

    Branch-free: in each direction the first square beyond ``sq`` that is not an opponent
    disc (lowest bit up the ray, highest down it) is found with one bit operation, and the
    run before it is kept only when that square is the player's. Down a ray, square a1's
    bit stands in for "no such square" (it is the player's only if it is on the ray and no
    opponent disc came first, which is the real case). Perft 12 (farm-bench, 5 pairs, a
    loaded 2-core machine): 0.83x the CPU time of the branching scan it replaced."""
    f = ZERO
    not_o = ~o
    for d in range(4):
        ray = RAYS[d, sq]
        blockers = ray & not_o
        t = blockers & (ZERO - blockers) & p  # the first non-opponent square, if the player's
        f |= ray & (t - U64(t != ZERO))
    for d in range(4, 8):
        ray = RAYS[d, sq]
        t = (TOP_BIT >> U64(_ctlz((ray & not_o) | ONE))) & p & ray
        f |= ray & (ZERO - (t << ONE))
    return f


@intrinsic
def _flips_x4(typingctx, p, o, x):  # type: ignore[no-untyped-def]
    """Discs flipped by ``p`` playing the square of bit ``x``: in each lane (steps 1, 8,
    7, 9; left, then right) the run of ``o`` next to ``x`` is filled as the moves are
    (up to six discs), and kept when the square beyond it is ``p``'s. 0.5x the time of
    :func:`_flips_scalar` in a compiled loop over random positions (this machine, AVX2)."""
    sig = types.uint64(types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        pp, oo, xx = args
        om = builder.and_(splat(builder, oo, 4), _vector(_LANE_MASKS))
        pv = splat(builder, pp, 4)
        xv = splat(builder, xx, 4)
        step = _vector(_STEPS)
        zero = ir.Constant(_V4, None)
        found = None
        for shift in (builder.shl, builder.lshr):
            f = _run(builder, shift, om, xv)
            closed = builder.icmp_unsigned("!=", builder.and_(shift(f, step), pv), zero)
            f = builder.select(closed, f, zero)
            found = f if found is None else builder.or_(found, f)
        return _or_lanes(builder, found)

    return sig, codegen


if numba_config.DISABLE_JIT:  # pragma: no cover - exercised in a NUMBA_DISABLE_JIT subprocess
    def _flips_x4(p, o, x):  # type: ignore[no-untyped-def]
        return _flips_scalar(p, o, lowest_square(x))


# RAY_ROWS[sq]: the four rays from ``sq`` towards higher squares, then the four towards
# lower ones (RAYS by square): two 4-lane vectors side by side.
RAY_ROWS = np.ascontiguousarray(RAYS.T)


def _ctlz_vector(builder: ir.IRBuilder, v: ir.Value) -> ir.Value:
    """Leading zeros of each lane (64 for 0): one instruction with AVX-512 CD and VL."""
    return llvm_call(builder, "llvm.ctlz.v4i64", _V4, v, ir.Constant(ir.IntType(1), 0))


@intrinsic
def _flips_rays_x4(typingctx, p, o, rows, sq):  # type: ignore[no-untyped-def]
    """:func:`_flips_scalar` with its four upward rays in one 4-lane vector and its four
    downward rays in another, read from ``rows`` (:data:`RAY_ROWS`) at ``sq``. Each
    lane's first non-opponent square is its lowest bit (upward) or, from the lanes'
    leading zeros, its highest (downward). With AVX-512 (vplzcntq) this is 0.56x the time
    of :func:`_flips_x4` (2-core Zen 5 VM, a compiled loop over random positions); on
    AVX2 the leading zeros take many instructions and it gains nothing."""
    if not (isinstance(rows, types.Array) and rows.dtype == types.uint64
            and rows.ndim == 2 and rows.layout == "C"):
        raise TypingError(f"the ray rows are a C-contiguous 2-d uint64 array, not {rows}")
    sig = types.uint64(types.uint64, types.uint64, rows, types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        pp, oo, table, s = args
        data = context.make_array(signature.args[2])(context, builder, table).data
        base = builder.bitcast(data, ir.PointerType(_V4))
        row = builder.shl(s, ir.Constant(_I64, 1))
        up = builder.load(builder.gep(base, [row]), align=8)
        down = builder.load(builder.gep(base, [builder.add(row, ir.Constant(_I64, 1))]),
                            align=8)
        pv = splat(builder, pp, 4)
        not_o = splat(builder, builder.not_(oo), 4)
        one = _vector((1, 1, 1, 1))
        # upward: the lowest non-opponent square, kept if the player's; the run below it
        blockers = builder.and_(up, not_o)
        t = builder.and_(builder.and_(blockers, builder.neg(blockers)), pv)
        closed = builder.zext(builder.icmp_unsigned("!=", t, ir.Constant(_V4, None)), _V4)
        f_up = builder.and_(up, builder.sub(t, closed))
        # downward: the highest (a1's bit standing in for none), kept if the player's on
        # the ray; the run above it
        blockers = builder.or_(builder.and_(down, not_o), one)
        top = _vector((1 << 63,) * 4)
        t = builder.and_(builder.and_(builder.lshr(top, _ctlz_vector(builder, blockers)), pv), down)
        f_down = builder.and_(down, builder.neg(builder.shl(t, one)))
        return _or_lanes(builder, builder.or_(f_up, f_down))

    return sig, codegen


if numba_config.DISABLE_JIT:  # pragma: no cover - exercised in a NUMBA_DISABLE_JIT subprocess
    def _flips_rays_x4(p, o, rows, sq):  # type: ignore[no-untyped-def]
        return _flips_scalar(p, o, sq)


@njit(**NJIT_INLINE)
def flips_fill(p, o, sq):  # type: ignore[no-untyped-def]
    """Flips by the run fill (:func:`_flips_x4`): the faster on AVX2."""
    return _flips_x4(U64(p), U64(o), ONE << U64(sq))


@njit(**NJIT_INLINE)
def flips_rays(p, o, sq):  # type: ignore[no-untyped-def]
    """Flips from the ray table (:func:`_flips_rays_x4`): the faster with AVX-512."""
    return _flips_rays_x4(U64(p), U64(o), RAY_ROWS, np.int64(sq))


# Discs flipped when the player to move plays on ``sq`` (0 if none: not a legal move):
# whichever of the two is the faster on the CPU the kernels are compiled for.
VECTOR_LZCNT = has_features("avx512cd", "avx512vl")
flips = flips_rays if VECTOR_LZCNT else flips_fill


@njit(**NJIT)
def flips_at(p, o, sq):  # type: ignore[no-untyped-def]
    """Python entry point for :func:`flips`."""
    return flips(U64(p), U64(o), np.int64(sq))


@njit(**NJIT_INLINE)
def _perft_last_two(p, o, mask, moves):  # type: ignore[no-untyped-def]
    """Leaves of a node two plies from the end with ``moves`` its legal moves (not 0):
    the last two plies in one loop, not through the stack (a child that must pass is one
    leaf)."""
    total = np.int64(0)
    while moves != ZERO:
        b = moves & (ZERO - moves)
        moves ^= b
        f = flips(p, o, lowest_square(b))
        m = legal_moves(o ^ f, p ^ f ^ b, mask)
        total += popcount(m) if m != ZERO else np.int64(1)
    return total


@njit(**NJIT_INLINE)
def _perft_enter(p, o, mask, d, sp_arr, so_arr, sm_arr, sd_arr, sp):  # type: ignore[no-untyped-def]
    """Count or push the node ``(p, o)`` with ``d`` plies left; returns (leaves, new sp)."""
    while True:
        moves = legal_moves(p, o, mask)
        if d == 1:
            if moves != ZERO:
                return popcount(moves), sp
            return np.int64(1), sp  # a pass (or the end) is one leaf
        if moves != ZERO:
            if d == 2:
                return _perft_last_two(p, o, mask, moves), sp
            sp_arr[sp] = p
            so_arr[sp] = o
            sm_arr[sp] = moves
            sd_arr[sp] = d
            return np.int64(0), sp + 1
        if legal_moves(o, p, mask) == ZERO:
            return np.int64(1), sp  # game over: counted once, whatever depth is left
        p, o = o, p  # pass: a ply of its own
        d -= 1


@njit(**NJIT)
def perft(p, o, mask, depth):  # type: ignore[no-untyped-def]
    """Leaf count at ``depth`` plies; a pass is a ply, a finished game is one leaf.

    Bulk counting at the last ply. Iterative with an explicit stack: recursive kernels
    loaded from numba's cache have crashed (numba issue #6061).
    """
    if depth <= 0:
        return np.int64(1)
    sp_arr = np.empty(depth + 1, dtype=np.uint64)
    so_arr = np.empty(depth + 1, dtype=np.uint64)
    sm_arr = np.empty(depth + 1, dtype=np.uint64)
    sd_arr = np.empty(depth + 1, dtype=np.int64)
    total, sp = _perft_enter(
        U64(p), U64(o), U64(mask), np.int64(depth), sp_arr, so_arr, sm_arr, sd_arr, np.int64(0)
    )
    while sp > 0:
        top = sp - 1
        m = sm_arr[top]
        if m == ZERO:
            sp = top
            continue
        b = m & (~m + ONE)
        sm_arr[top] = m ^ b
        pp = sp_arr[top]
        oo = so_arr[top]
        f = flips(pp, oo, lowest_square(b))
        leaves, sp = _perft_enter(
            oo ^ f, pp ^ f ^ b, U64(mask), sd_arr[top] - 1, sp_arr, so_arr, sm_arr, sd_arr, sp
        )
        total += leaves
    return total
