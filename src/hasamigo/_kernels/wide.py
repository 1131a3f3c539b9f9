"""Move generation, flips and perft on the 10-column grid, for boards up to 10×10.

A square is ``row * 10 + col`` (a1 = 0, j10 = 99). A side's discs are two uint64 words:
``lo`` holds squares 0-63, ``hi`` squares 64-127 (only 64-99 are on the grid). Every
kernel takes the playable mask the same way, so shaped boards (Eight Stars, Hasegawa's
8×9 and 9×10 inside the 10×10 grid) share them. Kernels work on ``(player, opponent)``
relative to the side to move, as :mod:`hasamigo._kernels.moves` does on the 8×8 grid.

Legal moves are shift-based (Kogge-Stone) on the 128-bit pair, with the opponent's discs
masked to columns b..i for the six directions that move sideways, so no run wraps around
an edge. Flips walk the eight rays square by square from precomputed neighbour tables:
simple rather than fast (the 8×8 kernels stay the hot path).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import ONE, U64, ZERO, lowest_square, popcount
from hasamigo._kernels.config import NJIT, NJIT_INLINE

STRIDE = 10
GRID_SQUARES = STRIDE * STRIDE
_LOW_MASK = (1 << 64) - 1


def _inner_columns() -> int:
    """Columns b..i of the 10×10 grid: a disc there can be passed sideways without wrapping."""
    return sum(1 << (r * STRIDE + c) for r in range(STRIDE) for c in range(1, STRIDE - 1))


INNER_LO = U64(_inner_columns() & _LOW_MASK)
INNER_HI = U64(_inner_columns() >> 64)

# Shifts of the eight directions: E/W 1, S/N 10, SW/NE 9, SE/NW 11, and 64 minus each
# (the bits that cross from one word to the other). All uint64, like every constant here.
S1, S9, S10, S11 = U64(1), U64(9), U64(10), U64(11)
R1, R9, R10, R11 = U64(63), U64(55), U64(54), U64(53)
WORD = U64(64)


def _neighbour_table() -> np.ndarray:
    """``NEXT[d, sq]``: the neighbour of ``sq`` in direction ``d`` on the 10×10 grid, -1 off it."""
    steps = [(0, 1), (1, 0), (1, -1), (1, 1), (0, -1), (-1, 0), (-1, 1), (-1, -1)]
    table = np.full((8, GRID_SQUARES), -1, dtype=np.int64)
    for d, (dr, dc) in enumerate(steps):
        for sq in range(GRID_SQUARES):
            r, c = divmod(sq, STRIDE)
            if 0 <= r + dr < STRIDE and 0 <= c + dc < STRIDE:
                table[d, sq] = (r + dr) * STRIDE + c + dc
    return table


NEXT = _neighbour_table()


# ---- Python-side conversion (the Board layer's Python ints <-> two words) -------------


def split(x: int) -> tuple[np.uint64, np.uint64]:
    """A Python-int bitboard of the 10-column grid as its ``(lo, hi)`` words."""
    return U64(x & _LOW_MASK), U64(x >> 64)


def join(lo: object, hi: object) -> int:
    """The Python-int bitboard of two words."""
    return int(lo) | int(hi) << 64  # type: ignore[call-overload]


# ---- kernels ---------------------------------------------------------------------------


@njit(**NJIT_INLINE)
def _dir_up(p_lo, p_hi, o_lo, o_hi, e_lo, e_hi, s, r):  # type: ignore[no-untyped-def]
    """Empty squares ``s`` beyond a run of opponent discs from a player disc, going up
    the indices; runs of up to 8 discs (the most a 10-square line holds)."""
    # x = o & (p << s)
    x_lo = o_lo & (p_lo << s)
    x_hi = o_hi & ((p_hi << s) | (p_lo >> r))
    # x |= o & (x << s)
    x_lo |= o_lo & (x_lo << s)
    x_hi |= o_hi & ((x_hi << s) | (x_lo >> r))
    # pre = o & (o << s); then x |= pre & (x << 2s), three times: runs of 3-4, 5-6, 7-8
    pre_lo = o_lo & (o_lo << s)
    pre_hi = o_hi & ((o_hi << s) | (o_lo >> r))
    s2 = s + s
    r2 = r - s
    for _ in range(3):
        n_hi = pre_hi & ((x_hi << s2) | (x_lo >> r2))
        x_lo |= pre_lo & (x_lo << s2)
        x_hi |= n_hi
    return e_lo & (x_lo << s), e_hi & ((x_hi << s) | (x_lo >> r))


@njit(**NJIT_INLINE)
def _dir_down(p_lo, p_hi, o_lo, o_hi, e_lo, e_hi, s, r):  # type: ignore[no-untyped-def]
    """As :func:`_dir_up`, going down the indices."""
    x_lo = o_lo & ((p_lo >> s) | (p_hi << r))
    x_hi = o_hi & (p_hi >> s)
    x_lo |= o_lo & ((x_lo >> s) | (x_hi << r))
    x_hi |= o_hi & (x_hi >> s)
    pre_lo = o_lo & ((o_lo >> s) | (o_hi << r))
    pre_hi = o_hi & (o_hi >> s)
    s2 = s + s
    r2 = r - s
    for _ in range(3):
        n_lo = pre_lo & ((x_lo >> s2) | (x_hi << r2))
        x_hi |= pre_hi & (x_hi >> s2)
        x_lo |= n_lo
    return e_lo & ((x_lo >> s) | (x_hi << r)), e_hi & (x_hi >> s)


@njit(**NJIT_INLINE)
def legal_moves(p_lo, p_hi, o_lo, o_hi, m_lo, m_hi):  # type: ignore[no-untyped-def]
    """``(lo, hi)`` of the squares where the player to move may play."""
    e_lo = ~(p_lo | o_lo) & m_lo
    e_hi = ~(p_hi | o_hi) & m_hi
    i_lo = o_lo & INNER_LO
    i_hi = o_hi & INNER_HI
    a_lo, a_hi = _dir_up(p_lo, p_hi, i_lo, i_hi, e_lo, e_hi, S1, R1)
    b_lo, b_hi = _dir_down(p_lo, p_hi, i_lo, i_hi, e_lo, e_hi, S1, R1)
    mv_lo, mv_hi = a_lo | b_lo, a_hi | b_hi
    a_lo, a_hi = _dir_up(p_lo, p_hi, o_lo, o_hi, e_lo, e_hi, S10, R10)
    b_lo, b_hi = _dir_down(p_lo, p_hi, o_lo, o_hi, e_lo, e_hi, S10, R10)
    mv_lo, mv_hi = mv_lo | a_lo | b_lo, mv_hi | a_hi | b_hi
    a_lo, a_hi = _dir_up(p_lo, p_hi, i_lo, i_hi, e_lo, e_hi, S9, R9)
    b_lo, b_hi = _dir_down(p_lo, p_hi, i_lo, i_hi, e_lo, e_hi, S9, R9)
    mv_lo, mv_hi = mv_lo | a_lo | b_lo, mv_hi | a_hi | b_hi
    a_lo, a_hi = _dir_up(p_lo, p_hi, i_lo, i_hi, e_lo, e_hi, S11, R11)
    b_lo, b_hi = _dir_down(p_lo, p_hi, i_lo, i_hi, e_lo, e_hi, S11, R11)
    return mv_lo | a_lo | b_lo, mv_hi | a_hi | b_hi


@njit(**NJIT)
def legal_moves_mask(p_lo, p_hi, o_lo, o_hi, m_lo, m_hi):  # type: ignore[no-untyped-def]
    """Python entry point for :func:`legal_moves`: a ``(lo, hi)`` pair."""
    return legal_moves(U64(p_lo), U64(p_hi), U64(o_lo), U64(o_hi), U64(m_lo), U64(m_hi))


@njit(**NJIT_INLINE)
def _has(lo, hi, sq):  # type: ignore[no-untyped-def]
    """True if square ``sq`` (0..127) is set in ``(lo, hi)``."""
    if sq < 64:
        return (lo >> U64(sq)) & ONE != ZERO
    return (hi >> U64(sq - 64)) & ONE != ZERO


@njit(**NJIT_INLINE)
def flips(p_lo, p_hi, o_lo, o_hi, sq):  # type: ignore[no-untyped-def]
    """``(lo, hi)`` of the discs flipped when the player to move plays on ``sq`` (both
    zero: not a move). ``sq`` must be empty; each ray is walked from its neighbour table."""
    f_lo = ZERO
    f_hi = ZERO
    for d in range(8):
        run_lo = ZERO
        run_hi = ZERO
        cur = NEXT[d, sq]
        while cur >= 0 and _has(o_lo, o_hi, cur):
            if cur < 64:
                run_lo |= ONE << U64(cur)
            else:
                run_hi |= ONE << U64(cur - 64)
            cur = NEXT[d, cur]
        if cur >= 0 and _has(p_lo, p_hi, cur):
            f_lo |= run_lo
            f_hi |= run_hi
    return f_lo, f_hi


@njit(**NJIT)
def flips_at(p_lo, p_hi, o_lo, o_hi, sq):  # type: ignore[no-untyped-def]
    """Python entry point for :func:`flips`: a ``(lo, hi)`` pair."""
    return flips(U64(p_lo), U64(p_hi), U64(o_lo), U64(o_hi), np.int64(sq))


@njit(**NJIT_INLINE)
def _enter(p_lo, p_hi, o_lo, o_hi, m_lo, m_hi, d, stack, sd, sp):  # type: ignore[no-untyped-def]
    """Count or push the node ``(p, o)`` with ``d`` plies left; returns (leaves, new sp).

    ``stack[sp]`` holds the node's p_lo, p_hi, o_lo, o_hi and its moves still to try
    (lo, hi); ``sd[sp]`` its depth."""
    while True:
        mv_lo, mv_hi = legal_moves(p_lo, p_hi, o_lo, o_hi, m_lo, m_hi)
        some = (mv_lo | mv_hi) != ZERO
        if d == 1:
            if some:
                return popcount(mv_lo) + popcount(mv_hi), sp
            return np.int64(1), sp  # a pass (or the end) is one leaf
        if some:
            stack[sp, 0] = p_lo
            stack[sp, 1] = p_hi
            stack[sp, 2] = o_lo
            stack[sp, 3] = o_hi
            stack[sp, 4] = mv_lo
            stack[sp, 5] = mv_hi
            sd[sp] = d
            return np.int64(0), sp + 1
        # a pass is rare: the opponent's moves by a call, not one more inlined copy
        x_lo, x_hi = legal_moves_mask(o_lo, o_hi, p_lo, p_hi, m_lo, m_hi)
        if (x_lo | x_hi) == ZERO:
            return np.int64(1), sp  # game over: counted once, whatever depth is left
        p_lo, p_hi, o_lo, o_hi = o_lo, o_hi, p_lo, p_hi  # pass: a ply of its own
        d -= 1


@njit(**NJIT)
def perft(p_lo, p_hi, o_lo, o_hi, m_lo, m_hi, depth):  # type: ignore[no-untyped-def]
    """Leaf count at ``depth`` plies; a pass is a ply, a finished game is one leaf.

    Iterative with an explicit stack: recursive kernels loaded from numba's cache have
    crashed (numba issue #6061). One call site of the inlined :func:`_enter` (the root is
    entered by the loop like any child): each copy of the move generator costs seconds of
    compile time."""
    if depth <= 0:
        return np.int64(1)
    m_lo = U64(m_lo)
    m_hi = U64(m_hi)
    stack = np.empty((depth + 1, 6), dtype=np.uint64)
    sd = np.empty(depth + 1, dtype=np.int64)
    c_p_lo, c_p_hi, c_o_lo, c_o_hi = U64(p_lo), U64(p_hi), U64(o_lo), U64(o_hi)
    c_d = np.int64(depth)
    total = np.int64(0)
    sp = np.int64(0)
    pending = True  # the node c_* is still to enter
    while True:
        if pending:
            leaves, sp = _enter(c_p_lo, c_p_hi, c_o_lo, c_o_hi, m_lo, m_hi, c_d, stack, sd, sp)
            total += leaves
            pending = False
        if sp == 0:
            return total
        top = sp - 1
        mv_lo = stack[top, 4]
        mv_hi = stack[top, 5]
        if mv_lo != ZERO:
            sq = lowest_square(mv_lo)
            b_lo = mv_lo & (~mv_lo + ONE)
            b_hi = ZERO
            stack[top, 4] = mv_lo ^ b_lo
        elif mv_hi != ZERO:
            sq = lowest_square(mv_hi) + 64
            b_lo = ZERO
            b_hi = mv_hi & (~mv_hi + ONE)
            stack[top, 5] = mv_hi ^ b_hi
        else:
            sp = top
            continue
        pp_lo = stack[top, 0]
        pp_hi = stack[top, 1]
        oo_lo = stack[top, 2]
        oo_hi = stack[top, 3]
        f_lo, f_hi = flips(pp_lo, pp_hi, oo_lo, oo_hi, sq)
        c_p_lo, c_p_hi = oo_lo ^ f_lo, oo_hi ^ f_hi
        c_o_lo, c_o_hi = pp_lo ^ f_lo ^ b_lo, pp_hi ^ f_hi ^ b_hi
        c_d = sd[top] - 1
        pending = True
