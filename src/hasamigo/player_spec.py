"""A player's spec as one value: :class:`PlayerSpec`, read from its text in one place
(:meth:`PlayerSpec.parse`) and written back in one place (``str(spec)``).

The text is what people type and what games, journals and tournaments store::

    PROGRAM[:OPTION…][:LEVEL][@THREADS]      victory, amusement:swing:moves, engine:6@2
    PROTOCOL:COMMAND                         nboard:/opt/edax -q, gtp:gnugo --mode gtp

An OPTION is a name (``swing``, ``moves``, ``midgame``…: what it means is the program's
business, :data:`hasamigo.engine.players.PROGRAMS`); a LEVEL is a whole number (at most
two digits) or ``top``, and comes last; THREADS are a whole number (at most three digits).
Names are read in any case and written in lower case; an external engine's COMMAND keeps
its case. This module reads the grammar only: which programs exist, which take a level or
threads, and how many, is the registry's (:func:`hasamigo.engine.players.player_spec`
reads a spec and checks it there). It stands beside the core, importing nothing above it,
so that every layer (and the command line, before it loads the engine) can hold a spec.

>>> spec = PlayerSpec.parse(" Engine:6 @ 2 ")
>>> spec, str(spec)
(PlayerSpec(program='engine', options=(), level=6, threads=2, command=''), 'engine:6@2')
>>> str(PlayerSpec.parse("amusement:swing:moves")), PlayerSpec.parse("amusement:swing").options
('amusement:swing:moves', ('swing',))
>>> str(PlayerSpec.parse("NBoard:/opt/Edax -q")), PlayerSpec.parse("engine:top").level
('nboard:/opt/Edax -q', 'top')
>>> PlayerSpec.parse("engine:5@0")
Traceback (most recent call last):
...
hasamigo.errors.InvalidOptionError: 'engine:5@0': the threads after '@' are a whole number
from 1, not '0'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from hasamigo.errors import InvalidOptionError, shown
from hasamigo.squares import ASCII_DIGITS

#: what separates a spec's parts: ``amusement:swing``, ``engine:6``, ``gtp:COMMAND``
PART_MARK = ":"
#: what separates a level's spec from its search threads: ``engine:6@2``
THREADS_MARK = "@"
#: the spec prefixes of external engines (the rest of the spec is the command)
EXTERNAL_PREFIXES = ("nboard", "gtp")
#: the level that names the strongest (the engine's :data:`~hasamigo.engine.limits.MAX_LEVEL`)
TOP = "top"
#: the most digits of a level, and of the threads (the registry bounds them further)
LEVEL_DIGITS, THREADS_DIGITS = 2, 3
#: the longest program or option name read
NAME_CHARS = 32
_NAME = re.compile(rf"[a-z][a-z0-9_-]{{0,{NAME_CHARS - 1}}}")

Level = int | Literal["top"]


def _whole(text: str, digits: int) -> bool:
    """``text`` is a whole number from 1 in ASCII digits, at most ``digits`` of them
    (str.isdigit() would take '٣' and 5,000-digit text)."""
    return (1 <= len(text) <= digits and all(ch in ASCII_DIGITS for ch in text)
            and int(text) >= 1)


def _is_level(part: str) -> bool:
    """A part that is meant as a level: ``top`` or digits (a name starts with a letter)."""
    return part == TOP or (part[:1] in ASCII_DIGITS and part != "")


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player as a spec names it: a ``program`` of the registry with its named
    ``options`` and, for a program played at levels, its ``level`` (``"top"``: the
    strongest) and search ``threads``; or an external engine (``program`` is its protocol,
    ``nboard`` or ``gtp``, and ``command`` its command line). A value made here is valid
    grammar (:class:`~hasamigo.errors.InvalidOptionError` otherwise), so that
    ``PlayerSpec.parse(str(spec)) == spec``."""

    program: str
    options: tuple[str, ...] = ()
    level: Level | None = None
    threads: int = 1
    command: str = ""

    def __post_init__(self) -> None:
        if self.external:
            if not self.command.strip() or self.command != self.command.strip():
                raise InvalidOptionError(f"{shown(self.program)}: an external engine's "
                                         "command is not empty and has no spaces around it")
            if self.options or self.level is not None or self.threads != 1:
                raise InvalidOptionError(f"{shown(self.program)}: an external engine takes "
                                         "its command alone")
            return
        if self.command:
            raise InvalidOptionError(f"{shown(self.program)}: only an external engine "
                                     f"({', '.join(EXTERNAL_PREFIXES)}) takes a command")
        for name in (self.program, *self.options):
            if not _NAME.fullmatch(name) or name == TOP:
                raise InvalidOptionError(
                    f"{shown(name)}: a program's or option's name is a letter, then letters, "
                    f"digits, '-' or '_', at most {NAME_CHARS} in all, and not {TOP!r}")
        if self.level is not None and self.level != TOP and not (
                isinstance(self.level, int) and 1 <= self.level < 10 ** LEVEL_DIGITS):
            raise InvalidOptionError(f"{shown(self.level)}: a level is a whole number from "
                                     f"1 (at most {LEVEL_DIGITS} digits) or {TOP!r}")
        if not (isinstance(self.threads, int) and 1 <= self.threads < 10 ** THREADS_DIGITS):
            raise InvalidOptionError(f"{shown(self.threads)}: threads are a whole number "
                                     f"from 1 (at most {THREADS_DIGITS} digits)")

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """The spec ``text`` names (see the module docstring);
        :class:`~hasamigo.errors.InvalidOptionError` quoting it and naming the part that is
        wrong (the level, the threads after '@', a name, the command) otherwise."""
        whole = text.strip()
        if not whole:
            raise InvalidOptionError("a player spec is empty: name a program (victory, "
                                     "engine:5…) or an external engine (nboard:COMMAND)")
        head, mark, command = whole.partition(PART_MARK)
        if mark and head.strip().lower() in EXTERNAL_PREFIXES:
            protocol = head.strip().lower()
            if not command.strip():
                raise InvalidOptionError(f"{shown(text)}: an external engine needs a command "
                                         f"after '{protocol}{PART_MARK}'")
            return cls(protocol, command=command.strip())
        base, mark, threads = whole.lower().partition(THREADS_MARK)
        if mark and not _whole(threads.strip(), THREADS_DIGITS):
            raise InvalidOptionError(f"{shown(text)}: the threads after '@' are a whole "
                                     f"number from 1, not {shown(threads.strip())}")
        program, *parts = base.strip().split(PART_MARK)
        level: Level | None = None
        if parts and _is_level(parts[-1]):
            last = parts.pop()
            if last != TOP and not _whole(last, LEVEL_DIGITS):
                raise InvalidOptionError(f"{shown(text)}: the level after '{PART_MARK}' "
                                         f"is a whole number from 1 or {TOP!r}, not "
                                         f"{shown(last)}")
            level = "top" if last == TOP else int(last)
        for place, name in enumerate((program, *parts)):
            if not _NAME.fullmatch(name) or name == TOP:
                what = "an option" if place else "a program"
                where = ("the level comes last" if place and _is_level(name)
                         and (name == TOP or name.isdigit()) else
                         f"{what}'s name is a letter, then letters, digits, '-' or '_' "
                         f"(at most {NAME_CHARS})")
                raise InvalidOptionError(f"{shown(text)}: {where}, not {shown(name)}")
        return cls(program, tuple(parts), level, int(threads) if mark else 1)

    def __str__(self) -> str:
        if self.external:
            return f"{self.program}{PART_MARK}{self.command}"
        level = () if self.level is None else (str(self.level),)
        threads = "" if self.threads == 1 else f"{THREADS_MARK}{self.threads}"
        return PART_MARK.join((self.program, *self.options, *level)) + threads

    @property
    def external(self) -> bool:
        """An external engine's spec (``nboard:COMMAND``, ``gtp:COMMAND``)."""
        return self.program in EXTERNAL_PREFIXES

    @property
    def name(self) -> str:
        """The program with its options, as the registry keys it (``amusement:swing``,
        ``engine``: no level, no threads); an external engine's protocol."""
        return PART_MARK.join((self.program, *self.options))

    def with_threads(self, threads: int) -> PlayerSpec:
        """The same spec on ``threads`` search threads."""
        return PlayerSpec(self.program, self.options, self.level, threads, self.command)


__all__ = ["EXTERNAL_PREFIXES", "LEVEL_DIGITS", "NAME_CHARS", "PART_MARK", "THREADS_DIGITS",
           "THREADS_MARK", "TOP", "Level", "PlayerSpec"]
