"""Errors raised by hasamigo. Every one says what was wrong and where."""

from __future__ import annotations

import enum

#: Characters of a value quoted back in an error message.
SHOWN_CHARS = 40


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters.

    Input is echoed back to whoever sent it: a 20 MB string or a 5,000-digit number
    (whose ``repr`` Python refuses) must not be.

    >>> shown("f5"), shown("x" * 100, 10), shown(10 ** 5000)
    ("'f5'", "'xxxxxxxxxx'… (100 characters)", 'an integer of 16610 bits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else text[: limit + 2] + "…"


class HasamigoError(Exception):
    """Base class of every error raised on purpose by hasamigo.

    ``code`` is a stable, machine-readable name for the kind of error (front-ends map it
    to an HTTP status, an exit code, a protocol reply); subclasses set their own.
    """

    code: str = "error"


class InvalidSquareError(HasamigoError, ValueError):
    """A square name or index that does not exist on the board in use."""

    code = "invalid_square"


class InvalidOptionError(HasamigoError, ValueError):
    """A setting, name or number that is out of range or unknown (a variant, a start, a
    handicap, a level, a player spec, a search limit): the message says what is allowed."""

    code = "invalid_option"


class InvalidPositionError(HasamigoError, ValueError):
    """A position that cannot be set up as asked (too many discs, a handicap on a board
    that has no such corner, discs in hand out of range)."""

    code = "invalid_position"


class IllegalReason(enum.Enum):
    """Why a move was refused (the JOF's 不正着手 categories that a digital board can see)."""

    OCCUPIED = "occupied"
    NO_FLIPS = "flips nothing"
    NOT_YOUR_TURN = "not your turn"
    PASS_NOT_ALLOWED = "pass while a legal move exists"
    MUST_PASS = "no legal move: the side to move must pass"
    UNPLAYABLE = "not a playable square"
    GAME_OVER = "the game is over"
    NO_DISCS_LEFT = "no discs left in hand: must pass"
    PLACEMENT_PHASE = "the first four discs go on the centre squares"
    #: Under a 挟み碁 flip rule: the discs chosen to turn are not ones the rule allows.
    BAD_TURN = "the discs to turn are not a choice the flip rule allows"


class IllegalMoveError(HasamigoError, ValueError):
    """A move that the rules do not allow in the position; ``reason`` says why.

    >>> from hasamigo import Board
    >>> try:
    ...     Board().play("e5")
    ... except IllegalMoveError as exc:
    ...     print(exc)
    illegal move e5 for black: occupied
    """

    code = "illegal_move"

    def __init__(self, message: str, reason: IllegalReason) -> None:
        super().__init__(message)
        self.reason = reason


class ExternalEngineError(HasamigoError, RuntimeError):
    """An external engine (a program spoken to over NBoard or GTP) that could not be
    started, died again after a restart, fell silent, or answered something that is not a
    legal move; the message names the engine and quotes what it said."""

    code = "external_engine"


class ParseError(HasamigoError, ValueError):
    """Malformed input text or bytes; names the source, line and column (or byte offset)."""

    code = "parse_error"

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        offset: int | None = None,
    ) -> None:
        self.detail = message
        self.source = source
        self.line = line
        self.column = column
        self.offset = offset
        where = []
        if source:
            where.append(source)
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        if offset is not None:
            where.append(f"offset {offset}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class MoveTextError(ParseError, InvalidSquareError):
    """A move's text that names no move (``c4(d4`` …): a parse error with its column,
    and, to the readers of a move (which answer a Move or InvalidSquareError), a move
    name that names nothing."""
