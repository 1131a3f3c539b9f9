"""The analysis API: hints and the evaluation graph (engine work off the event loop)."""

from __future__ import annotations

from fastapi import APIRouter

from hasamigo.web.deps import Analysis, Games
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas import EvaluationsView, HintsView

router = APIRouter(prefix="/api/games", tags=["analysis"])


@router.get("/{game_id}/hints", responses=ERRORS)
async def hints(game_id: str, games: Games, analysis: Analysis) -> HintsView:
    """Every legal move of the side to move with the engine's score (discs, side to move)."""
    live = await games.get(game_id)
    return await analysis.hints(live.game.board)


@router.get("/{game_id}/evaluations", responses=ERRORS)
async def evaluations(game_id: str, games: Games, analysis: Analysis) -> EvaluationsView:
    live = await games.get(game_id)
    return await analysis.evaluations(game_id, live.game.board)
