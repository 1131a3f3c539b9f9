"""HTML pages: new game, the game, the library and the replay."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from hasamigo.web.deps import Client, Games, LangDep, Reviews, SettingsDep, Templates
from hasamigo.web.errors import NotFound
from hasamigo.web.i18n import LANGS
from hasamigo.web.routers.games import Filters, summary_view
from hasamigo.web.services.games import GameService
from hasamigo.web.services.players import PROGRAMS

router = APIRouter(include_in_schema=False)


def _context(request: Request, lang: str, **extra: Any) -> dict[str, Any]:
    return {"request": request, "lang": lang, "other_lang": "en" if lang == "ja" else "ja",
            **extra}


FAVICON = Path(__file__).resolve().parents[1] / "static" / "favicon.ico"


@router.get("/favicon.ico")
async def favicon() -> Response:
    """The icon where browsers, bookmarks and pages without a ``<link rel=icon>`` look for
    it (the pages name ``/static/favicon.svg``); cached for a day."""
    return FileResponse(FAVICON, media_type="image/x-icon",
                        headers={"Cache-Control": "public, max-age=86400"})


@router.get("/", response_class=HTMLResponse)
async def new_game_page(request: Request, templates: Templates, lang: LangDep,
                        settings: SettingsDep) -> Response:
    from hasamigo.board import Board
    from hasamigo.engine.players import PROGRAMS as REGISTRY
    from hasamigo.engine.players import program_kernels
    from hasamigo.engine.protocols.config import configured_engines
    from hasamigo.player_spec import PlayerSpec
    from hasamigo.ratings.calibration import program_ratings
    from hasamigo.rules import WORDS

    opponents = [*PROGRAMS, "person"]
    # the kernel groups each opponent needs on 8×8: on a fresh server the form says which
    # are still getting ready (GET /api/status), and that a game may start meanwhile; the
    # engine's at the form's level (its levels share their kernels)
    def spec(key: str) -> PlayerSpec | str:
        levels = key in REGISTRY and REGISTRY[key].levels
        return PlayerSpec(key, level=settings.default_level) if levels else key

    needs = {key: " ".join(sorted(program_kernels(spec(key), Board)[0])) for key in opponents}
    # Fairy Othello's words that are the project's readings (オセロ is the normal rule and
    # オセレ, the seed's, has its own line): by option name, with kana and parts
    fairy_words = [(name, f"{w.kana} ({w.reading})") for name, w in WORDS.items()
                   if not w.from_seed]
    # the external engines of the settings file: offered by key and display name
    engines = [(e.key, e.name) for e in await asyncio.to_thread(configured_engines)]
    # the programs' measured ratings (hasamigo ratings calibrate, docs/ratings.md)
    measured = await asyncio.to_thread(program_ratings)
    return templates.TemplateResponse(
        request, "new_game.html",
        _context(request, lang, opponents=opponents, needs=needs, engines=engines,
                 default_level=settings.default_level, fairy_words=fairy_words,
                 program_ratings=measured,
                 level_ratings={level: rating for level in range(1, 11)
                                if (rating := measured.get(f"engine:{level}"))}),
    )


def _line(name: str, line: str) -> tuple[Any, list[dict[str, Any]]]:
    """The board at the end of ``line`` played from ``name``'s start, and the positions
    on the way (the start first) as the page's slider shows them."""
    from hasamigo.notation import parse_transcript
    from hasamigo.variants import find_variant

    board = find_variant(name)()
    positions = [{"cells": board.to_string().split()[0], "move": None}]
    for move in parse_transcript(line, board):
        positions.append({"cells": "", "move": board.move_name(move)})
        board.push(move)
        positions[-1]["cells"] = board.to_string().split()[0]
    return board, positions


@functools.cache
def _solved_lines() -> list[dict[str, Any]]:
    """Each solved board: its name, size, result and the positions of its perfect line
    (replayed once per process: the lines are constants)."""
    from hasamigo.engine.smallboard import SOLVED_LINES

    boards = []
    for name, line in SOLVED_LINES.items():
        board, positions = _line(name, line)
        outcome = board.outcome()
        assert outcome is not None
        boards.append({"name": name, "title": board.title, "rows": board.rows,
                       "cols": board.cols, "black": outcome.black, "white": outcome.white,
                       "positions": positions})
    return boards


@functools.cache
def _published_line() -> dict[str, Any]:
    """8×8's published perfect line (quoted: :mod:`hasamigo.engine.known`), replayed."""
    from hasamigo.engine.known import PUBLISHED

    result = PUBLISHED["8x8"]
    _board, positions = _line("standard", result.line)
    return {"name": "8x8", "rows": 8, "cols": 8, "black": result.black,
            "white": result.white, "source": result.source, "url": result.url,
            "positions": positions}


@router.get("/solved", response_class=HTMLResponse)
async def solved_page(request: Request, templates: Templates, lang: LangDep) -> Response:
    """What is known of perfect play: the small boards solved here, 8×8's published draw
    quoted with its line."""
    return templates.TemplateResponse(
        request, "solved.html", _context(request, lang, boards=_solved_lines(),
                                         published=_published_line()))


async def _exists(games: GameService, game_id: str) -> bool:
    try:
        await games.get(game_id)
    except NotFound:
        return False
    return True


def _not_found(request: Request, templates: Jinja2Templates, lang: str, game_id: str
               ) -> Response:
    return templates.TemplateResponse(
        request, "not_found.html", _context(request, lang, game_id=game_id[:32]),
        status_code=404)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str, games: Games, templates: Templates,
                    lang: LangDep) -> Response:
    """The game's page. It holds no state: the page's script reads the game with the seat
    token this browser keeps (or as a spectator of a public game)."""
    if not await _exists(games, game_id):
        return _not_found(request, templates, lang, game_id)
    return templates.TemplateResponse(request, "game.html",
                                      _context(request, lang, game_id=game_id))


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str, games: Games, reviews: Reviews,
                      templates: Templates, lang: LangDep) -> Response:
    """The replay. The page says whether the game has a review, so that its script asks
    for one only then (a game without one would answer 404)."""
    if not await _exists(games, game_id):
        return _not_found(request, templates, lang, game_id)
    reviewed = await asyncio.to_thread(reviews.repo.get, game_id) is not None
    return templates.TemplateResponse(request, "replay.html",
                                      _context(request, lang, game_id=game_id,
                                               reviewed=reviewed))


@router.get("/games/{game_id}/join", response_class=HTMLResponse)
async def join_page(request: Request, game_id: str, games: Games, templates: Templates,
                    lang: LangDep) -> Response:
    """The second person's link: the page's script exchanges the link's code for a seat
    token, keeps it, and opens the game."""
    if not await _exists(games, game_id):
        return _not_found(request, templates, lang, game_id)
    return templates.TemplateResponse(request, "join.html",
                                      _context(request, lang, game_id=game_id))


@router.get("/library", response_class=HTMLResponse)
async def library_page(request: Request, games: Games, templates: Templates,
                       lang: LangDep, client: Client, filters: Filters, settings: SettingsDep,
                       empty: Annotated[bool, Query(description="list games without a "
                                                    "move too")] = False) -> Response:
    """This browser's games (created or joined here) with at least one move unless
    ``empty``, newest update first, filtered as ``GET /api/games``; and the public games
    in play."""
    chosen = {**filters.repository_filters(), "min_moves": 0 if empty else 1}
    mine = await asyncio.to_thread(functools.partial(
        games.repo.summaries, client=client, **chosen, limit=200))
    # the games created here: only their creator's seat may delete them
    created = await asyncio.to_thread(functools.partial(
        games.repo.summaries, creator=client, **chosen, limit=200))
    ids = {g.id for g in mine}
    public = await asyncio.to_thread(games.repo.summaries, public_only=True,
                                     exclude_phase="over", min_moves=0, limit=50)
    return templates.TemplateResponse(
        request, "library.html",
        _context(request, lang, games=[summary_view(r) for r in mine],
                 created={g.id for g in created},
                 public_games=[summary_view(r) for r in public if r.id not in ids],
                 filters=filters, empty=empty, opponents=[*PROGRAMS, "person"],
                 import_limit=settings.max_import_bytes,
                 filtered=empty or any(v is not None for v in (
                     filters.opponent, filters.result, filters.since, filters.until))))


@router.get("/lang/{code}")
async def set_language(code: str, next: str = "/") -> Response:
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGS:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax")
    return response
