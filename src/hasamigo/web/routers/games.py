"""The games API: create, read, act; downloads. Thin over :class:`GameService`."""

from __future__ import annotations

import asyncio
from typing import Literal

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse

from hasamigo.board import Board
from hasamigo.game.controller import GameController, GameError
from hasamigo.move import BLACK, Color
from hasamigo.notation import format_ggf, write_transcript
from hasamigo.squares import bits
from hasamigo.storage.repository import GameSummary
from hasamigo.web.deps import Games
from hasamigo.web.schemas import (
    ColourAction,
    ColourStep,
    ErrorResponse,
    GameSummaryView,
    GameView,
    MoveRequest,
    NewGame,
    PositionView,
    TimeoutChoice,
)

router = APIRouter(prefix="/api/games", tags=["games"])
ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorResponse} for code in (400, 404, 409, 422, 503)
}


def _colour(name: str | None) -> Color | None:
    return None if name is None else Color(name)


def summary_view(s: GameSummary) -> GameSummaryView:
    score = None if s.result_black is None else f"{s.result_black}–{s.result_white}"
    return GameSummaryView(
        id=s.id, created_at=s.created_at.isoformat(), updated_at=s.updated_at.isoformat(),
        phase=s.phase, variant=s.variant, black=s.black, white=s.white, opponent=s.opponent,
        casual=s.casual, move_count=s.move_count, score=score, winner=s.winner,
        termination=s.termination,
    )


@router.post("", status_code=201, responses=ERRORS)
async def create_game(req: NewGame, games: Games) -> GameView:
    live = await games.create(req)
    return games.view(live)


@router.get("")
async def list_games(games: Games, limit: int = Query(100, ge=1, le=500),
                     offset: int = Query(0, ge=0)) -> list[GameSummaryView]:
    rows = await asyncio.to_thread(games.repo.summaries, limit=limit, offset=offset)
    return [summary_view(r) for r in rows]


@router.get("/{game_id}", responses=ERRORS)
async def get_game(game_id: str, games: Games) -> GameView:
    live = await games.refresh(game_id)
    return games.view(live)


@router.post("/{game_id}/moves", responses=ERRORS)
async def play_move(game_id: str, req: MoveRequest, games: Games,
                    wait: bool = Query(False, description="answer after the program replies")
                    ) -> GameView:
    """Play a person's move. The answer comes after the move is committed."""
    live = await games.play(game_id, req.move, _colour(req.colour), req.revision, wait=wait)
    return games.view(live)


@router.post("/{game_id}/colours", responses=ERRORS)
async def fuse_ishi_step(game_id: str, req: ColourStep, games: Games) -> GameView:
    def action(game: GameController) -> None:
        pending = game.fuse_ishi_pending()
        who = req.participant
        if who is None:
            who = pending[1] if pending is not None else 0
        if not game.participants[who].is_person:
            raise GameError("that step belongs to the program", "colours")
        game.fuse_ishi_step(who, req.step, req.value)

    return games.view(await games.act(game_id, action))


@router.post("/{game_id}/resign", responses=ERRORS)
async def resign(game_id: str, req: ColourAction, games: Games) -> GameView:
    def action(game: GameController) -> None:
        game.resign(games.person_colour(game, _colour(req.colour)))

    return games.view(await games.act(game_id, action))


@router.post("/{game_id}/undo", responses=ERRORS)
async def undo(game_id: str, games: Games) -> GameView:
    return games.view(await games.act(game_id, lambda game: game.undo()))


@router.post("/{game_id}/claim", responses=ERRORS)
async def claim_flag(game_id: str, req: ColourAction, games: Games) -> GameView:
    """A person claims the program's fallen flag."""
    def action(game: GameController) -> None:
        game.claim_flag(games.person_colour(game, _colour(req.colour)))

    return games.view(await games.act(game_id, action))


@router.post("/{game_id}/timeout", responses=ERRORS)
async def timeout_choice(game_id: str, req: TimeoutChoice, games: Games) -> GameView:
    """The time-out winner's choice: 33–31 or play-out (勝手打ち)."""
    return games.view(await games.act(game_id, lambda g: g.choose_after_timeout(req.choice)))


@router.post("/{game_id}/playout/stop", responses=ERRORS)
async def stop_playout(game_id: str, games: Games) -> GameView:
    return games.view(await games.act(game_id, lambda game: game.stop_playout()))


def _filename(game_id: str, ext: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="hasamigo-{game_id}.{ext}"'}


@router.get("/{game_id}/transcript", response_class=PlainTextResponse, responses=ERRORS)
async def transcript(game_id: str, games: Games) -> PlainTextResponse:
    live = await games.get(game_id)
    record = live.game.record()
    text = write_transcript(record.moves, record.variant)
    return PlainTextResponse(text + "\n", headers=_filename(game_id, "txt"))


@router.get("/{game_id}/ggf", response_class=PlainTextResponse, responses=ERRORS)
async def ggf(game_id: str, games: Games) -> PlainTextResponse:
    live = await games.get(game_id)
    record = live.game.record()
    try:
        text = format_ggf(record)
    except ValueError as exc:
        raise GameError(str(exc), "bad_request") from exc
    return PlainTextResponse(text + "\n", headers=_filename(game_id, "ggf"))


@router.get("/{game_id}/positions", responses=ERRORS)
async def positions(game_id: str, games: Games) -> list[PositionView]:
    """The position before the first move and after every ply (for the replay)."""
    live = await games.get(game_id)
    game = live.game
    board = game.board.root()
    out = [_position(board, None, None, [])]
    for played in game.history:
        flips = board.flips(played.move)
        board.push(played.move)
        out.append(_position(board, board.move_name(played.move), _colour_name(played.colour),
                             [board.square_name(sq) for sq in bits(flips)]))
    return out


def _colour_name(colour: Color) -> Literal["black", "white"]:
    return "black" if colour is BLACK else "white"


def _position(board: Board, move: str | None, colour: Literal["black", "white"] | None,
              flipped: list[str]
              ) -> PositionView:
    black, white = board.counts()
    return PositionView(ply=board.ply, move=move, colour=colour,
                        cells=board.to_string().split()[0], black=black, white=white,
                        flipped=flipped)
