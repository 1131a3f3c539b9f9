"""Engines: the in-process searcher and solver, limits and levels, time management.

Scores are disc differences from the side to move.

>>> from hasamigo import Board
>>> from hasamigo.engine import Engine, Limit
>>> board = Board("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO- X")
>>> Engine(table_size=1 << 10).solve(board).score
64
"""

from __future__ import annotations

from hasamigo.engine.core import Analysis, Engine, MoveScore, PlayResult
from hasamigo.engine.limits import (
    DEFAULT_DEPTH,
    LEVELS,
    MAX_LEVEL,
    MAX_THREADS,
    SELECTIVITIES,
    Level,
    Limit,
    checked_threads,
    level,
)
from hasamigo.engine.obf import ObfRecord, read_obf, solve_obf_file
from hasamigo.engine.timing import Budget, MoveTime, move_budget

__all__ = [
    "DEFAULT_DEPTH",
    "LEVELS",
    "MAX_LEVEL",
    "MAX_THREADS",
    "SELECTIVITIES",
    "Analysis",
    "Budget",
    "Engine",
    "Level",
    "Limit",
    "MoveScore",
    "MoveTime",
    "ObfRecord",
    "PlayResult",
    "checked_threads",
    "level",
    "move_budget",
    "read_obf",
    "solve_obf_file",
]
