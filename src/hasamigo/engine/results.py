"""What a search answers: :class:`Analysis` (the best move, its score and principal
variation, with ``multipv`` lines of :class:`MoveScore`) and :class:`PlayResult`.

Kept apart from :mod:`hasamigo.engine.core` so that the searches beside it (the
rules' search, :mod:`hasamigo.engine.rules_search`) answer the same values without
importing the engine. ``hasamigo.engine.core`` and ``hasamigo.engine`` re-export them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hasamigo.move import Move


@dataclass(frozen=True, slots=True)
class MoveScore:
    """One line of an analysis: a move, its score (side to move) and principal variation."""

    move: Move
    score: int
    pv: tuple[Move, ...] = ()


@dataclass(frozen=True, slots=True)
class Analysis:
    """Result of :meth:`~hasamigo.engine.core.Engine.analyse`.

    ``score`` is from the **side to move**, in discs (exact when ``exact``); in
    ``mode='wld'`` only its sign is known and it is -1, 0 or +1. ``lines`` holds the
    ``multipv`` best moves (all moves for hints), best first.
    """

    move: Move
    score: int
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    seconds: float
    exact: bool
    mode: str = "midgame"
    lines: tuple[MoveScore, ...] = field(default=())

    @property
    def nps(self) -> float:
        """Nodes per second (wall clock)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True, slots=True)
class PlayResult:
    """The move chosen by :meth:`~hasamigo.engine.core.Engine.play` and the analysis behind it."""

    move: Move
    analysis: Analysis
