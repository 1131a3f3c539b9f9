"""An OBF suite solved across workers: :func:`solve_job`.

Each position is a task; each worker keeps one :class:`~hasamigo.engine.Engine` (its hash
table and loaded kernels) for all the positions it is given. The rows are those of
:func:`~hasamigo.engine.solve_obf_file`, in file order; ``seconds`` is the CPU time of the
worker that solved the position.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hasamigo.board import Board
from hasamigo.engine.core import Engine
from hasamigo.engine.obf import ObfRecord, read_obf, solve_record
from hasamigo.jobs.runner import Backend, Journal, run_job

_ENGINES: dict[int, Engine] = {}  # this worker's engine, by table size
WARM_EMPTIES = 14  # the setup solves a position this near the end (a few ms)


def worker_engine(table_size: int) -> Engine:
    """The engine this process keeps for ``table_size`` (made at its first use)."""
    engine = _ENGINES.get(table_size)
    if engine is None:
        engine = _ENGINES[table_size] = Engine(table_size=table_size)
    return engine


def warm_solver(table_size: int) -> None:
    """A worker's setup: make its engine and load (or compile) every kernel a solve
    calls, by solving a position of a seeded random game near its end; so that the first
    position's time is the solve's own (loading the kernels takes half a second)."""
    rng = random.Random(0)
    board = Board()
    while board.empties.bit_count() > WARM_EMPTIES and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    engine = worker_engine(table_size)
    if not board.is_game_over():
        engine.solve(board)
    engine.clear()


def solve_task(task: tuple[ObfRecord, str, int]) -> dict[str, Any]:
    """One position ``(record, mode, table_size)`` solved by this worker's engine."""
    rec, mode, table_size = task
    return solve_record(worker_engine(table_size), rec, mode)


def solve_job(path: str | Path, mode: str = "exact", *, backend: Backend,
              table_size: int = 1 << 22, first: int | None = None,
              journal: str | Path | None = None,
              on_result: Callable[[dict[str, Any]], None] | None = None,
              on_start: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Solve every position of an OBF file with ``backend``'s workers; the same result as
    :func:`~hasamigo.engine.solve_obf_file` (``total_wall``: the job's elapsed time).
    ``journal``: a JSON-lines file of the rows, resumed when it exists (see
    :class:`~hasamigo.jobs.runner.Journal`); ``on_result`` is called with each new row,
    in the order they finish; ``on_start`` with the number of rows the journal held."""
    records = read_obf(path, first)
    tasks = {str(rec.index): (rec, mode, table_size) for rec in records}
    book = None if journal is None else Journal(journal, {
        "job": "solve", "file": Path(path).name, "mode": mode, "positions": len(records),
        "first": records[0].index if records else None})
    start = time.perf_counter()
    rows = run_job(tasks, solve_task, backend=backend,
                   setup=functools.partial(warm_solver, table_size), journal=book,
                   on_result=None if on_result is None else lambda _key, row: on_result(row),
                   on_start=on_start)
    positions = list(rows.values())
    return {"positions": positions, "total_seconds": sum(p["seconds"] for p in positions),
            "total_wall": time.perf_counter() - start,
            "all_ok": all(p["ok"] for p in positions)}
