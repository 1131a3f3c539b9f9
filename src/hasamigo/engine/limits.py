"""Search limits and the playing levels.

Levels 1-10 map to a midgame depth, the confidence of its probable cuts (``selectivity``,
see :meth:`~hasamigo.engine.Engine.analyse`: 0 searches every node, 3 cuts a node when
a shallow search is 95 % sure) and the number of empties from which the engine plays
perfectly: win/loss/draw first (``wld_from``), then the exact score (``exact_from``).

====== ===== =========== ========== ========
level  depth selectivity exact_from wld_from
====== ===== =========== ========== ========
1      1     0           2          2
2      2     0           4          4
3      3     0           6          6
4      4     0           8          8
5      8     3           10         12
6      10    3           12         14
7      12    3           14         16
8      14    3           16         18
9      16    3           18         20
10     18    3           20         22
====== ===== =========== ========== ========

From level 5 the probable cuts buy two plies more than a full-width search reached in the
same time (the 10 midgame positions of ``benchmarks/search.py``: depth 14 with
selectivity 3 in a quarter of the time of depth 12 full width). Level 10 solves exactly
from 20 empties (about a second on FFO-style positions) and knows the win/loss/draw
result from 22.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

from hasamigo.errors import InvalidOptionError, shown
from hasamigo.rules import PLAIN, Rules


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


#: The most search threads one engine takes (:class:`~hasamigo.engine.Engine`'s ``threads``,
#: and every front end's: ``--threads``, ``engine:N@T``, NBoard's ``set threads``...).
MAX_THREADS = 64


def checked_threads(threads: object) -> int:
    """``threads`` if it is a whole number from 1 to :data:`MAX_THREADS` (an engine's
    search threads), else :class:`InvalidOptionError` saying so: the one check every front
    end makes, so that they all refuse alike.

    >>> checked_threads(2)
    2
    >>> checked_threads(0)
    Traceback (most recent call last):
    ...
    hasamigo.errors.InvalidOptionError: threads must be a whole number from 1 to 64, not 0
    """
    if (isinstance(threads, numbers.Integral) and not isinstance(threads, bool)
            and 1 <= int(threads) <= MAX_THREADS):
        return int(threads)
    raise InvalidOptionError(f"threads must be a whole number from 1 to {MAX_THREADS}, "
                             f"not {shown(threads)}")


DEFAULT_DEPTH = 8
#: A depth or a count of empties no 8×8 search reaches: as a bound, none (the top level
#: on a clock; :meth:`Engine.play_timed`'s defaults are this value).
NO_BOUND = 64
#: Confidence levels of the midgame's probable cuts (:meth:`Engine.analyse`'s
#: ``selectivity``; the kernel's ``PROBCUT_LEVELS``, which a test checks).
SELECTIVITIES = 4


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength: midgame ``depth`` with probable cuts at ``selectivity``,
    perfect play from ``exact_from`` empties, win/loss/draw play from ``wld_from``."""

    number: int
    depth: int
    exact_from: int
    wld_from: int
    selectivity: int = 0


LEVELS: dict[int, Level] = {
    n: Level(n, depth, exact, wld, selectivity)
    for n, depth, selectivity, exact, wld in [
        (1, 1, 0, 2, 2),
        (2, 2, 0, 4, 4),
        (3, 3, 0, 6, 6),
        (4, 4, 0, 8, 8),
        (5, 8, 3, 10, 12),
        (6, 10, 3, 12, 14),
        (7, 12, 3, 14, 16),
        (8, 14, 3, 16, 18),
        (9, 16, 3, 18, 20),
        (10, 18, 3, 20, 22),
    ]
}
MAX_LEVEL = max(LEVELS)

#: The levels on the 10-column grid (Grand Othello and its shapes, up to 10×10): a
#: simpler, slower search (:mod:`hasamigo._kernels.wide_search`: no probable cuts, no
#: specialised solver for the last empties, about 1 M nodes/s) on a board with more moves,
#: so shallower, and perfect play from fewer empties. benchmarks/wide.py: depth 9 takes about
#: half a second in the midgame of Grand Othello (1.2 M nodes/s), so level 10 searches depth
#: 10 in one to two seconds; it solves 16 empties in about a second
#: (random Grand Othello positions: 0.4-0.6 s, 1.8 M nodes/s).
WIDE_LEVELS: dict[int, Level] = {
    n: Level(n, depth, exact, wld)
    for n, depth, exact, wld in [
        (1, 1, 2, 2),
        (2, 2, 4, 4),
        (3, 3, 6, 6),
        (4, 4, 8, 8),
        (5, 5, 10, 12),
        (6, 6, 12, 14),
        (7, 7, 13, 15),
        (8, 8, 14, 16),
        (9, 9, 15, 17),
        (10, 10, 16, 18),
    ]
}


def on_clock(lv: Level) -> Level:
    """The bounds ``lv`` plays by on a clock: its own (the budget may cut them short, never
    extend them), except the top level's, which only the clock bounds: it deepens, and
    solves perfectly or for the win, wherever its time allows (the strongest play of the
    time it is given, and the time a faster machine or more threads save is spent, not
    given back). Its time is still shared out as from its own endgame
    (:class:`~hasamigo.engine.timing.MoveTime`'s ``solve_from``: ``lv.wld_from``). On the
    10-column grid every level keeps its bounds: the solver's cost model, which decides
    when a solve fits, is measured on 8×8 only.

    >>> on_clock(LEVELS[9]) == LEVELS[9], on_clock(LEVELS[MAX_LEVEL]).depth
    (True, 64)
    >>> on_clock(WIDE_LEVELS[MAX_LEVEL]) == WIDE_LEVELS[MAX_LEVEL]
    True
    """
    if lv != LEVELS[MAX_LEVEL]:
        return lv
    return Level(lv.number, NO_BOUND, NO_BOUND, NO_BOUND, lv.selectivity)


def level(number: int, rules: Rules = PLAIN) -> Level:
    """The :class:`Level` numbered 1 (weakest) to ``MAX_LEVEL``, on the grid of ``rules``
    (beyond 8×8: :data:`WIDE_LEVELS`); :class:`InvalidOptionError` for any other number."""
    if not _whole(number) or number not in LEVELS:
        raise InvalidOptionError(f"levels run from 1 to {MAX_LEVEL}, not {shown(number)}")
    return LEVELS[number] if rules.supports("bitboard") else WIDE_LEVELS[number]
