"""hasamigo: Othello (Reversi) by the official Japan Othello Federation rules.

>>> import hasamigo
>>> board = hasamigo.Board()
>>> board.play("f5"), board.turn
(Move.from_str('f5'), Color.WHITE)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from hasamigo.board import Board, LegalMoves, Outcome
    from hasamigo.multi import MultiBoard
    from hasamigo.variants import VARIANTS, find_variant

#: the one place the version is written: pyproject.toml reads it (``[tool.setuptools.dynamic]``)
__version__ = "0.1.0"

#: names loaded on first use: the board imports numpy and the compiled kernels (numba),
#: which a command's ``--help`` or a web page that never touches a board should not pay
_LAZY = {"Board": "hasamigo.board", "LegalMoves": "hasamigo.board",
         "Outcome": "hasamigo.board", "VARIANTS": "hasamigo.variants",
         "MultiBoard": "hasamigo.multi",
         "find_variant": "hasamigo.variants"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'hasamigo' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

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
    "MultiBoard",
    "Outcome",
    "ParseError",
    "Square",
    "SquareSet",
    "find_variant",
    "parse_square",
    "square_name",
]
