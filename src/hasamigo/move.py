"""Moves: a disc placed on a square, or a pass (a real, forced move, never falsy)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hasamigo.errors import InvalidSquareError, shown
from hasamigo.squares import Square, parse_square, square_name

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

    >>> Move.from_str("F5")
    Move.from_str('f5')
    >>> bool(PASS), PASS.is_pass, str(PASS)
    (True, True, 'pass')
    """

    square: Square | None

    def __post_init__(self) -> None:
        if self.square is not None and not (isinstance(self.square, int) and 0 <= self.square < 64):
            raise InvalidSquareError(f"no square with index {shown(self.square)} (0..63)")

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
        return "pass" if self.square is None else square_name(self.square)

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"


PASS = Move(None)
