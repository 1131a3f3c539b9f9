"""Independent tasks mapped over a backend, with a journal for resuming: :func:`run_job`.

A *task* is a picklable value with a string key; a *work* function (module-level, so that
another process can import it) turns it into a JSON-able result. A backend runs the work:

- :class:`LocalBackend`: this process (one worker) or a pool of worker processes;
- :class:`RayBackend`: one Ray actor per worker, on a local Ray or a cluster's.

Each worker runs the job's *setup* once when it starts (the kernels are compiled or loaded
there, and the engine a worker keeps lives in its process for every later task). A worker
that dies takes its task with it: the task goes to another worker, at most ``retries``
times more, and :class:`JobError` names it when the retries run out. An exception raised by
the work itself is not retried (it would fail again): it ends the job.

The journal is a JSON-lines file: a header line with the job's parameters, then one line
per finished task, written and flushed as each finishes. Run again with the same journal,
a job skips the tasks already in it; a journal made with other parameters is refused.

>>> list(LocalBackend(1).map([("a", 2), ("b", 3)], _square, None))
[('a', 4), ('b', 9)]
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Protocol, TypeVar

from hasamigo.errors import HasamigoError

T = TypeVar("T")
Work = Callable[[Any], Any]
Setup = Callable[[], None] | None
RETRIES = 2  # a task whose worker dies is tried at most this many times more
CLUSTER_HINT = "Ray is not installed: pip install 'hasamigo[cluster]'"


class JobError(HasamigoError, RuntimeError):
    """A job that cannot go on: a task whose workers kept dying, a journal that does not
    belong to the job, Ray missing or unreachable. The message says which and why."""

    code = "job_failed"


class JournalError(JobError):
    """A journal that is not one, or belongs to a job with other parameters."""

    code = "job_journal"


class Backend(Protocol):
    """Runs ``work`` on every ``(key, task)``; yields ``(key, result)`` as each finishes."""

    workers: int

    def map(self, items: Sequence[tuple[str, Any]], work: Work,
            setup: Setup) -> Iterator[tuple[str, Any]]: ...

    def close(self) -> None: ...


def _square(x: int) -> int:  # the doctest's work
    return x * x


class LocalBackend:
    """``workers`` processes on this machine (1: in this process). A pool whose process
    dies is started again for the tasks not yet done, at most ``retries`` times."""

    def __init__(self, workers: int = 1, *, retries: int = RETRIES) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.workers = workers
        self.retries = retries
        self.restarts = 0  # pools started again after a worker died

    def map(self, items: Sequence[tuple[str, Any]], work: Work,
            setup: Setup) -> Iterator[tuple[str, Any]]:
        if self.workers == 1:
            if setup is not None and items:
                setup()
            for key, task in items:
                yield key, work(task)
            return
        pending = list(items)
        while pending:
            left: dict[str, Any] = dict(pending)
            try:
                with ProcessPoolExecutor(max_workers=min(self.workers, len(pending)),
                                         initializer=setup) as pool:
                    futures: dict[Future[Any], str] = {
                        pool.submit(work, task): key for key, task in pending}
                    running = set(futures)
                    try:
                        while running:
                            done, running = wait(running, return_when=FIRST_COMPLETED)
                            for future in done:
                                key = futures[future]
                                result = future.result()
                                del left[key]
                                yield key, result
                    except BaseException:  # an error, or a stop: start nothing more
                        for future in running:
                            future.cancel()
                        raise
            except BrokenProcessPool:
                if self.restarts >= self.retries:
                    names = ", ".join(sorted(left)[:5]) + (", …" if len(left) > 5 else "")
                    raise JobError(f"a worker process died {self.restarts + 1} times; "
                                   f"tasks not done: {names}") from None
                self.restarts += 1
            pending = [(key, task) for key, task in pending if key in left]

    def close(self) -> None:
        pass


def import_ray() -> Any:
    """The ``ray`` module, or :class:`JobError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise JobError(CLUSTER_HINT) from None
    return ray


class _Worker:
    """The body of a Ray actor: runs the job's setup once, then its tasks."""

    def __init__(self, setup: Setup) -> None:
        if setup is not None:
            setup()

    def run(self, work: Work, task: Any) -> Any:
        return work(task)

    def pid(self) -> int:
        return os.getpid()


class RayBackend:
    """``workers`` Ray actors (one CPU each). ``address``: a cluster's (``ray start``), or
    ``None`` to start a local Ray of ``workers`` CPUs (or join the one already started in
    this process). A task whose actor died is run again on a new actor, at most
    ``retries`` times."""

    def __init__(self, workers: int = 2, address: str | None = None, *,
                 retries: int = RETRIES) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.ray = import_ray()
        self.workers = workers
        self.retries = retries
        self.retried = 0  # tasks run again after their actor died
        self.actors: list[Any] = []
        self._started = False
        if not self.ray.is_initialized():
            try:
                if address is None:
                    self.ray.init(num_cpus=workers, include_dashboard=False,
                                  log_to_driver=False)
                else:
                    self.ray.init(address=address, log_to_driver=False)
            except Exception as exc:  # Ray's own errors: ConnectionError, RuntimeError...
                where = "a local Ray" if address is None else f"Ray at {address}"
                raise JobError(f"could not start {where}: {exc}") from None
            self._started = True
        self._actor_class = self.ray.remote(num_cpus=1, max_restarts=0)(_Worker)

    def _new_actor(self, setup: Setup) -> Any:
        return self._actor_class.remote(setup)

    def map(self, items: Sequence[tuple[str, Any]], work: Work,
            setup: Setup) -> Iterator[tuple[str, Any]]:
        ray = self.ray
        died = (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError)
        if not items:
            return
        self.actors = [self._new_actor(setup) for _ in range(min(self.workers, len(items)))]
        pending: deque[tuple[str, Any, int]] = deque((key, task, 0) for key, task in items)
        idle = list(range(len(self.actors)))
        running: dict[Any, tuple[int, str, Any, int]] = {}
        while pending or running:
            while idle and pending:
                slot = idle.pop()
                key, task, attempt = pending.popleft()
                running[self.actors[slot].run.remote(work, task)] = (slot, key, task, attempt)
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                slot, key, task, attempt = running.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    # an error of the work itself: the caller gets it as the work raised
                    # it (its class and attributes, such as an aborted game's moves),
                    # not Ray's wrapper of it
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, Exception):
                        raise cause from None
                    raise
                except died as exc:
                    if attempt >= self.retries:
                        raise JobError(f"task {key}: its worker died {attempt + 1} times "
                                       f"(last: {type(exc).__name__})") from None
                    self.retried += 1
                    self.actors[slot] = self._new_actor(setup)
                    pending.appendleft((key, task, attempt + 1))
                    idle.append(slot)
                    continue
                idle.append(slot)
                yield key, result

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []
        if self._started:
            self.ray.shutdown()
            self._started = False


def make_backend(workers: int = 1, *, ray: bool = False, address: str | None = None) -> Backend:
    """:class:`RayBackend` when ``ray`` (or an ``address``) is given, else
    :class:`LocalBackend`."""
    if ray or address is not None:
        return RayBackend(workers, address)
    return LocalBackend(workers)


class Journal:
    """The JSON-lines record of a job's finished tasks at ``path`` (see the module)."""

    def __init__(self, path: str | os.PathLike[str], params: Mapping[str, Any]) -> None:
        self.path = Path(path)
        self.params = json.loads(json.dumps(dict(params)))  # as it reads back

    def load(self) -> dict[str, Any]:
        """The results already recorded (none if the file does not exist); a line cut
        short by a stopped job is dropped. :class:`JobError` if the journal belongs to a
        job with other parameters."""
        if not self.path.exists():
            return {}
        done: dict[str, Any] = {}
        with self.path.open(encoding="utf-8") as f:
            lines = f.read().splitlines()
        if not lines:
            return {}
        try:
            header = json.loads(lines[0])["job"]
        except (ValueError, KeyError, TypeError):
            raise JournalError(f"{self.path} is not a hasamigo job journal") from None
        if header != self.params:
            raise JournalError(f"{self.path} holds a job with other parameters ({header}); "
                           "give the same ones to resume it, or remove the file") from None
        for line in lines[1:]:
            try:
                entry = json.loads(line)
                done[str(entry["key"])] = entry["result"]
            except (ValueError, KeyError, TypeError):
                continue  # the last line of a job stopped while writing it
        return done

    def start(self) -> None:
        """Write the header of a new journal (an existing one is kept as it is), and end
        a line a stopped job left cut short."""
        if self.path.exists() and self.path.stat().st_size:
            with self.path.open("rb+") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    f.write(b"\n")
            return
        with self.path.open("w", encoding="utf-8") as f:
            f.write(json.dumps({"job": self.params}) + "\n")

    def append(self, key: str, result: Any) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"key": key, "result": result}) + "\n")
            f.flush()


def _held(tasks: Mapping[str, Any], journal: Journal | None) -> dict[str, Any]:
    """The results of ``tasks`` that ``journal`` already holds."""
    done = journal.load() if journal is not None else {}
    return {key: result for key, result in done.items() if key in tasks}


def _fresh(tasks: Mapping[str, T], done: Mapping[str, Any], work: Callable[[T], Any],
           backend: Backend, setup: Setup,
           journal: Journal | None) -> Iterator[tuple[str, Any]]:
    """Run the tasks not in ``done``; yield each result as it comes, once journalled."""
    if journal is not None:
        journal.start()
    todo = [(key, task) for key, task in tasks.items() if key not in done]
    for key, result in backend.map(todo, work, setup):
        if journal is not None:
            journal.append(key, result)
        yield key, result


def run_job(tasks: Mapping[str, T], work: Callable[[T], Any], *, backend: Backend,
            setup: Setup = None, journal: Journal | None = None,
            on_result: Callable[[str, Any], None] | None = None,
            on_start: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Run ``work`` on every task of ``tasks`` (key -> task) with ``backend``; return
    every result by key, in the order of ``tasks``. With a ``journal``, the tasks it
    already holds are not run again, and each new result is appended as it comes.
    ``on_start(n)`` is called first with the number of tasks already done,
    ``on_result(key, result)`` for each new result."""
    done = _held(tasks, journal)
    if on_start is not None:
        on_start(len(done))
    for key, result in _fresh(tasks, done, work, backend, setup, journal):
        done[key] = result
        if on_result is not None:
            on_result(key, result)
    return {key: done[key] for key in tasks}


def iter_job(tasks: Mapping[str, T], work: Callable[[T], Any], *, backend: Backend,
             setup: Setup = None, journal: Journal | None = None,
             on_start: Callable[[int], None] | None = None) -> Iterator[tuple[str, Any]]:
    """:func:`run_job` as a generator, for a caller that consumes results as they come:
    yields ``(key, result)``, first those the journal holds (in the order of ``tasks``;
    ``on_start`` is told how many), then each new one as it finishes.

    >>> list(iter_job({"a": 2, "b": 3}, _square, backend=LocalBackend(1)))
    [('a', 4), ('b', 9)]
    """
    done = _held(tasks, journal)
    if on_start is not None:
        on_start(len(done))
    yield from ((key, done[key]) for key in tasks if key in done)
    yield from _fresh(tasks, done, work, backend, setup, journal)
