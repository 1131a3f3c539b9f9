"""Request schemas of the study API (pydantic): strict (unknown fields refused) and
bounded (every string a maximum length, every number a range). What the study refuses
beyond that (a step out of order, a second answer) comes back from
:class:`~hasamigo.study.service.StudyService` or the game's fold with its reason."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from hasamigo.game.events import STUDY_ANSWER_SECONDS
from hasamigo.study.service import NAME_LENGTH, STRATEGIES, TEXT_LENGTH
from hasamigo.study.settings import ARM_LENGTH, MAX_ARMS, MIN_ARMS

#: shortest researcher's password a study made on the web takes
NEW_PASSWORD_LENGTH = 8
#: the report's options: a filter (``strength<=3``) and a grouping (``first``)
WHERE_LENGTH, GROUP_BY_LENGTH = 200, 40

#: a program of the registry (``victory``, ``amusement:swing``, ``engine:5``…; which ones
#: the study takes, :func:`hasamigo.study.settings.arm_name` says)
Program = Annotated[str, StringConstraints(min_length=1, max_length=ARM_LENGTH,
                                           pattern=r"^[A-Za-z][A-Za-z0-9_-]*(:[A-Za-z0-9_-]+)*$")]
Protocol = Literal["paper", "extended"]
Window = Literal["midgame", "moves"]
Outcome = Literal["win", "lose", "draw"]
Language = Literal["ja", "en"]
Strategy = Literal["corners", "x_squares", "c_squares", "edges", "mobility", "stable_discs",
                   "quiet_moves", "parity", "openings"]
assert len(STRATEGIES) == len(Strategy.__args__)  # type: ignore[attr-defined]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class NewStudy(Request):
    name: str = Field(min_length=1, max_length=NAME_LENGTH)
    password: str = Field(min_length=NEW_PASSWORD_LENGTH, max_length=200)
    arms: list[Program] = Field(default=["victory", "amusement"], min_length=MIN_ARMS,
                                max_length=MAX_ARMS)
    clock_minutes: float | None = Field(default=None, gt=0, le=120)
    languages: list[Language] = Field(default=["ja", "en"], min_length=1, max_length=2)
    protocol: Protocol = "paper"
    #: ``None``: the protocol's (paper: ``moves``, the paper's window)
    surprise_window: Window | None = None


class StudyChange(Request):
    """What a researcher may change before the first subject (``None``: unchanged)."""

    arms: list[Program] | None = Field(default=None, min_length=MIN_ARMS,
                                       max_length=MAX_ARMS)
    protocol: Protocol | None = None
    surprise_window: Window | None = None


class Withdraw(Request):
    """A withdrawal, confirmed: the subject's answers and games are deleted for good."""

    confirm: Literal[True]


class Login(Request):
    password: str = Field(min_length=1, max_length=200)


class NewSubject(Request):
    language: Language | None = None


class Before(Request):
    """The before questionnaire: ``strength`` only in the paper protocol; the extended
    one asks the other two as well (the study refuses what its protocol does not ask)."""

    strength: int = Field(ge=1, le=5)
    play_frequency: Literal["never", "rarely", "monthly", "weekly", "daily"] | None = None
    strategies: list[Strategy] | None = Field(default=None, max_length=len(STRATEGIES))


class MoveRequest(Request):
    move: str = Field(min_length=2, max_length=3, pattern=r"^[a-hA-H][1-8]$")


class AnswerRequest(Request):
    move_number: int = Field(ge=1, le=400)
    question: Literal["can_win", "move_felt"]
    answer: Literal["win", "unknown", "lose", "surprising", "expected"]
    seconds: float = Field(ge=0, le=STUDY_ANSWER_SECONDS)


class Felt(Request):
    index: int = Field(ge=1, le=MAX_ARMS)
    felt: int = Field(ge=1, le=5)
    note: str = Field(default="", max_length=TEXT_LENGTH)


class After(Request):
    """The after questionnaire; the paper protocol's also ``reported_outcomes`` (each
    game's result as the subject reports it, in the subject's order) and
    ``strategies_text``."""

    more_fun: Program
    more_fun_why: str = Field(default="", max_length=TEXT_LENGTH)
    what_makes_fun: str = Field(default="", max_length=TEXT_LENGTH)
    strategies_text: str | None = Field(default=None, max_length=TEXT_LENGTH)
    reported_outcomes: list[Outcome] | None = Field(default=None, max_length=MAX_ARMS)
