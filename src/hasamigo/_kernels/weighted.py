"""Weighted-square minimax for the amusement paper's programs (``engine/players/paper.py``).

Negamax with alpha-beta over ``(player, opponent)``; alpha-beta with the full window returns
the exact minimax value, which is what the players compare (``tests/naive_weighted.py`` is
the plain minimax it must equal). A pass does not use up a ply. Iterative with an explicit
stack (recursive kernels loaded from numba's cache have crashed, numba issue #6061).

Evaluation modes (from the side to move):

* ``MODE_WEIGHTED``: sum of ``weights`` over own discs minus over the opponent's;
* ``MODE_MOBILITY``: the same plus ``mobility_weight`` × (own moves − opponent's moves);
* ``MODE_DISCS``: own discs minus the opponent's.

A finished game scores ``TERMINAL_SCALE`` × the official disc difference (empties to the
winner), whatever the mode, so a won ending beats any evaluation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import ONE, U64, ZERO, lowest_square, popcount
from hasamigo._kernels.config import NJIT, NJIT_INLINE
from hasamigo._kernels.moves import flips, legal_moves

MODE_WEIGHTED = 0
MODE_MOBILITY = 1
MODE_DISCS = 2
TERMINAL_SCALE = 1000
INF = 1 << 30
MAX_PLIES = 64


@njit(**NJIT_INLINE)
def _weighted(p, o, weights):  # type: ignore[no-untyped-def]
    total = np.int64(0)
    x = p
    while x != ZERO:
        sq = lowest_square(x)
        total += weights[sq]
        x &= x - ONE
    x = o
    while x != ZERO:
        sq = lowest_square(x)
        total -= weights[sq]
        x &= x - ONE
    return total


@njit(**NJIT_INLINE)
def _terminal(p, o, mask):  # type: ignore[no-untyped-def]
    mine = popcount(p)
    theirs = popcount(o)
    empties = popcount(mask & ~(p | o))
    if mine > theirs:
        return np.int64(TERMINAL_SCALE) * (mine - theirs + empties)
    if theirs > mine:
        return -np.int64(TERMINAL_SCALE) * (theirs - mine + empties)
    return np.int64(0)


@njit(**NJIT_INLINE)
def evaluate(p, o, mask, weights, mobility_weight, mode):  # type: ignore[no-untyped-def]
    """Static value of a position that is not finished, for the side to move."""
    if mode == MODE_DISCS:
        return popcount(p) - popcount(o)
    v = _weighted(p, o, weights)
    if mode == MODE_MOBILITY:
        mine = popcount(legal_moves(p, o, mask))
        v += mobility_weight * (mine - popcount(legal_moves(o, p, mask)))
    return v


@njit(**NJIT)
def evaluate_entry(p, o, mask, weights, mobility_weight, mode):  # type: ignore[no-untyped-def]
    """Python entry point for :func:`evaluate` (a finished game scores as terminal)."""
    p = U64(p)
    o = U64(o)
    mask = U64(mask)
    if legal_moves(p, o, mask) == ZERO and legal_moves(o, p, mask) == ZERO:
        return _terminal(p, o, mask)
    return evaluate(p, o, mask, weights, np.int64(mobility_weight), np.int64(mode))


@njit(**NJIT)
def search(p, o, mask, depth, weights, mobility_weight, mode):  # type: ignore[no-untyped-def]
    """Exact minimax value of ``(p, o)`` searched ``depth`` plies, for the side to move.

    Returns ``(value, nodes)``."""
    p = U64(p)
    o = U64(o)
    mask = U64(mask)
    mobility_weight = np.int64(mobility_weight)
    mode = np.int64(mode)
    n = MAX_PLIES + 2
    sp_p = np.empty(n, dtype=np.uint64)
    sp_o = np.empty(n, dtype=np.uint64)
    sp_m = np.empty(n, dtype=np.uint64)  # moves still to try
    sp_d = np.empty(n, dtype=np.int64)
    sp_a = np.empty(n, dtype=np.int64)
    sp_b = np.empty(n, dtype=np.int64)
    sp_best = np.empty(n, dtype=np.int64)
    sp_neg = np.empty(n, dtype=np.int64)  # 1: this frame is the side that moves after a pass
    nodes = np.int64(0)
    sp = 0
    # ``ret``/``have``: value of the node just entered, from its own side to move
    d = np.int64(depth)
    a = np.int64(-INF)
    b = np.int64(INF)
    cp = p
    co = o
    while True:
        # ---- enter node (cp, co, d, a, b) --------------------------------------------
        nodes += 1
        have = False
        ret = np.int64(0)
        moves = legal_moves(cp, co, mask)
        neg = 0
        if moves == ZERO:
            other = legal_moves(co, cp, mask)
            if other == ZERO:
                ret = _terminal(cp, co, mask)
                have = True
            elif d > 0:
                cp, co = co, cp  # a pass: the same depth, the other side
                a, b = -b, -a
                moves = other
                neg = 1
        if not have and d <= 0:  # one inlined copy of the evaluation (compile time)
            ret = evaluate(cp, co, mask, weights, mobility_weight, mode)
            have = True
        if not have:
            sp_p[sp] = cp
            sp_o[sp] = co
            sp_m[sp] = moves
            sp_d[sp] = d
            sp_a[sp] = a
            sp_b[sp] = b
            sp_best[sp] = -INF
            sp_neg[sp] = neg
            sp += 1
        # ---- unwind: pass values up until a frame has a child to enter -----------------
        while True:
            if have:
                if sp == 0:
                    return ret, nodes
                top = sp - 1
                v = -ret
                if v > sp_best[top]:
                    sp_best[top] = v
                    if v > sp_a[top]:
                        sp_a[top] = v
                if sp_a[top] >= sp_b[top]:
                    sp_m[top] = ZERO  # cut-off
                have = False
            top = sp - 1
            m = sp_m[top]
            if m == ZERO:
                ret = sp_best[top]
                if sp_neg[top] == 1:
                    ret = -ret
                sp -= 1
                have = True
                continue
            bit = m & (~m + ONE)
            sp_m[top] = m ^ bit
            pp = sp_p[top]
            oo = sp_o[top]
            f = flips(pp, oo, lowest_square(bit))
            cp = oo ^ f
            co = pp ^ f ^ bit
            d = sp_d[top] - 1
            a = -sp_b[top]
            b = -sp_a[top]
            break
