"""The in-process engine: analysis, play, exact solving and hints over the search kernels.

Scores are disc differences **from the side to move** (positive: the side to move is
ahead); exact scores use the official count (empties to the winner, a draw is 0).
The root is driven here (iterative deepening, aspiration windows, PVS over the root
moves); each root move is one call of the compiled :func:`~hasamigo._kernels.search.search`,
which releases the GIL, so a ``threading.Timer`` (or :meth:`Engine.stop` from another
thread) can stop it through a flag array.

On a clock (:meth:`Engine.play_timed`, with a :class:`~hasamigo.engine.timing.Budget` from
:mod:`hasamigo.engine.timing`) the timer is the budget's hard stop, iterative deepening
starts no iteration it does not expect to finish within the budget's target, and a
perfect solve starts only when its estimated cost (from the empties and the nodes per
second this engine has measured) fits the target.

Boards on the 10-column grid (Grand Othello and its shapes, up to 10×10) go through the
same root to :mod:`hasamigo._kernels.wide_search` (dispatched on the board's grid as its
rules tell, see ``_Grid``): the hand-set evaluation generalised to the shape, the exact
solver near the end, its own table; no threads, no probable cuts, no trained evaluation
(all measured on 8×8 only), and the solver's cost model keeps the 8×8 speeds.

Beside it: the values it answers (:mod:`hasamigo.engine.results`, re-exported here), the
two grids (:mod:`hasamigo.engine.grid`), the search over the root moves on one thread or
several (:mod:`hasamigo.engine.root`), the measured speed (:class:`~hasamigo.engine.timing.Speed`)
and the search of rules the kernels do not know (:mod:`hasamigo.engine.rules_search`).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterable

import numpy as np

from hasamigo._kernels import wide, wide_search
from hasamigo._kernels.hashtable import hash_clear, hash_move, hash_new
from hasamigo._kernels.search import (
    ABORTED,
    ALL_FLAGS,
    CTL_SIZE,
    LIMIT,
    NODES,
    PROBCUT,
    PROBCUT_LEVELS,
    USE_DEFER,
    USE_ETC,
    USE_HASH,
    USE_ORDER,
    USE_STABILITY,
    evaluate_entry,
    search,
)
from hasamigo.board import Board
from hasamigo.engine.evaluation import evaluation_params, kernel_params
from hasamigo.engine.grid import GRID8, GRID10, geometry, kernel_pair
from hasamigo.engine.limits import DEFAULT_DEPTH, SELECTIVITIES, Level, Limit, _whole, level
from hasamigo.engine.limits import checked_threads as _checked_threads
from hasamigo.engine.line import principal_variation, small_best
from hasamigo.engine.parallel import SplitSearch, search_together, worth_sharing
from hasamigo.engine.results import Analysis, MoveScore, PlayResult
from hasamigo.engine.root import search_root
from hasamigo.engine.rules_search import analyse_by_rules
from hasamigo.engine.timing import Budget, Speed, fits, next_iteration
from hasamigo.errors import InvalidOptionError, InvalidPositionError, shown
from hasamigo.move import Move
from hasamigo.rules import Kernel
from hasamigo.squares import bits

__all__ = ["MODES", "SEARCH_FEATURES", "SEARCH_FLAGS", "Analysis", "Engine", "MoveScore",
           "PlayResult", "search_flags_without"]

MODES = ("exact", "wld")
# The search features the engine asks of the 8x8 kernel: all of them. The benchmarks switch
# some off here (search_flags_without) to measure what each is worth (``--without``).
SEARCH_FLAGS = ALL_FLAGS
SEARCH_FEATURES = {"hash": USE_HASH, "order": USE_ORDER, "stability": USE_STABILITY,
                   "etc": USE_ETC}
PRESEARCH_EMPTIES = 12  # exact solves above this many empties sort the root by a search first
PRESEARCH_DEPTH = 6  # ...of at most this many plies, stopping 10 plies short of the end
# (12 with the trained evaluation: FFO #45, #48, #49 68.1 -> 71.9 s, no fewer nodes.
# 8 from the first solver, before the selective passes below existed. The presearch's own nodes are
# few either way (#49: 1.8 k to 6 plies, 25 k to 8); what changes is the tree of the passes after it
# (its moves in the shared table, taken first by their nodes; see PRESEARCH_ROWS), smaller on most
# positions (measured with the presearch in the shared table): 6 gave FFO #20-#39 128.6 M nodes
# against 134.6 M, #40-#45, #47-#49, #51, #52 1,604 M against 1,817 M (0.84-0.89x the CPU time,
# pairs on a noisy 2-core machine), #50 1,716 M against 1,844 M, #53 2,537 M against 2,629 M, #57
# 1,585 M against 1,771 M, #55 11.27 G against 11.13 G: the whole of #40-#59 about 26.1 G nodes
# against 26.8 G. 5 gave the same nodes on #40-#52 (1,605 M), 4 and 5 fewer on #20-#39 (122.7 M,
# 120.1 M), 4 more on #45, #48, #49, #51, #52.)
# The presearch writes a table of its own, this many rows: its moves in the shared table, at nodes
# the passes after it reach, went first there (a node searches its table's move first) where the
# exact ordering would have chosen better. FFO #45, #49, #51, #52 (each a fresh engine), the
# presearch's table cleared before the first pass to the end: 1,311 M nodes against 1,335 M at 6
# plies, 1,338 M against 1,546 M at 8. With its own table, by ffo.py: #20-#39 122.5 M nodes at 6
# plies (119.6 M at 8), #40-#45, #47-#49, #51, #52 1,566 M (1,597 M at 8; 1,570 M at 5, 1,618 M
# at 4). The whole of #40-#59: 23.54 G nodes (26.79 G with 8 plies in the shared table; #50
# 979 M against 1,844 M, #55 10.06 G against 11.13 G).
PRESEARCH_ROWS = 1 << 14
# Solve in a window around the presearch score (see _aspiration) instead of -64..64.
# FFO #45: 1295 M -> 844 M nodes, 68.8 -> 44.9 cpu s; #48: 1243 M -> 1207 M, 77.7 -> 72.9 s;
# #20-#39: 421 M -> 368 M nodes, 23.1 -> 23.7 s (within noise).
EXACT_ASPIRATION = True
# Exact solves from this many empties first run selective passes (probable cuts at rising
# confidence, PROBCUT in hasamigo._kernels.search) whose moves and scores order the exact one.
# FFO #45: 484.4 M -> 427.2 M nodes; #48: 137.5 M -> 124.9 M; #49: 498.4 M -> 487.9 M.
# Their moves in the table are most of that order (unlike the presearch's, above): clearing the
# table before the exact pass, keeping the root's order and window, gave FFO #45, #48, #49,
# #51, #52 2,505 M nodes against 1,439 M (each a fresh engine).
# A fifth pass at 3.3 standard deviations (Edax's last level before exact) made the exact pass
# smaller (#49: 151 M nodes against 224 M) but cost more than it saved: the same five, 1,510 M
# nodes against 1,439 M. Not kept.
# (Where #53 and #55 spend their nodes, pass by pass: see _kernels/search.py.)
SELECTIVE_EMPTIES = 18
# Threads share a search by "abdada", "split", "lazy" or "root": see hasamigo.engine.parallel.
PARALLEL = "abdada"


def search_flags_without(names: str) -> int:
    """All the search features but those named, comma-separated (``"etc,stability"``; empty:
    all of them), as the kernel's flags."""
    flags = int(ALL_FLAGS)
    for name in filter(None, (n.strip() for n in names.split(","))):
        if name not in SEARCH_FEATURES:
            raise InvalidOptionError(f"no search feature {shown(name)}: the features are "
                                     f"{', '.join(SEARCH_FEATURES)}")
        flags &= ~int(SEARCH_FEATURES[name])
    return flags


class _Stopped(Exception):
    """The stop flag or the node budget ended a search."""


class Engine:
    """Midgame search and exact endgame solver with one transposition table.

    ``table_size`` is the number of table rows (a power of two; 32 bytes each).
    ``evaluation`` names the static evaluation (:mod:`hasamigo.engine.evaluation`:
    ``"trained"`` patterns or the ``"hand"``-set features); ``params`` overrides it with a
    parameter array of the kernel's layout.

    ``threads`` > 1 shares the search out inside the tree (:mod:`hasamigo.engine.parallel`,
    the threads sharing the one table safely); scores are those of one thread, the nodes
    (and so the time, and a choice between equal moves) differ.

    >>> from hasamigo import Board
    >>> engine = Engine(table_size=1 << 12)
    >>> a = engine.analyse(Board(), Limit(depth=2))
    >>> a.depth, a.exact, len(a.pv) >= 1
    (2, False, True)
    """

    def __init__(self, table_size: int = 1 << 20, params: np.ndarray | None = None, *,
                 evaluation: str = "trained", threads: int = 1) -> None:
        self.threads = _checked_threads(threads)
        self._table = hash_new(table_size)  # shared by the threads (see the class docstring)
        # the presearch before an exact solve writes its own, small table (PRESEARCH_ROWS);
        # the table the current pass searches with, one of the two
        self._presearch_table = hash_new(PRESEARCH_ROWS)
        self._search_table = self._table
        self._count_lock = threading.Lock()
        self._params = (evaluation_params(evaluation) if params is None
                        else kernel_params(params))
        self._stop = np.zeros(1, dtype=np.int64)
        self._cancelled = False
        self._date = 0
        self._lock = threading.Lock()
        self._nodes = 0
        self._budget = 0
        self._probcut = 0  # the selective level of the current pass (0: none)
        self._speed = Speed()  # measured speeds (nodes per wall second)
        # the 10-column grid (boards up to 10×10): its own table, made at its first search
        self._wide_table: tuple[np.ndarray, np.ndarray] | None = None
        self._wide_size = table_size
        self._grid = GRID8  # the grid of the search in progress
        self._split: SplitSearch | None = None  # the parallel search running, if any
        self._helper_stops: list[np.ndarray] = []  # ABDADA's or lazy SMP's helpers' flags
        self.parallel = PARALLEL
        self.idle = 0.0  # seconds the threads of the last search waited for work, summed

    def set_threads(self, threads: int) -> None:
        """Search on ``threads`` threads (1 to ``MAX_THREADS``, checked as the constructor
        checks them) from the next search on: the GUI's ``set threads``, a web setting."""
        self.threads = _checked_threads(threads)

    def set_params(self, params: np.ndarray) -> None:
        """Evaluate with ``params`` (checked as the constructor checks them) from the next
        search on, with a cleared table (its bounds came from the old evaluation): e.g.
        an engine with trained weights of its own in a match (``hasamigo match
        --weights-a``)."""
        self._params = kernel_params(params)
        self.clear()

    # ---- control ------------------------------------------------------------------
    def stop(self) -> None:
        """Ask a running search (in another thread) to stop and return what it has."""
        self._stop[0] = 1
        self._stop_helpers()

    def _stop_helpers(self) -> None:
        """Hand the stop on to the searches of the other threads (their own flags)."""
        split = self._split
        if split is not None:
            split.stop_all()
        for flag in list(self._helper_stops):
            flag[0] = 1

    def cancel(self) -> None:
        """Stop the running search and every later one at once, until :meth:`resume`: for
        a caller that no longer wants the answer (its game was abandoned, or the position
        changed), whose player may run several searches in a row."""
        self._cancelled = True
        self.stop()

    def resume(self) -> None:
        """Undo :meth:`cancel`: searches run normally again."""
        self._cancelled = False

    def clear(self) -> None:
        """Forget the transposition tables (the presearch's too)."""
        hash_clear(self._table)
        hash_clear(self._presearch_table)
        if self._wide_table is not None:
            wide_search.table_clear(*self._wide_table)

    # ---- public API ----------------------------------------------------------------
    def analyse(self, board: Board, limit: Limit | None = None, *, multipv: int = 1,
                budget: Budget | None = None, among: Iterable[Move] | None = None,
                selectivity: int = 0) -> Analysis:
        """Search ``board`` within ``limit``; the score is from the side to move.

        ``multipv > 1`` scores that many best moves (each searched with a full window).
        ``budget`` (seconds from now) stops the search at its hard limit and starts no
        iteration that is not expected to finish within its target; the result is the
        deepest finished iteration's (``depth`` 0: stopped before the first). ``among``
        searches only those of the legal moves (an opening book's moves not yet in it);
        :class:`~hasamigo.errors.InvalidOptionError` when it holds none of them.
        ``selectivity`` 1 to :data:`SELECTIVITIES` lets the midgame search cut a node that a
        shallow search puts beyond the window by 1.0, 1.5, 2.0 or 2.6 standard deviations
        of the shallow score's error (probable cuts, about 68, 87, 95 or 99 % sure); 0
        searches every node. Iterations that reach the end are exact whatever it is."""
        limit = limit or Limit()
        return self._run(board, limit, multipv=multipv, mode="midgame", budget=budget,
                         among=among, selectivity=selectivity)

    def play(self, board: Board, limit: Limit | None = None, *,
             selectivity: int = 0) -> PlayResult:
        """Choose a move for the side to move."""
        analysis = self.analyse(board, limit, selectivity=selectivity)
        return PlayResult(analysis.move, analysis)

    def solve(self, board: Board, mode: str = "exact", limit: Limit | None = None, *,
              budget: Budget | None = None) -> Analysis:
        """Perfect play: the exact score (``'exact'``) or only win/loss/draw (``'wld'``,
        score -1/0/+1), from the side to move. ``limit`` may bound time or nodes;
        ``budget``'s hard limit stops it too (a stopped solve answers its presearch's move,
        ``exact`` False)."""
        if mode not in MODES:
            raise InvalidOptionError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        limit = Limit(depth=64, time=limit.time, nodes=limit.nodes) if limit else Limit(depth=64)
        return self._run(board, limit, multipv=1, mode=mode, budget=budget)

    def solve_window(self, board: Board, alpha: int, beta: int) -> Analysis:
        """An exact solve inside the window ``(alpha, beta)`` (disc differences from the
        side to move, ``alpha < beta``): ``score`` is the exact score if it lies strictly
        inside; else a bound, at most ``alpha`` (no better than ``alpha``) or at least
        ``beta``. Far cheaper than :meth:`solve` with a narrow window: what splits one
        position's root among workers (:mod:`hasamigo.jobs.split`) asks. Boards within
        8×8 (6×6, the octagon…) of the usual flips only."""
        if not (_whole(alpha) and _whole(beta) and -64 <= alpha < beta <= 64):
            raise InvalidOptionError(f"the window must be whole numbers with -64 <= alpha < "
                                     f"beta <= 64, not ({shown(alpha)}, {shown(beta)})")
        if board.rules.kernel is not Kernel.BITBOARD:
            raise InvalidOptionError(f"a windowed solve of {board.title} is not offered: "
                                     "only boards within 8×8 of the usual flips")
        return self._run(board, Limit(depth=64), multipv=1, mode="exact",
                         window=(int(alpha), int(beta)))

    def hints(self, board: Board, limit: Limit | None = None, *,
              budget: Budget | None = None) -> list[MoveScore]:
        """Every legal move with its score (side to move), best first."""
        limit = limit or Limit()
        n = max(1, len(board.legal_moves))
        return list(self._run(board, limit, multipv=n, mode="midgame", budget=budget).lines)

    def play_level(self, board: Board, number: int) -> PlayResult:
        """Play at a level of :data:`~hasamigo.engine.limits.LEVELS` (1 weakest)."""
        lv: Level = level(number, board.rules)
        empties = board.empties.bit_count()
        if empties <= lv.exact_from:
            analysis = self.solve(board, "exact")
        elif empties <= lv.wld_from:
            analysis = self.solve(board, "wld")
        else:
            analysis = self.analyse(board, Limit(depth=lv.depth), selectivity=lv.selectivity)
        return PlayResult(analysis.move, analysis)

    def play_timed(self, board: Board, budget: Budget, *, depth: int = 64, exact_from: int = 64,
                   wld_from: int = 64, selectivity: int = 0) -> PlayResult:
        """Choose a move on a clock: ``budget`` is this move's time from now (see
        :mod:`hasamigo.engine.timing`). ``depth``, ``exact_from`` and ``wld_from`` bound it
        as a level does (:meth:`play_level`): the budget can cut them short, never extend
        them (``selectivity`` as in :meth:`analyse`). A perfect solve (exact first, else
        win/loss/draw) is started only when its estimate fits the target; otherwise
        iterative deepening goes as deep as fits. An urgent budget (or one used up before
        the first iteration) gets the best one-ply move at once."""
        empties = board.empties.bit_count()
        if budget.urgent:
            analysis = self.analyse(board, Limit(depth=1))
        elif empties <= exact_from and fits(self.solve_estimate(empties, "exact"), budget):
            analysis = self.solve(board, "exact", budget=budget)
        elif empties <= wld_from and fits(self.solve_estimate(empties, "wld"), budget):
            analysis = self.solve(board, "wld", budget=budget)
        else:
            analysis = self.analyse(board, Limit(depth=max(1, min(depth, 64))), budget=budget,
                                    selectivity=selectivity)
        if analysis.depth == 0:  # stopped before the first iteration finished
            analysis = self.analyse(board, Limit(depth=1))
        return PlayResult(analysis.move, analysis)

    def solve_estimate(self, empties: int, mode: str = "exact") -> float:
        """Estimated seconds of a perfect solve (``'exact'`` or ``'wld'``) at ``empties``
        on this engine: the cost model of :func:`~hasamigo.engine.timing.solve_nodes` at
        the speed this engine last measured (its solves', else its searches' scaled, else a
        default; :class:`~hasamigo.engine.timing.Speed`)."""
        return self._speed.solve_seconds(empties, mode, self.threads)

    def evaluate(self, board: Board) -> int:
        """The static evaluation of ``board`` for the side to move (discs)."""
        p, o, mask = kernel_pair(board)
        if not board.rules.supports("bitboard"):
            return int(wide_search.evaluate_entry(*wide.split(p), *wide.split(o),
                                                  geometry(mask), self._params))
        return int(evaluate_entry(np.uint64(p), np.uint64(o), np.uint64(mask), self._params))

    # ---- the root -------------------------------------------------------------------
    def _kernel(self, p: int, o: int, mask: int, depth: int, alpha: int, beta: int,
                stop: np.ndarray | None = None, probcut: int | None = None,
                defer: bool = False) -> int:
        """One call of the compiled search; ``stop``: its own stop flag (a thread of a
        parallel search), else the engine's; ``probcut``: the selective level, else the
        pass's; ``defer``: a thread of ABDADA (the kernel's ``USE_DEFER``)."""
        ctl = np.zeros(CTL_SIZE, dtype=np.int64)
        if self._budget:
            left = self._budget - self._nodes
            if left <= 0:
                self.stop()  # every thread's search is over
                raise _Stopped
            ctl[LIMIT] = left
        if self._grid.wide:
            keys, vals = self._wide_tables()
            v = wide_search.search(*wide.split(p), *wide.split(o), geometry(mask), depth, alpha,
                                   beta, keys, vals, self._date, self._params, self._stop, ctl,
                                   wide_search.ALL_FLAGS)
            self._nodes += int(ctl[wide_search.NODES])
            if ctl[wide_search.ABORTED]:
                raise _Stopped
            return int(v)
        ctl[PROBCUT] = self._probcut if probcut is None else probcut
        flag = self._stop if stop is None else stop
        v = search(np.uint64(p), np.uint64(o), np.uint64(mask), depth, alpha, beta,
                   self._search_table, self._date, self._params, flag, ctl,
                   SEARCH_FLAGS | USE_DEFER if defer else SEARCH_FLAGS)
        with self._count_lock:
            self._nodes += int(ctl[NODES])
        if ctl[ABORTED]:
            if not flag[0]:  # the node budget, not a stop: every thread's search is over
                self.stop()
            raise _Stopped
        return int(v)

    def _wide_tables(self) -> tuple[np.ndarray, np.ndarray]:
        if self._wide_table is None:
            self._wide_table = wide_search.table_new(self._wide_size)
        return self._wide_table

    def _root(self, p: int, o: int, mask: int, depth: int, alpha: int, beta: int,
              order: list[int], every: bool) -> tuple[int, list[tuple[int, int]]]:
        """PVS over the root moves in ``order``: on one thread by
        :func:`hasamigo.engine.root.search_root`, on several as :data:`PARALLEL` says."""
        if (self.threads == 1 or self._grid.wide or len(order) < 2 or not worth_sharing(
                (mask & ~(p | o)).bit_count(), depth, self._probcut, self.parallel)):
            return search_root(self._kernel, self._grid, 1, p, o, mask, depth, alpha, beta,
                               order, every)
        if self.parallel == "root":
            return search_root(self._kernel, self._grid, self.threads, p, o, mask, depth,
                               alpha, beta, order, every)
        if self.parallel in ("abdada", "lazy"):  # every thread the whole root
            lazy = self.parallel == "lazy"
            kernel = functools.partial(self._kernel, defer=not lazy)
            return search_together(kernel, _Stopped, self._grid, self.threads, p, o, mask,
                                   depth, alpha, beta, order, every, self._stop,
                                   self._helper_stops, turn=lazy)
        split = SplitSearch(self._kernel, _Stopped, self.threads, mask, self._search_table,
                            self._params, SEARCH_FLAGS, self._date, self._probcut, self._stop)
        self._split = split
        try:
            if self._stop[0]:  # stopped before it was visible to stop()
                raise _Stopped
            return split.root(p, o, depth, alpha, beta, order, every)
        finally:
            self._split = None
            with self._count_lock:
                self._nodes += split.nodes
                self.idle += split.idle

    def _run(self, board: Board, limit: Limit, *, multipv: int, mode: str,
             budget: Budget | None = None, among: Iterable[Move] | None = None,
             selectivity: int = 0, window: tuple[int, int] | None = None) -> Analysis:
        if not (_whole(selectivity) and 0 <= selectivity <= SELECTIVITIES):
            raise InvalidOptionError(f"selectivity must be a whole number from 0 to "
                                     f"{SELECTIVITIES}, not {shown(selectivity)}")
        if (board.rules_beyond_kernels() and board.disc_limit is None
                and not board.in_placement_phase()):
            return analyse_by_rules(board, limit, multipv, mode, budget, among)
        p, o, mask = kernel_pair(board)
        grid = GRID8 if board.rules.supports("bitboard") else GRID10
        if grid.wide:
            selectivity = 0  # probable cuts are measured on the 8×8 grid only
        only: set[int] | None = None
        if among is not None:
            only = {grid.pass_move if m.square is None else m.square for m in among}
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("this engine is already searching (use one engine per thread)")
        timer = None
        try:
            self._grid = grid
            self._stop[0] = 1 if self._cancelled else 0
            self._date = (self._date + 1) % 30000
            self._nodes, self.idle = 0, 0.0
            self._budget = limit.nodes or 0
            seconds = limit.time
            if budget is not None:
                seconds = budget.hard if seconds is None else min(seconds, budget.hard)
            if seconds is not None:
                if seconds <= 0:
                    self._stop[0] = 1
                else:
                    timer = threading.Timer(seconds, self.stop)
                    timer.daemon = True
                    timer.start()
            analysis = self._iterate(p, o, mask, board, limit, multipv, mode, budget, only,
                                     int(selectivity), window)
        finally:
            if timer is not None:
                timer.cancel()
            self._grid = GRID8
            self._lock.release()
        if not grid.wide and window is None:  # the solver's cost model: 8×8, full window
            self._speed.measure(analysis.nodes, analysis.seconds, mode, self.threads)
        return analysis

    def _iterate(self, p: int, o: int, mask: int, board: Board, limit: Limit,
                 multipv: int, mode: str, budget: Budget | None = None,
                 only: set[int] | None = None, selectivity: int = 0,
                 window: tuple[int, int] | None = None) -> Analysis:
        t0 = time.perf_counter()
        grid = self._grid
        span = grid.span
        empties = (mask & ~(p | o)).bit_count()
        moves = list(bits(grid.legal(p, o, mask)))
        if not moves:
            if not grid.legal(o, p, mask):
                raise InvalidPositionError("the game is over: nothing to analyse")
            moves = [grid.pass_move]
        if only is not None:
            moves = [sq for sq in moves if sq in only]
            if not moves:
                raise InvalidOptionError("none of the moves to search is legal here")
        max_depth = limit.depth if limit.depth is not None else (
            span if limit.time is not None or limit.nodes is not None else DEFAULT_DEPTH)
        if mode != "midgame":
            max_depth = span
        final = min(max_depth, empties)
        exact_goal = max_depth >= empties
        depths = list(range(1, final + 1))
        # probable cuts in the midgame iterations only: one that reaches the end is exact
        levels = [selectivity if d < empties else 0 for d in depths]
        presearch = exact_goal and mode != "midgame" and final > PRESEARCH_EMPTIES
        if presearch:
            # sort the root with a short search (in its own table), then solve
            depths = [*range(1, min(PRESEARCH_DEPTH, final - 10) + 1), final]
            levels = [0] * len(depths)
            if (mode == "exact" and final >= SELECTIVE_EMPTIES and multipv == 1
                    and not grid.wide):
                # ... after selective passes at rising confidence
                depths[-1:-1] = [final] * PROBCUT_LEVELS
                levels[-1:-1] = list(range(1, PROBCUT_LEVELS + 1))
        elif exact_goal and mode != "midgame":
            depths = [final]
            levels = [0]
        every = multipv > 1
        order = moves
        done: tuple[int, int, list[tuple[int, int]]] | None = None  # depth, score, scores
        done_exact = False  # the last finished pass searched to the end without cuts
        prev_score = 0
        durations: list[float] = []  # of the finished iterations (for the budget's rule)
        for depth, selective in zip(depths, levels, strict=True):
            exact = depth >= empties and selective == 0
            if budget is not None and mode == "midgame" and done is not None:
                # start only an iteration expected to end within the target
                expected = (self.solve_estimate(empties) if exact
                            else next_iteration(durations))
                if time.perf_counter() - t0 + expected > budget.target:
                    break
            started = time.perf_counter()
            self._probcut = selective
            if presearch and depth < empties:
                self._search_table = self._presearch_table
            try:
                if exact and window is not None:
                    score, scores = self._root(p, o, mask, depth, *window, order, every)
                elif exact and mode == "wld":
                    score, scores = self._root(p, o, mask, depth, -1, 1, order, every)
                elif selective and depth >= empties:
                    guess = prev_score + (prev_score & 1)
                    score, scores = self._aspiration(p, o, mask, depth, guess, order, width=1)
                elif exact and not every and done is not None and EXACT_ASPIRATION:
                    # a window around the presearch's score; widened on failure
                    guess = prev_score + (prev_score & 1)  # exact 8x8 scores are even
                    score, scores = self._aspiration(p, o, mask, depth, guess, order, width=1)
                elif exact or every or depth <= 2:
                    score, scores = self._root(p, o, mask, depth, -span, span, order, every)
                else:
                    score, scores = self._aspiration(p, o, mask, depth, prev_score, order)
            except _Stopped:
                break
            finally:
                self._probcut = 0
                self._search_table = self._table
            scores.sort(key=lambda t: -t[0])
            order = [sq for _, sq in scores] + [sq for sq in order if sq not in
                                                {s for _, s in scores}]
            done = (depth, score, scores)
            done_exact = exact
            prev_score = score
            durations.append(time.perf_counter() - started)
            if limit.time is not None and time.perf_counter() - t0 > 0.4 * limit.time:
                break  # the next iteration would not finish in time
        seconds = time.perf_counter() - t0
        if done is None:  # stopped before one iteration: the first ordered move, unscored
            sq = order[0]
            cp, co = grid.child(p, o, sq)
            v = -self._evaluate_pair(cp, co, mask)
            done = (0, v, [(v, sq)])
        depth, score, scores = done
        exact = depth >= empties and done_exact
        best_sq = scores[0][1]
        if mode == "wld" and exact:
            score = (score > 0) - (score < 0)
        pv = self._pv(p, o, mask, best_sq, depth)
        lines = tuple(
            MoveScore(grid.move(sq), v if mode != "wld" else (v > 0) - (v < 0),
                      self._pv(p, o, mask, sq, depth) if every else (pv if sq == best_sq else ()))
            for v, sq in scores[:max(1, multipv)])
        return Analysis(move=grid.move(best_sq), score=score, pv=pv, depth=depth, nodes=self._nodes,
                        seconds=seconds, exact=exact,
                        mode=mode if mode != "midgame" else ("exact" if exact else "midgame"),
                        lines=lines)

    def _aspiration(self, p: int, o: int, mask: int, depth: int, guess: int,
                    order: list[int], width: int = 2) -> tuple[int, list[tuple[int, int]]]:
        # (A failed search's score also bounds the other side of the next window; narrowing
        # it so searched the same nodes on FFO #45, #48, #49, #51, #52 but 3 of 1.44 G. Not
        # done. Nor is a selective pass's failed search taken as its score, without a
        # re-search: the exact pass then started from a worse guess and failed itself, 1,828 M
        # nodes against 1,439 M on those five, #45 699 M against 361 M.)
        span = self._grid.span
        alpha, beta = max(-span, guess - width), min(span, guess + width)
        while True:
            score, scores = self._root(p, o, mask, depth, alpha, beta, order, False)
            if score <= alpha and alpha > -span:
                alpha = max(-span, score - width)
            elif score >= beta and beta < span:
                beta = min(span, score + width)
            else:
                return score, scores
            width *= 2

    def _pv(self, p: int, o: int, mask: int, first: int, depth: int) -> tuple[Move, ...]:
        """The principal variation (:func:`hasamigo.engine.line.principal_variation`)."""
        return principal_variation(self._grid, p, o, mask, first, depth, self._table_move,
                                   self._small_best)

    def _table_move(self, p: int, o: int) -> int:
        """The best move the table holds for ``(p, o)`` (-1: none)."""
        if self._grid.wide:
            return int(wide_search.table_move(*self._wide_tables(), *wide.split(p),
                                              *wide.split(o)))
        return int(hash_move(self._table, np.uint64(p), np.uint64(o))[0])

    def _evaluate_pair(self, p: int, o: int, mask: int) -> int:
        """The static evaluation of ``(p, o)`` on the grid of the search in progress."""
        if self._grid.wide:
            return int(wide_search.evaluate_entry(*wide.split(p), *wide.split(o),
                                                  geometry(mask), self._params))
        return int(evaluate_entry(np.uint64(p), np.uint64(o), np.uint64(mask), self._params))

    def _small_best(self, p: int, o: int, mask: int, legal: int) -> int:
        """Best move by exact solving when at most 7 squares are empty, else -1."""
        return small_best(self._grid, p, o, mask, legal, self._params, self._search_table,
                          self._date, SEARCH_FLAGS)
