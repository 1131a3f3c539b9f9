"""Games on the server: their controllers, seats, storage, programs and clocks.

* **Events are the truth.** A request becomes an event of the game
  (:mod:`hasamigo.game.events`), checked by the controller against the fold of the
  events before it, and **committed to the database before the caller gets an answer**.
  If the commit fails the game is dropped from memory and reloaded on next use, so memory
  never runs ahead of what is stored.
* **Seats.** Creating a game hands out a seat token for the creator's seat(s) (one for
  both seats when two people share a screen) and, for a second person in another browser,
  a one-time join code exchanged for their token. Every action names the seat it acts
  for through its token; nothing is inferred from whose turn it is. Only hashes of
  tokens and codes are stored.
* **Bounded.** Live games are kept in memory up to a limit; finished and idle games leave
  it and reload on demand. Programs' searches run on a bounded pool of search threads,
  apart from the I/O threads, and are **stopped** when their position changes (a
  take-back, a claim, a resignation) or their game is abandoned.
* **Kernels.** A fresh server compiles the programs' kernels in the background, in tiers
  (:mod:`hasamigo.web.services.warmup`): a program moves as soon as its own are loaded
  (:func:`~hasamigo.engine.players.program_kernels`). Until then it is declared waiting
  (a ``ProgramWaiting`` event, then ``ProgramReady``): its clock does not run, and an
  official game does not begin until every program can move.
* **Time.** A ticker appends what time brings (a program's claim of a fallen flag, a
  person's "claim for me", the end of a play-out on time) and records that the server is
  alive; the time between the last record and a restart is forgiven to the side on move
  (``Suspend``/``Resume`` events added when the game is next loaded).
* **Several processes** may serve one database (``hasamigo serve --workers N``, or servers
  behind a proxy). Memory is only a cache of the database: every action first catches
  up with the events other processes stored (one small query), and a lost race is
  caught up and tried again. One process at a time **owns** a game in play (a lease row,
  renewed with its heartbeat): only the owner runs its clock's ticks and its program.
  When an owner dies its leases expire and another process takes its games over,
  forgiving a program on move the time nobody ran it. Watchers on any process get every
  move: PostgreSQL announces each change (``LISTEN``/``NOTIFY``), and every process
  also polls its live games' versions (the only way on SQLite).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import secrets
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from hasamigo.engine.players import Player as EnginePlayer
from hasamigo.engine.players import plays_every_grid, plays_every_rule, program_kernels
from hasamigo.errors import HasamigoError, IllegalMoveError, InvalidOptionError, shown
from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.events import Resume, Suspend
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.game.state import Phase
from hasamigo.move import BLACK, WHITE, Color, Move
from hasamigo.storage.repository import (
    ConcurrentWrite,
    GameRepository,
    GameVersion,
    SeatSecret,
)
from hasamigo.storage.secrets import secret_hash
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
from hasamigo.web.services.players import EXTERNAL, Player, PlayerFactory, program_name
from hasamigo.web.settings import Settings
from hasamigo.web.views import game_view

log = logging.getLogger(__name__)

TimeSource = Callable[[], float]
_T = TypeVar("_T")


if TYPE_CHECKING:
    from hasamigo.board import Board
    from hasamigo.engine.protocols.config import ConfiguredEngine
    from hasamigo.web.services.warmup import KernelWarmup


class SearchCancelled(Exception):
    """A program's search that was no longer wanted."""


@dataclass
class SearchTicket:
    """One search of a program: cancelled when its position is no longer the game's."""

    revision: int
    player: Player
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True
        cancel = getattr(self.player, "cancel", None)
        if cancel is not None:
            cancel()


@dataclass
class LiveGame:
    id: str
    game: GameController
    stored: int  # events known to be in the database
    public: bool = False
    creator: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    players: dict[Color, Player] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    search: SearchTicket | None = None
    #: a program's move computed but not yet appended (a claim lands it first: rule 15)
    ready: tuple[Color, Move, int] | None = None
    subscribers: set[asyncio.Queue[None]] = field(default_factory=set)
    seats: dict[str, frozenset[int]] = field(default_factory=dict)
    touched: float = 0.0
    failure: str | None = None
    #: the second person's seat is still empty (a two-browser game): the clock waits
    awaiting_join: bool = False
    #: requests waiting for the program's reply (``?wait=true``): not abandoned
    waiters: int = 0
    #: deleted by its creator: the sockets still open on it close
    deleted: bool = False
    #: this process holds the game's lease: it runs the game's clock and programs
    owner: bool = False
    #: a catch-up with what another process stored is under way
    catching_up: bool = False

    @property
    def thinking(self) -> bool:
        return self.search is not None and not self.search.cancelled

    @property
    def busy(self) -> bool:
        """In use: watched, waited for, or a program is thinking (not to be evicted to
        make room)."""
        return bool(self.subscribers) or self.thinking or self.lock.locked() \
            or self.waiters > 0


class GroupCommit:
    """Appends to the database, committed together when they queue up.

    SQLite syncs the disk at every commit (``synchronous=FULL``: a committed move must
    survive a power cut), and with one writer thread those syncs, not the engine, bound
    the server's move rate. Appends that arrive while a commit is running wait and go in
    the next one, one transaction with a savepoint per game
    (:meth:`~hasamigo.storage.repository.GameRepository.append_many`); every caller still
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


def _variant_name(req: NewGame) -> tuple[str, str | None]:
    """The variant and start for the form's board, start and flip rule (8×8 original →
    ``original``; a 挟み碁 flip rule ends the name: ``hasegawa-8x9+one``)."""
    rule = "" if req.flip_rule == "all" else f"+{req.flip_rule}"
    if req.variant == "8x8":
        if req.start == "original":
            return "original" + rule, None
        return "standard" + rule, None if req.start == "cross" else req.start
    if req.start == "original":
        raise GameError("the original (empty-centre) start is offered on 8×8 only")
    return req.variant + rule, None if req.start == "cross" else req.start


def setup_of(req: NewGame, engines: Sequence[ConfiguredEngine] = ()) -> GameSetup:
    """The game a new-game request asks for; ``engines``: the external engines of the
    settings file (the only ones ``opponent='external'`` may name)."""
    variant, start = _variant_name(req)
    names = req.names
    ranks = req.ranks or (None, None)
    years = req.birth_years or (None, None)
    if req.opponent == "person":
        first = Participant(names[0] if names else "Player 1", rank=ranks[0],
                            birth_year=years[0])
        second = Participant(names[1] if names else "Player 2", rank=ranks[1],
                             birth_year=years[1])
    else:
        spec = f"engine:{req.level}" if req.opponent == "engine" else req.opponent
        name = program_name(spec)
        if req.opponent == "external":
            from hasamigo.engine.protocols.config import find_engine

            engine = None if req.engine is None else find_engine(engines, key=req.engine)
            if engine is None:
                raise InvalidOptionError(f"no external engine {shown(req.engine)} is set up "
                                         "on this server")
            spec, name = f"{EXTERNAL}{engine.key}", engine.name
        board = find_variant(variant)
        if board.stride != 8 and not plays_every_grid(spec):
            raise InvalidOptionError(f"{name} does not play on {board.title} yet: play "
                                     "the engine, Weakest, Random or a person there")
        rules = board.rules_beyond_kernels()
        if rules and not plays_every_rule(spec):
            raise InvalidOptionError(f"{name} does not know {' nor '.join(rules)} of "
                                     f"{board.title}: play Random or a person there")
        first = Participant(names[0] if names else "You", rank=ranks[0],
                            birth_year=years[0], auto_claim=req.auto_claim)
        second = Participant(name, program=spec, rank=ranks[1], birth_year=years[1])
    options = GameOptions(
        variant=variant, start=start, handicap=req.handicap,
        clock_seconds=None if req.clock_minutes is None else req.clock_minutes * 60.0,
        casual=req.casual, draws_allowed=req.draws_allowed, position=req.position,
        program_claims=req.program_claims,
    )
    return GameSetup((first, second), options, req.colour)


def _release(live: LiveGame) -> None:
    """Let the game's players go of what they hold outside (an external engine's process),
    on a thread of its own: a stopping process may take seconds."""
    players = list(live.players.values())
    live.players.clear()
    closers = [close for p in players if (close := getattr(p, "close", None)) is not None]
    if closers:
        threading.Thread(target=lambda: [close() for close in closers], daemon=True,
                         name="release-players").start()


@dataclass(frozen=True, slots=True)
class Created:
    live: LiveGame
    token: str
    seats: frozenset[int]  # what the token acts for
    join_code: str | None


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
        self.repo = repo
        #: the kernels' warm-up: each program waits for its own (``None``: all are ready)
        self.kernels = kernels
        self.settings = settings
        self.player_factory = player_factory
        self.now = time_source  # idle times, rates
        self.wall = wall_clock  # the games' clocks (events' instants)
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self._load_lock = asyncio.Lock()
        self._ticker: asyncio.Task[None] | None = None
        self._run: int | None = None
        self._heartbeat_at = 0.0
        self._leases_at = 0.0
        self._polled_at = 0.0
        self._listener: threading.Thread | None = None
        self._stopping = threading.Event()
        self._background: set[asyncio.Task[None]] = set()
        self._rate = RateWindow(settings.games_per_minute, 60.0, time_source=time_source)
        self._rng = random.SystemRandom()
        # SQLite has one writer at a time: one writer thread queues writes fairly instead
        # of letting them wait in SQLite's busy handler; other databases get a few.
        sqlite = repo.db.url.startswith("sqlite")
        self._writer = ThreadPoolExecutor(max_workers=1 if sqlite else 8,
                                          thread_name_prefix="hasamigo-db")
        self._group = GroupCommit(repo, self._writer)
        self._own_pool = search_pool is None
        self.search_pool = search_pool or ThreadPoolExecutor(
            max_workers=settings.search_workers, thread_name_prefix="hasamigo-search")

    # ---- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        """Record this run, take over the games nobody runs (a program to move, an owner
        gone), start the ticker and, on PostgreSQL, the listener for other processes'
        changes."""
        self._run = await self._write(self.repo.start_run, self.wall())
        self._heartbeat_at = self._leases_at = self._polled_at = self.now()
        await self._adopt_orphans(self.settings.max_live_games // 2)
        if self.repo.announces:
            loop = asyncio.get_running_loop()
            self._listener = threading.Thread(
                target=self.repo.listen, args=(functools.partial(self._heard, loop),
                                               self._stopping),
                daemon=True, name="hasamigo-listen")
            self._listener.start()
        self._ticker = asyncio.create_task(self._tick_loop())

    async def stop(self) -> None:
        """Stop the ticker and the programs; record the orderly end of this run."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        for live in self.games.values():
            if live.search is not None:
                live.search.cancel()
        tasks = [live.task for live in self.games.values() if live.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for live in self.games.values():
            _release(live)
        self._stopping.set()
        if self._run is not None:
            with contextlib.suppress(Exception):
                await self._write(self.repo.release_leases, self._run)
            with contextlib.suppress(Exception):
                await self._write(self.repo.stop_run, self._run, self.wall())
        self._writer.shutdown(wait=True)
        if self._own_pool:
            self.search_pool.shutdown(wait=False, cancel_futures=True)

    def warm_players(self, group: str, loaded: Callable[[str], bool]) -> None:
        """Let each program whose kernels (and the better ones it uses once loaded) are
        all ``loaded`` now that ``group`` is, choose once (its tables, its book); failures
        are only logged."""
        from hasamigo.board import Board

        for spec in ("random", "victory", "amusement", "entertainer", "weakest",
                     f"engine:{self.settings.default_level}"):
            needed, better = program_kernels(spec, Board)
            if group not in needed | better or not all(map(loaded, needed | better)):
                continue
            try:
                self.player_factory(spec, 0).choose(Board(), None)
            except Exception:
                log.exception("warming %s failed", spec)

    # ---- loading, saving, memory ---------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame:
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
        stored = await asyncio.to_thread(self.repo.load, game_id, time_source=self.wall,
                                         rng=self._rng)
        if stored is None:
            raise NotFound(f"no game {game_id!r}")
        live = LiveGame(game_id, stored.game, len(stored.game.events), public=stored.public,
                        creator=stored.creator, touched=self.now())
        pending = await asyncio.to_thread(self.repo.pending_joins, game_id)
        live.awaiting_join = any(1 in seats for seats in pending)  # the invited seat
        self._remember(live)
        await self._claim(live)
        return live

    async def _forgive_outages(self, live: LiveGame) -> None:
        """The server was down (or dead) while this game's clock ran: stop the clock over
        each gap between the server's runs since the game's last event."""
        game = live.game
        state = game.state
        if state.clock is None or state.clock.running is None or state.suspended \
                or state.last_at is None:
            return
        gaps = await asyncio.to_thread(self.repo.outages_since, state.last_at)
        for start, end in gaps:
            last = game.state.last_at or start
            if end <= last:
                continue
            game.append(Suspend(at=max(start, last)))
            game.append(Resume(at=end))
        if len(game.events) != live.stored:
            await self._commit(live)

    def _remember(self, live: LiveGame) -> None:
        self.games[live.id] = live
        self.games.move_to_end(live.id)
        excess = len(self.games) - self.settings.max_live_games
        if excess <= 0:
            return
        # finished games first, then the least recently used; never a busy one
        candidates = sorted(
            (g for g in self.games.values() if g is not live and not g.busy),
            key=lambda g: (g.game.phase is not Phase.OVER, g.touched))
        for old in candidates[:excess]:
            self._evict(old)

    def _evict(self, live: LiveGame) -> None:
        """The game leaves memory (its search, if any, is stopped; its lease is given
        up); it reloads on demand."""
        if live.search is not None:
            live.search.cancel()
        if live.task is not None:
            live.task.cancel()
        self.games.pop(live.id, None)
        _release(live)
        if live.owner and self._run is not None:
            live.owner = False
            with contextlib.suppress(RuntimeError):  # the writer is shut down: stopping
                self._writer.submit(self._release_lease, live.id)

    def _release_lease(self, game_id: str) -> None:
        try:
            if self._run is not None and game_id not in self.games:
                self.repo.release_leases(self._run, [game_id])
        except Exception:  # it expires anyway
            log.exception("releasing the lease of game %s failed", game_id)

    # ---- several processes -------------------------------------------------------------
    async def _claim(self, live: LiveGame) -> None:
        """Become the game's owner if nobody runs it (or its owner has died), then forgive
        the side on move the time no server ran at all, and a program on move the time
        since a dead owner was last seen (nobody ran it)."""
        if live.owner or self._run is None or live.game.phase is Phase.OVER:
            return
        taken, previous = await self._write(self.repo.take_lease, live.id, self._run,
                                            self.wall(), self.settings.lease_seconds)
        if not taken:
            return
        live.owner = True
        if previous is not None:
            log.info("game %s taken over from server run %s", live.id, previous)
        async with live.lock:
            await self._catch_up(live)
            await self._forgive_outages(live)
            if previous is not None:
                await self._forgive_dead_owner(live, previous)

    async def _forgive_dead_owner(self, live: LiveGame, previous: int) -> None:
        """A program on move was not run from its dead owner's last sign of life until
        now: its clock stops over that time (a person on move could play meanwhile)."""
        last_seen = await asyncio.to_thread(self.repo.run_last_seen, previous)
        state = live.game.state
        if last_seen is None or live.game.program_to_move() is None \
                or state.clock is None or state.clock.running is None \
                or state.suspended or state.last_at is None:
            return
        start, end = max(last_seen, state.last_at), self.wall()
        if end > start:
            live.game.append(Suspend(at=start))
            live.game.append(Resume(at=end))
            await self._commit(live)
            self._notify(live)

    async def _catch_up(self, live: LiveGame, version: GameVersion | None = None,
                        *, known: bool = False) -> bool:
        """Bring the game up to what the database holds (call under its lock): events,
        visibility and seats another process changed. ``version``/``known``: the caller
        read it already (``None`` with ``known``: the game is gone). Returns whether
        anything changed; raises :class:`NotFound` if another process deleted it."""
        if not known:
            version = (await asyncio.to_thread(self.repo.versions, [live.id])).get(live.id)
        if version is None:
            self._evict(live)
            if not live.deleted:
                live.deleted, live.public = True, False
                self._notify(live)
            raise NotFound(f"no game {live.id!r}")
        changed = (version.public, version.awaiting_join) != (live.public, live.awaiting_join)
        live.public, live.awaiting_join = version.public, version.awaiting_join
        if version.event_count != live.stored:
            stored = await asyncio.to_thread(self.repo.load, live.id, time_source=self.wall,
                                             rng=self._rng)
            if stored is None:
                return await self._catch_up(live, None, known=True)
            live.game, live.stored = stored.game, len(stored.game.events)
            live.public = stored.public
            live.ready = None
            self._stop_stale_search(live)
            changed = True
        return changed

    async def _still_there(self, live: LiveGame) -> None:
        """Before refusing a reader: catch up with the database (another process may have
        deleted the game, or made it public)."""
        async with live.lock:
            await self._catch_up(live)

    async def _on_change(self, live: LiveGame, version: GameVersion | None = None,
                         *, known: bool = False) -> None:
        """Another process changed the game: catch up, tell the watchers, and (the owner)
        let the program answer."""
        try:
            async with live.lock:
                if await self._catch_up(live, version, known=known):
                    self._notify(live)
        except NotFound:
            return
        except Exception:
            log.exception("catching up with game %s failed", live.id)
            return
        finally:
            live.catching_up = False
        if not live.owner and live.game.program_to_move() is not None:
            await self._claim(live)
        self._schedule_program(live)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _heard(self, loop: asyncio.AbstractEventLoop, game_id: str) -> None:
        """The listener thread heard that a game changed (PostgreSQL ``NOTIFY``)."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: stopping
            loop.call_soon_threadsafe(self._changed, game_id)

    def _changed(self, game_id: str) -> None:
        live = self.games.get(game_id)
        if live is None or live.catching_up:
            return
        live.catching_up = True
        self._spawn(self._on_change(live))

    async def _poll(self) -> None:
        """Compare every live game with the database in one query; catch up the changed."""
        lives = [g for g in self.games.values() if not g.catching_up]
        if not lives:
            return
        versions = await asyncio.to_thread(self.repo.versions, [g.id for g in lives])
        for live in lives:
            version = versions.get(live.id)
            if version is not None and version.event_count == live.stored \
                    and (version.public, version.awaiting_join) \
                    == (live.public, live.awaiting_join):
                continue
            live.catching_up = True
            self._spawn(self._on_change(live, version, known=True))

    async def _keep_leases(self) -> None:
        """Renew this process's leases, drop the games whose lease another process took
        (this one stalled), and take over the games nobody runs."""
        assert self._run is not None
        held = await self._write(self.repo.renew_leases, self._run, self.wall(),
                                 self.settings.lease_seconds)
        for live in list(self.games.values()):
            if live.owner and live.id not in held:
                log.warning("game %s is run by another process now", live.id)
                live.owner = False
                if live.search is not None:
                    live.search.cancel()
                live.ready = None
        await self._adopt_orphans(16)

    async def _adopt_orphans(self, limit: int) -> None:
        ids = await asyncio.to_thread(self.repo.orphan_games, self.wall(), limit)
        for game_id in ids:
            try:
                live = self.games.get(game_id)
                if live is None:
                    live = await self.get(game_id)  # loading claims it
                else:
                    await self._claim(live)
            except NotFound:
                continue
            except Exception:  # a damaged row must not stop the server
                log.exception("cannot take over game %s", game_id)
                continue
            self._schedule_program(live)

    async def _commit(self, live: LiveGame, *, keep: bool = False) -> None:
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
            self._evict(live)
            raise StorageFailure("the game was changed by another server process at the "
                                 "same moment: try again") from None
        except Exception as exc:
            log.exception("commit of game %s failed", live.id)
            self._evict(live)  # reload what the database holds
            raise StorageFailure(f"the game could not be saved: {exc}") from exc

    async def _write(self, fn: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._writer, fn, *args)

    def view(self, live: LiveGame, you: frozenset[int] = frozenset()) -> GameView:
        waiting_for: set[str] = set()
        if live.game.state.waiting:
            for groups in self._programs_missing(live.game).values():
                waiting_for |= groups
        return game_view(live.id, live.game, you=you, thinking=live.thinking,
                         public=live.public, awaiting_join=live.awaiting_join,
                         waiting_for=sorted(waiting_for))

    def _notify(self, live: LiveGame) -> None:
        for queue in list(live.subscribers):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)

    # ---- seats -------------------------------------------------------------------------
    async def seats_of(self, live: LiveGame, token: str | None) -> frozenset[int]:
        """The participants ``token`` acts for in this game (empty without a token);
        a token that is not this game's is refused (403)."""
        if token is None:
            return frozenset()
        digest = secret_hash(token)
        held = live.seats.get(digest)
        if held is None:
            secret = await asyncio.to_thread(self.repo.secret, live.id, digest)
            if secret is None or secret.kind != "token":
                await self._still_there(live)
                raise Forbidden("this seat token does not belong to this game")
            held = frozenset(secret.participants)
            if len(live.seats) < 16:
                live.seats[digest] = held
        return held

    async def reader(self, game_id: str, token: str | None) -> tuple[LiveGame, frozenset[int]]:
        """The game and the seats of a caller who wants to see it: a seat holder, or
        anyone for a public game."""
        live = await self.get(game_id)
        you = await self.seats_of(live, token)
        if not you and not live.public:
            await self._still_there(live)  # made public, or deleted, by another process?
        if not you and not live.public:
            if token is None:
                raise Unauthorized("this game is private: send your seat token "
                                   "(Authorization: Bearer …)")
            raise Forbidden("this game is private")
        return live, you

    async def actor(self, game_id: str, token: str | None) -> tuple[LiveGame, frozenset[int]]:
        """The game and the seats of a caller who wants to act in it."""
        live = await self.get(game_id)
        if token is None:
            raise Unauthorized("acting in a game needs its seat token "
                               "(Authorization: Bearer …)")
        you = await self.seats_of(live, token)
        if not you:  # pragma: no cover - a token always holds a seat
            raise Forbidden("this seat token holds no seat")
        return live, you

    # ---- creating and joining ------------------------------------------------------------
    def limit_new_games(self, address: str) -> None:
        """Count a new game (created or imported) for ``address``; refuse it with
        :class:`RateLimited` beyond ``games_per_minute``."""
        wait = self._rate.check(address)
        if wait is not None:
            raise RateLimited(f"at most {self.settings.games_per_minute} new games a minute",
                              retry_after=max(1, int(wait + 0.999)))

    async def create(self, req: NewGame, *, client: str | None, address: str) -> Created:
        self.limit_new_games(address)
        if len(self.games) >= self.settings.max_live_games and all(
                g.busy for g in self.games.values()):
            raise Busy("the server is full: try again in a minute")
        engines: list[ConfiguredEngine] = []
        if req.opponent == "external":
            from hasamigo.engine.protocols.config import configured_engines

            engines = await asyncio.to_thread(configured_engines)
        setup = setup_of(req, engines)
        await self._board_kernels(find_variant(setup.options.variant))
        game_id = secrets.token_hex(6)
        game = GameController.new(setup, time_source=self.wall, rng=self._rng,
                                  game_id=game_id)
        # a program whose kernels are not loaded waits from the start (its clock too; an
        # official game does not begin meanwhile)
        for index, _groups in self._programs_missing(game).items():
            game.program_waiting(index)
        token = secrets.token_urlsafe(24)
        two_browsers = req.opponent == "person" and not req.same_screen
        mine = (0,) if req.opponent != "person" or two_browsers else (0, 1)
        grants = [SeatSecret("token", secret_hash(token), mine, client)]
        join_code = None
        if two_browsers:
            join_code = secrets.token_urlsafe(18)
            grants.append(SeatSecret("join", secret_hash(join_code), (1,), None))
        try:
            await self._write(functools.partial(self.repo.create, game, public=req.public,
                                                creator=client, secrets=grants))
        except Exception as exc:
            log.exception("creating a game failed")
            raise StorageFailure(f"the game could not be saved: {exc}") from exc
        live = LiveGame(game_id, game, len(game.events), public=req.public, creator=client,
                        touched=self.now(), awaiting_join=two_browsers)
        live.seats[secret_hash(token)] = frozenset(mine)
        if two_browsers:
            async with live.lock:
                self._hold_clock(live)
                await self._commit(live)
        self._remember(live)
        await self._claim(live)
        self._schedule_program(live)
        return Created(live, token, frozenset(mine), join_code)

    async def adopt(self, game: GameController, *, client: str | None,
                    public: bool = False) -> Created:
        """Store a game made elsewhere (an imported record, :mod:`hasamigo.game.imported`)
        under a new id, with one seat token for both participants (as two people on one
        screen) kept by ``client``'s browser; private unless ``public``. The caller counted
        it (:meth:`limit_new_games`). Its events are replayed on the server's clock, so
        a game still in progress goes on in real time."""
        game_id = secrets.token_hex(6)
        game = GameController(game.setup, game.events, time_source=self.wall, rng=self._rng,
                              game_id=game_id)
        token = secrets.token_urlsafe(24)
        both = frozenset({0, 1})
        grants = [SeatSecret("token", secret_hash(token), (0, 1), client)]
        try:
            await self._write(functools.partial(self.repo.create, game, public=public,
                                                creator=client, secrets=grants))
        except Exception as exc:
            log.exception("storing an imported game failed")
            raise StorageFailure(f"the game could not be saved: {exc}") from exc
        live = LiveGame(game_id, game, len(game.events), public=public, creator=client,
                        touched=self.now())
        live.seats[secret_hash(token)] = both
        self._remember(live)
        await self._claim(live)
        return Created(live, token, both, None)

    async def join(self, game_id: str, code: str, client: str | None
                   ) -> tuple[LiveGame, str, frozenset[int]]:
        """Exchange a one-time join code for a seat token: the second person's seat, or
        (a game played in the terminal) the seat a browser takes over."""
        live = await self.get(game_id)
        refused = Forbidden("this join link is not valid, or has been used already")
        code_hash = secret_hash(code)
        found = await asyncio.to_thread(self.repo.secret, game_id, code_hash)
        if found is None or found.kind != "join" or found.used:
            raise refused
        token = secrets.token_urlsafe(24)
        grant = SeatSecret("token", secret_hash(token), found.participants, client)
        held = await self._write(self.repo.use_join_code, game_id, code_hash, grant)
        if held is None:
            raise refused
        live.seats[grant.secret_hash] = frozenset(held)

        def seated(live: LiveGame) -> None:
            live.awaiting_join = False
            if live.game.state.suspended:
                live.game.resume()  # both are here: the clock starts

        await self.act(live, seated)
        return live, token, frozenset(held)

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
        await self._write(self.repo.set_public, live.id, public)
        live.public = public
        self._notify(live)

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
            self._evict(live)
            live.ready = None
            try:
                gone = await self._write(self.repo.delete, live.id)
            except Exception as exc:
                log.exception("deleting game %s failed", live.id)
                raise StorageFailure(f"the game could not be deleted: {exc}") from exc
        if not gone:
            raise NotFound(f"no game {live.id!r}")
        live.public = False
        live.deleted = True
        self._notify(live)

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
                caught_up = False if fresh else await self._catch_up(live)
                self._observe(live)
                try:
                    action(live)
                except BaseException:
                    await self._settle(live, caught_up, keep=True)  # time's events
                    raise
                if await self._settle(live, caught_up, keep=attempt == 1):
                    break
                fresh = False
        if touch:
            live.touched = self.now()
        if not live.owner and live.game.program_to_move() is not None:
            await self._claim(live)
        self._schedule_program(live)
        return live

    async def _settle(self, live: LiveGame, caught_up: bool, *, keep: bool) -> bool:
        """After an action (under the lock): hold the clock, stop a stale search, commit,
        tell the watchers. ``False``: another process stored events first (``keep``):
        nothing was stored, and the game is caught up for the action to be tried again."""
        self._hold_clock(live)
        changed = len(live.game.events) != live.stored
        self._stop_stale_search(live)
        if changed:
            try:
                await self._commit(live, keep=keep)
            except ConcurrentWrite:
                await self._catch_up(live)
                self._notify(live)
                return False
        if changed or caught_up:
            self._notify(live)
        return True

    def _observe(self, live: LiveGame) -> None:
        # a program thinking is not claimed against until its move is in (rule 15)
        busy = [live.game.board.turn] if live.thinking else []
        live.game.observe(busy)

    def _stop_stale_search(self, live: LiveGame) -> None:
        ticket = live.search
        if ticket is None or ticket.cancelled:
            return
        if live.game.state.position_revision > ticket.revision \
                or live.game.program_to_move() is None:
            ticket.cancel()
            live.ready = None

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

    @staticmethod
    def held_colours(game: GameController, you: frozenset[int]) -> list[Color]:
        if game.state.seats is None:
            return []
        return [c for c in (BLACK, WHITE) if game.state.seat(c) in you]

    def acting_colour(self, game: GameController, you: frozenset[int],
                      colour: Color | None) -> Color:
        """The colour a seat token acts as: the one asked for (which it must hold), its
        only colour, or (both seats on one screen) the side to move."""
        held = self.held_colours(game, you)
        if not held:
            raise GameError("colours are not decided yet", "wrong_phase")
        if colour is not None:
            if colour not in held:
                raise Forbidden(f"your seat token does not play {colour}", "not_your_seat")
            return colour
        return held[0] if len(held) == 1 else game.board.turn

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
            await self._wait_for_peer(live)
            return
        task = live.task
        if task is not None and not task.done():
            live.waiters += 1
            try:
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(task),
                                           self.settings.reply_wait_seconds)
            finally:
                live.waiters -= 1
                live.touched = self.now()

    async def _wait_for_peer(self, live: LiveGame) -> None:
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

    # ---- programs ----------------------------------------------------------------------
    def _schedule_program(self, live: LiveGame) -> None:
        if live.task is not None and not live.task.done():
            return
        if not live.owner or self.games.get(live.id) is not live or (
                live.game.program_to_move() is None and not live.game.state.waiting):
            return
        live.task = asyncio.create_task(self._program_loop(live))

    def _player(self, live: LiveGame, colour: Color, spec: str) -> Player:
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
    async def _board_kernels(self, variant: type[Board]) -> None:
        """Wait for the board's own kernels (the 10-column grid's load when a game is first
        made on it: a second or two of compile the first time, in a subprocess)."""
        if self.kernels is not None:
            await self.kernels.wait("rules" if variant.stride == 8 else "wide-rules")

    def _programs_missing(self, game: GameController) -> dict[int, frozenset[str]]:
        """The game's programs whose kernels are not all loaded: participant -> the groups
        missing (those it plays better with are requested too)."""
        kernels = self.kernels
        if kernels is None:
            return {}
        variant = type(game.board)
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
                if self.games.get(live.id) is not live or not live.owner:
                    return False
                state = game.state
                if state.phase not in (Phase.COLOURS, Phase.PLAYING):
                    return True  # over, or a time-out's settling: no program to hold
                missing = self._programs_missing(game)
                for index in sorted(set(missing) - state.waiting):
                    game.program_waiting(index)
                for index in sorted(state.waiting - set(missing)):
                    game.program_ready(index)
                if len(game.events) != live.stored:
                    try:
                        await self._commit(live)
                    except StorageFailure:
                        return False
                    self._notify(live)
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
                if turn is None or self.games.get(live.id) is not live or not live.owner:
                    if live.game.phase is Phase.OVER:
                        _release(live)  # an external engine's process ends with the game
                    return
                colour, spec = turn
                board = live.game.board.copy()
                revision = live.game.revision
                clock = live.game.program_clock()
                try:
                    player = self._player(live, colour, spec)
                except Exception as exc:
                    live.failure = f"cannot start program {spec!r}: {exc}"
                    log.exception("cannot make player %s", spec)
                    self._notify(live)
                    return
                ticket = SearchTicket(revision, player)
                live.search = ticket
                self._notify(live)
            try:
                move = await self._search(ticket, functools.partial(player.choose, board, clock))
            except Exception as exc:
                if live.search is ticket:
                    live.search = None
                if ticket.cancelled:
                    continue  # the position changed or the game left memory: look again
                log.exception("program %s failed in game %s", spec, live.id)
                live.failure = f"the program failed: {str(exc)[:200]}"
                self._notify(live)
                return
            if ticket.cancelled:
                continue
            live.ready = (colour, move, revision)
            async with live.lock:
                if live.search is ticket:
                    live.search = None
                ready, live.ready = live.ready, None
                if ready is None:
                    self._notify(live)
                    continue  # a claim completed it first
                try:
                    live.game.play(colour, move, revision=revision)
                except GameError:
                    self._notify(live)
                    continue  # stale, suspended or over: look again
                except IllegalMoveError:
                    log.exception("program %s chose an illegal move in game %s", spec, live.id)
                    live.failure = "the program chose an illegal move"
                    self._notify(live)
                    return
                try:
                    await self._commit(live, keep=True)
                except ConcurrentWrite:  # a move or take-back stored by another process
                    try:
                        await self._catch_up(live)
                    except NotFound:
                        return
                    self._notify(live)
                    continue
                except StorageFailure:
                    return
                self._notify(live)

    # ---- time --------------------------------------------------------------------------
    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.tick_all()
            except Exception:
                log.exception("clock tick failed")

    async def tick_all(self) -> None:
        """Append what time has brought in every live game, record that the server is
        alive, and let idle games leave memory."""
        now = self.now()
        if self._run is not None and now - self._heartbeat_at >= self.settings.checkpoint_seconds:
            self._heartbeat_at = now
            await self._write(self.repo.heartbeat, self._run, self.wall())
        if self._run is not None and now - self._leases_at >= self.settings.lease_seconds / 3:
            self._leases_at = now
            await self._keep_leases()
        # other processes' changes: PostgreSQL announces them (this is its safety net)
        every = self.settings.checkpoint_seconds if self.repo.announces else 0.0
        if now - self._polled_at >= every:
            self._polled_at = now
            await self._poll()
        for live in list(self.games.values()):
            state = live.game.state
            watch = (live.owner and state.clock is not None and not live.lock.locked()
                     and (state.clock.running is not None
                          or (state.phase is Phase.OVER and not state.result_final)))
            if watch:
                try:
                    await self.act(live, lambda _live: None, touch=False, fresh=True)
                except (StorageFailure, HasamigoError):
                    continue
            idle = now - live.touched
            if not live.subscribers and not live.lock.locked() and not live.waiters and (
                    idle >= self.settings.idle_seconds
                    or (state.phase is Phase.OVER and idle >= 30 and not live.thinking)):
                self._evict(live)

    # ---- subscriptions -----------------------------------------------------------------
    def subscribe(self, live: LiveGame) -> asyncio.Queue[None]:
        if len(live.subscribers) >= self.settings.max_watchers_per_game:
            raise Busy("too many people are watching this game")
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        live.subscribers.add(queue)
        return queue

    def unsubscribe(self, live: LiveGame, queue: asyncio.Queue[None]) -> None:
        live.subscribers.discard(queue)
        live.touched = self.now()


__all__ = ["BLACK", "WHITE", "Created", "GameService", "LiveGame", "NotFound",
           "StorageFailure", "secret_hash", "setup_of"]
