"""The naturalness bound: no move a person would see as absurd.

A move's **loss** is the best move's score minus its own, both from a fixed-depth search:
the strong engine's :meth:`~hasamigo.engine.Engine.hints` at :data:`NATURAL_DEPTH` plies
(exact when that reaches the end), from a cleared table so that the measure depends on the
position only. Scores are discs from the mover's point of view.

A move **breaks the bound** when

* it is an ordinary move (not a declared gift) losing more than :data:`NATURAL_LOSS_CAP`;
* it is a declared gift (:data:`~hasamigo.engine.players.base.GIFT_KINDS`: expectation,
  surprise, gift) losing more than :data:`GIFT_LOSS_CAP`, or the player's gifts in the game
  exceed :data:`GIFTS_PER_GAME`.

Forced moves (one legal move, or a pass) never break it.

The cap of 12 discs is a judgement, checked against the study panel: a 4-ply loss of that
size is an ordinary inferior move, not a thrown-away corner (those cost 20 and more); at 10,
the entertainer conceding all it could still lost 62% of its games to the ``random``
player, so no "keep it close" program could honour both the bound and the panel's target.

>>> from hasamigo import Board, Move
>>> losses = move_losses(Board())
>>> sorted(losses.values())  # the four first moves are equivalent
[0, 0, 0, 0]
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from hasamigo.board import Board
from hasamigo.engine import Engine, Limit
from hasamigo.engine.players.base import FORCED, GIFT_KINDS
from hasamigo.move import Color, Move

NATURAL_DEPTH = 4
NATURAL_LOSS_CAP = 12
GIFT_LOSS_CAP = 20
GIFTS_PER_GAME = 2

# One small engine per thread: an engine searches one position at a time, and the web
# server runs several entertainer games (and the study's checks) in worker threads at once.
_LOCAL = threading.local()


def _engine() -> Engine:
    engine: Engine | None = getattr(_LOCAL, "engine", None)
    if engine is None:
        engine = _LOCAL.engine = Engine(table_size=1 << 12)
    return engine


def move_scores(board: Board, depth: int = NATURAL_DEPTH) -> dict[Move, int]:
    """Every legal move's score (discs, side to move) by a ``depth``-ply search from a
    cleared table (exact when ``depth`` reaches the end)."""
    engine = _engine()
    engine.clear()
    return {line.move: line.score for line in engine.hints(board, Limit(depth=depth))}


def move_losses(board: Board) -> dict[Move, int]:
    """Each legal move's loss against the best one, by the naturalness search."""
    scores = move_scores(board)
    best = max(scores.values())
    return {move: best - score for move, score in scores.items()}


@dataclass(frozen=True, slots=True)
class Violation:
    """A move that broke the naturalness bound."""

    ply: int
    move: Move
    loss: int
    kind: str
    why: str


def violations(moves: Sequence[Move], kinds: Sequence[str], color: Color,
               start: Board | None = None) -> list[Violation]:
    """The moves of ``color`` in a game that broke the bound.

    ``moves`` are the game's moves from ``start`` (default: the standard start), ``kinds``
    the matching :attr:`Player.last_kind` of each move (any value for the other side's)."""
    if len(kinds) != len(moves):
        raise ValueError("one kind per move is needed")
    board = Board() if start is None else start.copy()
    found: list[Violation] = []
    gifts = 0
    for ply, (move, kind) in enumerate(zip(moves, kinds, strict=True)):
        if board.turn is color and kind != FORCED and len(board.legal_moves) > 1:
            loss = move_losses(board)[move]
            if kind in GIFT_KINDS:
                gifts += 1
                if loss > GIFT_LOSS_CAP:
                    found.append(Violation(ply, move, loss, kind,
                                           f"gift loses {loss} > {GIFT_LOSS_CAP} discs"))
                elif gifts > GIFTS_PER_GAME:
                    found.append(Violation(ply, move, loss, kind,
                                           f"gift number {gifts} > {GIFTS_PER_GAME}"))
            elif loss > NATURAL_LOSS_CAP:
                found.append(Violation(ply, move, loss, kind,
                                       f"move loses {loss} > {NATURAL_LOSS_CAP} discs"))
        board.push(move)
    return found
