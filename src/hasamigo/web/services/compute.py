"""CPU-heavy work of the web app in processes of its own, so that no request waits behind it:
the :class:`ComputePool`, its workers' whole life (started, prepared, replaced, stopped)
in this one module. The app makes one and passes it to the services whose work needs it
(the study's report, the pairing of a large tournament): each submits its own
module-level function of picklable values (:meth:`ComputePool.run`, :meth:`ComputePool.call`).

A route never computes on the event loop; most of the app's work is short, or is numba
kernels that release the GIL, and runs on threads (``asyncio.to_thread``, the search
pool, the review thread). Long pure-Python work is different: on a thread it holds the
GIL, and the event loop gets it back only between the thread's 5 ms slices, once for
every step of a request. Measured on 2 busy cores (a 40-subject study's report, a whole
game's review and the second round of a 200-player Swiss tournament requested at once,
``GET /api/status`` every 50 ms): with the report and the pairing on threads (and the
report's import of matplotlib on the loop itself), 1.6 to 4.1 s at worst; with them here
(and start-up's objects frozen out of the garbage collector), 0.12 to 0.16 s at worst, 7
to 13 ms at the median (``tests/test_web_loop.py`` holds it under 0.2 s). So the study
report (matplotlib, seconds) and the pairing of a large field (networkx's matching, over
a second for 200 players) run here: a few worker processes, started by ``spawn`` (a fork
of a threaded server could copy a held lock) at a lower priority, kept for later requests
and stopped with the app.

The workers' life:

* **start**: at the first request, or before it with :meth:`ComputePool.start` (the app
  calls it once the engine is ready). Each worker runs the pool's ``prepare`` first (the
  app's: the report's imports, matplotlib's among them: a cold worker made the first
  report of a server wait for them, 27 s on a busy machine);
* **a worker that dies** (killed, out of memory) fails its request with 503 ``busy``; the
  next request starts new workers;
* **the server dies** (``kill -9``, out of memory): each worker watches the end of a pipe
  that only its parent holds open (:func:`multiprocessing.parent_process`'s sentinel) and
  exits when it closes. The pool's own queue does not tell them: a worker holds both ends
  of its pipe, so it never reads an end of file, and the workers outlived the server
  forever. (Linux's parent-death signal, ``PR_SET_PDEATHSIG``, is no help here: it fires
  when the *thread* that started the worker ends, and the pool starts its workers on
  whichever thread submits the work.)
* **stop** (:meth:`ComputePool.close`): a computation under way is abandoned, the workers
  ended and waited for, and the pool's queues released before the server exits: uvicorn
  ends a server stopped by ``SIGTERM`` by raising the signal again, which skips Python's
  exit handlers, and the queues' named semaphores were left for the resource tracker to
  warn about ("5 leaked semaphore objects").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from hasamigo.web.errors import Busy

log = logging.getLogger(__name__)
_T = TypeVar("_T")
#: what a worker runs before its first task: a module-level function (it is pickled)
Prepare = Callable[[], None]


class ComputePool:
    """``workers`` worker processes for CPU-heavy work (see the module docstring), started
    at first use or by :meth:`start`, each running ``prepare`` first. :meth:`run` awaits
    a result from the event loop, :meth:`call` waits for one on a thread (the routes that
    are plain functions). A worker that dies fails its request with 503 ``busy``; the
    next request starts new workers."""

    def __init__(self, workers: int, *, prepare: Prepare | None = None) -> None:
        self.workers = max(1, workers)
        self.prepare = prepare
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._lowered: set[int] = set()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise Busy("the server is stopping")
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_start, initargs=(self.prepare,))
            return self._pool

    def start(self) -> None:
        """Start every worker now (each prepared by ``prepare``) rather than at the first
        request: the app's, once the engine is ready. Returns at once; nothing when the
        pool is closed."""
        try:
            pool = self._executor()
        except Busy:
            return
        with contextlib.suppress(BrokenProcessPool, RuntimeError):
            # the executor starts a worker for each task it cannot give an idle one
            for _ in range(self.workers):
                pool.submit(_started)
        self._lower(pool)

    def _lower(self, pool: ProcessPoolExecutor) -> None:
        """The workers the executor has just started put below the server's priority at
        once, from here: a worker's own start (Python, then the app's modules, imported to
        read its first task) takes seconds of CPU before it can lower itself."""
        for process in dict(getattr(pool, "_processes", None) or {}).values():
            pid = process.pid
            if pid is None or pid in self._lowered:
                continue
            self._lowered.add(pid)
            _lower(pid)

    def _broken(self, pool: ProcessPoolExecutor) -> Busy:
        if self._closed:  # ended by close()
            return Busy("the server is stopping")
        log.error("a worker process of the compute pool died; starting new ones")
        with self._lock:
            if self._pool is pool:
                self._pool = None
        # not waited for, on the event loop: the executor has ended its other workers
        pool.shutdown(wait=False, cancel_futures=True)
        return Busy("the computation failed: try again")

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` in a worker process, awaited."""
        pool = self._executor()
        try:
            future = asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            self._lower(pool)
            return await future
        except BrokenProcessPool:
            raise self._broken(pool) from None

    def call(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` in a worker process, waited for on this (non-loop) thread."""
        pool = self._executor()
        try:
            future = pool.submit(fn, *args)
            self._lower(pool)
            return future.result()
        except BrokenProcessPool:
            raise self._broken(pool) from None

    def pids(self) -> list[int]:
        """The process ids of the workers running now."""
        with self._lock:
            pool = self._pool
        processes = dict(getattr(pool, "_processes", None) or {})
        return [p.pid for p in processes.values() if p.pid is not None and p.is_alive()]

    def close(self) -> None:
        """Stop the workers: a computation under way is abandoned (its worker ended), so
        that a server stopping neither waits for a report nor leaves one running; the
        workers are waited for and the pool's queues released (see the module docstring)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            _end(pool)


def _end(pool: ProcessPoolExecutor) -> None:
    """End the executor's workers, wait for them and drop its queues (whose named
    semaphores are unlinked as they go)."""
    # the executor has no public way to end a busy worker before Python 3.14
    # (terminate_workers); its processes are in _processes
    workers = dict(getattr(pool, "_processes", None) or {})
    for process in workers.values():
        with contextlib.suppress(Exception):
            process.terminate()
    # its manager thread sees the workers gone, fails what was waiting, joins the
    # workers and closes the queues; then nothing holds them
    pool.shutdown(wait=True, cancel_futures=True)
    for process in workers.values():
        with contextlib.suppress(Exception):
            process.join(5)
            process.close()


#: a worker's ``nice``: on a busy machine the event loop's process is scheduled first and
#: the work waits instead
NICE = 10


def _lower(pid: int) -> None:
    """Process ``pid`` (0: this one) at :data:`NICE`, unless it is lower already."""
    with contextlib.suppress(AttributeError, OSError):  # not on every platform
        if os.getpriority(os.PRIO_PROCESS, pid) < NICE:
            os.setpriority(os.PRIO_PROCESS, pid, NICE)


# ---- in the worker processes -------------------------------------------------------------
def _worker_start(prepare: Prepare | None) -> None:
    """A worker's start: it exits with its parent (:func:`_exit_with_parent`), runs below
    the server's priority (:data:`NICE`; its parent has lowered it already where it can),
    then runs ``prepare``; a failure of ``prepare`` is logged, and the work imports what
    it needs itself."""
    _exit_with_parent()
    _lower(0)
    if prepare is not None:
        try:
            prepare()
        except Exception:
            log.exception("a compute worker's preparation failed")


def _exit_with_parent() -> None:
    """End this process as soon as its parent has (``kill -9``, out of memory): a daemon
    thread waits on the pipe end that only the parent holds open."""
    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None)
    if sentinel is None:  # not started by multiprocessing
        return

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="hasamigo-exit-with-parent", daemon=True).start()


def _started() -> None:
    """The task :meth:`ComputePool.start` gives each worker to start it."""


__all__ = ["ComputePool", "Prepare"]
