"""Evaluation v2: trained weights over the classic Othello patterns (8×8 only).

A position is read from the side to move. Each *pattern instance* is a fixed set of
squares read as a base-3 number (digit ``i`` is square ``i`` of the set: 0 empty, 1 own
disc, 2 opponent disc); every instance of one *shape* shares that shape's table, because
the shape is always read on a symmetric image of the board at the same place:

=================  ============================  =====================================
shape              squares on the image           instances (images of the board)
=================  ============================  =====================================
edge + 2 X         a1-h1, b2, g2                  4 (the rotations)
corner 2×5         a1-e1, a2-e2                   8 (rotations and mirrors)
corner 3×3         a1-c3                          4
line 2, 3, 4       row 2, 3, 4                    4 each
diagonal 8         a1-h8                          4 (each long diagonal both ways)
diagonal 7-4       b1-h7, c1-h6, d1-h5, e1-h4     4 each
=================  ============================  =====================================

48 instances, plus each side's mobility (legal moves, capped at ``MOBILITY_CAP``) and a
bias, looked up in the table of the position's *stage* (``STAGES`` stages of 4 empties:
1-4, 5-8, ..., 57-60). The evaluation is the sum in 1/``SCALE`` disc, rounded to discs.
Because every shape is read under all four rotations the value is the same for a rotated
board; a mirrored board scores the same because training ties each table entry to its
mirror image's (``hasamigo.engine.training.mirror_classes``).

The weights are fitted to game results by :mod:`hasamigo.engine.training`;
:func:`features` lists the table indices a position uses (training and tests), and
:func:`pattern_score` sums them without building the list. The two read the same shapes
through the same gather helpers; a test checks they agree.

The search scores many children of one position, so it reads the position once
(:func:`pattern_vectors`: the 48 instances' indices from each side) and derives each
child's from them (:func:`child_vector`): an instance's index is the sum over its
squares of digit × power of 3 (``SQUARE_COEFFICIENTS``), so a move adds the rows of the
squares that changed, a few vector additions each (:func:`vector_score` then sums the
weights). A child costs about 60 ns that way against 85 read from the board (midgame
positions of random games, the 2-core VM of the benchmarks).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core.errors import TypingError
from numba.extending import overload

from hasamigo._kernels.bits import (
    U64,
    flip_horizontal,
    flip_vertical,
    lowest_square,
    popcount,
    transpose,
)
from hasamigo._kernels.config import NJIT, NJIT_INLINE, NJIT_LLVM_INLINE
from hasamigo._kernels.memory import at, data_pointer, int16_summer, load_int16, vector_adder
from hasamigo._kernels.moves import VECTOR_512, legal_moves

#: (name, squares) of each shape, in table order.
SHAPES = (
    ("edge_2x", 10),
    ("corner_2x5", 10),
    ("corner_3x3", 9),
    ("line_2", 8),
    ("line_3", 8),
    ("line_4", 8),
    ("diagonal_8", 8),
    ("diagonal_7", 7),
    ("diagonal_6", 6),
    ("diagonal_5", 5),
    ("diagonal_4", 4),
)
MOBILITY_CAP = 31
STAGES = 15
SCALE = 128  # weights are stored in 1/SCALE disc
SHIFT = 7  # log2(SCALE); a plain int: int64 >> uint64 is float64 in numpy


def _offsets() -> tuple[int, ...]:
    out = [0]
    for _, n in SHAPES:
        out.append(out[-1] + 3**n)
    return tuple(out)


#: where each shape's table starts within a stage (then the mobilities)
SHAPE_OFFSETS = _offsets()
EDGE, C25, C33, LINE2, LINE3, LINE4, DIAG8, DIAG7, DIAG6, DIAG5, DIAG4 = SHAPE_OFFSETS[:11]
MOBILITY_OWN = SHAPE_OFFSETS[11]
MOBILITY_OPP = MOBILITY_OWN + MOBILITY_CAP + 1
BIAS = MOBILITY_OPP + MOBILITY_CAP + 1
N_WEIGHTS = BIAS + 1  # per stage
N_FEATURES = 48 + 3  # indices per position: the instances, both mobilities, the bias
SHAPE_OF_FEATURE = np.array(
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 4 + [1] * 4 + [11, 12, 13], dtype=np.int64
)  # shape (or 11/12/13: mobility own/opponent, bias) of each entry of ``features``

M_DIAG8 = U64(0x8040201008040201)
M_DIAG7 = U64(0x0080402010080402)
M_DIAG6 = U64(0x0000804020100804)
M_DIAG5 = U64(0x0000008040201008)
M_DIAG4 = U64(0x0000000080402010)
GATHER = U64(0x0101010101010101)  # (x & diagonal) * GATHER: the diagonal in the top byte


def _b2t() -> np.ndarray:
    """``B2T[bits]``: the base-3 number whose digits are the binary digits of ``bits``."""
    table = np.zeros(1024, dtype=np.int64)
    for bits in range(1024):
        table[bits] = sum(3**i for i in range(10) if bits >> i & 1)
    return table


B2T = _b2t()


def stage_of(empties: int) -> int:
    """The stage (table) used for a position with ``empties`` empty squares."""
    return min(max((empties - 1) >> 2, 0), STAGES - 1)


def weights_address(w: np.ndarray) -> int:
    """The address of ``w``'s first entry, for :func:`pattern_score`: a 1-d C-contiguous
    int16 array (anything else is refused, compiled or not). The weights travel to the
    kernel as this integer, not as an array: an array argument of a compiled call costs two
    atomic reference counts per call (4 % of a midgame search)."""
    if not (isinstance(w, np.ndarray) and w.dtype == np.int16 and w.ndim == 1
            and w.flags.c_contiguous):
        raise TypeError("weights must be a 1-d C-contiguous int16 array")
    return int(w.ctypes.data)


@overload(weights_address, inline="always")
def _weights_address_compiled(w):  # type: ignore[no-untyped-def]
    if not (isinstance(w, types.Array) and w.dtype == types.int16 and w.ndim == 1
            and w.layout == "C"):
        raise TypingError(f"weights must be a 1-d C-contiguous int16 array, not {w}")

    def impl(w):  # type: ignore[no-untyped-def]
        return w.ctypes.data

    return impl


#: N_INSTANCES pattern instances: the 4 rotations' 11 shapes each, then the 4 mirrors'
#: corner 2×5 (the order of :func:`features`)
N_INSTANCES = 48

#: the squares each shape reads on its image, digit 0 first (what the gather helpers
#: below extract; square 0 is a1, 7 h1, 56 a8)
_SHAPE_SQUARES = (
    (0, 1, 2, 3, 4, 5, 6, 7, 9, 14),
    (0, 1, 2, 3, 4, 8, 9, 10, 11, 12),
    (0, 1, 2, 8, 9, 10, 16, 17, 18),
    tuple(range(8, 16)),
    tuple(range(16, 24)),
    tuple(range(24, 32)),
    tuple(range(0, 64, 9)),
    tuple(range(1, 56, 9)),
    tuple(range(2, 48, 9)),
    tuple(range(3, 40, 9)),
    tuple(range(4, 32, 9)),
)


def _image_square(k: int, sq: int) -> int:
    """Where square ``sq`` of the board lies on its image ``k`` (the order of
    :func:`_images`: x, V(T x), V(H x), H(T x), T x, H x, V x, V(H(T x)); V reverses the
    rows, H the columns, T mirrors in the a1-h8 diagonal)."""
    r, c = divmod(sq, 8)
    steps = ("", "TV", "HV", "TH", "T", "H", "V", "THV")[k]
    for step in steps:
        if step == "T":
            r, c = c, r
        elif step == "H":
            c = 7 - c
        else:
            r = 7 - r
    return 8 * r + c


def _instance_squares() -> tuple[tuple[int, ...], ...]:
    """Each instance's squares of the board (not of its image), digit 0 first."""
    out = []
    images = [{_image_square(k, sq): sq for sq in range(64)} for k in range(8)]
    for k in range(4):
        for squares in _SHAPE_SQUARES:
            out.append(tuple(images[k][s] for s in squares))
    for k in range(4, 8):
        out.append(tuple(images[k][s] for s in _SHAPE_SQUARES[1]))
    return tuple(out)


def _square_coefficients() -> tuple[np.ndarray, np.ndarray]:
    """``SQUARE_COEFFICIENTS[sq, f]``: the power of 3 of square ``sq``'s digit in instance
    ``f`` (0 where ``f`` does not read ``sq``), so that an instance's index is its shape's
    offset (``INSTANCE_OFFSET[f]``) plus the sum over the squares of digit × coefficient.
    Dense rows (48 int32, most of them 0): adding a row is a few vector instructions with
    no branch, where a list of the few instances that read the square costs a
    mispredicted branch per square."""
    coefficients = np.zeros((64, N_INSTANCES), dtype=np.int32)
    for f, squares in enumerate(_instance_squares()):
        for digit, sq in enumerate(squares):
            coefficients[sq, f] = 3**digit
    offset = np.array([SHAPE_OFFSETS[s] for s in SHAPE_OF_FEATURE[:N_INSTANCES]],
                      dtype=np.int64)
    return coefficients, offset


SQUARE_COEFFICIENTS, INSTANCE_OFFSET = _square_coefficients()
_add_row = vector_adder(N_INSTANCES)
# vector_score reads the 48 weights of a position's indices as three AVX-512 gathers
# (memory.int16_summer) where the kernels compile for AVX-512 (moves.VECTOR_512): midgame
# depth 12 (benchmarks/search.py) in 0.94x the time, the same 42,015,913 nodes. A gather
# reads each weight's next one too: an index is below MOBILITY_OWN, and its stage's table
# goes on with the mobility and bias weights. Without AVX-512 the loads stay scalar (AVX2's
# gathers were not measured).
_sum_weights = int16_summer(N_INSTANCES)


@njit(**NJIT_INLINE)
def _ternary(bp, bo):  # type: ignore[no-untyped-def]
    return B2T[np.int64(bp)] + 2 * B2T[np.int64(bo)]


@njit(**NJIT_INLINE)
def _edge(s):  # type: ignore[no-untyped-def]
    return (s & U64(0xFF)) | ((s >> U64(1)) & U64(0x100)) | ((s >> U64(5)) & U64(0x200))


@njit(**NJIT_INLINE)
def _c25(s):  # type: ignore[no-untyped-def]
    return (s & U64(0x1F)) | ((s >> U64(3)) & U64(0x3E0))


@njit(**NJIT_INLINE)
def _c33(s):  # type: ignore[no-untyped-def]
    return (s & U64(7)) | ((s >> U64(5)) & U64(0x38)) | ((s >> U64(10)) & U64(0x1C0))


@njit(**NJIT_INLINE)
def _row(s, r):  # type: ignore[no-untyped-def]
    return (s >> U64(8 * r)) & U64(0xFF)


@njit(**NJIT_INLINE)
def _diag(s, m, shift):  # type: ignore[no-untyped-def]
    return ((s & m) * GATHER) >> U64(shift)


@njit(**NJIT_INLINE)
def _diag_index(sp, so, m, shift):  # type: ignore[no-untyped-def]
    return _ternary(_diag(sp, m, shift), _diag(so, m, shift))


@njit(**NJIT_INLINE)
def _rotation_indices(sp, so):  # type: ignore[no-untyped-def]
    """Table indices of the 11 shapes read on one rotation of the board."""
    return (
        EDGE + _ternary(_edge(sp), _edge(so)),
        C25 + _ternary(_c25(sp), _c25(so)),
        C33 + _ternary(_c33(sp), _c33(so)),
        LINE2 + _ternary(_row(sp, 1), _row(so, 1)),
        LINE3 + _ternary(_row(sp, 2), _row(so, 2)),
        LINE4 + _ternary(_row(sp, 3), _row(so, 3)),
        DIAG8 + _diag_index(sp, so, M_DIAG8, 56),
        DIAG7 + _diag_index(sp, so, M_DIAG7, 57),
        DIAG6 + _diag_index(sp, so, M_DIAG6, 58),
        DIAG5 + _diag_index(sp, so, M_DIAG5, 59),
        DIAG4 + _diag_index(sp, so, M_DIAG4, 60),
    )


@njit(**NJIT_INLINE)
def _rotation_sum(sp, so, w, base):  # type: ignore[no-untyped-def]
    """The weights of the 11 shapes read on one rotation (the indices of
    :func:`_rotation_indices`, summed without the tuple: 20 % faster)."""
    return (load_int16(w, base + EDGE + _ternary(_edge(sp), _edge(so)))
            + load_int16(w, base + C25 + _ternary(_c25(sp), _c25(so)))
            + load_int16(w, base + C33 + _ternary(_c33(sp), _c33(so)))
            + load_int16(w, base + LINE2 + _ternary(_row(sp, 1), _row(so, 1)))
            + load_int16(w, base + LINE3 + _ternary(_row(sp, 2), _row(so, 2)))
            + load_int16(w, base + LINE4 + _ternary(_row(sp, 3), _row(so, 3)))
            + load_int16(w, base + DIAG8 + _diag_index(sp, so, M_DIAG8, 56))
            + load_int16(w, base + DIAG7 + _diag_index(sp, so, M_DIAG7, 57))
            + load_int16(w, base + DIAG6 + _diag_index(sp, so, M_DIAG6, 58))
            + load_int16(w, base + DIAG5 + _diag_index(sp, so, M_DIAG5, 59))
            + load_int16(w, base + DIAG4 + _diag_index(sp, so, M_DIAG4, 60)))


@njit(**NJIT_INLINE)
def _images(x):  # type: ignore[no-untyped-def]
    """The board's eight symmetric images: the four rotations, then the four mirrors."""
    t = transpose(x)
    h = flip_horizontal(x)
    ht = flip_horizontal(t)
    return (x, flip_vertical(t), flip_vertical(h), ht, t, h, flip_vertical(x), flip_vertical(ht))


@njit(**NJIT_INLINE)
def _mobility_index(n, own):  # type: ignore[no-untyped-def]
    if n > MOBILITY_CAP:
        n = MOBILITY_CAP
    return (MOBILITY_OWN if own else MOBILITY_OPP) + n


@njit(**NJIT_INLINE)
def _stage_base(ne, start):  # type: ignore[no-untyped-def]
    """Where the table of the stage of a position with ``ne`` empties starts, the stage
    tables starting at entry ``start`` (:func:`stage_of`)."""
    stage = (ne - 1) >> 2
    if stage < 0:
        stage = 0
    elif stage >= STAGES:
        stage = STAGES - 1
    return start + stage * N_WEIGHTS


@njit(**NJIT_INLINE)
def _finish(s, mp, mo, w, base):  # type: ignore[no-untyped-def]
    """The patterns' sum ``s`` plus both mobilities and the bias, in discs."""
    s += (load_int16(w, base + _mobility_index(popcount(mp), True))
          + load_int16(w, base + _mobility_index(popcount(mo), False))
          + load_int16(w, base + BIAS))
    return (s + SCALE // 2) >> SHIFT


@njit(**NJIT)  # a call, not inlined: inlined at its call sites it multiplied compile time
def pattern_score(p, o, mp, mo, ne, w, start):  # type: ignore[no-untyped-def]
    """The evaluation in discs (unclamped) of ``(p, o)`` with ``ne`` empties whose sides
    have the moves ``mp`` and ``mo``; the stage tables start at entry ``start`` of the
    int16 weights at address ``w`` (:func:`weights_address`)."""
    base = _stage_base(ne, start)
    ip = _images(p)
    io = _images(o)
    s = np.int64(0)
    for r in range(4):  # a loop: one inlined copy of the 11 shapes, not four (compile time)
        s += _rotation_sum(ip[r], io[r], w, base)
    for r in range(4, 8):
        s += load_int16(w, base + C25 + _ternary(_c25(ip[r]), _c25(io[r])))
    return _finish(s, mp, mo, w, base)


@njit(**NJIT_INLINE)
def _rotation_store(sp, so, x, y, k):  # type: ignore[no-untyped-def]
    """Store the 11 shapes of one rotation at ``x[k:]`` (read from ``sp``'s side: its discs
    are digit 1, ``so``'s digit 2) and ``y[k:]`` (from ``so``'s side)."""
    _store_pair(x, y, k, EDGE, _edge(sp), _edge(so))
    _store_pair(x, y, k + 1, C25, _c25(sp), _c25(so))
    _store_pair(x, y, k + 2, C33, _c33(sp), _c33(so))
    _store_pair(x, y, k + 3, LINE2, _row(sp, 1), _row(so, 1))
    _store_pair(x, y, k + 4, LINE3, _row(sp, 2), _row(so, 2))
    _store_pair(x, y, k + 5, LINE4, _row(sp, 3), _row(so, 3))
    _store_pair(x, y, k + 6, DIAG8, _diag(sp, M_DIAG8, 56), _diag(so, M_DIAG8, 56))
    _store_pair(x, y, k + 7, DIAG7, _diag(sp, M_DIAG7, 57), _diag(so, M_DIAG7, 57))
    _store_pair(x, y, k + 8, DIAG6, _diag(sp, M_DIAG6, 58), _diag(so, M_DIAG6, 58))
    _store_pair(x, y, k + 9, DIAG5, _diag(sp, M_DIAG5, 59), _diag(so, M_DIAG5, 59))
    _store_pair(x, y, k + 10, DIAG4, _diag(sp, M_DIAG4, 60), _diag(so, M_DIAG4, 60))


@njit(**NJIT_INLINE)
def _store_pair(x, y, k, offset, bp, bo):  # type: ignore[no-untyped-def]
    tp = B2T[np.int64(bp)]
    to = B2T[np.int64(bo)]
    x[k] = offset + tp + 2 * to
    y[k] = offset + 2 * tp + to


@njit(**NJIT)  # a call: the search reads a board only at its root (inlined: +3.7 s compile)
def pattern_vectors(p, o, x, y):  # type: ignore[no-untyped-def]
    """The table indices (within a stage) of the ``N_INSTANCES`` instances of ``(p, o)``:
    from ``p``'s side into ``x``, from ``o``'s into ``y`` (pointers to int32,
    :mod:`hasamigo._kernels.memory`). A child's follow from them by :func:`child_vector`
    at the cost of the squares that changed, not of reading the board again."""
    ip = _images(p)
    io = _images(o)
    for r in range(4):
        _rotation_store(ip[r], io[r], x, y, 11 * r)
    for r in range(4, 8):
        _store_pair(x, y, 40 + r, C25, _c25(ip[r]), _c25(io[r]))


@njit(**NJIT_LLVM_INLINE)  # inlined: as a call, midgame depth 12 took 1-4 % longer
def child_vector(dst, src, sq, f, own):  # type: ignore[no-untyped-def]
    """Into ``dst``, a child's indices from those of its parent in ``src``, where the
    parent's side to move played ``sq`` flipping ``f``: with ``own``, the child's from its
    own side (the side to move then) and ``src`` the parent's from its opponent's side;
    otherwise the child's from its opponent's side and ``src`` the parent's from its own.

    A digit is 0 empty, 1 the viewing side's disc, 2 the other's: from the mover's
    opponent's side, ``sq`` becomes 2 and each flipped disc goes from 1 to 2; from the
    mover's side ``sq`` becomes 1 and each flipped disc goes from 2 to 1."""
    rows = data_pointer(SQUARE_COEFFICIENTS)
    _add_row(dst, src, at(rows, sq * N_INSTANCES), 2 if own else 1)
    step = 1 if own else -1
    m = f
    while m != U64(0):
        s = lowest_square(m)
        m &= m - U64(1)
        _add_row(dst, dst, at(rows, s * N_INSTANCES), step)


@njit(**NJIT_INLINE)
def copy_vector(dst, src):  # type: ignore[no-untyped-def]
    """``dst``'s indices set to ``src``'s."""
    _add_row(dst, src, src, 0)


@njit(**NJIT_INLINE)
def vector_score(x, mp, mo, ne, w, start):  # type: ignore[no-untyped-def]
    """:func:`pattern_score` of a position whose indices (from its side to move) are at
    ``x`` (:func:`pattern_vectors`, :func:`child_vector`)."""
    base = _stage_base(ne, start)
    if VECTOR_512:
        s = _sum_weights(x, w, base)
    else:
        s = np.int64(0)
        for i in range(N_INSTANCES):
            s += load_int16(w, base + x[i])
    return _finish(s, mp, mo, w, base)


@njit(**NJIT)
def features(ps, os, out):  # type: ignore[no-untyped-def]
    """Write the ``N_FEATURES`` table indices (within a stage) of each position
    ``(ps[i], os[i])`` into ``out[i]``: the rotations' 11 shapes each, the mirrors'
    corner 2×5, both mobilities and the bias (order: :data:`SHAPE_OF_FEATURE`)."""
    full = U64(0xFFFFFFFFFFFFFFFF)
    for i in range(ps.shape[0]):
        p = U64(ps[i])
        o = U64(os[i])
        ip = _images(p)
        io = _images(o)
        k = 0
        for r in range(4):
            for j in _rotation_indices(ip[r], io[r]):
                out[i, k] = j
                k += 1
        for r in range(4, 8):
            out[i, k] = C25 + _ternary(_c25(ip[r]), _c25(io[r]))
            k += 1
        out[i, k] = _mobility_index(popcount(legal_moves(p, o, full)), True)
        out[i, k + 1] = _mobility_index(popcount(legal_moves(o, p, full)), False)
        out[i, k + 2] = BIAS


__all__ = [
    "INSTANCE_OFFSET",
    "N_FEATURES",
    "N_INSTANCES",
    "N_WEIGHTS",
    "SCALE",
    "SHAPES",
    "SHAPE_OFFSETS",
    "SQUARE_COEFFICIENTS",
    "STAGES",
    "child_vector",
    "copy_vector",
    "features",
    "pattern_score",
    "pattern_vectors",
    "stage_of",
    "vector_score",
    "weights_address",
]
