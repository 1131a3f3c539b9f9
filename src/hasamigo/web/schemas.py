"""API schemas (pydantic), apart from the tables; websocket messages as a typed union."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

OpponentKind = Literal[
    "victory", "amusement", "entertainer", "engine", "weakest", "random", "person"
]
ColourChoice = Literal["black", "white", "random", "fuse-ishi"]
ColourName = Literal["black", "white"]


class NewGame(BaseModel):
    """The new-game form. ``clock_minutes=None`` plays without a clock."""

    opponent: OpponentKind = "victory"
    level: int = Field(default=5, ge=1, le=10, description="engine level (opponent 'engine')")
    colour: ColourChoice = "black"
    handicap: int = Field(default=0, ge=0, le=4)
    clock_minutes: float | None = Field(default=20.0, gt=0, le=600)
    variant: Literal["8x8", "6x6", "4x4"] = "8x8"
    start: Literal["cross", "parallel", "original"] = "cross"
    casual: bool = True
    draws_allowed: bool = True
    position: str | None = Field(
        default=None, description="a board string to start from (casual set-up positions)"
    )
    names: tuple[str, str] | None = Field(
        default=None, description="player names (the person, or both people on one screen)"
    )


class MoveRequest(BaseModel):
    move: str = Field(description="a square (f5) or 'pass'; passes are automatic anyway")
    colour: ColourName | None = None
    revision: int | None = None


class ColourStep(BaseModel):
    """A fuse-ishi step: ``call`` top/bottom (black/white without draws), ``right``
    draw-win/colour, ``colour`` black/white."""

    step: Literal["call", "right", "colour"]
    value: str
    participant: int | None = Field(default=None, ge=0, le=1)


class TimeoutChoice(BaseModel):
    choice: Literal["33-31", "playout"]


class ColourAction(BaseModel):
    colour: ColourName | None = None


class SeatView(BaseModel):
    name: str
    program: str | None
    person: bool


class ClockView(BaseModel):
    black: float
    white: float
    running: ColourName | None
    flagged: list[ColourName]


class ResultView(BaseModel):
    black: int
    white: int
    winner: ColourName | None
    termination: str
    score: str
    by_draw_win: bool
    rated: bool


class FuseIshiView(BaseModel):
    step: Literal["call", "right", "colour"] | None
    by: int | None
    by_name: str | None
    draws_allowed: bool
    top: ColourName | None


class OpeningView(BaseModel):
    en: str | None
    ja: str | None
    moves: str


class GameView(BaseModel):
    id: str
    revision: int
    phase: str
    variant: str
    title: str
    rows: int
    cols: int
    cells: str
    turn: ColourName
    legal: list[str]
    last_move: str | None
    flipped: list[str]
    passed: list[ColourName]
    counts: dict[str, int]
    seats: dict[str, SeatView] | None
    participants: list[SeatView]
    persons: list[ColourName]
    clock: ClockView | None
    casual: bool
    handicap: int
    can_undo: bool
    claimable: ColourName | None
    timeout_loser: ColourName | None
    draw_win: ColourName | None
    fuse_ishi: FuseIshiView | None
    result: ResultView | None
    moves: list[str]
    first_colour: ColourName
    opening: OpeningView | None
    thinking: bool


class GameSummaryView(BaseModel):
    id: str
    created_at: str
    updated_at: str
    phase: str
    variant: str
    black: str
    white: str
    opponent: str
    casual: bool
    move_count: int
    score: str | None
    winner: str | None
    termination: str | None


class PositionView(BaseModel):
    ply: int
    move: str | None
    colour: ColourName | None
    cells: str
    black: int
    white: int
    flipped: list[str]


class HintView(BaseModel):
    move: str
    score: int


class HintsView(BaseModel):
    side: ColourName
    depth: int
    hints: list[HintView]


class EvaluationsView(BaseModel):
    """Evaluation after each ply, in discs from Black's point of view."""

    depth: int
    scores: list[int | None]


class ErrorBody(BaseModel):
    code: str
    message: str
    reason: str | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody


# ---- websocket messages --------------------------------------------------------------
class SyncMessage(BaseModel):
    type: Literal["sync"]


class PingMessage(BaseModel):
    type: Literal["ping"]


class MoveMessage(BaseModel):
    type: Literal["move"]
    move: str
    colour: ColourName | None = None
    revision: int | None = None


ClientMessage = Annotated[SyncMessage | PingMessage | MoveMessage, Field(discriminator="type")]


class StateMessage(BaseModel):
    type: Literal["state"] = "state"
    game: GameView


class PongMessage(BaseModel):
    type: Literal["pong"] = "pong"


class ErrorMessage(BaseModel):
    type: Literal["error"] = "error"
    error: ErrorBody


ServerMessage = Annotated[StateMessage | PongMessage | ErrorMessage, Field(discriminator="type")]
