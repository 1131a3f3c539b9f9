"""The analysis API: hints and the evaluation graph (engine work off the event loop).

Both are for casual games and finished ones: an official game in progress gets no help
from the engine (403 ``official_game``)."""

from __future__ import annotations

from fastapi import APIRouter

from hasamigo.game.state import Phase
from hasamigo.web.deps import Analysis, Games, Token
from hasamigo.web.errors import Forbidden
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas import EvaluationsView, HintsView
from hasamigo.web.services.games import GameService, LiveGame

router = APIRouter(prefix="/api/games", tags=["analysis"])


async def _analysable(games: GameService, game_id: str, token: str | None) -> LiveGame:
    live, _you = await games.reader(game_id, token)
    game = live.game
    if not game.options.casual and game.phase is not Phase.OVER:
        raise Forbidden("no hints or evaluations during an official game", "official_game")
    return live


@router.get("/{game_id}/hints", responses=ERRORS)
async def hints(game_id: str, games: Games, analysis: Analysis, token: Token) -> HintsView:
    """Every legal move of the side to move with the engine's score (discs, side to move)."""
    live = await _analysable(games, game_id, token)
    return await analysis.hints(live.game.board)


@router.get("/{game_id}/evaluations", responses=ERRORS)
async def evaluations(game_id: str, games: Games, analysis: Analysis, token: Token
                      ) -> EvaluationsView:
    live = await _analysable(games, game_id, token)
    return await analysis.evaluations(live.game.board)
