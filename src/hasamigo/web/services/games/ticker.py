"""What time brings (:class:`ClockTicker`): every ``tick_seconds`` the games this process
runs get the events time appends (a program's claim of a fallen flag, a person's "claim
for me", the end of a play-out on time, a correspondence game's passed deadline); the
server records that it is alive, renews its leases and takes over the games nobody runs
(those whose deadline passed out of every server's memory among them), looks for other
processes' changes, and lets idle games leave memory."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from hasamigo.errors import HasamigoError
from hasamigo.game.state import Phase
from hasamigo.web.errors import StorageFailure
from hasamigo.web.services.games.feed import ChangeFeed
from hasamigo.web.services.games.leases import Ownership
from hasamigo.web.services.games.live import LiveGame
from hasamigo.web.services.games.store import GameStore
from hasamigo.web.settings import Settings

log = logging.getLogger(__name__)


class ClockTicker:
    """The ticker's task. ``advance`` brings a game up to the clock (an action that does
    nothing: what time brought is appended and committed); ``adopt`` takes over up to so
    many games nobody runs."""

    def __init__(self, store: GameStore, ownership: Ownership, feed: ChangeFeed,
                 settings: Settings, *, advance: Callable[[LiveGame], Awaitable[object]],
                 adopt: Callable[[int], Awaitable[None]]) -> None:
        self.store = store
        self.ownership = ownership
        self.feed = feed
        self.settings = settings
        self._advance = advance
        self._adopt = adopt
        self._task: asyncio.Task[None] | None = None
        self._heartbeat_at = self._leases_at = self._polled_at = 0.0

    def start(self) -> None:
        self._heartbeat_at = self._leases_at = self._polled_at = self.store.now()
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.tick_all()
            except Exception:
                log.exception("clock tick failed")

    async def tick_all(self) -> None:
        """Append what time has brought in every live game, record that the server is
        alive, and let idle games leave memory."""
        now = self.store.now()
        running = self.ownership.run is not None
        if running and now - self._heartbeat_at >= self.settings.checkpoint_seconds:
            self._heartbeat_at = now
            await self.ownership.heartbeat()
        if running and now - self._leases_at >= self.settings.lease_seconds / 3:
            self._leases_at = now
            await self.ownership.renew()
            await self._adopt(16)
        # other processes' changes: where they are announced, this is the safety net
        every = self.settings.checkpoint_seconds if self.feed.announced else 0.0
        if now - self._polled_at >= every:
            self._polled_at = now
            await self.feed.poll()
        wall = self.store.wall()
        for live in list(self.store.games.values()):
            state = live.game.state
            deadline = state.deadline()  # a correspondence game: only once it has passed
            watch = (live.owner and state.clock is not None and not live.lock.locked()
                     and (state.clock.running is not None
                          or (state.phase is Phase.OVER and not state.result_final))
                     and (deadline is None or deadline <= wall))
            if watch:
                try:
                    await self._advance(live)
                except (StorageFailure, HasamigoError):
                    continue
            idle = now - live.touched
            if not live.subscribers and not live.lock.locked() and not live.waiters and (
                    idle >= self.settings.idle_seconds
                    or (state.phase is Phase.OVER and idle >= 30 and not live.thinking)):
                self.store.evict(live)


__all__ = ["ClockTicker"]
