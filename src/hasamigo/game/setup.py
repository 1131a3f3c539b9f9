"""What a game is before its first event: the two participants and the options.

A game is its :class:`GameSetup` plus an append-only list of events
(:mod:`hasamigo.game.events`); the setup never changes once the game exists.

Ranks are the JOF's dan and kyu grades, written ``5d``, ``5 dan``, ``五段``/``5段``, ``初段``,
``2k``, ``2 kyu``, ``2級``; ``None`` (or ``""``) is unknown. They decide who hides the disc
in fuse-ishi (伏せ石): the higher-ranked player, or the elder when ranks are equal or unknown.

>>> rank_value("3d") > rank_value("1 dan") > rank_value("1k") > rank_value("5級")
True
>>> hider(Participant("Ann", rank="2d"), Participant("Bob", rank="4d"))
1
>>> hider(Participant("Ann", birth_year=1970), Participant("Bob", birth_year=1990)) is None
False
>>> hider(Participant("Ann"), Participant("Bob")) is None
True
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from hasamigo.board import Board
from hasamigo.errors import HasamigoError, InvalidOptionError
from hasamigo.game.clock import DEFAULT_SECONDS
from hasamigo.game.errors import GameError
from hasamigo.game.result import Scoring
from hasamigo.variants import find_variant

#: How colours are decided: a choice by the first participant, a random draw, fuse-ishi.
COLOUR_METHODS = ("black", "white", "random", "fuse-ishi")
NAME_LENGTH = 40
PROGRAM_LENGTH = 40
POSITION_LENGTH = 200
#: Longest clock accepted: ten hours a side.
MAX_CLOCK_SECONDS = 36_000.0
#: A correspondence game's days per move: 1 to 14.
MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE = 1, 14
DAY_SECONDS = 86_400.0

_KANJI_DIGITS = {"初": 1, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
                 "八": 8, "九": 9, "十": 10}
_RANK = re.compile(r"^\s*([0-9]{1,2}|[初一二三四五六七八九十])\s*(d|dan|段|k|kyu|級)\s*$",
                   re.IGNORECASE)


def rank_value(rank: str | None) -> int | None:
    """A rank as a number (higher is stronger): ``n`` dan is 100 + n, ``n`` kyu 100 − n;
    ``None`` when unknown. Raises :class:`GameError` for text that is not a rank."""
    if rank is None or not rank.strip():
        return None
    found = _RANK.match(rank)
    if found is None:
        shown = rank if len(rank) <= 20 else rank[:20] + "…"
        raise GameError(f"not a rank: {shown!r} (write 3d, 2 dan, 三段, 1k, 5級 …)")
    number_text, unit = found.groups()
    number = _KANJI_DIGITS.get(number_text) or int(number_text)
    if not 1 <= number <= 30:
        raise GameError(f"not a rank: {rank!r} (dan and kyu run from 1)")
    return 100 + number if unit.lower() in ("d", "dan", "段") else 100 - number


@dataclass(frozen=True, slots=True)
class Participant:
    """A player before colours are known: a person (``program=None``) or a program spec.

    ``rank`` and ``birth_year`` decide who hides the disc in fuse-ishi. ``auto_claim``
    (people only) claims a program opponent's fallen flag for them ("claim flags for me").
    """

    name: str
    program: str | None = None
    rank: str | None = None
    birth_year: int | None = None
    auto_claim: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise GameError("a player needs a name")
        if len(self.name) > NAME_LENGTH:
            raise GameError(f"a name is at most {NAME_LENGTH} characters")
        if self.program is not None and (not self.program or len(self.program) > PROGRAM_LENGTH):
            raise GameError(f"a program spec is 1 to {PROGRAM_LENGTH} characters")
        rank_value(self.rank)
        if self.birth_year is not None and not (
                isinstance(self.birth_year, int) and 1850 <= self.birth_year <= 2100):
            raise GameError(f"birth year {self.birth_year!r} is not a year (1850..2100)")

    @property
    def is_person(self) -> bool:
        return self.program is None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "program": self.program, "rank": self.rank,
                "birth_year": self.birth_year, "auto_claim": self.auto_claim}


def hider(first: Participant, second: Participant) -> int | None:
    """Who hides the disc in fuse-ishi (0 or 1): the higher rank, else the elder; ``None``
    when ranks and ages are equal or unknown (then it is drawn)."""
    a, b = rank_value(first.rank), rank_value(second.rank)
    if a is not None and b is not None and a != b:
        return 0 if a > b else 1
    if first.birth_year is not None and second.birth_year is not None \
            and first.birth_year != second.birth_year:
        return 0 if first.birth_year < second.birth_year else 1
    return None


@dataclass(frozen=True, slots=True)
class GameOptions:
    """How a game is played. ``clock_seconds=None`` plays without a clock; ``casual``
    games allow take-backs (official games do not); ``draws_allowed=False`` gives the
    draw-win right (引き分け勝ち) to one side, decided by fuse-ishi, whatever the colour
    method. ``position`` is a board string to start from (casual set-up positions).
    ``program_claims``: a program claims its opponent's fallen flag, as a player would.
    ``scoring`` counts a board that ends with empties (a :class:`~hasamigo.game.result.Scoring`
    code: ``jof-2014``, ``jof-pre-2014``, ``discs``); ``None`` is the rule of the game's
    date, which for a game played here is today's, ``jof-2014`` (:attr:`counted_by`): an
    imported game is given its record's (:func:`hasamigo.game.imported.record_scoring`).
    The clock a game is played on is not read for it, so a game kept on a test's clock
    near 1970 is not counted by the rule of 1970.

    ``days_per_move`` (1–14) makes it a **correspondence game**: no chess clock
    (``clock_seconds`` must be ``None``), but each turn has a deadline, the instant it
    began plus so many days (:attr:`move_seconds`); the side to move loses on time once
    it passes (see :mod:`hasamigo.game.procedures.online`).

    ``rated``: the game counts for the players' ratings (:mod:`hasamigo.ratings`, once over,
    if both seats are held by accounts). A rated game is official Othello: the standard
    8×8 board from the usual start, no handicap or set-up position, no take-backs."""

    variant: str = "standard"
    start: str | None = None
    handicap: int = 0
    clock_seconds: float | None = DEFAULT_SECONDS
    casual: bool = True
    draws_allowed: bool = True
    position: str | None = None
    program_claims: bool = True
    scoring: str | None = None
    days_per_move: int | None = None
    rated: bool = False

    def __post_init__(self) -> None:
        if self.rated:
            if self.variant != "standard" or self.start not in (None, "cross") \
                    or self.handicap or self.position is not None:
                raise GameError("a rated game is Othello on the standard 8×8 board from the "
                                "usual start, without a handicap or a set-up position")
            if self.casual:
                raise GameError("a rated game allows no take-backs: it cannot be casual")
        if self.days_per_move is not None:
            if isinstance(self.days_per_move, bool) or not isinstance(self.days_per_move, int) \
                    or not MIN_DAYS_PER_MOVE <= self.days_per_move <= MAX_DAYS_PER_MOVE:
                raise GameError(f"a correspondence game has {MIN_DAYS_PER_MOVE} to "
                                f"{MAX_DAYS_PER_MOVE} days per move")
            if self.clock_seconds is not None:
                raise GameError("a correspondence game (days per move) has no chess clock: "
                                "leave the clock out")
        if self.scoring is not None:
            try:
                Scoring.from_code(self.scoring)
            except InvalidOptionError as exc:
                raise GameError(str(exc)) from exc
        if self.clock_seconds is not None and not (
                isinstance(self.clock_seconds, (int, float))
                and math.isfinite(self.clock_seconds)
                and 0 < self.clock_seconds <= MAX_CLOCK_SECONDS):
            raise GameError(f"the clock is more than 0 and at most {MAX_CLOCK_SECONDS:.0f} "
                            "seconds a side (or no clock)")
        if not isinstance(self.handicap, int) or not 0 <= self.handicap <= 4:
            raise GameError("a handicap is 0 to 4 corner discs")
        if self.position is not None and len(self.position) > POSITION_LENGTH:
            raise GameError(f"a position is at most {POSITION_LENGTH} characters")

    def new_board(self) -> Board:
        """The position the game starts from; raises :class:`GameError` if it can't be set up."""
        try:
            cls = find_variant(self.variant)
            if self.position is not None:
                if self.handicap:
                    raise GameError("a set-up position cannot also take a handicap")
                board = cls.from_string(self.position)
                if self.start is not None:
                    board.start = self.start
                return board
            return cls(start=self.start, handicap=self.handicap)
        except GameError:
            raise
        except (HasamigoError, ValueError) as exc:
            raise GameError(str(exc)) from exc

    @property
    def move_seconds(self) -> float | None:
        """A correspondence game's time for each move, in seconds (``None``: not one)."""
        return None if self.days_per_move is None else self.days_per_move * DAY_SECONDS

    @property
    def counted_by(self) -> Scoring:
        """The game's scoring: the chosen one, else today's rule."""
        return Scoring.JOF_2014 if self.scoring is None else Scoring.from_code(self.scoring)

    def to_json(self) -> dict[str, Any]:
        """The options; ``scoring``, ``days_per_move`` and ``rated`` only when set, so
        setups stored before they existed and those that leave them out read and write
        alike (an old setup reads as not rated)."""
        data: dict[str, Any] = {
            "variant": self.variant, "start": self.start, "handicap": self.handicap,
            "clock_seconds": self.clock_seconds, "casual": self.casual,
            "draws_allowed": self.draws_allowed, "position": self.position,
            "program_claims": self.program_claims}
        if self.scoring is not None:
            data["scoring"] = self.scoring
        if self.days_per_move is not None:
            data["days_per_move"] = self.days_per_move
        if self.rated:
            data["rated"] = True
        return data


@dataclass(frozen=True, slots=True)
class GameSetup:
    """The participants (index 0 created the game), the options and the colour method."""

    participants: tuple[Participant, Participant]
    options: GameOptions = GameOptions()
    colour_method: str = "black"

    def __post_init__(self) -> None:
        if len(self.participants) != 2:
            raise GameError("a game has two participants")
        if self.participants[0].name == self.participants[1].name:
            raise GameError("the two players need different names")
        if self.colour_method not in COLOUR_METHODS:
            raise GameError(f"colour must be one of {', '.join(COLOUR_METHODS)}")
        if self.options.handicap and self.colour_method not in ("black", "white"):
            raise GameError(
                "in a handicap game the weaker player takes Black: choose black or white")

    def to_json(self) -> dict[str, Any]:
        return {"version": SETUP_VERSION,
                "participants": [p.to_json() for p in self.participants],
                "options": self.options.to_json(), "colour_method": self.colour_method}

    @classmethod
    def from_json(cls, data: Any) -> GameSetup:
        """Read :meth:`to_json`'s output strictly; raises :class:`GameError` saying what is
        wrong (the loader wraps it with the game's id)."""
        if not isinstance(data, dict) or data.get("version") != SETUP_VERSION:
            raise GameError(f"unknown game setup (version {_get(data, 'version')!r})")
        people = data.get("participants")
        if not isinstance(people, list) or len(people) != 2:
            raise GameError("a game setup needs two participants")
        participants = tuple(Participant(**_fields(p, Participant, "participant"))
                             for p in people)
        options = GameOptions(**_fields(data.get("options"), GameOptions, "options"))
        method = data.get("colour_method")
        if not isinstance(method, str):
            raise GameError("the colour method is missing")
        return cls((participants[0], participants[1]), options, method)


SETUP_VERSION = 1

_TYPES: dict[str, tuple[type, ...]] = {
    "name": (str,), "program": (str, type(None)), "rank": (str, type(None)),
    "birth_year": (int, type(None)), "auto_claim": (bool,), "variant": (str,),
    "start": (str, type(None)), "handicap": (int,), "clock_seconds": (int, float, type(None)),
    "casual": (bool,), "draws_allowed": (bool,), "position": (str, type(None)),
    "program_claims": (bool,), "scoring": (str, type(None)),
    "days_per_move": (int, type(None)), "rated": (bool,),
}


def _get(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


def _fields(data: Any, cls: type, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise GameError(f"the {what} are not an object")
    names = set(cls.__dataclass_fields__)  # type: ignore[attr-defined]
    unknown = set(data) - names
    if unknown:
        raise GameError(f"unknown {what} field(s): {', '.join(sorted(unknown))}")
    for key, value in data.items():
        allowed = _TYPES[key]
        if isinstance(value, bool) and bool not in allowed:
            raise GameError(f"{what} field {key!r} has the wrong type")
        if not isinstance(value, allowed):
            raise GameError(f"{what} field {key!r} has the wrong type")
    return dict(data)


__all__ = [
    "COLOUR_METHODS",
    "MAX_DAYS_PER_MOVE",
    "MIN_DAYS_PER_MOVE",
    "GameOptions",
    "GameSetup",
    "Participant",
    "hider",
    "rank_value",
]
