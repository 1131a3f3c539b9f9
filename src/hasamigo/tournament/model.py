"""The facts a tournament is made of: entrants, pairings, results, and the games they give.

Everything here is a plain frozen value. A tournament's state is rebuilt from these facts
alone (:class:`hasamigo.tournament.state.Tournament`), so storing them is storing the
tournament, and a restart in the middle of a round loses nothing.

Entrants are numbered from 1 in the order they registered; that number identifies them
in pairings and results. Colours in a pairing are *prescribed* (the Swiss rounds and the
placement round: ``a`` plays Black, JOF rule 1) or decided at the board by *fuse-ishi*
(the knockout games, rule 2), in which case the result says who played Black and who
held the draw-win right.

>>> Entrant(1, "Urano", rank="9d", seed=True).rank_value
109
>>> Stage.SWISS.counts, Stage.FINAL.counts
(True, False)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any

from hasamigo.errors import HasamigoError
from hasamigo.game.errors import GameError
from hasamigo.game.result import GameResult, Termination
from hasamigo.game.setup import NAME_LENGTH, PROGRAM_LENGTH, rank_value
from hasamigo.move import BLACK, WHITE, Color

#: an account's id (:mod:`hasamigo.accounts`): 32 hexadecimal digits
ACCOUNT_ID = re.compile(r"[0-9a-f]{32}")
#: how a tournament orders its entrants before round 1
SEEDINGS = ("rank", "rating")


class TournamentError(HasamigoError, ValueError):
    """A request the tournament's rules refuse (says why); nothing was changed."""

    code = "tournament"


class Stage(enum.StrEnum):
    """What a game is for. Only the *counting* stages enter wins and Brightwell points
    (the 43rd Meijin ranking counts the preliminary league and the placement round; the
    knockout games decide places by themselves)."""

    SWISS = "swiss"
    PLACEMENT = "placement"
    ROUND_ROBIN = "round_robin"
    KNOCKOUT = "knockout"
    SEMIFINAL = "semifinal"
    FINAL = "final"
    THIRD_PLACE = "third_place"
    WOMEN_FINAL = "women_final"

    @property
    def counts(self) -> bool:
        return self in (Stage.SWISS, Stage.PLACEMENT, Stage.ROUND_ROBIN)

    @property
    def draws_allowed(self) -> bool:
        """JOF rules 1 and 2 and the 43rd Meijin format (20 minutes each, draws allowed
        except in the semifinals, the final, the third-place game and the women's final):
        the league and the placement round allow draws; the knockout games and the
        women's final do not."""
        return self.counts


class PairingKind(enum.StrEnum):
    """What the pairing itself decides: a game to play, a bye, or (the Meijin round-6
    rule) a game not played that counts as a draw."""

    GAME = "game"
    BYE = "bye"
    NOT_PLAYED_DRAW = "not_played_draw"


class Colours(enum.StrEnum):
    PRESCRIBED = "prescribed"  # a plays Black
    FUSE_ISHI = "fuse-ishi"  # decided at the board; the result says who played Black


class GameKind(enum.StrEnum):
    """How a game counts (the ``kind`` of ``simulate --json``)."""

    PLAYED = "played"
    BYE = "bye"
    NOT_PLAYED_DRAW = "not_played_draw"
    FORFEIT = "forfeit"
    PENALTY = "penalty"  # a loss by penalty (反則負け, rule 21)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the tournament: a person, or a program (``program`` holds its spec).

    ``rank`` (dan/kyu) and ``birth_year`` decide who hides the disc in fuse-ishi and, with
    ``seed``, the order before round 1. ``woman`` enters the women's final. A withdrawn
    entrant is paired from no round on from ``withdrawn_from``; the games they played stay.

    What a division's eligibility is read from (:mod:`hasamigo.tournament.eligibility`):
    ``born``, the birth date (ISO ``YYYY-MM-DD``; its year is ``birth_year``), for an age
    on the tournament's date; ``student``, student status; ``school_year``, the year of
    school counted from the first of elementary school (1–6 小学1–6年, 7–9 中学1–3年,
    10–12 高校1–3年; ``None`` beyond, or unknown).

    ``account_id``: the account that registered itself (issue 67; ``None``: a name the
    director entered, or an account since deleted). ``rating``: the account's Othello
    rating as the tournament took it for seeding (at registration, again when round 1 is
    paired; ``None``: unrated, never in a rated game, or not an account).
    """

    number: int
    name: str
    rank: str | None = None
    birth_year: int | None = None
    woman: bool = False
    seed: bool = False
    division: str | None = None
    program: str | None = None
    withdrawn_from: int | None = None
    born: str | None = None
    student: bool | None = None
    school_year: int | None = None
    account_id: str | None = None
    rating: int | None = None

    def __post_init__(self) -> None:
        if self.account_id is not None and not ACCOUNT_ID.fullmatch(str(self.account_id)):
            raise TournamentError("an account id is 32 hexadecimal digits")
        if self.rating is not None and not (
                isinstance(self.rating, int) and 0 <= self.rating <= 5000):
            raise TournamentError(f"a rating is 0 to 5000, not {self.rating!r}")
        if not isinstance(self.name, str) or not self.name.strip():
            raise TournamentError("an entrant needs a name")
        if len(self.name) > NAME_LENGTH:
            raise TournamentError(f"a name is at most {NAME_LENGTH} characters")
        if self.program is not None and not 0 < len(self.program) <= PROGRAM_LENGTH:
            raise TournamentError(f"a program spec is 1 to {PROGRAM_LENGTH} characters")
        try:
            rank_value(self.rank)
        except GameError as exc:
            raise TournamentError(str(exc)) from None
        if self.birth_year is not None and not (
                isinstance(self.birth_year, int) and 1850 <= self.birth_year <= 2100):
            raise TournamentError(f"birth year {self.birth_year!r} is not a year (1850..2100)")
        if self.division is not None and len(self.division) > 24:
            raise TournamentError("a division is at most 24 characters")
        if self.born is not None:
            born = parse_date(self.born, "a birth date")
            if self.birth_year is not None and self.birth_year != born.year:
                raise TournamentError(f"born {self.born} is not born in {self.birth_year}")
        if self.school_year is not None and not (
                isinstance(self.school_year, int) and 1 <= self.school_year <= 12):
            raise TournamentError(f"a school year is 1 to 12 (小1 to 高3), "
                                  f"not {self.school_year!r}")

    @property
    def rank_value(self) -> int | None:
        return rank_value(self.rank)

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_from is not None

    def plays_in(self, round_number: int) -> bool:
        return self.withdrawn_from is None or round_number < self.withdrawn_from

    def withdraw(self, from_round: int) -> Entrant:
        return replace(self, withdrawn_from=from_round)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "rank": self.rank,
                "birth_year": self.birth_year, "woman": self.woman, "seed": self.seed,
                "division": self.division, "program": self.program,
                "withdrawn_from": self.withdrawn_from,
                **{k: v for k, v in (("born", self.born), ("student", self.student),
                                     ("school_year", self.school_year),
                                     ("account_id", self.account_id),
                                     ("rating", self.rating)) if v is not None}}


def parse_moment(text: str, what: str) -> datetime:
    """An ISO date and time (UTC when it names no zone), or a clear refusal.

    >>> parse_moment("2026-12-24T18:00", "a closing time").isoformat()
    '2026-12-24T18:00:00+00:00'
    """
    try:
        moment = datetime.fromisoformat(str(text))
    except ValueError:
        raise TournamentError(f"{what} is a date and time like 2026-12-24T18:00, "
                              f"not {str(text)[:40]!r}") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def parse_date(text: str, what: str) -> date:
    """An ISO date (``2023-03-18``) as a :class:`~datetime.date`, or a clear refusal."""
    try:
        return date.fromisoformat(str(text))
    except ValueError:
        raise TournamentError(f"{what} is a date like 2023-03-18, not {text!r}") from None


def initial_order(entrants: list[Entrant], *, by_rating: bool = False) -> list[int]:
    """The order before round 1 (the "previous rank" of round 1's standings): seeds
    first, then by rank (unknown last), then in order of registration.

    ``by_rating`` (the tournament's ``seeding`` is ``rating``): after the seeds, the rated
    entrants by their rating, highest first, then the unrated ones (accounts never rated,
    names the director entered) by rank as above. The documents are silent on ratings
    (the 43rd Meijin rules name their seeds; the World Championship's Swiss draws its
    first round); this is the project's reading, as a Swiss pairing program lists an
    unrated player after the rated ones.

    >>> initial_order([Entrant(1, "A"), Entrant(2, "B", rank="2d"), Entrant(3, "C", seed=True)])
    [3, 2, 1]
    >>> initial_order([Entrant(1, "A", rank="6d"), Entrant(2, "B", rating=1480),
    ...                Entrant(3, "C", rating=1620)], by_rating=True)
    [3, 2, 1]
    """
    def key(e: Entrant) -> tuple[bool, bool, int, int, int]:
        value = e.rank_value
        rated = by_rating and e.rating is not None
        return (not e.seed, not rated, -(e.rating or 0) if rated else 0,
                -(value if value is not None else -1), e.number)

    return [e.number for e in sorted(entrants, key=key)]


@dataclass(frozen=True, slots=True)
class Decision:
    """One reason a pairing is what it is: the rule (a stable code) and the words."""

    rule: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}

    @classmethod
    def from_json(cls, data: Any) -> Decision:
        return cls(str(data["rule"]), str(data["text"]))


@dataclass(frozen=True, slots=True)
class Pairing:
    """Board ``board`` of round ``round``: ``a`` against ``b`` (``None``: a bye for ``a``).
    With prescribed colours ``a`` plays Black. ``why`` says which rules chose it."""

    round: int
    board: int
    stage: Stage
    a: int
    b: int | None
    kind: PairingKind = PairingKind.GAME
    colours: Colours = Colours.PRESCRIBED
    why: tuple[Decision, ...] = ()

    @property
    def players(self) -> tuple[int, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    @property
    def draws_allowed(self) -> bool:
        return self.stage.draws_allowed

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "board": self.board, "stage": self.stage.value,
                "a": self.a, "b": self.b, "kind": self.kind.value,
                "colours": self.colours.value, "why": [d.to_json() for d in self.why]}


@dataclass(frozen=True, slots=True)
class BoardResult:
    """What was entered for a board: which entrant played Black and which White, and the
    game's :class:`~hasamigo.game.result.GameResult` (the official counts, ``result_card``
    already applied; the winner as a colour; how it ended; whether it is rated). The
    winner, counts and points of an entrant are read from that result through the
    seating.

    ``draw_win`` is who held the draw-win right (引き分け勝ち) in a game without draws
    (a 32–32 game is then theirs: the result's ``by_draw_win``); ``game_id`` links a game
    stored with its moves (programs' games); ``reason``, why a loss by penalty (反則負け,
    rule 21) was declared."""

    black: int
    white: int
    result: GameResult
    draw_win: int | None = None
    game_id: str | None = None
    reason: str | None = None

    @classmethod
    def from_card(cls, black: int, white: int, black_discs: int, white_discs: int,
                  winner: int | None, *, forfeit: bool = False, rated: bool = True,
                  draw_win: int | None = None, game_id: str | None = None,
                  termination: Termination | None = None,
                  reason: str | None = None) -> BoardResult:
        """A result stored by entrant numbers (the database's row, the audit log's JSON):
        the winner an entrant, and only ``forfeit`` where older rows say how it ended. A
        32–32 game with a winner was won on the draw-win right."""
        colour = None if winner is None else BLACK if winner == black else WHITE
        if termination is None:
            termination = Termination.FORFEIT if forfeit else Termination.NORMAL
        by_draw_win = colour is not None and black_discs == white_discs
        return cls(black, white, GameResult(black_discs, white_discs, colour, termination,
                                            rated, by_draw_win), draw_win, game_id, reason)

    def colour_of(self, number: int) -> Color:
        if number not in (self.black, self.white):
            raise TournamentError(f"entrant {number} did not play this game")
        return BLACK if number == self.black else WHITE

    def entrant(self, colour: Color | None) -> int | None:
        """Who played ``colour`` (``None`` for ``None``)."""
        return None if colour is None else self.black if colour is BLACK else self.white

    @property
    def winner(self) -> int | None:
        """The winning entrant (``None``: a draw)."""
        return self.entrant(self.result.winner)

    def discs_of(self, number: int) -> int:
        return self.result.counts_for(self.colour_of(number))

    def points_of(self, number: int) -> float:
        return self.result.points_of(self.colour_of(number))

    def to_json(self) -> dict[str, Any]:
        """By entrant numbers, as the audit log has always kept it, with ``termination``."""
        r = self.result
        return {"black": self.black, "white": self.white, "black_discs": r.black,
                "white_discs": r.white, "winner": self.winner, "forfeit": r.forfeit,
                "rated": r.rated, "draw_win": self.draw_win, "game_id": self.game_id,
                "termination": r.termination.code,
                **({} if self.reason is None else {"reason": self.reason})}

    @classmethod
    def from_json(cls, data: Any) -> BoardResult:
        """:meth:`to_json`'s form; an older entry, without ``termination``, too."""
        code = data.get("termination")
        return cls.from_card(
            int(data["black"]), int(data["white"]), int(data["black_discs"]),
            int(data["white_discs"]), None if data["winner"] is None else int(data["winner"]),
            forfeit=bool(data["forfeit"]), rated=bool(data["rated"]),
            draw_win=None if data["draw_win"] is None else int(data["draw_win"]),
            game_id=data.get("game_id"),
            termination=None if code is None else Termination.from_code(code),
            reason=data.get("reason"))


@dataclass(frozen=True, slots=True)
class Game:
    """A pairing with what came of it: what standings, exports and pages read.

    For a bye ``white`` is ``None`` and the bye counts 32 discs and a win; a game not
    played by the round-6 rule counts 32–32 and a draw; ``finished`` is False while a
    game's result is still to be entered (its discs are then ``None``). An entered game
    keeps its :class:`BoardResult` (``result``); the flat fields are read from it."""

    round: int
    board: int
    stage: Stage
    black: int
    white: int | None
    kind: GameKind
    black_discs: int | None
    white_discs: int | None
    winner: int | None
    finished: bool
    colours: Colours = Colours.PRESCRIBED
    rated: bool = True
    draw_win: int | None = None
    game_id: str | None = None
    why: tuple[Decision, ...] = field(default=(), compare=False)
    #: what was entered (a played or forfeited game's); its points are this game's
    result: BoardResult | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.black,) if self.white is None else (self.black, self.white)

    def opponent_of(self, number: int) -> int | None:
        return self.white if number == self.black else self.black

    def discs_of(self, number: int) -> int | None:
        return self.black_discs if number == self.black else self.white_discs

    def points_of(self, number: int) -> float:
        """1 for a win (a bye too), ½ for a draw (a game not played by the round-6 rule
        too), 0 for a loss or an unfinished game; an entered game's points are its
        result's (:meth:`GameResult.points_of <hasamigo.game.result.GameResult.points_of>`)."""
        if not self.finished:
            return 0.0
        if self.kind is GameKind.BYE:
            return 1.0
        if self.result is None:  # not played: a draw
            return 0.5
        return self.result.points_of(number)

    @property
    def loser(self) -> int | None:
        if not self.finished or self.winner is None or self.white is None:
            return None
        return self.white if self.winner == self.black else self.black

    @property
    def seat_chooser(self) -> int | None:
        """Who chooses the seat (JOF rule 4, 「座席は黒を持つ対局者が選択できる」): the
        player of Black, known from the pairing (prescribed colours) or from the result
        (fuse-ishi). ``None`` while fuse-ishi has not decided it, and for a bye or a game
        not played. (A late opponent's seat is the present player's choice, rule 12: the
        game over the board records it.)"""
        if self.white is None or self.kind is GameKind.NOT_PLAYED_DRAW:
            return None
        if self.colours is Colours.FUSE_ISHI and not self.finished:
            return None
        return self.black



@dataclass(frozen=True, slots=True)
class Settings:
    """How a tournament is run. ``format``: a key of
    :data:`hasamigo.tournament.formats.FORMATS` (checked when the format is made, by
    :func:`~hasamigo.tournament.formats.make_format`); ``rounds``: the Swiss rounds (Swiss
    formats) or the cycles (round robin); ``c``: a fixed Brightwell C (6 is the older
    rules' value; ``None``: the integer nearest to 64 ÷ games); ``seed``: the draws';
    ``prize_places``: the open division's 入賞 places; ``third_place``: a knockout's
    third-place game; ``keep_seeds_apart``: round 1 redrawn while seeds meet; ``date``:
    the tournament's day (ISO), on which a division's ages are counted (unset: the day a
    player is entered).

    Self-registration (issue 67): ``registration`` open lets a signed-in account enter
    itself until round 1 is paired, until ``registration_closes`` (an ISO date and time,
    UTC when it names no zone) and while fewer than ``registration_cap`` entrants (not
    withdrawn) are in. ``seeding``: the order before round 1, by ``rank`` (seeds, dan/kyu,
    registration) or by ``rating`` (:func:`initial_order`); ``rating_seeds``: the highest
    rated entrants taken as seeds too (kept apart in round 1 like the named seeds)."""

    format: str
    rounds: int | None = None
    c: int | None = None
    seed: int = 0
    prize_places: int = 8
    third_place: bool = True
    keep_seeds_apart: bool = True
    date: str | None = None
    registration: bool = False
    registration_closes: str | None = None
    registration_cap: int | None = None
    seeding: str = "rank"
    rating_seeds: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.registration, bool):
            raise TournamentError("registration is open (true) or closed (false)")
        if self.registration_closes is not None:
            parse_moment(self.registration_closes, "registration's closing time")
        if self.registration_cap is not None and not (
                isinstance(self.registration_cap, int) and 2 <= self.registration_cap <= 2000):
            raise TournamentError("a registration cap is 2 to 2000 entrants")
        if self.seeding not in SEEDINGS:
            raise TournamentError(f"seeding is by {' or by '.join(SEEDINGS)}, "
                                  f"not {str(self.seeding)[:20]!r}")
        if not isinstance(self.rating_seeds, int) or not 0 <= self.rating_seeds <= 64:
            raise TournamentError("rating seeds are 0 to 64")
        if self.rounds is not None and not 1 <= self.rounds <= 50:
            raise TournamentError("rounds are 1 to 50")
        if self.c is not None and not 1 <= self.c <= 64:
            raise TournamentError("C is 1 to 64")
        if not 1 <= self.prize_places <= 64:
            raise TournamentError("prize places are 1 to 64")
        if self.date is not None:
            parse_date(self.date, "the tournament's date")

    def to_json(self) -> dict[str, Any]:
        out = {"format": self.format, "rounds": self.rounds, "c": self.c, "seed": self.seed,
               "prize_places": self.prize_places, "third_place": self.third_place,
               "keep_seeds_apart": self.keep_seeds_apart}
        if self.date is not None:
            out["date"] = self.date
        # the settings of issue 67, kept only when set (older tournaments' JSON unchanged)
        for key, default in (("registration", False), ("registration_closes", None),
                             ("registration_cap", None), ("seeding", "rank"),
                             ("rating_seeds", 0)):
            value = getattr(self, key)
            if value != default:
                out[key] = value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})


__all__ = [
    "BoardResult",
    "Colours",
    "Decision",
    "Entrant",
    "Game",
    "GameKind",
    "Pairing",
    "PairingKind",
    "Settings",
    "Stage",
    "TournamentError",
    "initial_order",
    "parse_date",
    "parse_moment",
]
