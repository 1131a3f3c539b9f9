"""The eight symmetries of the 8×8 board on bitboards: :func:`image` of a position under
one (mirrors and the a1-h8 diagonal), its :func:`inverse`, the squares' tables
(:data:`SQUARE_IMAGE`, :data:`SQUARE_PREIMAGE`) and the :func:`canonical` form of a
position, one key for all its symmetric forms.

The opening book (:mod:`hasamigo.engine.book`) keys its positions by them, and so do the
small boards' perfect-play tables (:mod:`hasamigo.engine.perfect`,
:mod:`hasamigo.engine.smallboard`: centred in the 8×8 grid, their symmetries are its).
"""

from __future__ import annotations

import numpy as np

#: the index of a pass in the squares' tables, beyond the 64 squares: every symmetry
#: keeps it
PASS_SQUARE = 64

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_T7 = np.uint64(0x00AA00AA00AA00AA)
_T14 = np.uint64(0x0000CCCC0000CCCC)
_T28 = np.uint64(0x00000000F0F0F0F0)


def _u(n: int) -> np.uint64:
    return np.uint64(n)


def _flip_columns(x: np.ndarray) -> np.ndarray:
    x = ((x >> _u(1)) & _M1) | ((x & _M1) << _u(1))
    x = ((x >> _u(2)) & _M2) | ((x & _M2) << _u(2))
    out: np.ndarray = ((x >> _u(4)) & _M4) | ((x & _M4) << _u(4))
    return out


def _flip_rows(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = x.byteswap()
    return out


def _transpose(x: np.ndarray) -> np.ndarray:
    t = (x ^ (x >> _u(7))) & _T7
    x = x ^ t ^ (t << _u(7))
    t = (x ^ (x >> _u(14))) & _T14
    x = x ^ t ^ (t << _u(14))
    t = (x ^ (x >> _u(28))) & _T28
    out: np.ndarray = x ^ t ^ (t << _u(28))
    return out


def image(x: np.ndarray, k: int) -> np.ndarray:
    """Bitboards ``x`` (uint64 array) under symmetry ``k`` (0–7): the columns mirrored if
    bit 0 of ``k`` is set, then the rows if bit 1 is, then the a1-h8 diagonal if bit 2 is.

    >>> from hasamigo.squares import parse_square, square_name
    >>> one = np.array([1 << parse_square("b1")], dtype=np.uint64)
    >>> [square_name(int(image(one, k)[0]).bit_length() - 1) for k in (0, 1, 2, 3, 4)]
    ['b1', 'g1', 'b8', 'g8', 'a2']
    """
    x = np.asarray(x, dtype=np.uint64)
    if k & 1:
        x = _flip_columns(x)
    if k & 2:
        x = _flip_rows(x)
    if k & 4:
        x = _transpose(x)
    return x


def inverse(k: int) -> int:
    """The symmetry that undoes ``k``: itself without the diagonal; with it, the column and
    row mirrors trade places (mirroring columns then transposing is transposing then
    mirroring rows)."""
    if k & 4:
        return 4 | (k & 1) << 1 | (k >> 1 & 1)
    return k


def preimage(x: np.ndarray, k: int) -> np.ndarray:
    """Undo :func:`image` with the same ``k``."""
    return image(x, inverse(k))


def _square_tables() -> tuple[np.ndarray, np.ndarray]:
    one = np.array([1 << sq for sq in range(64)], dtype=np.uint64)
    forward = np.zeros((8, 65), dtype=np.int64)
    back = np.zeros((8, 65), dtype=np.int64)
    for k in range(8):
        forward[k, :64] = [int(v).bit_length() - 1 for v in image(one, k)]
        back[k, :64] = [int(v).bit_length() - 1 for v in preimage(one, k)]
        forward[k, 64] = back[k, 64] = PASS_SQUARE
    return forward, back


SQUARE_IMAGE, SQUARE_PREIMAGE = _square_tables()


def canonical(p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The canonical images of positions ``(p, o)`` (player to move, opponent; uint64
    arrays): the smallest pair over the eight symmetries, the player's discs compared
    first; and for each position the symmetry ``k`` that gives it.

    >>> from hasamigo.board import Board
    >>> def key(board):
    ...     p, o = (np.array([x], dtype=np.uint64) for x in board.pair())
    ...     cp, co, _ = canonical(p, o)
    ...     return int(cp[0]), int(co[0])
    >>> a, b = Board(), Board()
    >>> a.play("f5"), b.play("e6")  # the same position turned
    (Move.from_str('f5'), Move.from_str('e6'))
    >>> key(a) == key(b)
    True
    """
    p = np.asarray(p, dtype=np.uint64)
    o = np.asarray(o, dtype=np.uint64)
    best_p, best_o = p.copy(), o.copy()
    best_k = np.zeros(p.shape, dtype=np.int64)
    for k in range(1, 8):
        ip, io = image(p, k), image(o, k)
        better = (ip < best_p) | ((ip == best_p) & (io < best_o))
        best_p = np.where(better, ip, best_p)
        best_o = np.where(better, io, best_o)
        best_k = np.where(better, k, best_k)
    return best_p, best_o, best_k
