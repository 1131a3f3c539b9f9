"""Midgame search, exact solver and hand-set evaluation on the 10-column grid (boards up
to 10×10: Grand Othello, Eight Stars, Hasegawa's 8×9 and 9×10).

The 8×8 kernels (:mod:`.search`, :mod:`.endgame`, :mod:`.evaluate`) stay the hot path and
are untouched; this module is their simpler sibling on the two-word boards of
:mod:`hasamigo._kernels.wide` (a side is ``(lo, hi)``, square ``row * 10 + col``).

``search`` scores ``(p, o)`` to ``depth`` plies with principal-variation search, fail-soft
in ``(alpha, beta)``: a pass costs no depth, a finished game scores exactly (the official
count: empties to the winner), ``depth >= empties`` is an exact solve. Iterative with an
explicit stack of frames (recursive cached kernels crashed, numba #6061). Every 1024
nodes it polls ``stop[0]`` and the node budget ``ctl[LIMIT]`` (no wall clock); when either
trips it sets ``ctl[ABORTED]`` and returns 0. Move ordering: the table's move first, then
the child's static evaluation 3+ plies from the horizon, else the fewest opponent replies
(corner replies counted twice) -- at exact nodes always the fewest replies (fastest first).

The transposition table is its own (:func:`table_new`): one row per slot, the four key
words and ``lower, upper, depth, move, date``; a probe answers only from the same position
(a full-key match), so a hit is never a collision. Only its cutoffs are used (a bound
beyond the window, or an exact score), never a narrowed window: each score it returns is
one the search itself would prove. Single-threaded (the engine searches wide boards on
one thread).

The evaluation (:func:`evaluate`) is the hand-set one of :mod:`.evaluate` on any shape:
the per-shape squares come from Python in a ``geometry`` array (:func:`geometry` builds it
from the playable mask), so corners are wherever the shape has them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import ONE, U64, ZERO, lowest_square, popcount
from hasamigo._kernels.config import NJIT, NJIT_INLINE
from hasamigo._kernels.endgame import empties_to_winner
from hasamigo._kernels.evaluate import (
    C_SQUARE,
    CORNER,
    DISCS,
    FRONTIER,
    MOBILITY,
    PARITY,
    X_SQUARE,
)
from hasamigo._kernels.wide import NEXT, STRIDE, flips, flips_at, join, legal_moves, split

# ctl slots (int64), as in hasamigo._kernels.search: budget in; nodes and the abort flag out
LIMIT = 0
NODES = 1
ABORTED = 2
CTL_SIZE = 3
# flags: switches for tests (both on in play)
USE_HASH = 1
USE_ORDER = 2
ALL_FLAGS = USE_HASH | USE_ORDER

PASS_MOVE = 100  # square 64 is a real square here: a pass is 100
MAX_PLY = 200  # 96 moves at most and as many passes, with room
MAX_MOVES = 100
INF = 1000
HASH_MIN_DEPTH = 2  # midgame nodes this near the horizon skip the table
EVAL_ORDER_DEPTH = 3  # midgame nodes this far from the horizon sort by the child's evaluation
_POLL = 1023

# geometry rows (uint64 pairs): the playable mask, every corner, then per corner k its
# square (row CORNER0 + 3k), X-squares (+1) and C-squares (+2)
G_MASK = 0
G_CORNERS = 1
G_FIRST = 2

# table columns
T_LOWER, T_UPPER, T_DEPTH, T_MOVE, T_DATE = range(5)

_K1 = U64(0x9E3779B97F4A7C15)
_K2 = U64(0xC2B2AE3D27D4EB4F)
_K3 = U64(0x165667B19E3779F9)
_K4 = U64(0xD6E8FEB86659FD93)
_S29 = U64(29)
_S1 = U64(1)
_S10 = U64(10)
_S54 = U64(54)
_S63 = U64(63)

_LOW = (1 << 64) - 1


def _column(c: int) -> int:
    return sum(1 << (r * STRIDE + c) for r in range(STRIDE))


NOT_A_LO, NOT_A_HI = U64(~_column(0) & _LOW), U64((~_column(0) >> 64) & _LOW)
NOT_J_LO, NOT_J_HI = U64(~_column(9) & _LOW), U64((~_column(9) >> 64) & _LOW)


# ---- Python side: the shape's squares ---------------------------------------------------


def corners_of(mask: int) -> list[int]:
    """The corners of a shape: playable squares that no line can flip, i.e. on each of
    the four lines through the square (row, column, both diagonals) at least one of its
    two neighbours is off the board (outside the grid or not playable). On a rectangle
    these are its four corners; on Eight Stars the eight ends of the octagon's diagonal
    edges (c1, h1, a3, j3, a8, j8, c10, h10)."""
    def on(sq: int) -> bool:
        return sq >= 0 and bool(mask >> sq & 1)

    found = []
    for sq in range(STRIDE * STRIDE):
        if not mask >> sq & 1:
            continue
        # NEXT directions: 0 E, 1 S, 2 SW, 3 SE, 4 W, 5 N, 6 NE, 7 NW
        lines = ((0, 4), (1, 5), (3, 7), (2, 6))
        if all(not on(int(NEXT[a, sq])) or not on(int(NEXT[b, sq])) for a, b in lines):
            found.append(sq)
    return found


def geometry(mask: int) -> np.ndarray:
    """The ``geometry`` array of a shape for :func:`evaluate` (uint64, rows of ``lo, hi``):
    the mask, the corners, then each corner with its X-squares (playable diagonal
    neighbours) and C-squares (playable orthogonal neighbours), corners excepted."""
    corners = corners_of(mask)
    rows = [mask, sum(1 << c for c in corners)]
    def near(c: int, directions: tuple[int, ...]) -> int:
        squares = [int(NEXT[d, c]) for d in directions]
        return sum(1 << n for n in squares if n >= 0 and mask >> n & 1 and n not in corners)

    for c in corners:
        rows += [1 << c, near(c, (2, 3, 6, 7)), near(c, (0, 1, 4, 5))]
    out = np.zeros((len(rows), 2), dtype=np.uint64)
    for i, r in enumerate(rows):
        out[i, 0], out[i, 1] = split(r)
    return out


def table_new(size: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty table of ``size`` rows (rounded down to a power of two): keys, values."""
    rows = 1 << max(1, int(size).bit_length() - 1)
    keys = np.zeros((rows, 4), dtype=np.uint64)
    vals = np.zeros((rows, 5), dtype=np.int64)
    vals[:, T_DEPTH] = -1  # an empty row
    return keys, vals


def table_clear(keys: np.ndarray, vals: np.ndarray) -> None:
    keys[:] = 0
    vals[:] = 0
    vals[:, T_DEPTH] = -1


# ---- kernels ------------------------------------------------------------------------------


@njit(**NJIT_INLINE)
def _shl(lo, hi, s, r):  # type: ignore[no-untyped-def]
    """``(lo, hi) << s`` (``r = 64 - s``)."""
    return lo << s, (hi << s) | (lo >> r)


@njit(**NJIT_INLINE)
def _shr(lo, hi, s, r):  # type: ignore[no-untyped-def]
    """``(lo, hi) >> s`` (``r = 64 - s``)."""
    return (lo >> s) | (hi << r), hi >> s


@njit(**NJIT_INLINE)
def neighbours(lo, hi):  # type: ignore[no-untyped-def]
    """Squares of the 10×10 grid next to a square of ``(lo, hi)`` (not masked to a shape)."""
    w_lo, w_hi = _shr(lo, hi, _S1, _S63)
    w_lo &= NOT_J_LO
    w_hi &= NOT_J_HI
    e_lo, e_hi = _shl(lo, hi, _S1, _S63)
    e_lo &= NOT_A_LO
    e_hi &= NOT_A_HI
    r_lo = lo | w_lo | e_lo
    r_hi = hi | w_hi | e_hi
    u_lo, u_hi = _shl(r_lo, r_hi, _S10, _S54)
    d_lo, d_hi = _shr(r_lo, r_hi, _S10, _S54)
    return w_lo | e_lo | u_lo | d_lo, w_hi | e_hi | u_hi | d_hi


@njit(**NJIT_INLINE)
def final_score(pl, ph, ol, oh, ne):  # type: ignore[no-untyped-def]
    """Official disc difference of a finished game: the empties go to the winner."""
    return empties_to_winner(popcount(pl) + popcount(ph) - popcount(ol) - popcount(oh), ne)


@njit(**NJIT_INLINE)
def _count2(lo, hi):  # type: ignore[no-untyped-def]
    return popcount(lo) + popcount(hi)


@njit(**NJIT_INLINE)
def _weight(params, k, ne, phase):  # type: ignore[no-untyped-def]
    return (np.int64(params[2 * k]) * ne + np.int64(params[2 * k + 1]) * (phase - ne)) // phase


@njit(**NJIT)
def evaluate(pl, ph, ol, oh, geo, params):  # type: ignore[no-untyped-def]
    """Score of ``(p, o)`` for the side to move in discs (the exact score of a finished
    game), clamped to the number of squares. The features and weights of
    :mod:`hasamigo._kernels.evaluate` (params' first entries) except the anchored edges;
    blended from the start (playable squares - 4 empties) to the end."""
    ml = geo[G_MASK, 0]
    mh = geo[G_MASK, 1]
    el = ml & ~(pl | ol)
    eh = mh & ~(ph | oh)
    ne = _count2(el, eh)
    mp_l, mp_h = legal_moves(pl, ph, ol, oh, ml, mh)
    mo_l, mo_h = legal_moves(ol, oh, pl, ph, ml, mh)
    if (mp_l | mp_h | mo_l | mo_h) == ZERO:
        return final_score(pl, ph, ol, oh, ne)
    n_sq = _count2(ml, mh)
    phase = n_sq - 4
    if phase < 1:
        phase = np.int64(1)
    nc = ne if ne < phase else phase
    cl = geo[G_CORNERS, 0]
    ch = geo[G_CORNERS, 1]
    mobility = (_count2(mp_l, mp_h) + _count2(mp_l & cl, mp_h & ch)
                - _count2(mo_l, mo_h) - _count2(mo_l & cl, mo_h & ch))
    nl, nh = neighbours(el, eh)
    frontier = _count2(nl & ol, nh & oh) - _count2(nl & pl, nh & ph)
    corners = _count2(pl & cl, ph & ch) - _count2(ol & cl, oh & ch)
    xs = np.int64(0)
    cs = np.int64(0)
    for k in range(G_FIRST, geo.shape[0], 3):
        if ((geo[k, 0] & el) | (geo[k, 1] & eh)) != ZERO:  # an empty corner
            xs += _count2(ol & geo[k + 1, 0], oh & geo[k + 1, 1])
            xs -= _count2(pl & geo[k + 1, 0], ph & geo[k + 1, 1])
            cs += _count2(ol & geo[k + 2, 0], oh & geo[k + 2, 1])
            cs -= _count2(pl & geo[k + 2, 0], ph & geo[k + 2, 1])
    parity = np.int64(1) if ne & 1 else np.int64(-1)
    discs = _count2(pl, ph) - _count2(ol, oh)
    s = (_weight(params, MOBILITY, nc, phase) * mobility
         + _weight(params, FRONTIER, nc, phase) * frontier
         + _weight(params, CORNER, nc, phase) * corners
         + _weight(params, X_SQUARE, nc, phase) * xs
         + _weight(params, C_SQUARE, nc, phase) * cs
         + _weight(params, PARITY, nc, phase) * parity
         + _weight(params, DISCS, nc, phase) * discs)
    s = (s + 50) // 100 if s >= 0 else -((50 - s) // 100)
    if s > n_sq:
        return n_sq
    if s < -n_sq:
        return -n_sq
    return s


@njit(**NJIT_INLINE)
def _slot(keys, pl, ph, ol, oh):  # type: ignore[no-untyped-def]
    h = (pl * _K1) ^ (ph * _K2) ^ (ol * _K3) ^ (oh * _K4)
    h ^= h >> _S29
    return np.int64(h & U64(keys.shape[0] - 1))


@njit(**NJIT_INLINE)
def _probe(keys, pl, ph, ol, oh):  # type: ignore[no-untyped-def]
    """The row of ``(p, o)`` in the table, -1 when it is not there."""
    i = _slot(keys, pl, ph, ol, oh)
    if keys[i, 0] == pl and keys[i, 1] == ph and keys[i, 2] == ol and keys[i, 3] == oh:
        return i
    return np.int64(-1)


@njit(**NJIT_INLINE)
def _store(keys, vals, pl, ph, ol, oh, depth, date, alpha, beta, v, move):  # type: ignore[no-untyped-def]
    """Store the fail-soft score ``v`` of a search in ``(alpha, beta)``: the same
    position or an older search's row is replaced, else a row searched no deeper."""
    i = _slot(keys, pl, ph, ol, oh)
    same = keys[i, 0] == pl and keys[i, 1] == ph and keys[i, 2] == ol and keys[i, 3] == oh
    if not same and vals[i, T_DATE] == date and vals[i, T_DEPTH] > depth:
        return
    keys[i, 0] = pl
    keys[i, 1] = ph
    keys[i, 2] = ol
    keys[i, 3] = oh
    vals[i, T_LOWER] = v if v > alpha else -INF
    vals[i, T_UPPER] = v if v < beta else INF
    vals[i, T_DEPTH] = depth
    vals[i, T_MOVE] = move
    vals[i, T_DATE] = date


@njit(**NJIT_INLINE)
def _bit(sq):  # type: ignore[no-untyped-def]
    """``(lo, hi)`` of square ``sq``."""
    if sq < 64:
        return ONE << U64(sq), ZERO
    return ZERO, ONE << U64(sq - 64)


@njit(**NJIT_INLINE)
def _order(pl, ph, ol, oh, ml, mh, mv_l, mv_h, hmove, exact, depth, geo, params, out, keys,
           ordered):  # type: ignore[no-untyped-def]
    """Write the moves into ``out`` best first; return how many."""
    n = 0
    cl = geo[G_CORNERS, 0]
    ch = geo[G_CORNERS, 1]
    for half in range(2):
        m = mv_l if half == 0 else mv_h
        while m != ZERO:
            sq = lowest_square(m) + 64 * half
            m &= m - ONE
            if not ordered:
                k = np.int64(0)
            elif sq == hmove:
                k = np.int64(-INF * 16)
            else:
                bl, bh = _bit(sq)
                fl, fh = flips(pl, ph, ol, oh, sq)
                npl, nph = ol ^ fl, oh ^ fh
                nol, noh = pl ^ fl ^ bl, ph ^ fh ^ bh
                if exact or depth < EVAL_ORDER_DEPTH:
                    rl, rh = legal_moves(npl, nph, nol, noh, ml, mh)
                    k = _count2(rl, rh) + _count2(rl & cl, rh & ch)
                else:
                    k = evaluate(npl, nph, nol, noh, geo, params)
            j = n
            while j > 0 and keys[j - 1] > k:
                keys[j] = keys[j - 1]
                out[j] = out[j - 1]
                j -= 1
            keys[j] = k
            out[j] = sq
            n += 1
    return n


@njit(**NJIT)
def search(p_lo, p_hi, o_lo, o_hi, geo, depth, alpha, beta, keys, vals, date, params,
           stop, ctl, flags):  # type: ignore[no-untyped-def]
    """Score of ``(p, o)`` for the side to move searched ``depth`` plies, fail-soft in
    ``(alpha, beta)``; ``depth >= empties`` is an exact solve. Adds nodes to ``ctl[NODES]``."""
    fpl = np.empty(MAX_PLY, dtype=np.uint64)
    fph = np.empty(MAX_PLY, dtype=np.uint64)
    fol = np.empty(MAX_PLY, dtype=np.uint64)
    foh = np.empty(MAX_PLY, dtype=np.uint64)
    fa = np.empty(MAX_PLY, dtype=np.int64)  # alpha, raised as moves improve it
    fa0 = np.empty(MAX_PLY, dtype=np.int64)  # alpha at entry
    fb = np.empty(MAX_PLY, dtype=np.int64)
    fd = np.empty(MAX_PLY, dtype=np.int64)
    fbest = np.empty(MAX_PLY, dtype=np.int64)
    fbm = np.empty(MAX_PLY, dtype=np.int64)
    fcur = np.empty(MAX_PLY, dtype=np.int64)
    fn = np.empty(MAX_PLY, dtype=np.int64)
    fi = np.empty(MAX_PLY, dtype=np.int64)
    fscout = np.empty(MAX_PLY, dtype=np.bool_)  # the child in search is a null-window scout
    fhash = np.empty(MAX_PLY, dtype=np.bool_)
    fmv = np.empty((MAX_PLY, MAX_MOVES), dtype=np.int64)
    kbuf = np.empty(MAX_MOVES, dtype=np.int64)
    use_hash = (flags & USE_HASH) != 0
    ordered = (flags & USE_ORDER) != 0
    limit = ctl[LIMIT]
    ml = geo[G_MASK, 0]
    mh = geo[G_MASK, 1]

    fpl[0] = U64(p_lo)
    fph[0] = U64(p_hi)
    fol[0] = U64(o_lo)
    foh[0] = U64(o_hi)
    fa[0] = alpha
    fb[0] = beta
    fd[0] = depth
    ply = 0
    entering = True
    v = np.int64(0)
    nodes = np.int64(0)
    poll = np.int64(_POLL + 1)
    while True:
        leaf = False
        if entering:
            nodes += 1
            if nodes >= poll:
                poll = nodes + _POLL + 1
                if stop[0] != 0 or (limit > 0 and nodes >= limit):
                    ctl[NODES] += nodes
                    ctl[ABORTED] = 1
                    return np.int64(0)
            pl = fpl[ply]
            ph = fph[ply]
            ol = fol[ply]
            oh = foh[ply]
            a = fa[ply]
            b = fb[ply]
            d = fd[ply]
            ne = _count2(ml & ~(pl | ol), mh & ~(ph | oh))
            if d >= ne:
                d = ne
                fd[ply] = ne
            if ne == 0:
                v = final_score(pl, ph, ol, oh, ne)
                leaf = True
            elif d <= 0:
                v = evaluate(pl, ph, ol, oh, geo, params)  # exact if the game is over
                leaf = True
            hmove = np.int64(-1)
            hashed = use_hash and (d >= ne or d >= HASH_MIN_DEPTH)
            fhash[ply] = hashed
            if not leaf and hashed:
                row = _probe(keys, pl, ph, ol, oh)
                if row >= 0:
                    hmove = vals[row, T_MOVE]
                    if vals[row, T_DEPTH] >= d:
                        lo = vals[row, T_LOWER]
                        hi = vals[row, T_UPPER]
                        if lo >= b or lo == hi:
                            v = lo
                            leaf = True
                        elif hi <= a:
                            v = hi
                            leaf = True
            if not leaf:
                mv_l, mv_h = legal_moves(pl, ph, ol, oh, ml, mh)
                if (mv_l | mv_h) == ZERO:
                    x_l, x_h = legal_moves(ol, oh, pl, ph, ml, mh)
                    if (x_l | x_h) == ZERO:
                        v = final_score(pl, ph, ol, oh, ne)
                        leaf = True
                    else:
                        fmv[ply, 0] = PASS_MOVE
                        fn[ply] = 1
                else:
                    fn[ply] = _order(pl, ph, ol, oh, ml, mh, mv_l, mv_h, hmove, d >= ne, d,
                                     geo, params, fmv[ply], kbuf, ordered)
                fa0[ply] = a
                fbest[ply] = -INF
                fbm[ply] = -1
                fi[ply] = 0
        else:
            # a child of this frame returned v (from its side)
            v = -v
            if fscout[ply] and v > fa[ply] and v < fb[ply]:
                fscout[ply] = False  # re-search with the window from v
                fa[ply + 1] = -fb[ply]
                fb[ply + 1] = -v
                fd[ply + 1] = fd[ply] if fcur[ply] == PASS_MOVE else fd[ply] - 1
                ply += 1
                entering = True
                continue
            if v > fbest[ply]:
                fbest[ply] = v
                fbm[ply] = fcur[ply]
                if v > fa[ply]:
                    fa[ply] = v
        if leaf:
            if ply == 0:
                ctl[NODES] += nodes
                return v
            ply -= 1
            entering = False
            continue
        # next move of this frame, or its end
        if fbest[ply] < fb[ply] and fi[ply] < fn[ply]:
            sq = fmv[ply, fi[ply]]
            fi[ply] += 1
            fcur[ply] = sq
            pl = fpl[ply]
            ph = fph[ply]
            ol = fol[ply]
            oh = foh[ply]
            if sq == PASS_MOVE:
                fpl[ply + 1] = ol
                fph[ply + 1] = oh
                fol[ply + 1] = pl
                foh[ply + 1] = ph
                fd[ply + 1] = fd[ply]
            else:
                bl, bh = _bit(sq)
                fl, fh = flips(pl, ph, ol, oh, sq)
                fpl[ply + 1] = ol ^ fl
                fph[ply + 1] = oh ^ fh
                fol[ply + 1] = pl ^ fl ^ bl
                foh[ply + 1] = ph ^ fh ^ bh
                fd[ply + 1] = fd[ply] - 1
            if fi[ply] == 1 or fb[ply] - fa[ply] == 1:
                fscout[ply] = False
                fa[ply + 1] = -fb[ply]
                fb[ply + 1] = -fa[ply]
            else:
                fscout[ply] = True
                fa[ply + 1] = -fa[ply] - 1
                fb[ply + 1] = -fa[ply]
            ply += 1
            entering = True
            continue
        v = fbest[ply]
        if fhash[ply]:
            _store(keys, vals, fpl[ply], fph[ply], fol[ply], foh[ply], fd[ply], date,
                   fa0[ply], fb[ply], v, fbm[ply])
        if ply == 0:
            ctl[NODES] += nodes
            return v
        ply -= 1
        entering = False


@njit(**NJIT)
def evaluate_entry(p_lo, p_hi, o_lo, o_hi, geo, params):  # type: ignore[no-untyped-def]
    """Python entry point for :func:`evaluate`."""
    return evaluate(U64(p_lo), U64(p_hi), U64(o_lo), U64(o_hi), geo, params)


@njit(**NJIT)
def table_move(keys, vals, p_lo, p_hi, o_lo, o_hi):  # type: ignore[no-untyped-def]
    """The move the table holds for ``(p, o)`` (-1: none)."""
    row = _probe(keys, U64(p_lo), U64(p_hi), U64(o_lo), U64(o_hi))
    if row < 0:
        return np.int64(-1)
    return vals[row, T_MOVE]


def child_position(p: int, o: int, sq: int) -> tuple[int, int]:
    """The pair (Python ints) after the side to move plays ``sq`` (``PASS_MOVE``: a pass)."""
    if sq == PASS_MOVE:
        return o, p
    f = join(*flips_at(*split(p), *split(o), sq))
    return o & ~f, p | f | (1 << sq)
