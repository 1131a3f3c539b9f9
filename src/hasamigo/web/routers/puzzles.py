"""Puzzles: "find the best move" (``/puzzles`` and ``/api/puzzles``), judged exactly.

The FFO endgame positions (#1–#39) and any position of one's own (a review's mistake: the
replay page links it as ``/puzzles?variant=…&board=…``) with few enough empties for the
solver (:mod:`hasamigo.analysis.puzzles`). Nothing is stored; an answer is judged on the
search threads, as hints are."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from hasamigo.analysis.puzzles import (
    Puzzle,
    answer_move,
    ffo_puzzle,
    ffo_puzzles,
    position_puzzle,
)
from hasamigo.errors import HasamigoError, InvalidOptionError, shown
from hasamigo.variants import find_variant
from hasamigo.web.deps import Analysis, LangDep, Templates
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas import Request as ApiRequest

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])
pages = APIRouter(include_in_schema=False)


class PuzzleView(BaseModel):
    key: str
    title: str
    variant: str
    board: str
    turn: str
    empties: int
    legal: list[str]
    rows: int
    cols: int


class VerdictView(BaseModel):
    """An answer judged by the exact solver (discs, side to move's view)."""

    move: str
    score: int
    best_score: int
    best_moves: list[str]
    loss: int
    correct: bool


class AnswerRequest(ApiRequest):
    """An answer: ``move`` on the puzzle ``key`` (``ffo-N``), or on a position of one's
    own (``variant`` and ``board``, a board string)."""

    move: str = Field(min_length=1, max_length=40)
    key: str | None = Field(default=None, max_length=12)
    variant: str = Field(default="standard", max_length=40)
    board: str | None = Field(default=None, max_length=200)


def _view(puzzle: Puzzle) -> PuzzleView:
    b = puzzle.board
    return PuzzleView(**puzzle.to_json(), rows=b.rows, cols=b.cols)


def _puzzle(key: str | None, variant: str, board: str | None) -> Puzzle:
    if board is not None:
        return position_puzzle(find_variant(variant).from_string(board))
    key = key or "ffo-1"
    number = key.removeprefix("ffo-")
    if not key.startswith("ffo-") or not number.isascii() or not number.isdigit():
        raise InvalidOptionError(f"unknown puzzle {shown(key)}; the FFO ones are ffo-1 to "
                                 f"ffo-{len(ffo_puzzles())}")
    return ffo_puzzle(int(number))


@router.get("", responses=ERRORS)
async def puzzle_list() -> list[PuzzleView]:
    """The FFO puzzles, in order."""
    return [_view(p) for p in ffo_puzzles()]


@router.post("/answer", responses=ERRORS)
async def answer(req: AnswerRequest, analysis: Analysis) -> VerdictView:
    """Judge ``move``: its exact score, the best score and moves, the discs lost."""
    puzzle = _puzzle(req.key, req.variant, req.board)
    answer_move(puzzle, req.move)  # a bad move is refused before it waits for the engine
    verdict = await analysis.judge(puzzle, req.move)
    return VerdictView(**verdict.to_json())


@pages.get("/puzzles", response_class=HTMLResponse)
async def puzzles_page(
    request: Request, templates: Templates, lang: LangDep,
    n: Annotated[int, Query(ge=1, le=99, description="an FFO puzzle")] = 1,
    variant: Annotated[str, Query(max_length=40)] = "standard",
    board: Annotated[str | None, Query(max_length=200, description="a position of one's "
                                       "own (a board string)")] = None,
) -> Response:
    """The puzzle page: FFO #``n``, or ``board`` on ``variant`` (a review's link)."""
    problem = None
    try:
        puzzle = _puzzle(None if board else f"ffo-{n}", variant, board)
    except HasamigoError as exc:
        problem, puzzle = str(exc), ffo_puzzle(1)
    return templates.TemplateResponse(request, "puzzles.html", {
        "request": request, "lang": lang, "other_lang": "en" if lang == "ja" else "ja",
        "puzzle": _view(puzzle).model_dump(), "own": board is not None and problem is None,
        "count": len(ffo_puzzles()), "problem": problem})
