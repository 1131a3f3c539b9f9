"""The accounts of the web app (:class:`AccountService`): sign-up, sign-in and sign-out
over :class:`~hasamigo.accounts.store.AccountStore`, with the limits a public server needs.

Beyond signing in: a browser's anonymous games claimed by the account (:meth:`claim`),
the public profile (:meth:`profile`, with the rating history of :mod:`hasamigo.ratings`)
and the deletion of the account (:meth:`delete`).

The session travels in an HttpOnly cookie (:data:`SESSION_COOKIE`, SameSite=Lax, Secure
over https): scripts never see it, and another site's form or script cannot send it with
a POST. Sign-ups are limited per client address, failed sign-ins per address and per
name (a name guessed from many addresses is still limited), counted in the database
(:class:`~hasamigo.accounts.attempts.AttemptLog`): every server process on it sees the
same counts, and a restart forgets none.

A name's limit would let anyone lock its owner out by failing with it on purpose, so a
sign-in (or sign-up) also gives the browser a long-lived device cookie
(:data:`DEVICE_COOKIE`, HttpOnly, bound to the account; kept at sign-out): a sign-in for
that account from a browser carrying it is counted against that browser instead of the
name, so failures made elsewhere do not hold the owner back there (the address's limit
still holds). A password is only ever passed to the store: it is not logged, not echoed
in an error, not returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from hasamigo.accounts import Account, AccountNotFound, AccountStore, LoginFailed, name_key
from hasamigo.accounts.attempts import (
    AttemptLog,
    Limit,
    Refusal,
    address_key,
    device_key,
    name_key_of,
    signup_key,
)
from hasamigo.accounts.model import DEVICE_DAYS, SESSION_MAX_DAYS
from hasamigo.accounts.profile import MultiGamesPage, Profile, multi_games_of, profile_of
from hasamigo.accounts.store import DELETED_NAME, token_hash
from hasamigo.errors import HasamigoError
from hasamigo.ratings import Pool, Rating, RatingChange, RatingStore, subject_of_account
from hasamigo.ratings.outcome import ACCOUNT_DELETED
from hasamigo.storage.multi_games import MultiGameRepository
from hasamigo.storage.seats import SeatRepository
from hasamigo.tournament.store import TournamentRepository
from hasamigo.web.errors import Forbidden, RateLimited
from hasamigo.web.services.games import GameService
from hasamigo.web.services.ratings import RatingService

log = logging.getLogger(__name__)

#: the cookie holding a signed-in browser's session token
SESSION_COOKIE = "hasamigo_session"
#: the cookie's lifetime (the session's own end is the store's to say)
COOKIE_SECONDS = SESSION_MAX_DAYS * 24 * 3600
#: the cookie of a trusted browser (see the module's text), and its lifetime
DEVICE_COOKIE = "hasamigo_device"
DEVICE_COOKIE_SECONDS = DEVICE_DAYS * 24 * 3600
MINUTE, HOUR = timedelta(minutes=1), timedelta(hours=1)
#: how long (seconds) this process trusts a session it looked up, instead of asking the
#: database on every request: a sign-out or a deletion through this process forgets it at
#: once; one through another server on the same database, or ``hasamigo accounts``, is
#: seen here at most this long after (so is a session's expiry)
SESSION_CACHE_SECONDS = 3.0
#: sessions remembered at most (the least recently looked up forgotten first)
SESSION_CACHE_SIZE = 10_000


@dataclass(frozen=True, slots=True)
class Welcome:
    """A browser signed in: the account, the new session's token, and a new device token
    for the browser (``None``: the device cookie it sent is trusted already; keep it)."""

    account: Account
    session: str
    device: str | None


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
    """The accounts of one app; the limits count by the store's clock, in its database."""

    def __init__(self, store: AccountStore, *, signups_per_hour: int = 10,
                 logins_per_minute: int = 10, logins_per_name_per_hour: int = 30,
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
        self.attempts = AttemptLog(store.db, clock=store.now)
        self.signups_per_hour = signups_per_hour
        self.logins_per_minute = logins_per_minute
        self.logins_per_name_per_hour = logins_per_name_per_hour

    def _count(self, limits: Sequence[Limit]) -> list[int]:
        """Count an attempt (:meth:`AttemptLog.begin`), or refuse it with 429."""
        counted = self.attempts.begin(limits)
        if isinstance(counted, Refusal):
            wait = int(counted.wait) + 1
            raise RateLimited(f"too many {counted.what}; try again in {wait} s", wait)
        return counted

    def _password_limits(self, address: str, name: str, trusted: str | None, what: str
                         ) -> list[Limit]:
        """The limits of a password check for the account called ``name`` (its key): per
        address, and per name, or per browser when the browser is trusted by that account
        (``trusted``: its device token's hash)."""
        own = Limit(device_key(trusted), self.logins_per_name_per_hour, HOUR,
                    f"{what} from this browser") if trusted is not None else \
            Limit(name_key_of(name), self.logins_per_name_per_hour, HOUR,
                  f"{what} for this name")
        return [Limit(address_key(address), self.logins_per_minute, MINUTE,
                      f"{what} from this address"), own]

    def _trusted(self, device: str | None, account_id: str) -> str | None:
        """The hash of ``device`` if it is a device token the account trusts."""
        if device is None or self.store.device_account(device) != account_id:
            return None
        return token_hash(device)

    async def sign_up(self, name: str, password: str, address: str) -> Welcome:
        """A new account, its first session's token and a device token (429 beyond the
        address's sign-ups)."""
        await asyncio.to_thread(self._count, [Limit(
            signup_key(address), self.signups_per_hour, HOUR,
            "new accounts from this address")])
        account = await asyncio.to_thread(self.store.create, name, password)
        token = await asyncio.to_thread(self.store.open_session, account.id)
        device = await asyncio.to_thread(self.store.open_device, account.id)
        return Welcome(account, token, device)

    async def log_in(self, name: str, password: str, address: str,
                     device: str | None = None) -> Welcome:
        """The account, a new session's token and (unless ``device``, the browser's
        device cookie, is one the account trusts already) a new device token, for the
        right password (401 for a wrong name or password, which one not said; 429 beyond
        the limits: a failure counts against the address, and the name, or the browser
        when ``device`` is trusted by the account of that name)."""
        key = name_key(name.strip())[:80] if isinstance(name, str) else ""

        def begin() -> tuple[list[int], str | None]:
            holder = self.store.device_account(device)
            named = self.store.by_name(name) if holder is not None else None
            trusted = token_hash(device) if device is not None and named is not None \
                and named.id == holder else None
            return self._count(self._password_limits(address, key, trusted,
                                                      "sign-in attempts")), trusted

        counted, trusted = await asyncio.to_thread(begin)
        account = await asyncio.to_thread(self.store.authenticate, name, password)
        if account is None:
            raise LoginFailed("wrong name or password")
        await asyncio.to_thread(self.attempts.forget, counted)
        token = await asyncio.to_thread(self.store.open_session, account.id)
        if trusted is not None and device is not None:
            await asyncio.to_thread(self.store.touch_device, device)
            return Welcome(account, token, None)
        new_device = await asyncio.to_thread(self.store.open_device, account.id)
        return Welcome(account, token, new_device)

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
                     games: GameService, ratings: RatingService | None = None,
                     device: str | None = None) -> list[str]:
        """Delete the signed-in account, its password asked again (403 if wrong; limited
        as sign-in is, ``device`` the browser's device cookie): its games still going are
        resigned for it, its ratings, sessions, name and hash deleted, and the games it
        played keep their moves with its name anonymised (:func:`forget_account`); a game
        so resigned is not rated (``ratings``:
        :data:`~hasamigo.ratings.outcome.ACCOUNT_DELETED`). Returns the games anonymised."""

        def begin() -> list[int]:
            trusted = self._trusted(device, account.id)
            return self._count(self._password_limits(
                address, name_key(account.name)[:80], trusted, "password attempts"))

        counted = await asyncio.to_thread(begin)
        if not await asyncio.to_thread(self.store.check, account.id, password):
            raise Forbidden("wrong password: the account was not deleted")
        await asyncio.to_thread(self.attempts.forget, counted)
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


__all__ = ["COOKIE_SECONDS", "DEVICE_COOKIE", "DEVICE_COOKIE_SECONDS", "SESSION_COOKIE",
           "AccountService", "PlayerPage", "Welcome", "forget_account"]
