"""The tournaments of the web app: the director's sessions and bounds over the core's
:class:`~hasamigo.tournament.service.TournamentService`.

The core keeps nothing in memory (every request loads the tournament from its stored
facts), so neither does this layer, apart from rate windows:

* **Director's sessions** are signed, not stored. Logging in with the director's password
  gives a bearer token (:mod:`hasamigo.web.sessions`: itsdangerous, keyed by the
  tournament's stored password *hash*) that says the tournament and the director's name
  (for the audit log), and ends :data:`SESSION_SECONDS` after it was signed; the browser
  keeps only the token (``sessionStorage``).
* **Limits**: login attempts per client address and tournament (each one costs an
  argon2 check), new tournaments per client address.
* **Refusals** keep the one error shape: the core's :class:`TournamentError` (code
  ``tournament``), an unknown tournament 404, a missing or spoilt session 401, a wrong
  password or another tournament's session 403, an unknown entrant in a result card 422.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hasamigo.storage.db import Database
from hasamigo.storage.repository import GameRepository
from hasamigo.tournament.model import Settings
from hasamigo.tournament.service import (
    EntrantView,
    GameView,
    RoundView,
    TournamentInfo,
    TournamentNotFound,
    TournamentService,
)
from hasamigo.tournament.store import TournamentRepository
from hasamigo.web.errors import Forbidden, Unauthorized, WebError
from hasamigo.web.limits import RateWindow
from hasamigo.web.schemas_tournament import (
    Correction,
    LinkedGame,
    NewEntrant,
    NewTournament,
    PenaltyLoss,
    ResultCard,
)
from hasamigo.web.services.compute import ComputePool
from hasamigo.web.sessions import (
    SESSION_SECONDS,
    DirectorSession,
    SessionEnded,
    SessionKind,
)

if TYPE_CHECKING:
    from hasamigo.tournament.model import Pairing
    from hasamigo.tournament.state import Tournament

#: longest director's token accepted in the Authorization header
TOKEN_LENGTH = 1024
#: the director's sessions (the study's researchers have their own salt)
DIRECTOR = "tournament director"


#: entrants from which a round is paired in a worker process (``compute``): a Swiss round
#: of 200 is over a second of pure Python (networkx's matching), 64 a few hundredths
PAIR_IN_PROCESS = 64


class TournamentSite:
    """The tournaments of one app: the core's service, sessions and limits; ``compute``
    (the app's :class:`~hasamigo.web.services.compute.ComputePool`) pairs large fields
    (:func:`plan_next_round`)."""

    def __init__(self, db: Database, *, wall_clock: Callable[[], float] = time.time,
                 time_source: Callable[[], float] = time.monotonic,
                 logins_per_minute: int = 10, creates_per_minute: int = 10,
                 session_seconds: float = SESSION_SECONDS,
                 compute: ComputePool | None = None) -> None:
        self.service = TournamentService(TournamentRepository(db), GameRepository(db))
        self.compute = compute
        self.now = wall_clock
        self.sessions = SessionKind(DIRECTOR, session_seconds)
        self._logins = RateWindow(logins_per_minute, 60.0, time_source=time_source)
        self._creates = RateWindow(creates_per_minute, 60.0, time_source=time_source)

    # ---- sessions ----------------------------------------------------------------------------
    def _password_hash(self, tournament_id: str) -> str | None:
        try:
            return self.service.repo.password_hash(tournament_id)
        except KeyError:
            raise TournamentNotFound(f"no tournament {tournament_id!r}") from None

    def _issue(self, tournament_id: str, who: str, password_hash: str) -> tuple[str, float]:
        return self.sessions.sign(tournament_id, who, password_hash, now=self.now())

    def create(self, req: NewTournament, address: str) -> tuple[TournamentInfo, str, float]:
        """A new tournament and its director's first session."""
        self._creates.enforce(address, "new tournaments")
        settings = Settings(req.format, rounds=req.rounds, c=req.c, seed=req.seed,
                            prize_places=req.prize_places, third_place=req.third_place,
                            date=req.date)
        who = req.director or "director"
        info = self.service.create(req.name, settings, password=req.password, who=who)
        stored = self._password_hash(info.id)
        assert stored is not None
        token, expires = self._issue(info.id, who, stored)
        return info, token, expires

    def login(self, tournament_id: str, password: str, who: str | None, address: str
              ) -> tuple[str, float]:
        """A director's session for the right password (403 for a wrong one)."""
        stored = self._password_hash(tournament_id)
        self._logins.enforce(f"{address} {tournament_id}", "login attempts")
        if stored is None:
            raise Forbidden("this tournament has no director's password (set one with "
                            "'hasamigo tournament' on the server)")
        if not self.service.check_password(tournament_id, password):
            raise Forbidden("wrong password")
        # the check may have replaced an old hash (argon2id): sign with the stored one
        stored = self._password_hash(tournament_id)
        assert stored is not None
        return self._issue(tournament_id, who or "director", stored)

    def director(self, tournament_id: str, token: str | None) -> DirectorSession:
        """The session ``token`` holds for this tournament, else 401 (none, spoilt,
        ended) or 403 (another tournament's)."""
        stored = self._password_hash(tournament_id)
        if token is None:
            raise Unauthorized("the director's area needs the director's session: log in "
                               "with the tournament's password")
        claimed = SessionKind.claimed(token)
        if claimed is not None and claimed != tournament_id:
            raise Forbidden("this director's session is for another tournament")
        try:
            session = None if stored is None else self.sessions.read(token, stored,
                                                                     now=self.now())
        except SessionEnded:
            raise Unauthorized("your director's session has ended: log in again") from None
        if session is None or session.tournament_id != tournament_id:
            raise Unauthorized("this director's session is not valid (the password may "
                               "have changed): log in again")
        return session

    # ---- the director's requests ---------------------------------------------------------------
    def register(self, session: DirectorSession, req: NewEntrant) -> EntrantView:
        name = req.name or req.program
        if name is None:
            raise WebError("an entrant needs a name (or a program spec)", "invalid_request")
        return self.service.register(session.tournament_id, name, rank=req.rank or None,
                                     birth_year=req.birth_year, woman=req.woman,
                                     seed=req.seed, division=req.division or None,
                                     program=req.program, born=req.born,
                                     student=req.student, school_year=req.school_year,
                                     override=req.override, who=session.who)

    def _entrant(self, tournament_id: str, number: int) -> None:
        if number not in self.service.tournament(tournament_id).entrants:
            raise WebError(f"no entrant number {number}", "not_found")

    def withdraw(self, session: DirectorSession, number: int, reason: str | None
                 ) -> EntrantView:
        self._entrant(session.tournament_id, number)
        return self.service.withdraw(session.tournament_id, number, who=session.who,
                                     reason=reason)

    def pair(self, session: DirectorSession) -> RoundView:
        """Pair the next round (as :meth:`TournamentService.pair_next_round`); a large
        field in a worker process (:data:`PAIR_IN_PROCESS`). Called on a thread."""
        tournament_id = session.tournament_id
        t = self.service.tournament(tournament_id)
        if self.compute is not None and len(t.entrants) >= PAIR_IN_PROCESS:
            pairings = self.compute.call(plan_next_round, t)
        else:
            pairings = t.pair_next_round()
        number = pairings[0].round
        self.service.repo.add_round(tournament_id, number, pairings, who=session.who)
        return self.service.round(tournament_id, number)

    def unpair(self, session: DirectorSession, number: int, reason: str | None) -> int:
        info = self.service.info(session.tournament_id)
        if number != info.rounds_paired:
            raise WebError(f"only the last paired round ({info.rounds_paired}) can be "
                           "unpaired", "tournament")
        return self.service.unpair_last_round(session.tournament_id, who=session.who,
                                              reason=reason)

    def _card(self, tournament_id: str, req: ResultCard) -> dict[str, Any]:
        entrants = self.service.tournament(tournament_id).entrants
        for number in req.entrants():
            if number not in entrants:
                raise WebError(f"no entrant number {number}", "invalid_request")
        return req.card()

    def enter(self, session: DirectorSession, round_number: int, board: int,
              req: ResultCard) -> GameView:
        card = self._card(session.tournament_id, req)
        return self.service.enter_result(session.tournament_id, round_number, board,
                                         who=session.who, **card)

    def correct(self, session: DirectorSession, round_number: int, board: int,
                req: Correction) -> GameView:
        card = self._card(session.tournament_id, req)
        return self.service.correct_result(session.tournament_id, round_number, board,
                                           reason=req.reason, who=session.who, **card)

    def penalty(self, session: DirectorSession, round_number: int, board: int,
                req: PenaltyLoss) -> GameView:
        self._entrant(session.tournament_id, req.loser)
        return self.service.penalty_loss(session.tournament_id, round_number, board,
                                         req.loser, reason=req.reason, who=session.who)

    def link(self, session: DirectorSession, round_number: int, board: int,
             req: LinkedGame) -> GameView:
        game_id = req.game_id()
        if game_id is None:
            raise WebError("give a game's id or its link (…/record/ID or …/games/ID)",
                           "invalid_request")
        return self.service.link_game(session.tournament_id, round_number, board, game_id,
                                      who=session.who, reason=req.reason)


def plan_next_round(tournament: Tournament) -> list[Pairing]:
    """The tournament's next round, paired by its format's rules (on this copy of it:
    the caller stores the pairings): the work :meth:`TournamentSite.pair` gives the
    compute pool's worker processes."""
    return tournament.pair_next_round()


__all__ = [
    "SESSION_SECONDS",
    "TOKEN_LENGTH",
    "DirectorSession",
    "TournamentSite",
    "plan_next_round",
]
