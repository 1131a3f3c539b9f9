"""Board variants: geometries within the 8×8 grid, historical starts and the disc limit.

Each variant is a :class:`~hasamigo.board.Board` subclass with class-level metadata;
:func:`find_variant` looks one up by name or alias.

>>> find_variant("mini").square_count()
36
>>> find_variant("6x6")().to_string()
'--------------OX----XO-------------- X'
"""

from __future__ import annotations

from hasamigo.board import Board
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.squares import A1, A2, A7, A8, B1, B8, G1, G8, H1, H2, H7, H8


class ParallelBoard(Board):
    """8×8 with the parallel Reversi start: d4, e4 white; d5, e5 black."""

    name = "parallel"
    aliases = ("parallel-start",)
    title = "Reversi 8×8, parallel start"
    default_start = "parallel"


class OriginalReversiBoard(Board):
    """Reversi as first published: an empty centre; the first four discs (Black first)
    are placed freely on the four centre squares, without flips."""

    name = "original"
    aliases = ("original-reversi", "reversi")
    title = "Reversi 8×8, original start"
    default_start = "original"


class EarlyReversiBoard(Board):
    """19th-century Reversi: original start and 32 discs a side; a side that has placed
    all 32 passes for the rest of the game."""

    name = "reversi-32"
    aliases = ("early-reversi", "reversi-1886")
    title = "Reversi 8×8, 32-disc limit"
    default_start = "original"
    default_disc_limit = 32


class MiniBoard(Board):
    """Mini Othello, 6×6 (perfect play: White wins 16–20). Named a1..f6 on its own."""

    name = "6x6"
    aliases = ("mini", "mini-othello")
    title = "Mini Othello 6×6"
    rows = cols = 6
    top = left = 1


class Board4x4(Board):
    """4×4 Othello (perfect play: White wins, 3–13 with the empties to the winner)."""

    name = "4x4"
    aliases = ("micro",)
    title = "Othello 4×4"
    rows = cols = 4
    top = left = 2


class OctagonBoard(Board):
    """8×8 with three squares cut at each corner: an octagon of 52 squares."""

    name = "octagon"
    aliases = ("octagonal",)
    title = "Octagonal Othello (52 squares)"
    cut = sum(1 << sq for sq in (A1, B1, A2, H1, G1, H2, A8, B8, A7, H8, G8, H7))


VARIANTS: tuple[type[Board], ...] = (
    Board,
    ParallelBoard,
    OriginalReversiBoard,
    EarlyReversiBoard,
    MiniBoard,
    Board4x4,
    OctagonBoard,
)


def find_variant(name: str) -> type[Board]:
    """The board class registered under ``name`` or one of its aliases (case-insensitive);
    :class:`~hasamigo.errors.InvalidOptionError` listing the known names otherwise."""
    key = name.strip().lower()
    for variant in VARIANTS:
        if key == variant.name or key in variant.aliases:
            return variant
    known = ", ".join(v.name for v in VARIANTS)
    raise InvalidOptionError(f"unknown variant {shown(name)}; known: {known}")
