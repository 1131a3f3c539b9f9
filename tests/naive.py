"""A slow, obviously correct Othello reference for the tests: no numba, no bit tricks.

A position is a list of ``n * n`` cells for a square grid of side ``n`` (64 cells on the
8×8 grid, 100 on the 10×10 grid of the wide variants), index ``row * n + col`` (a1 = 0),
each one of ``EMPTY`` (None), ``BLACK_DISC`` ('B'), ``WHITE_DISC`` ('W') or ``OFF`` ('#',
a square outside the playable shape). The grid's side is read from the number of cells.
Moves walk the eight directions square by square.
Colours are ``'B'`` and ``'W'``; a pass is ``None``.
"""

from __future__ import annotations

from functools import cache
from math import isqrt

EMPTY = None
BLACK_DISC = "B"
WHITE_DISC = "W"
OFF = "#"

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

Cells = list  # list of n * n cells


def side(cells: Cells) -> int:
    """The grid's side: 8 for 64 cells, 10 for 100."""
    n = isqrt(len(cells))
    assert n * n == len(cells), f"{len(cells)} cells are not a square grid"
    return n


def other(colour: str) -> str:
    return WHITE_DISC if colour == BLACK_DISC else BLACK_DISC


def cells_from_masks(black: int, white: int, playable: int, stride: int = 8) -> Cells:
    """Cells of the ``stride`` × ``stride`` grid from three integers used only as sets of
    square indices."""
    assert (black | white | playable) < 2 ** (stride * stride), "a square beyond the grid"
    cells: Cells = []
    for sq in range(stride * stride):
        in_black = (black >> sq) % 2 == 1
        in_white = (white >> sq) % 2 == 1
        on_board = (playable >> sq) % 2 == 1
        assert not (in_black and in_white), f"square {sq} is both black and white"
        if not on_board:
            assert not (in_black or in_white), f"a disc on unplayable square {sq}"
            cells.append(OFF)
        elif in_black:
            cells.append(BLACK_DISC)
        elif in_white:
            cells.append(WHITE_DISC)
        else:
            cells.append(EMPTY)
    return cells


def squares_of(cells: Cells, what: str | None) -> list[int]:
    return [sq for sq in range(len(cells)) if cells[sq] == what]


def mask_of(squares: list[int]) -> int:
    """Sum of ``2**sq`` (to compare with a kernel's bitboard)."""
    return sum(2**sq for sq in squares)


def playable_count(cells: Cells) -> int:
    return sum(1 for c in cells if c != OFF)


def flips(cells: Cells, colour: str, sq: int) -> list[int]:
    """Opponent discs that ``colour`` flips by playing on ``sq`` (empty list: not a move)."""
    if cells[sq] is not EMPTY:
        return []
    opponent = other(colour)
    n = side(cells)
    row, col = divmod(sq, n)
    flipped: list[int] = []
    for dr, dc in DIRECTIONS:
        line: list[int] = []
        r, c = row + dr, col + dc
        while 0 <= r < n and 0 <= c < n and cells[r * n + c] == opponent:
            line.append(r * n + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < n and 0 <= c < n and cells[r * n + c] == colour:
            flipped.extend(line)
    return sorted(flipped)


def legal_moves(cells: Cells, colour: str) -> list[int]:
    return [sq for sq in range(len(cells)) if flips(cells, colour, sq)]


def apply_move(cells: Cells, colour: str, sq: int | None) -> Cells:
    """A new position after ``colour`` plays ``sq`` (``None``: a pass, nothing changes)."""
    new = list(cells)
    if sq is None:
        return new
    flipped = flips(cells, colour, sq)
    assert flipped, f"{sq} is not a legal move for {colour}"
    new[sq] = colour
    for f in flipped:
        new[f] = colour
    return new


def must_pass(cells: Cells, colour: str) -> bool:
    return not legal_moves(cells, colour) and bool(legal_moves(cells, other(colour)))


def game_over(cells: Cells) -> bool:
    return not legal_moves(cells, BLACK_DISC) and not legal_moves(cells, WHITE_DISC)


def disc_counts(cells: Cells) -> tuple[int, int]:
    return cells.count(BLACK_DISC), cells.count(WHITE_DISC)


def official_score(cells: Cells) -> tuple[int, int]:
    """(black, white): empties go to the winner; a tie splits the N playable squares N/2 each."""
    b, w = disc_counts(cells)
    n = playable_count(cells)
    empties = n - b - w
    if b > w:
        return b + empties, w
    if w > b:
        return b, w + empties
    return n // 2, n // 2


def perft(cells: Cells, colour: str, depth: int) -> int:
    """Leaves at ``depth`` plies: a pass is a ply, a finished game is one leaf."""
    if depth == 0:
        return 1
    moves = legal_moves(cells, colour)
    if moves:
        return sum(perft(apply_move(cells, colour, m), other(colour), depth - 1) for m in moves)
    if legal_moves(cells, other(colour)):
        return perft(cells, other(colour), depth - 1)
    return 1


def negamax(cells: Cells, colour: str, *, empties_to_winner: bool = True) -> int:
    """Perfect-play value for the side to move: its (official or raw) disc difference."""
    return _negamax(tuple(cells), colour, empties_to_winner)


@cache
def _negamax(cells: tuple, colour: str, empties_to_winner: bool) -> int:
    board = list(cells)
    moves = legal_moves(board, colour)
    if not moves:
        if legal_moves(board, other(colour)):
            return -_negamax(cells, other(colour), empties_to_winner)
        b, w = official_score(board) if empties_to_winner else disc_counts(board)
        return b - w if colour == BLACK_DISC else w - b
    return max(
        -_negamax(tuple(apply_move(board, colour, m)), other(colour), empties_to_winner)
        for m in moves
    )


def board_string(cells: Cells, colour: str, rows: range, cols: range) -> str:
    """A board string (``X`` black, ``O`` white, ``-`` empty, ``#`` cut, then the side)
    over the frame ``rows`` × ``cols`` of the grid."""
    symbol = {BLACK_DISC: "X", WHITE_DISC: "O", EMPTY: "-", OFF: "#"}
    n = side(cells)
    text = "".join(symbol[cells[r * n + c]] for r in rows for c in cols)
    return text + " " + ("X" if colour == BLACK_DISC else "O")


def square(name: str, stride: int = 8) -> int:
    """Grid index of a square name such as ``'f5'`` or ``'j10'`` (column letter, row
    number, both counted from the grid's top-left) on the ``stride``-wide grid."""
    col = "abcdefghij"[:stride].index(name[0].lower())
    row = int(name[1:]) - 1
    assert 0 <= row < stride
    return row * stride + col


def frame(rows: range, cols: range, cut: tuple[str, ...] = (), stride: int = 8) -> int:
    """Playable squares of a ``rows`` × ``cols`` frame of the grid minus the ``cut`` names."""
    cut_squares = {square(n, stride) for n in cut}
    return mask_of([r * stride + c for r in rows for c in cols
                    if r * stride + c not in cut_squares])


def start_cells(playable: int, *, parallel: bool = False) -> Cells:
    """The cross (or parallel) start on d4/e4/d5/e5 of the grid (the centre of every
    centred frame: 8×8, 6×6 on b2..g7, 4×4 on c3..f6)."""
    if parallel:
        black = mask_of([square("d5"), square("e5")])
        white = mask_of([square("d4"), square("e4")])
    else:
        black = mask_of([square("e4"), square("d5")])
        white = mask_of([square("d4"), square("e5")])
    return cells_from_masks(black, white, playable)


def start_cells_at(playable: int, corner: str, stride: int) -> Cells:
    """The cross start on the 2×2 whose top-left square is ``corner`` (named on the grid):
    white on it and diagonally below right, black on the other two."""
    top_left = square(corner, stride)
    white = mask_of([top_left, top_left + stride + 1])
    black = mask_of([top_left + 1, top_left + stride])
    return cells_from_masks(black, white, playable, stride)


#: The frames of the variants, as facts independent of the package's geometry code:
#: name -> (rows, cols, playable mask).
OCTAGON_CUT = ("a1", "b1", "a2", "h1", "g1", "h2", "a8", "b8", "a7", "h8", "g8", "h7")
FRAMES = {
    "standard": (range(8), range(8), frame(range(8), range(8))),
    "6x6": (range(1, 7), range(1, 7), frame(range(1, 7), range(1, 7))),
    "4x4": (range(2, 6), range(2, 6), frame(range(2, 6), range(2, 6))),
    "octagon": (range(8), range(8), frame(range(8), range(8), OCTAGON_CUT)),
}

#: The wide variants on the 10×10 grid, each at the grid's top-left (its a1 is the grid's
#: a1): name -> (rows, cols, playable mask, top-left square of the start's 2×2).
EIGHT_STARS_CUT = ("a1", "b1", "a2", "i1", "j1", "j2", "a9", "a10", "b10", "j9", "i10", "j10")
WIDE_FRAMES = {
    "grand": (range(10), range(10), frame(range(10), range(10), stride=10), "e5"),
    "eight-stars": (range(10), range(10),
                    frame(range(10), range(10), EIGHT_STARS_CUT, stride=10), "e5"),
    "hasegawa-8x9": (range(8), range(9), frame(range(8), range(9), stride=10), "d4"),
    "hasegawa-9x10": (range(9), range(10), frame(range(9), range(10), stride=10), "e4"),
}
