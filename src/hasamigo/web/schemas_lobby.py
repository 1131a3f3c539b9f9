"""The lobby's requests (issue 67): a challenge's terms as the API takes them. Every field
is bounded here; :meth:`hasamigo.lobby.Terms.check` says what the bounds cannot (one time
control, a rated game on the standard board)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from hasamigo.lobby.model import DAYS, DEFAULT_MINUTES, MINUTES
from hasamigo.web.schemas import Request

LobbyVariant = Literal["8x8", "6x6", "4x4", "grand", "eight-stars", "hasegawa-8x9",
                       "hasegawa-9x10", "nip-circle"]
LobbyColour = Literal["black", "white", "random", "fuse-ishi"]


class ChallengeRequest(Request):
    """An open challenge: the game offered. ``days_per_move`` makes it a correspondence
    game (leave ``clock_minutes`` out); otherwise ``clock_minutes`` a side, the JOF's 20
    by default. ``rated``: the standard 8×8 game only. ``colour``: the poster's (black,
    white, drawn at random, or fuse-ishi 伏せ石). ``public``: anyone may watch."""

    variant: LobbyVariant = "8x8"
    clock_minutes: float | None = Field(default=DEFAULT_MINUTES, ge=MINUTES[0], le=MINUTES[1])
    days_per_move: int | None = Field(default=None, ge=DAYS[0], le=DAYS[1])
    rated: bool = False
    colour: LobbyColour = "random"
    public: bool = True


__all__ = ["ChallengeRequest", "LobbyColour", "LobbyVariant"]
