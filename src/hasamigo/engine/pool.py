"""Engines lent to threads and kept for reuse, and a line of play evaluated position by
position: the evaluation graphs of analysis, review and the user study.

An :class:`EnginePool` makes an :class:`~hasamigo.engine.Engine` the first time every
engine it has is busy, lends it to one thread at a time (:meth:`EnginePool.engine`) and
keeps it, with its transposition table, for the next caller. :func:`evaluate_line` scores
the start of a line and the position after each of its moves (passes included) at a depth,
from one colour's point of view or from each position's side to move; a finished position
scores its official result, exactly. An :class:`EvaluationCache` keeps the scores of
positions already seen, bounded, shared by threads.

>>> from hasamigo.board import Board
>>> from hasamigo.move import BLACK
>>> board = Board()
>>> board.push(board.parse_move("f5"))
>>> pool = EnginePool(table_size=1 << 12)
>>> [e.score for e in pool.evaluate_line(board, 1, BLACK)]
[1, 0]
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from dataclasses import dataclass

from hasamigo.board import Board
from hasamigo.engine.core import Engine
from hasamigo.engine.limits import Limit
from hasamigo.move import BLACK, Color

#: the rows of a pooled engine's table unless the pool is told otherwise (the engine's own)
TABLE_SIZE = 1 << 20


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position's score in discs from the point of view asked for, and whether it is
    exact (a finished game, or a search that reached the end)."""

    score: int
    exact: bool


class EvaluationCache:
    """The evaluations of the last ``entries`` positions asked for (least recently used
    out first), safe to share between threads."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._items: OrderedDict[Hashable, Evaluation] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Evaluation | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Evaluation) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.entries:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class EnginePool:
    """Engines of ``table_size`` rows, each lent to one thread at a time and kept for
    the next (see the module docstring). As many are made as are ever busy at once."""

    def __init__(self, table_size: int = TABLE_SIZE) -> None:
        self.table_size = table_size
        self._idle: list[Engine] = []
        self._made: list[Engine] = []
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def engine(self) -> Iterator[Engine]:
        """An engine for this thread alone until the block ends (the last one given back,
        or a new one when every engine is busy)."""
        with self._lock:
            engine = self._idle.pop() if self._idle else None
        if engine is None:
            engine = Engine(table_size=self.table_size)
            with self._lock:
                self._made.append(engine)
        try:
            yield engine
        finally:
            with self._lock:
                self._idle.append(engine)

    def cancel(self) -> None:
        """Stop every engine's search under way and every later one (see
        :meth:`Engine.cancel`): for a pool whose owner is stopping."""
        with self._lock:
            engines = list(self._made)
        for engine in engines:
            engine.cancel()

    def evaluate_line(self, board: Board, depth: int, point_of_view: Color | None = BLACK,
                      *, cache: EvaluationCache | None = None) -> list[Evaluation]:
        """:func:`evaluate_line` on one of the pool's engines."""
        with self.engine() as engine:
            return evaluate_line(board, depth, point_of_view, engine=engine, cache=cache)


def evaluate_position(engine: Engine, board: Board, depth: int,
                      point_of_view: Color | None = BLACK) -> Evaluation:
    """``board`` scored by a search of ``depth`` plies (its official result when the game
    is over), in discs from ``point_of_view`` (``None``: the side to move's)."""
    viewer = board.turn if point_of_view is None else point_of_view
    outcome = board.outcome()
    if outcome is not None:
        black = outcome.disc_difference
        return Evaluation(black if viewer is BLACK else -black, True)
    found = engine.analyse(board, Limit(depth=depth))
    score = found.score if board.turn is viewer else -found.score
    return Evaluation(score, bool(found.exact))


def position_key(board: Board) -> str:
    """What tells one position from another in an :class:`EvaluationCache`: the
    variant's name, the discs and the side to move."""
    return f"{board.name}:{board.to_string()}"


def evaluate_line(board: Board, depth: int, point_of_view: Color | None = BLACK, *,
                  engine: Engine | None = None,
                  cache: EvaluationCache | None = None) -> list[Evaluation]:
    """The evaluation of the start of ``board``'s line (its root) and of the position
    after each move of its move stack, passes included: ``len(board.move_stack) + 1``
    scores, each by :func:`evaluate_position` at ``depth`` from ``point_of_view`` (a
    colour, or ``None`` for each position's side to move). ``board`` is left as it was.
    ``engine``: the engine searching (a new one if none); ``cache``: the evaluations kept
    from earlier calls, by position, depth and point of view (each new one is added)."""
    engine = engine if engine is not None else Engine(table_size=TABLE_SIZE)
    position = board.root()
    moves = list(board.move_stack)
    scores: list[Evaluation] = []
    for ply in range(len(moves) + 1):
        if ply:
            position.push(moves[ply - 1])
        key = (position_key(position), depth,
               None if point_of_view is None else point_of_view.value)
        found = cache.get(key) if cache is not None else None
        if found is None:
            found = evaluate_position(engine, position, depth, point_of_view)
            if cache is not None:
                cache.put(key, found)
        scores.append(found)
    return scores


__all__ = ["EnginePool", "Evaluation", "EvaluationCache", "evaluate_line",
           "evaluate_position", "position_key"]
