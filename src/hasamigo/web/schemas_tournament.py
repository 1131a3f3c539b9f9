"""Request schemas of the tournaments API (pydantic), apart from the core's views.

Like :mod:`hasamigo.web.schemas`, every request model is strict and bounded: unknown
fields are refused, every string has a maximum length (the core's own limits: a
tournament's name 120 characters, an entrant's name and a program spec 40, a division
24) and no control characters, numbers have a range (disc counts 0 to 64). What the
core refuses beyond that (a rank it cannot read, a second entrant of the same name, a
round paired twice) comes back from the core with its reason.

Answers are the core's view dataclasses as JSON (:func:`hasamigo.tournament.service.as_json`).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from hasamigo.game.setup import NAME_LENGTH, PROGRAM_LENGTH
from hasamigo.tournament.formats import FORMATS
from hasamigo.tournament.service import PASSWORD_LENGTH
from hasamigo.tournament.state import NAME_LENGTH as TOURNAMENT_NAME_LENGTH

#: shortest director's password a tournament made on the web takes (the command line
#: takes the core's shorter minimum; logging in takes any stored password)
NEW_PASSWORD_LENGTH = 8
#: longest reason (corrections, withdrawals) and director's name kept in the audit log
REASON_LENGTH = 300
WHO_LENGTH = 40
#: the highest round number a request may name (50 Swiss rounds and the finals)
MAX_ROUND = 60

FormatKey = Literal["meijin", "master", "student", "elementary", "swiss", "round-robin",
                    "knockout"]
assert set(get_args(FormatKey)) == set(FORMATS), "FormatKey must list the core's formats"


def _plain(text: str) -> str:
    """Text without control characters or unpaired surrogates, trimmed."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t":
            raise ValueError("control characters are not allowed")
    return text.strip()


def _not_blank(text: str) -> str:
    if not text:
        raise ValueError("must not be blank")
    return text


def _secret(text: str) -> str:
    """A password: any characters but control characters and unpaired surrogates."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs"):
            raise ValueError("control characters are not allowed")
    return text


TournamentName = Annotated[str, Field(min_length=1, max_length=TOURNAMENT_NAME_LENGTH),
                           AfterValidator(_plain), AfterValidator(_not_blank)]
EntrantName = Annotated[str, Field(min_length=1, max_length=NAME_LENGTH),
                        AfterValidator(_plain), AfterValidator(_not_blank)]
Program = Annotated[str, Field(min_length=1, max_length=PROGRAM_LENGTH),
                    AfterValidator(_plain), AfterValidator(_not_blank)]
Rank = Annotated[str, Field(max_length=12), AfterValidator(_plain)]
Division = Annotated[str, Field(max_length=24), AfterValidator(_plain)]
Reason = Annotated[str, Field(min_length=1, max_length=REASON_LENGTH),
                   AfterValidator(_plain), AfterValidator(_not_blank)]
Who = Annotated[str, Field(max_length=WHO_LENGTH), AfterValidator(_plain)]
NewPassword = Annotated[str, Field(min_length=NEW_PASSWORD_LENGTH,
                                   max_length=PASSWORD_LENGTH[1]), AfterValidator(_secret)]
Password = Annotated[str, Field(min_length=1, max_length=PASSWORD_LENGTH[1]),
                     AfterValidator(_secret)]
Discs = Annotated[int, Field(ge=0, le=64)]
IsoDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
EntrantNumber = Annotated[int, Field(ge=1, le=100_000)]
Moment = Annotated[str, Field(max_length=40, pattern=r"^\d{4}-\d{2}-\d{2}[T ][0-9:.]+"
                              r"(Z|[+-]\d{2}:?\d{2})?$")]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class NewTournament(Request):
    """The create form. ``rounds``: Swiss rounds (Swiss and the Meijin formats; default
    per format) or round-robin cycles; ``c``: a fixed Brightwell C (``None``: the integer
    nearest to 64 ÷ games; 6 is the older rules' value). ``director``: the director's
    name for the audit log."""

    name: TournamentName
    format: FormatKey = "meijin"
    password: NewPassword
    rounds: int | None = Field(default=None, ge=1, le=50)
    c: int | None = Field(default=None, ge=1, le=64)
    prize_places: int = Field(default=8, ge=1, le=64)
    third_place: bool = True
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="seed of the draws")
    director: Who | None = None
    date: IsoDate | None = Field(default=None, description="the tournament's day: a "
                                 "division's ages are counted on it")


class Login(Request):
    """The director's password; ``director``: a name for the audit log."""

    password: Password
    director: Who | None = None


class NewEntrant(Request):
    """An entrant, registered before round 1 is paired. ``rank``: dan/kyu (3d, 2 dan,
    三段, 1k, 5級; empty: unknown); ``program``: a program entrant's spec (engine:5,
    victory…; the name defaults to it)."""

    name: EntrantName | None = None
    rank: Rank | None = None
    birth_year: int | None = Field(default=None, ge=1850, le=2100)
    woman: bool = False
    seed: bool = False
    division: Division | None = None
    program: Program | None = None
    born: IsoDate | None = None
    student: bool | None = None
    school_year: int | None = Field(default=None, ge=1, le=12, description="counted from "
                                    "the first year of elementary school (1–6 小学, 7–9 "
                                    "中学, 10–12 高校)")
    override: Reason | None = Field(default=None, description="the director lets in a "
                                    "player the division's conditions refuse: the reason "
                                    "goes to the audit log")


class PenaltyLoss(Request):
    """A loss by penalty (反則負け, JOF rule 21): the entrant who loses, and why."""

    loser: EntrantNumber
    reason: Reason


class SanctionRequest(Request):
    """A sanction of JOF rule 21 (「円滑で公正な大会運営を妨げる人物に注意、警告を与え、退場を
    命じることができる」): its kind, the entrant (by number) or another person (by name),
    the reason, and the round and board if it happened at one. Removing an entrant also
    withdraws them from the next round (the project's reading)."""

    kind: Literal["caution", "warning", "removal"] = Field(
        description="注意 caution, 警告 warning, 退場 removal")
    entrant: EntrantNumber | None = None
    person: EntrantName | None = Field(default=None, description="someone who is not an "
                                       "entrant (a spectator, a companion)")
    reason: Reason
    round: int | None = Field(default=None, ge=1, le=MAX_ROUND)
    board: int | None = Field(default=None, ge=1, le=1000)


class Withdrawal(Request):
    reason: Reason | None = None


class RegistrationSettings(Request):
    """Self-registration and seeding (issue 67): ``registration`` open lets a signed-in
    account enter itself until round 1 is paired, before ``registration_closes`` (ISO
    date and time; UTC when it names no zone) and under ``registration_cap`` entrants;
    ``seeding`` by rank or by rating, with the ``rating_seeds`` highest rated kept apart
    in round 1 like named seeds. The seeding is fixed once round 1 is paired."""

    registration: bool = False
    registration_closes: Moment | None = None
    registration_cap: int | None = Field(default=None, ge=2, le=2000)
    seeding: Literal["rank", "rating"] = "rank"
    rating_seeds: int = Field(default=0, ge=0, le=64)


class SelfEntry(Request):
    """An account entering itself: its rank if it has one (dan/kyu; empty: unknown)."""

    rank: Rank | None = None


class Unpair(Request):
    reason: Reason | None = None


class ResultCard(Request):
    """A board's result card: both disc counts (counts that do not add up to 64 count
    against the winner, JOF rule 18), or a forfeit (``forfeit_loser``, with ``late`` for
    a late player's chosen forfeit, not rated). ``black``: who played Black in a
    fuse-ishi game; ``draw_win``: who held the draw-win right in a game without draws.
    Entrants are named by number."""

    black_discs: Discs | None = None
    white_discs: Discs | None = None
    black: EntrantNumber | None = None
    draw_win: EntrantNumber | None = None
    forfeit_loser: EntrantNumber | None = None
    late: bool = False

    def card(self) -> dict[str, object]:
        return {"black_discs": self.black_discs, "white_discs": self.white_discs,
                "black": self.black, "draw_win": self.draw_win,
                "forfeit_loser": self.forfeit_loser, "late": self.late}

    def entrants(self) -> list[int]:
        return [n for n in (self.black, self.draw_win, self.forfeit_loser) if n is not None]


class LinkedGame(Request):
    """A board's result taken from a stored game (a game over the board recorded at
    ``/record``): its id, or a link to it (``…/record/ID`` or ``…/games/ID``).
    ``reason``: replace the board's entered result (a correction, kept in the audit
    log)."""

    game: Annotated[str, Field(min_length=1, max_length=300)]
    reason: Reason | None = None

    def game_id(self) -> str | None:
        """The id in ``game``, or ``None`` if it holds none."""
        text = self.game.strip().rstrip("/")
        match = re.search(r"(?:^|/(?:record|games)/)([A-Za-z0-9_-]{1,64})(?:/[a-z]+)?$",
                          text)
        return match.group(1) if match else None


class Correction(ResultCard):
    """A replacement for an entered result, with the reason the audit log keeps."""

    reason: Reason


__all__ = [
    "MAX_ROUND",
    "NEW_PASSWORD_LENGTH",
    "Correction",
    "FormatKey",
    "LinkedGame",
    "Login",
    "NewEntrant",
    "NewTournament",
    "PenaltyLoss",
    "ResultCard",
    "Unpair",
    "Withdrawal",
]
