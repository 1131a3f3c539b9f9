"""Game reviews in the background: one at a time, a move at a time, stored as they go.

``POST /api/games/{id}/review`` stores a queued review (:class:`ReviewRepository`) and puts
the game on this service's queue; one worker task takes the games in turn. Each move's
review (:func:`hasamigo.analysis.review.review` with the rows done so far as ``done``) runs
on the service's own thread, never on the event loop and never on the search threads the
programs' moves need, and each row is committed as it comes: a restart resumes every
queued or running review from its stored rows (:meth:`ReviewService.start`), recomputing
none of them. The engine waits for the warm-up (``engine_ready``) like the programs do.

A review is made with the server's depth and exact-solve threshold at the time it is
requested (:class:`Settings` ``review_depth``, ``review_exact_empties``) and keeps them.
Only finished games are reviewed: their moves no longer change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from hasamigo.analysis.review import (
    MoveReview,
    Review,
    check_options,
    check_reviewable,
    review,
    rows_from_json,
)
from hasamigo.board import Board
from hasamigo.engine.pool import EnginePool
from hasamigo.errors import HasamigoError, InvalidOptionError
from hasamigo.game.errors import GameError
from hasamigo.game.state import Phase
from hasamigo.move import Move
from hasamigo.storage.reviews import ReviewRepository, StoredReview
from hasamigo.web.errors import Busy, Forbidden, NotFound
from hasamigo.web.schemas_review import ReviewView
from hasamigo.web.services.games import GameService, LiveGame
from hasamigo.web.settings import Settings

log = logging.getLogger(__name__)


def reviewable_board(board: Board) -> None:
    """Refuse (:class:`InvalidOptionError`) a board the engine cannot review: those
    :func:`check_reviewable` names, and boards with a ring (its kernels flip no rings)."""
    check_reviewable(board)
    if board.rules.supports("ring_flips"):
        raise InvalidOptionError(f"the engine cannot review games of {board.title}: its "
                                 "search knows no flips along a ring")


def game_moves(live: LiveGame) -> tuple[Board, list[Move]]:
    """The game's start position and its moves (passes included)."""
    board = live.game.board
    return board.root(), list(board.move_stack)


class ReviewService:
    """The review queue and its worker (see the module docstring)."""

    def __init__(self, repo: ReviewRepository, games: GameService, settings: Settings, *,
                 engine_ready: asyncio.Event | None = None) -> None:
        self.repo = repo
        self.games = games
        self.settings = settings
        self.engine_ready = engine_ready
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._pending: set[str] = set()  # queued or being reviewed
        self._worker: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hasamigo-review")
        #: the review thread's engine, kept from one move (and game) to the next
        self.engines = EnginePool()
        #: the game being reviewed now, if any
        self.current: str | None = None

    # ---- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        """Queue the unfinished reviews again (oldest first) and start the worker."""
        for game_id in await asyncio.to_thread(self.repo.unfinished):
            await asyncio.to_thread(self.repo.set_status, game_id, "queued")
            self._enqueue(game_id)
        self._worker = asyncio.create_task(self._work(), name="hasamigo-review")

    async def stop(self) -> None:
        """Stop the worker: the move being searched is abandoned (its row was not stored;
        the next start computes it again), every stored row stays."""
        self.engines.cancel()
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
        self._thread.shutdown(wait=False, cancel_futures=True)

    def _enqueue(self, game_id: str) -> None:
        if game_id not in self._pending:
            self._pending.add(game_id)
            self._queue.put_nowait(game_id)

    # ---- requests ----------------------------------------------------------------------
    async def request(self, live: LiveGame) -> tuple[StoredReview, bool]:
        """The game's review, queued if it is new (or failed before: it resumes from its
        rows), and whether this call queued it. The caller checked that the game may be
        reviewed (:func:`check_game`)."""
        stored = await asyncio.to_thread(self.repo.get, live.id)
        fresh = stored is None or stored.status == "failed"
        if fresh and live.id not in self._pending \
                and len(self._pending) >= self.settings.review_queue:
            raise Busy("too many reviews are waiting: try again later")
        if stored is None:
            try:
                stored = await asyncio.to_thread(self._create, live.id)
            except KeyError as exc:  # deleted meanwhile
                raise NotFound(f"no game {live.id!r}") from exc
        elif stored.status == "failed":
            await asyncio.to_thread(self.repo.set_status, live.id, "queued")
            stored = replace(stored, status="queued", error=None)
        queued = live.id not in self._pending and stored.status in ("queued", "running")
        if stored.status in ("queued", "running"):
            self._enqueue(live.id)
        return stored, queued

    def _create(self, game_id: str) -> StoredReview:
        stored, _created = self.repo.create(
            game_id, depth=self.settings.review_depth,
            exact_empties=self.settings.review_exact_empties)
        return stored

    async def view(self, live: LiveGame) -> ReviewView:
        """The game's review as the API shows it; :class:`NotFound` if it has none."""
        stored = await asyncio.to_thread(self.repo.get, live.id)
        if stored is None:
            raise NotFound(f"game {live.id} has not been reviewed: POST to start")
        return review_view(stored, live)

    # ---- the work ----------------------------------------------------------------------
    async def _work(self) -> None:
        while True:
            game_id = await self._queue.get()
            self.current = game_id
            try:
                await self._review(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not isinstance(exc, HasamigoError):
                    log.exception("the review of game %s failed", game_id)
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.repo.set_status, game_id, "failed",
                                            f"{type(exc).__name__}: {exc}"
                                            if not isinstance(exc, HasamigoError) else str(exc))
            finally:
                self.current = None
                self._pending.discard(game_id)

    async def _review(self, game_id: str) -> None:
        if self.engine_ready is not None:
            await self.engine_ready.wait()
        stored = await asyncio.to_thread(self.repo.get, game_id)
        if stored is None or stored.status == "done":
            return
        try:
            live = await self.games.get(game_id)
        except NotFound:  # the game was deleted (its review went with it)
            return
        start, moves = game_moves(live)
        check_options(stored.depth, stored.exact_empties)
        reviewable_board(start)
        if self.games.kernels is not None:  # the 10-column grid's load when first needed
            from hasamigo.web.services.analysis import analysis_groups

            await self.games.kernels.wait(*analysis_groups(start))
        rows = list(rows_from_json(stored.rows, start, moves))
        if len(rows) > len(moves):
            raise InvalidOptionError(f"the review has {len(rows)} rows, the game "
                                     f"{len(moves)} moves")
        for number, (row, move) in enumerate(zip(rows, moves, strict=False), 1):
            if row.move != move:  # a finished game's moves are fixed: a damaged review
                raise InvalidOptionError(f"the review's move {number} is {row.name}, the "
                                         f"game's {start.move_name(move)}")
        await asyncio.to_thread(self.repo.set_status, game_id, "running")
        loop = asyncio.get_running_loop()
        while len(rows) < len(moves):
            row = await loop.run_in_executor(self._thread, self._one, start,
                                             moves[:len(rows) + 1], rows, stored.depth,
                                             stored.exact_empties)
            try:
                await asyncio.to_thread(self.repo.append, game_id, len(rows), row.to_json())
            except KeyError:  # the game was deleted meanwhile, its review with it
                return
            rows.append(row)
        await asyncio.to_thread(self.repo.set_status, game_id, "done")

    def _one(self, start: Board, moves: Sequence[Move], done: Sequence[MoveReview],
             depth: int, exact_empties: int) -> MoveReview:
        """Review the last of ``moves`` (the rows before it are ``done``): on the thread."""
        with self.engines.engine() as engine:
            result = review(start, moves, engine=engine, depth=depth,
                            exact_empties=exact_empties, done=done)
        return result.moves[-1]


def check_game(live: LiveGame) -> None:
    """Refuse a game that cannot be reviewed: not over (an official game in progress
    gets no engine help, 403 ``official_game``; a casual one is reviewed once it ends,
    409 ``wrong_phase``: its moves may still be taken back), or on a board the engine
    cannot search (400 ``invalid_option``)."""
    game = live.game
    if game.phase is not Phase.OVER:
        if not game.options.casual:
            raise Forbidden("no review during an official game: it is reviewed once over",
                            "official_game")
        raise GameError("the game is not over: review it once it ends (its moves may "
                        "still change)", "wrong_phase")
    reviewable_board(game_moves(live)[0])


def review_view(stored: StoredReview, live: LiveGame) -> ReviewView:
    """The stored rows as :meth:`Review.to_json`, with the status and the progress. A
    forced move of a review stored before forced moves were searched shows no scores
    (``null``: see :meth:`MoveReview.from_json`)."""
    start, moves = game_moves(live)
    rows = rows_from_json(stored.rows, start, moves)
    data = Review(start.name, rows, stored.depth, stored.exact_empties).to_json()
    return ReviewView.model_validate({**data, "status": stored.status,
                                      "reviewed": len(rows), "total": len(moves),
                                      "error": stored.error})
