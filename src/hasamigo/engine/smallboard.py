"""Small boards solved from their start, with no stored knowledge (``hasamigo solve-board``).

The exact score comes from null-window tests only (MTD(f) from a guess of 0: each test
asks "is the score at least ``beta``?" of :func:`~hasamigo._kernels.smallboard.solve`,
and the kernel's table merges the bounds they leave), because a small window is what makes
an exact search cheap (Feinstein, 1993: "it helped a lot to guess that the results would
be close"). Each test is shared out on ``threads`` threads (the kernel releases the GIL;
all share one table): the first child of a node is searched first, then the others
together (young brothers wait), down :data:`SPLIT_PLIES` plies (one thread: in turn); children
that are the same position turned (:func:`~hasamigo.engine.symmetry.canonical`: the small boards are
centred in the 8×8 grid, so its eight symmetries are theirs) are searched once.

>>> from hasamigo.variants import Board4x4
>>> result = solve_board(Board4x4, threads=1)
>>> result.outcome.black, result.outcome.white, len(result.line) > 0
(3, 13, True)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import numpy as np

from hasamigo._kernels.moves import legal_moves_mask
from hasamigo._kernels.search import child_position
from hasamigo._kernels.smallboard import ABORTED, CTL_SIZE, NODES, PASS_MOVE, table_new, table_probe
from hasamigo._kernels.smallboard import solve as _solve_kernel
from hasamigo.board import Board, Outcome
from hasamigo.engine.symmetry import canonical
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.move import PASS, Move
from hasamigo.notation.transcript import write_transcript
from hasamigo.squares import bits
from hasamigo.variants import find_variant

#: the boards ``solve-board`` solves (names of :mod:`hasamigo.variants`)
SOLVABLE = ("4x4", "6x6")
TABLE_ROWS = 1 << 22  # 96 MB; 6×6 fills it well
SMALL_TABLE_ROWS = 1 << 12  # enough for 4×4
#: plies below each test's root over which its children are shared out between threads
SPLIT_PLIES = 6
#: a node with fewer empties than this is one kernel call (not worth a thread)
SPLIT_MIN_EMPTIES = 16
#: square values of the shallow searches that order the kernel's moves at many empties
CORNER_WEIGHT, X_WEIGHT, C_WEIGHT, EDGE_WEIGHT = 20, -8, -3, 2

Progress = Callable[[str], None]

#: One perfect-play line of each solved board, as :func:`solve_board` found it (6×6: 5
#: minutes on 2 cores), kept for the pages that show it; a test replays each to its value.
SOLVED_LINES = {
    "4x4": "b1a1a2c1d4a3d1b4a4c4",
    "6x6": "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4a3a5a6a1b5a2c6e5e6passf1e1f5f6",
}


def solvable(name: str) -> type[Board]:
    """The variant ``name`` if ``solve-board`` solves it, else
    :class:`~hasamigo.errors.InvalidOptionError` naming those it solves."""
    try:
        variant = find_variant(name)
    except InvalidOptionError:
        variant = None
    if variant is None or variant.name not in SOLVABLE:
        raise InvalidOptionError(f"solve-board solves {' and '.join(SOLVABLE)}, "
                                 f"not {shown(name)}")
    return variant


@dataclass(frozen=True, slots=True)
class BoardSolution:
    """The perfect-play result of a board from its start: the official ``outcome``, one
    perfect ``line`` (a transcript of it: :meth:`transcript`), the kernel's ``nodes``, the
    CPU ``seconds`` of every thread and the ``wall`` seconds."""

    variant: type[Board]
    outcome: Outcome
    line: tuple[Move, ...]
    nodes: int
    seconds: float
    wall: float
    threads: int

    def transcript(self) -> str:
        return write_transcript(self.line, self.variant, passes=True)

    def to_json(self) -> dict[str, Any]:
        return {"board": self.variant.name, "black": self.outcome.black,
                "white": self.outcome.white, "line": self.transcript(), "nodes": self.nodes,
                "seconds": round(self.seconds, 3)}


def _weights(variant: type[Board]) -> np.ndarray:
    playable = variant.playable()
    weights = np.zeros(64, dtype=np.int64)
    last = variant.rows - 1
    for sq in bits(playable):
        r, c = divmod(sq, 8)
        if r - variant.top in (0, last) or c - variant.left in (0, last):
            weights[sq] = EDGE_WEIGHT
    for corner in variant.corners():
        weights[corner] = CORNER_WEIGHT
        r, c = divmod(corner, 8)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                sq = (r + dr) * 8 + c + dc
                if (dr or dc) and 0 <= r + dr < 8 and 0 <= c + dc < 8 and playable >> sq & 1:
                    weights[sq] = X_WEIGHT if dr and dc else C_WEIGHT
    return weights


class SmallSolver:
    """Exact scores of positions on a small board (side to move, official count), on
    ``threads`` threads sharing one table that outlives each call."""

    def __init__(self, variant: type[Board], *, threads: int = 2,
                 table_rows: int = TABLE_ROWS) -> None:
        if not (variant.rows == variant.cols and 2 * variant.top + variant.rows == 8
                and variant.top == variant.left and not variant.cut):
            raise InvalidOptionError(f"{variant.title} is not a square board centred in 8×8")
        if not (isinstance(threads, int) and 1 <= threads <= 64):
            raise InvalidOptionError(f"threads must be 1 to 64, not {shown(threads)}")
        self.variant = variant
        self.threads = threads
        self._mask = np.uint64(variant.playable())
        self._corners = np.uint64(sum(1 << sq for sq in variant.corners()))
        self._weights = _weights(variant)
        self._table = table_new(table_rows)
        self._pool = ThreadPoolExecutor(threads) if threads > 1 else None
        self._lock = threading.Lock()
        self.nodes = 0

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()

    # ---- kernel calls -----------------------------------------------------------
    def _kernel(self, p: int, o: int, alpha: int, beta: int,
                stop: np.ndarray | None = None) -> int | None:
        """The kernel's fail-soft score, or None when ``stop`` ended it."""
        ctl = np.zeros(CTL_SIZE, dtype=np.int64)
        flag = np.zeros(1, dtype=np.int64) if stop is None else stop
        v = _solve_kernel(np.uint64(p), np.uint64(o), self._mask, self._corners,
                          self._weights, alpha, beta, self._table, flag, ctl)
        with self._lock:
            self.nodes += int(ctl[NODES])
        return None if ctl[ABORTED] else int(v)

    def _children(self, p: int, o: int) -> list[tuple[int, int, int]]:
        """:meth:`_all_children`, one of each set of children that are one position turned."""
        out, seen = [], set()
        for sq, cp, co in self._all_children(p, o):
            kp, ko, _ = canonical(np.array([cp], dtype=np.uint64),
                                  np.array([co], dtype=np.uint64))
            key = (int(kp[0]), int(ko[0]))
            if key not in seen:
                seen.add(key)
                out.append((sq, cp, co))
        return out

    # ---- null-window tests ------------------------------------------------------
    def test(self, p: int, o: int, beta: int, plies: int = SPLIT_PLIES) -> int:
        """Fail-soft answer to "is the score of ``(p, o)`` at least ``beta``?" (the window
        ``beta - 1, beta``): at least ``beta`` if so, below it if not."""
        empties = (int(self._mask) & ~(p | o)).bit_count()
        children = self._children(p, o) if plies > 0 else []
        if len(children) == 1:  # a pass, or moves that are one move turned
            _, cp, co = children[0]
            return -self.test(cp, co, 1 - beta, plies)
        if empties < SPLIT_MIN_EMPTIES or not children:
            v = self._kernel(p, o, beta - 1, beta)
            assert v is not None  # nothing stops it
            return v
        _, cp, co = children[0]
        best = -self.test(cp, co, 1 - beta, plies - 1)
        if best >= beta:
            return best
        if self._pool is None:  # one thread: the others in turn
            for _, cp, co in children[1:]:
                best = max(best, -self.test(cp, co, 1 - beta, plies - 1))
                if best >= beta:
                    break
            return best
        stops = [np.zeros(1, dtype=np.int64) for _ in children[1:]]
        futures: dict[Future[int | None], int] = {
            self._pool.submit(self._kernel, cp, co, -beta, 1 - beta, stop): i
            for i, ((_, cp, co), stop) in enumerate(zip(children[1:], stops, strict=True))}
        waiting = set(futures)
        while waiting:
            done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            for future in done:
                v = future.result()
                if v is None:
                    continue
                best = max(best, -v)
            if best >= beta:
                for stop in stops:
                    stop[0] = 1
                wait(waiting)
                break
        return best

    def value(self, p: int, o: int, *, guess: int = 0, progress: Progress | None = None) -> int:
        """The exact score of ``(p, o)`` by null-window tests (MTD(f)) from ``guess``."""
        lower, upper, g = -64, 64, guess
        while lower < upper:
            beta = g if g > lower else lower + 1
            if progress is not None:
                progress(f"is the score at least {beta:+d}? (known {lower:+d}..{upper:+d})")
            g = self.test(p, o, beta)
            if g >= beta:
                lower = g
            else:
                upper = g
        return g

    def line(self, p: int, o: int, score: int) -> list[int]:
        """A perfect line from ``(p, o)`` whose score is ``score``: at each position the
        first move whose child holds the score (one null-window test each)."""
        squares: list[int] = []
        while True:
            children = self._all_children(p, o)
            if not children:
                return squares
            chosen = next((c for c in children if len(children) == 1
                           or self.test(c[1], c[2], 1 - score, 0) <= -score), None)
            if chosen is None:  # pragma: no cover - the score was not exact
                raise RuntimeError("no move holds the score: the solve was wrong")
            sq, p, o = chosen
            squares.append(sq)
            score = -score

    def _all_children(self, p: int, o: int) -> list[tuple[int, int, int]]:
        """``(move, child p, child o)`` of every move, in the kernel's order."""
        legal = int(legal_moves_mask(np.uint64(p), np.uint64(o), self._mask))
        if not legal:
            if int(legal_moves_mask(np.uint64(o), np.uint64(p), self._mask)):
                return [(PASS_MOVE, o, p)]
            return []
        first = int(table_probe(self._table, np.uint64(p), np.uint64(o))[2])
        out = []
        for sq in bits(legal):
            cp, co = (int(x) for x in child_position(np.uint64(p), np.uint64(o), sq))
            out.append((sq, cp, co))
        # as the kernel orders them: the table's move, then the fewest replies first
        # (corner replies twice)
        corners = int(self._corners)

        def key(child: tuple[int, int, int]) -> tuple[bool, int]:
            replies = int(legal_moves_mask(np.uint64(child[1]), np.uint64(child[2]),
                                           self._mask))
            return child[0] != first, replies.bit_count() + (replies & corners).bit_count()

        return sorted(out, key=key)


def solver_for(variant: type[Board], *, threads: int = 2) -> SmallSolver:
    """A solver sized for solving ``variant`` from its start."""
    rows = TABLE_ROWS if variant.square_count() > 16 else SMALL_TABLE_ROWS
    return SmallSolver(variant, threads=threads, table_rows=rows)


def solve_board(variant: type[Board], *, threads: int = 2, progress: Progress | None = None,
                solver: SmallSolver | None = None) -> BoardSolution:
    """Solve ``variant`` (a board of :data:`SOLVABLE`) from its start, from scratch (or
    with ``solver``, which is left open with what it learnt: see
    :func:`hasamigo.engine.perfect.build_table`)."""
    if variant.name not in SOLVABLE:
        raise InvalidOptionError(f"solve-board solves {' and '.join(SOLVABLE)}, "
                                 f"not {shown(variant.name)}")
    board = variant()
    own = solver is None
    if solver is None:
        solver = solver_for(variant, threads=threads)
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        p, o = board.pair()
        score = solver.value(p, o, progress=progress)
        if progress is not None:
            progress("the perfect line")
        squares = solver.line(p, o, score)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        if own:
            solver.close()
    line = tuple(PASS if sq == PASS_MOVE else Move(sq) for sq in squares)
    for move in line:
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.disc_difference == score
    return BoardSolution(variant, outcome, line, solver.nodes, cpu, wall, solver.threads)
