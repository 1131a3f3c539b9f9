"""What a stored study is set to: its programs (the *arms*), its protocol, the surprise
move's window, the clock and the languages (:class:`StudySettings`), and the error the
study answers bad requests with (:class:`StudyError`).

An arm is any program of the registry (:data:`hasamigo.engine.players.PROGRAMS`:
``victory``, ``amusement``, ``amusement:swing``, ``entertainer``, ``engine:N``,
``weakest``…), named as :func:`~hasamigo.engine.players.program_of` reads it; an external
engine (``nboard:…``, ``gtp:…``) is refused: a study's condition must be the same program
for every subject, which a command on one server is not. The arm keeps its name in the
data; the game is played by :func:`game_spec`, which applies the study's surprise window
(``amusement`` → ``amusement:moves`` when the window is ``moves``, the paper's).

The surprise window is the protocol's unless told (:func:`~hasamigo.study.protocol.
default_window`: the paper's, moves 30-35, under ``paper``). Settings stored before the
window existed have none: they read as ``midgame``, the window their games were played
with.

Settings stored before the protocols existed have no ``protocol``: they read as
``extended``, whose questions were asked after the program's moves, as theirs were.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hasamigo.engine.players import PROGRAMS as REGISTRY
from hasamigo.engine.players import external_spec, program_of
from hasamigo.errors import HasamigoError, shown
from hasamigo.study.protocol import (
    DEFAULT_PROTOCOL,
    EXTENDED,
    MIDGAME_WINDOW,
    MOVES_WINDOW,
    PROTOCOLS,
    SURPRISE_WINDOWS,
    Protocol,
    default_window,
    protocol,
)

#: the paper's design: the victory-oriented and the amusement-oriented program
DEFAULT_ARMS = ("victory", "amusement")
#: a study compares 2 to 6 programs (more than two get the Williams Latin square)
MIN_ARMS, MAX_ARMS = 2, 6
LANGUAGES = ("ja", "en")
#: the longest arm name taken (``amusement:swing:moves`` is 21)
ARM_LENGTH = 32


class StudyError(HasamigoError):
    """A request the study refuses (bad input: ``bad_request``; out of order or not
    allowed now, as in an archived study: ``wrong_phase``; unknown: ``not_found``)."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


def arm_name(arm: object) -> str:
    """The arm ``arm`` as a study stores it (lower case, ``engine:top`` kept as written);
    :class:`StudyError` for an unknown program or an external engine.

    >>> arm_name(" Victory "), arm_name("engine:5")
    ('victory', 'engine:5')
    """
    if not isinstance(arm, str) or not 0 < len(arm) <= ARM_LENGTH:
        raise StudyError(f"an arm is a program's name of at most {ARM_LENGTH} characters")
    name = arm.strip().lower()
    if external_spec(name) is not None:
        raise StudyError(f"an external engine ({name[:ARM_LENGTH]!r}) cannot be a study's "
                         "arm: use a program of hasamigo's")
    if program_of(name) is None:
        raise StudyError(f"unknown program {name[:ARM_LENGTH]!r}: an arm is one of "
                         f"{', '.join(known_arms())}")
    return name


def known_arms() -> tuple[str, ...]:
    """The programs a study may compare, as offered on the create form (``engine:N`` for
    the engine's levels)."""
    return tuple("engine:N" if p.levels else p.spec for p in REGISTRY.values())


def game_spec(arm: str, window: str) -> str:
    """The program that plays arm ``arm`` under the surprise window ``window``: the
    amusement programs' ``:moves`` variant for ``moves``, the arm itself otherwise.

    >>> game_spec("amusement", "moves"), game_spec("amusement:swing", "moves")
    ('amusement:moves', 'amusement:swing:moves')
    >>> game_spec("amusement", "midgame"), game_spec("victory", "moves")
    ('amusement', 'victory')
    """
    if window not in SURPRISE_WINDOWS:
        raise StudyError(f"the surprise window is one of {', '.join(SURPRISE_WINDOWS)}, "
                         f"not {shown(window)}")
    if window == MOVES_WINDOW and f"{arm}:{MOVES_WINDOW}" in REGISTRY:
        return f"{arm}:{MOVES_WINDOW}"
    return arm


@dataclass(frozen=True, slots=True)
class StudySettings:
    """What a study compares and offers: the arms, the clock (minutes a side, ``None``:
    none, as in the paper), the languages, the protocol (``paper`` or ``extended``,
    :mod:`hasamigo.study.protocol`) and the surprise move's window (``moves``, the
    paper's: moves 30-35; ``midgame``, the project's reading: those moves in the midgame
    phase only); empty: the protocol's (:func:`~hasamigo.study.protocol.
    default_window`)."""

    arms: tuple[str, ...] = DEFAULT_ARMS
    clock_minutes: float | None = None
    languages: tuple[str, ...] = LANGUAGES
    protocol: str = DEFAULT_PROTOCOL
    surprise_window: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.arms, tuple) or not MIN_ARMS <= len(self.arms) <= MAX_ARMS:
            raise StudyError(f"a study compares {MIN_ARMS} to {MAX_ARMS} different programs")
        names = tuple(arm_name(a) for a in self.arms)
        if len(set(names)) != len(names):
            raise StudyError("a study's programs must differ")
        object.__setattr__(self, "arms", names)
        if self.clock_minutes is not None and (
                isinstance(self.clock_minutes, bool)
                or not isinstance(self.clock_minutes, int | float)
                or not 0 < self.clock_minutes <= 120):
            raise StudyError("the clock is more than 0 and at most 120 minutes (or none)")
        if not self.languages or len(set(self.languages)) != len(self.languages) \
                or any(lang not in LANGUAGES for lang in self.languages):
            raise StudyError(f"the languages are some of {', '.join(LANGUAGES)}")
        if self.protocol not in PROTOCOLS:
            raise StudyError(f"the protocol is one of {', '.join(PROTOCOLS)}, not "
                             f"{shown(self.protocol)}")
        if not self.surprise_window:
            object.__setattr__(self, "surprise_window", default_window(self.protocol))
        if self.surprise_window not in SURPRISE_WINDOWS:
            raise StudyError(f"the surprise window is one of {', '.join(SURPRISE_WINDOWS)}, "
                             f"not {shown(self.surprise_window)}")

    @property
    def questions(self) -> Protocol:
        """The study's protocol (its questions, their words and timing)."""
        return protocol(self.protocol)

    def spec(self, arm: str) -> str:
        """The program spec that plays ``arm`` in this study (:func:`game_spec`)."""
        return game_spec(arm, self.surprise_window)

    def to_json(self) -> dict[str, Any]:
        return {"arms": list(self.arms), "clock_minutes": self.clock_minutes,
                "languages": list(self.languages), "protocol": self.protocol,
                "surprise_window": self.surprise_window}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StudySettings:
        """Settings as stored; without ``protocol`` (stored before the protocols) they
        are the extended protocol's, without ``surprise_window`` the ``midgame`` window
        they were played with."""
        return cls(tuple(data["arms"]), data.get("clock_minutes"),
                   tuple(data.get("languages", LANGUAGES)),
                   data.get("protocol", EXTENDED),
                   data.get("surprise_window", MIDGAME_WINDOW))


__all__ = [
    "ARM_LENGTH",
    "DEFAULT_ARMS",
    "LANGUAGES",
    "MAX_ARMS",
    "MIN_ARMS",
    "StudyError",
    "StudySettings",
    "arm_name",
    "game_spec",
    "known_arms",
]
