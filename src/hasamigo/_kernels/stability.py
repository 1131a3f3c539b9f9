"""Stable discs: a conservative set of discs that no sequence of moves can ever flip.

A disc can only be flipped along one of the four axes (horizontal, vertical, the two
diagonals), by a move on an empty square of the line through it along that axis, with the
disc strictly inside the run between the new disc and an anchor. So a disc is safe along
an axis when

* the line through it along the axis has no empty playable square (a *full line*), or
* a neighbour along the axis is off the board or not playable (the disc ends its segment:
  it is never strictly inside a run), or
* a neighbour along the axis is a stable disc of the same colour (a run through the disc
  would have to flip that neighbour too).

``stable_discs`` starts from no disc and adds every disc of the player safe along all four
axes given the discs found so far, until nothing changes. Each disc is added on the
strength of discs added in earlier rounds, so the first stable disc ever flipped would need
an earlier one flipped in the same move: none is, and the set is truly stable (a subset of
it; edge configurations such as a full run between two stable discs of the other colour
are missed). Respects the geometry mask: holes count as the board's edge.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import U64, ZERO, popcount
from hasamigo._kernels.config import NJIT, NJIT_INLINE

NOT_A = U64(0xFEFEFEFEFEFEFEFE)  # every square but column a
NOT_H = U64(0x7F7F7F7F7F7F7F7F)  # every square but column h
S1 = U64(1)
S7 = U64(7)
S8 = U64(8)
S9 = U64(9)


def _line_tables() -> tuple[np.ndarray, np.ndarray]:
    """The 8 rows, 8 columns, 15 diagonals (a8-h1 direction) and 15 anti-diagonals."""
    rows = [sum(1 << (r * 8 + c) for c in range(8)) for r in range(8)]
    cols = [sum(1 << (r * 8 + c) for r in range(8)) for c in range(8)]
    diag = [sum(1 << (r * 8 + c) for r in range(8) for c in range(8) if r - c == k)
            for k in range(-7, 8)]
    anti = [sum(1 << (r * 8 + c) for r in range(8) for c in range(8) if r + c == k)
            for k in range(15)]
    return (np.array(rows + cols, dtype=np.uint64), np.array(diag + anti, dtype=np.uint64))


#: ``STRAIGHT[0:8]`` rows, ``STRAIGHT[8:16]`` columns; ``DIAGONAL[0:15]`` squares with equal
#: row - col (the a1-h8 direction), ``DIAGONAL[15:30]`` equal row + col (a8-h1).
STRAIGHT, DIAGONAL = _line_tables()


@njit(**NJIT_INLINE)
def full_lines(empty):  # type: ignore[no-untyped-def]
    """Squares whose row, column, a1-h8 diagonal, a8-h1 diagonal hold no ``empty`` square."""
    h = ZERO
    v = ZERO
    for i in range(8):
        if (STRAIGHT[i] & empty) == ZERO:
            h |= STRAIGHT[i]
        if (STRAIGHT[8 + i] & empty) == ZERO:
            v |= STRAIGHT[8 + i]
    d = ZERO
    a = ZERO
    for i in range(15):
        if (DIAGONAL[i] & empty) == ZERO:
            d |= DIAGONAL[i]
        if (DIAGONAL[15 + i] & empty) == ZERO:
            a |= DIAGONAL[15 + i]
    return h, v, d, a


@njit(**NJIT_INLINE)
def stable_discs(p, o, mask):  # type: ignore[no-untyped-def]
    """A subset of the discs of ``p`` that can never be flipped (see the module doc)."""
    empty = mask & ~(p | o)
    fh, fv, fd, fa = full_lines(empty)
    out = ~mask
    # squares with a neighbour off the board (or on a hole) along each axis
    eh = ~NOT_A | ~NOT_H | ((out << S1) & NOT_A) | ((out >> S1) & NOT_H)
    ev = U64(0xFF000000000000FF) | (out << S8) | (out >> S8)
    edge = U64(0xFF818181818181FF)
    ed = edge | ((out << S9) & NOT_A) | ((out >> S9) & NOT_H)  # a1-h8 direction
    ea = edge | ((out << S7) & NOT_H) | ((out >> S7) & NOT_A)  # a8-h1 direction
    sh = p & (fh | eh)
    sv = p & (fv | ev)
    sd = p & (fd | ed)
    sa = p & (fa | ea)
    stable = ZERO
    while True:
        new = (sh | ((stable << S1) & NOT_A) | ((stable >> S1) & NOT_H)) \
            & (sv | (stable << S8) | (stable >> S8)) \
            & (sd | ((stable << S9) & NOT_A) | ((stable >> S9) & NOT_H)) \
            & (sa | ((stable << S7) & NOT_H) | ((stable >> S7) & NOT_A))
        new &= p
        if new == stable:
            return stable
        stable = new


@njit(**NJIT)
def stable_discs_entry(p, o, mask):  # type: ignore[no-untyped-def]
    """Python entry point for :func:`stable_discs`."""
    return stable_discs(U64(p), U64(o), U64(mask))


@njit(**NJIT_INLINE)
def stability_bound(p, o, mask):  # type: ignore[no-untyped-def]
    """Upper bound on the final score of the side to move ``p``: the opponent keeps its
    stable discs, so ``p`` ends with at most ``squares - stable`` of the board."""
    return popcount(mask) - 2 * popcount(stable_discs(o, p, mask))


__all__ = ["full_lines", "stability_bound", "stable_discs", "stable_discs_entry"]
