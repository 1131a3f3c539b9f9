"""The lobby's service (:class:`LobbyService`): the lobby's store (:mod:`hasamigo.lobby`)
wired to the games and the ratings.

* A challenge accepted is taken in the database first (one acceptor wins), then its game
  is made by :meth:`GameService.create` between the two accounts: the poster's seat is
  participant 0 (its colour is the challenge's), the acceptor's seat is kept for its
  account; each takes its seat token from the game page (``POST /api/games/{id}/seat``),
  in any browser. If the game cannot be made, the challenge is open again.
* Waiting ("play someone near my rating"): each call of the waiting page marks the
  account seen and tries to pair it (:meth:`LobbyStore.pair`); the call that pairs makes
  the game: rated 8×8 Othello, the JOF's 20 minutes a side, colours drawn at random.
* :meth:`state` is the lobby as a page shows it, with an ETag: the open challenges, the
  games to watch, how many wait (computed at most once a second per process, the same
  for everyone), and the viewer's own part (its rating, its waiting, its games and whose
  move it is, the games its challenges became).

**Why polling.** The lobby page asks ``GET /api/lobby`` every few seconds with
``If-None-Match``; an unchanged lobby is a bodiless 304. Every state is in the database,
shared by several server processes, and a challenge posted on one must show on the
others: a websocket would need a change feed between processes for the lobby (the games
have one, PostgreSQL's ``LISTEN``; SQLite has none), while a poll reads the database as
it is. For 200 players polling every 5 s that is 40 requests a second, the public part
read once a second per process, the viewer's part a few indexed queries.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from hasamigo.accounts import Account
from hasamigo.game.procedures.core import Phase
from hasamigo.lobby import Challenge, HeldGame, LobbyStore, Terms, Waiting, window
from hasamigo.lobby.model import DEFAULT_MINUTES, RATED_VARIANT
from hasamigo.ratings import Pool, RatingStore
from hasamigo.ratings.model import subject_of_account
from hasamigo.web.limits import RateWindow
from hasamigo.web.schemas import NewGame
from hasamigo.web.services.games import GameService

log = logging.getLogger(__name__)

#: a challenge accepted this recently sends its poster's page to the game
STARTED_WITHIN = timedelta(minutes=10)
#: the public part of the lobby is read at most this often per process (seconds)
PUBLIC_EVERY = 1.0
#: the turns remembered of the viewers' games, by (game, events)
TURNS_KEPT = 2048
#: challenges an account may post an hour (on each server process)
POSTS_PER_HOUR = 30


@dataclass(frozen=True, slots=True)
class LobbyState:
    """The lobby as one viewer sees it: its JSON (``None``: unchanged since the ETag
    the viewer named, not built) and its ETag."""

    body: dict[str, Any] | None
    etag: str


class LobbyService:
    def __init__(self, store: LobbyStore, ratings: RatingStore, games: GameService, *,
                 time_source: Callable[[], float] = time.monotonic,
                 public_every: float = PUBLIC_EVERY) -> None:
        self.store = store
        self.ratings = ratings
        self.games = games
        self.now = time_source
        #: how long the public part is reused (seconds; 0: read on every call)
        self.public_every = public_every
        self._posts = RateWindow(POSTS_PER_HOUR, 3600.0, time_source=time_source)
        #: (when read, the public part, its digest)
        self._public: tuple[float, dict[str, Any], str] | None = None
        self._public_lock = asyncio.Lock()
        #: (game id, events) → (participant to move or None, deadline or None)
        self._turns: OrderedDict[tuple[str, int], tuple[int | None, float | None]] = \
            OrderedDict()

    def rating(self, account: Account) -> Any:
        """The account's rating in the ``othello`` pool (the pool's start if unrated)."""
        return self.ratings.current(subject_of_account(account.id), Pool.OTHELLO)

    # ---- challenges ----------------------------------------------------------------------
    async def post(self, account: Account, terms: Terms) -> Challenge:
        """A new open challenge of ``account`` (429 beyond :data:`POSTS_PER_HOUR`)."""
        self._posts.enforce(account.id, "challenges posted this hour")
        rating = await asyncio.to_thread(self.rating, account)
        challenge = await self.games.write(self.store.post, account.id, terms, rating.display)
        self._public = None
        return challenge

    async def cancel(self, account: Account, challenge_id: str) -> Challenge:
        challenge = await self.games.write(self.store.cancel, challenge_id, account.id)
        self._public = None
        return challenge

    async def accept(self, account: Account, challenge_id: str, address: str
                     ) -> tuple[Challenge, str]:
        """Take the challenge for ``account`` and make its game: the challenge and the
        game's id."""
        challenge = await self.games.write(self.store.claim, challenge_id, account.id)
        self._public = None
        t = challenge.terms
        try:
            game_id = await self._make_game(
                challenge.poster_id, challenge.poster_name, account.id, account.name,
                address, variant=t.variant, colour=t.colour, rated=t.rated,
                public=t.public, clock_minutes=t.clock_minutes,
                days_per_move=t.days_per_move)
        except BaseException:
            await self.games.write(self.store.reopen, challenge_id)
            raise
        await self.games.write(self.store.attach_game, challenge_id, game_id)
        return challenge, game_id

    async def _make_game(self, first: str, first_name: str, second: str, second_name: str,
                         address: str, *, variant: str, colour: str, rated: bool,
                         public: bool, clock_minutes: float | None,
                         days_per_move: int | None) -> str:
        """A game between two accounts in two browsers: ``first`` holds participant 0
        (playing ``colour``), ``second``'s seat is kept for its account."""
        fields: dict[str, Any] = {
            "opponent": "person", "same_screen": False, "public": public,
            "colour": colour, "variant": variant, "names": [first_name, second_name]}
        if days_per_move is not None:
            fields["days_per_move"] = days_per_move
        else:
            fields["clock_minutes"] = clock_minutes
        if rated:
            fields["rated"] = True
        req = NewGame.model_validate(fields)
        created = await self.games.create(req, client=None, address=address, account=first,
                                          opponent_account=second)
        return created.live.id

    # ---- waiting -------------------------------------------------------------------------
    async def wait(self, account: Account, address: str) -> dict[str, Any]:
        """Put the account on the waiting list (or keep it there) and try to pair it; the
        call that pairs makes the game. What the waiting page shows."""
        mu = (await asyncio.to_thread(self.rating, account)).mu
        waiting = await self.games.write(self.store.wait, account.id, mu)
        if waiting.game_id is not None:
            return self._waiting_json(waiting)  # paired already: its game
        entry, paired_now = await self.games.write(self.store.pair, account.id)
        if entry is not None and paired_now and entry.partner_id is not None:
            entry = await self._make_pair_game(account, entry, address)
        return self._waiting_json(entry)

    async def _make_pair_game(self, account: Account, entry: Waiting, address: str
                              ) -> Waiting:
        partner = entry.partner_id
        assert partner is not None
        names = await asyncio.to_thread(self.store.names, [partner])
        try:
            game_id = await self._make_game(
                account.id, account.name, partner, names.get(partner, "?"), address,
                variant=RATED_VARIANT, colour="random", rated=True, public=True,
                clock_minutes=DEFAULT_MINUTES, days_per_move=None)
        except BaseException:
            log.exception("the game of a pair could not be made")
            await self.games.write(self.store.unpair, account.id, partner)
            raise
        await self.games.write(self.store.set_game, account.id, partner, game_id)
        self._public = None
        return Waiting(entry.account_id, entry.mu, entry.since, partner, game_id)

    async def leave(self, account: Account) -> bool:
        return await self.games.write(self.store.leave, account.id)

    def _waiting_json(self, entry: Waiting | None) -> dict[str, Any]:
        if entry is None:
            return {"waiting": False, "game_id": None}
        waited = max(0.0, (self.store.now() - entry.since).total_seconds())
        reach = window(waited)
        return {"waiting": entry.game_id is None, "since": entry.since.isoformat(),
                "rating": round(entry.mu), "window": None if reach == float("inf")
                else round(reach), "paired": entry.partner_id is not None,
                "game_id": entry.game_id}

    # ---- the lobby as a page shows it ----------------------------------------------------
    async def _public_part(self) -> tuple[dict[str, Any], str]:
        """The part everyone sees and its digest (both computed once per refresh)."""
        async with self._public_lock:
            cached = self._public
            if cached is not None and self.now() - cached[0] < self.public_every:
                return cached[1], cached[2]

            def read() -> dict[str, Any]:
                return {"challenges": [c.to_json() for c in self.store.open_challenges()],
                        "live": [g.to_json() for g in self.store.live_games()],
                        "waiting": self.store.waiting_count()}

            part = await asyncio.to_thread(read)
            digest = _digest(part)
            self._public = (self.now(), part, digest)
            return part, digest

    def _turn(self, held: HeldGame) -> tuple[int | None, float | None]:
        """Who is to move in a game (its participant; ``None``: nobody now) and its
        deadline, from the game in memory or replayed from the database."""
        key = (held.id, held.event_count)
        found = self._turns.get(key)
        if found is not None:
            self._turns.move_to_end(key)
            return found
        live = self.games.games.get(held.id)
        game = live.game if live is not None else None
        if game is not None and len(game.events) != held.event_count:
            game = None  # behind (or ahead of) what was read: the database's, as read
        if game is None:
            stored = self.games.repo.load(held.id)
            game = None if stored is None else stored.game
        turn: tuple[int | None, float | None] = (None, None)
        if game is not None and game.phase is Phase.PLAYING:
            turn = (game.state.seat(game.board.turn), game.state.deadline())
        self._turns[key] = turn
        while len(self._turns) > TURNS_KEPT:
            self._turns.popitem(last=False)
        return turn

    def _viewer_part(self, account: Account) -> dict[str, Any]:
        """The viewer's own part: read in one transaction (its games, its challenges
        accepted, its waiting, its rating), then whose move from the games. Nothing in
        it changes with a move unless what the page shows does: whose move it is (and a
        correspondence game's deadline, which moves with it)."""
        with self.store.db.session() as session, session.begin():
            rows = self.store.viewer(account.id, STARTED_WITHIN, session)
            rating = self.ratings.current(subject_of_account(account.id), Pool.OTHELLO,
                                          session=session)
        games = []
        for held in rows.games:
            try:
                to_move, deadline = self._turn(held)
            except Exception:  # a damaged game must not break the lobby
                log.exception("cannot read game %s for the lobby", held.id)
                continue
            mine = 0 in held.participants
            games.append({"id": held.id, "correspondence": held.correspondence,
                          "opponent": held.white if mine else held.black,
                          "your_move": to_move is not None and to_move in held.participants,
                          "deadline": deadline})
        games.sort(key=lambda g: (not g["your_move"], not g["correspondence"]))
        started = [{"challenge": c.id, "game_id": c.game_id} for c in rows.accepted]
        return {"id": account.id, "name": account.name, "rating": rating.display,
                "provisional": rating.provisional, "games": games, "started": started,
                "waiting": self._waiting_json(rows.waiting)}

    async def state(self, viewer: Account | None, if_none_match: str | None = None
                    ) -> LobbyState:
        """The lobby for ``viewer`` (signed in, or ``None``) and its ETag: a digest of the
        public part's digest (made once per refresh) and the viewer's own part. When
        ``if_none_match`` is that ETag, the body is not built (``body`` ``None``)."""
        public, public_digest = await self._public_part()
        you = None if viewer is None else await asyncio.to_thread(self._viewer_part, viewer)
        mark = hashlib.sha256(public_digest.encode())
        mark.update(b"-" if you is None else _digest(you).encode())
        etag = f'"{mark.hexdigest()[:32]}"'
        if if_none_match == etag:
            return LobbyState(None, etag)
        challenges = [{**c, "mine": viewer is not None and c["poster"]["id"] == viewer.id}
                      for c in public["challenges"]]
        body = {"challenges": challenges, "live": public["live"],
                "waiting": public["waiting"], "you": you}
        return LobbyState(body, etag)


def _digest(part: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(part, sort_keys=True, default=str).encode()).hexdigest()


__all__ = ["LobbyService", "LobbyState"]
