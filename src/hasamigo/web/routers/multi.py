"""The multi-player games (Rolit, 4人対戦オセロ): API and pages, thin over
:class:`~hasamigo.web.services.multi.MultiGameService`.

* ``POST /api/multi`` a new game (:class:`NewMultiGame`): 201 with the creator's
  ``seat_token`` and, online, each other person's ``join_urls``.
* ``POST /api/multi/{id}/join`` a join link's code for a seat token of its own (once).
* ``GET /api/multi/{id}`` the game (every position, for the replay); with a seat token,
  ``your_colours``. Polled by the page while the game is on.
* ``POST /api/multi/{id}/moves`` a move (``Authorization: Bearer <seat token>``, which
  must hold the side to move: 403 ``not_your_seat`` otherwise; an illegal move 422).
* ``GET /api/multi/{id}/record.mgf`` the ``.mgf`` record to download.
* ``POST /api/multi/{id}/seat`` (signed in) a fresh seat token of the seat(s) the account
  holds, to play from this browser (403 ``not_your_seat`` for an account holding none).
* ``GET /api/multi/{id}/rating`` a finished game's rating changes (each with its seat's
  colour), or why it is not rated, in the reader's language.
* Pages: ``/multi`` (a new game), ``/multi/{id}`` (the game and its replay),
  ``/multi/{id}/join?code=…`` (a seat's join link).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import HTMLResponse, PlainTextResponse

from hasamigo.multi import MULTI_GAMES
from hasamigo.web.deps import (
    Address,
    AuthFirst,
    LangDep,
    Multi,
    SeatToken,
    SignedIn,
    Templates,
    Token,
    Viewer,
)
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas_multi import (
    CreatedMultiGame,
    JoinedMultiGame,
    MultiGameView,
    MultiJoinRequest,
    MultiMoveRequest,
    NewMultiGame,
)
from hasamigo.web.services.ratings import verdict_json

router = APIRouter(prefix="/api/multi", tags=["multi-player games"], route_class=AuthFirst)
pages = APIRouter(include_in_schema=False)
GameId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


@router.post("", status_code=201, responses=ERRORS)
async def create_multi_game(req: NewMultiGame, multi: Multi, address: Address,
                            viewer: Viewer) -> CreatedMultiGame:
    """A new game; keep ``seat_token`` (it holds the creator's seat, or every person's
    seat on one screen) and send each ``join_urls`` link to its person. Signed in, the
    creator's seat of an online game is the account's; a ``rated`` game is created signed
    in (401 otherwise), online, between people."""
    view, token, codes = await multi.create(req, address=address, account=viewer)
    return CreatedMultiGame(
        **view.model_dump(), seat_token=token,
        join_urls={colour: f"/multi/{view.id}/join?code={code}"
                   for colour, code in codes.items()})


@router.post("/{game_id}/join", responses=ERRORS)
async def join_multi_game(game_id: GameId, req: MultiJoinRequest, multi: Multi,
                          viewer: Viewer) -> JoinedMultiGame:
    """A join link's code for a seat token (once: a used code is 403); signed in, the
    account holds the seat (a rated game's seat needs it: 401 signed out)."""
    token, colours = await multi.join(game_id, req.code, viewer)
    view = await multi.state(game_id, token)
    return JoinedMultiGame(id=game_id, seat_token=token, your_colours=[
        view.colours[c] for c in sorted(colours)])


@router.post("/{game_id}/seat", responses=ERRORS)
async def multi_account_seat(game_id: GameId, multi: Multi, account: SignedIn
                             ) -> JoinedMultiGame:
    """A fresh seat token of the seat(s) the signed-in account holds in this game, to
    play it from this browser (401 signed out, 403 ``not_your_seat`` for an account
    holding none, 404 for no such game)."""
    token, colours = await multi.account_seat(game_id, account)
    view = await multi.state(game_id, token)
    return JoinedMultiGame(id=game_id, seat_token=token, your_colours=[
        view.colours[c] for c in sorted(colours)])


@router.get("/{game_id}/rating", responses=ERRORS)
async def multi_rating(game_id: GameId, multi: Multi, lang: LangDep) -> dict[str, Any]:
    """A finished game's rating changes (in its seats' turn order, each with its seat's
    ``colour``), or why it is not rated; ``over`` false before its end."""
    live, verdict = await multi.rating(game_id)
    if verdict is None:
        return {"rated": False, "changes": [], "excluded": None,
                "over": live.stored.result is not None}
    answer = verdict_json(verdict, lang)
    rules, stored = live.board.rules, live.stored
    seats = {f"account:{stored.holder(s.colour)}": s for s in stored.seats}
    for change in answer["changes"]:
        seat = seats.get(change["subject"])  # a deleted account's change is gone
        change["colour"] = None if seat is None else rules.colours[seat.colour]
        change["name"] = None if seat is None else seat.name
    return {**answer, "over": True}


@router.get("/{game_id}", responses=ERRORS)
async def get_multi_game(game_id: GameId, multi: Multi, token: Token, response: Response
                         ) -> MultiGameView:
    """The game now, with every position since the start (never cached: the pages poll
    it, and its ``your_colours`` depend on the token)."""
    response.headers["Cache-Control"] = "no-store"
    return await multi.state(game_id, token)


@router.post("/{game_id}/moves", responses=ERRORS)
async def multi_move(game_id: GameId, req: MultiMoveRequest, multi: Multi, token: SeatToken
                     ) -> MultiGameView:
    """A move for the side to move (a square, or ``pass`` when it must)."""
    return await multi.move(game_id, token, req.move, req.colour)


@router.get("/{game_id}/record.mgf", response_class=PlainTextResponse, responses=ERRORS)
async def multi_record(game_id: GameId, multi: Multi) -> Response:
    """The game's record (``.mgf``, documented in ``docs/multi-player.md``)."""
    text = await multi.record(game_id)
    return PlainTextResponse(text, headers={
        "Content-Disposition": f'attachment; filename="hasamigo-{game_id}.mgf"'})


def _page(request: Request, templates: Templates, lang: str, game_id: str | None
          ) -> Response:
    return templates.TemplateResponse(
        request, "multi.html",
        {"request": request, "lang": lang, "other_lang": "en" if lang == "ja" else "ja",
         "game_id": game_id, "games": {
             name: {"colours": list(rules.colours), "symbols": rules.symbols,
                    "seats": [list(seats) for seats in rules.default_seats]}
             for name, rules in MULTI_GAMES.items()}})


@pages.get("/multi", response_class=HTMLResponse)
async def new_multi_page(request: Request, templates: Templates, lang: LangDep) -> Response:
    """A new game of two to four seats."""
    return _page(request, templates, lang, None)


@pages.get("/multi/{game_id}", response_class=HTMLResponse)
async def multi_page(request: Request, game_id: GameId, multi: Multi, templates: Templates,
                     lang: LangDep) -> Response:
    """The game, played or replayed: the page's script reads it with this browser's
    seat token."""
    await multi.state(game_id, None)  # 404 page for an unknown game
    return _page(request, templates, lang, game_id)


@pages.get("/multi/{game_id}/join", response_class=HTMLResponse)
async def multi_join_page(request: Request, game_id: GameId, multi: Multi,
                          templates: Templates, lang: LangDep) -> Response:
    """A seat's join link: the page's script exchanges the code for the seat's token."""
    await multi.state(game_id, None)
    return _page(request, templates, lang, game_id)
