"""Seats and their secrets (:class:`SeatKeeper`).

Creating a game hands out a seat token for the creator's seat(s) (one for both seats when
two people share a screen) and, for a second person in another browser, a one-time join
code exchanged for their token. Every action names the seat it acts for through its token;
nothing is inferred from whose turn it is. Only hashes of tokens and codes are stored
(:func:`secret_hash`).

A seat may be held by an account (issue 67): a signed-in person's token is stored with
their account, and :meth:`SeatKeeper.fresh_token` gives the account a new token of its
seat in any browser. A join code kept for an account (``invitee``: the lobby's second
player) is taken by that account through :meth:`~SeatKeeper.fresh_token`, never by a code
(none is handed out)."""

from __future__ import annotations

import asyncio
import secrets

from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.move import BLACK, WHITE, Color
from hasamigo.storage.repository import SeatSecret
from hasamigo.storage.secrets import secret_hash
from hasamigo.web.errors import Forbidden, Unauthorized
from hasamigo.web.services.games.live import LiveGame
from hasamigo.web.services.games.store import GameStore


def new_token() -> str:
    """A fresh seat token."""
    return secrets.token_urlsafe(24)


def new_join_code() -> str:
    """A fresh one-time join code."""
    return secrets.token_urlsafe(18)


def held_colours(game: GameController, you: frozenset[int]) -> list[Color]:
    """The colours the seats ``you`` play (none before the colours are decided)."""
    if game.state.seats is None:
        return []
    return [c for c in (BLACK, WHITE) if game.state.seat(c) in you]


def acting_colour(game: GameController, you: frozenset[int], colour: Color | None) -> Color:
    """The colour a seat token acts as: the one asked for (which it must hold), its only
    colour, or (both seats on one screen) the side to move."""
    held = held_colours(game, you)
    if not held:
        raise GameError("colours are not decided yet", "wrong_phase")
    if colour is not None:
        if colour not in held:
            raise Forbidden(f"your seat token does not play {colour}", "not_your_seat")
        return colour
    return held[0] if len(held) == 1 else game.board.turn


def seat_name(game: GameController, seats: frozenset[int], name: str | None) -> int | None:
    """The participant an account that just took ``seats`` names ``name`` (its own), or
    ``None`` to leave the names as they are. The rule: a seat taken by an account plays
    under the account's name, whatever the creator called it ("Player 2", the terminal's
    "You", a name typed on the form), as on any site where people play under their
    accounts. Not named: a taking by nobody signed in (``name`` ``None``: today's
    behaviour), both seats taken at once (two people at one screen, an imported record:
    the names are the players'), a program's seat, a seat already so named, and a name
    the other player has (the two would be alike: the seat keeps its name)."""
    if name is None or len(seats) != 1:
        return None
    (seat,) = seats
    people = game.participants
    if seat not in (0, 1) or not people[seat].is_person or people[seat].name == name \
            or people[1 - seat].name == name:
        return None
    return seat


class SeatKeeper:
    """Who holds which seat of the live games: tokens checked against the stored hashes
    (the last few remembered on the game), join codes exchanged once."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.repo = store.repo

    @staticmethod
    def grants(mine: tuple[int, ...], client: str | None, *, invite: bool,
               account: str | None = None, invitee: str | None = None
               ) -> tuple[str, str | None, list[SeatSecret]]:
        """A new game's secrets: a token for the seats ``mine`` (kept by ``client``'s
        browser, held by ``account`` if signed in) and, with ``invite``, a join code for
        the second seat: a code to hand out, or, with ``invitee``, the seat kept for that
        account (no code is returned: the account takes the seat by
        :meth:`fresh_token`). Returns the token, the join code and what is stored."""
        token = new_token()
        grants = [SeatSecret("token", secret_hash(token), mine, client, account=account)]
        join_code = None
        if invite:
            code = new_join_code()
            grants.append(SeatSecret("join", secret_hash(code), (1,), None, account=invitee))
            join_code = code if invitee is None else None
        return token, join_code, grants

    @staticmethod
    def remember(live: LiveGame, token: str, seats: frozenset[int]) -> None:
        live.seats[secret_hash(token)] = seats

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
                await self.store.still_there(live)
                raise Forbidden("this seat token does not belong to this game")
            held = frozenset(secret.participants)
            if len(live.seats) < 16:
                live.seats[digest] = held
        return held

    async def reader(self, live: LiveGame, token: str | None) -> frozenset[int]:
        """The seats of a caller who wants to see the game: a seat holder, or anyone for a
        public game."""
        you = await self.seats_of(live, token)
        if not you and not live.public:
            await self.store.still_there(live)  # made public, or deleted, by another process?
        if not you and not live.public:
            if token is None:
                raise Unauthorized("this game is private: send your seat token "
                                   "(Authorization: Bearer …)")
            raise Forbidden("this game is private")
        return you

    async def actor(self, live: LiveGame, token: str | None) -> frozenset[int]:
        """The seats of a caller who wants to act in the game."""
        if token is None:
            raise Unauthorized("acting in a game needs its seat token "
                               "(Authorization: Bearer …)")
        you = await self.seats_of(live, token)
        if not you:  # pragma: no cover - a token always holds a seat
            raise Forbidden("this seat token holds no seat")
        return you

    async def exchange(self, live: LiveGame, code: str, client: str | None,
                       account: str | None = None) -> tuple[str, frozenset[int]]:
        """A one-time join code exchanged for a new seat token (403 for a code that is not
        valid, or used already): the token and its seats; ``account``, signed in, holds
        the seat."""
        return await self._exchange(live, secret_hash(code), client, account)

    async def _exchange(self, live: LiveGame, code_hash: str, client: str | None,
                        account: str | None) -> tuple[str, frozenset[int]]:
        refused = Forbidden("this join link is not valid, or has been used already")
        found = await asyncio.to_thread(self.repo.secret, live.id, code_hash)
        if found is None or found.kind != "join" or found.used \
                or found.account not in (None, account):
            raise refused
        token = new_token()
        grant = SeatSecret("token", secret_hash(token), found.participants, client,
                           account=account)
        held = await self.store.write(self.repo.use_join_code, live.id, code_hash, grant)
        if held is None:
            raise refused
        seats = frozenset(held)
        live.seats[grant.secret_hash] = seats
        return token, seats

    async def fresh_token(self, live: LiveGame, account: str, client: str | None
                          ) -> tuple[str, frozenset[int], bool]:
        """A new seat token for the seats ``account`` holds in this game (403
        ``not_your_seat`` if none): the token, its seats, and whether the account took its
        seat just now (a seat kept for it, taken for the first time)."""
        held = await asyncio.to_thread(self.repo.account_seats, live.id, account)
        seats = frozenset(p for s in held if s.kind == "token" for p in s.participants)
        if not seats:
            kept = next((s for s in held if s.kind == "join" and not s.used), None)
            if kept is None:
                await self.store.still_there(live)  # 404 for a game deleted meanwhile
                raise Forbidden("your account holds no seat of this game", "not_your_seat")
            token, taken = await self._exchange(live, kept.secret_hash, client, account)
            return token, taken, True
        token = new_token()
        grant = SeatSecret("token", secret_hash(token), tuple(sorted(seats)), client,
                           account=account)
        await self.store.write(self.repo.add_token, live.id, grant)
        live.seats[grant.secret_hash] = seats
        return token, seats, False


__all__ = ["SeatKeeper", "acting_colour", "held_colours", "seat_name", "secret_hash"]
