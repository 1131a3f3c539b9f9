"""Schemas of the variations API (``/api/games/{id}/variations``): a move to add, and the
game's tree as the replay page draws it (every node with its position and the moves
there, the main line's moves at each position, the nested lines of
:func:`hasamigo.analysis.variations.tree_to_json`)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hasamigo.web.schemas import ColourName, Request


class VariationRequest(Request):
    """A move to add: under the node ``parent``, or, without one, off the main line at
    its position ``ply`` (moves before it, passes counted). ``move`` as the replay writes
    it: ``e6``, ``pass``, or under a 挟み碁 flip rule ``c4(d4)``."""

    parent: int | None = Field(default=None, ge=1, le=2**31 - 1)
    ply: int | None = Field(default=None, ge=0, le=400)
    move: str = Field(min_length=1, max_length=160)


class MovesHere(BaseModel):
    """What the side to move may play in a position: ``legal`` squares; ``picks`` the
    squares where the flip rule wants the disc to turn named (square -> the discs to
    choose from: the move is then ``square(disc)``); ``must_pass``; ``over``."""

    turn: ColourName
    legal: list[str]
    picks: dict[str, list[str]]
    must_pass: bool
    over: bool


class NodeView(BaseModel):
    """A node that replays: its move (played by ``colour`` from position ``ply``), the
    position after it (``cells`` as in ``/positions``), the discs it turned, the moves
    there, its children's ids (oldest first) and its line's ids from the main line."""

    id: int
    parent: int | None
    ply: int
    move: str
    colour: ColourName
    cells: str
    black: int
    white: int
    flipped: list[str]
    here: MovesHere
    children: list[int]
    line: list[int]


class LineView(BaseModel):
    """A line of the tree (see :mod:`hasamigo.analysis.variations`): ``moves[i]`` is
    played from position ``from_ply + i``; ``children`` leave it later."""

    from_ply: int
    moves: list[str]
    ids: list[int]
    children: list[LineView]


class VariationsView(BaseModel):
    """A game's variations. ``stale`` counts stored nodes that no longer replay (a casual
    game's main line was taken back under them); ``node`` is the node a ``POST`` added or
    found."""

    game: str
    count: int
    max_nodes: int
    max_line: int
    stale: int
    main: list[MovesHere] = Field(description="the moves at each main-line position")
    nodes: list[NodeView]
    variations: list[LineView]
    node: int | None = None
