"""Transposition table in numpy arrays, shared by the midgame search and the endgame solver.

Two arrays of ``size`` rows (a power of two), probed as buckets of two rows:

* ``keys[i] = (player, opponent)``: the full position, so a hit is never a collision;
* ``vals[i] = (lower, upper, depth, move, date, level)`` as int16: bounds on the score from
  the side to move, the depth searched (``depth >= empties`` means exact play to the end),
  the best or refuting move (64 = pass, -1 = none), the search generation and the
  *confidence level* of the bounds: ``FULL_LEVEL`` for a search without selective cuts,
  lower for one with probable cuts (:mod:`hasamigo._kernels.search`), whose bounds only a
  search at that level or a less confident one may use (any search may use its move).

A store into a bucket replaces the same position, else the row of an older search, else
the shallower row (``hash_store``). Scores are disc differences in [-64, 64].
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import U64
from hasamigo._kernels.config import NJIT, NJIT_INLINE

LOWER = 0
UPPER = 1
DEPTH = 2
MOVE = 3
DATE = 4
LEVEL = 5
FULL_LEVEL = 7  # no selective cuts
NO_MOVE = -1

_K1 = U64(0x9E3779B97F4A7C15)
_K2 = U64(0xC2B2AE3D27D4EB4F)
_S31 = U64(31)


def hash_new(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Empty table arrays with ``size`` rows (rounded down to a power of two, at least 2)."""
    rows = 1 << max(1, int(size).bit_length() - 1)
    keys = np.zeros((rows, 2), dtype=np.uint64)
    vals = np.zeros((rows, 6), dtype=np.int16)
    vals[:, MOVE] = NO_MOVE
    vals[:, DEPTH] = -1
    return keys, vals


def hash_clear(keys: np.ndarray, vals: np.ndarray) -> None:
    keys[:] = 0
    vals[:] = 0
    vals[:, MOVE] = NO_MOVE
    vals[:, DEPTH] = -1


@njit(**NJIT_INLINE)
def hash_index(p, o, rows):  # type: ignore[no-untyped-def]
    """First row of the bucket of ``(p, o)`` (even index)."""
    h = p * _K1 + (o ^ (o >> _S31)) * _K2
    h ^= h >> _S31
    return np.int64(h & U64(rows - 2))


@njit(**NJIT_INLINE)
def hash_probe(keys, vals, p, o):  # type: ignore[no-untyped-def]
    """Row holding ``(p, o)``, or -1."""
    i = hash_index(p, o, keys.shape[0])
    if keys[i, 0] == p and keys[i, 1] == o and vals[i, DEPTH] >= 0:
        return i
    i += 1
    if keys[i, 0] == p and keys[i, 1] == o and vals[i, DEPTH] >= 0:
        return i
    return np.int64(-1)


@njit(**NJIT_INLINE)
def hash_store(keys, vals, p, o, depth, level, date, alpha, beta, score, move):  # type: ignore[no-untyped-def]
    """Record the result ``score`` of a search of ``(p, o)`` with window (alpha, beta) to
    ``depth`` at confidence ``level``."""
    i0 = hash_index(p, o, keys.shape[0])
    i = np.int64(-1)
    for j in range(i0, i0 + 2):
        if keys[j, 0] == p and keys[j, 1] == o and vals[j, DEPTH] >= 0:
            i = j
            break
    if i >= 0 and vals[i, DEPTH] == depth and vals[i, LEVEL] == level:
        # same search depth: tighten the stored bounds
        if score < beta and score < vals[i, UPPER]:
            vals[i, UPPER] = score
        if score > alpha and score > vals[i, LOWER]:
            vals[i, LOWER] = score
        if vals[i, LOWER] > vals[i, UPPER]:  # inconsistent (search instability): trust the new
            vals[i, LOWER] = score if score > alpha else -64
            vals[i, UPPER] = score if score < beta else 64
        if move >= 0 and (score > alpha or vals[i, MOVE] < 0):
            vals[i, MOVE] = move
        vals[i, DATE] = date
        return
    if i >= 0 and (vals[i, DEPTH] > depth
                   or (vals[i, DEPTH] == depth and vals[i, LEVEL] > level)):
        if move >= 0 and vals[i, MOVE] < 0:
            vals[i, MOVE] = move
        return
    if i < 0:
        # choose a victim: an older search first, then the shallower row
        a = i0
        b = i0 + 1
        old_a = vals[a, DATE] != date
        old_b = vals[b, DATE] != date
        i = a if vals[a, DEPTH] <= vals[b, DEPTH] else b
        if old_a != old_b:
            i = a if old_a else b
    keys[i, 0] = p
    keys[i, 1] = o
    vals[i, LOWER] = score if score > alpha else -64
    vals[i, UPPER] = score if score < beta else 64
    vals[i, DEPTH] = depth
    vals[i, MOVE] = move
    vals[i, DATE] = date
    vals[i, LEVEL] = level


@njit(**NJIT)
def hash_move(keys, vals, p, o):  # type: ignore[no-untyped-def]
    """Python entry point: the stored move for ``(p, o)`` (-1 if none) and the bounds."""
    i = hash_probe(keys, vals, U64(p), U64(o))
    if i < 0:
        return np.int64(-1), np.int64(-64), np.int64(64), np.int64(-1)
    return (np.int64(vals[i, MOVE]), np.int64(vals[i, LOWER]), np.int64(vals[i, UPPER]),
            np.int64(vals[i, DEPTH]))


__all__ = ["FULL_LEVEL", "hash_clear", "hash_move", "hash_new", "hash_probe", "hash_store"]
