"""The ratings of the web app (:class:`RatingService`): a finished rated game is rated the
moment its result is committed, before anyone is told of it, and the ratings are read for
the API and the pages.

**When a game is rated.** :class:`~hasamigo.web.services.games.GameService` calls
:meth:`RatingService.game_over` after it committed a finished game's last event and before
it tells the watchers (and again whenever it sees a finished game, a change another
server made included: :meth:`RatingStore.record` rates a game once, so the calls that come
second write nothing). A game is rated in the ``othello`` pool, under ``game:<id>``, when
its options say ``rated``, its result is not one the JOF rules exclude, both sides moved,
and each side's seat is held by a different account (``game_seats.account_id``). Otherwise
:meth:`RatingService.verdict` says why not, in the reader's language.

**Games of three or four** (:mod:`hasamigo.web.services.multi`) are rated the same way,
once, under ``multi:<id>``: Rolit (two to four seats) in the ``rolit`` pool, 4-player
Othello with its four seats in the ``multi4`` pool, by places from the final discs (equal
discs share a place, :func:`~hasamigo.ratings.ranked`), when the game was created rated
and every seat is held by a different account (``multi_game_seats``). The multi-player
service calls :meth:`RatingService.multi_over` before it answers with a finished game,
so nobody sees the end of a rated game before its ratings are stored.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hasamigo.game.state import Phase
from hasamigo.move import BLACK, WHITE, Color
from hasamigo.ratings import Pool, Rating, RatingChange, RatingStore, of_result, ranked
from hasamigo.ratings import outcome as oc
from hasamigo.ratings.calibration import ADAPTIVE, program_ratings
from hasamigo.ratings.model import subject_of_account
from hasamigo.text import Lang

if TYPE_CHECKING:
    from hasamigo.game.controller import GameController
    from hasamigo.storage.multi_games import StoredMultiGame
    from hasamigo.storage.seats import SeatRepository
    from hasamigo.web.services.games.live import LiveGame

log = logging.getLogger(__name__)
#: the finished games this process has seen rated (or not), so the check runs once each
REMEMBERED = 4096


def game_ref(game_id: str) -> str:
    """A web game's reference among the rated games."""
    return f"game:{game_id}"


def multi_ref(game_id: str) -> str:
    """A multi-player game's reference among the rated games."""
    return f"multi:{game_id}"


def multi_pool(game: str, seats: int) -> Pool | None:
    """The pool a multi-player game is rated in: Rolit for two to four (the box's own
    game), 4-player Othello only with its four seats (with fewer it is our variant, not
    the game); ``None``: never rated."""
    if game == "rolit" and 2 <= seats <= 4:
        return Pool.ROLIT
    if game == "othello4" and seats == 4:
        return Pool.MULTI4
    return None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a game was rated: its changes (empty if not), or why not."""

    changes: tuple[RatingChange, ...] = ()
    exclusion: oc.Exclusion | None = None


class RatingService:
    """The ratings over ``store``; ``seats``: the games' seat rows (who holds a seat)."""

    def __init__(self, store: RatingStore, seats: SeatRepository) -> None:
        self.store = store
        self.seats = seats
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._lock = asyncio.Lock()
        #: games this process ends for a reason that keeps them unrated (a deleted
        #: account's resignation): game id -> why
        self._withheld: OrderedDict[str, oc.Exclusion] = OrderedDict()

    def withhold(self, game_id: str, why: oc.Exclusion) -> None:
        """Keep the game ``game_id`` unrated for ``why`` when it ends in this process (the
        account deletion resigns the games still going: nobody won them). Another server
        finds the deleted player's seat held by no account (:data:`oc.NOT_ACCOUNTS`)."""
        self._withheld[game_id] = why
        while len(self._withheld) > REMEMBERED:
            self._withheld.popitem(last=False)

    # ---- rating a finished game --------------------------------------------------------------
    def exclusion(self, game_id: str, game: GameController) -> oc.Exclusion | None:
        """Why a finished game is not rated (``None``: it is), the rules first."""
        if not game.options.rated:
            return oc.NOT_A_RATED_GAME
        if game_id in self._withheld:
            return self._withheld[game_id]
        result = game.result
        if result is None:
            raise ValueError("the game is not over")
        excluded = oc.result_exclusion(result)
        if excluded is not None:
            return excluded
        movers = {m.colour for m in game.history if not m.move.is_pass}
        if movers != {BLACK, WHITE}:
            return oc.TOO_SHORT
        holders = self.holders(game_id, game)
        if holders is None:
            return oc.NOT_ACCOUNTS
        if holders[BLACK] == holders[WHITE]:
            return oc.SAME_PLAYER
        return None

    def holders(self, game_id: str, game: GameController) -> dict[Color, str] | None:
        """The account holding each colour's seat; ``None`` if a seat has none (or more
        than one, which no seat rule allows)."""
        held: dict[int, set[str]] = {0: set(), 1: set()}
        for participants, account in self.seats.seat_accounts(game_id):
            for p in participants:
                held[p].add(account)
        out: dict[Color, str] = {}
        for colour in (BLACK, WHITE):
            accounts = held[game.state.seat(colour)]
            if len(accounts) != 1 or game.seat(colour).program is not None:
                return None
            out[colour] = next(iter(accounts))
        return out

    def rate_now(self, game_id: str, game: GameController) -> Verdict:
        """Rate a finished game if it is to be (once: a second call reads what the first
        wrote)."""
        ref = game_ref(game_id)
        done = self.store.changes_of(ref, Pool.OTHELLO)
        if done:
            return Verdict(tuple(done))
        why = self.exclusion(game_id, game)
        if why is not None:
            return Verdict(exclusion=why)
        holders = self.holders(game_id, game)
        result = game.result
        assert holders is not None and result is not None
        outcome = of_result(Pool.OTHELLO, subject_of_account(holders[BLACK]),
                            subject_of_account(holders[WHITE]), result)
        return Verdict(tuple(self.store.record(ref, outcome)))

    async def game_over(self, live: LiveGame) -> None:
        """Called by the games' service for a finished game (see the module's text): rate
        it on the games' writer thread, once per process; a failure is logged, never
        raised into the game's action (its result stands; the next look rates it)."""
        if live.game.phase is not Phase.OVER or not live.game.options.rated \
                or live.id in self._seen:
            return
        async with self._lock:
            if live.id in self._seen:
                return
            try:
                await asyncio.to_thread(self.rate_now, live.id, live.game)
            except Exception:
                log.exception("rating game %s failed", live.id)
                return
            self._seen[live.id] = None
            while len(self._seen) > REMEMBERED:
                self._seen.popitem(last=False)

    def verdict(self, game_id: str, game: GameController) -> Verdict | None:
        """A finished game's ratings as stored, or why it is not rated; ``None`` before
        it is over."""
        if game.phase is not Phase.OVER:
            return None
        done = self.store.changes_of(game_ref(game_id), Pool.OTHELLO)
        if done:
            return Verdict(tuple(done))
        return Verdict(exclusion=self.exclusion(game_id, game))

    # ---- rating a finished game of three or four ------------------------------------------
    @staticmethod
    def multi_exclusion(stored: StoredMultiGame) -> oc.Exclusion | None:
        """Why a multi-player game is not rated (``None``: it is, once over)."""
        if not stored.rated:
            return oc.NOT_A_RATED_GAME
        if any(s.left for s in stored.seats):  # played on for the others, nobody won it
            return oc.ACCOUNT_DELETED
        holders = [stored.holder(s.colour) for s in stored.seats]
        if any(s.program is not None for s in stored.seats) or None in holders:
            return oc.NOT_ACCOUNTS
        if len(set(holders)) != len(holders):
            return oc.SAME_PLAYER
        if multi_pool(stored.game, len(stored.seats)) is None:
            return oc.NOT_STANDARD
        return None

    def rate_multi_now(self, stored: StoredMultiGame, scores: dict[int, int]) -> Verdict:
        """Rate a finished multi-player game (``scores``: each seat's colour's final
        discs) if it is to be, once: a second call reads what the first wrote."""
        if stored.result is None:
            raise ValueError("the game is not over")
        pool = multi_pool(stored.game, len(stored.seats))
        ref = multi_ref(stored.id)
        done = self.store.changes_of(ref, pool) if pool is not None else []
        if done:
            return Verdict(tuple(_in_seat_order(done, stored)))
        why = self.multi_exclusion(stored)
        if why is not None or pool is None:
            return Verdict(exclusion=why)
        subjects = [subject_of_account(str(stored.holder(s.colour))) for s in stored.seats]
        outcome = ranked(pool, subjects, [scores[s.colour] for s in stored.seats])
        return Verdict(tuple(_in_seat_order(self.store.record(ref, outcome), stored)))

    async def multi_over(self, stored: StoredMultiGame, scores: dict[int, int]
                         ) -> Verdict | None:
        """A finished multi-player game's verdict, rating it first if it is to be (on a
        thread; once per process, the store's once for all); ``None`` before its end. A
        failure to rate is logged and answers ``None``: the game's result stands, the next
        look rates it."""
        if stored.result is None:
            return None
        try:
            return await asyncio.to_thread(self.rate_multi_now, stored, scores)
        except Exception:
            log.exception("rating multi-player game %s failed", stored.id)
            return None

    # ---- reading --------------------------------------------------------------------------
    def current(self, subject: str, pool: Pool) -> Rating:
        return self.store.current(subject, pool)

    def history(self, subject: str, pool: Pool, limit: int = 500) -> list[RatingChange]:
        return self.store.history(subject, pool, limit=limit)

    def pools_of(self, subject: str) -> list[Rating]:
        return self.store.pools_of(subject)


def _in_seat_order(changes: list[RatingChange], stored: StoredMultiGame
                   ) -> list[RatingChange]:
    """A multi-player game's changes in its seats' turn order."""
    order = {subject_of_account(a): i for i, a in enumerate(
        stored.holder(s.colour) or "" for s in stored.seats) if a}
    return sorted(changes, key=lambda c: order.get(c.subject, len(order)))


def program_rating(spec: str) -> int | None:
    """A program's measured rating (docs/ratings.md), ``None`` if not measured or if it
    adapts to its opponent."""
    return None if spec in ADAPTIVE else program_ratings().get(spec)


def verdict_json(verdict: Verdict, lang: Lang) -> dict[str, Any]:
    return {"rated": bool(verdict.changes),
            "changes": [c.as_json() for c in verdict.changes],
            "excluded": None if verdict.exclusion is None else verdict.exclusion.as_json(lang)}


__all__ = ["RatingService", "Verdict", "game_ref", "multi_pool", "multi_ref", "program_rating",
           "verdict_json"]
