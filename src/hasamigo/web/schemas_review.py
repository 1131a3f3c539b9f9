"""Response schemas of the game review API (pydantic): ``GET /api/games/{id}/review`` is
:meth:`hasamigo.analysis.review.Review.to_json` with the progress of the work. The review
is started by ``POST`` on the same path, which takes no body (the depth is the server's)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from hasamigo.web.schemas import ColourName

ReviewStatus = Literal["queued", "running", "done", "failed"]
Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]


class ReviewMoveView(BaseModel):
    """One move reviewed: scores in discs from the mover's side; ``loss`` is
    ``best_score - played_score``. A forced move (a pass, the only legal move) has the
    position's score as both."""

    ply: int = Field(description="moves before it (passes counted): the position before "
                     "the move is the replay's position number ply")
    colour: ColourName
    move: str
    best_move: str
    best_score: int | None = Field(description="the position's score (its best move's); "
                                   "null only for a forced move of a review stored before "
                                   "forced moves were searched")
    played_score: int | None = Field(description="the move played's score; null as "
                                     "best_score")
    loss: int
    label: Label
    exact: bool = Field(description="both scores solved exactly (the endgame)")
    forced: bool = Field(description="a pass or the only legal move: its scores are the "
                         "position's, its loss 0")


class WorstMoveView(BaseModel):
    ply: int
    move: str
    loss: int


class PlayerReviewView(BaseModel):
    moves: int
    total_loss: int
    average_loss: float
    labels: dict[Label, int]
    worst: WorstMoveView | None = Field(description="the side's costliest move, if any "
                                        "lost discs")


class ReviewView(BaseModel):
    """A game's review so far: ``reviewed`` of ``total`` moves are in ``moves``; the
    summary and the turning point cover those."""

    status: ReviewStatus
    reviewed: int
    total: int
    variant: str
    depth: int
    exact_empties: int
    moves: list[ReviewMoveView]
    summary: dict[ColourName, PlayerReviewView]
    turning_point: int | None = Field(description="the ply of the move that lost the most "
                                      "discs (the earliest of equals), if any lost any")
    error: str | None = Field(default=None, description="why the review failed")
