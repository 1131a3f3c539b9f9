"""The official game procedure: clock, results off the board, colour decision.

The game controller shared by the web app, the CLI and tournaments builds on these.
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
from hasamigo.game.result import (
    GameResult,
    Termination,
    both_flags_down,
    forfeit,
    playout_result,
    resignation,
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
    "GameResult",
    "Right",
    "Termination",
    "at_random",
    "both_flags_down",
    "by_choice",
    "forfeit",
    "playout_result",
    "resignation",
    "timeout_win",
]
