"""Over-the-board games: record entry, record sheets and the official chess clock.

A game over the board is an ordinary game of the controller, declared so by an
:class:`~hasamigo.game.events.OverTheBoard` event right after it is created (through
:meth:`GameService.create`, two people sharing one seat token), so the record, the clock's
presses, a late arrival and the result card are one stored game, and the games API's own
routes (claims, the time-out choice, play-out, acceptance, downloads) work on it as on any
game. The routes here are thin: each turns a request into one controller call under
:meth:`GameService.act`, which commits the events before answering.

Pages: ``/record`` (start a game over the board, blank sheets), ``/record/sheet`` (check a
typed sheet), ``/record/{id}`` (record entry), ``/record/{id}/clock`` (the chess clock,
full screen) and ``/record/{id}/sheet`` (the filled sheet, to print).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from hasamigo.errors import HasamigoError
from hasamigo.game.controller import GameController
from hasamigo.game.entry import bracketed_lines, entry_from_board, entry_from_turned
from hasamigo.game.errors import GameError
from hasamigo.game.procedures.over_board import in_byoyomi, last_move_claimant
from hasamigo.game.state import DecidedFault
from hasamigo.move import BLACK, WHITE, Color
from hasamigo.notation.sheet import check_sheet, read_sheet, sheet_html, sheet_of_moves
from hasamigo.web.deps import (
    Address,
    AuthFirst,
    Client,
    Games,
    LangDep,
    SeatToken,
    Templates,
    Token,
)
from hasamigo.web.errors import Forbidden, NotFound
from hasamigo.web.i18n import Lang as LangCode
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas import (
    CreatedOtb,
    EntryRequest,
    FaultView,
    IllegalClaimRequest,
    LateView,
    MarkView,
    NewGame,
    OtbClockView,
    OtbNewGame,
    OtbView,
    ParticipantRequest,
    PenaltyRequest,
    PenaltyView,
    PressRequest,
    PressView,
    ResultCardRequest,
    SheetCheckRequest,
    SheetCheckView,
    SheetFaultView,
    SuggestionView,
)
from hasamigo.web.services.games import GameService, LiveGame

router = APIRouter()
api = APIRouter(prefix="/api/record", tags=["record"], route_class=AuthFirst)
pages = APIRouter(include_in_schema=False)

Lang = Annotated[str, Query(pattern="^(en|ja)$")]


# ---- views ----------------------------------------------------------------------------------
def _fault(f: Any, decision: str | None = None) -> FaultView:
    return FaultView(move_number=f.move_number, kind=f.kind, squares=list(f.squares),
                     message=f.message, decision=decision)


def _decided(f: DecidedFault) -> FaultView:
    return _fault(f.fault, f.decision)


def otb_view(games: GameService, live: LiveGame, you: frozenset[int]) -> OtbView:
    """The game as the record and clock pages show it (built from the fold; no logic)."""
    game = live.game
    state = game.state
    now = game.now()
    kept = game.over_board  # the over-the-board procedure's own state
    otb = kept.otb
    clock = None
    if state.clock is not None:
        c = state.clock
        colours = (BLACK, WHITE)
        clock = OtbClockView(
            black=round(c.remaining(BLACK, now), 3), white=round(c.remaining(WHITE, now), 3),
            running=None if c.running is None else c.running.value,
            flagged=[x.value for x in colours if c.flagged(x, now)],
            started=otb is None or otb.started,
            starter=(WHITE if otb is None else otb.first.other).value,
            byoyomi=0.0 if otb is None else otb.byoyomi,
            in_byoyomi=[x.value for x in colours if in_byoyomi(state, x, now)],
        )
    late = None
    if kept.late is not None:
        late = LateView(participant=kept.late.participant,
                        name=game.participants[kept.late.participant].name,
                        since=kept.late.since, arrived=kept.late.arrived)
    names = None
    if state.seats is not None:
        names = {"black": game.seat(BLACK).name, "white": game.seat(WHITE).name}
    pending = [] if kept.pending is None else [_fault(f) for f in kept.pending.faults]
    claimant = last_move_claimant(state)
    return OtbView(
        game=games.view(live, you),
        over_the_board=otb is not None,
        clock=clock,
        late=late,
        scheduled=None if otb is None else otb.scheduled,
        pending=pending,
        pending_board=None if kept.pending is None
        else kept.pending.entry.cells(state.board),
        faults=[_decided(f) for f in kept.faults],
        marks=[MarkView(move_number=m.move_number, board=m.board) for m in kept.marks],
        card=None if kept.card is None else list(kept.card),
        presses=kept.presses,
        last_press=None if kept.last_press is None else PressView(
            colour=kept.last_press[0].value, passed=kept.last_press[1]),
        names=names,
        last_move_claimant=None if claimant is None else claimant.value,
        penalties=[PenaltyView(colour=p.colour.value, reason=p.reason, seconds=p.deducted,
                               loss=p.loss) for p in kept.penalties],
    )


# ---- acting ----------------------------------------------------------------------------------
async def _recorder(games: GameService, game_id: str, token: str | None
                    ) -> tuple[LiveGame, frozenset[int]]:
    """The game and the seats of its recorder: the one token holding both seats."""
    live, you = await games.actor(game_id, token)
    if you != frozenset({0, 1}):
        raise Forbidden("a game over the board is kept by the token that holds both seats",
                        "not_your_seat")
    return live, you


async def _act(games: GameService, game_id: str, token: str | None,
               action: Callable[[GameController], Any]) -> OtbView:
    live, you = await _recorder(games, game_id, token)
    await games.act(live, lambda live: action(live.game))
    return otb_view(games, live, you)


@api.post("/games", status_code=201, responses=ERRORS)
async def create_game(req: OtbNewGame, games: Games, client: Client, address: Address
                      ) -> CreatedOtb:
    """A game over the board: its clock waits for the first press (White's, rule 5)."""
    created = await games.create(NewGame(
        opponent="person", same_screen=True, names=req.names, colour=req.colour,
        handicap=req.handicap, clock_minutes=req.clock_minutes, casual=req.casual,
        draws_allowed=req.draws_allowed, ranks=req.ranks, birth_years=req.birth_years,
        public=req.public), client=client, address=address)
    live = created.live
    await games.act(live, lambda live: live.game.declare_over_the_board(
        scheduled=req.scheduled_start, byoyomi=req.byoyomi_seconds))
    return CreatedOtb(seat_token=created.token, game=otb_view(games, live, created.seats))


@api.get("/games/{game_id}", responses=ERRORS)
async def get_game(game_id: str, games: Games, token: Token) -> OtbView:
    live, you = await games.refresh(game_id, token)
    return otb_view(games, live, you)


@api.post("/games/{game_id}/press", responses=ERRORS)
async def press(game_id: str, req: PressRequest, games: Games, token: SeatToken) -> OtbView:
    """A clock button pressed: that side's turn ends (``passed``: with a pass)."""
    colour = Color.parse(req.colour)
    return await _act(games, game_id, token, lambda g: g.press(colour, passed=req.passed))


@api.post("/games/{game_id}/absent", responses=ERRORS)
async def absent(game_id: str, req: ParticipantRequest, games: Games, token: SeatToken
                 ) -> OtbView:
    """A player is not there at the start: their clock runs from the scheduled start."""
    return await _act(games, game_id, token, lambda g: g.absent(req.participant))


@api.post("/games/{game_id}/arrive", responses=ERRORS)
async def arrive(game_id: str, req: ParticipantRequest, games: Games, token: SeatToken
                 ) -> OtbView:
    return await _act(games, game_id, token, lambda g: g.arrive(req.participant))


@api.post("/games/{game_id}/forfeit", responses=ERRORS)
async def late_forfeit(game_id: str, req: ParticipantRequest, games: Games, token: SeatToken
                       ) -> OtbView:
    """The late player chooses a forfeit loss (64–0, not rated) instead of playing."""
    return await _act(games, game_id, token, lambda g: g.late_forfeit(req.participant))


@api.post("/games/{game_id}/illegal", responses=ERRORS)
async def claim_illegal(game_id: str, req: IllegalClaimRequest, games: Games, token: SeatToken
                        ) -> OtbView:
    """``colour`` claims the opponent's last move was illegal (in byo-yomi: a time-out)."""
    colour = Color.parse(req.colour)
    return await _act(games, game_id, token, lambda g: g.claim_illegal(colour))


@api.post("/games/{game_id}/penalty", responses=ERRORS)
async def penalty(game_id: str, req: PenaltyRequest, games: Games, token: SeatToken
                  ) -> OtbView:
    """The arbiter's penalty (rule 21): time off a clock, or a loss by penalty; the
    reason is kept in the game's events."""
    colour = Color.parse(req.colour)
    return await _act(games, game_id, token,
                      lambda g: g.penalise(colour, req.reason, seconds=req.seconds,
                                           loss=req.loss))


def _enter(game: GameController, req: EntryRequest) -> None:
    board = game.board
    by = Color.parse_optional(req.by)
    if req.board is not None:
        game.enter(entry_from_board(board, req.board, by=by, square=req.square))
        return
    turned: list[int | str] | None = None if req.turned is None else list(req.turned)
    colour = Color.parse_optional(req.colour)
    game.enter(entry_from_turned(board, req.square, colour, turned, by=by))


@api.post("/games/{game_id}/entries", responses=ERRORS)
async def enter_move(game_id: str, req: EntryRequest, games: Games, token: SeatToken) -> OtbView:
    """A move as played on the board; faults are named in ``pending`` and wait for
    ``entries/correct`` or ``entries/keep``."""
    return await _act(games, game_id, token, lambda g: _enter(g, req))


@api.post("/games/{game_id}/entries/correct", responses=ERRORS)
async def correct_entry(game_id: str, games: Games, token: SeatToken) -> OtbView:
    return await _act(games, game_id, token, lambda g: g.correct_entry())


@api.post("/games/{game_id}/entries/keep", responses=ERRORS)
async def keep_board(game_id: str, games: Games, token: SeatToken) -> OtbView:
    return await _act(games, game_id, token, lambda g: g.keep_board())


def _undo_entry(game: GameController) -> None:
    last = next((m.colour for m in reversed(game.history) if not m.move.is_pass), None)
    if last is None:
        raise GameError("there is no entry to take back", "nothing_to_undo")
    game.request_undo(last)
    game.undo(last)


@api.post("/games/{game_id}/entries/undo", responses=ERRORS)
async def undo_entry(game_id: str, games: Games, token: SeatToken) -> OtbView:
    """Take back the last move entered (the recorder's slip), with the passes after it."""
    return await _act(games, game_id, token, _undo_entry)


@api.post("/games/{game_id}/card", responses=ERRORS)
async def result_card(game_id: str, req: ResultCardRequest, games: Games, token: SeatToken
                      ) -> OtbView:
    """The signed result card (rule 18): counts not adding up to 64 count against the
    winner; once handed in, no time-out can be claimed."""
    return await _act(games, game_id, token, lambda g: g.hand_in_card(req.black, req.white))


@api.get("/games/{game_id}/bracketed", responses=ERRORS)
async def bracketed(game_id: str, square: str, games: Games, token: Token,
                    colour: str | None = Query(None, pattern="^(black|white)$")
                    ) -> list[str]:
    """The discs a disc of ``colour`` (default: the side to move) on ``square`` brackets
    now: what the entry page turns by default."""
    live, _you = await games.reader(game_id, token)
    board = live.game.board
    sq = board.parse_square(square)
    placed = Color.parse_optional(colour) or board.turn
    return [board.square_name(s) for line, _end in bracketed_lines(board, sq, placed)
            for s in line]


@api.get("/games/{game_id}/sheet", response_class=HTMLResponse, responses=ERRORS)
async def filled_sheet(game_id: str, games: Games, token: Token, lang: Lang = "en"
                       ) -> Response:
    """The game's record sheet, filled, as a printable page (the reader's token)."""
    live, _you = await games.reader(game_id, token)
    game = live.game
    state = game.state
    names = ("", "") if state.seats is None else (game.seat(BLACK).name,
                                                  game.seat(WHITE).name)
    board = game.board
    try:
        sheet = sheet_of_moves(board.move_stack, type(board),
                               handicap=game.options.handicap)
    except HasamigoError as exc:
        raise GameError(f"this game has no record sheet: {exc}") from exc
    score = None if state.result is None else state.result.score  # the game's own scoring
    page = sheet_html(sheet, lang=lang, black=names[0], white=names[1],
                      result=None if score is None else (score.black, score.white))
    return HTMLResponse(page)


@api.post("/sheets/check", responses=ERRORS)
async def check(req: SheetCheckRequest) -> SheetCheckView:
    """Check a typed record sheet: a legal game, or the faults from the first move
    number where it fails and the likely fix."""
    # on a thread: a faulty sheet's fix is searched by replaying hundreds of candidates
    sheet = read_sheet(req.text, handicap=req.handicap, first=Color.parse_optional(req.first))
    result = await asyncio.to_thread(check_sheet, sheet)
    return SheetCheckView(
        ok=result.ok, transcript=result.transcript,
        faults=[SheetFaultView(**f.to_json()) for f in result.faults],
        suggestion=None if result.suggestion is None else SuggestionView(
            description=result.suggestion.description,
            transcript=result.suggestion.transcript))


# ---- pages -------------------------------------------------------------------------------------
def _context(request: Request, lang: str, **extra: Any) -> dict[str, Any]:
    language: LangCode = "ja" if lang == "ja" else "en"
    return {"request": request, "lang": language,
            "other_lang": "en" if language == "ja" else "ja", **extra}


@pages.get("/record", response_class=HTMLResponse)
async def record_home(
        request: Request, templates: Templates, lang: LangDep,
        black: Annotated[str | None, Query(max_length=40)] = None,
        white: Annotated[str | None, Query(max_length=40)] = None,
        colours: Annotated[Literal["black", "fuse-ishi"] | None, Query()] = None,
        no_draws: bool = False) -> Response:
    """The form for a new game over the board, filled in when the link gives the players
    (a tournament board: ``?black=…&white=…&colours=fuse-ishi&no_draws=true``)."""
    prefill = {"names": [black or "", white or ""], "colours": colours or "black",
               "no_draws": no_draws}
    return templates.TemplateResponse(request, "record_new.html",
                                      _context(request, lang, prefill=prefill))


@pages.get("/record/sheet", response_class=HTMLResponse)
async def sheet_page(request: Request, templates: Templates, lang: LangDep) -> Response:
    return templates.TemplateResponse(request, "record_check.html", _context(request, lang))


@pages.get("/record/sheet/blank", response_class=HTMLResponse)
async def blank_sheet(lang: LangDep, handicap: int = Query(0, ge=0, le=4)) -> Response:
    """A blank record sheet to print (headings in the page's language: ``?lang=ja``)."""
    return HTMLResponse(sheet_html(lang=lang, handicap=handicap))


async def _game_page(request: Request, games: GameService, templates: Templates, lang: str,
                     game_id: str, template: str) -> Response:
    try:
        await games.get(game_id)
    except NotFound:
        return templates.TemplateResponse(request, "not_found.html",
                                          _context(request, lang, game_id=game_id[:32]),
                                          status_code=404)
    return templates.TemplateResponse(request, template,
                                      _context(request, lang, game_id=game_id))


@pages.get("/record/{game_id}", response_class=HTMLResponse)
async def entry_page(request: Request, game_id: str, games: Games, templates: Templates,
                     lang: LangDep) -> Response:
    """Record entry: the page's script reads the game with this browser's seat token."""
    return await _game_page(request, games, templates, lang, game_id, "record_entry.html")


@pages.get("/record/{game_id}/clock", response_class=HTMLResponse)
async def clock_page(request: Request, game_id: str, games: Games, templates: Templates,
                     lang: LangDep) -> Response:
    """The chess clock, full screen."""
    return await _game_page(request, games, templates, lang, game_id, "clock.html")


@pages.get("/record/{game_id}/sheet", response_class=HTMLResponse)
async def print_page(request: Request, game_id: str, games: Games, templates: Templates,
                     lang: LangDep) -> Response:
    """The filled sheet to print (fetched with the seat token)."""
    return await _game_page(request, games, templates, lang, game_id, "record_sheet.html")


router.include_router(api)
router.include_router(pages)

__all__ = ["otb_view", "router"]
