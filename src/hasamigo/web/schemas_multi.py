"""API schemas of the multi-player games (:mod:`hasamigo.web.routers.multi`): strict and
bounded like every request of the app (:class:`~hasamigo.web.schemas.Request`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from hasamigo.web.schemas import Name, Request

#: a seat's player: ``person``, or a program spec of
#: :func:`hasamigo.engine.multi_players.make_multi_player`
PlayerSpec = Annotated[str, StringConstraints(
    max_length=16, pattern=r"^(person|random|greedy|search|maxn(:[1-4])?|paranoid(:[1-4])?)$")]
ColourWord = Annotated[str, StringConstraints(max_length=8, pattern=r"^[a-z]{3,8}$")]


class NewSeat(Request):
    player: PlayerSpec = "person"
    name: Name | None = None


class NewMultiGame(Request):
    """A new game: its rules, 2 to 4 seats in turn order (clockwise: they take the game's
    usual colours for that many players), who moves first (a colour, or ``random`` as
    Rolit's sheet rolls a ball), and ``online``: each other person's seat gets a join link
    for their own browser; otherwise the creator's token holds every person's seat (one
    screen, passed round)."""

    game: Literal["rolit", "othello4"] = "rolit"
    seats: list[NewSeat] = Field(min_length=2, max_length=4)
    first: ColourWord = "random"
    online: bool = False
    #: rated (issue 67): online, between people only, each seat a different signed-in
    #: account's; Rolit (2-4 seats) or 4-player Othello with four
    rated: bool = False


class MultiMoveRequest(Request):
    move: str = Field(min_length=2, max_length=4, pattern=r"^([a-hA-H][1-8]|pass|PA)$")
    colour: ColourWord | None = Field(
        default=None, description="the colour moved for (by default the side to move, "
        "which the token must hold)")


class MultiJoinRequest(Request):
    code: str = Field(min_length=8, max_length=64)


class MultiSeatView(BaseModel):
    colour: str
    symbol: str
    name: str
    program: str | None
    #: a person's seat that is still waiting for its join link to be used
    waiting: bool
    discs: int
    #: its person deleted their account before the end (``program`` plays it on, if any)
    left: bool = False


class MultiStandingView(BaseModel):
    rank: int
    colour: str
    name: str
    discs: int


class MultiGameView(BaseModel):
    """A game as its page shows it: the seats in turn order, every position from the
    start (``boards[i]``: 64 characters, row by row from a1, a colour's letter or ``.``,
    after ``i`` moves: the replay), the moves, the side to move and its moves."""

    id: str
    game: str
    title: str
    colours: list[str]
    symbols: str
    seats: list[MultiSeatView]
    moves: list[str]
    boards: list[str]
    turn: str | None
    legal: list[str]
    over: bool
    standings: list[MultiStandingView]
    your_colours: list[str]
    version: int
    #: created rated (``GET /api/multi/{id}/rating`` once over: the changes or why not)
    rated: bool = False


class CreatedMultiGame(MultiGameView):
    seat_token: str
    #: each other person's join link, by colour (online games)
    join_urls: dict[str, str]


class JoinedMultiGame(BaseModel):
    id: str
    seat_token: str
    your_colours: list[str]
