"""Which process runs which game: this server's run (recorded, with its heartbeat) and its
leases (:class:`Ownership`).

One process at a time **owns** a game in play (a lease row, renewed with its heartbeat):
only the owner runs its clock's ticks and its program. When an owner dies its leases
expire and another process takes its games over, forgiving a program on move the time
nobody ran it; the time between the last record of any server and a restart is forgiven
to the side on move (``Suspend``/``Resume`` events added when the game is next loaded),
except in a correspondence game, whose deadlines are days of the calendar: they pass
whether a server runs or not (the first server to run the game after one ends it)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from hasamigo.game.events import Resume, Suspend
from hasamigo.game.state import Phase
from hasamigo.web.services.games.live import LiveGame
from hasamigo.web.services.games.store import GameStore
from hasamigo.web.settings import Settings

log = logging.getLogger(__name__)


class Ownership:
    """This process's run and the leases of the games it runs."""

    def __init__(self, store: GameStore, settings: Settings) -> None:
        self.store = store
        self.repo = store.repo
        self.settings = settings
        #: this server's run (``None`` before :meth:`start` and after :meth:`stop`)
        self.run: int | None = None

    async def start(self) -> None:
        """Record this run."""
        self.run = await self.store.write(self.repo.start_run, self.store.wall())

    async def stop(self) -> None:
        """Give up every lease; record the orderly end of this run."""
        if self.run is None:
            return
        with contextlib.suppress(Exception):
            await self.store.write(self.repo.release_leases, self.run)
        with contextlib.suppress(Exception):
            await self.store.write(self.repo.stop_run, self.run, self.store.wall())

    async def heartbeat(self) -> None:
        """Record that this server is alive."""
        if self.run is not None:
            await self.store.write(self.repo.heartbeat, self.run, self.store.wall())

    async def claim(self, live: LiveGame) -> None:
        """Become the game's owner if nobody runs it (or its owner has died), then forgive
        the side on move the time no server ran at all, and a program on move the time
        since a dead owner was last seen (nobody ran it)."""
        if live.owner or self.run is None or live.game.phase is Phase.OVER:
            return
        taken, previous = await self.store.write(self.repo.take_lease, live.id, self.run,
                                                 self.store.wall(),
                                                 self.settings.lease_seconds)
        if not taken:
            return
        live.owner = True
        if previous is not None:
            log.info("game %s taken over from server run %s", live.id, previous)
        async with live.lock:
            await self.store.catch_up(live)
            await self._forgive_outages(live)
            if previous is not None:
                await self._forgive_dead_owner(live, previous)

    async def _forgive_outages(self, live: LiveGame) -> None:
        """The server was down (or dead) while this game's clock ran: stop the clock over
        each gap between the server's runs since the game's last event."""
        game = live.game
        state = game.state
        if state.clock is None or state.clock.running is None or state.suspended \
                or state.last_at is None or state.clock.per_turn is not None:
            return
        gaps = await asyncio.to_thread(self.repo.outages_since, state.last_at)
        for start, end in gaps:
            last = game.state.last_at or start
            if end <= last:
                continue
            game.append(Suspend(at=max(start, last)))
            game.append(Resume(at=end))
        if len(game.events) != live.stored:
            await self.store.commit(live)

    async def _forgive_dead_owner(self, live: LiveGame, previous: int) -> None:
        """A program on move was not run from its dead owner's last sign of life until
        now: its clock stops over that time (a person on move could play meanwhile)."""
        last_seen = await asyncio.to_thread(self.repo.run_last_seen, previous)
        state = live.game.state
        if last_seen is None or live.game.program_to_move() is None \
                or state.clock is None or state.clock.running is None \
                or state.suspended or state.last_at is None or state.clock.per_turn is not None:
            return
        start, end = max(last_seen, state.last_at), self.store.wall()
        if end > start:
            live.game.append(Suspend(at=start))
            live.game.append(Resume(at=end))
            await self.store.commit(live)
            live.notify()

    async def renew(self) -> None:
        """Renew this process's leases and drop the games whose lease another process
        took (this one stalled)."""
        assert self.run is not None
        held = await self.store.write(self.repo.renew_leases, self.run, self.store.wall(),
                                      self.settings.lease_seconds)
        for live in list(self.store.games.values()):
            if live.owner and live.id not in held:
                log.warning("game %s is run by another process now", live.id)
                live.owner = False
                if live.search is not None:
                    live.search.cancel()
                live.ready = None

    async def orphans(self, limit: int) -> list[str]:
        """Up to ``limit`` games nobody runs (a program to move, an owner gone)."""
        ids: list[str] = await asyncio.to_thread(self.repo.orphan_games, self.store.wall(),
                                                 limit)
        return ids

    def released(self, live: LiveGame) -> None:
        """The game left memory: its lease is given up (on the writer thread)."""
        if live.owner and self.run is not None:
            live.owner = False
            self.store.submit(self._release_lease, live.id)

    def _release_lease(self, game_id: str) -> None:
        try:
            if self.run is not None and game_id not in self.store.games:
                self.repo.release_leases(self.run, [game_id])
        except Exception:  # it expires anyway
            log.exception("releasing the lease of game %s failed", game_id)


__all__ = ["Ownership"]
