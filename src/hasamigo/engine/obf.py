"""Solve OBF test suites (FFO) and compare with their answers: :func:`solve_obf_file`.

Positions are read with :mod:`hasamigo.notation.obf` and numbered from the file name
(``fforum-20-39.obf`` starts at 20) unless ``first`` is given.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hasamigo.board import Board
from hasamigo.move import Move
from hasamigo.notation.obf import ObfPosition
from hasamigo.notation.obf import read_obf as read_obf_positions

if TYPE_CHECKING:
    from hasamigo.engine.core import Engine


@dataclass(frozen=True, slots=True)
class ObfRecord:
    """One numbered test position with its known answers."""

    index: int
    position: ObfPosition

    @property
    def board(self) -> Board:
        return self.position.board

    @property
    def best_score(self) -> int | None:
        return self.position.best_score

    @property
    def best_moves(self) -> frozenset[Move]:
        return frozenset(self.position.best_moves)


def first_index(path: str | Path) -> int:
    """Number of a file's first position: 20 for ``fforum-20-39.obf``, else 1."""
    found = re.search(r"(?<![0-9])([0-9]{1,9})-([0-9]{1,9})(?:-[a-z]+)?\.obf$", Path(path).name)
    return int(found.group(1)) if found else 1


def read_obf(path: str | Path, first: int | None = None) -> list[ObfRecord]:
    """Every position of an OBF file, numbered in file order from ``first``
    (default: :func:`first_index`); :class:`~hasamigo.errors.ParseError` naming the file
    and the line (and column or byte offset) for a line that does not read."""
    start = first_index(path) if first is None else first
    return [ObfRecord(start + i, pos) for i, pos in enumerate(read_obf_positions(path))]


def solve_record(engine: Engine, rec: ObfRecord, mode: str = "exact") -> dict[str, Any]:
    """Solve one numbered position with ``engine`` and compare with its answers: the row
    :func:`solve_obf_file` reports for it (``seconds``: CPU time of this process)."""
    t0 = time.process_time()
    w0 = time.perf_counter()
    analysis = engine.solve(rec.board, mode=mode)
    return record_row(rec, analysis.move, analysis.score, mode,
                      seconds=time.process_time() - t0, wall=time.perf_counter() - w0,
                      nodes=analysis.nodes)


def record_row(rec: ObfRecord, move: Move, score: int, mode: str, *, seconds: float,
               wall: float, nodes: int) -> dict[str, Any]:
    """The row of a solved position, compared with its answers: in ``'wld'`` mode the
    signs, in ``'exact'`` mode the score and the move (one of the best)."""
    expected = rec.best_score
    if expected is None:
        ok = True
    elif mode == "wld":
        ok = (score > 0) - (score < 0) == (expected > 0) - (expected < 0)
    else:
        ok = score == expected and move in rec.best_moves
    return {"index": rec.index, "move": str(move), "score": score,
            "expected_score": expected, "ok": ok, "seconds": seconds, "wall": wall,
            "nodes": nodes}


def solve_obf_file(
    path: str | Path,
    mode: str = "exact",
    *,
    table_size: int = 1 << 22,
    first: int | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    threads: int = 1,
) -> dict[str, Any]:
    """Solve every position of an OBF file and compare with its answers.

    Returns ``{positions: [{index, move, score, expected_score, ok, seconds, nodes}],
    total_seconds, all_ok}``. Scores are from the side to move. In ``'wld'`` mode a score
    is -1, 0 or +1 and ``ok`` compares signs; in ``'exact'`` mode the score must equal the
    file's best score and the move must be one of its best moves. ``seconds`` is the CPU
    time of this process (all its threads) and ``wall`` the elapsed time. ``on_result`` is
    called with each position's row as it is solved. ``threads``: the engine's
    (:class:`~hasamigo.engine.Engine`).
    """
    from hasamigo.engine.core import Engine

    engine = Engine(table_size=table_size, threads=threads)
    positions = []
    total = 0.0
    total_wall = 0.0
    for rec in read_obf(path, first):
        row = solve_record(engine, rec, mode)
        total += row["seconds"]
        total_wall += row["wall"]
        positions.append(row)
        if on_result is not None:
            on_result(row)
    return {"positions": positions, "total_seconds": total, "total_wall": total_wall,
            "all_ok": all(p["ok"] for p in positions)}
