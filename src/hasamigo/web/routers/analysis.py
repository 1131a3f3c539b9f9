"""The analysis API: hints and the evaluation graph (engine work off the event loop).

Both are for casual games and finished ones: an official game in progress gets no help
from the engine (403 ``official_game``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from hasamigo.errors import InvalidOptionError
from hasamigo.game.state import Phase
from hasamigo.web.deps import Analysis, AuthFirst, Reader
from hasamigo.web.errors import Forbidden
from hasamigo.web.routers.games import ERRORS
from hasamigo.web.schemas import EvaluationsView, HintsView, NotesView, NoteView
from hasamigo.web.services.games import LiveGame

router = APIRouter(prefix="/api/games", tags=["analysis"], route_class=AuthFirst)


def _analysable(reader: tuple[LiveGame, frozenset[int]]) -> LiveGame:
    live, _you = reader
    game = live.game
    if not game.options.casual and game.phase is not Phase.OVER:
        raise Forbidden("no hints or evaluations during an official game", "official_game")
    return live


@router.get("/{game_id}/hints", responses=ERRORS)
async def hints(game_id: str, analysis: Analysis, reader: Reader) -> HintsView:
    """Every legal move of the side to move with the engine's score (discs, side to move)."""
    live = _analysable(reader)
    return await analysis.hints(live.game.board)


@router.get("/{game_id}/evaluations", responses=ERRORS)
async def evaluations(game_id: str, analysis: Analysis, reader: Reader) -> EvaluationsView:
    live = _analysable(reader)
    return await analysis.evaluations(live.game.board)


@router.get("/{game_id}/notes", responses=ERRORS)
async def notes(game_id: str, reader: Reader,
                ply: Annotated[int, Query(ge=0, le=200)] = 0) -> NotesView:
    """Notes in the words players use (:mod:`hasamigo.analysis.explain`) on the position
    after ``ply`` moves (passes counted) and on the move that led to it: measured on the
    board, no engine search. 400 ``invalid_option`` past the game's last move."""
    from hasamigo.analysis.explain import move_notes, position_notes

    live = _analysable(reader)
    played = list(live.game.board.move_stack)
    if ply > len(played):
        raise InvalidOptionError(f"the game has {len(played)} moves, not {ply}")
    board = live.game.board.root()
    for move in played[:max(0, ply - 1)]:
        board.push(move)
    before = board.copy()
    if ply:
        board.push(played[ply - 1])

    return NotesView(
        ply=ply, move=before.move_name(played[ply - 1]) if ply else None,
        position=[NoteView.of(n) for n in position_notes(board)],
        move_notes=[NoteView.of(n) for n in move_notes(before, played[ply - 1])] if ply else [])
