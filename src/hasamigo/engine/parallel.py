"""Search on several threads: ABDADA in the kernel (the engine's way), or Young Brothers
Wait over a top of the tree played in Python.

**ABDADA** (``Engine.parallel = "abdada"``, :func:`search_together`; after Weill's
*alpha-beta distribué avec droit d'aînesse*, in the simplified form with a separate mark
for the move being searched): every thread searches the whole root, its moves in the same
order, sharing the table; each root move is one call of the compiled search, which releases
the GIL. The root's moves after the first are marked in Python while a thread searches them
(:class:`~hasamigo.engine.root.RootMarks`), and a thread defers a move another is searching
to the end of its list, as the kernel does below (midgame depth 14 on two threads, 6 pairs:
0.92x the wall time without, 186-200 M nodes against 207-218 M, one thread's 190.7 M; FFO
#41, #45, #49, #52, 5 pairs: 0.95x, as many nodes; FFO #40-#59 on one thread 644.4 s, on two
369.8 s, 0.574x, 23.54 G nodes, +7.0 % against +9.6-14.2 % before). Inside the kernel
(:data:`hasamigo._kernels.search.USE_DEFER`) a thread marks the move it is searching, at a
node's second move or later, in the spare word of the move's table bucket; a thread coming
to a move another has marked searches the node's other moves first and that one last. So
the threads spread over the brothers of each node of the tree with no word between them but
the table (and the root's marks), and what one learns reaches the others there. A node's
first move is searched by every thread that gets there (the eldest's right: its score
bounds its brothers' tests), as in Young Brothers Wait. No Python runs inside the tree, so
nothing of the search is serialised by the GIL, however many threads. A search smaller than
:data:`TOGETHER_EMPTIES` empties or :data:`TOGETHER_DEPTH` plies stays on one thread.
Deferring changes the order of the moves, never a score; a mark lost to another position's
only changes the order again (a search, finished or stopped, takes its own away).

**Young Brothers Wait** (``"split"``, :class:`SplitSearch`): the top of the tree is played
here, in Python, and every subtree below it by one call of the compiled search, so the
threads run the kernel side by side. A node of the top searches its first move (the
*eldest brother*) first, on its own thread and with the window; only then are its other
moves (the *young brothers*) open to every thread, each a null-window test at the best
score so far, a test that fails high searched again with the window from there. A thread
with nothing to do takes the next young brother of the oldest open node; a thread whose
node waits for the brothers others are searching helps inside them meanwhile (so it is
never idle while the tree below its node has work, and never busy elsewhere when its node
could go on). A brother that reaches beta cuts its node: the searches still running under
it are stopped through their own stop flags and their results dropped.

The top is what is worth sharing: the nodes within :data:`SPLIT_PLIES` plies of the root,
and not smaller than exact nodes of :data:`SPLIT_EMPTIES` empties or midgame nodes
:data:`SPLIT_DEPTH` plies from the horizon (a kernel call under them is big enough to pay
for the Python around it, about 0.1 ms a node: with every exact node from 14 empties up
in Python, FFO #45 made 428 k kernel calls, twice the CPU time; from 20, 6 k). A search
smaller than that stays on one thread (:func:`worth_sharing`). The first line searched, the
eldest brothers' chain from the root, is shared :data:`SPLIT_CHAIN_EXTRA` plies deeper: while
it is searched no node has opened its brothers yet, so the other threads would wait (FFO #41,
#45, #49, #52 on two threads: idle 1.6-1.7 % of the time against 1.9-2.1 % without).
A node of the top is the node the kernel would have searched: the table's bounds first,
the probable cuts of a selective pass, the moves in the kernel's order, its result stored
in the table at the kernel's depth and confidence (:mod:`hasamigo._kernels.split`). Only
the stability and enhanced transposition cutoffs are left to the kernel calls below (one
node each, where the kernel tries them too).

Either way the table is shared without locks: each row keeps its position xor its data, so
a row torn by two threads writing it at once matches no position and reads as empty
(:mod:`hasamigo._kernels.hashtable`): a thread may miss what another learnt, never read a
wrong bound. Scores are therefore the same as on one thread; the nodes differ (the threads
see each other's rows at other moments) and so may the choice between moves of equal score.

Measured on a quiet 2-core VM against one thread, the same positions, one engine each
(``benchmarks/ffo.py``, ``benchmarks/search.py``; side by side in pairs, ``farm-bench``):

* FFO #40-#59 (``ffo.py --only-40-59``, the three runs back to back): one thread 646.3 s
  wall, 21.99 G nodes; ABDADA on two threads 361.3 s (0.559x, 1.79x faster), 24.10 G nodes
  (9.6 % search overhead), every score exact (#55: 299.3 s, 165.0 s); the split search
  360.8 s (0.558x), 22.78 G nodes (3.6 %), its threads idle 1.4 %. FFO #41, #45, #49,
  #52 in pairs: ABDADA 0.90x the split search's wall time (4 pairs).
* Midgame depth 14, the benchmark's 5 positions, full width: one thread 18.8 s, 190.7 M
  nodes; ABDADA about 10 s (0.53x), 210 M nodes; ABDADA 0.99x the split search (4 pairs).
  A selective depth 15, as the levels search (30 random positions, selectivity 3):
  ABDADA 0.97x the split search, the whole run (6 pairs). On a budget of 0.3 s a move
  (``benchmarks/timed_depth.py``, 30 positions) two threads searched 0.80 plies deeper
  than one by ABDADA, 0.46 by the split search. In 200 XOT games of ``engine:top@2``
  against ``engine:top`` at 9 s a side: 54.25 % (86-45-69, +30 Elo, 95 %: -13 to +73),
  0.68 plies deeper; the split search 51.25 % (+9 Elo), about half a ply deeper.

* The split search, FFO #40-#59 (an earlier day, the VM then 1.7 times slower): one
  thread 1,120.5 s wall, 21.99 G nodes; two threads 630.3 s (0.563x), 22.77 G nodes (3.5 %
  search overhead), the threads idle 1.5 %. Midgame depth 14, the benchmark's 5
  positions: 27.5 s, 190.7 M nodes; two threads 15.4 s (0.558x). With the midgame's top
  six plies deep and down to 5 plies from the horizon (as the exact one), two threads took
  30.8 s, *more* than one: the small kernel calls left the Python around them, serialised
  by the GIL, as the cost; hence :data:`SPLIT_MIDGAME_PLIES` and :data:`SPLIT_DEPTH`. Its
  top's helpers compiled to keep the GIL (no hand-over at each small call) changed nothing
  (a selective depth 15, 8 pairs: 1.00x).
* Lazy SMP (``"lazy"``: ABDADA without the marks, each helper's root moves rotated), FFO
  #45, #49, #52 (one thread 32.1 s, 846 M nodes): 21.8 s, 1,115 M nodes (31 % overhead),
  against 18.3 s split; the root's moves only (the engine before, ``"root"``) 26.6 s,
  874 M nodes.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hasamigo._kernels.hashtable import FULL_LEVEL
from hasamigo._kernels.search import (
    MPC_MIN_DEPTH,
    PASS_MOVE,
    PROBCUT_MIN_EMPTIES,
    USE_HASH,
    child_position,
    evaluate_entry,
)
from hasamigo._kernels.split import (
    ORDER_OUT,
    ORDER_SCRATCH,
    exact_cut_score,
    midgame_cut,
    node_order,
    node_probe,
    node_store,
)
from hasamigo.engine.grid import Grid, legal_8x8
from hasamigo.engine.root import RootMarks, search_root

#: the ways to share a search (``Engine.parallel``; the engine's is ``core.PARALLEL``)
WAYS = ("abdada", "split", "lazy", "root")
#: ABDADA (and lazy SMP) share a root of more empties than this (an exact solve) or
#: searched more plies than this (a midgame search); a smaller search stays on one thread
TOGETHER_EMPTIES = 15
TOGETHER_DEPTH = 8
#: exact nodes with this many empties or more are shared out between the threads
SPLIT_EMPTIES = 15
#: midgame nodes this many plies or more from the horizon are shared out
SPLIT_DEPTH = 8
#: ... and within this many plies of the root (exact; midgame: SPLIT_MIDGAME_PLIES)
SPLIT_PLIES = 6
SPLIT_MIDGAME_PLIES = 4
#: a selective midgame pass (probable cuts, as the levels play) shares coarser: most of its
#: kernel calls end at once in a probable cut, so below this depth the Python around them
#: costs more than the second thread gives (30 random positions, selectivity 3, two
#: threads against one: depth 13 0.69x the wall time, 14 0.75x, 15 0.82x, 17 0.55x; with
#: the full-width thresholds 1.08x, 1.08x, 0.90x, 0.64x)
SPLIT_SELECTIVE_DEPTH = 10
SPLIT_SELECTIVE_PLIES = 3
#: the eldest brothers' chain from the root (the first line searched, while the other
#: threads have nothing to take yet) is shared this many plies deeper
SPLIT_CHAIN_EXTRA = 3


def worth_sharing(empties: int, depth: int, probcut: int = 0, how: str = "split") -> bool:
    """Whether a root of ``empties`` empties searched ``depth`` plies (``probcut``: the
    pass's selective level) is worth the threads: by ``how`` ``"split"`` (or ``"root"``),
    whether it has a top to share (its children at least as big as the smallest node
    shared); by ``"abdada"`` or ``"lazy"``, whether it is longer than starting the helpers."""
    if how in ("abdada", "lazy"):
        return empties > TOGETHER_EMPTIES if depth >= empties else depth > TOGETHER_DEPTH
    if depth >= empties:
        return empties > SPLIT_EMPTIES
    return depth > (SPLIT_SELECTIVE_DEPTH if probcut > 0 else SPLIT_DEPTH)

#: ``(player, opponent, mask, depth, alpha, beta, stop, probcut) -> score`` of the kernel:
#: one call of the compiled search with its own stop flag; raises ``stopped`` when stopped
KernelCall = Callable[[int, int, int, int, int, int, np.ndarray, int], int]


@dataclass(eq=False)
class _Task:
    """A search a thread runs for a node's young brother (``split`` None: the root's)."""

    split: _Split | None
    parent: _Task | None
    stop: np.ndarray

    def under(self, split: _Split) -> bool:
        """Whether this task searches inside ``split``'s node."""
        t: _Task | None = self
        while t is not None:
            if t.split is split:
                return True
            t = t.parent
        return False


@dataclass(eq=False)
class _Split:
    """A node whose eldest brother is searched: its other moves wait for threads."""

    p: int
    o: int
    depth: int  # of the node (a pass costs none)
    beta: int
    task: _Task  # the task of the thread that owns the node
    moves: list[int]
    alpha: int  # the best so far, raised as the brothers answer
    best: int
    best_move: int
    every: bool = False  # the root with several lines: each move with the window
    alpha0: int = 0
    taken: int = 0
    running: int = 0
    cut: bool = False
    scores: list[tuple[int, int]] = field(default_factory=list)


class SplitSearch:
    """One parallel search of a root on ``threads`` threads (see the module docstring).

    ``kernel`` searches a subtree (its own stop flag; it raises ``stopped``); ``stop`` is
    the engine's flag, which the root's own searches poll and :meth:`stop_all` hands on
    to the others; ``probcut`` the selective level of the pass (0: none), ``date`` the
    table's generation, ``flags`` the kernel's."""

    def __init__(self, kernel: KernelCall, stopped: type[Exception], threads: int, mask: int,
                 table: np.ndarray, params: np.ndarray, flags: int, date: int, probcut: int,
                 stop: np.ndarray) -> None:
        self._kernel = kernel
        self._stopped = stopped
        self._threads = threads
        self._mask = mask
        self._table = table
        self._params = params
        self._flags = flags
        self._hash = (flags & USE_HASH) != 0
        self._date = date
        self._probcut = probcut
        self._level = FULL_LEVEL if probcut <= 0 else probcut - 1
        self._stop = stop
        self._cv = threading.Condition()
        self._open: list[_Split] = []
        self._tasks: set[_Task] = set()
        self._done = False
        self._error: BaseException | None = None
        self.nodes = 0  # nodes played here (the kernel counts its own)
        self._min_empties = SPLIT_EMPTIES  # the smallest nodes shared (see root())
        self._min_depth = SPLIT_DEPTH
        self.idle = 0.0  # seconds the threads waited for work (all of them, summed)

    # ---- the root -------------------------------------------------------------------
    def root(self, p: int, o: int, depth: int, alpha: int, beta: int, order: list[int],
             every: bool) -> tuple[int, list[tuple[int, int]]]:
        """PVS over the root moves in ``order`` on the threads; ``every``: each move with
        the full window. Returns the best score and ``(score, move)`` pairs (bounds for
        the moves tested), the best move's first."""
        ne = (self._mask & ~(p | o)).bit_count()
        self._min_empties = max(SPLIT_EMPTIES, ne - SPLIT_PLIES)
        if self._probcut > 0:
            self._min_depth = max(SPLIT_SELECTIVE_DEPTH, depth - SPLIT_SELECTIVE_PLIES)
        else:
            self._min_depth = max(SPLIT_DEPTH, depth - SPLIT_MIDGAME_PLIES)
        task = _Task(None, None, self._stop)
        helpers = [threading.Thread(target=self._helper, daemon=True)
                   for _ in range(1, self._threads)]
        for h in helpers:
            h.start()
        try:
            if every:
                split = _Split(p, o, depth, beta, task, list(order), alpha, -1000, order[0],
                               every=True, alpha0=alpha)
            else:
                first = order[0]
                v = -self._child(p, o, first, depth, -beta, -alpha, task, chain=True)
                split = _Split(p, o, depth, beta, task, order[1:], max(alpha, v), v, first)
                split.scores.append((v, first))
            if split.moves and (every or split.best < beta):
                self._share(split, task)
        finally:
            with self._cv:
                self._done = True
                self._cv.notify_all()
            for h in helpers:
                h.join()
        if self._error is not None:
            raise self._error
        if self._stop[0]:
            raise self._stopped
        best, best_sq = split.best, split.best_move
        pairs = [(s, m) for s, m in split.scores if m == best_sq][:1]
        return best, pairs + [(s, m) for s, m in split.scores if m != best_sq]

    def stop_all(self) -> None:
        """Stop every search running (the engine's flag is set already)."""
        with self._cv:
            for t in self._tasks:
                t.stop[0] = 1

    # ---- a node ---------------------------------------------------------------------
    def _child(self, p: int, o: int, sq: int, depth: int, alpha: int, beta: int,
               task: _Task, *, chain: bool = False) -> int:
        """The score of the child after ``sq`` (from its side), searched ``depth - 1``
        plies (a pass: ``depth``) in ``(alpha, beta)``."""
        cp, co = child_position(np.uint64(p), np.uint64(o), sq)
        d = depth if sq == PASS_MOVE else depth - 1
        return self._node(int(cp), int(co), d, alpha, beta, task, chain)

    def _node(self, p: int, o: int, depth: int, alpha: int, beta: int, task: _Task,
              chain: bool = False) -> int:
        """``chain``: on the eldest brothers' chain from the root (shared deeper)."""
        if task.stop[0]:
            raise self._stopped
        mask = self._mask
        ne = (mask & ~(p | o)).bit_count()
        exact = depth >= ne
        deeper = SPLIT_CHAIN_EXTRA if chain else 0
        if (ne < self._min_empties - deeper) if exact else (depth < self._min_depth - deeper):
            return self._kernel(p, o, mask, depth, alpha, beta, task.stop, self._probcut)
        d = ne if exact else depth
        moves = legal_8x8(p, o, mask)
        if not moves:
            if not legal_8x8(o, p, mask):  # the end: the kernel counts it
                return self._kernel(p, o, mask, d, alpha, beta, task.stop, self._probcut)
            return -self._node(o, p, d, -beta, -alpha, task, chain)
        self.nodes += 1
        up, uo, um = np.uint64(p), np.uint64(o), np.uint64(mask)
        hmove = -1
        if self._hash:
            hmove, lo, hi, hd, hl = (int(x) for x in node_probe(self._table, up, uo))
            if hd >= d and hl >= self._level:
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
        pc = self._probcut
        if pc > 0 and exact and ne >= PROBCUT_MIN_EMPTIES:
            vs, margin = (int(x) for x in exact_cut_score(up, uo, um, pc, self._params))
            if vs - margin >= beta:
                return beta
            if vs + margin <= alpha:
                return alpha
        elif pc > 0 and not exact and beta == alpha + 1 and d >= MPC_MIN_DEPTH:
            cut = self._midgame_cut(p, o, ne, d, alpha, beta, task)
            if cut is not None:
                return cut
        out = np.empty(ORDER_OUT, dtype=np.int64)
        n = int(node_order(up, uo, um, d, hmove, self._table, self._params, self._flags, out,
                           np.empty(ORDER_SCRATCH, dtype=np.uint64)))
        order = [int(x) for x in out[:n]]
        alpha0 = alpha
        best = -self._child(p, o, order[0], d, -beta, -alpha, task, chain=chain)
        best_move = order[0]
        if best < beta and n > 1:
            split = _Split(p, o, d, beta, task, order[1:], max(alpha, best), best, best_move)
            self._share(split, task)
            best, best_move = split.best, split.best_move
        if self._hash:
            node_store(self._table, up, uo, d, self._level, self._date, alpha0, beta, best,
                       best_move)
        return best

    def _midgame_cut(self, p: int, o: int, ne: int, d: int, alpha: int, beta: int,
                     task: _Task) -> int | None:
        """The kernel's midgame probable cut at a null-window node: the bound, if a
        shallow search puts the node beyond the window by the margin; else None. (The
        shallow search runs without probable cuts, as the kernel's tests do not nest.)"""
        margin, ds = (int(x) for x in midgame_cut(self._probcut, ne, d))
        ev = int(evaluate_entry(np.uint64(p), np.uint64(o), np.uint64(self._mask),
                                self._params))
        if ev >= beta and beta + margin <= 64:
            bound, high = beta + margin, True
        elif ev <= alpha and alpha - margin >= -64:
            bound, high = alpha - margin, False
        else:
            return None
        if ds == 0:
            v = ev
        elif high:
            v = self._kernel(p, o, self._mask, ds, bound - 1, bound, task.stop, 0)
        else:
            v = self._kernel(p, o, self._mask, ds, bound, bound + 1, task.stop, 0)
        if (v >= bound) if high else (v <= bound):
            return beta if high else alpha
        return None

    # ---- sharing a node's young brothers ------------------------------------------------
    def _share(self, split: _Split, task: _Task) -> None:
        """Search ``split``'s moves on every thread that comes: this one takes them too,
        then helps under the node until its last brother is answered."""
        cv = self._cv
        with cv:
            self._open.append(split)
            cv.notify_all()
            try:
                while True:
                    if self._error is not None or task.stop[0]:
                        if split.running == 0:
                            break
                        cv.wait()
                        continue
                    target = split if self._has_work(split) else self._work(split)
                    if target is not None:
                        self._run(target)
                    elif split.running == 0:
                        break
                    else:
                        self._wait()
            finally:
                self._open.remove(split)
        if self._error is not None or task.stop[0]:
            raise self._stopped

    def _wait(self) -> None:
        """Wait (the lock held) until the work changes, the wait counted as idle time."""
        t0 = time.perf_counter()
        self._cv.wait()
        self.idle += time.perf_counter() - t0

    def _has_work(self, split: _Split) -> bool:
        return split.taken < len(split.moves) and not split.cut and not split.task.stop[0]

    def _work(self, under: _Split | None) -> _Split | None:
        """The oldest open node with a brother to take (inside ``under``'s node if
        given)."""
        for s in self._open:
            if self._has_work(s) and (under is None or s is under or s.task.under(under)):
                return s
        return None

    def _helper(self) -> None:
        cv = self._cv
        with cv:
            while not self._done:
                target = None if self._error is not None else self._work(None)
                if target is None:
                    self._wait()
                else:
                    self._run(target)

    def _run(self, split: _Split) -> None:
        """Take ``split``'s next move and search it (called and returning with the lock
        held; released while searching)."""
        sq = split.moves[split.taken]
        split.taken += 1
        split.running += 1
        stop = np.zeros(1, dtype=np.int64)
        stop[0] = self._stop[0]
        task = _Task(split, split.task, stop)
        self._tasks.add(task)
        a = split.alpha
        v: int | None = None
        error: BaseException | None = None
        self._cv.release()
        try:
            v = self._brother(split, sq, a, task)
        except self._stopped:
            v = None
        except BaseException as exc:  # handed to the root's thread
            error = exc
        finally:
            self._cv.acquire()
        self._tasks.discard(task)
        split.running -= 1
        if error is not None and self._error is None:
            self._error = error
            for t in self._tasks:
                t.stop[0] = 1
        if v is not None and not split.cut:
            split.scores.append((v, sq))
            if v > split.best:
                split.best, split.best_move = v, sq
            if v > split.alpha:
                split.alpha = v
            if v >= split.beta and not split.every:
                split.cut = True
                for t in self._tasks:
                    if t.under(split):
                        t.stop[0] = 1
        self._cv.notify_all()

    def _brother(self, split: _Split, sq: int, a: int, task: _Task) -> int:
        """A young brother's score: a null-window test at ``a``, searched again with the
        window if it fails high (from the best now, which other threads may have raised);
        with ``every``, one search with the node's window."""
        p, o, depth, beta = split.p, split.o, split.depth, split.beta
        if split.every:
            return -self._child(p, o, sq, depth, -beta, -split.alpha0, task)
        v = -self._child(p, o, sq, depth, -a - 1, -a, task)
        if a < v < beta:
            low = max(v, split.alpha)
            if low < beta:
                v = -self._child(p, o, sq, depth, -beta, -low, task)
        return v


def search_together(kernel: Callable[..., int], stopped: type[Exception], grid: Grid,
                    threads: int, p: int, o: int, mask: int, depth: int, alpha: int,
                    beta: int, order: list[int], every: bool, stop: np.ndarray,
                    stops: list[np.ndarray], *, turn: bool
                    ) -> tuple[int, list[tuple[int, int]]]:
    """Every thread searches the whole root, sharing the table: ABDADA (the moves in the
    same order, ``kernel`` deferring a move another thread is searching: the engine calls
    it with ``USE_DEFER``) or, with ``turn``, lazy SMP (each helper's root moves in another
    order, rotated by its number; see the module docstring). This thread's answer is the
    answer, and the others stop when it has it. ``kernel`` is
    :data:`~hasamigo.engine.root.ChildSearch` with an optional stop flag last; the
    helpers' flags are kept in ``stops`` while they run (for the engine's stop)."""
    helpers = []
    flags = []
    marks = None if turn else RootMarks()  # ABDADA's root moves being searched
    for k in range(1, threads):
        flag = np.zeros(1, dtype=np.int64)
        flag[0] = stop[0]
        flags.append(flag)
        turned = order[k % len(order):] + order[:k % len(order)] if turn else order

        def run(flag: np.ndarray = flag, turned: list[int] = turned) -> None:
            def child(cp: int, co: int, m: int, d: int, a: int, b: int) -> int:
                return kernel(cp, co, m, d, a, b, flag)
            with contextlib.suppress(stopped):
                search_root(child, grid, 1, p, o, mask, depth, alpha, beta, turned, every,
                            marks)
        helpers.append(threading.Thread(target=run, daemon=True))
    stops.extend(flags)
    for h in helpers:
        h.start()
    try:
        return search_root(kernel, grid, 1, p, o, mask, depth, alpha, beta, order, every,
                           marks)
    finally:
        for flag in flags:
            flag[0] = 1
        for h in helpers:
            h.join()
        stops.clear()
