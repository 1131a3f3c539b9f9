"""The accounts of the web app (:class:`AccountService`): sign-up, sign-in and sign-out
over :class:`~hasamigo.accounts.store.AccountStore`, with the limits a public server needs.

Beyond signing in: a browser's anonymous games claimed by the account (:meth:`claim`),
the public profile (:meth:`profile`, with the rating history of :mod:`hasamigo.ratings`)
and the deletion of the account (:meth:`delete`).

The session travels in an HttpOnly cookie (:data:`SESSION_COOKIE`, SameSite=Lax, Secure
over https): scripts never see it, and another site's form or script cannot send it with
a POST. Sign-ups are limited per client address, sign-in attempts per address and per
name (a name guessed from many addresses is still limited). A password is only ever
passed to the store: it is not logged, not echoed in an error, not returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from hasamigo.accounts import Account, AccountNotFound, AccountStore, LoginFailed, name_key
from hasamigo.accounts.model import SESSION_MAX_DAYS
from hasamigo.accounts.profile import MultiGamesPage, Profile, multi_games_of, profile_of
from hasamigo.accounts.store import DELETED_NAME, token_hash
from hasamigo.errors import HasamigoError
from hasamigo.ratings import Pool, Rating, RatingChange, RatingStore, subject_of_account
from hasamigo.ratings.outcome import ACCOUNT_DELETED
from hasamigo.storage.multi_games import MultiGameRepository
from hasamigo.storage.seats import SeatRepository
from hasamigo.tournament.store import TournamentRepository
from hasamigo.web.errors import Forbidden
from hasamigo.web.limits import RateWindow
from hasamigo.web.services.games import GameService
from hasamigo.web.services.ratings import RatingService

log = logging.getLogger(__name__)

#: the cookie holding a signed-in browser's session token
SESSION_COOKIE = "hasamigo_session"
#: the cookie's lifetime (the session's own end is the store's to say)
COOKIE_SECONDS = SESSION_MAX_DAYS * 24 * 3600
#: how long (seconds) this process trusts a session it looked up, instead of asking the
#: database on every request: a sign-out or a deletion through this process forgets it at
#: once; one through another server on the same database, or ``hasamigo accounts``, is
#: seen here at most this long after (so is a session's expiry)
SESSION_CACHE_SECONDS = 3.0
#: sessions remembered at most (the least recently looked up forgotten first)
SESSION_CACHE_SIZE = 10_000


@dataclass(slots=True)
class PlayerPage:
    """What a profile shows: the profile (games, results by colour and by opening), the
    rating history per pool rated in (oldest first) and the rating now (``current``),
    and a page of multi-player games (``multi``; on one's own profile also those still
    going, ``multi_going``)."""

    profile: Profile
    ratings: dict[Pool, list[RatingChange]] = field(default_factory=dict)
    own: bool = False
    current: dict[Pool, Rating] = field(default_factory=dict)
    multi: MultiGamesPage | None = None
    multi_going: MultiGamesPage | None = None


def forget_account(store: AccountStore, account_id: str) -> list[str]:
    """Delete an account everywhere (the web's deletion and ``hasamigo accounts
    delete``): its ratings and rating changes (:meth:`RatingStore.forget`), its tournament
    entrants renamed ``(deleted) #N`` without personal details
    (:meth:`TournamentRepository.forget_account`), its seats of multi-player games named
    ``(deleted)`` and held by no account (:meth:`MultiGameRepository.forget_account`),
    then the account itself (:meth:`AccountStore.delete`: sessions, name, hash, games
    anonymised). Returns the two-player games anonymised."""
    if store.by_id(account_id) is None:
        raise AccountNotFound("no such account")
    RatingStore(store.db).forget(subject_of_account(account_id))
    TournamentRepository(store.db).forget_account(account_id, DELETED_NAME)
    MultiGameRepository(store.db).forget_account(account_id, DELETED_NAME)
    return store.delete(account_id)


class AccountService:
    """The accounts of one app; the limits count per ``time_source`` minute."""

    def __init__(self, store: AccountStore, *, signups_per_hour: int = 10,
                 logins_per_minute: int = 10, logins_per_name_per_hour: int = 30,
                 time_source: Callable[[], float] = time.monotonic,
                 session_seconds: float = SESSION_CACHE_SECONDS,
                 session_clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        #: token hash -> (looked up at, the account or None): see SESSION_CACHE_SECONDS
        self._sessions: OrderedDict[str, tuple[float, Account | None]] = OrderedDict()
        self._session_seconds = session_seconds
        self._session_clock = session_clock
        self._sessions_ended = 0  # a lookup begun before a sign-out is not remembered
        self.seats = SeatRepository(store.db)
        self.ratings = RatingStore(store.db)
        self._signups = RateWindow(signups_per_hour, 3600.0, time_source=time_source)
        self._logins = RateWindow(logins_per_minute, 60.0, time_source=time_source)
        self._name_logins = RateWindow(logins_per_name_per_hour, 3600.0,
                                       time_source=time_source)

    async def sign_up(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """A new account and its first session's token (429 beyond the address's
        sign-ups)."""
        self._signups.enforce(address, "new accounts from this address")
        account = await asyncio.to_thread(self.store.create, name, password)
        token = await asyncio.to_thread(self.store.open_session, account.id)
        return account, token

    async def log_in(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """The account and a new session's token, for the right password (401 for a wrong
        name or password, which one not said; 429 beyond the limits)."""
        self._logins.enforce(address, "sign-in attempts from this address")
        self._name_logins.enforce(name_key(name.strip())[:80], "sign-in attempts for this name")
        account = await asyncio.to_thread(self.store.authenticate, name, password)
        if account is None:
            raise LoginFailed("wrong name or password")
        token = await asyncio.to_thread(self.store.open_session, account.id)
        return account, token

    async def log_out(self, token: str) -> None:
        self._forget_session(token)
        await asyncio.to_thread(self.store.close_session, token)
        self._forget_session(token)  # looked up while it was being ended

    # ---- claiming, profiles, deletion -----------------------------------------------------
    async def claimable(self, client: str) -> int:
        """How many games this browser played without an account (seats no account
        holds)."""
        return len(await asyncio.to_thread(self.seats.unclaimed_client_games, client))

    async def claim(self, account: Account, client: str) -> list[str]:
        """Give the account the seats this browser took without one; the games claimed."""
        return await asyncio.to_thread(self.seats.claim_client, client, account.id)

    async def profile(self, name: str, viewer: Account | None, *, multi_page: int = 1
                      ) -> PlayerPage | None:
        """The profile page of the account called ``name`` (``None``: no such account).
        Another person sees the public games only (of three or four: the rated ones);
        the results count every game. ``multi_page``: the page of multi-player games."""
        account = await asyncio.to_thread(self.store.by_name, name)
        if account is None:
            return None

        def read() -> PlayerPage:
            held = self.seats.account_participants(account.id)
            page = PlayerPage(profile_of(self.store.db, account, held),
                              own=viewer is not None and viewer.id == account.id)
            if not page.own:
                page.profile.games = [g for g in page.profile.games if g.public]
            subject = subject_of_account(account.id)
            for rating in self.ratings.pools_of(subject):
                page.ratings[rating.pool] = self.ratings.history(subject, rating.pool)
                page.current[rating.pool] = rating
            page.multi = multi_games_of(self.store.db, account, everyone=page.own,
                                        page=multi_page)
            if page.own:
                page.multi_going = multi_games_of(self.store.db, account, everyone=True,
                                                  finished=False, per_page=100)
            return page

        return await asyncio.to_thread(read)

    async def delete(self, account: Account, password: str, address: str,
                     games: GameService, ratings: RatingService | None = None) -> list[str]:
        """Delete the signed-in account, its password asked again (403 if wrong; limited
        as sign-in is): its games still going are resigned for it, its ratings, sessions,
        name and hash deleted, and the games it played keep their moves with its name
        anonymised (:func:`forget_account`); a game so resigned is not rated
        (``ratings``: :data:`~hasamigo.ratings.outcome.ACCOUNT_DELETED`). Returns the games
        anonymised."""
        self._logins.enforce(address, "password attempts from this address")
        self._name_logins.enforce(name_key(account.name)[:80], "password attempts")
        if not await asyncio.to_thread(self.store.check, account.id, password):
            raise Forbidden("wrong password: the account was not deleted")
        held = await asyncio.to_thread(self.seats.account_participants, account.id)
        going = await asyncio.to_thread(functools.partial(
            games.repo.summaries, ids=list(held), exclude_phase="over", limit=10_000))
        for summary in going:
            if ratings is not None:
                ratings.withhold(summary.id, ACCOUNT_DELETED)
            await _resign_for(games, summary.id, held[summary.id])
        self._forget_sessions_of(account.id)
        changed = await asyncio.to_thread(forget_account, self.store, account.id)
        self._forget_sessions_of(account.id)  # looked up while they were being ended
        for game_id in changed:  # this process forgets its copy: it reloads anonymised
            live = games.store.games.get(game_id)
            if live is not None and not live.busy:
                games.store.evict(live)
        return changed

    async def viewer(self, token: str | None) -> Account | None:
        """The account the session cookie's ``token`` is signed in to, else ``None``
        (remembered :data:`SESSION_CACHE_SECONDS`, an unknown token too)."""
        if not token:
            return None
        key = token_hash(token)
        now = self._session_clock()
        cached = self._sessions.get(key)
        if cached is not None and now - cached[0] < self._session_seconds:
            self._sessions.move_to_end(key)
            return cached[1]
        ended = self._sessions_ended
        account = await asyncio.to_thread(self.store.session_account, token)
        if ended != self._sessions_ended:
            return account  # a session ended meanwhile: perhaps this one, not remembered
        self._sessions[key] = (now, account)
        self._sessions.move_to_end(key)
        while len(self._sessions) > SESSION_CACHE_SIZE:
            self._sessions.popitem(last=False)
        return account

    def _forget_session(self, token: str) -> None:
        self._sessions_ended += 1
        self._sessions.pop(token_hash(token), None)

    def _forget_sessions_of(self, account_id: str) -> None:
        self._sessions_ended += 1
        for key in [key for key, (_at, account) in self._sessions.items()
                    if account is not None and account.id == account_id]:
            del self._sessions[key]


async def _resign_for(games: GameService, game_id: str, seats: frozenset[int]) -> None:
    """Resign a game still going for the seats of a deleted account (the opponent wins,
    as when a player leaves a site); a finished game, or one that cannot be resigned
    (its colours not decided yet), stays as it is."""
    with contextlib.suppress(HasamigoError):
        live = await games.get(game_id)
        if live.game.result is not None or len(seats) != 1:
            return
        try:
            await games.resign(live, seats, None)
        except HasamigoError as exc:
            log.info("game %s not resigned at an account's deletion: %s", game_id, exc)


__all__ = ["COOKIE_SECONDS", "SESSION_COOKIE", "AccountService", "PlayerPage",
           "forget_account"]
