"""Hints and the evaluation graph: engine searches on the search threads, never on the loop.

The search threads are shared with the programs' moves (:class:`GameService` takes
:attr:`AnalysisService.pool`); at most ``search_queue`` analysis requests wait for one,
more are refused as busy. Evaluations are cached by position, in a bounded cache.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from hasamigo.board import Board
from hasamigo.engine import Engine, Limit
from hasamigo.move import BLACK
from hasamigo.web.errors import Busy
from hasamigo.web.schemas import EvaluationsView, HintsView, HintView
from hasamigo.web.settings import Settings

TABLE_SIZE = 1 << 16  # 2 MB per engine: analysis is shallow
_T = TypeVar("_T")


class AnalysisService:
    """Engines (one per search thread at most) on a bounded pool of threads."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = ThreadPoolExecutor(max_workers=settings.search_workers,
                                       thread_name_prefix="hasamigo-search")
        self._engines: queue.SimpleQueue[Engine] = queue.SimpleQueue()
        self._evals: OrderedDict[tuple[str, int], int | None] = OrderedDict()
        self._evals_lock = threading.Lock()
        self._waiting = 0

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _engine(self) -> Engine:
        try:
            return self._engines.get_nowait()
        except queue.Empty:
            return Engine(table_size=TABLE_SIZE)

    async def _run(self, fn: object, *args: object) -> _T:
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
        engine = self._engine()
        try:
            lines = engine.hints(board, Limit(depth=self.settings.hint_depth))
        finally:
            self._engines.put(engine)
        return HintsView(
            side="black" if board.turn is BLACK else "white",
            depth=self.settings.hint_depth,
            hints=[HintView(move=board.move_name(line.move), score=line.score)
                   for line in lines if not line.move.is_pass],
        )

    async def hints(self, board: Board) -> HintsView:
        """Every legal move's score, in discs from the side to move."""
        if board.is_game_over() or board.must_pass():
            return HintsView(side="black" if board.turn is BLACK else "white",
                             depth=self.settings.hint_depth, hints=[])
        return await self._run(self._hints, board.copy())

    def _cached(self, key: tuple[str, int]) -> tuple[bool, int | None]:
        with self._evals_lock:
            if key in self._evals:
                self._evals.move_to_end(key)
                return True, self._evals[key]
        return False, None

    def _remember(self, key: tuple[str, int], score: int | None) -> None:
        with self._evals_lock:
            self._evals[key] = score
            while len(self._evals) > self.settings.analysis_cache_entries:
                self._evals.popitem(last=False)

    def _evaluations(self, board: Board) -> list[int | None]:
        root = board.root()
        moves = list(board.move_stack)
        depth = self.settings.eval_depth
        engine = self._engine()
        scores: list[int | None] = []
        try:
            for ply in range(len(moves) + 1):
                if ply:
                    root.push(moves[ply - 1])
                key = (f"{root.name}:{root.to_string()}", depth)
                found, score = self._cached(key)
                if not found:
                    outcome = root.outcome()
                    if outcome is not None:
                        score = outcome.disc_difference
                    else:
                        analysis = engine.analyse(root, Limit(depth=depth))
                        score = analysis.score if root.turn is BLACK else -analysis.score
                    self._remember(key, score)
                scores.append(score)
        finally:
            self._engines.put(engine)
        return scores

    async def evaluations(self, board: Board) -> EvaluationsView:
        """The evaluation after every ply (Black's point of view, discs)."""
        scores: list[int | None] = await self._run(self._evaluations, board.copy())
        return EvaluationsView(depth=self.settings.eval_depth, scores=scores)

    def warm(self) -> None:
        """Load (or compile) the engine kernels once."""
        board = Board()
        engine = self._engine()
        try:
            engine.analyse(board, Limit(depth=2))
            engine.hints(board, Limit(depth=1))
            near_end = Board("X" * 61 + "OO- X")
            engine.solve(near_end)
        finally:
            self._engines.put(engine)
