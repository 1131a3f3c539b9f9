"""The two grids the engine's root drives: the 8×8 kernels (:mod:`hasamigo._kernels.search`)
and the 10-column grid of Grand Othello and its shapes (:mod:`hasamigo._kernels.wide_search`).

:class:`Grid` is what the root (:mod:`hasamigo.engine.root`) and iterative deepening
(:class:`~hasamigo.engine.core.Engine`) need of a grid's kernels, so that neither asks
which grid it is on: its legal moves, a child position, the pass move and the span of
its scores.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hasamigo._kernels import wide, wide_search
from hasamigo._kernels.moves import legal_moves_mask
from hasamigo._kernels.search import PASS_MOVE, child_position
from hasamigo.board import Board
from hasamigo.errors import InvalidPositionError
from hasamigo.move import PASS, Move


def kernel_pair(board: Board) -> tuple[int, int, int]:
    """``(player, opponent, playable mask)`` of a board the engine's kernels can search
    (refused with the reason otherwise: a disc limit, a placement phase, rules they do not
    know)."""
    if board.disc_limit is not None or board.in_placement_phase():
        raise InvalidPositionError(
            "the engine searches positions without a disc limit or placement phase")
    rules = board.rules_beyond_kernels()
    if rules:
        raise InvalidPositionError(f"the engine does not know {' nor '.join(rules)} of "
                                   f"{board.title}")
    return (*board.pair(), board.playable())


def legal_8x8(p: int, o: int, mask: int) -> int:
    """The legal moves' bits of ``(p, o)`` on the 8×8 grid, within ``mask``."""
    return int(legal_moves_mask(np.uint64(p), np.uint64(o), np.uint64(mask)))


@dataclass(frozen=True, slots=True)
class Grid:
    """What the root needs of a grid's kernels: scores run over ``-span..span``, a pass
    is ``pass_move``; ``wide``: the 10-column grid (:mod:`hasamigo._kernels.wide_search`:
    one thread, no probable cuts, the hand-set evaluation, its own table)."""

    wide: bool
    span: int
    pass_move: int

    def legal(self, p: int, o: int, mask: int) -> int:
        if self.wide:
            return int(wide.join(*wide.legal_moves_mask(*wide.split(p), *wide.split(o),
                                                        *wide.split(mask))))
        return legal_8x8(p, o, mask)

    def child(self, p: int, o: int, sq: int) -> tuple[int, int]:
        if self.wide:
            wp, wo = wide_search.child_position(p, o, sq)
            return int(wp), int(wo)
        cp, co = child_position(np.uint64(p), np.uint64(o), sq)
        return int(cp), int(co)

    def move(self, sq: int) -> Move:
        return PASS if sq == self.pass_move else Move(sq)


GRID8 = Grid(wide=False, span=64, pass_move=PASS_MOVE)
GRID10 = Grid(wide=True, span=100, pass_move=wide_search.PASS_MOVE)
_GEOMETRIES: dict[int, np.ndarray] = {}


def geometry(mask: int) -> np.ndarray:
    """The evaluation's squares of a shape on the 10-column grid (computed once a shape)."""
    geo = _GEOMETRIES.get(mask)
    if geo is None:
        geo = _GEOMETRIES[mask] = wide_search.geometry(mask)
    return geo
