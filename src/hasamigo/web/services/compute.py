"""CPU-heavy work of the web app in processes of its own, so that no request waits behind it.

A route never computes on the event loop; most of the app's work is short, or is numba
kernels that release the GIL, and runs on threads (``asyncio.to_thread``, the search
pool, the review thread). Long pure-Python work is different: on a thread it holds the
GIL, and the event loop gets it back only between the thread's 5 ms slices, once for
every step of a request. Measured on 2 busy cores (a 40-subject study's report, a whole
game's review and the second round of a 200-player Swiss tournament requested at once,
``GET /api/status`` every 50 ms): with the report and the pairing on threads (and the
report's import of matplotlib on the loop itself), 1.6 to 4.1 s at worst; with them here
(and start-up's objects frozen out of the garbage collector, see
:func:`serving_lifespan`), 0.12 to 0.16 s at worst, 7 to 13 ms at the median
(``tests/test_web_loop.py`` holds it under 0.2 s). So the study report (matplotlib,
seconds) and the pairing of a large field (networkx's matching, over a second for 200
players) run on a :class:`ComputePool`: a few worker processes, started on first use by
``spawn`` (a fork of a threaded server could copy a held lock) at a lower priority, kept
for later requests and stopped with the app.

The functions sent there are plain module-level functions of picklable values: the
study's tables in, the report's HTML out; a tournament in, its next round's pairings out.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import FastAPI

from hasamigo.web.errors import Busy
from hasamigo.web.state import services_of

if TYPE_CHECKING:
    from hasamigo.study.records import StudyData
    from hasamigo.tournament.model import Pairing
    from hasamigo.tournament.state import Tournament

log = logging.getLogger(__name__)
_T = TypeVar("_T")


class ComputePool:
    """Worker processes for CPU-heavy work (see the module docstring), started at first
    use. :meth:`run` awaits a result from the event loop, :meth:`call` waits for one on a
    thread (the routes that are plain functions). A worker that dies (killed, out of
    memory) fails its request with 503 ``busy``; the next request starts new workers."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise Busy("the server is stopping")
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_background)
            return self._pool

    def _broken(self, pool: ProcessPoolExecutor) -> Busy:
        if self._closed:  # ended by close()
            return Busy("the server is stopping")
        log.error("a worker process of the compute pool died; starting new ones")
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)
        return Busy("the computation failed: try again")

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` in a worker process, awaited."""
        pool = self._executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            raise self._broken(pool) from None

    def call(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` in a worker process, waited for on this (non-loop) thread."""
        pool = self._executor()
        try:
            return pool.submit(fn, *args).result()
        except BrokenProcessPool:
            raise self._broken(pool) from None

    def close(self) -> None:
        """Stop the workers: a computation under way is abandoned (its worker ended), so
        that a server stopping neither waits for a report nor leaves one running."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is None:
            return
        # the executor has no public way to end a busy worker before Python 3.14
        # (terminate_workers); its processes are in _processes
        workers = dict(getattr(pool, "_processes", None) or {})
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers.values():
            with contextlib.suppress(Exception):
                process.terminate()


def _background() -> None:
    """A worker's start: below the server's priority (``nice`` 10), so that on a busy
    machine the event loop's process is scheduled first and the work waits instead."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(10)


def _rules_ready() -> None:
    """The rules' kernels (every game's moves and flips), loaded or compiled before the
    first request: the engine's warm-up compiles every kernel in a subprocess first, and
    meanwhile the first game created compiled them on the event loop (3.9 s to create
    a game during a cold start, as reported in issue 50)."""
    from hasamigo._kernels.warm import warm

    warm("rules")


def _freeze() -> None:
    """Leave what start-up made (the app, pydantic's validators, numba's dispatchers …:
    some 300,000 objects) out of every later garbage collection. A full collection holds
    the GIL throughout: one over the whole heap took 0.85 s on 2 busy cores, every thread
    and the event loop stopped, when a study's games were loaded for its report."""
    gc.collect()
    gc.freeze()


@contextlib.asynccontextmanager
async def serving_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """A router's lifespan (FastAPI merges it into the app's): before the first request,
    the routes are prepared off the loop (the app's own lifespan, around this one, builds
    the services and stops them, the compute workers included).

    FastAPI (0.165) prepares an included router's routes (their fields and validators)
    when a request first walks it, on the event loop: 0.1 to 0.5 s a router on 2 busy
    cores, stalling every request of the first seconds. Building the OpenAPI document
    walks them all, so it is built here, on a thread, before the server listens, and the
    rules' kernels are made ready (:func:`_rules_ready`). Then the objects start-up made
    are frozen out of the garbage collector (:func:`_freeze`), and again once the engine
    has warmed."""
    await asyncio.to_thread(app.openapi)
    if app.state.settings.warm_engine:
        await asyncio.to_thread(_rules_ready)
    await asyncio.to_thread(_freeze)
    services = services_of(app)
    if services is not None:  # the engine's kernels and tables, once loaded, last as long
        services.engine.subscribe(lambda _warmup: gc.freeze())
    yield


# ---- the work (run in the worker processes) ---------------------------------------------
def render_report(data: StudyData, title: str, lang: str, where: str | None = None,
                  group_by: str | None = None) -> str:
    """The study's report as HTML (:func:`hasamigo.study.report.build_report`), for the
    subjects ``where`` keeps (:mod:`hasamigo.study.subgroups`), split by ``group_by``."""
    from hasamigo.study.report import build_report

    return str(build_report(data, title=title, lang=lang, where=where, group_by=group_by))


def plan_next_round(tournament: Tournament) -> list[Pairing]:
    """The tournament's next round, paired by its format's rules (on this copy of it:
    the caller stores the pairings)."""
    return tournament.pair_next_round()


__all__ = ["ComputePool", "plan_next_round", "render_report",
           "serving_lifespan"]
