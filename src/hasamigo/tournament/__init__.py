"""Matches and (later) tournaments between players."""

from __future__ import annotations

from hasamigo.tournament.match import (
    GameResult,
    MatchSummary,
    elo_difference,
    elo_interval,
    play_game,
    run_match,
)

__all__ = [
    "GameResult",
    "MatchSummary",
    "elo_difference",
    "elo_interval",
    "play_game",
    "run_match",
]
