"""The board editor: its page (``/editor``) and its API (``/api/positions``).

A set-up position is sent as a board string with its board's name; nothing is stored.
``POST /api/positions/check`` says what the rules make of it (moves, pass, game over,
discs, the explanation notes) and flags it when cheap, sound checks prove that no game
from the start reaches it (:mod:`hasamigo.analysis.reachable`); ``POST
/api/positions/analyse`` scores every move with the engine, as the hints of a game do
(the same service, off the event loop, at the hints' depth). Playing a position out goes
through the new-game API (``POST /api/games`` with ``position``)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from hasamigo.analysis.explain import position_notes
from hasamigo.analysis.reachable import unreachable_flags
from hasamigo.board import Board
from hasamigo.errors import HasamigoError, InvalidOptionError, shown
from hasamigo.squares import bits
from hasamigo.variants import find_variant
from hasamigo.web.deps import Analysis, LangDep, SettingsDep, Templates
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas import HintsView, NoteView
from hasamigo.web.schemas_positions import (
    EDITOR_VARIANTS,
    FlagView,
    PositionCheckView,
    PositionRequest,
)
from hasamigo.web.services.players import EXTERNAL, PROGRAMS

router = APIRouter(prefix="/api/positions", tags=["positions"])
pages = APIRouter(include_in_schema=False)


def editor_variant(name: str) -> type[Board]:
    """The board class of an editor board's name (:data:`EDITOR_VARIANTS`)."""
    if name not in EDITOR_VARIANTS:
        raise InvalidOptionError(f"unknown board {shown(name)}; the editor sets up "
                                 f"{', '.join(EDITOR_VARIANTS)}")
    return find_variant(name)


def editor_board(variant: str, text: str) -> Board:
    """The position of a board string on an editor board (``ParseError`` if unreadable)."""
    return editor_variant(variant).from_string(text)


def analysable(board: Board) -> bool:
    """The engine analyses this board (as a game's ``analysable``: on rules its kernels do
    not know it searches shallowly, by the Board API)."""
    return board.disc_limit is None


def check_position(variant: str, text: str) -> PositionCheckView:
    """What :func:`check` answers (plain Python and the rules' kernels: run off the loop)."""
    board = editor_board(variant, text)
    legal = [board.square_name(sq) for sq in bits(board.legal_moves_mask())]
    over = board.is_game_over()
    outcome = board.outcome()
    black, white = board.counts()
    flags = unreachable_flags(board)
    return PositionCheckView(
        variant=variant, title=board.title, board=board.to_string(),
        cells=board.to_string().split()[0], rows=board.rows, cols=board.cols,
        rings=board.ring_names(),
        turn=board.turn.value,
        legal=legal, must_pass=board.must_pass(), game_over=over,
        winner=None if outcome is None or outcome.winner is None else outcome.winner.value,
        counts={"black": black, "white": white, "empty": board.empties.bit_count()},
        unreachable=bool(flags),
        flags=[FlagView(code=f.code, text=f.en, text_ja=f.ja, squares=list(f.squares))
               for f in flags],
        notes=[NoteView.of(n) for n in position_notes(board)],
        analysable=analysable(board),
    )


@router.post("/check", responses=ERRORS)
async def check(req: PositionRequest) -> PositionCheckView:
    """Check a set-up position: the side to move's moves, whether it must pass or the
    game is over, the discs, the explanation notes (English and Japanese), and the flags.

    A flag proves that no game from the board's start reaches the position; the checks
    are cheap and sound but not complete, so **no flag does not prove it reachable**.
    Checked (see :mod:`hasamigo.analysis.reachable`): a square with a disc at the start is
    empty (``start_square_empty``; discs are never taken off); fewer discs than the start's
    four (``too_few_discs``); under flip rules, a disc not joined to the centre through
    neighbouring discs (``disconnected``; every disc is played next to one), and a side
    not to move with fewer than two discs that has a move (``last_turn``; a move leaves
    the mover two discs, a pass needs no move). Nip's rule skips the last two.

    Refused: an unknown board (400 ``invalid_option``), an unreadable board string (400
    ``parse_error``), a string over 200 characters (422), a body over the server's limit
    (413)."""
    return await asyncio.to_thread(check_position, req.variant, req.board)


@router.post("/analyse", responses=ERRORS)
async def analyse(req: PositionRequest, analysis: Analysis) -> HintsView:
    """Every legal move of the side to move with the engine's score (discs, side to
    move), searched to the hints' depth on the analysis threads (busy: 503; on rules the
    kernels do not know, at most 3 plies by the Board API). None when the side must pass
    or the game is over. Boards with a disc limit are refused (400 ``invalid_option``)."""
    board = editor_board(req.variant, req.board)
    if not analysable(board):
        raise InvalidOptionError(f"the engine does not analyse {board.title}")
    return await analysis.hints(board)


def _programs(board: type[Board], engines: list[tuple[str, str]]) -> list[str]:
    """The opponents of the new-game form that play ``board`` (as the form names them)."""
    from hasamigo.engine.players import plays_every_grid, plays_every_rule

    out = []
    keys = [(key, "engine:5" if key == "engine" else key) for key in PROGRAMS]
    keys += [(f"{EXTERNAL}{key}", f"{EXTERNAL}{key}") for key, _ in engines]
    for key, spec in keys:
        if not board.rules.supports("bitboard") and not plays_every_grid(spec):
            continue
        if board.rules_beyond_kernels() and not plays_every_rule(spec):
            continue
        out.append(key)
    return out


@pages.get("/editor", response_class=HTMLResponse)
async def editor_page(
    request: Request, templates: Templates, lang: LangDep, settings: SettingsDep,
    board: Annotated[str | None, Query(description="a board string (a share link)")] = None,
    variant: Annotated[str, Query(description="the board's name")] = "8x8",
) -> Response:
    """The board editor, opening with ``board`` on ``variant`` (a share link) or with the
    board's start; a link it cannot read opens the start of 8×8 (or of its board) and
    says so."""
    from hasamigo.engine.protocols.config import configured_engines

    engines = [(e.key, e.name) for e in await asyncio.to_thread(configured_engines)]
    bad_link = False
    if variant not in EDITOR_VARIANTS:
        variant, bad_link = "8x8", True
    position = find_variant(variant)()
    if board is not None and not bad_link:
        try:
            position = editor_board(variant, board[:200])
        except HasamigoError:
            bad_link = True
    boards: list[dict[str, Any]] = []
    for name in EDITOR_VARIANTS:
        cls = find_variant(name)
        start = cls()
        boards.append({
            "name": name, "title": cls.title, "rows": cls.rows, "cols": cls.cols,
            "start": start.to_string().split()[0],
            "rings": cls.ring_names(),
            "analysable": analysable(start), "programs": _programs(cls, engines)})
    data = {"variant": variant, "board": position.to_string(), "boards": boards,
            "default_level": settings.default_level}
    return templates.TemplateResponse(request, "editor.html", {
        "request": request, "lang": lang, "other_lang": "en" if lang == "ja" else "ja",
        "data": data, "board_string": position.to_string(), "variant": variant,
        "boards": boards, "bad_link": bad_link, "opponents": list(PROGRAMS),
        "engines": engines, "default_level": settings.default_level,
        "turn": position.turn.value})
