"""The live games and their storage: a bounded cache of the database (:class:`GameStore`)
whose appends are committed together when they queue up (:class:`GroupCommit`).

Memory is only a cache: every action first catches up with what other processes stored
(:meth:`GameStore.catch_up`, one small query), and a failed commit drops the game from
memory, so that it reloads what the database holds and memory never runs ahead of it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from hasamigo.game.controller import GameController
from hasamigo.game.state import Phase
from hasamigo.storage.repository import ConcurrentWrite, GameRepository, GameVersion
from hasamigo.web.errors import NotFound, StorageFailure
from hasamigo.web.services.games.live import LiveGame, TimeSource, release_players
from hasamigo.web.settings import Settings

log = logging.getLogger(__name__)
_T = TypeVar("_T")


class GroupCommit:
    """Appends to the database, committed together when they queue up.

    SQLite syncs the disk at every commit (``synchronous=FULL``: a committed move must
    survive a power cut), and with one writer thread those syncs, not the engine, bound
    the server's move rate. Appends that arrive while a commit is running wait and go in
    the next one, one transaction with a savepoint per game
    (:meth:`~hasamigo.storage.games.GameRecords.append_many`); every caller still
    gets its answer only after the commit that holds its events.
    """

    MAX_BATCH = 64

    def __init__(self, repo: GameRepository, writer: ThreadPoolExecutor) -> None:
        self._repo = repo
        self._writer = writer
        self._queue: list[tuple[GameController, int, asyncio.Future[int]]] = []
        self._task: asyncio.Task[None] | None = None

    async def append(self, game: GameController, stored: int) -> int:
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((game, stored, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            batch = self._queue[: self.MAX_BATCH]
            del self._queue[: self.MAX_BATCH]
            items = [(game, stored) for game, stored, _ in batch]
            try:
                results: list[int | Exception] = await loop.run_in_executor(
                    self._writer, self._repo.append_many, items)
            except Exception as exc:  # the whole transaction failed
                results = [exc] * len(batch)
            for (_game, _stored, future), result in zip(batch, results, strict=True):
                if future.done():  # the caller went away; its next commit will tell
                    continue
                if isinstance(result, Exception):
                    future.set_exception(result)
                else:
                    future.set_result(result)


class GameStore:
    """The games in memory, up to ``Settings.max_live_games`` (finished and idle ones
    leave and reload on demand), and their reads and writes of the database. SQLite has
    one writer at a time: one writer thread queues writes fairly instead of letting them
    wait in SQLite's busy handler; other databases get a few.

    ``on_load`` runs when a game is loaded into memory (the owner's claim), ``on_evict``
    when one leaves it (its lease given up)."""

    def __init__(self, repo: GameRepository, settings: Settings, *,
                 time_source: TimeSource, wall_clock: TimeSource) -> None:
        self.repo = repo
        self.settings = settings
        self.now = time_source  # idle times
        self.wall = wall_clock  # the games' clocks (events' instants)
        self.rng = random.SystemRandom()
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self.on_load: Callable[[LiveGame], Awaitable[None]] | None = None
        self.on_evict: Callable[[LiveGame], None] | None = None
        self._load_lock = asyncio.Lock()
        #: the games being loaded: whether a change of theirs was announced meanwhile
        self._loading: dict[str, bool] = {}
        sqlite = repo.db.url.startswith("sqlite")
        self._writer = ThreadPoolExecutor(max_workers=1 if sqlite else 8,
                                          thread_name_prefix="hasamigo-db")
        self._group = GroupCommit(repo, self._writer)

    # ---- the writer thread -----------------------------------------------------------
    async def write(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run a write of the database on the writer thread."""
        return await asyncio.get_running_loop().run_in_executor(self._writer, fn, *args)

    def submit(self, fn: Callable[..., object], *args: Any) -> None:
        """Queue a write nobody waits for (dropped when the writer is shut down)."""
        with contextlib.suppress(RuntimeError):  # the writer is shut down: stopping
            self._writer.submit(fn, *args)

    def shutdown(self) -> None:
        self._writer.shutdown(wait=True)

    # ---- memory ------------------------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame:
        """The game, loaded from the database if it is not in memory (404 if it is in
        neither)."""
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
            raise NotFound(f"no game {game_id[:32]!r}")
        live = self.games.get(game_id)
        if live is None:
            async with self._load_lock:
                live = self.games.get(game_id)
                if live is None:
                    live = await self._load(game_id)
        self.games.move_to_end(game_id)
        live.touched = self.now()
        return live

    async def _load(self, game_id: str) -> LiveGame:
        self._loading[game_id] = False
        try:
            stored = await asyncio.to_thread(self.repo.load, game_id, time_source=self.wall,
                                             rng=self.rng)
            if stored is None:
                raise NotFound(f"no game {game_id!r}")
            live = LiveGame(game_id, stored.game, len(stored.game.events),
                            public=stored.public, creator=stored.creator, touched=self.now())
            pending = await asyncio.to_thread(self.repo.pending_joins, game_id)
            live.awaiting_join = any(1 in seats for seats in pending)  # the invited seat
            self.remember(live)
        finally:
            heard_meanwhile = self._loading.pop(game_id)
        if heard_meanwhile:  # another process's change may have come after what was read
            async with live.lock:
                await self.catch_up(live)
        if self.on_load is not None:
            await self.on_load(live)
        return live

    def heard(self, game_id: str) -> None:
        """A change of a game not in memory was announced: if it is being loaded, it
        catches up once loaded (what was read may predate the change)."""
        if game_id in self._loading:
            self._loading[game_id] = True

    def remember(self, live: LiveGame) -> None:
        """Keep the game in memory, letting the excess go: finished games first, then the
        least recently used; never a busy one."""
        self.games[live.id] = live
        self.games.move_to_end(live.id)
        excess = len(self.games) - self.settings.max_live_games
        if excess <= 0:
            return
        candidates = sorted(
            (g for g in self.games.values() if g is not live and not g.busy),
            key=lambda g: (g.game.phase is not Phase.OVER, g.touched))
        for old in candidates[:excess]:
            self.evict(old)

    def full(self) -> bool:
        """No room for another game: as many as allowed, all of them busy."""
        return len(self.games) >= self.settings.max_live_games and all(
            g.busy for g in self.games.values())

    def evict(self, live: LiveGame) -> None:
        """The game leaves memory (its search, if any, is stopped; its lease is given
        up); it reloads on demand."""
        live.stop_programs()
        self.games.pop(live.id, None)
        release_players(live)
        if self.on_evict is not None:
            self.on_evict(live)

    # ---- the database ----------------------------------------------------------------
    async def commit(self, live: LiveGame, *, keep: bool = False) -> None:
        """Store the events appended since the last commit (call under the game's lock).

        ``keep``: another process having stored events first raises
        :class:`ConcurrentWrite` with the game kept, for the caller to catch up and try
        again; otherwise every failure drops the game from memory (it reloads what the
        database holds) and raises :class:`StorageFailure`."""
        if len(live.game.events) == live.stored:
            return
        try:
            live.stored = await self._group.append(live.game, live.stored)
        except ConcurrentWrite:
            if keep:
                raise
            self.evict(live)
            raise StorageFailure("the game was changed by another server process at the "
                                 "same moment: try again") from None
        except Exception as exc:
            log.exception("commit of game %s failed", live.id)
            self.evict(live)  # reload what the database holds
            raise StorageFailure(f"the game could not be saved: {exc}") from exc

    async def catch_up(self, live: LiveGame, version: GameVersion | None = None,
                       *, known: bool = False) -> bool:
        """Bring the game up to what the database holds (call under its lock): events,
        visibility, seats and the count another process changed. ``version``/``known``: the caller
        read it already (``None`` with ``known``: the game is gone). Returns whether
        anything changed; raises :class:`NotFound` if another process deleted it."""
        if not known:
            version = (await asyncio.to_thread(self.repo.versions, [live.id])).get(live.id)
        if version is None:
            self.evict(live)
            if not live.deleted:
                live.deleted, live.public = True, False
                live.notify()
            raise NotFound(f"no game {live.id!r}")
        changed = (version.public, version.awaiting_join) != (live.public, live.awaiting_join)
        live.public, live.awaiting_join = version.public, version.awaiting_join
        if version.event_count != live.stored \
                or version.scoring != live.game.options.counted_by.code:
            stored = await asyncio.to_thread(self.repo.load, live.id, time_source=self.wall,
                                             rng=self.rng)
            if stored is None:
                return await self.catch_up(live, None, known=True)
            live.game, live.stored = stored.game, len(stored.game.events)
            live.public = stored.public
            live.ready = None
            live.stop_stale_search()
            changed = True
        return changed

    async def still_there(self, live: LiveGame) -> None:
        """Before refusing a reader: catch up with the database (another process may have
        deleted the game, or made it public)."""
        async with live.lock:
            await self.catch_up(live)


__all__ = ["GameStore", "GroupCommit"]
