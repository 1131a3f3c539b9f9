"""Static evaluation v1: hand-built, phase-aware features on ``(player, opponent)``.

The interface the search relies on is one kernel, ``evaluate(p, o, mask, params)``: the
score of the position for the side to move, an int in disc-difference units clamped to
[-64, 64] (a finished game gets its exact official score), from an opaque int16 parameter
array built in Python (int16 keeps a stage's tables small in the cache). Its first
``HAND_SIZE`` entries are this module's hand-set weights
(``default_params()``); when trained pattern weights follow them
(:mod:`hasamigo._kernels.patterns`, loaded by :mod:`hasamigo.engine.evaluation`) a full
8×8 board is scored by the patterns and every other shape by the hand-set features, so
the search never knows which evaluation it runs. The search's inlined helpers call
``evaluate_at(p, o, mask, w, n)`` instead, the same function of the array's address and
length (``weights_address``): they take no arrays (see :mod:`hasamigo._kernels.memory`).

Features, each ``player - opponent`` (positive is good for the side to move), weighted
in 1/100 disc and blended linearly between the opening (60 empties) and the end (0):
mobility (corner moves count twice), frontier (opponent frontier minus own), corners,
X- and C-squares next to an empty corner (penalised), edge discs anchored on a corner
("stable-ish"), parity (who gets the last move) and the disc difference.
The corner/edge features assume the standard 8×8 frame; on other shapes they are only
weaker, never wrong (the search is exact wherever it reaches the end).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import (
    CORNERS,
    FILE_A,
    FILE_GATHER,
    FULL,
    NOT_A_FILE,
    NOT_H_FILE,
    U64,
    ZERO,
    popcount,
)
from hasamigo._kernels.config import NJIT, NJIT_INLINE, NJIT_LLVM_INLINE
from hasamigo._kernels.endgame import final_score
from hasamigo._kernels.memory import load_int16
from hasamigo._kernels.moves import legal_moves
from hasamigo._kernels.patterns import pattern_score, vector_score, weights_address

A1 = U64(0x0000000000000001)
H1 = U64(0x0000000000000080)
A8 = U64(0x0100000000000000)
H8 = U64(0x8000000000000000)
S1 = U64(1)
S7 = U64(7)
S8 = U64(8)
S9 = U64(9)
S56 = U64(56)

# feature indices (rows of the parameter array; columns: opening weight, end weight)
MOBILITY, FRONTIER, CORNER, X_SQUARE, C_SQUARE, EDGE, PARITY, DISCS = range(8)
N_FEATURES = 8
HAND_SIZE = 2 * N_FEATURES
PHASE = 60  # empties at the start of an 8×8 game


def default_params() -> np.ndarray:
    """The hand-set weights alone: int16, ``HAND_SIZE`` long (feature ``k``'s opening and
    end weights at ``2k`` and ``2k + 1``), 1/100 disc per unit of feature."""
    w = np.zeros((N_FEATURES, 2), dtype=np.int16)
    w[MOBILITY] = (80, 40)
    w[FRONTIER] = (30, 10)
    w[CORNER] = (450, 250)
    w[X_SQUARE] = (300, 80)
    w[C_SQUARE] = (100, 30)
    w[EDGE] = (90, 120)
    w[PARITY] = (0, 150)
    w[DISCS] = (-6, 50)
    flat: np.ndarray = w.reshape(-1)
    return flat


def _edge_table() -> np.ndarray:
    """``EDGE[byte]``: discs of an edge line contiguous from either end (each counted once)."""
    table = np.zeros(256, dtype=np.int64)
    for b in range(256):
        anchored = 0
        for i in range(8):
            if not b >> i & 1:
                break
            anchored |= 1 << i
        for i in range(7, -1, -1):
            if not b >> i & 1:
                break
            anchored |= 1 << i
        table[b] = bin(anchored).count("1")
    return table


EDGE_TABLE = _edge_table()


@njit(**NJIT_INLINE)
def neighbours(x):  # type: ignore[no-untyped-def]
    """Squares next to a square of ``x`` in one of the eight directions."""
    w = (x >> S1) & NOT_H_FILE
    e = (x << S1) & NOT_A_FILE
    r = x | w | e
    return w | e | (r << S8) | (r >> S8)


@njit(**NJIT_INLINE)
def anchored_edges(x):  # type: ignore[no-untyped-def]
    """Discs of ``x`` on the four edges in an unbroken run from a corner."""
    top = EDGE_TABLE[np.int64(x & U64(0xFF))]
    bottom = EDGE_TABLE[np.int64(x >> S56)]
    left = EDGE_TABLE[np.int64(((x & FILE_A) * FILE_GATHER) >> S56)]
    right = EDGE_TABLE[np.int64((((x >> S7) & FILE_A) * FILE_GATHER) >> S56)]
    return top + bottom + left + right


@njit(**NJIT_INLINE)
def _weight(w, k, ne):  # type: ignore[no-untyped-def]
    return (load_int16(w, 2 * k) * ne + load_int16(w, 2 * k + 1) * (PHASE - ne)) // PHASE


@njit(**NJIT_INLINE)
def evaluate(p, o, mask, params):  # type: ignore[no-untyped-def]
    """Score of ``(p, o)`` for the side to move in discs, clamped to [-64, 64]."""
    return evaluate_at(p, o, mask, weights_address(params), params.shape[0])


@njit(**NJIT_LLVM_INLINE)
def evaluate_at(p, o, mask, w, n):  # type: ignore[no-untyped-def]
    """:func:`evaluate` with the ``n`` parameters at address ``w`` (``weights_address``):
    for the search's inlined helpers, which take no arrays (see
    :mod:`hasamigo._kernels.memory`)."""
    empty = mask & ~(p | o)
    ne = popcount(empty)
    if ne > PHASE:
        ne = np.int64(PHASE)
    mp = legal_moves(p, o, mask)
    mo = legal_moves(o, p, mask)
    if mp == ZERO and mo == ZERO:
        return final_score(p, o, popcount(empty))
    if mask == FULL and n > HAND_SIZE:
        s = pattern_score(p, o, mp, mo, ne, w, HAND_SIZE)
        if s > 64:
            return np.int64(64)
        if s < -64:
            return np.int64(-64)
        return s
    mobility = popcount(mp) + popcount(mp & CORNERS) - popcount(mo) - popcount(mo & CORNERS)
    near_empty = neighbours(empty)
    frontier = popcount(near_empty & o) - popcount(near_empty & p)
    corners = popcount(p & CORNERS) - popcount(o & CORNERS)
    ec = empty & CORNERS
    xm = ((ec & A1) << S9) | ((ec & H1) << S7) | ((ec & A8) >> S7) | ((ec & H8) >> S9)
    cm = (((ec & A1) << S1) | ((ec & A1) << S8) | ((ec & H1) >> S1) | ((ec & H1) << S8)
          | ((ec & A8) << S1) | ((ec & A8) >> S8) | ((ec & H8) >> S1) | ((ec & H8) >> S8))
    xs = popcount(o & xm) - popcount(p & xm)
    cs = popcount(o & cm) - popcount(p & cm)
    edges = anchored_edges(p) - anchored_edges(o)
    parity = np.int64(1) if ne & 1 else np.int64(-1)
    discs = popcount(p) - popcount(o)
    s = (_weight(w, MOBILITY, ne) * mobility
         + _weight(w, FRONTIER, ne) * frontier
         + _weight(w, CORNER, ne) * corners
         + _weight(w, X_SQUARE, ne) * xs
         + _weight(w, C_SQUARE, ne) * cs
         + _weight(w, EDGE, ne) * edges
         + _weight(w, PARITY, ne) * parity
         + _weight(w, DISCS, ne) * discs)
    s = (s + 50) // 100 if s >= 0 else -((50 - s) // 100)
    if s > 64:
        return np.int64(64)
    if s < -64:
        return np.int64(-64)
    return s


@njit(**NJIT)
def evaluate_call(p, o, mask, w, n):  # type: ignore[no-untyped-def]
    """:func:`evaluate_at` as a call, compiled once: for the move ordering's many call
    sites. Inlined at each of them, ``search`` held seven copies and compiled for a minute;
    only its leaves inline the evaluation itself."""
    return evaluate_at(p, o, mask, w, n)


@njit(**NJIT)
def evaluate_vector(p, o, x, mp, w):  # type: ignore[no-untyped-def]
    """:func:`evaluate_at` of a full 8×8 board under trained pattern weights (at address
    ``w``, after the ``HAND_SIZE`` hand-set ones), from the position's pattern indices at
    ``x`` (:func:`~hasamigo._kernels.patterns.pattern_vectors`,
    :func:`~hasamigo._kernels.patterns.child_vector`) and its side to move's moves ``mp``:
    the search's children are scored from their parent's indices, not read again."""
    mo = legal_moves(o, p, FULL)
    ne = popcount(~(p | o))
    if mp == ZERO and mo == ZERO:
        return final_score(p, o, ne)
    s = vector_score(x, mp, mo, ne, w, HAND_SIZE)
    if s > 64:
        return np.int64(64)
    if s < -64:
        return np.int64(-64)
    return s


@njit(**NJIT)
def evaluate_position(p, o, mask, params):  # type: ignore[no-untyped-def]
    """Python entry point for :func:`evaluate`."""
    return evaluate_call(U64(p), U64(o), U64(mask), weights_address(params), params.shape[0])


__all__ = ["HAND_SIZE", "default_params", "evaluate", "evaluate_at", "evaluate_call",
           "evaluate_position", "evaluate_vector"]
