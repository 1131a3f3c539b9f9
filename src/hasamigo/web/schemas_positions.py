"""Schemas of the board editor's API (``/api/positions``): a set-up position to check or
analyse, and what the check finds."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hasamigo.web.schemas import ColourName, NoteView, Request

#: the boards the editor sets up: the new-game form's (a position set up on one of them
#: can be played out there)
EDITOR_VARIANTS = ("8x8", "6x6", "4x4", "grand", "eight-stars", "hasegawa-8x9",
                   "hasegawa-9x10", "nip-circle")


class PositionRequest(Request):
    """A position: the board (a name of :data:`EDITOR_VARIANTS`) and its board string
    (cells row by row, ``X`` black, ``O`` white, ``-`` empty, ``#`` cut, then the side to
    move, ``X`` or ``O``)."""

    variant: str = Field(default="8x8", max_length=20)
    board: str = Field(min_length=1, max_length=200)


class FlagView(BaseModel):
    """A reason the position cannot arise in a game from the board's start."""

    code: str
    text: str
    text_ja: str
    squares: list[str]


class PositionCheckView(BaseModel):
    """What the rules say of a set-up position. ``flags`` are proofs that no game from the
    start reaches it (cheap checks only: no flag proves nothing); ``analysable``: the
    engine scores its moves (``POST /api/positions/analyse``)."""

    variant: str
    title: str
    board: str = Field(description="the board string, normalised")
    cells: str
    rows: int
    cols: int
    rings: list[list[str]]
    turn: ColourName
    legal: list[str] = Field(description="the side to move's moves (empty: it must pass, "
                             "or the game is over)")
    must_pass: bool
    game_over: bool
    winner: ColourName | None = Field(description="when the game is over (null: a draw)")
    counts: dict[str, int] = Field(description="black, white and empty squares")
    unreachable: bool
    flags: list[FlagView]
    notes: list[NoteView]
    analysable: bool
