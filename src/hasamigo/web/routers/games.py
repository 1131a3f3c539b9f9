"""The games API: create, join, read, act; downloads. Thin over :class:`GameService`.

Every action carries the seat token of the seat it acts for, as
``Authorization: Bearer <token>``: no token is 401, a token that does not hold the seat
403, and neither changes anything. Reading a game needs a seat token too, unless its
creator made it public.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from datetime import time as day_time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Response
from fastapi.responses import PlainTextResponse
from pydantic import BeforeValidator

from hasamigo.board import Board
from hasamigo.errors import HasamigoError
from hasamigo.game.errors import GameError
from hasamigo.move import Color
from hasamigo.notation import format_ggf, write_transcript
from hasamigo.squares import bits
from hasamigo.storage.repository import GameSummary
from hasamigo.web.deps import (
    Address,
    AuthFirst,
    Client,
    Games,
    SeatToken,
    SignedIn,
    Token,
    Viewer,
)
from hasamigo.web.schemas import (
    ClaimRequest,
    ColourAction,
    ColourName,
    ColourStep,
    CreatedGame,
    ErrorResponse,
    GameSummaryView,
    GameView,
    JoinedGame,
    JoinRequest,
    LibraryResult,
    MoveRequest,
    NewGame,
    OpponentSpec,
    PositionView,
    PublicRequest,
    ScoringRequest,
    TimeoutChoice,
)
from hasamigo.web.services.games import LiveGame
from hasamigo.web.views import colour_name

router = APIRouter(prefix="/api/games", tags=["games"], route_class=AuthFirst)
ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorResponse}
    for code in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}


#: where each action of a game recorded over the board goes instead (the record entry)
RECORD_ROUTES = {"move": "entries", "take-back": "entries/undo", "resignation": "card"}


def refuse_recorded(live: LiveGame, action: str) -> None:
    """A game recorded over the board takes its moves, take-backs and result only through
    the record entry (``/record/…``), so the as-played record, clock presses and faults
    included, is the only way to a rated result: the ordinary routes answer 409 there."""
    if live.game.over_board.otb is not None:
        raise GameError(
            f"this game is recorded over the board: its {action} goes through the record "
            f"entry (POST /api/record/games/{live.id}/{RECORD_ROUTES[action]}, the page "
            f"/record/{live.id})", "wrong_phase")


def summary_view(s: GameSummary) -> GameSummaryView:
    score = None if s.result_black is None else f"{s.result_black}–{s.result_white}"
    return GameSummaryView(
        id=s.id, created_at=s.created_at.isoformat(), updated_at=s.updated_at.isoformat(),
        phase=s.phase, variant=s.variant, black=s.black, white=s.white, opponent=s.opponent,
        casual=s.casual, move_count=s.move_count, score=score, winner=s.winner,
        termination=s.termination, public=s.public,
        your_colour=None if s.your_colour is None else Color.parse(s.your_colour).value,
        scoring=s.scoring,
    )


def _day_start(day: date | None, tz: int, *, after: bool = False) -> datetime | None:
    """The instant a local day starts (``after``: the next day's start), ``tz`` minutes
    west of UTC as JavaScript's ``getTimezoneOffset()`` gives it; ``None`` (no bound)
    beyond the calendar's ends."""
    if day is None:
        return None
    try:
        if after:
            day += timedelta(days=1)
        return datetime.combine(day, day_time(0), UTC) + timedelta(minutes=tz)
    except OverflowError:
        return None


def _blank(value: object) -> object:
    """An empty query parameter (a filter form's "all") is no filter."""
    return None if value == "" else value


@dataclass(frozen=True, slots=True)
class LibraryFilters:
    """The library's filters (query parameters of ``GET /api/games`` and ``/library``)."""

    opponent: str | None = None
    result: LibraryResult | None = None
    since: date | None = None
    until: date | None = None
    tz: int = 0

    def repository_filters(self) -> dict[str, Any]:
        """Keyword arguments of :meth:`GameRepository.summaries`."""
        return {"opponent": self.opponent, "result": self.result,
                "updated_from": _day_start(self.since, self.tz),
                "updated_before": _day_start(self.until, self.tz, after=True)}


def library_filters(
    opponent: Annotated[OpponentSpec | None, BeforeValidator(_blank),
                        Query(description="a program (victory; engine for every level, "
                              "engine:5 …) or person")] = None,
    result: Annotated[LibraryResult | None, BeforeValidator(_blank),
                      Query(description="seen from the colour you played "
                            "(your_colour)")] = None,
    since: Annotated[date | None, BeforeValidator(_blank),
                     Query(description="last updated on or after this day")] = None,
    until: Annotated[date | None, BeforeValidator(_blank),
                     Query(description="last updated on or before this day")] = None,
    tz: Annotated[int, Query(ge=-840, le=840, description="minutes west of UTC of the "
                             "days (JavaScript's getTimezoneOffset()); 0: UTC")] = 0,
) -> LibraryFilters:
    return LibraryFilters(opponent, result, since, until, tz)


Filters = Annotated[LibraryFilters, Depends(library_filters)]


@router.post("", status_code=201, responses=ERRORS)
async def create_game(req: NewGame, games: Games, client: Client, address: Address,
                      viewer: Viewer) -> CreatedGame:
    """A new game. The answer carries the creator's ``seat_token``; with a second person
    in another browser, the ``join_url`` to send them. Signed in, the creator's account
    holds the seat (``POST /api/games/{id}/seat`` gives it a token in another browser)
    and, unless the request names the players, plays under the account's name."""
    if viewer is not None and req.names is None \
            and not (req.opponent == "person" and req.same_screen):
        req = req.model_copy(update={"names": (viewer.name, "Player 2")})
    created = await games.create(req, client=client, address=address,
                                 account=None if viewer is None else viewer.id)
    live = created.live
    view = games.view(live, created.seats)
    join = None if created.join_code is None else \
        f"/games/{live.id}/join?code={created.join_code}"
    return CreatedGame(**view.model_dump(), seat_token=created.token, join_url=join)


@router.get("", responses=ERRORS)
async def list_games(games: Games, client: Client, filters: Filters,
                     scope: Literal["mine", "public"] = "mine",
                     min_moves: int = Query(0, ge=0, le=1000, description="at least this "
                                            "many plies (the library page asks for 1)"),
                     limit: int = Query(100, ge=1, le=500),
                     offset: int = Query(0, ge=0, le=1_000_000)) -> list[GameSummaryView]:
    """Your games (created or joined from this browser), or the public games; newest
    update first, filtered by opponent, result (from the colour you played), days of
    the last update and moves played."""
    mine: dict[str, Any] = {"public_only": True} if scope == "public" else {"client": client}
    rows = await asyncio.to_thread(functools.partial(
        games.repo.summaries, **mine, **filters.repository_filters(), min_moves=min_moves,
        limit=limit, offset=offset))
    return [summary_view(r) for r in rows]


@router.get("/{game_id}", responses=ERRORS)
async def get_game(game_id: str, games: Games, token: Token) -> GameView:
    live, you = await games.refresh(game_id, token)
    return games.view(live, you)


@router.delete("/{game_id}", status_code=204, response_class=Response, responses=ERRORS)
async def delete_game(game_id: str, games: Games, token: SeatToken) -> Response:
    """Delete a game for good (the creator's seat token): a finished game, or one in
    which nobody else holds a seat (against a program, an invitation not taken yet)."""
    live, you = await games.actor(game_id, token)
    await games.delete(live, you)
    return Response(status_code=204)


@router.post("/{game_id}/join", responses=ERRORS)
async def join_game(game_id: str, req: JoinRequest, games: Games, client: Client,
                    viewer: Viewer) -> JoinedGame:
    """The second person's seat: the join link's code for a seat token (once); signed
    in, their account holds the seat and the game calls that side by the account's name
    (the creator's "Player 2", the terminal's "You", replaced for everyone)."""
    live, token, you = await games.join(game_id, req.code, client,
                                        None if viewer is None else viewer.id,
                                        None if viewer is None else viewer.name)
    return JoinedGame(seat_token=token, game=games.view(live, you))


@router.post("/{game_id}/seat", responses=ERRORS)
async def account_seat(game_id: str, games: Games, client: Client, account: SignedIn
                       ) -> JoinedGame:
    """A fresh seat token for the seat(s) the signed-in account holds in this game, to
    play it from this browser (401 signed out, 403 ``not_your_seat`` for an account
    holding no seat of it, 404 for no such game). A seat the lobby kept for the account
    is taken by this call, the clocks start, and the seat plays under the account's
    name."""
    live, token, you = await games.seat(game_id, account.id, client, account.name)
    return JoinedGame(seat_token=token, game=games.view(live, you))


@router.post("/{game_id}/public", responses=ERRORS)
async def set_public(game_id: str, req: PublicRequest, games: Games, token: SeatToken
                     ) -> GameView:
    """The creator lets anyone watch the game (read-only), or stops it."""
    live, you = await games.actor(game_id, token)
    await games.set_public(live, you, req.public)
    return games.view(live, you)


@router.post("/{game_id}/scoring", responses=ERRORS)
async def set_scoring(game_id: str, req: ScoringRequest, games: Games, token: SeatToken
                      ) -> GameView:
    """The creator changes how the game counts a board that ends with empties (an
    imported WTHOR or GGS record keeps the empties to the winner unless marked a JOF
    event: see ``POST /api/games/import``); a finished game's result is counted anew."""
    live, you = await games.actor(game_id, token)
    await games.set_scoring(live, you, req.scoring)
    return games.view(live, you)


@router.post("/{game_id}/moves", responses=ERRORS)
async def play_move(game_id: str, req: MoveRequest, games: Games, token: SeatToken,
                    wait: bool = Query(False, description="answer after the program replies")
                    ) -> GameView:
    """Play a move for your seat. The answer comes after the move is committed."""
    live, you = await games.actor(game_id, token)
    refuse_recorded(live, "move")
    # the discs to turn travel in the move's notation, c4(d4e5), which the board checks
    move = req.move if req.turned is None else f"{req.move}({''.join(req.turned)})"
    await games.play(live, you, move, Color.parse_optional(req.colour), req.revision, wait=wait)
    return games.view(live, you)


@router.post("/{game_id}/colours", responses=ERRORS)
async def fuse_ishi_step(game_id: str, req: ColourStep, games: Games, token: SeatToken
                         ) -> GameView:
    """Your fuse-ishi step: the call, the right, or the colour."""
    live, you = await games.actor(game_id, token)
    await games.colour_step(live, you, req.step, req.value, req.participant)
    return games.view(live, you)


@router.post("/{game_id}/resign", responses=ERRORS)
async def resign(game_id: str, req: ColourAction, games: Games, token: SeatToken) -> GameView:
    live, you = await games.actor(game_id, token)
    refuse_recorded(live, "resignation")
    await games.resign(live, you, Color.parse_optional(req.colour))
    return games.view(live, you)


@router.post("/{game_id}/undo", responses=ERRORS)
async def undo(game_id: str, games: Games, token: SeatToken,
               req: ColourAction | None = None) -> GameView:
    """Take back your last move (casual games). Against a person in another browser this
    asks them first; their ``undo`` consents, their ``undo/decline`` refuses."""
    live, you = await games.actor(game_id, token)
    refuse_recorded(live, "take-back")
    await games.undo(live, you, Color.parse_optional(req.colour if req else None))
    return games.view(live, you)


@router.post("/{game_id}/undo/decline", responses=ERRORS)
async def decline_undo(game_id: str, games: Games, token: SeatToken,
                       req: ColourAction | None = None) -> GameView:
    live, you = await games.actor(game_id, token)
    await games.decline_undo(live, you, Color.parse_optional(req.colour if req else None))
    return games.view(live, you)


@router.post("/{game_id}/claim", responses=ERRORS)
async def claim_flag(game_id: str, req: ClaimRequest, games: Games, token: SeatToken
                     ) -> GameView:
    """Claim the opponent's fallen flag (or report your own: ``flagged`` = your colour).
    A program's move already computed is completed first."""
    live, you = await games.actor(game_id, token)
    colour, flagged = Color.parse_optional(req.colour), Color.parse_optional(req.flagged)
    await games.claim(live, you, colour, flagged)
    return games.view(live, you)


@router.post("/{game_id}/timeout", responses=ERRORS)
async def timeout_choice(game_id: str, req: TimeoutChoice, games: Games, token: SeatToken
                         ) -> GameView:
    """The time-out winner's choice: 33–31 or play-out (勝手打ち)."""
    live, you = await games.actor(game_id, token)
    await games.timeout_choice(live, you, req.choice)
    return games.view(live, you)


@router.post("/{game_id}/playout/stop", responses=ERRORS)
async def stop_playout(game_id: str, games: Games, token: SeatToken) -> GameView:
    live, you = await games.actor(game_id, token)
    await games.stop_playout(live, you)
    return games.view(live, you)


@router.post("/{game_id}/accept", responses=ERRORS)
async def accept_result(game_id: str, games: Games, token: SeatToken,
                        req: ColourAction | None = None) -> GameView:
    """Accept the result; once both players have, a time-out can't be claimed."""
    live, you = await games.actor(game_id, token)
    await games.accept(live, you, Color.parse_optional(req.colour if req else None))
    return games.view(live, you)


def _filename(game_id: str, ext: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="hasamigo-{game_id}.{ext}"'}


@router.get("/{game_id}/transcript", response_class=PlainTextResponse, responses=ERRORS)
async def transcript(game_id: str, games: Games, token: Token) -> Response:
    live, _you = await games.reader(game_id, token)
    record = live.game.record()
    text = write_transcript(record.moves, record.variant)
    return PlainTextResponse(text + "\n", headers=_filename(game_id, "txt"))


@router.get("/{game_id}/ggf", response_class=PlainTextResponse, responses=ERRORS)
async def ggf(game_id: str, games: Games, token: Token) -> Response:
    live, _you = await games.reader(game_id, token)
    record = live.game.record()
    try:
        text = format_ggf(record)
    except (HasamigoError, ValueError) as exc:
        raise GameError(f"this game can't be written as GGF: {exc}") from exc
    return PlainTextResponse(text + "\n", headers=_filename(game_id, "ggf"))


@router.get("/{game_id}/positions", responses=ERRORS)
async def positions(game_id: str, games: Games, token: Token) -> list[PositionView]:
    """The position before the first move and after every ply (for the replay)."""
    live, _you = await games.reader(game_id, token)
    game = live.game
    board = game.board.root()
    out = [_position(board, None, None, [], None)]
    for played in game.history:
        flips = board.turned_by(played.move)
        board.push(played.move)
        out.append(_position(board, board.move_name(played.move), colour_name(played.colour),
                             [board.square_name(sq) for sq in bits(flips)], played.seconds))
    return out


def _position(board: Board, move: str | None, colour: ColourName | None, flipped: list[str],
              seconds: float | None) -> PositionView:
    black, white = board.counts()
    return PositionView(ply=board.ply, move=move, colour=colour,
                        cells=board.to_string().split()[0], black=black, white=white,
                        flipped=flipped, seconds=None if seconds is None else round(seconds, 3))


__all__ = ["ERRORS", "Filters", "LibraryFilters", "router", "summary_view"]
