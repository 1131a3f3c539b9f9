"""Moves: a disc placed on a square, or a pass (a real, forced move, never falsy)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hasamigo.errors import InvalidSquareError, shown
from hasamigo.squares import MAX_SQUARES, Square, parse_square, square_name

#: Tokens read as a pass (case-insensitive): GGF writes ``PA``, others ``pass`` or ``--``.
PASS_TOKENS = frozenset({"pass", "pa", "ps", "--", "@@"})


class Color(enum.Enum):
    """A side: ``Color.BLACK`` moves first in a normal game."""

    BLACK = "black"
    WHITE = "white"

    @property
    def other(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def symbol(self) -> str:
        """``X`` for black, ``O`` for white (as in board strings and OBF)."""
        return "X" if self is Color.BLACK else "O"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Color.{self.name}"


BLACK = Color.BLACK
WHITE = Color.WHITE


@dataclass(frozen=True, slots=True)
class Move:
    """A move; ``square`` is ``None`` for a pass.

    ``square`` is a grid index: 0..63 on the 8×8 grid, up to 99 on the 10×10 grid of the
    wide variants. ``str`` names it on the 8×8 grid (``#N`` beyond it); a variant names its
    own squares with ``Board.move_name``.

    >>> Move.from_str("F5")
    Move.from_str('f5')
    >>> bool(PASS), PASS.is_pass, str(PASS)
    (True, True, 'pass')
    >>> Move(99)
    Move(99)
    """

    square: Square | None

    def __post_init__(self) -> None:
        if self.square is not None and not (
            isinstance(self.square, int) and 0 <= self.square < MAX_SQUARES
        ):
            raise InvalidSquareError(
                f"no square with index {shown(self.square)} (0..{MAX_SQUARES - 1})"
            )

    @classmethod
    def from_str(cls, text: str) -> Move:
        """Parse ``f5`` (any case) or a pass token (``pass``, ``PA``, ``--``) on the 8×8 grid;
        anything else raises :class:`InvalidSquareError` quoting (the start of) the text."""
        token = text.strip()
        if token.lower() in PASS_TOKENS:
            return PASS
        return cls(parse_square(token))

    @property
    def is_pass(self) -> bool:
        return self.square is None

    def __str__(self) -> str:
        if self.square is None:
            return "pass"
        return square_name(self.square) if self.square < 64 else f"#{self.square}"

    def __repr__(self) -> str:
        if self.square is not None and self.square >= 64:
            return f"Move({self.square})"
        return f"Move.from_str({str(self)!r})"


PASS = Move(None)
