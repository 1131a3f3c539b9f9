"""Request schemas of the study API (pydantic): strict (unknown fields refused) and
bounded (every string a maximum length, every number a range). What the study refuses
beyond that (a step out of order, a second answer) comes back from
:class:`~hasamigo.study.service.StudyService` or the game's fold with its reason."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from hasamigo.game.events import STUDY_ANSWER_SECONDS
from hasamigo.study.service import NAME_LENGTH, STRATEGIES, TEXT_LENGTH

#: shortest researcher's password a study made on the web takes
NEW_PASSWORD_LENGTH = 8

Program = Literal["victory", "amusement", "entertainer"]
Language = Literal["ja", "en"]
Strategy = Literal["corners", "x_squares", "c_squares", "edges", "mobility", "stable_discs",
                   "quiet_moves", "parity", "openings"]
assert len(STRATEGIES) == len(Strategy.__args__)  # type: ignore[attr-defined]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class NewStudy(Request):
    name: str = Field(min_length=1, max_length=NAME_LENGTH)
    password: str = Field(min_length=NEW_PASSWORD_LENGTH, max_length=200)
    arms: list[Program] = Field(default=["victory", "amusement"], min_length=2, max_length=3)
    clock_minutes: float | None = Field(default=None, gt=0, le=120)
    languages: list[Language] = Field(default=["ja", "en"], min_length=1, max_length=2)


class Login(Request):
    password: str = Field(min_length=1, max_length=200)


class NewSubject(Request):
    language: Language | None = None


class Before(Request):
    strength: int = Field(ge=1, le=5)
    play_frequency: Literal["never", "rarely", "monthly", "weekly", "daily"]
    strategies: list[Strategy] = Field(default=[], max_length=len(STRATEGIES))


class MoveRequest(Request):
    move: str = Field(min_length=2, max_length=3, pattern=r"^[a-hA-H][1-8]$")


class AnswerRequest(Request):
    move_number: int = Field(ge=1, le=400)
    question: Literal["can_win", "move_felt"]
    answer: Literal["win", "unknown", "lose", "surprising", "expected"]
    seconds: float = Field(ge=0, le=STUDY_ANSWER_SECONDS)


class Felt(Request):
    index: int = Field(ge=1, le=3)
    felt: int = Field(ge=1, le=5)
    note: str = Field(default="", max_length=TEXT_LENGTH)


class After(Request):
    more_fun: Program
    more_fun_why: str = Field(default="", max_length=TEXT_LENGTH)
    what_makes_fun: str = Field(default="", max_length=TEXT_LENGTH)
