"""The game review API: the engine's verdict on every move of a finished game.

* ``POST /api/games/{id}/review`` starts the review in the background (202), or returns the
  one the game has already (200): a game has one review, however often it is asked for.
  A review that failed is queued again and resumes from its stored rows.
* ``GET /api/games/{id}/review`` the review so far: its status (``queued``, ``running``,
  ``done``, ``failed``), ``reviewed`` of ``total`` moves, and the rows, summary and turning
  point of :meth:`hasamigo.analysis.review.Review.to_json` (404 before a POST).

Who may read the game may review it. Only finished games: an official game in progress
is refused like hints (403 ``official_game``), a casual one until it ends (409
``wrong_phase``: its moves may still be taken back); a board the engine cannot search is
400 ``invalid_option``.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from hasamigo.web.deps import Games, Reviews, Token
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_review import ReviewView
from hasamigo.web.services.review import check_game

router = APIRouter(prefix="/api/games", tags=["review"])


@router.post("/{game_id}/review", status_code=202, responses=ERRORS)
async def start_review(game_id: str, games: Games, reviews: Reviews, token: Token,
                       response: Response) -> ReviewView:
    """Review the game (in the background); poll ``GET`` on the same path."""
    live, _you = await games.reader(game_id, token)
    check_game(live)
    _stored, queued = await reviews.request(live)
    if not queued:
        response.status_code = 200
    return await reviews.view(live)


@router.get("/{game_id}/review", responses=ERRORS)
async def get_review(game_id: str, games: Games, reviews: Reviews, token: Token
                     ) -> ReviewView:
    """The game's review so far (404 if none was started)."""
    live, _you = await games.reader(game_id, token)
    return await reviews.view(live)
