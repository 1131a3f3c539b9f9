"""Exact solver for small boards (4×4, 6×6) from their start: no evaluation, no depth.

The engine's :func:`~hasamigo._kernels.search.search` orders its exact nodes with the 8×8
evaluation and selective passes, which mean nothing on a 36-square board: it had not
solved 6×6 after 12 CPU minutes. This kernel is a plain exact negascout (fail-soft) for
any geometry mask, with

* a transposition table of its own (below): exact bounds only, so two searches of the
  same position merge their bounds, and threads may share it without locks (a row is
  its key words xor its data: a row torn by two writers does not match its key);
* move ordering: the table's move, then fastest first (the fewest opponent replies, a
  reply on one of the board's ``corners`` counted twice), a move to a corner first
  among equals;
* the 8×8 solvers of :mod:`hasamigo._kernels.endgame` for the last ``SMALL`` empties
  (they take the empty squares, so any geometry).

Iterative with an explicit stack of frames (recursive cached kernels crashed, numba
#6061). Every 1024 nodes it polls ``stop[0]``; when set it sets ``ctl[ABORTED]`` and
returns 0. ``ctl[NODES]`` counts the nodes.

Table rows (``uint64`` array of shape ``(rows, 3)``, buckets of two rows): ``p ^ data``,
``o ^ data``, ``data``; data packs the lower bound + 64 (bits 0-7), the upper bound + 64
(8-15), the best move + 1 (16-23; 0 none, 65 a pass) and the empties (24-31). The first
row of a bucket keeps the position of most empties, the second the latest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import ONE, U64, ZERO, lowest_square, popcount
from hasamigo._kernels.config import NJIT, NJIT_INLINE
from hasamigo._kernels.endgame import final_score, solve_small
from hasamigo._kernels.moves import flips, legal_moves
from hasamigo._kernels.weighted import MODE_MOBILITY
from hasamigo._kernels.weighted import search as shallow_search

# ctl slots (int64)
NODES = 0
ABORTED = 1
CTL_SIZE = 2

PASS_MOVE = 64
#: at this many empties or fewer the endgame module's solvers finish the position
SMALL = 6
#: from this many empties the children are sorted by a shallow weighted-square search
#: (``weights``: the board's own square values) of ``SHALLOW_DEPTH`` plies
SHALLOW_EMPTIES = 18
SHALLOW_DEPTH = 2
MOBILITY_WEIGHT = 4
#: from this many empties a child whose table bound already refutes the node cuts it
#: (enhanced transposition cutoff)
ETC_EMPTIES = 10
MAX_PLY = 130
MAX_MOVES = 64
INF = 1000
_POLL = 1023

_BYTE = U64(0xFF)
_S8 = U64(8)
_S16 = U64(16)
_S24 = U64(24)
_K1 = U64(0x9E3779B97F4A7C15)
_K2 = U64(0xC2B2AE3D27D4EB4F)
_S29 = U64(29)

# child stages of a frame
FIRST = 0
SCOUT = 1
RESEARCH = 2


def table_new(rows: int) -> np.ndarray:
    """An empty table of ``rows`` rows (rounded down to a power of two, at least 2)."""
    n = 1 << max(1, int(rows).bit_length() - 1)
    return np.zeros((n, 3), dtype=np.uint64)


@njit(**NJIT_INLINE)
def _bucket(p, o, rows):  # type: ignore[no-untyped-def]
    h = (p * _K1) ^ (o * _K2)
    h ^= h >> _S29
    return np.int64(h & U64(rows - 2))


@njit(**NJIT_INLINE)
def _pack(lower, upper, move, empties):  # type: ignore[no-untyped-def]
    return (U64(lower + 64) | (U64(upper + 64) << _S8) | (U64(move + 1) << _S16)
            | (U64(empties) << _S24))


@njit(**NJIT_INLINE)
def _find(table, p, o):  # type: ignore[no-untyped-def]
    """Row of ``(p, o)`` in its bucket, or -1."""
    i = _bucket(p, o, table.shape[0])
    for r in range(i, i + 2):
        d = table[r, 2]
        if d != ZERO and table[r, 0] ^ d == p and table[r, 1] ^ d == o:
            return r
    return np.int64(-1)


@njit(**NJIT_INLINE)
def _lower(d):  # type: ignore[no-untyped-def]
    return np.int64(d & _BYTE) - 64


@njit(**NJIT_INLINE)
def _upper(d):  # type: ignore[no-untyped-def]
    return np.int64((d >> _S8) & _BYTE) - 64


@njit(**NJIT_INLINE)
def _move(d):  # type: ignore[no-untyped-def]
    return np.int64((d >> _S16) & _BYTE) - 1


@njit(**NJIT_INLINE)
def _store(table, p, o, empties, lower, upper, move):  # type: ignore[no-untyped-def]
    """Record bounds ``[lower, upper]`` on ``(p, o)``, merged with those already held."""
    r = _find(table, p, o)
    if r >= 0:
        d = table[r, 2]
        lo = _lower(d)
        up = _upper(d)
        if lo > lower:
            lower = lo
        if up < upper:
            upper = up
        if move < 0:
            move = _move(d)
    else:
        i = _bucket(p, o, table.shape[0])
        r = i if empties >= np.int64((table[i, 2] >> _S24) & _BYTE) else i + 1
    d = _pack(lower, upper, move, empties)
    table[r, 0] = p ^ d
    table[r, 1] = o ^ d
    table[r, 2] = d


@njit(**NJIT)
def table_probe(table, p, o):  # type: ignore[no-untyped-def]
    """Python entry point: ``(lower, upper, move)`` held for ``(p, o)``; ``(-64, 64, -1)``
    when the table does not hold it."""
    r = _find(table, U64(p), U64(o))
    if r < 0:
        return np.int64(-64), np.int64(64), np.int64(-1)
    d = table[r, 2]
    return _lower(d), _upper(d), _move(d)


@njit(**NJIT_INLINE)
def _order_key(np_, no, mask, corners, sq):  # type: ignore[no-untyped-def]
    """Fastest first: the opponent's replies (corners twice), a corner of our own first."""
    replies = legal_moves(np_, no, mask)
    key = 2 * (popcount(replies) + popcount(replies & corners))
    if (ONE << U64(sq)) & corners:
        key -= 1
    return key


@njit(**NJIT)
def solve(p, o, mask, corners, weights, alpha, beta, table, stop, ctl):  # type: ignore[no-untyped-def]
    """Exact official score of ``(p, o)`` for the side to move, fail-soft in
    ``(alpha, beta)``; ``corners`` (the board's corner squares) and ``weights`` (int64
    per square) only order the moves."""
    mask = U64(mask)
    corners = U64(corners)
    sp_p = np.empty(MAX_PLY, dtype=np.uint64)
    sp_o = np.empty(MAX_PLY, dtype=np.uint64)
    sp_alpha = np.empty(MAX_PLY, dtype=np.int64)
    sp_alpha0 = np.empty(MAX_PLY, dtype=np.int64)  # the window's alpha on entry
    sp_beta = np.empty(MAX_PLY, dtype=np.int64)
    sp_best = np.empty(MAX_PLY, dtype=np.int64)
    sp_bestmv = np.empty(MAX_PLY, dtype=np.int64)
    sp_n = np.empty(MAX_PLY, dtype=np.int64)
    sp_k = np.empty(MAX_PLY, dtype=np.int64)
    sp_stage = np.empty(MAX_PLY, dtype=np.int64)
    sp_empties = np.empty(MAX_PLY, dtype=np.int64)
    mv = np.empty((MAX_PLY, MAX_MOVES), dtype=np.int64)
    cp_ = np.empty((MAX_PLY, MAX_MOVES), dtype=np.uint64)
    co_ = np.empty((MAX_PLY, MAX_MOVES), dtype=np.uint64)
    keys = np.empty(MAX_MOVES, dtype=np.int64)
    shallow = np.int64(0)  # nodes of the shallow solvers
    nodes = np.int64(0)

    sp = np.int64(-1)
    # the node to score next ("call"), or the value to hand back to frame sp ("return")
    np_ = U64(p)
    no = U64(o)
    na = np.int64(alpha)
    nb = np.int64(beta)
    calling = True
    v = np.int64(0)
    while True:
        if calling:
            nodes += 1
            if (nodes & _POLL) == 0 and stop[0] != 0:
                ctl[ABORTED] = 1
                ctl[NODES] += nodes + shallow
                return np.int64(0)
            empty = mask & ~(np_ | no)
            n = popcount(empty)
            calling = False
            if n <= SMALL:
                v, k = solve_small(np_, no, na, nb, empty, n)
                shallow += k
                continue
            moves = legal_moves(np_, no, mask)
            tmove = np.int64(-1)
            if moves == ZERO:
                if legal_moves(no, np_, mask) == ZERO:
                    v = final_score(np_, no, n)
                    continue
                # a pass: a frame with the one move
                sp += 1
                sp_p[sp] = np_
                sp_o[sp] = no
                sp_alpha[sp] = na
                sp_alpha0[sp] = na
                sp_beta[sp] = nb
                sp_best[sp] = -INF
                sp_bestmv[sp] = PASS_MOVE
                sp_n[sp] = 1
                sp_k[sp] = 1
                sp_stage[sp] = FIRST
                sp_empties[sp] = -1  # not stored
                mv[sp, 0] = PASS_MOVE
                cp_[sp, 0] = no
                co_[sp, 0] = np_
                np_, no = no, np_
                na, nb = -nb, -na
                calling = True
                continue
            r = _find(table, np_, no)
            if r >= 0:
                d = table[r, 2]
                lo = _lower(d)
                up = _upper(d)
                tmove = _move(d)
                if lo >= nb or lo == up:
                    v = lo
                    continue
                if up <= na:
                    v = up
                    continue
                if lo > na:
                    na = lo
                if up < nb:
                    nb = up
            sp += 1
            sp_p[sp] = np_
            sp_o[sp] = no
            sp_alpha[sp] = na
            sp_alpha0[sp] = na
            sp_beta[sp] = nb
            sp_best[sp] = -INF
            sp_bestmv[sp] = -1
            sp_stage[sp] = FIRST
            sp_empties[sp] = n
            k = np.int64(0)
            m = moves
            cut = False
            while m != ZERO:
                sq = lowest_square(m)
                m &= m - ONE
                f = flips(np_, no, sq)
                a = no ^ f
                b = np_ ^ f ^ (ONE << U64(sq))
                if n >= ETC_EMPTIES:
                    rc = _find(table, a, b)
                    if rc >= 0 and -_upper(table[rc, 2]) >= nb:
                        v = -_upper(table[rc, 2])
                        cut = True
                        break
                if sq == tmove:
                    key = np.int64(-INF)
                elif n >= SHALLOW_EMPTIES:
                    key = shallow_search(a, b, mask, SHALLOW_DEPTH, weights, MOBILITY_WEIGHT,
                                         MODE_MOBILITY)[0]
                else:
                    key = _order_key(a, b, mask, corners, sq)
                j = k
                while j > 0 and keys[j - 1] > key:  # insertion sort, stable
                    keys[j] = keys[j - 1]
                    mv[sp, j] = mv[sp, j - 1]
                    cp_[sp, j] = cp_[sp, j - 1]
                    co_[sp, j] = co_[sp, j - 1]
                    j -= 1
                keys[j] = key
                mv[sp, j] = sq
                cp_[sp, j] = a
                co_[sp, j] = b
                k += 1
            if cut:
                sp -= 1
                continue
            sp_n[sp] = k
            sp_k[sp] = 1
            np_ = cp_[sp, 0]
            no = co_[sp, 0]
            na, nb = -nb, -na
            calling = True
            continue

        # hand v back to frame sp
        if sp < 0:
            ctl[NODES] += nodes + shallow
            return v
        score = -v
        a = sp_alpha[sp]
        b = sp_beta[sp]
        k = sp_k[sp]
        if sp_stage[sp] == SCOUT and a < score < b:
            sp_stage[sp] = RESEARCH  # better than hoped: again with the full window
            np_ = cp_[sp, k - 1]
            no = co_[sp, k - 1]
            na = -b
            nb = -score
            calling = True
            continue
        if score > sp_best[sp]:
            sp_best[sp] = score
            sp_bestmv[sp] = mv[sp, k - 1]
            if score > a:
                a = score
                sp_alpha[sp] = a
        if score < b and k < sp_n[sp]:
            sp_k[sp] = k + 1
            sp_stage[sp] = SCOUT
            np_ = cp_[sp, k]
            no = co_[sp, k]
            na = -a - 1
            nb = -a
            calling = True
            continue
        # the frame is done: store and return its best
        best = sp_best[sp]
        if sp_empties[sp] >= 0:
            lower = np.int64(-64)
            upper = np.int64(64)
            if best >= b:
                lower = best
            elif best <= sp_alpha0[sp]:
                upper = best
            else:
                lower = best
                upper = best
            _store(table, sp_p[sp], sp_o[sp], sp_empties[sp], lower, upper, sp_bestmv[sp])
        v = best
        sp -= 1
