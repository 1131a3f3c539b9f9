"""The stored tournament: what the command line and the web pages call.

:class:`TournamentService` loads a tournament from its facts for every request, lets
:class:`~hasamigo.tournament.state.Tournament` check the request, and stores the new fact
with its audit-log entry in one transaction. It keeps nothing in memory, so any number
of processes may serve the same tournament and a restart loses nothing; two requests
racing for the same fact get :class:`~hasamigo.storage.repository.ConcurrentWrite`.

What pages show comes back as plain frozen dataclasses (:class:`TournamentInfo`,
:class:`EntrantView`, :class:`GameView`, :class:`RoundView`, :class:`StandingRow`,
:class:`RankingRow`, :class:`Bracket`, :class:`RoundExplanation`), names resolved, ready to
render or to turn into JSON with :func:`as_json`.

The director's password is kept only as a salted hash (:func:`hash_password`, argon2id:
see :mod:`hasamigo.passwords`); :meth:`TournamentService.check_password` replaces an old
PBKDF2 hash with an argon2id one when the password matches.
"""

from __future__ import annotations

import dataclasses
import enum
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from hasamigo.game.controller import GameController
from hasamigo.passwords import hash_password as _hash
from hasamigo.passwords import verify_and_update, verify_password
from hasamigo.ratings import RatingStore
from hasamigo.ratings.model import subject_of_account
from hasamigo.storage.db import Database
from hasamigo.storage.repository import GameRepository
from hasamigo.tournament import rated
from hasamigo.tournament.cards import card_of_game
from hasamigo.tournament.model import (
    Colours,
    Decision,
    Entrant,
    Game,
    GameKind,
    PairingKind,
    Settings,
    TournamentError,
    parse_moment,
)
from hasamigo.tournament.sanctions import Sanction, SanctionKind, checked_sanction, recorded
from hasamigo.tournament.state import Tournament
from hasamigo.tournament.store import (
    SANCTION,
    AuditEntry,
    StoredTournament,
    TournamentRepository,
    TournamentSummary,
)

#: The reasons that are about a whole round, not one board (shown once by ``explain``).
ROUND_RULES = frozenset({"matching", "draw_round", "seeds_redrawn", "seeds_met",
                         "placement"})
PASSWORD_LENGTH = (4, 200)


#: the settings :meth:`TournamentService.set_registration` changes
REGISTRATION_SETTINGS = ("registration", "registration_closes", "registration_cap",
                         "seeding", "rating_seeds")


class RegistrationRefused(TournamentError):
    """An account's own entry refused (registration closed, full, entered already…): a
    conflict with the tournament's state (the web answers 409, as for every
    :class:`TournamentError`)."""


class TournamentNotFound(TournamentError, KeyError):
    """No tournament with that id (or name)."""

    code = "not_found"

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "no such tournament"


def hash_password(password: str) -> str:
    """A salted hash of ``password`` (argon2id), the length checked.

    >>> stored = hash_password("secret")
    >>> verify_password("secret", stored), verify_password("Secret", stored)
    (True, False)
    """
    low, high = PASSWORD_LENGTH
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise TournamentError(f"a director's password is {low} to {high} characters")
    return _hash(password)


# ---- what pages show ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TournamentInfo:
    id: str
    name: str
    format: str
    format_title: str
    state: str  # registration | playing | finished
    rounds_paired: int
    total_rounds: int
    round_complete: bool
    entrants: int
    c: int
    settings: dict[str, Any]
    has_password: bool
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class EntrantView:
    number: int
    name: str
    rank: str | None
    birth_year: int | None
    woman: bool
    seed: bool
    division: str | None
    program: str | None
    withdrawn_from: int | None
    born: str | None = None
    student: bool | None = None
    school_year: int | None = None
    #: the account that entered itself (the director's view; pages show ``account``)
    account_id: str | None = None
    #: the Othello rating the tournament took (``None``: unrated or not an account)
    rating: int | None = None
    #: the place before round 1 by the tournament's seeding (1 first)
    seeding: int | None = None
    #: a seed by rating (the ``rating_seeds`` highest rated), not one the director named
    rating_seed: bool = False


@dataclass(frozen=True, slots=True)
class GameView:
    """A board of a round: names resolved. With fuse-ishi colours and no result yet,
    ``black``/``white`` are the two players in pairing order (colours to be decided)."""

    round: int
    board: int
    stage: str
    kind: str  # played | bye | not_played_draw | forfeit
    black: str
    white: str | None
    black_number: int
    white_number: int | None
    black_discs: int | None
    white_discs: int | None
    winner: str | None
    finished: bool
    colours: str
    draw_win: str | None
    rated: bool
    game_id: str | None
    why: tuple[Decision, ...]
    #: why a loss by penalty (反則負け) was declared (``kind`` ``penalty``)
    reason: str | None = None
    #: who chooses the seat: Black's player (rule 4); ``None`` until fuse-ishi decides
    seat_chooser: str | None = None
    #: why a finished game is not rated (:mod:`hasamigo.tournament.rated`): the code and the
    #: reason in English (the catalog's msgid); ``None``: rated, or nothing to say
    not_rated: str | None = None
    not_rated_reason: str | None = None
    #: a correction after its round was rated (``rated.RATED_AS_ENTERED``)
    rating_note: str | None = None


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    stages: tuple[str, ...]
    complete: bool
    games: tuple[GameView, ...]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A line of the standings with the Brightwell formula's parts
    (``brightwell == discs + c * opponents_wins``)."""

    place: int
    number: int
    name: str
    wins: float
    games: int
    discs: int
    opponents_wins: float
    c: int
    brightwell: float
    formula: str
    woman: bool
    withdrawn: bool
    #: the entrant's losses by penalty (反則負け), each "round N: reason"
    penalties: tuple[str, ...] = ()
    #: the entrant's sanctions of rule 21 (注意・警告・退場), each "注意 (caution), round N:
    #: reason" (:meth:`~hasamigo.tournament.sanctions.Sanction.line`)
    sanctions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RankingRow:
    place: int
    number: int
    name: str
    wins: float
    brightwell: float
    woman: bool
    dan: str | None
    dan_english: str | None
    ouza: bool
    women_champion: bool


@dataclass(frozen=True, slots=True)
class BracketGame:
    round: int
    board: int
    stage: str
    a: str
    b: str | None
    winner: str | None
    score: str | None  # Black's count first: "34–30"
    draw_win: str | None


@dataclass(frozen=True, slots=True)
class Bracket:
    """The knockout games (semifinals, final, third place, women's final, knockout
    rounds), in round and board order."""

    games: tuple[BracketGame, ...]


@dataclass(frozen=True, slots=True)
class RoundExplanation:
    """Why a round is paired as it is: the round's notes, then each board's reasons."""

    round: int
    notes: tuple[Decision, ...]
    boards: tuple[tuple[int, str, str | None, tuple[Decision, ...]], ...]


def as_json(value: Any) -> Any:
    """A view (or a list of them) as JSON-ready data: dataclasses become objects, enums
    their values, datetimes ISO text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def game_view(t: Tournament, g: Game, rating_note: str | None = None) -> GameView:
    name = t.name
    why = None
    if g.finished and g.kind not in (GameKind.BYE, GameKind.NOT_PLAYED_DRAW):
        why = rated.exclusion(t, g)
        if why is rated.NOT_ENTRANT_ACCOUNTS and not any(
                e.account_id is not None for e in t.entrants.values()):
            why = None  # a tournament of names only: nothing is rated, nothing to say
    return GameView(g.round, g.board, g.stage.value, g.kind.value, name(g.black),
                    None if g.white is None else name(g.white), g.black, g.white,
                    g.black_discs, g.white_discs, None if g.winner is None else name(g.winner),
                    g.finished, g.colours.value,
                    None if g.draw_win is None else name(g.draw_win), g.rated, g.game_id, g.why,
                    None if g.result is None else g.result.reason,
                    None if g.seat_chooser is None else name(g.seat_chooser),
                    None if why is None else why.code, None if why is None else why.en,
                    rating_note)


def entrant_view(e: Entrant, t: Tournament | None = None, *,
                 places: dict[int, int] | None = None,
                 seeds: frozenset[int] | None = None) -> EntrantView:
    """An entrant as pages show it; with ``t`` its seeding place and whether it is a seed
    by rating (``places`` and ``seeds``: those of ``t``, computed once for a list)."""
    seeding = rating_seed = None
    if t is not None:
        if places is None:
            places = {n: i for i, n in enumerate(t.initial_order(), 1)}
        seeding = places[e.number]
        rating_seed = e.number in (t.seeds() if seeds is None else seeds) and not e.seed
    return EntrantView(e.number, e.name, e.rank, e.birth_year, e.woman, e.seed, e.division,
                       e.program, e.withdrawn_from, e.born, e.student, e.school_year,
                       e.account_id, e.rating, seeding, bool(rating_seed))


class TournamentService:
    """Tournaments stored in a database (see the module docstring)."""

    def __init__(self, repo: TournamentRepository, games: GameRepository | None = None,
                 ratings: RatingStore | None = None) -> None:
        self.repo = repo
        self.games = games or GameRepository(repo.db)
        self.ratings = ratings or RatingStore(repo.db)

    @classmethod
    def open(cls, db: Database) -> TournamentService:
        """The service over ``db`` (migrated to the newest schema first)."""
        db.open()
        return cls(TournamentRepository(db), GameRepository(db))

    # ---- tournaments ---------------------------------------------------------------------------
    def create(self, name: str, settings: Settings, *, password: str | None = None,
               who: str = "director", tournament_id: str | None = None) -> TournamentInfo:
        name = name.strip() if isinstance(name, str) else ""
        if not 0 < len(name) <= 120:
            raise TournamentError("a tournament's name is 1 to 120 characters")
        Tournament(settings)  # the settings are checked with the format
        hashed = None if password is None else hash_password(password)
        tournament_id = tournament_id or secrets.token_hex(6)
        self.repo.create(tournament_id, name, settings, password_hash=hashed, who=who)
        return self.info(tournament_id)

    def resolve(self, id_or_name: str) -> str:
        """A tournament's id from its id or its name."""
        found = self.repo.find(id_or_name)
        if found is None:
            raise TournamentNotFound(f"no tournament {id_or_name!r}")
        return found

    def load(self, tournament_id: str) -> StoredTournament:
        stored = self.repo.load(tournament_id)
        if stored is None:
            raise TournamentNotFound(f"no tournament {tournament_id!r}")
        return stored

    def tournament(self, tournament_id: str) -> Tournament:
        return self.load(tournament_id).tournament

    def list_tournaments(self) -> list[TournamentSummary]:
        return self.repo.summaries()

    def info(self, tournament_id: str) -> TournamentInfo:
        stored = self.load(tournament_id)
        t = stored.tournament
        return TournamentInfo(stored.id, stored.name, t.settings.format, t.format.title,
                              t.state, t.rounds_paired, t.total_rounds,
                              t.round_complete(t.rounds_paired), len(t.entrants), t.c,
                              t.settings.to_json(), stored.has_password, stored.created_at,
                              stored.updated_at)

    def set_password(self, tournament_id: str, password: str | None, *,
                     who: str = "director") -> None:
        """Set (``None``: remove) the director's password; only its salted hash is kept."""
        self.load(tournament_id)
        hashed = None if password is None else hash_password(password)
        self.repo.set_password_hash(tournament_id, hashed, who=who)

    def check_password(self, tournament_id: str, password: str) -> bool:
        """Is ``password`` the director's? False when none is set. A matching hash in an
        old format is replaced by an argon2id one (no audit entry: the password is the
        same), so sessions signed with the old hash end."""
        try:
            stored = self.repo.password_hash(tournament_id)
        except KeyError:
            raise TournamentNotFound(f"no tournament {tournament_id!r}") from None
        if stored is None:
            return False
        ok, upgraded = verify_and_update(password, stored)
        if ok and upgraded is not None:
            self.repo.replace_password_hash(tournament_id, stored, upgraded)
        return ok

    # ---- entrants ------------------------------------------------------------------------------
    def register(self, tournament_id: str, name: str, *, rank: str | None = None,
                 birth_year: int | None = None, woman: bool = False, seed: bool = False,
                 division: str | None = None, program: str | None = None,
                 born: str | None = None, student: bool | None = None,
                 school_year: int | None = None, override: str | None = None,
                 who: str = "director", account_id: str | None = None) -> EntrantView:
        r"""Enter a player, checked against the division's conditions
        (:mod:`~hasamigo.tournament.eligibility`): one not met refuses the entry, saying
        which, unless the director ``override``\ s it with a reason, which the audit log
        keeps with the conditions overridden. ``account_id``: the director enters an
        account (its results then rated; its rating taken for the seeding)."""
        t = self.tournament(tournament_id)
        entrant = t.register(name, rank=rank, birth_year=birth_year, woman=woman, seed=seed,
                             division=division, program=program, born=born,
                             student=student, school_year=school_year,
                             account_id=account_id,
                             rating=None if account_id is None else self._rating_of(account_id))
        refused = t.refusals(entrant)
        why = override.strip() if isinstance(override, str) else ""
        if refused and not why:
            raise TournamentError(f"{entrant.name} cannot enter: {'; '.join(refused)} (the "
                                  "director may override it, with a reason)")
        reason = f"eligibility overridden ({'; '.join(refused)}): {why}" if refused else None
        self.repo.add_entrant(tournament_id, entrant, who=who, reason=reason)
        return entrant_view(entrant)

    def withdraw(self, tournament_id: str, entrant: str | int, *, who: str = "director",
                 reason: str | None = None) -> EntrantView:
        t = self.tournament(tournament_id)
        before = t.find(entrant)
        after = t.withdraw(before.number)
        self.repo.update_entrant(tournament_id, before, after, who=who, reason=reason)
        return entrant_view(after)

    def entrants(self, tournament_id: str) -> list[EntrantView]:
        t = self.tournament(tournament_id)
        places = {n: i for i, n in enumerate(t.initial_order(), 1)}
        seeds = t.seeds()
        return [entrant_view(e, t, places=places, seeds=seeds)
                for _, e in sorted(t.entrants.items())]

    # ---- entrants by account (issue 67) ---------------------------------------------------------
    def set_registration(self, tournament_id: str, *, who: str = "director",
                         **changes: Any) -> TournamentInfo:
        """Change the self-registration and seeding settings (``registration``,
        ``registration_closes``, ``registration_cap``, ``seeding``, ``rating_seeds``:
        see :class:`~hasamigo.tournament.model.Settings`); the seeding is fixed once
        round 1 is paired (the order before it is the standings' last tie-break)."""
        unknown = set(changes) - set(REGISTRATION_SETTINGS)
        if unknown:
            raise TournamentError(f"not a registration setting: {', '.join(sorted(unknown))}")
        t = self.tournament(tournament_id)
        before = t.settings
        after = dataclasses.replace(before, **changes)
        if t.pairings and (after.seeding, after.rating_seeds) != (before.seeding,
                                                                 before.rating_seeds):
            raise TournamentError("the seeding is fixed once round 1 is paired")
        if after != before:
            self.repo.set_settings(tournament_id, before, after, who=who)
        return self.info(tournament_id)

    def entry(self, tournament_id: str, account_id: str) -> EntrantView | None:
        """The account's entry in the tournament (``None``: it has none)."""
        t = self.tournament(tournament_id)
        found = next((e for e in t.entrants.values() if e.account_id == account_id), None)
        return None if found is None else entrant_view(found, t)

    def registration_refusal(self, t: Tournament, now: datetime | None = None) -> str | None:
        """Why an account cannot enter itself now (``None``: it can)."""
        settings = t.settings
        if t.pairings:
            return "registration closed when round 1 was paired"
        if not settings.registration:
            return "this tournament does not take registrations: ask its director"
        now = now or datetime.now(UTC)
        if settings.registration_closes is not None and \
                now >= parse_moment(settings.registration_closes, "the closing time"):
            return f"registration closed at {settings.registration_closes}"
        if settings.registration_cap is not None and \
                sum(not e.withdrawn for e in t.entrants.values()) >= settings.registration_cap:
            return f"the tournament is full ({settings.registration_cap} entrants)"
        return None

    def register_account(self, tournament_id: str, account_id: str, name: str, *,
                         rank: str | None = None, now: datetime | None = None
                         ) -> EntrantView:
        """An account enters itself under its name (its Othello rating taken for the
        seeding): while registration is open, before its closing time and round 1, under
        the cap, once (an entry it withdrew is taken back). Refusals say why
        (:class:`RegistrationRefused`)."""
        t = self.tournament(tournament_id)
        own = next((e for e in t.entrants.values() if e.account_id == account_id), None)
        if own is not None and not own.withdrawn:
            raise RegistrationRefused("you are registered already")
        refused = self.registration_refusal(t, now)
        if refused is not None:
            raise RegistrationRefused(refused)
        rating = self._rating_of(account_id)
        who = f"account:{name}"
        if own is not None:  # withdrawn before round 1: back in, under the same number
            back = dataclasses.replace(own, withdrawn_from=None, name=name, rank=rank,
                                       rating=rating)
            self.repo.update_entrant(tournament_id, own, back, action="register", who=who)
            return entrant_view(back)
        try:
            entrant = t.register(name, rank=rank, account_id=account_id, rating=rating)
        except TournamentError as exc:
            raise RegistrationRefused(str(exc)) from None
        refusals = t.refusals(entrant)
        if refusals:
            raise RegistrationRefused(f"you cannot enter this division: {'; '.join(refusals)}"
                                      " (the director can enter you, with a reason)")
        self.repo.add_entrant(tournament_id, entrant, who=who)
        return entrant_view(entrant)

    def withdraw_account(self, tournament_id: str, account_id: str) -> EntrantView:
        """The account withdraws its own entry, before round 1 is paired (after it, the
        director withdraws)."""
        t = self.tournament(tournament_id)
        own = next((e for e in t.entrants.values() if e.account_id == account_id), None)
        if own is None or own.withdrawn:
            raise RegistrationRefused("you have no entry to withdraw")
        if t.pairings:
            raise RegistrationRefused("round 1 is paired: ask the director to withdraw you")
        after = t.withdraw(own.number)
        self.repo.update_entrant(tournament_id, own, after, action="self_withdraw",
                                 who=f"account:{own.name}")
        return entrant_view(after)

    def _rating_of(self, account_id: str) -> int | None:
        rating = self.ratings.current(subject_of_account(account_id), rated.POOL)
        return rating.display if rating.games else None

    def _refresh_ratings(self, tournament_id: str, t: Tournament, who: str) -> bool:
        """Take the accounts' ratings again (before round 1 is paired); True if one
        changed."""
        accounts = {e.account_id: e for e in t.entrants.values() if e.account_id}
        if not accounts:
            return False
        now = self.ratings.current_many([subject_of_account(a) for a in accounts],
                                        rated.POOL)
        changed = False
        for account_id, e in accounts.items():
            r = now[subject_of_account(account_id)]
            rating = r.display if r.games else None
            if rating != e.rating:
                self.repo.update_entrant(tournament_id, e, dataclasses.replace(e, rating=rating),
                                         action="rating", who=who)
                changed = True
        return changed

    def rate(self, tournament_id: str, round_number: int | None = None
             ) -> list[rated.BoardRating]:
        """Rate a closed round (default: every closed round, in order); each game once, so
        asking again changes nothing."""
        t = self.tournament(tournament_id)
        numbers = [round_number] if round_number is not None else sorted(t.pairings)
        out: list[rated.BoardRating] = []
        for n in numbers:
            out += rated.rate_round(self.ratings, tournament_id, t, n)
        return out

    def _after_result(self, tournament_id: str, round_number: int, board: int,
                      was_closed: bool | None) -> GameView:
        """The board's view after a result was stored (``was_closed``: ``None`` for a
        first result, else whether its round was closed before the correction): the round
        rated if this result closed the tournament; a correction of a board already rated
        (its round closed, or paired on and taken back) checked against its ratings."""
        t = self.tournament(tournament_id)
        note = None
        changes = [] if was_closed is None else self.ratings.changes_of(
            rated.game_ref(tournament_id, round_number, board), rated.POOL)
        if was_closed or changes:  # a correction of a round rated (or unpaired since)
            if not rated.reads_the_same(t, t.game(round_number, board), changes):
                note = rated.RATED_AS_ENTERED
        elif rated.closed(t, round_number):
            rated.rate_round(self.ratings, tournament_id, t, round_number)
        return game_view(t, t.game(round_number, board), note)

    # ---- rounds ----------------------------------------------------------------------------------
    def pair_next_round(self, tournament_id: str, *, who: str = "director") -> RoundView:
        """Pair the next round. Before round 1 the accounts' ratings are taken again (the
        seeding's); after it, pairing a round closes the one before, whose results are
        then rated (:mod:`hasamigo.tournament.rated`)."""
        t = self.tournament(tournament_id)
        if not t.pairings and self._refresh_ratings(tournament_id, t, who):
            t = self.tournament(tournament_id)
        pairings = t.pair_next_round()
        number = pairings[0].round
        self.repo.add_round(tournament_id, number, pairings, who=who)
        if number > 1:
            rated.rate_round(self.ratings, tournament_id, t, number - 1)
        return self._round(t, number)

    def unpair_last_round(self, tournament_id: str, *, who: str = "director",
                          reason: str | None = None) -> int:
        t = self.tournament(tournament_id)
        number = t.rounds_paired
        removed = t.unpair_last_round()
        self.repo.delete_round(tournament_id, number, removed, who=who, reason=reason)
        return number

    def round(self, tournament_id: str, number: int | None = None) -> RoundView:
        """A round's boards (default: the last paired)."""
        t = self.tournament(tournament_id)
        number = t.rounds_paired if number is None else number
        if number not in t.pairings:
            raise TournamentError(f"round {number} is not paired")
        return self._round(t, number)

    @staticmethod
    def _round(t: Tournament, number: int) -> RoundView:
        games = [game_view(t, t.game(number, p.board)) for p in t.pairings[number]]
        stages = tuple(dict.fromkeys(p.stage.value for p in t.pairings[number]))
        return RoundView(number, stages, t.round_complete(number), tuple(games))

    def explain(self, tournament_id: str, number: int | None = None) -> RoundExplanation:
        """Which rule chose each pairing of a round (default: the last paired)."""
        t = self.tournament(tournament_id)
        number = t.rounds_paired if number is None else number
        if number not in t.pairings:
            raise TournamentError(f"round {number} is not paired")
        notes: list[Decision] = []
        boards = []
        for p in t.pairings[number]:
            own = []
            for d in p.why:
                if d.rule in ROUND_RULES:
                    if d not in notes:
                        notes.append(d)
                else:
                    own.append(d)
            boards.append((p.board, t.name(p.a), None if p.b is None else t.name(p.b),
                           tuple(own)))
        return RoundExplanation(number, tuple(notes), tuple(boards))

    # ---- results -------------------------------------------------------------------------------
    def enter_result(self, tournament_id: str, round_number: int, board: int, *,
                     who: str = "director", **card: Any) -> GameView:
        """Enter a board's result card (or forfeit); see
        :meth:`Tournament.make_result` for ``card``'s fields."""
        t = self.tournament(tournament_id)
        result = t.enter_result(round_number, board, **card)
        self.repo.put_result(tournament_id, round_number, board, result, who=who)
        return self._after_result(tournament_id, round_number, board, None)

    def correct_result(self, tournament_id: str, round_number: int, board: int, *,
                       reason: str, who: str = "director", **card: Any) -> GameView:
        """Replace an entered result; the audit log keeps who, when, before, after and
        ``reason`` (required)."""
        if not isinstance(reason, str) or not reason.strip():
            raise TournamentError("a correction needs a reason (kept in the audit log)")
        t = self.tournament(tournament_id)
        was_closed = rated.closed(t, round_number)
        before, after = t.correct_result(round_number, board, **card)
        self.repo.put_result(tournament_id, round_number, board, after, before=before,
                             who=who, reason=reason.strip())
        return self._after_result(tournament_id, round_number, board, was_closed)

    def record_game(self, tournament_id: str, round_number: int, board: int,
                    game: GameController, *, who: str = "hasamigo") -> GameView:
        """A finished game played through the controller (programs): stored in the games
        library (public, so its replay can be watched), then entered as the board's
        result with a link to it."""
        t = self.tournament(tournament_id)
        card = card_of_game(t, round_number, board, game)
        t.make_result(round_number, board, **card)  # checked before the game is stored
        self.games.create(game, public=True, creator=None)
        return self.enter_result(tournament_id, round_number, board, who=who,
                                 game_id=game.id, **card)

    def link_game(self, tournament_id: str, round_number: int, board: int, game_id: str,
                  *, who: str = "hasamigo", reason: str | None = None) -> GameView:
        """A board's result from a game already stored (a game over the board, recorded
        with its clock and result card): the game must be finished and between the
        board's two entrants (by name), with the prescribed colours unless they were
        decided by fuse-ishi; the result links to it. With ``reason`` it replaces the
        board's entered result (a correction, kept in the audit log)."""
        stored = self.games.load(game_id)
        if stored is None:
            raise TournamentNotFound(f"no stored game {game_id!r}")
        t = self.tournament(tournament_id)
        card = card_of_game(t, round_number, board, stored.game)
        if reason is not None:
            return self.correct_result(tournament_id, round_number, board, reason=reason,
                                       who=who, game_id=stored.game.id, **card)
        return self.enter_result(tournament_id, round_number, board, who=who,
                                 game_id=stored.game.id, **card)

    def penalty_loss(self, tournament_id: str, round_number: int, board: int,
                     loser: str | int, *, reason: str, who: str = "director") -> GameView:
        """Declare ``loser`` lost by penalty (反則負け, JOF rule 21) on a board, for
        ``reason``: its result (entered, or replacing the one entered) is 64–0 to the
        other; the result, the standings and the audit log (action ``penalty``) say so."""
        t = self.tournament(tournament_id)
        p = t.pairing(round_number, board)
        card: dict[str, Any] = {"penalty_loser": loser, "reason": reason}
        before = t.results.get((round_number, board))
        was_closed = rated.closed(t, round_number)
        if p.colours is Colours.FUSE_ISHI:
            if before is None:
                raise TournamentError("colours were decided by fuse-ishi: enter the game's "
                                      "card first, then the penalty")
            card["black"] = before.black
        if not p.draws_allowed:
            card["draw_win"] = None if before is None else before.draw_win
        if before is None:
            result = t.enter_result(round_number, board, **card)
            self.repo.put_result(tournament_id, round_number, board, result, who=who)
        else:
            old, result = t.correct_result(round_number, board, **card)
            self.repo.put_result(tournament_id, round_number, board, result, before=old,
                                 who=who, reason=result.reason)
        return self._after_result(tournament_id, round_number, board, was_closed)

    def sanction(self, tournament_id: str, kind: str, *, reason: str,
                 entrant: str | int | None = None, person: str | None = None,
                 round_number: int | None = None, board: int | None = None,
                 who: str = "director") -> Sanction:
        """Give a sanction of rule 21 (注意 caution, 警告 warning, 退場 removal: see
        :mod:`hasamigo.tournament.sanctions`) to an entrant (by number or name) or another
        ``person``, for ``reason``, at a round (and board) if given. Removing an entrant
        also withdraws them from the next round (the project's reading)."""
        measure, fact, named = checked_sanction(
            self.tournament(tournament_id), kind, reason=reason, entrant=entrant,
            person=person, round_number=round_number, board=board)
        entry = self.repo.add_sanction(tournament_id, fact, reason=fact["reason"],
                                       round_number=round_number, board=board, who=who)
        if measure is SanctionKind.REMOVAL and named is not None and not named.withdrawn:
            self.withdraw(tournament_id, named.number, who=who,
                          reason=f"{measure.label} (rule 21): {fact['reason']}")
        return recorded(entry.id, entry.at, entry.who, entry.after, entry.reason,
                        entry.round, entry.board)

    def sanctions(self, tournament_id: str) -> list[Sanction]:
        """Every sanction of rule 21 given in the tournament, oldest first."""
        self.load(tournament_id)
        return [recorded(e.id, e.at, e.who, e.after, e.reason, e.round, e.board)
                for e in self.repo.audit(tournament_id, SANCTION)]

    # ---- what pages show -------------------------------------------------------------------------
    def standings(self, tournament_id: str, after: int | None = None) -> list[StandingRow]:
        """Standings after a round (default: the last paired) with Brightwell's parts."""
        t = self.tournament(tournament_id)
        penalties: dict[int, tuple[str, ...]] = {}
        given: dict[int, tuple[str, ...]] = {}
        for m in self.sanctions(tournament_id):
            if m.entrant is not None and (after is None or m.round is None or m.round <= after):
                given[m.entrant] = (*given.get(m.entrant, ()), m.line())
        for g in t.games(through=after):
            if g.result is not None and g.result.result.penalty and g.loser is not None:
                penalties[g.loser] = (*penalties.get(g.loser, ()),
                                      f"round {g.round}: {g.result.reason}")
        out = []
        for s in t.standings(after):
            bw = s.brightwell
            out.append(StandingRow(s.place, s.number, s.name, s.wins, s.games, bw.discs,
                                   bw.opponents_wins, bw.c, bw.total, bw.formula, s.woman,
                                   s.withdrawn, penalties.get(s.number, ()),
                                   given.get(s.number, ())))
        return out

    def ranking(self, tournament_id: str) -> list[RankingRow]:
        """The final ranking (provisional until the end) with dan awards and the 王座戦
        line (awarded once the tournament is finished)."""
        t = self.tournament(tournament_id)
        return [RankingRow(p.place, p.number, p.name, p.wins, p.brightwell, p.woman,
                           p.award.dan, p.award.dan_english, p.award.ouza, p.women_champion)
                for p in t.ranking()]

    def bracket(self, tournament_id: str) -> Bracket:
        t = self.tournament(tournament_id)
        out = []
        for g in t.games():
            if g.stage.counts:
                continue
            score = None if g.black_discs is None or g.white_discs is None \
                else f"{g.black_discs}–{g.white_discs}"
            out.append(BracketGame(g.round, g.board, g.stage.value, t.name(g.black),
                                   None if g.white is None else t.name(g.white),
                                   None if g.winner is None else t.name(g.winner),
                                   score, None if g.draw_win is None else t.name(g.draw_win)))
        return Bracket(tuple(out))

    def games_played(self, tournament_id: str) -> list[GameView]:
        t = self.tournament(tournament_id)
        return [game_view(t, g) for g in t.games()]

    def audit(self, tournament_id: str) -> list[AuditEntry]:
        self.load(tournament_id)
        return self.repo.audit(tournament_id)

    def results_to_enter(self, tournament_id: str) -> list[GameView]:
        """The boards of the last round still waiting for a result."""
        t = self.tournament(tournament_id)
        number = t.rounds_paired
        return [game_view(t, t.game(number, p.board)) for p in t.pairings.get(number, [])
                if p.kind is PairingKind.GAME and (number, p.board) not in t.results]


__all__ = [
    "Bracket",
    "BracketGame",
    "EntrantView",
    "GameView",
    "RankingRow",
    "RegistrationRefused",
    "RoundExplanation",
    "RoundView",
    "StandingRow",
    "TournamentInfo",
    "TournamentNotFound",
    "TournamentService",
    "as_json",
    "game_view",
    "hash_password",
    "verify_password",
]
