"""What a rating is: a subject's number in a pool, with its uncertainty and its games.

A **subject** is a string that names who is rated, knowing nothing of accounts:
``account:<id>`` (a person's account, 32 hex digits) or ``program:<player spec>``
(``program:engine:5``, ``program:random``). A **pool** is a separate list of ratings:
``othello`` (two-player games on the standard 8×8 board: online, over the board, in a
tournament), ``rolit`` and ``multi4`` (the four-player game), so that a Rolit result never
moves an Othello number.

A :class:`Rating` shows ``display``, its mean on the familiar 1500 scale, and
``uncertainty``, the library's standard deviation (:mod:`hasamigo.ratings.system`). A
rating is *provisional* (shown with a ``?``) while its uncertainty is above
:data:`PROVISIONAL_ABOVE`, as online sites mark a newcomer's number.

>>> subject_of_program("engine:5"), is_subject("account:" + "a" * 32)
('program:engine:5', True)
>>> Pool.parse("rolit").value
'rolit'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from hasamigo.errors import InvalidOptionError, shown
from hasamigo.player_spec import PlayerSpec

#: a subject's longest text (``program:`` and a spec; an account's is 40 characters)
SUBJECT_CHARS = 80
ACCOUNT_PREFIX, PROGRAM_PREFIX = "account:", "program:"
_ACCOUNT = re.compile(r"account:[0-9a-f]{32}")
_PROGRAM = re.compile(r"program:[a-z][a-z0-9_:@-]{0,71}")
#: a rating whose uncertainty is above this is shown provisional (``1620?``)
PROVISIONAL_ABOVE = 110.0


class Pool(StrEnum):
    """The separate lists of ratings."""

    OTHELLO = "othello"
    ROLIT = "rolit"
    MULTI4 = "multi4"

    @classmethod
    def parse(cls, text: str) -> Pool:
        try:
            return cls(text)
        except ValueError:
            known = ", ".join(p.value for p in cls)
            raise InvalidOptionError(f"no rating pool {shown(text)}: the pools are {known}"
                                     ) from None


def subject_of_account(account_id: str) -> str:
    """The subject of an account (its id: 32 hex digits)."""
    subject = ACCOUNT_PREFIX + account_id
    check_subject(subject)
    return subject


def subject_of_program(spec: PlayerSpec | str) -> str:
    """The subject of a program, by its spec as written in one place (``engine:5``)."""
    read = spec if isinstance(spec, PlayerSpec) else PlayerSpec.parse(spec)
    if read.external:
        raise InvalidOptionError("an external engine is not rated: its program may change "
                                 "from one server to another")
    subject = PROGRAM_PREFIX + str(read)
    check_subject(subject)
    return subject


def is_subject(text: str) -> bool:
    """``text`` names a subject (an account's or a program's)."""
    return len(text) <= SUBJECT_CHARS and bool(
        _ACCOUNT.fullmatch(text) or _PROGRAM.fullmatch(text))


def check_subject(text: str) -> str:
    if not is_subject(text):
        raise InvalidOptionError(f"{shown(text)} is not a rated subject: 'account:<32 hex "
                                 "digits>' or 'program:<player spec>'")
    return text


@dataclass(frozen=True, slots=True)
class Rating:
    """A subject's rating in a pool: the library's mean ``mu`` and standard deviation
    ``sigma`` (on the 1500 scale), how many rated games made it, and when it last changed
    (``None``: never rated, the pool's start)."""

    subject: str
    pool: Pool
    mu: float
    sigma: float
    games: int = 0
    updated_at: datetime | None = None

    @property
    def display(self) -> int:
        """The number shown: the mean, rounded."""
        return round(self.mu)

    @property
    def uncertainty(self) -> int:
        """The uncertainty shown (±, one standard deviation), rounded."""
        return round(self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_ABOVE

    def __str__(self) -> str:
        return f"{self.display}{'?' if self.provisional else ''}"

    def as_json(self) -> dict[str, object]:
        return {"subject": self.subject, "pool": self.pool.value, "rating": self.display,
                "uncertainty": self.uncertainty, "provisional": self.provisional,
                "games": self.games, "mu": self.mu, "sigma": self.sigma,
                "updated_at": None if self.updated_at is None else
                self.updated_at.isoformat()}


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One subject's change by one rated game: before and after, and the game's result
    for that subject (``score``: 1 a win, ½ a draw, 0 a loss in two-player games; in a
    game of three or four, the share of the seats the subject finished ahead of, ties
    half)."""

    pool: Pool
    game_ref: str
    subject: str
    before: Rating
    after: Rating
    score: float
    at: datetime

    @property
    def delta(self) -> int:
        """The change shown: the displayed numbers' difference."""
        return self.after.display - self.before.display

    def as_json(self) -> dict[str, object]:
        return {"pool": self.pool.value, "game_ref": self.game_ref, "subject": self.subject,
                "before": self.before.display, "after": self.after.display,
                "delta": self.delta, "before_uncertainty": self.before.uncertainty,
                "after_uncertainty": self.after.uncertainty, "score": self.score,
                "at": self.at.isoformat()}


__all__ = ["ACCOUNT_PREFIX", "PROGRAM_PREFIX", "PROVISIONAL_ABOVE", "SUBJECT_CHARS", "Pool",
           "Rating", "RatingChange", "check_subject", "is_subject", "subject_of_account",
           "subject_of_program"]
