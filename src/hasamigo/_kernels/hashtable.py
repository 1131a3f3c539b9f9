"""Transposition table in one numpy array, shared by the midgame search and the endgame solver.

One ``uint64`` array of ``size`` rows (a power of two) of four words, probed as buckets of
two rows: a bucket is 64 bytes, one cache line (the array is allocated 64-byte aligned), so
a probe costs one memory access. A row holds

* ``data``: the entry packed in one word: bounds on the score from the side to move
  (``lower`` and ``upper``, each + 64 in a byte), the depth searched + 1 (0: an empty row;
  ``depth >= empties`` means exact play to the end), the best or refuting move + 1 (64 is
  a pass, -1 none), the search generation (16 bits) and the *confidence level* of the
  bounds: ``FULL_LEVEL`` for a search without selective cuts, lower for one with probable
  cuts (:mod:`hasamigo._kernels.search`), whose bounds only a search at that level or a
  less confident one may use (any search may use its move);
* the full position, ``player ^ data`` and ``opponent ^ data``: a hit is never a
  collision, and a row torn by two threads writing it at once (key from one, data from the
  other) does not match its key, so threads may share a table without locks.

A store into a bucket replaces the same position, else the row of an older search, else
the shallower row (``hash_store``). Scores are disc differences in [-64, 64].

The spare word of a bucket's first row says which position of that bucket a thread is
searching now (``hash_mark``, ``hash_busy``, ``hash_unmark``): the threads of a parallel
search defer a move another thread is searching (:mod:`hasamigo._kernels.search`'s
``USE_DEFER``). It is only a hint: a mark lost to another thread's changes the order in
which moves are searched, never a score (a search takes its marks away as it ends, and as
it stops).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import ONE, U64, ZERO
from hasamigo._kernels.config import NJIT, NJIT_INLINE, NJIT_LLVM_INLINE
from hasamigo._kernels.memory import data_pointer, prefetch

FULL_LEVEL = 7  # no selective cuts
NO_MOVE = -1
ROW_WORDS = 4  # words per row: key words, data, one spare (a bucket of two rows is 64 bytes)
KEY_P = 0
KEY_O = 1
DATA = 2
BUSY = 3  # (the spare word, in a bucket's first row) the position being searched

_K1 = U64(0x9E3779B97F4A7C15)
_K2 = U64(0xC2B2AE3D27D4EB4F)
_S31 = U64(31)
_BYTE = U64(0xFF)
_S8 = U64(8)
_S16 = U64(16)
_S24 = U64(24)
_S32 = U64(32)
_S48 = U64(48)
_DATE_MASK = U64(0xFFFF)


def hash_new(size: int) -> np.ndarray:
    """An empty table of ``size`` rows (rounded down to a power of two, at least 2),
    64-byte aligned."""
    rows = 1 << max(1, int(size).bit_length() - 1)
    raw = np.zeros(rows * ROW_WORDS + 8, dtype=np.uint64)
    skip = (-raw.ctypes.data % 64) // 8
    table: np.ndarray = raw[skip:skip + rows * ROW_WORDS].reshape(rows, ROW_WORDS)
    return table


def hash_clear(table: np.ndarray) -> None:
    table[:] = 0


@njit(**NJIT_INLINE)
def pack(lower, upper, depth, move, date, level):  # type: ignore[no-untyped-def]
    """One entry's data word."""
    return (U64(lower + 64) | (U64(upper + 64) << _S8) | (U64(depth + 1) << _S16)
            | (U64(move + 1) << _S24) | ((U64(date) & _DATE_MASK) << _S32)
            | (U64(level) << _S48))


@njit(**NJIT_INLINE)
def entry_lower(e):  # type: ignore[no-untyped-def]
    return np.int64(e & _BYTE) - 64


@njit(**NJIT_INLINE)
def entry_upper(e):  # type: ignore[no-untyped-def]
    return np.int64((e >> _S8) & _BYTE) - 64


@njit(**NJIT_INLINE)
def entry_depth(e):  # type: ignore[no-untyped-def]
    """The depth searched (-1 for no entry)."""
    return np.int64((e >> _S16) & _BYTE) - 1


@njit(**NJIT_INLINE)
def entry_move(e):  # type: ignore[no-untyped-def]
    return np.int64((e >> _S24) & _BYTE) - 1


@njit(**NJIT_INLINE)
def entry_date(e):  # type: ignore[no-untyped-def]
    return np.int64((e >> _S32) & _DATE_MASK)


@njit(**NJIT_INLINE)
def entry_level(e):  # type: ignore[no-untyped-def]
    return np.int64((e >> _S48) & _BYTE)


@njit(**NJIT_INLINE)
def hash_index(p, o, rows):  # type: ignore[no-untyped-def]
    """First row of the bucket of ``(p, o)`` (even index)."""
    h = p * _K1 + (o ^ (o >> _S31)) * _K2
    h ^= h >> _S31
    return np.int64(h & U64(rows - 2))


# The kernels below take the table as ``tab = data_pointer(table)`` and ``rows =
# table.shape[0]`` (see :mod:`hasamigo._kernels.memory`): word ``w`` of row ``i`` is
# ``tab[i * ROW_WORDS + w]``.


@njit(**NJIT_INLINE)
def _holds(tab, i, p, o):  # type: ignore[no-untyped-def]
    e = tab[i * ROW_WORDS + DATA]
    return e != ZERO and tab[i * ROW_WORDS + KEY_P] ^ e == p and tab[i * ROW_WORDS + KEY_O] ^ e == o


@njit(**NJIT_INLINE)
def hash_prefetch(tab, rows, p, o):  # type: ignore[no-untyped-def]
    """Start loading the bucket of ``(p, o)``: a probe soon after finds it in the cache."""
    prefetch(tab, hash_index(p, o, rows) * ROW_WORDS)


@njit(**NJIT_INLINE)
def hash_probe(tab, rows, p, o):  # type: ignore[no-untyped-def]
    """The data word of ``(p, o)`` (decode it with the ``entry_*`` helpers), or 0."""
    i = hash_index(p, o, rows)
    if _holds(tab, i, p, o):
        return tab[i * ROW_WORDS + DATA]
    if _holds(tab, i + 1, p, o):
        return tab[(i + 1) * ROW_WORDS + DATA]
    return ZERO


@njit(**NJIT_INLINE)
def _write(tab, i, p, o, e):  # type: ignore[no-untyped-def]
    tab[i * ROW_WORDS + DATA] = e
    tab[i * ROW_WORDS + KEY_P] = p ^ e
    tab[i * ROW_WORDS + KEY_O] = o ^ e


@njit(**NJIT_LLVM_INLINE)
def hash_store(tab, rows, p, o, depth, level, date, alpha, beta, score, move):  # type: ignore[no-untyped-def]
    """Record the result ``score`` of a search of ``(p, o)`` with window (alpha, beta) to
    ``depth`` at confidence ``level``."""
    i0 = hash_index(p, o, rows)
    i = np.int64(-1)
    if _holds(tab, i0, p, o):
        i = i0
    elif _holds(tab, i0 + 1, p, o):
        i = i0 + 1
    if i >= 0:
        e = tab[i * ROW_WORDS + DATA]
        d0 = entry_depth(e)
        l0 = entry_level(e)
        if d0 == depth and l0 == level:
            # same search depth: tighten the stored bounds
            lo = entry_lower(e)
            hi = entry_upper(e)
            mv = entry_move(e)
            if score < beta and score < hi:
                hi = score
            if score > alpha and score > lo:
                lo = score
            if lo > hi:  # inconsistent (search instability): trust the new
                lo = score if score > alpha else np.int64(-64)
                hi = score if score < beta else np.int64(64)
            if move >= 0 and (score > alpha or mv < 0):
                mv = move
            _write(tab, i, p, o, pack(lo, hi, depth, mv, date, level))
            return
        if d0 > depth or (d0 == depth and l0 > level):
            if move >= 0 and entry_move(e) < 0:
                _write(tab, i, p, o, pack(entry_lower(e), entry_upper(e), d0, move,
                                          entry_date(e), l0))
            return
    else:
        # choose a victim: an older search first, then the shallower row
        ea = tab[i0 * ROW_WORDS + DATA]
        eb = tab[(i0 + 1) * ROW_WORDS + DATA]
        old_a = entry_date(ea) != date
        old_b = entry_date(eb) != date
        i = i0 if entry_depth(ea) <= entry_depth(eb) else i0 + 1
        if old_a != old_b:
            i = i0 if old_a else i0 + 1
    lo = score if score > alpha else np.int64(-64)
    hi = score if score < beta else np.int64(64)
    _write(tab, i, p, o, pack(lo, hi, depth, move, date, level))


@njit(**NJIT_INLINE)
def _busy_key(p, o):  # type: ignore[no-untyped-def]
    """A position's mark: its two words mixed, never 0 (0: nobody searching)."""
    return (p * _K2) ^ (o * _K1) ^ (o >> _S31) | ONE


@njit(**NJIT_INLINE)
def hash_busy(tab, rows, p, o):  # type: ignore[no-untyped-def]
    """Whether some thread is searching ``(p, o)`` now (it marked it)."""
    return tab[hash_index(p, o, rows) * ROW_WORDS + BUSY] == _busy_key(p, o)


@njit(**NJIT_INLINE)
def hash_mark(tab, rows, p, o):  # type: ignore[no-untyped-def]
    """Mark ``(p, o)`` as being searched (by the caller, until it unmarks it)."""
    tab[hash_index(p, o, rows) * ROW_WORDS + BUSY] = _busy_key(p, o)


@njit(**NJIT_INLINE)
def hash_unmark(tab, rows, p, o):  # type: ignore[no-untyped-def]
    """Take ``(p, o)``'s mark away, unless another position's has replaced it."""
    i = hash_index(p, o, rows) * ROW_WORDS + BUSY
    if tab[i] == _busy_key(p, o):
        tab[i] = ZERO


@njit(**NJIT)
def hash_move(table, p, o):  # type: ignore[no-untyped-def]
    """Python entry point: the stored move for ``(p, o)`` (-1 if none), the bounds and the
    depth (-1 if none)."""
    e = hash_probe(data_pointer(table), table.shape[0], U64(p), U64(o))
    if e == ZERO:
        return np.int64(-1), np.int64(-64), np.int64(64), np.int64(-1)
    return entry_move(e), entry_lower(e), entry_upper(e), entry_depth(e)


__all__ = ["FULL_LEVEL", "entry_depth", "entry_level", "entry_lower", "entry_move", "entry_upper",
           "hash_busy", "hash_clear", "hash_mark", "hash_move", "hash_new", "hash_prefetch",
           "hash_probe", "hash_store", "hash_unmark"]
