"""One deep position solved across workers, split at its root: :func:`split_solve`.

A suite of positions is shared out one position per worker (:mod:`.solve`); a single
position that takes hours on one core is split instead among its moves, with the best
score found so far passed between the workers as the bound the others must beat (the
root of a Young Brothers Wait search):

1. the first move, ordered by a short search, is solved exactly on one worker: its
   score is the bound ``alpha``;
2. every other move is tested at once, on all the workers, with a null window at
   ``alpha``: "is it better than ``alpha``?" Most are not, and a null-window test costs a
   fraction of a solve;
3. the moves that are better are solved exactly with the window ``(alpha, 64)``, also
   at once; the best of them, if any, replaces the first move.

The result is exact (the same score as one worker's :meth:`~hasamigo.engine.Engine.solve`;
the move one of those with that score). Each task's result goes to the journal as it
comes, so a stopped job resumes with the tasks it had finished; the bound passed on
depends only on the finished tasks, so the resumed job runs the same tasks.

>>> import random
>>> from hasamigo.jobs.runner import LocalBackend
>>> rng, board = random.Random(2), Board()
>>> while board.empties.bit_count() > 10:
...     board.push(rng.choice(list(board.legal_moves)))
>>> found = split_solve(board, backend=LocalBackend(1), table_size=1 << 16)
>>> found["score"] == Engine(table_size=1 << 16).solve(board).score
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hasamigo.board import Board
from hasamigo.engine.core import Engine
from hasamigo.engine.limits import Limit
from hasamigo.engine.obf import ObfRecord, record_row
from hasamigo.errors import InvalidOptionError
from hasamigo.jobs.runner import Backend, Journal, run_job
from hasamigo.jobs.solve import warm_solver, worker_engine
from hasamigo.move import BLACK, PASS, Move
from hasamigo.rules import Kernel

SPAN = 64  # scores are disc differences: -64..64
ORDER_DEPTH = 12  # the short search that orders the root's moves


def window_task(task: tuple[Board, str, int, int, int]) -> dict[str, Any]:
    """``(board, move, alpha, beta, table_size)``: the score of ``move`` for the side to
    move in ``board``, solved inside the window ``(alpha, beta)`` (a bound outside it),
    with this worker's engine; and its nodes and CPU seconds."""
    board, move, alpha, beta, table_size = task
    start = time.process_time()
    child = board.copy(stack=False)
    child.push(Move.from_str(move))
    outcome = child.outcome()
    if outcome is not None:  # the move ends the game: its score is the count
        mine = outcome.disc_difference if board.turn is BLACK else -outcome.disc_difference
        return {"score": mine, "nodes": 0, "seconds": time.process_time() - start}
    engine = worker_engine(table_size)
    # the whole window: the solver's own aspiration around its presearch's score is faster
    analysis = engine.solve(child) if (alpha, beta) == (-SPAN, SPAN) \
        else engine.solve_window(child, -beta, -alpha)
    return {"score": -analysis.score, "nodes": analysis.nodes,
            "seconds": time.process_time() - start}


def root_moves(board: Board, table_size: int) -> list[str]:
    """The moves of ``board``, best first by a short search (the order of the split)."""
    moves = [str(m) for m in board.legal_moves]
    if len(moves) <= 1:
        return moves
    engine = Engine(table_size=min(table_size, 1 << 20))
    empties = board.empties.bit_count()
    depth = max(1, min(ORDER_DEPTH, empties - 1))
    analysis = engine.analyse(board, Limit(depth=depth), multipv=len(moves))
    ordered = [str(line.move) for line in analysis.lines]
    return ordered + [m for m in moves if m not in ordered]


def split_solve(board: Board, *, backend: Backend, table_size: int = 1 << 22,
                journal: Journal | None = None, key: str = "",
                on_task: Callable[[str, dict[str, Any]], None] | None = None
                ) -> dict[str, Any]:
    """The exact score and a best move of ``board`` (from the side to move), its root's
    moves solved by ``backend``'s workers as the module says. Returns ``{move, score,
    nodes, seconds (CPU of every task), wall, tasks (how many ran or were resumed)}``.

    ``journal``: the tasks' results, resumed; ``key`` prefixes their keys (one journal
    may hold several positions'). ``on_task(key, result)`` is told of each new result.
    """
    if board.is_game_over():
        raise InvalidOptionError("the game is over: there is nothing to solve")
    if board.rules.kernel is not Kernel.BITBOARD:
        raise InvalidOptionError(f"a position of {board.title} is not split among workers: "
                                 "only boards within 8×8 of the usual flips are")
    start = time.perf_counter()
    results: dict[str, dict[str, Any]] = {}
    if not board.legal_moves_mask():  # a pass: the opponent's moves are the split
        after = board.copy(stack=False)
        after.push(PASS)
        inner = split_solve(after, backend=backend, table_size=table_size, journal=journal,
                            key=f"{key}pass/", on_task=on_task)
        return {**inner, "move": "pass", "score": -inner["score"],
                "wall": time.perf_counter() - start}

    def run(tasks: dict[str, tuple[Board, str, int, int, int]]) -> dict[str, Any]:
        if not tasks:
            return {}
        done = run_job(tasks, window_task, backend=backend,
                       setup=lambda: warm_solver(table_size), journal=journal,
                       on_result=on_task)
        results.update(done)
        return done

    moves = root_moves(board, table_size)
    first = moves[0]
    tag = f"{key}{first}@{-SPAN}:{SPAN}"
    alpha = run({tag: (board, first, -SPAN, SPAN, table_size)})[tag]["score"]
    best = first
    others = {f"{key}{m}@{alpha}:{alpha + 1}": (board, m, alpha, alpha + 1, table_size)
              for m in moves[1:]} if alpha < SPAN else {}
    tested = run(others)
    better = [task[1] for tag, task in others.items() if tested[tag]["score"] > alpha]
    research = {f"{key}{m}@{alpha}:{SPAN}": (board, m, alpha, SPAN, table_size)
                for m in better}
    for tag, result in run(research).items():
        if result["score"] > alpha:
            alpha, best = result["score"], research[tag][1]
    return {"move": best, "score": alpha,
            "nodes": sum(r["nodes"] for r in results.values()),
            "seconds": sum(r["seconds"] for r in results.values()),
            "wall": time.perf_counter() - start, "tasks": len(results)}


def split_solve_job(path: str | Path, *, backend: Backend, table_size: int = 1 << 22,
                    first: int | None = None, journal: str | Path | None = None,
                    on_result: Callable[[dict[str, Any]], None] | None = None,
                    on_task: Callable[[str, dict[str, Any]], None] | None = None
                    ) -> dict[str, Any]:
    """Every position of an OBF file in turn, each split among the workers; the rows of
    :func:`~hasamigo.engine.solve_obf_file` (exact mode; ``seconds``: the CPU time of
    every task, ``wall``: the position's elapsed time)."""
    from hasamigo.engine.obf import read_obf

    records: list[ObfRecord] = read_obf(path, first)
    book = None if journal is None else Journal(journal, {
        "job": "solve-split", "file": Path(path).name, "positions": len(records),
        "first": records[0].index if records else None})
    start = time.perf_counter()
    positions = []
    for rec in records:
        found = split_solve(rec.board, backend=backend, table_size=table_size,
                            journal=book, key=f"{rec.index}/", on_task=on_task)
        row = record_row(rec, Move.from_str(found["move"]), found["score"], "exact",
                         seconds=found["seconds"], wall=found["wall"], nodes=found["nodes"])
        positions.append(row)
        if on_result is not None:
            on_result(row)
    return {"positions": positions, "total_seconds": sum(p["seconds"] for p in positions),
            "total_wall": time.perf_counter() - start,
            "all_ok": all(p["ok"] for p in positions)}
