"""HTML pages: new game, the game, the library and the replay."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from hasamigo.web.deps import Games, LangDep, SettingsDep, Templates
from hasamigo.web.i18n import LANGS, strings
from hasamigo.web.routers.games import summary_view
from hasamigo.web.services.games import NotFound
from hasamigo.web.services.players import PROGRAMS

router = APIRouter(include_in_schema=False)


def _context(request: Request, lang: str, **extra: Any) -> dict[str, Any]:
    s = strings("ja" if lang == "ja" else "en")
    return {"request": request, "lang": lang, "t": s, "other_lang": "en" if lang == "ja" else "ja",
            **extra}


@router.get("/", response_class=HTMLResponse)
async def new_game_page(request: Request, templates: Templates, lang: LangDep,
                        settings: SettingsDep) -> Response:
    opponents = [*PROGRAMS, "person"]
    return templates.TemplateResponse(
        request, "new_game.html",
        _context(request, lang, opponents=opponents, default_level=settings.default_level),
    )


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str, games: Games, templates: Templates,
                    lang: LangDep) -> Response:
    try:
        live = await games.refresh(game_id)
    except NotFound:
        return templates.TemplateResponse(
            request, "not_found.html", _context(request, lang, game_id=game_id), status_code=404
        )
    view = games.view(live)
    return templates.TemplateResponse(
        request, "game.html", _context(request, lang, game=view)
    )


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str, games: Games, templates: Templates,
                      lang: LangDep) -> Response:
    try:
        live = await games.get(game_id)
    except NotFound:
        return templates.TemplateResponse(
            request, "not_found.html", _context(request, lang, game_id=game_id), status_code=404
        )
    view = games.view(live)
    record = live.game.record()
    start = record.board()
    return templates.TemplateResponse(
        request, "replay.html",
        _context(request, lang, game=view, start=start.to_string()),
    )


@router.get("/library", response_class=HTMLResponse)
async def library_page(request: Request, games: Games, templates: Templates,
                       lang: LangDep) -> Response:
    rows = await asyncio.to_thread(games.repo.summaries, limit=200)
    return templates.TemplateResponse(
        request, "library.html", _context(request, lang, games=[summary_view(r) for r in rows])
    )


@router.get("/lang/{code}")
async def set_language(code: str, next: str = "/") -> Response:
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGS:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax")
    return response
