"""Squares as plain ints (``A1 = 0`` top-left, index = row*8 + col) and :class:`SquareSet`.

Columns ``a``-``h`` run left to right, rows ``1``-``8`` top to bottom, so ``f5`` is
column f (5) of row 5 (4): ``F5 == 4*8 + 5 == 37``.

>>> square_name(F5), parse_square("F5")
('f5', 37)
>>> SquareSet(BB_CORNERS)
SquareSet(0x8100000000000081)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from hasamigo.errors import InvalidSquareError, shown

Square = int
Bitboard = int

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
ASCII_DIGITS = "0123456789"
#: Characters of user input quoted in an error message at most (the rest is elided).

#: Squares of the largest grid with kernels (10×10, for the wide variants): a grid index
#: is below this.
MAX_SQUARES = 100

SQUARES: list[Square] = list(range(64))
SQUARE_NAMES: list[str] = [f + r for r in RANK_NAMES for f in FILE_NAMES]

# fmt: off
(A1, B1, C1, D1, E1, F1, G1, H1,
 A2, B2, C2, D2, E2, F2, G2, H2,
 A3, B3, C3, D3, E3, F3, G3, H3,
 A4, B4, C4, D4, E4, F4, G4, H4,
 A5, B5, C5, D5, E5, F5, G5, H5,
 A6, B6, C6, D6, E6, F6, G6, H6,
 A7, B7, C7, D7, E7, F7, G7, H7,
 A8, B8, C8, D8, E8, F8, G8, H8) = SQUARES
# fmt: on

BB_EMPTY: Bitboard = 0
BB_ALL: Bitboard = (1 << 64) - 1
BB_SQUARES: list[Bitboard] = [1 << s for s in SQUARES]
BB_CORNERS: Bitboard = (1 << A1) | (1 << H1) | (1 << A8) | (1 << H8)
BB_X_SQUARES: Bitboard = (1 << B2) | (1 << G2) | (1 << B7) | (1 << G7)
BB_C_SQUARES: Bitboard = (
    (1 << B1) | (1 << G1) | (1 << A2) | (1 << H2) | (1 << A7) | (1 << H7) | (1 << B8) | (1 << G8)
)
BB_CENTER: Bitboard = (1 << D4) | (1 << E4) | (1 << D5) | (1 << E5)




def square(col: int, row: int) -> Square:
    """The square at 0-based ``col`` (a=0) and ``row`` (1=0)."""
    if not (0 <= col < 8 and 0 <= row < 8):
        raise InvalidSquareError(f"no square at column {shown(col)}, row {shown(row)}")
    return row * 8 + col


def square_col(sq: Square) -> int:
    """0-based column of ``sq`` (a = 0)."""
    return sq & 7


def square_row(sq: Square) -> int:
    """0-based row of ``sq`` (row 1 = 0)."""
    return sq >> 3


def square_name(sq: Square) -> str:
    """Lower-case name of ``sq`` on the 8×8 grid: ``square_name(0) == 'a1'``."""
    if not isinstance(sq, int) or not 0 <= sq < 64:
        raise InvalidSquareError(f"no square with index {shown(sq)} (0..63)")
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """Index of a square name on the 8×8 grid, case-insensitive (``'F5'`` → 37)."""
    text = name.strip()
    if len(text) != 2 or text[0].lower() not in FILE_NAMES or text[1] not in RANK_NAMES:
        raise InvalidSquareError(f"not a square name: {shown(name)} (expected a1..h8)")
    return square(FILE_NAMES.index(text[0].lower()), RANK_NAMES.index(text[1]))


def bits(mask: Bitboard) -> Iterator[Square]:
    """Squares of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class SquareSet:
    """An immutable set of squares over a bitboard, with a board picture in ``str``.

    >>> s = SquareSet.from_squares([A1, H8])
    >>> len(s), A1 in s, list(s)
    (2, True, [0, 63])
    """

    __slots__ = ("mask",)

    def __init__(self, mask: Bitboard = 0) -> None:
        self.mask = mask & BB_ALL

    @classmethod
    def from_squares(cls, squares: Iterable[Square]) -> SquareSet:
        mask = 0
        for sq in squares:
            mask |= BB_SQUARES[sq]
        return cls(mask)

    def __iter__(self) -> Iterator[Square]:
        return bits(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, sq: object) -> bool:
        return isinstance(sq, int) and 0 <= sq < 64 and bool(self.mask >> sq & 1)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SquareSet):
            return self.mask == other.mask
        if isinstance(other, int):
            return self.mask == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: SquareSet | int) -> SquareSet:
        return SquareSet(self.mask | int(other))

    def __and__(self, other: SquareSet | int) -> SquareSet:
        return SquareSet(self.mask & int(other))

    def __sub__(self, other: SquareSet | int) -> SquareSet:
        return SquareSet(self.mask & ~int(other))

    def __repr__(self) -> str:
        return f"SquareSet(0x{self.mask:016x})"

    def __str__(self) -> str:
        rows = []
        for r in range(8):
            rows.append(" ".join("1" if self.mask >> (r * 8 + c) & 1 else "." for c in range(8)))
        return "\n".join(rows)

# What ``from hasamigo.squares import *`` (and so ``import hasamigo``) exposes.
__all__ = [
    "A1",
    "A2",
    "A3",
    "A4",
    "A5",
    "A6",
    "A7",
    "A8",
    "B1",
    "B2",
    "B3",
    "B4",
    "B5",
    "B6",
    "B7",
    "B8",
    "BB_ALL",
    "BB_CENTER",
    "BB_CORNERS",
    "BB_C_SQUARES",
    "BB_EMPTY",
    "BB_SQUARES",
    "BB_X_SQUARES",
    "C1",
    "C2",
    "C3",
    "C4",
    "C5",
    "C6",
    "C7",
    "C8",
    "D1",
    "D2",
    "D3",
    "D4",
    "D5",
    "D6",
    "D7",
    "D8",
    "E1",
    "E2",
    "E3",
    "E4",
    "E5",
    "E6",
    "E7",
    "E8",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "FILE_NAMES",
    "G1",
    "G2",
    "G3",
    "G4",
    "G5",
    "G6",
    "G7",
    "G8",
    "H1",
    "H2",
    "H3",
    "H4",
    "H5",
    "H6",
    "H7",
    "H8",
    "MAX_SQUARES",
    "RANK_NAMES",
    "SQUARES",
    "SQUARE_NAMES",
    "Bitboard",
    "Square",
    "SquareSet",
    "bits",
    "parse_square",
    "square",
    "square_col",
    "square_name",
    "square_row",
]
