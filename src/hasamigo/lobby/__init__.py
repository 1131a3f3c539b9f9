"""The lobby (issue 67): where signed-in players find a game with each other.

* :mod:`~hasamigo.lobby.model` — a challenge's terms (variant, time control, rated,
  colour, watched), its states, when it lapses, the refusals, and the widening window
  of "play someone near my rating".
* :mod:`~hasamigo.lobby.store` — :class:`LobbyStore`: challenges posted, accepted once
  (whichever servers race), cancelled by their poster; the waiting list paired in the
  database; the public games being played between people, and an account's unfinished
  games.

The lobby pairs accounts (:mod:`hasamigo.accounts`) by their ratings
(:mod:`hasamigo.ratings`); the games themselves are made by the web layer's games'
service, with both seats held by the two accounts.
"""

from __future__ import annotations

from hasamigo.lobby.model import (
    Challenge,
    ChallengeNotFound,
    ChallengeState,
    LobbyError,
    NotYourChallenge,
    Terms,
    Waiting,
    window,
)
from hasamigo.lobby.store import HeldGame, LiveGameRow, LobbyStore, ViewerRows

__all__ = ["Challenge", "ChallengeNotFound", "ChallengeState", "HeldGame", "LiveGameRow",
           "LobbyError", "LobbyStore", "NotYourChallenge", "Terms", "ViewerRows", "Waiting",
           "window"]
