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

from numba import njit

from hasamigo._kernels.bits import EDGES, FILE_A, NOT_A_FILE, NOT_H_FILE, U64, ZERO, popcount
from hasamigo._kernels.config import NJIT, NJIT_INLINE, NJIT_LLVM_INLINE

S1 = U64(1)
S7 = U64(7)
S8 = U64(8)
S9 = U64(9)
S2 = U64(2)
S4 = U64(4)
S16 = U64(16)
S32 = U64(32)
ROW_1 = U64(0xFF)


@njit(**NJIT_INLINE)
def _spread(x, s, up, down):  # type: ignore[no-untyped-def]
    """``x`` spread along its lines of step ``s`` both ways: each square of ``x`` with
    every square of its line. ``up``: the squares a shift left by ``s`` may land on without
    wrapping round the board's side; ``down``: the same for a shift right (parallel
    prefix: steps of ``s``, ``2s``, ``4s`` each way)."""
    g = x
    h = x
    m = up
    n = down
    for _ in range(3):
        g |= m & (g << s)
        h |= n & (h >> s)
        m &= m << s
        n &= n >> s
        s = s + s
    return g | h


@njit(**NJIT_INLINE)
def full_lines(empty):  # type: ignore[no-untyped-def]
    """Squares whose row, column, a1-h8 diagonal, a8-h1 diagonal hold no ``empty`` square
    (bit-parallel: a row or column folded onto its first square, a diagonal's empties
    spread along it)."""
    occ = ~empty
    x = occ & (occ >> S4)
    x &= x >> S2
    x &= x >> S1
    h = (x & FILE_A) * ROW_1
    y = occ & (occ >> S32)
    y &= y >> S16
    y &= y >> S8
    v = (y & ROW_1) * FILE_A
    d = ~_spread(empty, S9, NOT_A_FILE, NOT_H_FILE)
    a = ~_spread(empty, S7, NOT_H_FILE, NOT_A_FILE)
    return h, v, d, a


@njit(**NJIT_LLVM_INLINE)
def stable_discs(p, o, mask):  # type: ignore[no-untyped-def]
    """A subset of the discs of ``p`` that can never be flipped (see the module doc)."""
    empty = mask & ~(p | o)
    fh, fv, fd, fa = full_lines(empty)
    out = ~mask
    # squares with a neighbour off the board (or on a hole) along each axis
    eh = ~NOT_A_FILE | ~NOT_H_FILE | ((out << S1) & NOT_A_FILE) | ((out >> S1) & NOT_H_FILE)
    ev = U64(0xFF000000000000FF) | (out << S8) | (out >> S8)
    edge = EDGES
    ed = edge | ((out << S9) & NOT_A_FILE) | ((out >> S9) & NOT_H_FILE)  # a1-h8 direction
    ea = edge | ((out << S7) & NOT_H_FILE) | ((out >> S7) & NOT_A_FILE)  # a8-h1 direction
    sh = p & (fh | eh)
    sv = p & (fv | ev)
    sd = p & (fd | ed)
    sa = p & (fa | ea)
    stable = ZERO
    while True:
        new = (sh | ((stable << S1) & NOT_A_FILE) | ((stable >> S1) & NOT_H_FILE)) \
            & (sv | (stable << S8) | (stable >> S8)) \
            & (sd | ((stable << S9) & NOT_A_FILE) | ((stable >> S9) & NOT_H_FILE)) \
            & (sa | ((stable << S7) & NOT_H_FILE) | ((stable >> S7) & NOT_A_FILE))
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
