"""Games on the server: the authoritative controllers, their storage and their programs.

* Every change to a game happens under that game's lock and is **committed to the
  database before the caller gets an answer**; if the commit fails the game is dropped
  from memory and reloaded from the database on next use, so memory never runs ahead of
  what is stored.
* Programs choose their moves in worker threads (``asyncio.to_thread``; the engine's
  kernels release the GIL), so a slow search never holds up other games.
* A ticker looks at running clocks: a person's fallen flag is claimed as soon as the
  server sees it; running clocks are checkpointed every few seconds and once more at
  shutdown (see :mod:`hasamigo.game.controller` on time during an outage).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hasamigo.game.clock import Clock
from hasamigo.game.controller import (
    GameController,
    GameError,
    GameOptions,
    Participant,
    Phase,
)
from hasamigo.move import BLACK, WHITE, Color, Move
from hasamigo.storage.repository import GameRepository, MoveEntry
from hasamigo.web.schemas import GameView, NewGame
from hasamigo.web.services.players import Player, PlayerFactory, program_name
from hasamigo.web.settings import Settings
from hasamigo.web.views import game_view

log = logging.getLogger(__name__)

TimeSource = Callable[[], float]
_T = TypeVar("_T")


class NotFound(LookupError):
    pass


class StorageFailure(RuntimeError):
    """The database refused a commit; the change was not acknowledged."""


@dataclass
class LiveGame:
    id: str
    game: GameController
    stored: list[MoveEntry]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    players: dict[Color, Player] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    subscribers: set[asyncio.Queue[GameView]] = field(default_factory=set)
    thinking: bool = False
    saved_at: float = 0.0
    failure: str | None = None


def _variant_name(req: NewGame) -> tuple[str, str | None]:
    """The variant and start for the form's board and start (8×8 original → ``original``)."""
    if req.variant == "8x8":
        if req.start == "original":
            return "original", None
        return "standard", None if req.start == "cross" else req.start
    if req.start == "original":
        raise GameError("the original (empty-centre) start is offered on 8×8 only", "bad_request")
    return req.variant, None if req.start == "cross" else req.start


class GameService:
    def __init__(
        self,
        repo: GameRepository,
        settings: Settings,
        player_factory: PlayerFactory,
        *,
        time_source: TimeSource = time.monotonic,
        wall_clock: TimeSource = time.time,
    ) -> None:
        self.repo = repo
        self.settings = settings
        self.player_factory = player_factory
        self.now = time_source
        self.wall = wall_clock
        self.games: dict[str, LiveGame] = {}
        self._load_lock = asyncio.Lock()
        self._ticker: asyncio.Task[None] | None = None
        # SQLite has one writer at a time: concurrent writers would wait in its busy
        # handler (back-off sleeps, seconds under load). One writer thread queues them
        # fairly instead; other databases get a few.
        sqlite = repo.db.url.startswith("sqlite")
        self._writer = ThreadPoolExecutor(max_workers=1 if sqlite else 8,
                                          thread_name_prefix="hasamigo-db")

    # ---- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        """Resume games whose program was to move, then start the ticker."""
        ids = await asyncio.to_thread(self.repo.active_ids)
        for game_id in ids:
            try:
                live = await self.get(game_id)
            except Exception:  # a damaged row must not stop the server
                log.exception("cannot resume game %s", game_id)
                continue
            self._schedule_program(live)
        self._ticker = asyncio.create_task(self._tick_loop())

    async def stop(self) -> None:
        """Stop programs and the ticker; save every running clock exactly."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        tasks = [live.task for live in self.games.values() if live.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for live in list(self.games.values()):
            if live.game.clock is not None and live.game.clock.running is not None:
                with contextlib.suppress(Exception):
                    await self._commit(live)
        self._writer.shutdown(wait=True)

    def warm_players(self) -> None:
        """Let each program choose once (loads its kernels); failures are only logged."""
        from hasamigo.board import Board

        for spec in ("random", "victory", "amusement", "entertainer", "weakest",
                     f"engine:{self.settings.default_level}"):
            try:
                self.player_factory(spec, 0).choose(Board(), None)
            except Exception:
                log.exception("warming %s failed", spec)

    # ---- loading and saving ------------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None:
            return live
        async with self._load_lock:
            live = self.games.get(game_id)
            if live is not None:
                return live
            stored = await asyncio.to_thread(self.repo.load, game_id)
            if stored is None:
                raise NotFound(game_id)
            game = GameController.from_dict(
                stored.state, time_source=self.now, wall_clock=self.wall
            )
            live = LiveGame(game_id, game, stored.moves, saved_at=self.now())
            self.games[game_id] = live
            return live

    async def _commit(self, live: LiveGame) -> None:
        """Store ``live``'s state (call under its lock)."""
        try:
            live.stored = await self._write(self.repo.save, live.id, live.game, live.stored)
        except Exception as exc:
            log.exception("commit of game %s failed", live.id)
            self.games.pop(live.id, None)  # reload what the database holds
            raise StorageFailure(f"the game could not be saved: {exc}") from exc
        live.saved_at = self.now()

    async def _write(self, fn: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._writer, fn, *args)

    def view(self, live: LiveGame) -> GameView:
        return game_view(live.id, live.game, thinking=live.thinking)

    def _notify(self, live: LiveGame) -> None:
        if not live.subscribers:
            return
        view = self.view(live)
        for queue in list(live.subscribers):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(view)

    # ---- creating ----------------------------------------------------------------------
    async def create(self, req: NewGame) -> LiveGame:
        variant, start = _variant_name(req)
        names = req.names
        if req.opponent == "person":
            first = Participant(names[0] if names else "Player 1")
            second = Participant(names[1] if names else "Player 2")
        else:
            spec = f"engine:{req.level}" if req.opponent == "engine" else req.opponent
            first = Participant(names[0] if names else "You")
            second = Participant(program_name(spec), program=spec)
        options = GameOptions(
            variant=variant,
            start=start,
            handicap=req.handicap,
            clock_seconds=None if req.clock_minutes is None else req.clock_minutes * 60.0,
            casual=req.casual,
            draws_allowed=req.draws_allowed,
            position=req.position,
        )
        game = GameController.new(
            first,
            second,
            colour=req.colour,
            options=options,
            rng=random.Random(),
            time_source=self.now,
            wall_clock=self.wall,
        )
        game_id = secrets.token_hex(6)
        try:
            stored = await self._write(self.repo.create, game_id, game)
        except Exception as exc:
            raise StorageFailure(f"the game could not be saved: {exc}") from exc
        live = LiveGame(game_id, game, stored, saved_at=self.now())
        self.games[game_id] = live
        self._schedule_program(live)
        return live

    # ---- acting ------------------------------------------------------------------------
    async def act(self, game_id: str, action: Callable[[GameController], Any]) -> LiveGame:
        """Run ``action`` on the game under its lock; commit any change before returning.

        A refused action (it raises) changes nothing, except that a flag the server saw
        fall on the way is claimed and committed.
        """
        live = await self.get(game_id)
        async with live.lock:
            before = live.game.revision
            try:
                action(live.game)
            finally:
                if live.game.revision != before:
                    await self._commit(live)
                    self._notify(live)
        self._schedule_program(live)
        return live

    async def refresh(self, game_id: str) -> LiveGame:
        """The game as it stands, after looking at its clock."""
        live = await self.get(game_id)
        await self.act(game_id, lambda game: game.tick())
        return live

    async def play(self, game_id: str, move: str, colour: Color | None,
                   revision: int | None, *, wait: bool = False) -> LiveGame:
        def action(game: GameController) -> None:
            mover = colour
            if game.phase is Phase.PLAYING:
                turn = game.board.turn
                if mover is None:
                    mover = turn
                if game.seats is not None and not game.seat(turn).is_person:
                    raise GameError(f"it is the program's turn ({turn} to move)",
                                    "program_to_move")
            game.play(mover, move, revision=revision)

        live = await self.act(game_id, action)
        if wait:
            await self.wait_for_program(live)
        return live

    async def wait_for_program(self, live: LiveGame) -> None:
        task = live.task
        if task is not None and not task.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(task), self.settings.reply_wait_seconds)

    def person_colour(self, game: GameController, colour: Color | None) -> Color:
        """The colour a person acts for: given, the only person, or the side to move."""
        persons = game.persons
        if colour is not None:
            if colour not in persons:
                raise GameError(f"{colour} is played by a program", "bad_request")
            return colour
        if len(persons) == 1:
            return persons[0]
        if not persons:
            raise GameError("colours are not decided yet", "wrong_phase")
        return game.board.turn

    # ---- programs ----------------------------------------------------------------------
    def _schedule_program(self, live: LiveGame) -> None:
        if live.task is not None and not live.task.done():
            return
        if live.game.program_to_move() is None:
            return
        live.task = asyncio.create_task(self._program_loop(live))

    def _player(self, live: LiveGame, colour: Color, spec: str) -> Player:
        player = live.players.get(colour)
        if player is None:
            seed = zlib.crc32(f"{live.id}:{colour.value}".encode())
            player = self.player_factory(spec, seed)
            live.players[colour] = player
        return player

    async def _program_loop(self, live: LiveGame) -> None:
        while True:
            async with live.lock:
                turn = live.game.program_to_move()
                if turn is None or self.games.get(live.id) is not live:
                    return
                colour, spec = turn
                board = live.game.board.copy()
                revision = live.game.revision
                clock = live.game.clock
                # the program gets its own copy of the clock (read from another thread)
                view = None if clock is None else Clock.from_state(clock.state(),
                                                                   time_source=self.now)
                try:
                    player = self._player(live, colour, spec)
                except Exception as exc:
                    live.failure = f"cannot start program {spec!r}: {exc}"
                    log.exception("cannot make player %s", spec)
                    return
                live.thinking = True
                self._notify(live)
            try:
                move: Move = await asyncio.to_thread(player.choose, board, view)
            except Exception as exc:
                log.exception("program %s failed in game %s", spec, live.id)
                live.failure = f"the program failed: {exc}"
                live.thinking = False
                self._notify(live)
                return
            async with live.lock:
                live.thinking = False
                try:
                    live.game.play(colour, move, revision=revision)
                except GameError as exc:
                    if exc.code == "stale":
                        continue  # undo or a claim came first: look again
                    self._notify(live)
                    return
                await self._commit(live)
                self._notify(live)

    # ---- clocks ------------------------------------------------------------------------
    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.tick_all()
            except Exception:
                log.exception("clock tick failed")

    async def tick_all(self) -> None:
        for live in list(self.games.values()):
            game = live.game
            if game.clock is None or game.clock.running is None:
                continue
            async with live.lock:
                changed = game.tick()
                due = self.now() - live.saved_at >= self.settings.checkpoint_seconds
                if changed or due:
                    try:
                        await self._commit(live)
                    except StorageFailure:
                        continue
                if changed:
                    self._notify(live)

    # ---- subscriptions -----------------------------------------------------------------
    def subscribe(self, live: LiveGame) -> asyncio.Queue[GameView]:
        queue: asyncio.Queue[GameView] = asyncio.Queue(maxsize=64)
        live.subscribers.add(queue)
        return queue

    def unsubscribe(self, live: LiveGame, queue: asyncio.Queue[GameView]) -> None:
        live.subscribers.discard(queue)


__all__ = ["BLACK", "WHITE", "GameService", "LiveGame", "NotFound", "StorageFailure"]
