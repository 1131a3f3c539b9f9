"""The official game procedure: a game is its setup plus an append-only list of events.

:mod:`~hasamigo.game.events` are the facts (moves, passes, claims, choices, take-backs);
:mod:`~hasamigo.game.state` folds them into board, phase, clock and result (a frozen state
per event; the rules one module per procedure in :mod:`~hasamigo.game.procedures`);
:class:`~hasamigo.game.controller.GameController` checks each new event against the fold
before appending it. Clock values, results off the board and fuse-ishi are the pieces
the fold is built from. The web app, the CLI and tournaments share the controller.
"""

from __future__ import annotations

from hasamigo.game.clock import DEFAULT_SECONDS, Clock, ClockError, ClockState
from hasamigo.game.colours import (
    ColourDecision,
    FuseIshi,
    FuseIshiError,
    Right,
    at_random,
    by_choice,
)
from hasamigo.game.errors import GameError, StoredGameError
from hasamigo.game.result import (
    GameResult,
    Score,
    Scoring,
    Termination,
    both_flags_down,
    forfeit,
    playout_result,
    resignation,
    score_board,
    scoring_for,
    timeout_win,
)

__all__ = [
    "DEFAULT_SECONDS",
    "Clock",
    "ClockError",
    "ClockState",
    "ColourDecision",
    "FuseIshi",
    "FuseIshiError",
    "GameError",
    "GameResult",
    "Right",
    "Score",
    "Scoring",
    "StoredGameError",
    "Termination",
    "at_random",
    "both_flags_down",
    "by_choice",
    "forfeit",
    "playout_result",
    "resignation",
    "score_board",
    "scoring_for",
    "timeout_win",
]
