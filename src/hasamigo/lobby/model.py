"""What the lobby offers: a challenge's terms, its states, the refusals, and the window
of "play someone near my rating".

A **challenge** is a signed-in account's offer of one game: a two-player variant of the
new-game form, a time control (minutes a side, the JOF's 20 by default, or a
correspondence game's days per move), rated or not, the poster's colour (black, white,
random, or fuse-ishi 伏せ石, the JOF's way), and whether anyone may watch. A rated
challenge is the standard 8×8 game only: the ``othello`` ratings pool counts two-player
games on the standard board (:mod:`hasamigo.ratings.model`), and the other boards have
no pool.

An open challenge **lapses** :data:`LIVE_LAPSE` after it was posted (a correspondence
one, whose players need not be there at once, after :data:`CORRESPONDENCE_LAPSE`), or as
soon as its poster has no session left (signed out everywhere, or every session
expired): an offer nobody is there to play is not shown.

**Waiting** ("play someone near my rating"): a waiting account is paired with the
waiting account nearest in rating within both players' windows; a window is
:data:`WINDOW_START` points at first and widens by :data:`WINDOW_STEP` every
:data:`WINDOW_EVERY` seconds waited, up to any rating after :data:`WINDOW_OPEN`. The
game made is the quick one online sites offer: rated 8×8 Othello, the JOF's 20 minutes a
side, colours drawn at random.

>>> window(0.0), window(10.0), window(60.0), window(float(WINDOW_OPEN.total_seconds()))
(100.0, 150.0, 400.0, inf)
>>> terms = Terms.check("8x8", None, 3, True, "random", True)
>>> terms.time_control, terms.correspondence
('3 days a move', True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from hasamigo.errors import HasamigoError, InvalidOptionError, shown
from hasamigo.game.setup import MAX_DAYS_PER_MOVE, MIN_DAYS_PER_MOVE

#: the two-player variants a challenge may offer: the new-game form's (its ids)
VARIANTS = ("8x8", "6x6", "4x4", "grand", "eight-stars", "hasegawa-8x9", "hasegawa-9x10",
            "nip-circle")
#: the only variant a rated challenge may offer (the ``othello`` pool's board)
RATED_VARIANT = "8x8"
#: the poster's colour: chosen, drawn at random, or decided by fuse-ishi (伏せ石)
COLOURS = ("black", "white", "random", "fuse-ishi")
#: minutes a side: the JOF's 20 by default
DEFAULT_MINUTES = 20.0
MINUTES = (1.0, 180.0)
DAYS = (MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE)
#: how long an open challenge stays open
LIVE_LAPSE = timedelta(minutes=15)
CORRESPONDENCE_LAPSE = timedelta(days=7)
#: open challenges one account may have at once
OPEN_PER_ACCOUNT = 5
#: the waiting window: its start, how much it widens and how often, and when it is open
WINDOW_START, WINDOW_STEP, WINDOW_EVERY = 100.0, 25.0, 5.0
WINDOW_OPEN = timedelta(minutes=2)
#: a waiting entry its page has not asked about for this long has lapsed (the page closed)
WAITING_SEEN = timedelta(seconds=30)


class LobbyError(HasamigoError):
    """The lobby refuses it now (taken already, one's own, too many): 409."""

    code = "lobby"


class ChallengeNotFound(LobbyError, LookupError):
    code = "not_found"


class NotYourChallenge(LobbyError):
    code = "forbidden"


class ChallengeState(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    CANCELLED = "cancelled"
    LAPSED = "lapsed"


@dataclass(frozen=True, slots=True)
class Terms:
    """The game a challenge offers (checked: :meth:`check`)."""

    variant: str = RATED_VARIANT
    clock_minutes: float | None = DEFAULT_MINUTES
    days_per_move: int | None = None
    rated: bool = False
    colour: str = "random"
    public: bool = True

    @classmethod
    def check(cls, variant: str, clock_minutes: float | None, days_per_move: int | None,
              rated: bool, colour: str, public: bool) -> Terms:
        """The terms, or :class:`~hasamigo.errors.InvalidOptionError` saying what is
        wrong. Exactly one time control: ``days_per_move`` makes a correspondence game
        (then ``clock_minutes`` is ``None``)."""
        if variant not in VARIANTS:
            raise InvalidOptionError(f"no two-player variant {shown(variant)}: the lobby "
                                     f"offers {', '.join(VARIANTS)}")
        if colour not in COLOURS:
            raise InvalidOptionError(f"no colour {shown(colour)}: choose "
                                     f"{', '.join(COLOURS)}")
        if days_per_move is not None:
            low, high = DAYS
            if isinstance(days_per_move, bool) or not isinstance(days_per_move, int) \
                    or not low <= days_per_move <= high:
                raise InvalidOptionError(f"a correspondence game has {low} to {high} days "
                                         "per move")
            if clock_minutes is not None:
                raise InvalidOptionError("a correspondence game (days per move) has no "
                                         "chess clock: leave the minutes out")
        else:
            low_m, high_m = MINUTES
            if clock_minutes is None or isinstance(clock_minutes, bool) \
                    or not isinstance(clock_minutes, int | float) \
                    or not math.isfinite(clock_minutes) \
                    or not low_m <= clock_minutes <= high_m:
                raise InvalidOptionError(f"a challenge's clock is {low_m:g} to {high_m:g} "
                                         "minutes a side (or days per move)")
        if rated and variant != RATED_VARIANT:
            raise InvalidOptionError("a rated game is Othello on the standard 8×8 board: "
                                     "the ratings count no other board")
        return cls(variant, None if clock_minutes is None else float(clock_minutes),
                   days_per_move, bool(rated), colour, bool(public))

    @property
    def correspondence(self) -> bool:
        return self.days_per_move is not None

    @property
    def time_control(self) -> str:
        """The time control in a few words (English; the pages translate their own)."""
        if self.days_per_move is not None:
            return f"{self.days_per_move} day{'s' if self.days_per_move != 1 else ''} a move"
        return f"{self.clock_minutes:g} minutes a side"

    @property
    def lapse(self) -> timedelta:
        return CORRESPONDENCE_LAPSE if self.correspondence else LIVE_LAPSE


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge as stored: its terms, its poster (id, name, rating when posted), its
    state, and once accepted who accepted it and the game made (``game_id`` ``None``
    while the game is being made)."""

    id: str
    poster_id: str
    poster_name: str
    rating: int
    terms: Terms
    state: ChallengeState
    created_at: datetime
    expires_at: datetime
    acceptor_id: str | None = None
    game_id: str | None = None

    def to_json(self) -> dict[str, object]:
        t = self.terms
        return {"id": self.id, "poster": {"id": self.poster_id, "name": self.poster_name},
                "rating": self.rating, "variant": t.variant,
                "clock_minutes": t.clock_minutes, "days_per_move": t.days_per_move,
                "rated": t.rated, "colour": t.colour, "public": t.public,
                "state": self.state.value, "created_at": self.created_at.isoformat(),
                "expires_at": self.expires_at.isoformat(), "game_id": self.game_id}


@dataclass(frozen=True, slots=True)
class Waiting:
    """An account's place in the waiting list: since when, its rating then, and once
    paired its partner and (when made) the game."""

    account_id: str
    mu: float
    since: datetime
    partner_id: str | None = None
    game_id: str | None = None


def window(waited_seconds: float) -> float:
    """How far from one's rating a partner may be after waiting so long (points)."""
    if waited_seconds >= WINDOW_OPEN.total_seconds():
        return math.inf
    steps = max(0.0, waited_seconds) // WINDOW_EVERY
    return WINDOW_START + WINDOW_STEP * steps


__all__ = ["COLOURS", "CORRESPONDENCE_LAPSE", "DAYS", "DEFAULT_MINUTES", "LIVE_LAPSE",
           "MINUTES", "OPEN_PER_ACCOUNT", "RATED_VARIANT", "VARIANTS", "WAITING_SEEN",
           "WINDOW_EVERY", "WINDOW_OPEN", "WINDOW_START", "WINDOW_STEP", "Challenge",
           "ChallengeNotFound", "ChallengeState", "LobbyError", "NotYourChallenge", "Terms",
           "Waiting", "window"]
