"""The lobby (issue 67), thin over :class:`~hasamigo.web.services.lobby.LobbyService`.

* ``GET /api/lobby`` the lobby: open challenges, public games being played between
  people, how many wait, and for a signed-in viewer its rating, waiting, unfinished games
  (whose move) and the games its challenges became. An ``ETag``; ``If-None-Match``
  with it is a 304 (the page polls every few seconds).
* ``POST /api/lobby/challenges`` (:class:`ChallengeRequest`, signed in) an open challenge:
  201 with it.
* ``POST /api/lobby/challenges/{id}/accept`` (signed in, not the poster) the game made:
  ``{"game_id", "url", "challenge"}``; 409 if someone else took it first, or it is no
  longer open. Each player then asks for its seat token
  (``POST /api/games/{game_id}/seat``; the game page does).
* ``DELETE /api/lobby/challenges/{id}`` cancels it (its poster only: 403 for anyone
  else); 204.
* ``POST /api/lobby/waiting`` "play someone near my rating": on the waiting list (or still
  there: the page calls it every few seconds, and an entry not called for 30 seconds
  lapses), paired when someone is near enough; ``game_id`` once the game is made.
  ``DELETE /api/lobby/waiting`` leaves the list; 204.

The page: ``/lobby``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse

from hasamigo.lobby import Terms
from hasamigo.lobby.model import DAYS, DEFAULT_MINUTES, MINUTES, VARIANTS
from hasamigo.variants import find_variant
from hasamigo.web.deps import (
    Address,
    AuthFirst,
    LangDep,
    Services,
    SignedIn,
    Templates,
    Viewer,
)
from hasamigo.web.keyed_text import board_name
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_lobby import ChallengeRequest

router = APIRouter(prefix="/api/lobby", tags=["lobby"], route_class=AuthFirst)
pages = APIRouter(include_in_schema=False)

ChallengeId = Annotated[str, Path(pattern=r"^[0-9a-f]{16}$",
                                  description="the challenge's id (16 hex digits)")]


@router.get("", responses={**ERRORS, 304: {"description": "unchanged since the ETag"}})
async def lobby_state(request: Request, services: Services, viewer: Viewer) -> Response:
    """The lobby as the page shows it; 304 when ``If-None-Match`` names its ETag."""
    state = await services.lobby.state(viewer, request.headers.get("if-none-match"))
    headers = {"ETag": state.etag, "Cache-Control": "no-cache"}
    if state.body is None:
        return Response(status_code=304, headers=headers)
    return JSONResponse(state.body, headers=headers)


@router.post("/challenges", status_code=201, responses=ERRORS)
async def post_challenge(req: ChallengeRequest, account: SignedIn,
                         services: Services) -> dict[str, Any]:
    """Post an open challenge (at most 5 open at once)."""
    minutes = None if req.days_per_move is not None and "clock_minutes" not in \
        req.model_fields_set else req.clock_minutes
    terms = Terms.check(req.variant, minutes, req.days_per_move, req.rated, req.colour,
                        req.public)
    challenge = await services.lobby.post(account, terms)
    return challenge.to_json()


@router.post("/challenges/{challenge_id}/accept", responses=ERRORS)
async def accept_challenge(challenge_id: ChallengeId, account: SignedIn,
                           services: Services, address: Address) -> dict[str, Any]:
    """Accept another player's open challenge: its game is made, both seats held by the
    two accounts."""
    challenge, game_id = await services.lobby.accept(account, challenge_id, address)
    return {"game_id": game_id, "url": f"/games/{game_id}",
            "challenge": {**challenge.to_json(), "game_id": game_id}}


@router.delete("/challenges/{challenge_id}", status_code=204, responses=ERRORS)
async def cancel_challenge(challenge_id: ChallengeId, account: SignedIn,
                           services: Services) -> Response:
    """Cancel one's own open challenge."""
    await services.lobby.cancel(account, challenge_id)
    return Response(status_code=204)


@router.post("/waiting", responses=ERRORS)
async def wait(account: SignedIn, services: Services, address: Address) -> dict[str, Any]:
    """Wait to be paired with someone near one's rating (a rated 8×8 game, 20 minutes a
    side, colours drawn at random); call again every few seconds to stay on the list."""
    return await services.lobby.wait(account, address)


@router.delete("/waiting", status_code=204, responses=ERRORS)
async def leave(account: SignedIn, services: Services) -> Response:
    """Leave the waiting list (not once paired: the game is being made)."""
    await services.lobby.leave(account)
    return Response(status_code=204)


# ---- the page ----------------------------------------------------------------------------
@pages.get("/lobby", response_class=HTMLResponse)
async def lobby_page(request: Request, templates: Templates, lang: LangDep,
                     viewer: Viewer) -> Response:
    """The lobby: challenges to accept or post, the waiting button, games to watch, one's
    own games (its script polls ``GET /api/lobby``)."""
    boards = {name: board_name(lang, name)
              for v in VARIANTS for name in (v, find_variant(v).name)}
    return templates.TemplateResponse(request, "lobby.html", {
        "request": request, "lang": lang, "other_lang": "en" if lang == "ja" else "ja",
        "viewer": viewer, "variants": VARIANTS, "minutes": MINUTES, "boards": boards,
        "default_minutes": DEFAULT_MINUTES, "days": DAYS})


__all__ = ["pages", "router"]
