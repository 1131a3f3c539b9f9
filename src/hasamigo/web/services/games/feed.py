"""What other processes changed, and who is told (:class:`ChangeFeed`).

Watchers on any process get every move: the database's processes announce each change
(PostgreSQL's ``LISTEN``/``NOTIFY``, a SQLite file's datagrams on Linux: see
:mod:`hasamigo.storage.announcements`), heard on a thread of its own, and every process
also polls its live games' versions (the safety net; every half second where nothing is
heard). A changed game is caught up and its watchers (the websockets' queues) are woken."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from hasamigo.storage.repository import GameVersion
from hasamigo.web.errors import Busy, NotFound
from hasamigo.web.services.games.live import LiveGame
from hasamigo.web.services.games.store import GameStore
from hasamigo.web.settings import Settings

log = logging.getLogger(__name__)


class ChangeFeed:
    """The listener, the poll and the watchers of the live games. ``after_change`` runs
    once a game another process changed is caught up (the owner's program answers)."""

    def __init__(self, store: GameStore, settings: Settings, *,
                 after_change: Callable[[LiveGame], Awaitable[None]]) -> None:
        self.store = store
        self.settings = settings
        self._after_change = after_change
        self._listener: threading.Thread | None = None
        self._stopping = threading.Event()
        self._background: set[asyncio.Task[None]] = set()

    @property
    def announced(self) -> bool:
        """Other processes' changes are heard as they happen: polling is only a safety
        net."""
        return self._listener is not None and self._listener.is_alive()

    def start(self) -> None:
        """Where the database announces changes, listen for them (on SQLite, not for
        this process's own: it knows them, and an account's deletion, which changes games
        out of its sight, drops its copies)."""
        if self.store.repo.announces:
            loop = asyncio.get_running_loop()
            self._listener = threading.Thread(
                target=self.store.repo.listen,
                args=(functools.partial(self._heard, loop), self._stopping),
                kwargs={"own": False}, daemon=True, name="hasamigo-listen")
            self._listener.start()

    def stop(self) -> None:
        self._stopping.set()

    # ---- watchers ------------------------------------------------------------------------
    def subscribe(self, live: LiveGame) -> asyncio.Queue[None]:
        if len(live.subscribers) >= self.settings.max_watchers_per_game:
            raise Busy("too many people are watching this game")
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        live.subscribers.add(queue)
        return queue

    def unsubscribe(self, live: LiveGame, queue: asyncio.Queue[None]) -> None:
        live.subscribers.discard(queue)
        live.touched = self.store.now()

    async def wait_for_move(self, live: LiveGame) -> None:
        """Wait (at most ``reply_wait_seconds``) for the program's move to arrive from the
        process that runs the game."""
        if len(live.subscribers) >= self.settings.max_watchers_per_game:
            return
        queue = self.subscribe(live)
        live.waiters += 1
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.reply_wait_seconds):
                    while live.game.program_to_move() is not None and not live.deleted:
                        await queue.get()
        finally:
            live.waiters -= 1
            self.unsubscribe(live, queue)

    # ---- other processes' changes ----------------------------------------------------------
    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _heard(self, loop: asyncio.AbstractEventLoop, game_id: str) -> None:
        """The listener thread heard that a game changed (PostgreSQL ``NOTIFY``)."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: stopping
            loop.call_soon_threadsafe(self._changed, game_id)

    def _changed(self, game_id: str) -> None:
        live = self.store.games.get(game_id)
        if live is None:
            self.store.heard(game_id)  # one being loaded looks again once loaded
            return
        if live.catching_up:
            live.heard_again = True
            return
        live.catching_up = True
        self._spawn(self._on_change(live))

    async def poll(self) -> None:
        """Compare every live game with the database in one query; catch up the changed."""
        lives = [g for g in self.store.games.values() if not g.catching_up]
        if not lives:
            return
        versions = await asyncio.to_thread(self.store.repo.versions, [g.id for g in lives])
        for live in lives:
            version = versions.get(live.id)
            if version is not None and version.event_count == live.stored \
                    and (version.public, version.awaiting_join, version.scoring) \
                    == (live.public, live.awaiting_join, live.game.options.counted_by.code):
                continue
            live.catching_up = True
            self._spawn(self._on_change(live, version, known=True))

    async def _on_change(self, live: LiveGame, version: GameVersion | None = None,
                         *, known: bool = False) -> None:
        """Another process changed the game: catch up, tell the watchers, and (the owner)
        let the program answer. A change heard meanwhile makes it look again."""
        try:
            while True:
                live.heard_again = False
                async with live.lock:
                    if await self.store.catch_up(live, version, known=known):
                        live.notify()
                if not live.heard_again:
                    break
                version, known = None, False
        except NotFound:
            return
        except Exception:
            log.exception("catching up with game %s failed", live.id)
            return
        finally:
            live.catching_up = live.heard_again = False
        await self._after_change(live)


__all__ = ["ChangeFeed"]
