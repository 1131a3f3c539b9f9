"""Python entry points for the nodes the parallel search drives from Python.

The parallel search (:mod:`hasamigo.engine.parallel`) plays the top of the tree in
Python, where its threads share out the moves, and hands every smaller subtree to
:func:`hasamigo._kernels.search.search`. So that a node it plays is the node the kernel
would have played, it asks these kernels what the kernel asks itself: the table's row
(:func:`node_probe`), the moves in the kernel's order (:func:`node_order`, the same
:func:`~hasamigo._kernels.search._order_moves`), the one-ply score an exact node's probable
cut compares with its window (:func:`exact_cut_score`), the midgame probable cut's margin
and depth (:func:`midgame_cut`), and it stores its result as the kernel does
(:func:`node_store`). Each is one call per node: the nodes played in Python are few (the
subtrees under them are searched by the kernel).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import U64, ZERO, popcount
from hasamigo._kernels.config import NJIT
from hasamigo._kernels.hashtable import (
    entry_depth,
    entry_level,
    entry_lower,
    entry_move,
    entry_upper,
    hash_probe,
    hash_store,
)
from hasamigo._kernels.memory import as_int32, at, data_pointer
from hasamigo._kernels.moves import legal_moves
from hasamigo._kernels.patterns import N_INSTANCES, weights_address
from hasamigo._kernels.search import (
    MAX_MOVES,
    PROBCUT_SIGMA0,
    PROBCUT_SIGMA1,
    PROBCUT_T,
    _order_moves,
    _reply_score,
    probcut_depth,
    probcut_margin,
)


@njit(**NJIT)
def node_probe(table, p, o):  # type: ignore[no-untyped-def]
    """The table's row for ``(p, o)``: its move (-1: none), lower and upper bounds, depth
    (-1: no row) and confidence level."""
    e = hash_probe(data_pointer(table), table.shape[0], U64(p), U64(o))
    if e == ZERO:
        return np.int64(-1), np.int64(-64), np.int64(64), np.int64(-1), np.int64(0)
    return entry_move(e), entry_lower(e), entry_upper(e), entry_depth(e), entry_level(e)


@njit(**NJIT)
def node_store(table, p, o, depth, level, date, alpha, beta, score, move):  # type: ignore[no-untyped-def]
    """Store the result ``score`` of a search of ``(p, o)`` in the window ``(alpha, beta)``
    as the kernel stores its nodes' (:func:`~hasamigo._kernels.hashtable.hash_store`)."""
    hash_store(data_pointer(table), table.shape[0], U64(p), U64(o), np.int64(depth),
               np.int64(level), np.int64(date), np.int64(alpha), np.int64(beta),
               np.int64(score), np.int64(move))


#: the sizes of :func:`node_order`'s buffers: ``out`` int64, ``scratch`` uint64
ORDER_OUT = 2 * MAX_MOVES
ORDER_SCRATCH = 5 * MAX_MOVES + 2 * N_INSTANCES


@njit(**NJIT)
def node_order(p, o, mask, depth, hmove, table, params, flags, out, scratch):  # type: ignore[no-untyped-def]
    """Write ``(p, o)``'s legal moves into ``out`` (``ORDER_OUT`` int64; ``scratch``:
    ``ORDER_SCRATCH`` uint64, the caller's, as the pointers into it must outlive the call)
    in the order the search kernel tries them at a node ``depth`` plies from its horizon
    (``depth >= empties``: an exact node) whose table move is ``hmove``; return how many."""
    p = U64(p)
    o = U64(o)
    mask = U64(mask)
    ne = popcount(mask & ~(p | o))
    exact = depth >= ne
    d = ne if exact else np.int64(depth)
    moves = legal_moves(p, o, mask)
    s = data_pointer(scratch)
    mv = data_pointer(out)
    vec = as_int32(at(s, 5 * MAX_MOVES))
    return _order_moves(p, o, mask, moves, np.int64(hmove), np.bool_(exact), d,
                        weights_address(params), params.shape[0], mv, s, at(s, MAX_MOVES),
                        at(mv, MAX_MOVES), flags, np.bool_(False), at(s, 2 * MAX_MOVES),
                        data_pointer(table), table.shape[0], np.bool_(False), vec, vec, vec)


@njit(**NJIT)
def exact_cut_score(p, o, mask, level, params):  # type: ignore[no-untyped-def]
    """An exact node's probable cut at confidence ``level`` (1..PROBCUT_LEVELS): the
    one-ply score the kernel compares with the window and its margin, both in discs."""
    p = U64(p)
    o = U64(o)
    mask = U64(mask)
    ne = popcount(mask & ~(p | o))
    scratch = np.zeros(2 * N_INSTANCES, dtype=np.uint64)
    vec = as_int32(data_pointer(scratch))  # not read (no pattern indices): typed only
    vs = _reply_score(p, o, legal_moves(p, o, mask), mask, weights_address(params),
                      params.shape[0], np.bool_(False), vec, vec)
    scratch[0] = 0  # (kept alive to here)
    margin = (PROBCUT_T[level - 1] * (PROBCUT_SIGMA0 + PROBCUT_SIGMA1 * ne)) // 10000
    return vs, margin


@njit(**NJIT)
def midgame_cut(level, empties, depth):  # type: ignore[no-untyped-def]
    """A midgame probable cut at confidence ``level`` for a node ``depth`` plies from the
    horizon with ``empties`` empties: its margin in discs and its shallow search's plies."""
    return probcut_margin(np.int64(level), np.int64(empties), np.int64(depth)), \
        probcut_depth(np.int64(depth))


__all__ = ["ORDER_OUT", "ORDER_SCRATCH", "exact_cut_score", "midgame_cut", "node_order",
           "node_probe", "node_store"]
