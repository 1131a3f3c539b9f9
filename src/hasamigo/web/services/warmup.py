"""The kernels' warm-up, in tiers: each program moves as soon as its own kernels are loaded.

A fresh server compiles the kernels (numba; cached on disk afterwards). The groups
(:data:`hasamigo._kernels.warm.GROUPS`) take very different times: ``rules`` a second of
CPU, ``players`` (the paper's programs) two or three, ``engine`` minutes. So they are
compiled in that order, at start-up, and each is **loaded as soon as it is compiled**:
Random plays at once, the paper's programs within seconds, the engine's levels, hints and
the graph when theirs are ready. The 10-column grid's groups (``wide-rules`` for the
board, ``wide`` for its engine) and the small boards' solver compile only when a game or
an analysis first needs them (:meth:`KernelWarmup.request`), in a compile of their own.

How (see :class:`KernelWarmup`): the groups the cache does not hold are compiled in a
subprocess, ``python -m hasamigo._kernels.warm --progress G...`` (a compile holds the GIL
in long stretches: in the server's process the pages would stall), which says how it goes,
one JSON line per kernel and per group done (:func:`hasamigo._kernels.warm.progress`). As
each group is done, it is loaded here, in a thread (under a second from the cache), one
group at a time, and marked ready. Groups already on disk are only loaded.

The estimate of the time left (``GET /api/status``, the game page's progress bar) scales
the expected CPU seconds of each group (:data:`hasamigo._kernels.warm.EXPECTED_CPU`) by
what this run shows: the CPU the compile gets per second of wall time (a busy machine
compiles slower) and, once a group is done, how its CPU compared with the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

log = logging.getLogger(__name__)

GroupState = Literal["ready", "loading", "compiling", "waiting", "idle"]
#: compiled (or loaded) at start-up, in this order; the others when first needed
START_GROUPS = ("rules", "players", "engine")
#: every group the server may load
SERVER_GROUPS = ("rules", "players", "engine", "wide-rules", "wide", "smallboard")
#: a compile of groups in place of the subprocess (tests): called in a thread with the
#: groups, in order, and a function taking the protocol's events (``warm --progress``)
Compiler = Callable[[list[str], Callable[[dict[str, Any]], None]], None]
#: the weight, in expected CPU seconds, of the table's own figure against what a run shows
PRIOR_SECONDS = 5.0
#: the least share of its expected time a group still compiling is estimated to need
LEAST_LEFT = 0.05


def _expected(group: str) -> float:
    from hasamigo._kernels.warm import EXPECTED_CPU

    return float(EXPECTED_CPU.get(group, 10.0))


def _on_disk(group: str) -> bool:
    from hasamigo._kernels.warm import on_disk

    held: bool = on_disk(group)
    return held


@dataclass
class _Batch:
    """One compile of groups, in order (a subprocess, or the injected compiler)."""

    groups: list[str]
    started: float  # the clock's reading when it began
    cpu: float = 0.0  # the compiler's CPU seconds at its last report
    heard: float = 0.0  # the clock's reading at its last report
    done: dict[str, float] = field(default_factory=dict)  # group -> its CPU seconds
    group_began: float = 0.0  # the compiler's CPU when its current group began
    kernels: list[str] = field(default_factory=list)  # compiling now, outermost first

    @property
    def current(self) -> str | None:
        return next((g for g in self.groups if g not in self.done), None)


class KernelWarmup:
    """The server's kernels, loaded in tiers in the background (see the module docstring).

    ``load(group)`` is the in-process step of a group (the app's: the kernels, then an
    analysis or each program that needs it choosing once), run in a daemon thread, one
    group at a time. ``compiler`` replaces the compiling subprocess (tests inject a slow
    one, which then gets every group requested, as on an empty cache).

    The engine's readiness keeps its old face for the pages and services that wait for
    the engine: :attr:`ready` (an :class:`asyncio.Event`), :attr:`state`, :attr:`seconds`,
    :meth:`subscribe`.
    """

    def __init__(self, load: Callable[[str], None], *, compiler: Compiler | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 groups: Iterable[str] = SERVER_GROUPS) -> None:
        self._load = load
        self._compiler = compiler
        self._clock = clock
        self._groups = tuple(groups)
        self._events: dict[str, asyncio.Event] = {g: asyncio.Event() for g in self._groups}
        self._states: dict[str, GroupState] = dict.fromkeys(self._groups, "idle")
        #: set once the engine's kernels are loaded
        self.ready = self._events.get("engine") or asyncio.Event()
        #: this start compiles something (the cache did not hold every start group)
        self.compiling = False
        self._batches: list[_Batch] = []
        self._load_lock: asyncio.Lock | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._processes: set[asyncio.subprocess.Process] = set()
        self._listeners: list[Callable[[KernelWarmup], None]] = []
        self._started: float | None = None
        self._finished: float | None = None
        self._stopping = False

    @classmethod
    def skipped(cls) -> KernelWarmup:
        """Every group ready at once, warming nothing (``Settings(warm_engine=False)``:
        kernels compile at their first use)."""
        warmup = cls(lambda group: None)
        warmup._started = warmup._finished = warmup._clock()
        for group in warmup._groups:
            warmup._states[group] = "ready"
            warmup._events[group].set()
        return warmup

    # ---- the engine's readiness, as before ----------------------------------------------
    @property
    def state(self) -> Literal["ready", "warming"]:
        return "ready" if self.ready.is_set() else "warming"

    @property
    def seconds(self) -> float:
        """Seconds spent warming the engine so far, or what it took once ready."""
        if self._started is None:
            return 0.0
        end = self._finished if self._finished is not None else self._clock()
        return max(0.0, end - self._started)

    def subscribe(self, listener: Callable[[KernelWarmup], None]) -> None:
        """Call ``listener`` (on the event loop) once the engine is ready; at once if it is."""
        if self.ready.is_set():
            listener(self)
        else:
            self._listeners.append(listener)

    # ---- readiness by group --------------------------------------------------------------
    def is_ready(self, *groups: str) -> bool:
        """Whether every group of ``groups`` is loaded (a group this server does not load
        counts as ready: it compiles at its first use)."""
        return all(g not in self._events or self._events[g].is_set() for g in groups)

    def group_state(self, group: str) -> GroupState:
        return self._states.get(group, "ready")

    def request(self, *groups: str) -> None:
        """Begin getting ``groups`` ready, those not begun yet (call on the running loop)."""
        fresh = [g for g in self._groups if g in groups and self._states[g] == "idle"]
        if not fresh or self._stopping:
            return
        for group in fresh:
            self._states[group] = "waiting"
        self._spawn(self._prepare(fresh))

    async def wait(self, *groups: str) -> None:
        """Request ``groups`` and wait until they are all ready."""
        self.request(*groups)
        for group in groups:
            if group in self._events:
                await self._events[group].wait()

    def start(self) -> None:
        """Begin the start-up groups (call on the running loop)."""
        self._started = self._clock()
        self.compiling = self._compiler is not None or not all(
            _on_disk(g) for g in START_GROUPS)
        self.request(*START_GROUPS)

    async def stop(self) -> None:
        """Stop at shutdown: compiling subprocesses are killed; a thread loading kernels
        is left to end with the process."""
        self._stopping = True
        for process in list(self._processes):
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ---- the work --------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(coro, name="hasamigo-kernels")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _prepare(self, groups: list[str]) -> None:
        """Compile what the cache lacks (one subprocess, the groups in order), loading each
        group as soon as it is compiled; load the others at once."""
        cold = list(groups) if self._compiler is not None else [
            g for g in groups if not await asyncio.to_thread(_on_disk, g)]
        loads: list[asyncio.Task[None]] = []
        for group in groups:
            if group not in cold:
                loads.append(self._spawn(self._load_group(group)))
        if cold:
            batch = _Batch(cold, started=self._clock())
            batch.heard = batch.started
            self._batches.append(batch)
            try:
                await self._compile(batch, loads)
            finally:
                self._batches.remove(batch)
            # what the compile did not report done (it failed): loaded, compiling here
            for group in cold:
                if group not in batch.done:
                    loads.append(self._spawn(self._load_group(group)))
        for load in loads:
            await load

    def _heard(self, batch: _Batch, data: dict[str, Any],
               loads: list[asyncio.Task[None]]) -> None:
        """One event of the compile (see :func:`hasamigo._kernels.warm.progress`)."""
        kind = data.get("event")
        cpu = data.get("cpu")
        if isinstance(cpu, int | float):
            batch.cpu = float(cpu)
        batch.heard = self._clock()
        group = data.get("group")
        if kind == "compiling" and isinstance(data.get("kernel"), str):
            batch.kernels.append(data["kernel"])
        elif kind == "compiled" and batch.kernels:
            batch.kernels.pop()
        elif kind == "done" and group in batch.groups and group not in batch.done:
            seconds = data.get("seconds")
            batch.done[group] = float(seconds) if isinstance(seconds, int | float) else 0.0
            batch.group_began = batch.cpu
            batch.kernels.clear()
            self._states[group] = "loading"
            loads.append(self._spawn(self._load_group(group)))
        for g in batch.groups:
            if g not in batch.done and self._states[g] == "waiting" and g == batch.current:
                self._states[g] = "compiling"

    async def _compile(self, batch: _Batch, loads: list[asyncio.Task[None]]) -> None:
        self._heard(batch, {"event": "start"}, loads)
        if self._compiler is not None:
            loop = asyncio.get_running_loop()
            compiler = self._compiler

            def emit(data: dict[str, Any]) -> None:
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    loop.call_soon_threadsafe(self._heard, batch, data, loads)

            try:
                await _in_daemon_thread(lambda: compiler(list(batch.groups), emit))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the injected compile failed")
            await asyncio.sleep(0)  # its last events, posted to the loop, come first
            return
        await self._compile_in_subprocess(batch, loads)

    async def _compile_in_subprocess(self, batch: _Batch,
                                     loads: list[asyncio.Task[None]]) -> None:
        """Fill numba's disk cache from a process of its own. If that fails, the groups it
        did not finish compile in this process when they load (slower pages, the same
        result)."""
        import hasamigo

        # the child must import these very sources: the cache is keyed by them
        root = str(Path(hasamigo.__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "hasamigo._kernels.warm", "--progress", *batch.groups,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=env, limit=1 << 20)
        except OSError as exc:
            log.warning("cannot start the kernel compiler (%s): compiling in-process", exc)
            return
        self._processes.add(process)
        assert process.stdout is not None and process.stderr is not None
        errors = asyncio.create_task(process.stderr.read())
        try:
            async for line in process.stdout:
                try:
                    data = json.loads(line)
                except ValueError:
                    continue
                if isinstance(data, dict):
                    self._heard(batch, data, loads)
            await process.wait()
        finally:
            self._processes.discard(process)
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        err = await errors
        if process.returncode != 0 and not self._stopping:
            log.warning("the kernel compiler failed (exit %s): compiling in-process\n%s",
                        process.returncode, err.decode(errors="replace")[-2000:])

    async def _load_group(self, group: str) -> None:
        """Load ``group`` here (one group at a time), then mark it ready, even if the load
        failed: the failure is logged, and its kernels compile at first use instead."""
        if self._load_lock is None:
            self._load_lock = asyncio.Lock()
        async with self._load_lock:
            self._states[group] = "loading"
            try:
                await _in_daemon_thread(lambda: self._load(group))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("loading the %s kernels failed: they compile at first use",
                              group)
        self._states[group] = "ready"
        self._events[group].set()
        if group == "engine":
            self._engine_ready()

    def _engine_ready(self) -> None:
        self._finished = self._clock()
        for listener in self._listeners:
            try:
                listener(self)
            except Exception:
                log.exception("engine warm-up listener failed")
        self._listeners.clear()

    # ---- how far it has come ------------------------------------------------------------
    def progress(self, group: str) -> tuple[float, float | None, str | None]:
        """``(fraction, seconds_left, kernel)`` of ``group``: how much of its preparation
        is done (0 to 1), the seconds until it is ready (those before it in its compile
        included; ``None`` when not requested), and the kernel compiling now (the
        innermost, ``module.function``) when it is the one compiling."""
        state = self._states.get(group, "ready")
        if state == "ready":
            return 1.0, 0.0, None
        if state == "idle":
            return 0.0, None, None
        if state == "loading":
            return 0.99, 1.0, None
        batch = next((b for b in self._batches if group in b.groups), None)
        if batch is None:  # on disk, waiting for another group's load
            return 0.0, 1.0, None
        now = self._clock()
        wall = max(1e-6, now - batch.started)
        share = min(1.0, max(0.1, batch.cpu / wall)) if wall >= 2.0 else 1.0
        # the compiler's CPU now: its last report (a tick a second), and what it got since
        cpu = batch.cpu + share * min(5.0, max(0.0, now - batch.heard))
        done_cpu = sum(batch.done.values())
        done_expected = sum(_expected(g) for g in batch.done)
        speed = (done_cpu + PRIOR_SECONDS) / (done_expected + PRIOR_SECONDS)
        left = 0.0
        fraction = 0.0
        kernel = None
        for g in batch.groups:
            if g in batch.done:
                continue
            expected = _expected(g) * speed
            if g == batch.current:
                spent = max(0.0, cpu - batch.group_began)
                remaining = max(expected - spent, LEAST_LEFT * expected)
                if g == group:
                    fraction = min(0.98, spent / (spent + remaining))
                    kernel = batch.kernels[-1] if batch.kernels else None
            else:
                remaining = expected
            left += remaining
            if g == group:
                break
        return fraction, round(left / share + 1.0, 1), kernel


async def _in_daemon_thread(fn: Callable[[], None]) -> None:
    """Run ``fn`` in a daemon thread and wait for it. Not the loop's executor: a compile
    running there would hold up the server's shutdown until it ended."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle(exc: BaseException | None) -> None:
        if done.done():
            return
        if exc is None:
            done.set_result(None)
        else:
            done.set_exception(exc)

    def run() -> None:
        error: BaseException | None = None
        try:
            fn()
        except BaseException as exc:  # handed to the waiting task
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(settle, error)

    threading.Thread(target=run, name="hasamigo-kernels", daemon=True).start()
    await done


__all__ = ["SERVER_GROUPS", "START_GROUPS", "Compiler", "GroupState", "KernelWarmup"]
