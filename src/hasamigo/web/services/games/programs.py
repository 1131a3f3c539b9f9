"""The programs' moves (:class:`ProgramRunner`): each game's program searches on a bounded
pool of search threads, apart from the I/O threads, and is **stopped** when its position
changes (a take-back, a claim, a resignation) or its game is abandoned.

A fresh server compiles the programs' kernels in the background, in tiers
(:mod:`hasamigo.web.services.warmup`): a program moves as soon as its own are loaded
(:func:`~hasamigo.engine.players.program_kernels`). Until then it is declared waiting (a
``ProgramWaiting`` event, then ``ProgramReady``): its clock does not run, and an official
game does not begin until every program can move."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from hasamigo.engine.players import Player as EnginePlayer
from hasamigo.engine.players import program_kernels
from hasamigo.errors import IllegalMoveError
from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.state import Phase
from hasamigo.move import Color, Move
from hasamigo.player_spec import PlayerSpec
from hasamigo.storage.repository import ConcurrentWrite
from hasamigo.web.errors import NotFound, StorageFailure
from hasamigo.web.services.games.live import (
    LiveGame,
    SearchCancelled,
    SearchTicket,
    release_players,
)
from hasamigo.web.services.games.store import GameStore
from hasamigo.web.services.players import Player, PlayerFactory
from hasamigo.web.settings import Settings

if TYPE_CHECKING:
    from hasamigo.board import Board
    from hasamigo.web.services.warmup import KernelWarmup

log = logging.getLogger(__name__)


class ProgramRunner:
    """The programs of the games this process owns: their players, their searches (on
    ``search_pool``, or a pool of its own), and the kernels they wait for (``kernels``:
    the warm-up; ``None``: all are ready)."""

    def __init__(self, store: GameStore, settings: Settings, player_factory: PlayerFactory,
                 *, search_pool: ThreadPoolExecutor | None = None,
                 kernels: KernelWarmup | None = None) -> None:
        self.store = store
        self.settings = settings
        self.player_factory = player_factory
        self.kernels = kernels
        self._own_pool = search_pool is None
        self.search_pool = search_pool or ThreadPoolExecutor(
            max_workers=settings.search_workers, thread_name_prefix="hasamigo-search")

    def schedule(self, live: LiveGame) -> None:
        """Let the game's program move (or wait for its kernels), if this process runs
        the game and a program is to move."""
        if live.task is not None and not live.task.done():
            return
        if not live.owner or self.store.games.get(live.id) is not live or (
                live.game.program_to_move() is None and not live.game.state.waiting):
            return
        live.task = asyncio.create_task(self._program_loop(live))

    async def wait(self, live: LiveGame) -> None:
        """Wait (at most ``reply_wait_seconds``) for the program's search here."""
        task = live.task
        if task is not None and not task.done():
            live.waiters += 1
            try:
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(task),
                                           self.settings.reply_wait_seconds)
            finally:
                live.waiters -= 1
                live.touched = self.store.now()

    async def stop(self) -> None:
        """Stop every search and program; let the players go."""
        games = list(self.store.games.values())
        for live in games:
            if live.search is not None:
                live.search.cancel()
        tasks = [live.task for live in games if live.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for live in games:
            release_players(live)

    def close(self) -> None:
        """Shut the search pool down if it is this runner's own."""
        if self._own_pool:
            self.search_pool.shutdown(wait=False, cancel_futures=True)

    def warm_players(self, group: str, loaded: Callable[[str], bool]) -> None:
        """Let each program whose kernels (and the better ones it uses once loaded) are
        all ``loaded`` now that ``group`` is, choose once (its tables, its book); failures
        are only logged."""
        from hasamigo.board import Board

        for spec in ("random", "victory", "amusement", "entertainer", "weakest",
                     str(PlayerSpec("engine", level=self.settings.default_level))):
            needed, better = program_kernels(spec, Board)
            if group not in needed | better or not all(map(loaded, needed | better)):
                continue
            try:
                self.player_factory(spec, 0).choose(Board(), None)
            except Exception:
                log.exception("warming %s failed", spec)

    def player(self, live: LiveGame, colour: Color, spec: str) -> Player:
        """The game's player for ``colour`` (made at first use, seeded by the game)."""
        player = live.players.get(colour)
        if player is None:
            seed = zlib.crc32(f"{live.id}:{colour.value}".encode())
            player = self.player_factory(spec, seed)
            if isinstance(player, EnginePlayer) and self.kernels is not None:
                # Weakest plays without the engine until its kernels are loaded
                player.kernels_ready = self.kernels.is_ready
            live.players[colour] = player
        return player

    # ---- kernels -----------------------------------------------------------------------
    async def board_kernels(self, variant: type[Board]) -> None:
        """Wait for the board's own kernels (the 10-column grid's load when a game is first
        made on it: a second or two of compile the first time, in a subprocess)."""
        if self.kernels is not None:
            await self.kernels.wait(variant.rules.move_kernels)

    def programs_missing(self, game: GameController) -> dict[int, frozenset[str]]:
        """The game's programs whose kernels are not all loaded: participant -> the groups
        missing (those it plays better with are requested too)."""
        kernels = self.kernels
        if kernels is None:
            return {}
        variant = game.variant
        missing = {}
        for index, participant in enumerate(game.participants):
            if participant.program is None:
                continue
            needed, better = program_kernels(participant.program, variant)
            kernels.request(*needed, *better)
            lacking = frozenset(g for g in needed if not kernels.is_ready(g))
            if lacking:
                missing[index] = lacking
        return missing

    async def _hold_for_kernels(self, live: LiveGame) -> bool:
        """Declare the game's programs that cannot move yet waiting, and those that can
        ready (events, so their clocks are right: see :mod:`hasamigo.game.state`); wait
        until all can. ``False``: the game is no longer this process's to run."""
        while True:
            async with live.lock:
                game = live.game
                if self.store.games.get(live.id) is not live or not live.owner:
                    return False
                state = game.state
                if state.phase not in (Phase.COLOURS, Phase.PLAYING):
                    return True  # over, or a time-out's settling: no program to hold
                missing = self.programs_missing(game)
                for index in sorted(set(missing) - state.waiting):
                    game.program_waiting(index)
                for index in sorted(state.waiting - set(missing)):
                    game.program_ready(index)
                if len(game.events) != live.stored:
                    try:
                        await self.store.commit(live)
                    except StorageFailure:
                        return False
                    live.notify()
            if not missing:
                return True
            kernels = self.kernels
            assert kernels is not None
            await kernels.wait(*frozenset().union(*missing.values()))

    async def _search(self, ticket: SearchTicket, choose: Callable[[], Move]) -> Move:
        def run() -> Move:
            resume = getattr(ticket.player, "resume", None)
            if resume is not None:
                resume()
            if ticket.cancelled:
                raise SearchCancelled
            return choose()

        return await asyncio.get_running_loop().run_in_executor(self.search_pool, run)

    async def _program_loop(self, live: LiveGame) -> None:
        if not await self._hold_for_kernels(live):  # a fresh server compiles them first
            return
        while True:
            async with live.lock:
                turn = live.game.program_to_move()
                if turn is None or self.store.games.get(live.id) is not live or not live.owner:
                    if live.game.phase is Phase.OVER:
                        release_players(live)  # an external engine's process ends with the game
                    return
                colour, spec = turn
                board = live.game.board.copy()
                revision = live.game.revision
                clock = live.game.program_clock()
                try:
                    player = self.player(live, colour, spec)
                except Exception as exc:
                    live.failure = f"cannot start program {spec!r}: {exc}"
                    log.exception("cannot make player %s", spec)
                    live.notify()
                    return
                ticket = SearchTicket(revision, player)
                live.search = ticket
                live.notify()
            try:
                move = await self._search(ticket, functools.partial(player.choose, board, clock))
            except Exception as exc:
                if live.search is ticket:
                    live.search = None
                if ticket.cancelled:
                    continue  # the position changed or the game left memory: look again
                log.exception("program %s failed in game %s", spec, live.id)
                live.failure = f"the program failed: {str(exc)[:200]}"
                live.notify()
                return
            if ticket.cancelled:
                continue
            live.ready = (colour, move, revision)
            async with live.lock:
                if live.search is ticket:
                    live.search = None
                ready, live.ready = live.ready, None
                if ready is None:
                    live.notify()
                    continue  # a claim completed it first
                try:
                    live.game.play(colour, move, revision=revision)
                except GameError:
                    live.notify()
                    continue  # stale, suspended or over: look again
                except IllegalMoveError:
                    log.exception("program %s chose an illegal move in game %s", spec, live.id)
                    live.failure = "the program chose an illegal move"
                    live.notify()
                    return
                try:
                    await self.store.commit(live, keep=True)
                except ConcurrentWrite:  # a move or take-back stored by another process
                    try:
                        await self.store.catch_up(live)
                    except NotFound:
                        return
                    live.notify()
                    continue
                except StorageFailure:
                    return
                live.notify()


__all__ = ["ProgramRunner"]
