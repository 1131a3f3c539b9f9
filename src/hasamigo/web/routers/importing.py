"""``POST /api/games/import``: a game of a transcript, GGF text or WTHOR archive brought
into this browser's library, to replay and review (:mod:`hasamigo.web.services.importing`).

The body is JSON (a WTHOR archive as base64), bounded by ``Settings.max_import_bytes``
instead of the other routes' ``max_body_bytes``; imports count as new games for the
rate limit. A malformed file is 400 ``parse_error`` naming the place and the move.
"""

from __future__ import annotations

from fastapi import APIRouter

from hasamigo.game.state import Phase
from hasamigo.web.deps import Address, Client, Games
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_import import ImportedGame, ImportRequest
from hasamigo.web.services.importing import import_game

#: the route's path, for its own body limit (see ``create_app``)
IMPORT_PATH = "/api/games/import"

router = APIRouter(tags=["games"])


@router.post(IMPORT_PATH, status_code=201, responses=ERRORS)
async def import_a_game(req: ImportRequest, games: Games, client: Client, address: Address
                        ) -> ImportedGame:
    """Import one game; the answer carries this browser's ``seat_token`` for it (the game
    is private unless ``public``: replaying and reviewing it need the token)."""
    created = await import_game(games, req, client=client, address=address)
    view = games.view(created.live, created.seats)
    return ImportedGame(**view.model_dump(), seat_token=created.token,
                        finished=created.live.game.phase is Phase.OVER)


__all__ = ["IMPORT_PATH", "router"]
