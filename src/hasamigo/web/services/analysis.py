"""Hints and the evaluation graph: engine searches on the search threads, never on the loop.

The search threads are shared with the programs' moves (:class:`GameService` takes
:attr:`AnalysisService.pool`); at most ``search_queue`` analysis requests wait for one,
more are refused as busy. Evaluations are cached by position, in a bounded cache.

:class:`EngineWarmup` gets the engine ready after start-up, in the background: the pages
are served at once; hints and evaluations are refused as busy, and programs wait, until
it is ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal, TypeVar

from hasamigo.analysis.puzzles import Puzzle, Verdict, judge
from hasamigo.board import Board
from hasamigo.engine import Engine, Limit
from hasamigo.engine.book import default_book
from hasamigo.engine.core import MoveScore
from hasamigo.move import BLACK
from hasamigo.web.errors import Busy
from hasamigo.web.schemas import BookMoveView, EvaluationsView, HintsView, HintView
from hasamigo.web.settings import Settings

log = logging.getLogger(__name__)

TABLE_SIZE = 1 << 16  # 2 MB per engine: analysis is shallow
_T = TypeVar("_T")
#: what a refused hint says while the engine warms
WARMING = "the engine is starting (first run compiles it: about a minute)"
#: the kernel groups the server uses (:mod:`hasamigo._kernels.warm`)
KERNEL_GROUPS = ("rules", "engine", "players", "wide")


def _per_square(board: Board, lines: list[MoveScore]) -> list[HintView]:
    """A hint per square, best first: under a 挟み碁 flip rule a square's several moves
    (one per choice of discs) are shown by the best of them."""
    seen: set[int] = set()
    hints = []
    for line in lines:
        sq = line.move.square
        if sq is None or sq in seen:
            continue
        seen.add(sq)
        hints.append(HintView(move=board.square_name(sq), score=line.score))
    return hints


class AnalysisService:
    """Engines (one per search thread at most) on a bounded pool of threads."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: set by the app's lifespan; ``None`` (tests without one): no waiting
        self.warmup: EngineWarmup | None = None
        self.pool = ThreadPoolExecutor(max_workers=settings.search_workers,
                                       thread_name_prefix="hasamigo-search")
        self._engines: queue.SimpleQueue[Engine] = queue.SimpleQueue()
        self._evals: OrderedDict[tuple[str, int], int | None] = OrderedDict()
        self._evals_lock = threading.Lock()
        self._waiting = 0

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _engine(self) -> Engine:
        try:
            return self._engines.get_nowait()
        except queue.Empty:
            return Engine(table_size=TABLE_SIZE)

    async def _run(self, fn: object, *args: object) -> _T:
        if self.warmup is not None and not self.warmup.ready.is_set():
            raise Busy(WARMING)
        if self._waiting >= self.settings.search_queue:
            raise Busy("the analysis queue is full: try again in a moment")
        self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            result: _T = await loop.run_in_executor(self.pool, fn, *args)  # type: ignore[arg-type]
            return result
        finally:
            self._waiting -= 1

    def _hints(self, board: Board) -> HintsView:
        engine = self._engine()
        try:
            lines = engine.hints(board, Limit(depth=self.settings.hint_depth))
        finally:
            self._engines.put(engine)
        book = default_book()
        return HintsView(
            side="black" if board.turn is BLACK else "white",
            depth=self.settings.hint_depth,
            hints=_per_square(board, lines),
            book=[] if book is None else [
                BookMoveView(move=board.move_name(m.move), value=m.value, games=m.games,
                             in_book=m.in_book) for m in book.moves(board)],
        )

    async def hints(self, board: Board) -> HintsView:
        """Every legal move's score, in discs from the side to move."""
        if board.is_game_over() or board.must_pass():
            return HintsView(side="black" if board.turn is BLACK else "white",
                             depth=self.settings.hint_depth, hints=[])
        return await self._run(self._hints, board.copy())

    def _judge(self, puzzle: Puzzle, move: str) -> Verdict:
        engine = self._engine()
        try:
            return judge(puzzle, move, engine)
        finally:
            self._engines.put(engine)

    async def judge(self, puzzle: Puzzle, move: str) -> Verdict:
        """A puzzle's answer judged by the exact solver (see
        :mod:`hasamigo.analysis.puzzles`), on the search threads."""
        return await self._run(self._judge, puzzle, move)

    def _cached(self, key: tuple[str, int]) -> tuple[bool, int | None]:
        with self._evals_lock:
            if key in self._evals:
                self._evals.move_to_end(key)
                return True, self._evals[key]
        return False, None

    def _remember(self, key: tuple[str, int], score: int | None) -> None:
        with self._evals_lock:
            self._evals[key] = score
            while len(self._evals) > self.settings.analysis_cache_entries:
                self._evals.popitem(last=False)

    def _evaluations(self, board: Board) -> list[int | None]:
        root = board.root()
        moves = list(board.move_stack)
        depth = self.settings.eval_depth
        engine = self._engine()
        scores: list[int | None] = []
        try:
            for ply in range(len(moves) + 1):
                if ply:
                    root.push(moves[ply - 1])
                key = (f"{root.name}:{root.to_string()}", depth)
                found, score = self._cached(key)
                if not found:
                    outcome = root.outcome()
                    if outcome is not None:
                        score = outcome.disc_difference
                    else:
                        analysis = engine.analyse(root, Limit(depth=depth))
                        score = analysis.score if root.turn is BLACK else -analysis.score
                    self._remember(key, score)
                scores.append(score)
        finally:
            self._engines.put(engine)
        return scores

    async def evaluations(self, board: Board) -> EvaluationsView:
        """The evaluation after every ply (Black's point of view, discs)."""
        scores: list[int | None] = await self._run(self._evaluations, board.copy())
        return EvaluationsView(depth=self.settings.eval_depth, scores=scores)

    def warm(self) -> None:
        """Load (or compile) the engine kernels once."""
        board = Board()
        engine = self._engine()
        try:
            engine.analyse(board, Limit(depth=2))
            engine.hints(board, Limit(depth=1))
            near_end = Board("X" * 61 + "OO- X")
            engine.solve(near_end)
        finally:
            self._engines.put(engine)


def kernels_on_disk() -> bool:
    """Whether numba's cache holds the server's kernels (else the next start compiles)."""
    from hasamigo._kernels.warm import on_disk

    held: bool = on_disk(*KERNEL_GROUPS)
    return held


def compile_kernels() -> None:
    """Compile (or load) the server's kernels in this process."""
    from hasamigo._kernels.warm import warm

    warm(*KERNEL_GROUPS)


class EngineWarmup:
    """The engine's start-up, in the background: the pages are served meanwhile.

    The first run after an install or a kernel edit compiles the kernels (half a minute of
    CPU; more on a busy 2-core machine). Compiled in the server's own process, even in a
    thread, that stalls the pages: numba's compiler is Python, holding the GIL (measured
    during a cold compile on 2 cores, ``GET /`` every 50 ms: 99 ms at the 95th percentile
    and 0.42 s at worst, against 4 ms and 0.06 s with the subprocess). So a cold start
    compiles in a subprocess (``python -m hasamigo._kernels.warm``) that fills numba's
    disk cache, and then ``load`` loads the kernels here, in a thread (under a second).
    A warm start only loads. ``ready`` is set when the load is done, even if it failed:
    the failure is logged, and the kernels compile on first use instead.

    ``load`` is the in-process step (the app's: the kernels, an analysis and each program's
    first move; tests inject a slow one with ``compile_first=False``).
    """

    def __init__(self, load: Callable[[], None], *, compile_first: bool = True,
                 ready: asyncio.Event | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        #: set once the engine is ready (``ready``: an event others already hold)
        self.ready = ready or asyncio.Event()
        #: this start compiles (the cache did not hold the kernels)
        self.compiling = False
        self._load = load
        self._compile_first = compile_first
        self._clock = clock
        self._started: float | None = None
        self._finished: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._listeners: list[Callable[[EngineWarmup], None]] = []

    @classmethod
    def skipped(cls, ready: asyncio.Event | None = None) -> EngineWarmup:
        """Ready at once, warming nothing (``Settings(warm_engine=False)``: kernels compile
        on first use)."""
        warmup = cls(lambda: None, compile_first=False, ready=ready)
        warmup._started = warmup._finished = warmup._clock()
        warmup.ready.set()
        return warmup

    @property
    def state(self) -> Literal["ready", "warming"]:
        return "ready" if self.ready.is_set() else "warming"

    @property
    def seconds(self) -> float:
        """Seconds spent warming so far, or what the warm-up took once ready."""
        if self._started is None:
            return 0.0
        end = self._finished if self._finished is not None else self._clock()
        return max(0.0, end - self._started)

    def subscribe(self, listener: Callable[[EngineWarmup], None]) -> None:
        """Call ``listener`` (on the event loop) when the engine is ready; at once if it is."""
        if self.ready.is_set():
            listener(self)
        else:
            self._listeners.append(listener)

    def start(self) -> None:
        """Begin warming (call on the running loop)."""
        self._started = self._clock()
        self.compiling = self._compile_first and not kernels_on_disk()
        self._task = asyncio.create_task(self._run(), name="hasamigo-engine-warmup")

    async def stop(self) -> None:
        """Stop warming at shutdown: the compiling subprocess is killed; a thread loading
        kernels is left to end with the process."""
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        try:
            if self.compiling:
                await self._compile_in_subprocess()
            await _in_daemon_thread(self._load)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("warming the engine failed: its kernels compile on first use")
        self._finished = self._clock()
        self.ready.set()
        for listener in self._listeners:
            try:
                listener(self)
            except Exception:
                log.exception("engine warm-up listener failed")
        self._listeners.clear()

    async def _compile_in_subprocess(self) -> None:
        """Fill numba's disk cache from a process of its own. If that fails, the load in
        this process compiles instead (slower pages, the same result)."""
        import hasamigo

        # the child must import these very sources: the cache is keyed by them
        root = str(Path(hasamigo.__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        try:
            self._process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "hasamigo._kernels.warm", *KERNEL_GROUPS,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE, env=env)
            _, err = await self._process.communicate()
        except OSError as exc:
            log.warning("cannot start the kernel compiler (%s): compiling in-process", exc)
            return
        if self._process.returncode != 0:
            log.warning("the kernel compiler failed (exit %s): compiling in-process\n%s",
                        self._process.returncode, err.decode(errors="replace")[-2000:])


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

    threading.Thread(target=run, name="hasamigo-engine-warmup", daemon=True).start()
    await done
