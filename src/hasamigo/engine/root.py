"""The root of a search: principal variation search over the root moves, on one thread or
several.

:class:`~hasamigo.engine.core.Engine` drives it (iterative deepening, aspiration windows)
and hands it a :data:`ChildSearch`: one call of the compiled search on a child position,
which counts its nodes and raises when the stop flag or the node budget ends it. The
root itself knows no kernel, table or clock; it orders nothing (the moves come sorted)
and returns the scores it found.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable

import numpy as np

from hasamigo._kernels.search import child_position
from hasamigo.engine.grid import Grid

#: ``(player, opponent, mask, depth, alpha, beta) -> score`` of a child, from its mover
ChildSearch = Callable[[int, int, int, int, int, int], int]


class RootMarks:
    """The root moves the threads of one ABDADA search are searching now (the kernel marks
    the moves below the root in the table; the root's are here, in Python): a thread
    passes over a move after its first that another is searching, and comes back to it
    after its other moves, when the other's result is in the table."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._busy: dict[int, int] = {}  # move -> how many threads are searching it

    def take(self, sq: int, wait: bool) -> bool:
        """Mark ``sq`` as searched by one thread more, unless ``wait`` and another thread
        is searching it (then False: come back to it later)."""
        with self._lock:
            n = self._busy.get(sq, 0)
            if wait and n:
                return False
            self._busy[sq] = n + 1
            return True

    def release(self, sq: int) -> None:
        with self._lock:
            n = self._busy[sq] - 1
            if n:
                self._busy[sq] = n
            else:
                del self._busy[sq]


def search_root(kernel: ChildSearch, grid: Grid, threads: int, p: int, o: int, mask: int,
                depth: int, alpha: int, beta: int, order: list[int], every: bool,
                marks: RootMarks | None = None) -> tuple[int, list[tuple[int, int]]]:
    """PVS over the root moves in ``order``; ``every``: a full window for each move.
    ``marks``: the root moves other threads of an ABDADA search are searching; a move
    after the first that one of them is searching is deferred to the end (the scores are
    the same, the order of the pairs may differ).

    Returns the best score and ``(score, move)`` pairs (bounds for scouted moves)."""
    if threads > 1 and len(order) > 2 and not grid.wide:
        return _search_root_parallel(kernel, grid, threads, p, o, mask, depth, alpha, beta,
                                     order, every)
    if marks is None:
        return _pvs(kernel, grid, p, o, mask, depth, alpha, beta, order, every)
    with contextlib.closing(_marked(order, marks)) as moves:  # unmarked however it ends
        return _pvs(kernel, grid, p, o, mask, depth, alpha, beta, moves, every)


def _pvs(kernel: ChildSearch, grid: Grid, p: int, o: int, mask: int, depth: int, alpha: int,
         beta: int, moves: Iterable[int], every: bool) -> tuple[int, list[tuple[int, int]]]:
    """:func:`search_root`'s loop on one thread over ``moves``, the first with the window."""
    best = -grid.span - 1
    scores: list[tuple[int, int]] = []
    a = alpha
    for i, sq in enumerate(moves):
        cp, co = grid.child(p, o, sq)
        d = depth if sq == grid.pass_move else depth - 1
        if every:
            v = -kernel(int(cp), int(co), mask, d, -beta, -alpha)
        elif i == 0:
            v = -kernel(int(cp), int(co), mask, d, -beta, -a)
        else:
            v = -kernel(int(cp), int(co), mask, d, -a - 1, -a)
            if a < v < beta:
                v = -kernel(int(cp), int(co), mask, d, -beta, -v)
        scores.append((v, sq))
        if v > best:
            best = v
            if v > a:
                a = v
            if v >= beta and not every:
                break
    return best, scores


def _marked(order: list[int], marks: RootMarks) -> Generator[int, None, None]:
    """``order`` with the moves after the first that another thread is searching deferred
    (each tried again after the rest; searched when nothing else is left), each move
    marked in ``marks`` while the caller searches it (from one yield to the next)."""
    pending = deque(order)
    first = True
    skipped = 0  # deferred in a row: once every move left was, the next is searched anyway
    while pending:
        sq = pending.popleft()
        if not marks.take(sq, wait=not first and skipped <= len(pending)):
            pending.append(sq)
            skipped += 1
            continue
        first = False
        skipped = 0
        try:
            yield sq
        finally:
            marks.release(sq)


def _search_root_parallel(kernel: ChildSearch, grid: Grid, threads: int, p: int, o: int,
                          mask: int, depth: int, alpha: int, beta: int, order: list[int],
                          every: bool) -> tuple[int, list[tuple[int, int]]]:
    """:func:`search_root` on ``threads`` threads (see
    :class:`~hasamigo.engine.core.Engine`; ``every``: each move with the full window). The
    first move is searched with the window while the other threads test the next moves at
    once with null windows at the best score so far (``alpha`` until the first answers:
    with the aspiration window around the presearch's score, mostly the same tests it would
    have asked for). A test that fails high is searched again with the window. The best
    move's pair comes first, so that ties with bounds sort it ahead as one thread does."""
    d = depth - 1  # more than two moves: none is a pass
    first = order[0]
    lock = threading.Lock()
    state = {"a": alpha, "best": -grid.span - 1, "best_sq": first, "cut": False}
    scores: list[tuple[int, int]] = []
    waiting = iter(order)
    errors: list[BaseException] = []

    def work() -> None:
        while True:
            with lock:
                if state["cut"] or errors:
                    return
                sq = next(waiting, None)
                a = state["a"]
            if sq is None:
                return
            cp, co = child_position(np.uint64(p), np.uint64(o), sq)
            try:
                if every:
                    v = -kernel(int(cp), int(co), mask, d, -beta, -alpha)
                elif sq == first:
                    v = -kernel(int(cp), int(co), mask, d, -beta, -a)
                else:
                    v = -kernel(int(cp), int(co), mask, d, -a - 1, -a)
                    if a < v < beta:  # better than the best when it started
                        with lock:  # (v is a lower bound: tested from the best now)
                            low = max(v, state["a"])
                        if low < beta:
                            v = -kernel(int(cp), int(co), mask, d, -beta, -low)
            except BaseException as exc:  # handed to the root's thread
                with lock:
                    errors.append(exc)
                return
            with lock:
                scores.append((v, sq))
                if v > state["best"]:
                    state["best"], state["best_sq"] = v, sq
                if v > state["a"]:
                    state["a"] = v
                if v >= beta and not every:
                    state["cut"] = True

    helpers = [threading.Thread(target=work, daemon=True) for _ in range(1, threads)]
    for h in helpers:
        h.start()
    work()
    for h in helpers:
        h.join()
    if errors:
        raise errors[0]
    best, best_sq = int(state["best"]), int(state["best_sq"])
    pairs = [(s, m) for s, m in scores if m == best_sq][:1]
    return best, pairs + [(s, m) for s, m in scores if m != best_sq]
