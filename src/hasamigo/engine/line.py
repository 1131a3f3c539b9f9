"""The principal variation an engine answers: the root's move, then the moves its table
holds, then, near the end, the moves an exact solve confirms (a line shorter than the
search's depth where the table lost a row is finished by solving)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hasamigo._kernels import wide, wide_search
from hasamigo._kernels.search import CTL_SIZE, child_position, search
from hasamigo.engine.grid import Grid, geometry
from hasamigo.move import Move
from hasamigo.squares import bits

#: positions with at most this many empties are finished by solving (cheap)
SOLVED_EMPTIES = 7


def principal_variation(grid: Grid, p: int, o: int, mask: int, first: int, depth: int,
                        table_move: Callable[[int, int], int],
                        solved_move: Callable[[int, int, int, int], int]) -> tuple[Move, ...]:
    """``first``, then ``table_move(p, o)`` (-1: none) while it is legal, else (at
    :data:`SOLVED_EMPTIES` empties or fewer) ``solved_move(p, o, mask, legal)`` (-1:
    none), up to ``depth`` + 10 moves or the end."""
    line = [grid.move(first)]
    p, o = grid.child(p, o, first)
    for _ in range(max(depth, 1) + 10):
        legal = grid.legal(p, o, mask)
        if not legal:
            if not grid.legal(o, p, mask):
                break
            sq = grid.pass_move
        else:
            sq = table_move(p, o)
            if not (0 <= sq < grid.pass_move and legal >> sq & 1):
                sq = solved_move(p, o, mask, legal)
                if sq < 0:
                    break
        line.append(grid.move(sq))
        p, o = grid.child(p, o, sq)
    return tuple(line)


def small_best(grid: Grid, p: int, o: int, mask: int, legal: int, params: np.ndarray,
               table: np.ndarray, date: int, flags: int) -> int:
    """The best of the ``legal`` moves of ``(p, o)`` by exact solving when at most
    :data:`SOLVED_EMPTIES` squares are empty, else -1 (8×8: in ``table``; the wide grid:
    in a small table of its own)."""
    if (mask & ~(p | o)).bit_count() > SOLVED_EMPTIES:
        return -1
    best, best_sq = -(grid.span + 1), -1
    for sq in bits(legal):
        if grid.wide:
            cp, co = wide_search.child_position(p, o, sq)
            ctl = np.zeros(wide_search.CTL_SIZE, dtype=np.int64)
            keys, vals = wide_search.table_new(1 << 8)
            v = -int(wide_search.search(*wide.split(cp), *wide.split(co), geometry(mask),
                                        64, -100, 100, keys, vals, 0, params,
                                        np.zeros(1, dtype=np.int64), ctl, 0))
        else:  # the search kernel solves them (no kernel of their own)
            cp, co = child_position(np.uint64(p), np.uint64(o), sq)
            ctl = np.zeros(CTL_SIZE, dtype=np.int64)
            v = -int(search(np.uint64(cp), np.uint64(co), np.uint64(mask), 64, -64, 64, table,
                            date, params, np.zeros(1, dtype=np.int64), ctl, flags))
        if v > best:
            best, best_sq = v, sq
    return best_sq
