"""Multi-player games on the server (:class:`MultiGameService`): Rolit and 4人対戦オセロ for
two to four seats, each a person or a program, on one screen or online.

* **The database is the truth.** A game is its :class:`~hasamigo.storage.multi_games.
  StoredMultiGame` row; every request reads the row (one primary-key read) and replays
  its moves into a :class:`~hasamigo.multi.MultiBoard` only when its version changed
  (a small cache), and a move is committed, by a compare-and-set on the version, before
  the caller hears of it. A restart loses no finished move; several processes may serve
  one database (the second writer of a position gets 409 ``concurrent_write``).
* **Seats** as for two-player games (:mod:`hasamigo.web.services.games.seats`): the
  creator gets a token holding their seat(s), every other person's seat online a one-time
  join code exchanged for a token of its own; only hashes are stored
  (:func:`~hasamigo.storage.secrets.secret_hash`). A move names its seat through its
  token: a token that does not hold the side to move is refused (403 ``not_your_seat``).
  Reading a game needs only its id (unguessable): the join links and the replay are
  shared by address.
* **Accounts** (issue 67): a signed-in creator's seat of an online game, and a seat a
  signed-in person takes by its join link, are held by the account (``multi_game_seats``):
  the seat keeps the account's name (unless the creator named it, in a game not rated),
  and :meth:`MultiGameService.account_seat` gives the account a fresh token of its seat in
  any browser. A **rated** game (``NewMultiGame.rated``) is online, between people only,
  Rolit or 4-player Othello with four: its creator and everyone taking a seat is signed
  in, each account one seat. Once over it is rated by
  :meth:`~hasamigo.web.services.ratings.RatingService.multi_over` before any answer shows
  its end. An account deleted mid-game leaves its seat (``MultiSeat.left``, its tokens
  ended): :data:`~hasamigo.storage.multi_games.LEFT_SEAT_PROGRAM` plays its turns while
  another person plays, like any program's seat here, and the game is not rated.
* **Programs** choose on the search threads (the pool the two-player games' programs use),
  never on the event loop, one move at a time, each committed like a person's. A forced
  pass (4人対戦オセロ) is played at once for whoever has to pass.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hasamigo.engine.multi_players import MultiPlayer, make_multi_player
from hasamigo.errors import InvalidOptionError
from hasamigo.move import PASS, Move
from hasamigo.multi import MultiBoard, find_multi_game
from hasamigo.notation.multi_record import MultiRecord, format_multi_record
from hasamigo.storage.games import ConcurrentWrite
from hasamigo.storage.multi_games import (
    MultiGameRepository,
    MultiSeat,
    MultiSecret,
    StoredMultiGame,
)
from hasamigo.storage.secrets import secret_hash
from hasamigo.web.errors import Forbidden, NotFound, Unauthorized
from hasamigo.web.limits import RateWindow
from hasamigo.web.schemas_multi import (
    MultiGameView,
    MultiSeatView,
    MultiStandingView,
    NewMultiGame,
)
from hasamigo.web.services.ratings import Verdict, multi_pool

if TYPE_CHECKING:
    from hasamigo.accounts import Account
    from hasamigo.web.services.ratings import RatingService

log = logging.getLogger(__name__)
#: games whose position is kept in memory (the others are replayed from their row)
CACHED_GAMES = 256
#: the tokens of its seat an account keeps per game (older browsers' tokens end)
ACCOUNT_TOKENS = 8
#: the default names of a program's seat
PROGRAM_NAMES = {"random": "Random", "greedy": "Greedy", "search": "Search (max-n)"}


def _new_secret() -> str:
    return secrets.token_urlsafe(24)


def program_name(spec: str) -> str:
    kind, _, depth = spec.partition(":")
    if kind in PROGRAM_NAMES:
        return PROGRAM_NAMES[kind]
    return f"{'Max-n' if kind == 'maxn' else 'Paranoid'} {depth or '3'}"


@dataclass
class _Live:
    """A game's position as of ``stored`` (its version), with its seats' programs."""

    stored: StoredMultiGame
    board: MultiBoard
    programs: dict[int, MultiPlayer] = field(default_factory=dict)
    #: every position's picture so far (:func:`_boards`), made again only after a move
    pictures: tuple[tuple[str, ...], list[str]] | None = None
    #: a finished game's ratings (or why not), as of the version it was read for
    verdict: tuple[int, Verdict] | None = None

    def boards(self) -> list[str]:
        moves = _texts(self.board)
        if self.pictures is None or self.pictures[0] != moves:
            self.pictures = (moves, _boards(self.board))
        return self.pictures[1]


def replay(stored: StoredMultiGame) -> MultiBoard:
    """The position after the stored moves, each checked by the rules."""
    board = MultiBoard(stored.game, seats=[s.colour for s in stored.seats],
                       first=stored.seats[0].colour)
    for move in stored.moves:
        board.play(Move.from_str("pass" if move == "PA" else move))
    return board


def _move_text(move: Move) -> str:
    return "PA" if move.is_pass else str(move)


def _texts(board: MultiBoard) -> tuple[str, ...]:
    return tuple(_move_text(m) for m in board.move_stack)


def result_text(board: MultiBoard) -> str:
    """Each seat's final discs in turn order, as the record's ``RE`` writes them."""
    scores = board.scores()
    return " ".join(f"{board.colour_name(c)} {scores[c]}" for c in board.turn_order())


class MultiGameService:
    """Creating, joining, reading and playing multi-player games (see the module
    docstring). ``pool``: the search threads the programs choose on."""

    def __init__(self, repo: MultiGameRepository, pool: Executor, *,
                 games_per_minute: int = 20,
                 time_source: Callable[[], float] | None = None,
                 ratings: RatingService | None = None) -> None:
        self.repo = repo
        self.pool = pool
        #: rates a finished rated game (``None``: nothing is rated)
        self.ratings = ratings
        self._rate = RateWindow(games_per_minute, 60.0,
                                time_source=time_source or time.monotonic)
        self._live: OrderedDict[str, _Live] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}
        self._running: dict[str, asyncio.Task[None]] = {}

    # ---- creating and joining ----------------------------------------------------------
    async def create(self, req: NewMultiGame, *, address: str,
                     account: Account | None = None
                     ) -> tuple[MultiGameView, str, dict[str, str]]:
        """A new game: its view (for the creator), the creator's seat token and the other
        people's join codes by colour name (online; none on one screen). Signed in
        (``account``), the creator's seat of an online game is the account's."""
        if req.rated:
            _check_rated(req, account)
        self._rate.enforce(address, "new games")
        rules = find_multi_game(req.game)
        colours = rules.default_seats[len(req.seats) - 2]
        first = (secrets.choice(colours) if req.first == "random"
                 else rules.colour_named(req.first))
        if first not in colours:
            raise InvalidOptionError(
                f"{rules.colours[first]} does not play with {len(colours)} seats; the "
                f"colours: {', '.join(rules.colours[c] for c in colours)}")
        start = colours.index(first)
        order = list(range(start, len(colours))) + list(range(start))
        seats = tuple(MultiSeat(colours[i], (req.seats[i].name or (
            program_name(req.seats[i].player) if req.seats[i].player != "person"
            else rules.colours[colours[i]].capitalize())).strip() or "?",
            None if req.seats[i].player == "person" else req.seats[i].player)
            for i in order)
        people = [s.colour for s in seats if s.program is None]
        if not people:
            raise InvalidOptionError("a game needs at least one person's seat (a game of "
                                "programs only is played by `hasamigo play-multi`)")
        token = _new_secret()
        mine = tuple(people[:1]) if req.online else tuple(people)
        holder = account if req.online else None
        if holder is not None:
            named = {colours[i] for i in order if req.seats[i].name and not req.rated}
            seats = tuple(MultiSeat(s.colour, holder.name, s.program)
                          if s.colour in mine and s.colour not in named else s
                          for s in seats)
        kept = [MultiSecret("token", secret_hash(token), mine,
                            account=None if holder is None else holder.id)]
        codes: dict[str, str] = {}
        for colour in people:
            if colour not in mine:
                code = _new_secret()
                kept.append(MultiSecret("join", secret_hash(code), (colour,)))
                codes[rules.colours[colour]] = code
        stored = StoredMultiGame(
            secrets.token_urlsafe(12), rules.name, seats, tuple(kept), rated=req.rated,
            accounts=() if holder is None else tuple((c, holder.id) for c in mine))
        replay(stored)  # the seats make a game
        await asyncio.to_thread(self.repo.create, stored)
        live = await self._get(stored.id)
        self._schedule(live)
        return self.view(live, frozenset(mine)), token, codes

    async def join(self, game_id: str, code: str, account: Account | None = None
                   ) -> tuple[str, frozenset[int]]:
        """A join code exchanged (once) for a seat token of its own: the token and its
        colours; signed in (``account``), the account holds the seat. 403 for a code that
        is not this game's, or used already; a rated game's seat is taken signed in (401)
        by an account holding no other seat of it (409 ``already_joined``)."""
        refused = Forbidden("this join link is not valid, or has been used already")
        digest = secret_hash(code)
        async with self._lock(game_id):
            live = await self._get(game_id)
            stored = live.stored
            found = next((s for s in stored.secrets if s.hash == digest), None)
            if found is None or found.kind != "join" or found.used:
                raise refused
            if stored.rated and account is None:
                raise Unauthorized("a seat of a rated game is taken signed in: sign in "
                                   "(or sign up), then open the link again")
            if stored.rated and account is not None \
                    and account.id in {a for _c, a in stored.accounts}:
                raise Forbidden("your account holds another seat of this rated game: "
                                "each seat is a different player's", "already_joined")
            token = _new_secret()
            grant = MultiSecret("token", secret_hash(token), found.colours,
                                account=None if account is None else account.id)
            kept = (*(MultiSecret(s.kind, s.hash, s.colours, True) if s is found else s
                      for s in stored.secrets), grant)
            seats = None
            rules = live.board.rules
            if account is not None:
                seats = tuple(MultiSeat(s.colour, account.name, s.program)
                              if s.colour in found.colours and (
                                  stored.rated or s.name == rules.colours[s.colour]
                                  .capitalize()) else s for s in stored.seats)
            await self._save(live, secrets=kept, seats=seats, holder=None if account is None
                             else (found.colours, account.id))
        return token, frozenset(found.colours)

    async def account_seat(self, game_id: str, account: Account
                           ) -> tuple[str, frozenset[int]]:
        """A fresh seat token of the seats ``account`` holds in the game, for another
        browser (403 ``not_your_seat`` if it holds none; 404 for no such game). The
        account keeps its :data:`ACCOUNT_TOKENS` newest tokens of the game."""
        async with self._lock(game_id):
            live = await self._get(game_id)
            stored = live.stored
            colours = tuple(sorted(c for c, a in stored.accounts if a == account.id))
            if not colours:
                raise Forbidden("your account holds no seat of this game", "not_your_seat")
            token = _new_secret()
            grant = MultiSecret("token", secret_hash(token), colours, account=account.id)
            theirs = [s for s in stored.secrets
                      if s.kind == "token" and s.account == account.id]
            ended = {id(s) for s in theirs[:max(0, len(theirs) + 1 - ACCOUNT_TOKENS)]}
            kept = (*(s for s in stored.secrets if id(s) not in ended), grant)
            await self._save(live, secrets=kept)
        return token, frozenset(colours)

    # ---- reading -----------------------------------------------------------------------
    def _lock(self, game_id: str) -> asyncio.Lock:
        if len(self._locks) > 4 * CACHED_GAMES:
            for key in [k for k, lock in self._locks.items() if not lock.locked()]:
                del self._locks[key]
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _get(self, game_id: str) -> _Live:
        """The game as stored now (404 if there is none), its position replayed only if
        it changed since this process last saw it."""
        stored = (await asyncio.to_thread(self.repo.get, game_id)
                  if 0 < len(game_id) <= 32 else None)
        if stored is None:
            raise NotFound(f"no multi-player game {game_id[:32]!r}")
        live = self._live.get(game_id)
        if live is None or live.stored.version != stored.version:
            if live is not None and _texts(live.board) == stored.moves:
                live.stored = stored  # only the secrets changed
            else:
                board = await asyncio.to_thread(replay, stored)
                live = _Live(stored, board, live.programs if live else {})
            self._live[game_id] = live
        self._live.move_to_end(game_id)
        while len(self._live) > CACHED_GAMES:
            self._live.popitem(last=False)
        return live

    def colours_of(self, live: _Live, token: str | None) -> frozenset[int]:
        """The colours ``token`` holds in this game (none without one); a token that is
        not this game's is refused (403)."""
        if token is None:
            return frozenset()
        digest = secret_hash(token)
        for s in live.stored.secrets:
            if s.kind == "token" and s.hash == digest:
                return frozenset(s.colours)
        raise Forbidden("this seat token does not belong to this game")

    async def seats(self, game_id: str, token: str | None) -> frozenset[int]:
        """The colours ``token`` holds in game ``game_id`` (:meth:`colours_of`; 404 for no
        such game): the credential check a route runs before it reads its body."""
        return self.colours_of(await self._get(game_id), token)

    async def state(self, game_id: str, token: str | None) -> MultiGameView:
        live = await self._get(game_id)
        you = self.colours_of(live, token)
        self._schedule(live)  # a program to move after a restart picks up here
        await self.verdict(live)  # a rated game's end is seen with its ratings stored
        return self.view(live, you)

    async def verdict(self, live: _Live) -> Verdict | None:
        """A finished game's ratings (rated now if it is to be and was not yet), or why
        it is not rated; ``None`` before its end (or if rating failed: logged, tried
        again at the next look)."""
        stored = live.stored
        if stored.result is None or self.ratings is None:
            return None
        if live.verdict is not None and live.verdict[0] == stored.version:
            return live.verdict[1]
        found = await self.ratings.multi_over(stored, live.board.scores())
        if found is not None:
            live.verdict = (stored.version, found)
        return found

    async def rating(self, game_id: str) -> tuple[_Live, Verdict | None]:
        """The game and its :meth:`verdict`."""
        live = await self._get(game_id)
        return live, await self.verdict(live)

    async def record(self, game_id: str) -> str:
        """The game's ``.mgf`` record (:mod:`hasamigo.notation.multi_record`)."""
        live = await self._get(game_id)
        stored = live.stored
        record = MultiRecord.from_board(
            live.board, names=tuple(s.name for s in stored.seats),
            date=stored.created_at.strftime("%Y-%m-%d %H:%MZ"), place="hasamigo web")
        return format_multi_record(record)

    def view(self, live: _Live, you: frozenset[int]) -> MultiGameView:
        board, stored, rules = live.board, live.stored, live.board.rules
        waiting = {c for s in stored.secrets if s.kind == "join" and not s.used
                   for c in s.colours}
        counts = board.counts()
        over = board.is_game_over()
        return MultiGameView(
            id=stored.id, game=rules.name, title=rules.title, colours=list(rules.colours),
            symbols=rules.symbols,
            seats=[MultiSeatView(colour=rules.colours[s.colour], symbol=rules.symbols[s.colour],
                                 name=s.name, program=s.program, waiting=s.colour in waiting,
                                 discs=counts[s.colour], left=s.left) for s in stored.seats],
            moves=list(_texts(board)), boards=live.boards(),
            turn=None if over else rules.colours[board.turn],
            legal=[] if over else [str(m) for m in board.legal_moves() if not m.is_pass],
            over=over,
            standings=[MultiStandingView(rank=s.rank, colour=s.name,
                                         name=self._seat(stored, s.colour).name,
                                         discs=s.discs) for s in board.standings()]
            if over else [],
            your_colours=[rules.colours[c] for c in board.seats if c in you],
            version=stored.version, rated=stored.rated)

    @staticmethod
    def _seat(stored: StoredMultiGame, colour: int) -> MultiSeat:
        return next(s for s in stored.seats if s.colour == colour)

    # ---- playing -----------------------------------------------------------------------
    async def move(self, game_id: str, token: str | None, text: str,
                   colour: str | None = None) -> MultiGameView:
        """A person's move for the side to move, which ``token`` must hold (403
        ``not_your_seat`` otherwise); an illegal move is refused (422, saying why)."""
        if token is None:
            raise Unauthorized("a move needs its seat's token (Authorization: Bearer …)")
        async with self._lock(game_id):
            live = await self._get(game_id)
            you = self.colours_of(live, token)
            board = live.board
            if colour is not None and board.rules.colour_named(colour) not in you:
                raise Forbidden(f"your seat token does not play {colour}", "not_your_seat")
            if board.is_game_over():
                board.check(PASS)  # the rules' "the game is over"
            if board.turn not in you:
                mover = self._seat(live.stored, board.turn)
                raise Forbidden(f"it is {board.colour_name(board.turn)}'s turn "
                                f"({mover.name}), not a seat your token holds",
                                "not_your_seat")
            move = Move.from_str(text)
            board.check(move)
            await self._commit(live, move)
            await self.verdict(live)  # rated before the mover (or anyone) sees the end
        self._schedule(live)
        return self.view(live, you)

    async def _commit(self, live: _Live, move: Move) -> None:
        """Play ``move`` and the forced passes after it, and store them (the caller holds
        the game's lock); on a failed write the position goes back as it was."""
        board = live.board
        made = [move]
        board.push(move)
        while not board.is_game_over() and board.legal_moves() == [PASS]:
            board.push(PASS)
            made.append(PASS)
        moves = _texts(board)
        try:
            await self._save(live, moves=moves,
                             result=result_text(board) if board.is_game_over() else None)
        except BaseException:
            for _ in made:
                board.pop()
            raise

    async def _save(self, live: _Live, *, moves: tuple[str, ...] | None = None,
                    secrets: tuple[MultiSecret, ...] | None = None,
                    result: str | None = None, seats: tuple[MultiSeat, ...] | None = None,
                    holder: tuple[tuple[int, ...], str] | None = None) -> None:
        """Store the changes over the game as this process read it (its version)."""
        try:
            stored = await asyncio.to_thread(functools.partial(
                self.repo.save, live.stored, moves=moves, secrets=secrets, result=result,
                seats=seats, holder=holder))
        except KeyError:
            raise NotFound(f"no multi-player game {live.stored.id!r}") from None
        except ConcurrentWrite:
            self._live.pop(live.stored.id, None)
            raise
        live.stored = stored

    def _schedule(self, live: _Live) -> None:
        """Start the programs' turn if a program is to move (once per game)."""
        game_id = live.stored.id
        board = live.board
        if board.is_game_over() or self._seat(live.stored, board.turn).program is None:
            return
        task = self._running.get(game_id)
        if task is not None and not task.done():
            return
        self._running[game_id] = asyncio.get_running_loop().create_task(
            self._programs(game_id))

    async def _programs(self, game_id: str) -> None:
        """The programs' moves while a program is to move, each chosen on a search
        thread and committed like a person's."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                async with self._lock(game_id):
                    live = await self._get(game_id)
                    board = live.board
                    if board.is_game_over():
                        return
                    spec = self._seat(live.stored, board.turn).program
                    if spec is None:
                        return
                    player = live.programs.get(board.turn)
                    if player is None:
                        player = live.programs[board.turn] = make_multi_player(spec)
                    move = await loop.run_in_executor(self.pool, player.choose, board.copy())
                    board.check(move)
                    await self._commit(live, move)
                await asyncio.sleep(0)  # let the pages' reads in between the moves
        except ConcurrentWrite:
            log.info("multi-player game %s: another process moved first", game_id)
        except Exception:
            log.exception("multi-player game %s: a program's move failed", game_id)
        finally:
            self._running.pop(game_id, None)

    async def idle(self, game_id: str) -> None:
        """Wait until the game's programs have stopped (tests; a page polls instead)."""
        while (task := self._running.get(game_id)) is not None:
            await asyncio.wait({task})

    async def stop(self) -> None:
        """Cancel the programs' turns (the server is stopping: a move not committed is
        chosen again by the next start's first read)."""
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _check_rated(req: NewMultiGame, account: Account | None) -> None:
    """A rated game's terms: created signed in, online, people only, a rated board."""
    if account is None:
        raise Unauthorized("a rated game is created signed in: sign in (or sign up) first")
    if not req.online:
        raise InvalidOptionError("a rated game is played online, each person signed in "
                                 "in their own browser, not on one screen")
    if any(seat.player != "person" for seat in req.seats):
        raise InvalidOptionError("a rated game is between people only: every seat a "
                                 "person's")
    if multi_pool(req.game, len(req.seats)) is None:
        raise InvalidOptionError("4-player Othello is rated with its four seats only (with "
                                 "two or three it is a variant of ours)")


def _boards(board: MultiBoard) -> list[str]:
    """The positions from the start to ``board``'s, each as 64 letters (``.`` empty)."""
    rules = board.rules
    order = board.turn_order()
    start = MultiBoard(rules, seats=board.seats, first=order[0])
    pictures = []

    def picture(b: MultiBoard) -> str:
        return "".join("." if (c := b.colour_at(sq)) is None else rules.symbols[c]
                       for sq in range(64))

    pictures.append(picture(start))
    for move in board.move_stack:
        start.push(move)
        pictures.append(picture(start))
    return pictures


__all__ = ["MultiGameService", "program_name", "replay", "result_text"]
