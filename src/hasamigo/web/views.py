"""Game state as the API shows it (built from a controller; no logic of its own)."""

from __future__ import annotations

from typing import Literal

from hasamigo.board import Board
from hasamigo.game.controller import GameController, Phase
from hasamigo.game.openings import opening_name
from hasamigo.move import BLACK, WHITE, Color
from hasamigo.squares import bits
from hasamigo.web.schemas import (
    ClockView,
    FuseIshiView,
    GameView,
    OpeningView,
    ResultView,
    SeatView,
)

ColourName = Literal["black", "white"]

TERMINATIONS = {
    "NORMAL": "normal",
    "RESIGNATION": "resignation",
    "TIMEOUT": "timeout",
    "PLAYOUT": "playout",
    "BOTH_FLAGS": "both-flags",
    "FORFEIT": "forfeit",
}


def _name(colour: Color | None) -> ColourName | None:
    if colour is None:
        return None
    return "black" if colour is BLACK else "white"


def _last_move(game: GameController) -> tuple[str | None, list[str], list[ColourName]]:
    """The last disc placed, the discs it flipped, and the colours that passed since."""
    board = game.board
    passed: list[ColourName] = []
    history = game.history
    index = len(history) - 1
    while index >= 0 and history[index].move.is_pass:
        passed.append("black" if history[index].colour is BLACK else "white")
        index -= 1
    if index < 0:
        return None, [], passed
    played = history[index]
    before: Board = board.copy()
    for _ in range(len(history) - index):
        before.pop()
    flipped = [board.square_name(sq) for sq in bits(before.flips(played.move))]
    return board.move_name(played.move), flipped, passed


def game_view(game_id: str, game: GameController, *, thinking: bool = False) -> GameView:
    board = game.board
    cells = board.to_string().split()[0]
    seats = None
    if game.seats is not None:
        seats = {
            c.value: SeatView(
                name=game.seat(c).name,
                program=game.seat(c).program,
                person=game.seat(c).is_person,
            )
            for c in (BLACK, WHITE)
        }
    clock = None
    if game.clock is not None:
        flagged: list[ColourName] = [
            "black" if c is BLACK else "white" for c in (BLACK, WHITE) if game.clock.flagged(c)
        ]
        clock = ClockView(
            black=round(game.clock.remaining(BLACK), 3),
            white=round(game.clock.remaining(WHITE), 3),
            running=_name(game.clock.running),
            flagged=flagged,
        )
    result = None
    if game.result is not None:
        r = game.result
        result = ResultView(
            black=r.black,
            white=r.white,
            winner=_name(r.winner),
            termination=TERMINATIONS[r.termination.name],
            score=str(r),
            by_draw_win=r.by_draw_win,
            rated=r.rated,
        )
    fuse = None
    if game.colour_method == "fuse-ishi":
        pending = game.fuse_ishi_pending()
        fuse = FuseIshiView(
            step=None if pending is None else pending[0],  # type: ignore[arg-type]
            by=None if pending is None else pending[1],
            by_name=None if pending is None else game.participants[pending[1]].name,
            draws_allowed=game.options.draws_allowed,
            top=_name(game.fuse_ishi_top),
        )
    last, flipped, passed = _last_move(game)
    moves = [board.move_name(m) for m in board.move_stack]
    opening = None
    if board.name == "standard" and board.start == "cross" and not game.options.handicap \
            and game.options.position is None:
        found = opening_name(moves)
        if found is not None:
            opening = OpeningView(en=found.en, ja=found.ja, moves=found.moves)
    playing = game.phase in (Phase.PLAYING, Phase.PLAYOUT)
    legal = [board.move_name(m) for m in board.legal_moves if not m.is_pass] if playing else []
    black, white = board.counts()
    return GameView(
        id=game_id,
        revision=game.revision,
        phase=game.phase.value,
        variant=board.name,
        title=board.title,
        rows=board.rows,
        cols=board.cols,
        cells=cells,
        turn="black" if board.turn is BLACK else "white",
        legal=legal,
        last_move=last,
        flipped=flipped,
        passed=passed,
        counts={"black": black, "white": white, "empty": board.empties.bit_count()},
        seats=seats,
        participants=[
            SeatView(name=p.name, program=p.program, person=p.is_person)
            for p in game.participants
        ],
        persons=[_name(c) or "black" for c in game.persons],
        clock=clock,
        casual=game.options.casual,
        handicap=game.options.handicap,
        can_undo=game.can_undo,
        claimable=_name(game.claimable_flag()),
        timeout_loser=_name(game.timeout_loser),
        draw_win=_name(game.draw_win),
        fuse_ishi=fuse,
        result=result,
        moves=moves,
        first_colour=_name(game.history[0].colour if game.history else board.turn) or 'black',
        opening=opening,
        thinking=thinking,
    )
