"""Exact labels for the evaluation's training solved across workers: :func:`exact_job`.

The positions :func:`~hasamigo.engine.training.exact_labels` would solve, less those the
cache file already holds, are cut into chunks of ``chunk`` positions; each chunk is a
task that a worker solves with the engine it keeps (:func:`~.solve.worker_engine`). The
scores are merged into the same cache file as the chunks finish (every ``save_every``
seconds and at the end, also when stopped), so the cache is the job's journal: a rerun
solves only what it lacks. The scores are exact, so the labels, and the weights fitted
to them, are those of the one-process run.
"""

from __future__ import annotations

import functools
import os
import time
from typing import Any

import numpy as np

from hasamigo.engine.training import (
    EXACT_EMPTIES,
    EXACT_TABLE_SIZE,
    Progress,
    Samples,
    exact_candidates,
    exact_keys,
    exact_score,
    load_exact_cache,
    save_exact_cache,
    with_exact_labels,
)
from hasamigo.jobs.runner import Backend, run_job
from hasamigo.jobs.solve import warm_solver, worker_engine

CHUNK = 50  # positions a task: a few seconds to a minute of solving at 14-24 empties

Chunk = tuple[tuple[tuple[int, int], ...], int]  # positions (p, o) and the table size


def exact_task(task: Chunk) -> list[int]:
    """The exact scores of a chunk of positions, by this worker's engine."""
    keys, table_size = task
    engine = worker_engine(table_size)
    return [exact_score(engine, p, o) for p, o in keys]


def exact_chunks(keys: list[tuple[int, int]], solved: dict[tuple[int, int], int], *,
                 chunk: int = CHUNK, table_size: int = EXACT_TABLE_SIZE) -> dict[str, Chunk]:
    """The tasks of the positions ``keys`` not in ``solved`` (each once), ``chunk`` a task.

    >>> exact_chunks([(1, 2), (3, 4), (1, 2), (5, 6)], {(3, 4): 0}, chunk=1, table_size=8)
    {'1': (((1, 2),), 8), '2': (((5, 6),), 8)}
    """
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    todo = list(dict.fromkeys(key for key in keys if key not in solved))
    return {str(n + 1): (tuple(todo[i:i + chunk]), table_size)
            for n, i in enumerate(range(0, len(todo), chunk))}


def exact_job(samples: Samples, *, backend: Backend, limit: int | None = None,
              cache: str | os.PathLike[str] | None = None, save_every: float = 30.0,
              empties: tuple[int, int] = EXACT_EMPTIES, chunk: int = CHUNK,
              table_size: int = EXACT_TABLE_SIZE,
              progress: Progress | None = None) -> tuple[Samples, np.ndarray]:
    """:func:`~hasamigo.engine.training.exact_labels` with the solving shared out among
    ``backend``'s workers: the same labelled samples and mask."""
    chosen = exact_candidates(samples, limit, empties)
    solved = load_exact_cache(cache) if cache is not None else {}
    keys = exact_keys(samples, chosen)
    tasks = exact_chunks(keys, solved, chunk=chunk, table_size=table_size)
    total = len(set(keys))
    done = total - sum(len(positions) for positions, _ in tasks.values())
    saved_at = time.monotonic()
    unsaved = 0

    def show() -> None:
        if progress is not None:
            progress(f"exact labels: {done:,}/{total:,}", done, total)

    def merge(key: str, scores: Any) -> None:
        nonlocal done, saved_at, unsaved
        positions = tasks[key][0]
        solved.update(zip(positions, scores, strict=True))
        done += len(positions)
        unsaved += len(positions)
        if cache is not None and time.monotonic() - saved_at >= save_every:
            save_exact_cache(cache, solved)
            saved_at, unsaved = time.monotonic(), 0
        show()

    show()
    try:
        run_job(tasks, exact_task, backend=backend,
                setup=functools.partial(warm_solver, table_size), on_result=merge)
    finally:
        if cache is not None and unsaved:
            save_exact_cache(cache, solved)
    return with_exact_labels(samples, chosen, solved)
