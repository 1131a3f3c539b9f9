"""The games' coordinator (:class:`GameService`): the one object the routes and the other
services call. It wires the parts (the store, the seats, the ownership, the change feed,
the program runner, the ticker: see :mod:`hasamigo.web.services.games`) and runs every
action: checked by the controller against the game as the database holds it, and
**committed before the caller gets an answer**."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from hasamigo.errors import IllegalMoveError
from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.state import Phase
from hasamigo.move import Color
from hasamigo.storage.repository import ConcurrentWrite, GameRepository
from hasamigo.variants import find_variant
from hasamigo.web.errors import (
    Busy,
    Forbidden,
    NotFound,
    RateLimited,
    StorageFailure,
    Unauthorized,
)
from hasamigo.web.limits import RateWindow
from hasamigo.web.schemas import GameView, NewGame
from hasamigo.web.services.games.feed import ChangeFeed
from hasamigo.web.services.games.leases import Ownership
from hasamigo.web.services.games.live import Created, LiveGame, TimeSource
from hasamigo.web.services.games.new_game import setup_of
from hasamigo.web.services.games.notify import TurnNotifier
from hasamigo.web.services.games.programs import ProgramRunner
from hasamigo.web.services.games.seats import (
    SeatKeeper,
    acting_colour,
    held_colours,
    seat_name,
)
from hasamigo.web.services.games.store import GameStore
from hasamigo.web.services.games.ticker import ClockTicker
from hasamigo.web.services.players import PlayerFactory
from hasamigo.web.settings import Settings
from hasamigo.web.views import game_view

if TYPE_CHECKING:
    from hasamigo.engine.protocols.config import ConfiguredEngine
    from hasamigo.web.services.warmup import KernelWarmup

log = logging.getLogger(__name__)
_T = TypeVar("_T")


class GameService:
    def __init__(
        self,
        repo: GameRepository,
        settings: Settings,
        player_factory: PlayerFactory,
        *,
        time_source: TimeSource = time.monotonic,
        wall_clock: TimeSource = time.time,
        search_pool: ThreadPoolExecutor | None = None,
        kernels: KernelWarmup | None = None,
    ) -> None:
        self.settings = settings
        self.now = time_source  # idle times, rates
        self.wall = wall_clock  # the games' clocks (events' instants)
        self.store = GameStore(repo, settings, time_source=time_source, wall_clock=wall_clock)
        self.seats = SeatKeeper(self.store)
        self.ownership = Ownership(self.store, settings)
        self.feed = ChangeFeed(self.store, settings, after_change=self._follow_up)
        self.programs = ProgramRunner(self.store, settings, player_factory,
                                      search_pool=search_pool, kernels=kernels)
        self.ticker = ClockTicker(
            self.store, self.ownership, self.feed, settings,
            advance=lambda live: self.act(live, lambda _live: None, touch=False, fresh=True),
            adopt=self._adopt_orphans)
        self.notifier = TurnNotifier(settings)
        self.store.on_load = self.ownership.claim
        self.store.on_evict = self.ownership.released
        self._rate = RateWindow(settings.games_per_minute, 60.0, time_source=time_source)
        #: told of a finished game once its end is committed, before the watchers are (the
        #: ratings: :meth:`hasamigo.web.services.ratings.RatingService.game_over`)
        self.on_over: Callable[[LiveGame], Awaitable[None]] | None = None

    # ---- the parts, as the other services see them ---------------------------------------
    @property
    def repo(self) -> GameRepository:
        return self.store.repo

    @property
    def games(self) -> OrderedDict[str, LiveGame]:
        """The games in memory."""
        return self.store.games

    @property
    def kernels(self) -> KernelWarmup | None:
        """The kernels' warm-up: each program waits for its own (``None``: all are ready)."""
        return self.programs.kernels

    @kernels.setter
    def kernels(self, kernels: KernelWarmup | None) -> None:
        self.programs.kernels = kernels

    @property
    def player_factory(self) -> PlayerFactory:
        return self.programs.player_factory

    @property
    def search_pool(self) -> ThreadPoolExecutor:
        return self.programs.search_pool

    async def write(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run a write of the database on the games' writer thread (SQLite has one writer
        at a time: every write of the app queues there)."""
        return await self.store.write(fn, *args)

    # ---- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        """Record this run, take over the games nobody runs (a program to move, an owner
        gone), start the ticker and, on PostgreSQL, the listener for other processes'
        changes."""
        await self.ownership.start()
        await self._adopt_orphans(self.settings.max_live_games // 2)
        self.feed.start()
        self.ticker.start()

    async def stop(self) -> None:
        """Stop the ticker and the programs; record the orderly end of this run."""
        await self.ticker.stop()
        await self.notifier.drain()
        await self.programs.stop()
        self.feed.stop()
        await self.ownership.stop()
        self.store.shutdown()
        self.programs.close()

    def warm_players(self, group: str, loaded: Callable[[str], bool]) -> None:
        """See :meth:`ProgramRunner.warm_players`."""
        self.programs.warm_players(group, loaded)

    async def tick_all(self) -> None:
        """See :meth:`ClockTicker.tick_all`."""
        await self.ticker.tick_all()

    async def _adopt_orphans(self, limit: int) -> None:
        for game_id in await self.ownership.orphans(limit):
            try:
                live = self.games.get(game_id)
                if live is None:
                    live = await self.get(game_id)  # loading claims it
                else:
                    await self.ownership.claim(live)
            except NotFound:
                continue
            except Exception:  # a damaged row must not stop the server
                log.exception("cannot take over game %s", game_id)
                continue
            deadline = live.game.state.deadline()
            if live.owner and deadline is not None and deadline <= self.wall():
                # a correspondence game whose deadline passed while nobody ran it
                with contextlib.suppress(StorageFailure, GameError):
                    await self.act(live, lambda _live: None, touch=False)
            self.programs.schedule(live)

    async def _follow_up(self, live: LiveGame) -> None:
        """After a change: a program to move in a game nobody runs is claimed; the owner's
        program is let move; a finished game is told to :attr:`on_over` (a change another
        server made included)."""
        if self.on_over is not None and live.game.phase is Phase.OVER:
            await self.on_over(live)
        if not live.owner and live.game.program_to_move() is not None:
            await self.ownership.claim(live)
        self.programs.schedule(live)

    # ---- reading -----------------------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame:
        return await self.store.get(game_id)

    def view(self, live: LiveGame, you: frozenset[int] = frozenset()) -> GameView:
        waiting_for: set[str] = set()
        if live.game.state.waiting:
            for groups in self.programs.programs_missing(live.game).values():
                waiting_for |= groups
        return game_view(live.id, live.game, you=you, thinking=live.thinking,
                         public=live.public, awaiting_join=live.awaiting_join,
                         waiting_for=sorted(waiting_for))

    def subscribe(self, live: LiveGame) -> asyncio.Queue[None]:
        return self.feed.subscribe(live)

    def unsubscribe(self, live: LiveGame, queue: asyncio.Queue[None]) -> None:
        self.feed.unsubscribe(live, queue)

    async def seats_of(self, live: LiveGame, token: str | None) -> frozenset[int]:
        """See :meth:`SeatKeeper.seats_of`."""
        return await self.seats.seats_of(live, token)

    async def reader(self, game_id: str, token: str | None) -> tuple[LiveGame, frozenset[int]]:
        """The game and the seats of a caller who wants to see it: a seat holder, or
        anyone for a public game."""
        live = await self.get(game_id)
        return live, await self.seats.reader(live, token)

    async def actor(self, game_id: str, token: str | None) -> tuple[LiveGame, frozenset[int]]:
        """The game and the seats of a caller who wants to act in it."""
        live = await self.get(game_id)
        return live, await self.seats.actor(live, token)

    held_colours = staticmethod(held_colours)
    acting_colour = staticmethod(acting_colour)

    # ---- creating and joining ------------------------------------------------------------
    def limit_new_games(self, address: str) -> None:
        """Count a new game (created or imported) for ``address``; refuse it with
        :class:`RateLimited` beyond ``games_per_minute``."""
        wait = self._rate.check(address)
        if wait is not None:
            raise RateLimited(f"at most {self.settings.games_per_minute} new games a minute",
                              retry_after=max(1, int(wait + 0.999)))

    async def create(self, req: NewGame, *, client: str | None, address: str,
                     account: str | None = None, opponent_account: str | None = None
                     ) -> Created:
        """A new game; the creator's seat token is kept by ``client``'s browser and held by
        ``account`` (signed in). ``opponent_account``: the second seat, of a game between
        two browsers, is kept for that account (the lobby's): no join code is handed out,
        the account takes its seat with :meth:`seat` from any browser, and the clocks wait
        for it as for a join link."""
        if req.rated and account is None:
            raise Unauthorized("a rated game is between accounts: sign in to create one")
        self.limit_new_games(address)
        if self.store.full():
            raise Busy("the server is full: try again in a minute")
        engines: list[ConfiguredEngine] = []
        if req.opponent == "external":
            from hasamigo.engine.protocols.config import configured_engines

            engines = await asyncio.to_thread(configured_engines)
        setup = setup_of(req, engines)
        await self.programs.board_kernels(find_variant(setup.options.variant))
        game_id = secrets.token_hex(6)
        game = GameController.new(setup, time_source=self.wall, rng=self.store.rng,
                                  game_id=game_id)
        # a program whose kernels are not loaded waits from the start (its clock too; an
        # official game does not begin meanwhile)
        for index, _groups in self.programs.programs_missing(game).items():
            game.program_waiting(index, from_start=True)
        two_browsers = req.opponent == "person" and not req.same_screen
        mine = (0,) if req.opponent != "person" or two_browsers else (0, 1)
        token, join_code, grants = self.seats.grants(mine, client, invite=two_browsers,
                                                     account=account,
                                                     invitee=opponent_account)
        try:
            await self.write(functools.partial(self.repo.create, game, public=req.public,
                                               creator=client, secrets=grants))
        except Exception as exc:
            log.exception("creating a game failed")
            raise StorageFailure(f"the game could not be saved: {exc}") from exc
        live = LiveGame(game_id, game, len(game.events), public=req.public, creator=client,
                        touched=self.now(), awaiting_join=two_browsers)
        self.seats.remember(live, token, frozenset(mine))
        if two_browsers:
            async with live.lock:
                self._hold_clock(live)
                await self.store.commit(live)
        self.store.remember(live)
        await self.ownership.claim(live)
        self.programs.schedule(live)
        return Created(live, token, frozenset(mine), join_code)

    async def adopt(self, game: GameController, *, client: str | None,
                    public: bool = False) -> Created:
        """Store a game made elsewhere (an imported record, :mod:`hasamigo.game.imported`)
        under a new id, with one seat token for both participants (as two people on one
        screen) kept by ``client``'s browser; private unless ``public``. The caller counted
        it (:meth:`limit_new_games`). Its events are replayed on the server's clock, so
        a game still in progress goes on in real time."""
        game_id = secrets.token_hex(6)
        game = GameController(game.setup, game.events, time_source=self.wall,
                              rng=self.store.rng, game_id=game_id)
        both = frozenset({0, 1})
        token, _code, grants = self.seats.grants((0, 1), client, invite=False)
        try:
            await self.write(functools.partial(self.repo.create, game, public=public,
                                               creator=client, secrets=grants))
        except Exception as exc:
            log.exception("storing an imported game failed")
            raise StorageFailure(f"the game could not be saved: {exc}") from exc
        live = LiveGame(game_id, game, len(game.events), public=public, creator=client,
                        touched=self.now())
        self.seats.remember(live, token, both)
        self.store.remember(live)
        await self.ownership.claim(live)
        return Created(live, token, both, None)

    async def join(self, game_id: str, code: str, client: str | None,
                   account: str | None = None, name: str | None = None
                   ) -> tuple[LiveGame, str, frozenset[int]]:
        """Exchange a one-time join code for a seat token: the second person's seat, or
        (a game played in the terminal) the seat a browser takes over; held by
        ``account`` when signed in, whose ``name`` the seat then plays under
        (:func:`~hasamigo.web.services.games.seats.seat_name`)."""
        live = await self.get(game_id)
        token, held = await self.seats.exchange(live, code, client, account)
        await self.act(live, functools.partial(self._seated, seats=held,
                                               name=None if account is None else name))
        return live, token, held

    async def seat(self, game_id: str, account: str, client: str | None,
                   name: str | None = None) -> tuple[LiveGame, str, frozenset[int]]:
        """A fresh seat token for the seats ``account`` holds in the game, in any browser
        (403 ``not_your_seat`` for an account holding none); a seat kept for the account
        (:meth:`create`'s ``opponent_account``) is taken, the clocks start, and the seat
        plays under the account's ``name``."""
        live = await self.get(game_id)
        token, held, taken = await self.seats.fresh_token(live, account, client)
        if taken:
            await self.act(live, functools.partial(self._seated, seats=held, name=name))
        return live, token, held

    @staticmethod
    def _seated(live: LiveGame, *, seats: frozenset[int] = frozenset(),
                name: str | None = None) -> None:
        """A seat was taken: an account's name is given to it (if :func:`seat_name`
        says so), and with both players here the clock starts."""
        live.awaiting_join = False
        named = seat_name(live.game, seats, name)
        if named is not None:
            try:
                live.game.name_seat(named, name or "")
            except GameError as exc:  # the seat is taken all the same
                log.warning("game %s: seat %d not named: %s", live.id, named, exc)
        if live.game.state.suspended:
            live.game.resume()  # both are here: the clock starts

    @staticmethod
    def _hold_clock(live: LiveGame) -> None:
        """While the second person's seat is empty, their opponent's clock doesn't run."""
        state = live.game.state
        if live.awaiting_join and state.clock is not None and state.clock.running is not None \
                and not state.suspended:
            live.game.suspend()

    async def set_public(self, live: LiveGame, you: frozenset[int], public: bool) -> None:
        if 0 not in you:
            raise Forbidden("only the game's creator decides who may watch it")
        await self.write(self.repo.set_public, live.id, public)
        live.public = public
        live.notify()

    async def set_scoring(self, live: LiveGame, you: frozenset[int], scoring: str) -> None:
        """Count the game's board by ``scoring`` from now on (the creator's choice, as who
        may watch it): the setup is stored changed and the game refolded from its events,
        so a finished game's result is counted anew; nothing else changes."""
        if 0 not in you:
            raise Forbidden("only the game's creator decides how it is counted")
        async with live.lock:
            await self.store.commit(live)
            await self.write(self.repo.set_scoring, live.id, scoring)
            game = live.game
            setup = replace(game.setup, options=replace(game.options, scoring=scoring))
            live.game = GameController(setup, game.events, time_source=self.store.wall,
                                       rng=self.store.rng, game_id=live.id)
            live.ready = None
            live.stop_stale_search()
        live.notify()
        await self._follow_up(live)

    async def delete(self, live: LiveGame, you: frozenset[int]) -> None:
        """Delete the game for good. Only its creator's seat (participant 0; two people on
        one screen share it) may: a finished game, or an unfinished one in which nobody
        else holds a seat (against a program, or an invitation not taken yet). The game
        leaves memory first (its program's search is stopped), then the database; its
        watchers get a last push, and spectators' sockets close (the game is no longer
        public). Every later request for it is 404."""
        if 0 not in you:
            raise Forbidden("only the game's creator may delete it", "not_your_seat")
        async with live.lock:
            game = live.game
            someone_else = you == frozenset({0}) and game.participants[1].is_person \
                and not live.awaiting_join
            if someone_else and game.phase is not Phase.OVER:
                raise GameError("the other player is still playing this game: it can be "
                                "deleted once it is over", "wrong_phase")
            self.store.evict(live)
            live.ready = None
            try:
                gone = await self.write(self.repo.delete, live.id)
            except Exception as exc:
                log.exception("deleting game %s failed", live.id)
                raise StorageFailure(f"the game could not be deleted: {exc}") from exc
        if not gone:
            raise NotFound(f"no game {live.id!r}")
        live.public = False
        live.deleted = True
        live.notify()

    # ---- acting ------------------------------------------------------------------------
    async def act(self, live: LiveGame, action: Callable[[LiveGame], Any], *,
                  touch: bool = True, fresh: bool = False) -> LiveGame:
        """Run ``action`` under the game's lock on the game as the database holds it;
        commit what it appended before returning.

        A refused action raises and appends nothing (what time brought on the way, such
        as a program's claim, is still committed). If another process stored events
        first, the game is caught up and the action tried once more on it. ``fresh``:
        the caller has just compared the game with the database.
        """
        for attempt in (1, 2):
            async with live.lock:
                caught_up = False if fresh else await self.store.catch_up(live)
                turn = _turn(live)
                self._observe(live)
                try:
                    action(live)
                except BaseException:
                    if await self._settle(live, caught_up, keep=True):  # time's events
                        self._tell_turn(live, turn)
                    raise
                if await self._settle(live, caught_up, keep=attempt == 1):
                    self._tell_turn(live, turn)
                    break
                fresh = False
        if touch:
            live.touched = self.now()
        await self._follow_up(live)
        return live

    async def _settle(self, live: LiveGame, caught_up: bool, *, keep: bool) -> bool:
        """After an action (under the lock): hold the clock, stop a stale search, commit,
        tell the watchers. ``False``: another process stored events first (``keep``):
        nothing was stored, and the game is caught up for the action to be tried again."""
        self._hold_clock(live)
        changed = len(live.game.events) != live.stored
        live.stop_stale_search()
        if changed:
            try:
                await self.store.commit(live, keep=keep)
            except ConcurrentWrite:
                await self.store.catch_up(live)
                live.notify()
                return False
            if self.on_over is not None and live.game.phase is Phase.OVER:
                await self.on_over(live)  # rated before the result is shown
        if changed or caught_up:
            live.notify()
        return True

    def _tell_turn(self, live: LiveGame, before: tuple[float | None, int]) -> None:
        """A correspondence game's turn began with what this process just committed (a
        new deadline, or a new ply): tell the player to move (:class:`TurnNotifier`)."""
        state = live.game.state
        deadline = state.deadline()
        if deadline is not None and _turn(live) != before and state.phase is Phase.PLAYING:
            self.notifier.turn_passed(live.id, state.position.turn, deadline)

    def _observe(self, live: LiveGame) -> None:
        # a program thinking is not claimed against until its move is in (rule 15)
        busy = [live.game.board.turn] if live.thinking else []
        live.game.observe(busy)

    def _land_ready(self, live: LiveGame) -> None:
        """A program's move computed before a claim is completed first (rule 15)."""
        ready, live.ready = live.ready, None
        if ready is None:
            return
        colour, move, revision = ready
        with contextlib.suppress(GameError, IllegalMoveError):
            live.game.play(colour, move, revision=revision)

    async def refresh(self, game_id: str, token: str | None
                      ) -> tuple[LiveGame, frozenset[int]]:
        """The game as it stands for a reader, after what time has brought."""
        live, you = await self.reader(game_id, token)
        await self.act(live, lambda _live: None)
        return live, you

    async def play(self, live: LiveGame, you: frozenset[int], move: str, colour: Color | None,
                   revision: int | None, *, wait: bool = False) -> LiveGame:
        def action(live: LiveGame) -> None:
            game = live.game
            state = game.state
            if state.phase is Phase.PLAYOUT:
                assert state.timeout_loser is not None
                winner = state.timeout_loser.other
                if winner not in self.held_colours(game, you):
                    raise Forbidden("in a play-out only the winner moves", "not_your_seat")
                game.play(None, move, revision=revision)
                return
            mover = self.acting_colour(game, you, colour)
            if state.phase is Phase.PLAYING and mover is not state.board.turn \
                    and not state.is_person(state.board.turn):
                raise GameError(f"it is the program's turn ({state.board.turn} to move)",
                                "program_to_move")
            game.play(mover, move, revision=revision)

        await self.act(live, action)
        if wait:
            await self.wait_for_program(live)
        return live

    async def colour_step(self, live: LiveGame, you: frozenset[int], step: str, value: str,
                          participant: int | None) -> LiveGame:

        def action(live: LiveGame) -> None:
            pending = live.game.state.pending_colour_step()
            who = participant if participant is not None else (
                pending[1] if pending is not None else None)
            if who is None or who not in you:
                raise Forbidden("that colour step is not your seat's", "not_your_seat")
            live.game.colour_step(who, step, value)

        return await self.act(live, action)

    async def resign(self, live: LiveGame, you: frozenset[int], colour: Color | None
                     ) -> LiveGame:
        return await self.act(live, lambda live: live.game.resign(
            self.acting_colour(live.game, you, colour)))

    async def claim(self, live: LiveGame, you: frozenset[int], colour: Color | None,
                    flagged: Color | None) -> LiveGame:

        def action(live: LiveGame) -> None:
            by = self.acting_colour(live.game, you, colour)
            self._land_ready(live)
            live.game.claim(by, flagged)

        return await self.act(live, action)

    async def timeout_choice(self, live: LiveGame, you: frozenset[int], choice: str
                             ) -> LiveGame:

        def action(live: LiveGame) -> None:
            loser = live.game.timeout_loser
            if loser is None:
                raise GameError("there is no time-out to settle", "wrong_phase")
            if loser.other not in self.held_colours(live.game, you):
                raise Forbidden("only the time-out winner chooses", "not_your_seat")
            live.game.choose_after_timeout(choice)

        return await self.act(live, action)

    async def stop_playout(self, live: LiveGame, you: frozenset[int]) -> LiveGame:

        def action(live: LiveGame) -> None:
            loser = live.game.timeout_loser
            if loser is None or live.game.phase is not Phase.PLAYOUT:
                raise GameError("no play-out is in progress", "wrong_phase")
            if loser.other not in self.held_colours(live.game, you):
                raise Forbidden("only the play-out winner stops it", "not_your_seat")
            live.game.stop_playout()

        return await self.act(live, action)

    async def accept(self, live: LiveGame, you: frozenset[int], colour: Color | None
                     ) -> LiveGame:

        def action(live: LiveGame) -> None:
            game = live.game
            held = self.held_colours(game, you)
            todo = [c for c in held if (colour is None or c is colour)
                    and c not in game.state.accepted]
            if colour is not None and colour not in held:
                raise Forbidden(f"your seat token does not play {colour}", "not_your_seat")
            if not todo:
                raise GameError("nothing to accept: your result is accepted already",
                                "wrong_phase")
            for c in todo:
                game.accept_result(c)

        return await self.act(live, action)

    async def undo(self, live: LiveGame, you: frozenset[int], colour: Color | None
                   ) -> LiveGame:
        """Take back a move: against a program at once; two people on one screen at once
        (the one token holds both consents); between two browsers the first call asks and
        the opponent's call consents."""

        def action(live: LiveGame) -> None:
            game = live.game
            state = game.state
            held = self.held_colours(game, you)
            if len(held) == 2:
                last = next((m.colour for m in reversed(state.moves) if not m.move.is_pass),
                            None)
                if last is None:
                    raise GameError("there is no move to take back", "nothing_to_undo")
                game.request_undo(last)
                game.undo(last)
                return
            me = self.acting_colour(game, you, colour)
            if not state.is_person(me.other):
                game.undo(me)
            elif state.undo_request is me.other:
                game.undo(me.other)
            elif state.undo_request is me:
                raise GameError("your take-back request waits for the opponent",
                                "wrong_phase")
            else:
                game.request_undo(me)

        return await self.act(live, action)

    async def decline_undo(self, live: LiveGame, you: frozenset[int], colour: Color | None
                           ) -> LiveGame:
        return await self.act(live, lambda live: live.game.decline_undo(
            self.acting_colour(live.game, you, colour)))

    async def wait_for_program(self, live: LiveGame) -> None:
        """Wait (at most ``reply_wait_seconds``) for the program's reply: its search
        here, or, when another process runs the game, the move arriving from it."""
        if not live.owner and live.game.program_to_move() is not None:
            await self.feed.wait_for_move(live)
        else:
            await self.programs.wait(live)


def _turn(live: LiveGame) -> tuple[float | None, int]:
    """Which turn of a correspondence game is running: its deadline and the plies before."""
    state = live.game.state
    return state.deadline(), state.ply_count


__all__ = ["GameService"]
