"""Search limits and the playing levels.

Levels 1-10 map to a midgame depth and to the number of empties from which the engine
plays perfectly: win/loss/draw first (``wld_from``), then the exact score (``exact_from``).

====== ===== ========== ========
level  depth exact_from wld_from
====== ===== ========== ========
1      1     2          2
2      2     4          4
3      3     6          6
4      4     8          8
5      6     10         12
6      8     12         14
7      10    14         16
8      12    16         18
9      14    18         20
10     16    20         22
====== ===== ========== ========

Level 10 solves exactly from 20 empties (about a second on FFO-style positions) and knows
the win/loss/draw result from 22.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

from hasamigo.errors import InvalidOptionError, shown


@dataclass(frozen=True, slots=True)
class Limit:
    """How far to search: plies, seconds and/or nodes (the first reached stops it).

    A depth at or beyond the number of empties means an exact solve. With no field set,
    :class:`~hasamigo.engine.Engine` searches ``DEFAULT_DEPTH`` plies.

    >>> Limit(depth=6)
    Limit(depth=6, time=None, nodes=None)
    """

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and not (_whole(self.depth) and self.depth >= 1):
            raise InvalidOptionError(f"depth must be a whole number of plies >= 1, "
                                     f"not {shown(self.depth)}")
        if self.time is not None and not (
            isinstance(self.time, numbers.Real) and not isinstance(self.time, bool)
            and not math.isnan(self.time) and self.time > 0
        ):
            raise InvalidOptionError(f"time must be a positive number of seconds, "
                                     f"not {shown(self.time)}")
        if self.nodes is not None and not (_whole(self.nodes) and self.nodes >= 1):
            raise InvalidOptionError(f"nodes must be a whole number >= 1, not {shown(self.nodes)}")


def _whole(value: object) -> bool:
    """An integer (numpy's too), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


DEFAULT_DEPTH = 8


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength: midgame ``depth``, perfect play from ``exact_from`` empties,
    win/loss/draw play from ``wld_from`` empties."""

    number: int
    depth: int
    exact_from: int
    wld_from: int


LEVELS: dict[int, Level] = {
    n: Level(n, depth, exact, wld)
    for n, depth, exact, wld in [
        (1, 1, 2, 2),
        (2, 2, 4, 4),
        (3, 3, 6, 6),
        (4, 4, 8, 8),
        (5, 6, 10, 12),
        (6, 8, 12, 14),
        (7, 10, 14, 16),
        (8, 12, 16, 18),
        (9, 14, 18, 20),
        (10, 16, 20, 22),
    ]
}
MAX_LEVEL = max(LEVELS)


def level(number: int) -> Level:
    """The :class:`Level` numbered 1 (weakest) to ``MAX_LEVEL``; :class:`InvalidOptionError`
    for any other number."""
    if not _whole(number) or number not in LEVELS:
        raise InvalidOptionError(f"levels run from 1 to {MAX_LEVEL}, not {shown(number)}")
    return LEVELS[number]
