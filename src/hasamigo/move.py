"""Moves: a disc placed on a square, or a pass (a real, forced move, never falsy)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hasamigo.errors import InvalidOptionError, InvalidSquareError, shown
from hasamigo.squares import MAX_SQUARES, Bitboard, Square, bits, parse_square, square_name

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

    @classmethod
    def parse(cls, text: str, *, lenient: bool = False) -> Color:
        """The colour a text names: the one home of reading a colour.

        Strict (the default, for our own JSON and stored events): exactly ``black`` or
        ``white``, i.e. ``Color.value``. ``lenient`` (for what people and other programs
        type: the CLI, a score sheet, GTP, ``Board.play("b:f5")``): surrounding spaces and
        case do not matter, and ``b``/``x``/``黒`` and ``w``/``o``/``白`` are read too
        (:data:`COLOUR_NAMES`). Anything else raises :class:`InvalidOptionError` naming
        the text; each edge maps it to its own reply (a 422, a GTP refusal, …).

        >>> Color.parse("white"), Color.parse(" B ", lenient=True), Color.parse("黒", lenient=True)
        (Color.WHITE, Color.BLACK, Color.BLACK)
        >>> Color.parse("Black")
        Traceback (most recent call last):
        ...
        hasamigo.errors.InvalidOptionError: a colour is 'black' or 'white', not 'Black'
        """
        if not isinstance(text, str):
            raise InvalidOptionError(f"a colour is 'black' or 'white', not {shown(text)}")
        if lenient:
            colour = COLOUR_NAMES.get(text.strip().casefold())
            if colour is None:
                raise InvalidOptionError(
                    f"a colour is black or white ({', '.join(COLOUR_NAMES)}), not {shown(text)}")
            return colour
        if text == "black":
            return cls.BLACK
        if text == "white":
            return cls.WHITE
        raise InvalidOptionError(f"a colour is 'black' or 'white', not {shown(text)}")

    @classmethod
    def parse_optional(cls, text: str | None, *, lenient: bool = False) -> Color | None:
        """:meth:`parse`, with ``None`` (an optional field left out) read as ``None``."""
        return None if text is None else cls.parse(text, lenient=lenient)

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Color.{self.name}"


BLACK = Color.BLACK
WHITE = Color.WHITE

#: The names :meth:`Color.parse` reads when lenient (after ``strip()`` and ``casefold()``):
#: the union of what the CLI, the score sheet, GTP and ``Board.play``'s prefix accepted.
COLOUR_NAMES: dict[str, Color] = {
    "black": BLACK, "b": BLACK, "x": BLACK, "黒": BLACK,
    "white": WHITE, "w": WHITE, "o": WHITE, "白": WHITE,
}


@dataclass(frozen=True, slots=True)
class Move:
    """A move; ``square`` is ``None`` for a pass.

    ``turned`` is the mask of the discs the mover chose to turn under a 挟み碁 flip rule
    (``"one"`` or ``"choose"``, in ``Board.rules``); ``None``, the normal case, turns every
    bracketed disc. A pass turns nothing. Whether the choice is allowed is the
    board's to say (``Board.push``); here it is only checked to be a set of grid squares.

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
    turned: Bitboard | None = None

    def __post_init__(self) -> None:
        if self.square is not None and not (
            isinstance(self.square, int) and 0 <= self.square < MAX_SQUARES
        ):
            raise InvalidSquareError(
                f"no square with index {shown(self.square)} (0..{MAX_SQUARES - 1})"
            )
        if self.turned is not None:
            if not (
                isinstance(self.turned, int)
                and not isinstance(self.turned, bool)
                and 0 <= self.turned < 1 << MAX_SQUARES
            ):
                raise InvalidSquareError(
                    f"turned discs are a mask of squares 0..{MAX_SQUARES - 1}, "
                    f"not {shown(self.turned)}"
                )
            if self.square is None:
                raise InvalidSquareError("a pass turns no discs")

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
        text = _grid8_name(self.square)
        if self.turned is not None:
            text += "(" + "".join(_grid8_name(sq) for sq in bits(self.turned)) + ")"
        return text

    def __repr__(self) -> str:
        if self.turned is not None:
            return f"Move({self.square}, turned={self.turned:#x})"
        if self.square is not None and self.square >= 64:
            return f"Move({self.square})"
        return f"Move.from_str({str(self)!r})"


def _grid8_name(sq: Square) -> str:
    return square_name(sq) if sq < 64 else f"#{sq}"


PASS = Move(None)
