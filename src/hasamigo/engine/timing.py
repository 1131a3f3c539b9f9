"""Time management: how long a program may think on one move, from its clock.

Every program that plays on a clock asks this module, and only this module, how much of
its time a move may take. The rule (after the idea of Edax and Egaroucid; written anew):

1. **A safety margin first.** The program's clock is a copy (the web server hands it over
   through ``GameController.program_clock()`` and commits the move afterwards), so the
   time between the program's answer and the committed move is not the program's to spend:
   :func:`safety_margin` keeps :data:`LATENCY_SECONDS` plus :data:`LATENCY_SHARE` of the
   time left, plus :data:`STOP_SECONDS` for the engine to notice its stop flag.
2. **A share per own move still to play**, weighted by the phase of the move it is
   (:func:`move_weight`): opening moves get less than the middle game, where games are
   decided; from ``solve_from`` empties the endgame moves get a geometric series whose
   first term (the move where the solver takes over) is the largest, because each later
   solve is several times cheaper. The own moves are counted from the end (the last at 2
   empties, the one before at 4, ...), so the share depends only on how many are left,
   and it only grows as the game advances.
3. **A target and a hard stop.** The *target* is what the move should use: iterative
   deepening starts no iteration it does not expect to finish within it, and the exact
   (or win/loss/draw) solver starts only if its estimated cost (:func:`solve_seconds`)
   fits it. The *hard* limit is where the engine's stop flag falls whatever happens:
   :data:`HARD_FACTOR` targets, at most :data:`HARD_SHARE` of the usable time (all of it
   on the last own move), never more than the time left minus the margin.
4. **With very little left** (:data:`URGENT_SECONDS` usable), the program plays the best
   move it has at once, a one-ply move if need be.

>>> b = move_budget(60.0, 60)
>>> 0 < b.target <= b.hard <= 60.0 - safety_margin(60.0)
True
>>> move_budget(0.1, 30).urgent
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hasamigo.game.clock import Clock
from hasamigo.move import Color

# ---- settings: one place, with what was measured (2 cores, shared; warm kernel cache) ----
#: The server's own latency between the program's answer and the committed move (future
#: resolution, the game lock, the event append): a fixed part ...
LATENCY_SECONDS = 0.2
#: ... plus this share of the time left (a loaded machine slows everything at once).
LATENCY_SHARE = 0.02
#: The engine's stop overshoot: from the stop flag's due time to the search's return
#: (timer thread wake-up, the kernel's poll every 1024 nodes, the principal variation).
#: Measured (benchmarks/time_use.py --overshoot, 200 midgame searches stopped at 10-300
#: ms): at most 16 ms on the idle 2-core machine, 50 ms (90% under 24 ms) with both cores
#: also busy with other processes.
STOP_SECONDS = 0.1
#: Below this much usable time a program plays its best one-ply move at once.
URGENT_SECONDS = 0.02

#: Moves with more empties than this are the opening and weigh OPENING_WEIGHT;
OPENING_EMPTIES = 44
OPENING_WEIGHT = 0.5
#: the middle game, up to the endgame, weighs MIDDLE_WEIGHT.
MIDDLE_WEIGHT = 1.0
#: Empties from which the endgame's series of weights starts (level 10 knows the
#: win/loss/draw result from 22); a player may pass its own (a level's ``wld_from``).
SOLVE_FROM = 22
#: The first endgame move's weight (the solve), and the factor each later own move's
#: weight is smaller by: a solve is about 4.4 times cheaper two empties later (median
#: nodes, WTHOR 2005 positions), more with the table the previous solve filled; 2 keeps
#: time in hand for a solve that turns out harder than its estimate (or was not started).
ENDGAME_WEIGHT = 2.0
ENDGAME_DECAY = 2.0
#: No move's target exceeds this share of the usable time (a misjudged move must leave
#: enough for the rest of the game) ...
TARGET_SHARE = 0.4
#: ... and the hard stop is this many targets, at most this share of the usable time.
HARD_FACTOR = 3.0
HARD_SHARE = 0.6

#: Exact solving cost model: nodes ~ SOLVE_NODES_AT_20 * SOLVE_GROWTH ** (empties - 20).
#: Measured (10 WTHOR 2005 positions per empties count, exact, fresh 2^20 table): median
#: nodes 1.5e4 (12 empties), 1.2e5 (16), 7.1e6 (20), 2.5e7 (22), 1.2e8 (24); the largest
#: at 20 was 1.45e7. A win/loss/draw solve costs at most WLD_SHARE of that (largest at 20:
#: 4.9e6, at 22: 1.6e7).
SOLVE_NODES_AT_20 = 1.0e7
SOLVE_GROWTH = 2.2
WLD_SHARE = 0.4
#: Solver nodes per second before the engine has measured its own: 1.0e7-1.6e7 measured
#: for exact solves, 0.5e7-1.1e7 win/loss/draw; midgame searches run at 3e6-5e6, and a
#: solver runs SOLVE_NPS_PER_SEARCH_NPS times as fast as the engine's own midgame search.
SOLVE_NPS = 6.0e6
SOLVE_NPS_PER_SEARCH_NPS = 2.0

#: Iterative deepening: the next iteration is expected to cost the last one times the
#: last growth (clamped to GROWTH_MIN..GROWTH_MAX; GROWTH_DEFAULT before two iterations
#: have been timed). Measured midgame growth per ply: 1.5-7 (odd/even alternating).
GROWTH_MIN = 2.0
GROWTH_MAX = 8.0
GROWTH_DEFAULT = 4.0
#: Iterations shorter than this are timer noise: their growth is not trusted.
GROWTH_NOISE = 0.002


@dataclass(frozen=True, slots=True)
class Budget:
    """Seconds a move may take, counted from now: ``target`` (what it should use) and
    ``hard`` (where the search is stopped whatever happens; ``target <= hard``)."""

    target: float
    hard: float

    @property
    def urgent(self) -> bool:
        """Too little time for anything but the best one-ply move."""
        return self.hard < URGENT_SECONDS


def safety_margin(remaining: float) -> float:
    """The seconds of ``remaining`` a program never plans to use (see the settings).

    >>> round(safety_margin(60.0), 2)
    1.5
    """
    return LATENCY_SECONDS + STOP_SECONDS + LATENCY_SHARE * max(0.0, remaining)


def move_weight(empties: int, solve_from: int = SOLVE_FROM) -> float:
    """The weight of an own move played with ``empties`` empty squares: the opening less
    than the middle game, the endgame a geometric series from ``solve_from`` down (its
    first term the largest: that is where the solver starts).

    >>> [move_weight(e) for e in (60, 40, 22, 20)]
    [0.5, 1.0, 2.0, 1.0]
    """
    if empties <= solve_from:
        return ENDGAME_WEIGHT / float(ENDGAME_DECAY ** ((solve_from - empties) / 2))
    if empties > OPENING_EMPTIES:
        return OPENING_WEIGHT
    return MIDDLE_WEIGHT


def move_budget(remaining: float, empties: int, *, solve_from: int = SOLVE_FROM) -> Budget:
    """The budget of a move with ``remaining`` seconds on the mover's clock and ``empties``
    empty squares: the mover has ``(empties + 1) // 2`` moves left if nobody passes.

    >>> b = move_budget(60.0, 40); round(b.target, 2), round(b.hard, 2)
    (4.5, 13.5)
    """
    usable = remaining - safety_margin(remaining)
    if usable <= 0:
        return Budget(0.0, 0.0)
    moves_left = max(1, (empties + 1) // 2)
    own = [move_weight(2 * j, solve_from) for j in range(moves_left, 0, -1)]
    share = min(TARGET_SHARE, own[0] / math.fsum(own))
    target = usable * share
    if len(own) == 1:  # the last own move: everything usable
        return Budget(target, usable)
    hard = min(usable * HARD_SHARE, target * HARD_FACTOR)
    return Budget(min(target, hard), hard)


def solve_nodes(empties: int, mode: str = "exact") -> float:
    """The estimated nodes of a perfect solve (``'exact'`` or ``'wld'``) at ``empties``.

    >>> f"{solve_nodes(20):.2g}", f"{solve_nodes(20, 'wld'):.2g}"
    ('1e+07', '4e+06')
    """
    nodes = SOLVE_NODES_AT_20 * SOLVE_GROWTH ** (empties - 20)
    return nodes * WLD_SHARE if mode == "wld" else nodes


def solve_seconds(empties: int, mode: str = "exact", nps: float = SOLVE_NPS) -> float:
    """The estimated seconds of a perfect solve at ``nps`` solver nodes per second."""
    return solve_nodes(empties, mode) / max(nps, 1.0)


def fits(seconds: float, budget: Budget) -> bool:
    """Whether work estimated at ``seconds`` may start on ``budget`` (its target)."""
    return not budget.urgent and seconds <= budget.target


def next_iteration(durations: Sequence[float]) -> float:
    """The expected seconds of the next iteration of iterative deepening, from the
    durations of those finished (a growth factor from the last two, clamped).

    >>> next_iteration([0.01, 0.03])
    0.09
    """
    if not durations:
        return 0.0
    last = durations[-1]
    growth = GROWTH_DEFAULT
    if len(durations) >= 2 and durations[-2] >= GROWTH_NOISE:
        growth = min(GROWTH_MAX, max(GROWTH_MIN, last / durations[-2]))
    return last * growth


#: Searches this long (nodes and seconds) tell an engine its speed: the solver's estimate.
SPEED_MIN_NODES = 100_000
SPEED_MIN_SECONDS = 0.02


class Speed:
    """An engine's measured speed, solver and search apart (nodes per wall second, a
    running mean of the searches long enough to tell), and the perfect solve's estimated
    seconds at it: so that a loaded machine solves later.

    Kept **per thread count** (an engine's ``threads`` may change between searches:
    :meth:`~hasamigo.engine.Engine.set_threads`): a search on more threads covers more
    nodes per wall second, so its speed is never taken for a search on fewer (whose
    solve would then be started in the belief that it fits). A thread count not measured
    yet takes the speed of the largest count measured below it (fewer threads: slower,
    so the estimate errs long, and the solve starts later rather than overruns), else
    the defaults. Iterative deepening's own prediction (:func:`next_iteration`) needs none
    of this: it times the iterations of the search under way, on its threads, in wall
    time.

    >>> speed = Speed(); speed.measure(1_000_000, 0.5, "midgame"); speed.search_nps
    2000000.0
    >>> speed.measure(3_000_000, 0.5, "midgame", threads=2); speed.search_at(2)
    6000000.0
    >>> speed.search_at(4), speed.search_at(1)
    (6000000.0, 2000000.0)
    """

    def __init__(self) -> None:
        self._solve: dict[int, float] = {}
        self._search: dict[int, float] = {}

    @property
    def solve_nps(self) -> float | None:
        """The solver's speed on one thread (``None``: not measured yet)."""
        return self.solve_at(1)

    @property
    def search_nps(self) -> float | None:
        """The midgame search's speed on one thread (``None``: not measured yet)."""
        return self.search_at(1)

    def solve_at(self, threads: int) -> float | None:
        """The solver's speed on ``threads`` threads (see the class docstring)."""
        return _at(self._solve, threads)

    def search_at(self, threads: int) -> float | None:
        """The midgame search's speed on ``threads`` threads (see the class docstring)."""
        return _at(self._search, threads)

    def measure(self, nodes: int, seconds: float, mode: str, threads: int = 1) -> None:
        """Count a finished search of ``nodes`` in ``seconds`` of wall time on
        ``threads`` threads (``mode``: ``'midgame'``, else a solve)."""
        if nodes < SPEED_MIN_NODES or seconds < SPEED_MIN_SECONDS:
            return
        nps = nodes / seconds
        speeds = self._search if mode == "midgame" else self._solve
        old = speeds.get(threads)
        speeds[threads] = nps if old is None else (old + nps) / 2

    def solve_seconds(self, empties: int, mode: str = "exact", threads: int = 1) -> float:
        """:func:`solve_seconds` at the solves' speed on ``threads`` threads, else the
        searches' scaled, else :data:`SOLVE_NPS`."""
        nps = self.solve_at(threads)
        if nps is None:
            search = self.search_at(threads)
            nps = SOLVE_NPS if search is None else search * SOLVE_NPS_PER_SEARCH_NPS
        return solve_seconds(empties, mode, nps)


def _at(speeds: dict[int, float], threads: int) -> float | None:
    """The speed measured on ``threads`` threads, else on the most threads below it."""
    below = [count for count in speeds if count <= threads]
    return speeds[max(below)] if below else None


class MoveTime:
    """One move's time as a player spends it: the budget taken from ``clock`` when the
    move starts, and what is left of it as the player works. What is left is also read
    from the clock again, so time the player did not see pass (a stalled machine, a test's
    clock jumped forward) is counted.

    >>> from hasamigo import BLACK
    >>> now = [0.0]
    >>> clock = Clock(60, time_source=lambda: now[0]); clock.start(BLACK)
    >>> t = MoveTime(clock, BLACK, 60, now=lambda: now[0])
    >>> t.left() == t.budget
    True
    >>> now[0] = 59.0; t.left().urgent
    True
    """

    def __init__(self, clock: Clock, color: Color, empties: int, *,
                 solve_from: int = SOLVE_FROM, now: Callable[[], float] = time.perf_counter
                 ) -> None:
        self._clock = clock
        self._color = color
        self._now = now
        self._start = now()
        remaining = clock.remaining(color)
        self.margin = safety_margin(remaining)
        self.budget = move_budget(remaining, empties, solve_from=solve_from)

    def elapsed(self) -> float:
        """Seconds since the move started (the player's own measure)."""
        return self._now() - self._start

    def left(self) -> Budget:
        """What is left of the budget from now on."""
        spent = self.elapsed()
        clock_left = self._clock.remaining(self._color) - self.margin
        hard = max(0.0, min(self.budget.hard - spent, clock_left))
        target = max(0.0, min(self.budget.target - spent, hard))
        return Budget(target, hard)


__all__ = [
    "ENDGAME_DECAY",
    "ENDGAME_WEIGHT",
    "HARD_FACTOR",
    "HARD_SHARE",
    "LATENCY_SECONDS",
    "LATENCY_SHARE",
    "SOLVE_FROM",
    "STOP_SECONDS",
    "TARGET_SHARE",
    "URGENT_SECONDS",
    "Budget",
    "MoveTime",
    "fits",
    "move_budget",
    "move_weight",
    "next_iteration",
    "safety_margin",
    "solve_nodes",
    "solve_seconds",
]
