"""hasamigo: Othello (Reversi) by the official Japan Othello Federation rules.

>>> import hasamigo
>>> board = hasamigo.Board()
>>> board.play("f5"), board.turn
(Move.from_str('f5'), Color.WHITE)
"""

from __future__ import annotations

from hasamigo.board import Board, LegalMoves, Outcome
from hasamigo.errors import (
    ExternalEngineError,
    HasamigoError,
    IllegalMoveError,
    IllegalReason,
    InvalidOptionError,
    InvalidPositionError,
    InvalidSquareError,
    ParseError,
)
from hasamigo.move import BLACK, PASS, WHITE, Color, Move
from hasamigo.squares import *  # noqa: F403  (A1..H8, SquareSet, BB_* constants)
from hasamigo.squares import Bitboard, Square, SquareSet, parse_square, square_name
from hasamigo.variants import VARIANTS, find_variant

__version__ = "0.1.0"

__all__ = [
    "BLACK",
    "PASS",
    "VARIANTS",
    "WHITE",
    "Bitboard",
    "Board",
    "Color",
    "ExternalEngineError",
    "HasamigoError",
    "IllegalMoveError",
    "IllegalReason",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidSquareError",
    "LegalMoves",
    "Move",
    "Outcome",
    "ParseError",
    "Square",
    "SquareSet",
    "find_variant",
    "parse_square",
    "square_name",
]
