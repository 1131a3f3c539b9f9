"""Hints and the evaluation graph: engine searches in worker threads, never on the loop."""

from __future__ import annotations

import asyncio
import queue

from hasamigo.board import Board
from hasamigo.engine import Engine, Limit
from hasamigo.move import BLACK
from hasamigo.web.schemas import EvaluationsView, HintsView, HintView
from hasamigo.web.settings import Settings

TABLE_SIZE = 1 << 16  # 2 MB per engine: analysis is shallow


class AnalysisService:
    """A small pool of engines (one per worker), so searches run side by side."""

    def __init__(self, settings: Settings, workers: int = 4) -> None:
        self.settings = settings
        self._pool: queue.SimpleQueue[Engine] = queue.SimpleQueue()
        self._workers = workers
        self._made = 0
        self._evals: dict[tuple[str, str, int], int | None] = {}

    def _engine(self) -> Engine:
        try:
            return self._pool.get_nowait()
        except queue.Empty:
            self._made += 1
            return Engine(table_size=TABLE_SIZE)

    def _hints(self, board: Board) -> HintsView:
        engine = self._engine()
        try:
            lines = engine.hints(board, Limit(depth=self.settings.hint_depth))
        finally:
            self._pool.put(engine)
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
        return await asyncio.to_thread(self._hints, board.copy())

    def _evaluations(self, key: str, board: Board) -> list[int | None]:
        root = board.root()
        moves = list(board.move_stack)
        engine = self._engine()
        scores: list[int | None] = []
        try:
            for ply in range(len(moves) + 1):
                if ply:
                    root.push(moves[ply - 1])
                cache_key = (key, root.to_string(), ply)
                if cache_key not in self._evals:
                    score: int | None
                    outcome = root.outcome()
                    if outcome is not None:
                        score = outcome.disc_difference
                    else:
                        analysis = engine.analyse(root, Limit(depth=self.settings.eval_depth))
                        score = analysis.score if root.turn is BLACK else -analysis.score
                    self._evals[cache_key] = score
                scores.append(self._evals[cache_key])
        finally:
            self._pool.put(engine)
        return scores

    async def evaluations(self, game_id: str, board: Board) -> EvaluationsView:
        """The evaluation after every ply (Black's point of view, discs)."""
        scores = await asyncio.to_thread(self._evaluations, game_id, board.copy())
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
            self._pool.put(engine)
