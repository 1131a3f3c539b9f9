"""Errors raised by hasamigo. Every one says what was wrong and where."""

from __future__ import annotations

import enum


class HasamigoError(Exception):
    """Base class of every error raised on purpose by hasamigo."""


class InvalidSquareError(HasamigoError, ValueError):
    """A square name or index that does not exist on the board in use."""


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


class IllegalMoveError(HasamigoError, ValueError):
    """A move that the rules do not allow in the position; ``reason`` says why.

    >>> from hasamigo import Board
    >>> try:
    ...     Board().play("e5")
    ... except IllegalMoveError as exc:
    ...     print(exc)
    illegal move e5 for black: occupied
    """

    def __init__(self, message: str, reason: IllegalReason) -> None:
        super().__init__(message)
        self.reason = reason


class ParseError(HasamigoError, ValueError):
    """Malformed input text or bytes; names the source, line and column (or byte offset)."""

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
