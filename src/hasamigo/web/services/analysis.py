"""Hints and the evaluation graph: engine searches on the search threads, never on the loop.

The search threads are shared with the programs' moves (:class:`GameService` takes
:attr:`AnalysisService.pool`); at most ``search_queue`` analysis requests wait for one,
more are refused as busy. Evaluations are cached by position, in a bounded cache.

Each analysis searches on the cores the settings give the engine (``engine_threads``),
one analysis at a time: those that start while one holds them search on one thread
(:meth:`AnalysisService.engine`), so that the pool's threads, each searching on many,
never crowd the cores (see :class:`~hasamigo.web.settings.Settings`).

:class:`~hasamigo.web.services.warmup.KernelWarmup` gets the kernels ready after
start-up, in the background: the pages are served at once; hints and evaluations are
refused as busy, with the estimate of the time left, until the engine's kernels for the
board are loaded (the 10-column grid's when one is first analysed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from hasamigo.analysis.puzzles import Puzzle, Verdict, judge
from hasamigo.board import Board
from hasamigo.engine import Limit
from hasamigo.engine.book import default_book
from hasamigo.engine.core import Engine, MoveScore
from hasamigo.engine.pool import EnginePool, EvaluationCache, evaluate_line
from hasamigo.move import BLACK
from hasamigo.web.errors import Busy
from hasamigo.web.schemas import BookMoveView, EvaluationsView, HintsView, HintView
from hasamigo.web.services.warmup import START_GROUPS, KernelWarmup
from hasamigo.web.settings import Settings

log = logging.getLogger(__name__)

TABLE_SIZE = 1 << 16  # 2 MB per engine: analysis is shallow
_T = TypeVar("_T")
#: what a refused hint says while the engine's kernels are being prepared (then the
#: estimate of the time left)
WARMING = "the engine is being prepared (first run only: its kernels are compiling)"
#: the kernel groups the server makes ready before serving (``hasamigo serve --workers``;
#: the others load when first needed: :mod:`hasamigo.web.services.warmup`)
KERNEL_GROUPS = START_GROUPS


def analysis_groups(board: Board | type[Board]) -> tuple[str, ...]:
    """The kernel groups an analysis of ``board`` needs: the engine's on its grid (none
    beyond the board's on rules the kernels do not know: the search goes through the
    Board API there)."""
    from hasamigo.engine.players.strong import EnginePlayer

    variant = board if isinstance(board, type) else type(board)
    return tuple(sorted(EnginePlayer.kernel_groups(variant)[0]))


def waiting_message(warmup: KernelWarmup, groups: tuple[str, ...]) -> str:
    """:data:`WARMING` with the estimate of the time left for ``groups``."""
    left = [warmup.progress(g)[1] for g in groups if not warmup.is_ready(g)]
    known = [s for s in left if s is not None]
    if not known:
        return WARMING
    seconds = max(known)
    about = f"{seconds / 60:.0f} min" if seconds >= 90 else f"{max(1.0, seconds):.0f} s"
    return f"{WARMING}: about {about} left; GET /api/status says how far it has come"


def _per_square(board: Board, lines: list[MoveScore]) -> list[HintView]:
    """A hint per square, best first: under a 挟み碁 flip rule a square's several moves
    (one per choice of discs) are shown by the best of them."""
    seen: set[int] = set()
    hints = []
    for line in lines:
        sq = line.move.square
        if sq is None or sq in seen:
            continue
        seen.add(sq)
        hints.append(HintView(move=board.square_name(sq), score=line.score))
    return hints


class AnalysisService:
    """Engines (one per search thread at most: :class:`EnginePool`) on a bounded pool of
    threads, one of them at a time searching on the engine's cores (``engine_threads``)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: set by the app's lifespan; ``None`` (tests without one): no waiting
        self.warmup: KernelWarmup | None = None
        self.pool = ThreadPoolExecutor(max_workers=settings.search_workers,
                                       thread_name_prefix="hasamigo-search")
        self.engines = EnginePool(table_size=TABLE_SIZE)
        self._evals = EvaluationCache(settings.analysis_cache_entries)
        self._waiting = 0
        #: held by the analysis searching on the engine's cores
        self._cores = threading.Lock()

    @contextlib.contextmanager
    def engine(self) -> Iterator[Engine]:
        """An engine of the pool for this thread alone until the block ends, on
        ``engine_threads`` threads if no other analysis has them, else on one."""
        with self.engines.engine() as engine:
            many = self._cores.acquire(blocking=False)
            try:
                engine.set_threads(self.settings.engine_threads if many else 1)
                yield engine
            finally:
                if many:
                    self._cores.release()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, fn: object, *args: object,
                   groups: tuple[str, ...] = ("engine",)) -> _T:
        warmup = self.warmup
        if warmup is not None and not warmup.is_ready(*groups):
            warmup.request(*groups)  # the 10-column grid's, on its first analysis
            raise Busy(waiting_message(warmup, groups))
        if self._waiting >= self.settings.search_queue:
            raise Busy("the analysis queue is full: try again in a moment")
        self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            result: _T = await loop.run_in_executor(self.pool, fn, *args)  # type: ignore[arg-type]
            return result
        finally:
            self._waiting -= 1

    def _hints(self, board: Board) -> HintsView:
        with self.engine() as engine:
            lines = engine.hints(board, Limit(depth=self.settings.hint_depth))
        book = default_book()
        return HintsView(
            side=board.turn.value,
            depth=self.settings.hint_depth,
            hints=_per_square(board, lines),
            book=[] if book is None else [
                BookMoveView(move=board.move_name(m.move), value=m.value, games=m.games,
                             in_book=m.in_book) for m in book.moves(board)],
        )

    async def hints(self, board: Board) -> HintsView:
        """Every legal move's score, in discs from the side to move."""
        if board.is_game_over() or board.must_pass():
            return HintsView(side=board.turn.value,
                             depth=self.settings.hint_depth, hints=[])
        return await self._run(self._hints, board.copy(), groups=analysis_groups(board))

    def _judge(self, puzzle: Puzzle, move: str) -> Verdict:
        with self.engine() as engine:
            return judge(puzzle, move, engine)

    async def judge(self, puzzle: Puzzle, move: str) -> Verdict:
        """A puzzle's answer judged by the exact solver (see
        :mod:`hasamigo.analysis.puzzles`), on the search threads."""
        return await self._run(self._judge, puzzle, move)

    def _evaluations(self, board: Board) -> list[int | None]:
        with self.engine() as engine:
            evaluations = evaluate_line(board, self.settings.eval_depth, BLACK, engine=engine,
                                        cache=self._evals)
        return [e.score for e in evaluations]

    async def evaluations(self, board: Board) -> EvaluationsView:
        """The evaluation after every ply (Black's point of view, discs)."""
        scores: list[int | None] = await self._run(self._evaluations, board.copy(),
                                                   groups=analysis_groups(board))
        return EvaluationsView(depth=self.settings.eval_depth, scores=scores)

    def warm(self) -> None:
        """Load (or compile) the engine kernels once."""
        board = Board()
        with self.engines.engine() as engine:
            engine.analyse(board, Limit(depth=2))
            engine.hints(board, Limit(depth=1))
            near_end = Board("X" * 61 + "OO- X")
            engine.solve(near_end)


def compile_kernels() -> None:
    """Compile (or load) the server's start-up kernels in this process."""
    from hasamigo._kernels.warm import warm

    warm(*KERNEL_GROUPS)
