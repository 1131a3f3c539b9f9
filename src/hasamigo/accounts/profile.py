"""A player's profile (:func:`profile_of`): their finished games, their results by colour
and by opening. The games are those whose seats the account holds
(``game_seats.account_id``); a game in which it held both seats (both sides on one screen)
is no result of theirs and is left out.

Openings are named as the game page names them (:func:`hasamigo.game.openings.opening_name`,
standard 8×8 start without handicap or set-up position only).

Games of three or four (Rolit, 4-player Othello: :func:`multi_games_of`) are listed apart,
a page at a time, each with every seat's name, final discs and place (equal discs share
a place, as the ratings count them), those in which the account holds one seat
(``multi_game_seats``). Such a game has no "public" choice, so another person sees only
the rated ones, whose results the ratings publish anyway; the player sees them all.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select

from hasamigo.accounts.model import Account
from hasamigo.errors import HasamigoError
from hasamigo.game.openings import opening_name
from hasamigo.move import BLACK, WHITE
from hasamigo.multi import find_multi_game
from hasamigo.storage.db import Database
from hasamigo.storage.models import GameRow
from hasamigo.storage.multi_games import MultiGameRepository, StoredMultiGame
from hasamigo.storage.repository import GameRepository
from hasamigo.storage.rows import aware

#: the newest finished games a profile reads
PROFILE_GAMES = 300
#: multi-player games a profile shows per page
MULTI_PER_PAGE = 20
#: the furthest page asked for (a bound on the database's offset)
MULTI_MAX_PAGE = 10_000


@dataclass(frozen=True, slots=True)
class ProfileGame:
    """One finished game from the player's side: the colour played, the opponent's name,
    ``outcome`` ``win``/``draw``/``loss``, the counts (the player's first), the opening's
    names if it has one."""

    id: str
    finished_at: datetime
    variant: str
    colour: str  # "black" | "white"
    opponent: str
    outcome: str
    mine: int
    theirs: int
    opening_en: str | None
    opening_ja: str | None
    public: bool
    rated: bool


@dataclass(slots=True)
class Record:
    """Wins, draws and losses."""

    win: int = 0
    draw: int = 0
    loss: int = 0

    def add(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    @property
    def games(self) -> int:
        return self.win + self.draw + self.loss

    @property
    def score(self) -> float | None:
        """Points per game (a draw half), ``None`` without games."""
        return None if not self.games else (self.win + self.draw / 2) / self.games


@dataclass(slots=True)
class Profile:
    account: Account
    games: list[ProfileGame] = field(default_factory=list)
    by_colour: dict[str, Record] = field(default_factory=dict)
    #: (English name, Japanese name) → record, most played first
    by_opening: list[tuple[str | None, str | None, Record]] = field(default_factory=list)


def profile_of(db: Database, account: Account, held: dict[str, frozenset[int]],
               *, limit: int = PROFILE_GAMES) -> Profile:
    """The profile of ``account``, whose seats per game are ``held`` (participants, as
    :meth:`~hasamigo.storage.seats.SeatRepository.account_participants` gives them)."""
    single = {game_id: next(iter(seats)) for game_id, seats in held.items()
              if len(seats) == 1}
    with db.session() as session:
        rows = list(session.execute(
            select(GameRow.id, GameRow.updated_at, GameRow.public)
            .where(GameRow.id.in_(list(single)), GameRow.phase == "over")
            .order_by(GameRow.updated_at.desc(), GameRow.id).limit(limit)))
    repo = GameRepository(db)
    found = Profile(account, by_colour={"black": Record(), "white": Record()})
    openings: dict[tuple[str | None, str | None], Record] = {}
    for game_id, updated_at, public in rows:
        try:
            stored = repo.load(game_id)
        except HasamigoError:  # a damaged game is left out of the profile, not fatal
            continue
        if stored is None:
            continue
        game = stored.game
        state, result = game.state, game.result
        if result is None or state.seats is None:
            continue
        me = single[game_id]
        colour = BLACK if state.seat(BLACK) == me else WHITE
        other = WHITE if colour == BLACK else BLACK
        mine, theirs = (result.black, result.white) if colour == BLACK \
            else (result.white, result.black)
        outcome = "draw" if result.winner is None else \
            "win" if result.winner == colour else "loss"
        opening = None
        board = game.board
        if board.name == "standard" and board.start == "cross" and not game.options.handicap \
                and game.options.position is None:
            opening = opening_name([board.move_name(m) for m in board.move_stack])
        colour_name = colour.value
        found.games.append(ProfileGame(
            game_id, aware(updated_at), board.name, colour_name,
            game.participants[state.seat(other)].name, outcome, mine, theirs,
            None if opening is None else opening.en, None if opening is None else opening.ja,
            bool(public), bool(getattr(game.options, "rated", False))))
        found.by_colour[colour_name].add(outcome)
        if opening is not None:
            openings.setdefault((opening.en, opening.ja), Record()).add(outcome)
    order = Counter({key: record.games for key, record in openings.items()})
    found.by_opening = [(en, ja, openings[(en, ja)]) for (en, ja), _n in order.most_common()]
    return found


@dataclass(frozen=True, slots=True)
class MultiLine:
    """One seat of a finished multi-player game: the name shown, its colour's name, its
    final discs and place (1 first; equal discs share one), ``me``: the profile's own
    seat, ``left``: its person deleted their account before the end."""

    name: str
    colour: str
    discs: int
    place: int
    me: bool = False
    left: bool = False


@dataclass(frozen=True, slots=True)
class ProfileMultiGame:
    """A finished (or, on one's own profile, unfinished: no ``seats`` discs, place 0)
    multi-player game: its rules' name (``rolit``, ``othello4``), its seats in turn
    order, the player's place, and whether it was created rated."""

    id: str
    game: str
    finished_at: datetime
    seats: tuple[MultiLine, ...]
    place: int
    rated: bool
    over: bool = True


@dataclass(frozen=True, slots=True)
class MultiGamesPage:
    """A page of a player's multi-player games: page ``page`` (1 first) of ``pages``,
    ``total`` games in all."""

    games: list[ProfileMultiGame]
    page: int
    pages: int
    total: int


def _multi_line(stored: StoredMultiGame, account_id: str) -> ProfileMultiGame:
    rules = find_multi_game(stored.game)
    words = (stored.result or "").split()
    discs = {words[i]: int(words[i + 1]) for i in range(0, len(words) - 1, 2)
             if words[i + 1].isdigit()}
    counts = [discs.get(rules.colours[s.colour], 0) for s in stored.seats]
    lines = tuple(MultiLine(
        s.name, rules.colours[s.colour], n, 1 + sum(1 for m in counts if m > n),
        stored.holder(s.colour) == account_id, s.left)
        for s, n in zip(stored.seats, counts, strict=True))
    place = next((line.place for line in lines if line.me), 0)
    over = stored.result is not None
    return ProfileMultiGame(stored.id, stored.game, stored.updated_at, lines,
                            place if over else 0, stored.rated, over)


def multi_games_of(db: Database, account: Account, *, everyone: bool, page: int = 1,
                   per_page: int = MULTI_PER_PAGE, finished: bool = True
                   ) -> MultiGamesPage:
    """Page ``page`` of the account's multi-player games, newest first (see the module's
    text): ``everyone`` its own profile's (every game), else the rated ones only;
    ``finished=False``: the games still going instead."""
    page = min(max(1, page), MULTI_MAX_PAGE)
    total, stored = MultiGameRepository(db).account_games_page(
        account.id, finished=finished, rated_only=not everyone,
        offset=(page - 1) * per_page, limit=per_page)
    pages = max(1, -(-total // per_page))
    return MultiGamesPage([_multi_line(s, account.id) for s in stored], page, pages, total)


__all__ = ["MULTI_PER_PAGE", "PROFILE_GAMES", "MultiGamesPage", "MultiLine", "Profile",
           "ProfileGame", "ProfileMultiGame", "Record", "multi_games_of", "profile_of"]
