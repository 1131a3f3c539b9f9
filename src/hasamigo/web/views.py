"""Game state as the API shows it (built from a controller; no logic of its own)."""

from __future__ import annotations

from typing import Literal

from hasamigo.board import Board
from hasamigo.game.controller import GameController
from hasamigo.game.openings import opening_name
from hasamigo.game.result import GameResult, Scoring
from hasamigo.game.state import Phase
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

#: how the API names each :class:`~hasamigo.game.result.Termination` (its JSON shape)
TERMINATIONS = {
    "NORMAL": "normal",
    "RESIGNATION": "resignation",
    "TIMEOUT": "timeout",
    "PLAYOUT": "playout",
    "BOTH_FLAGS": "both-flags",
    "FORFEIT": "forfeit",
    "PENALTY": "penalty",
}


def result_view(result: GameResult) -> ResultView:
    """A game's result as the API shows it (the one place a :class:`ResultView` is made):
    the score under the game's scoring, and today's count beside it when that differs."""
    score, today = result.score, str(result.score_under(Scoring.JOF_2014))
    return ResultView(
        black=result.black, white=result.white, winner=_name(result.winner),
        termination=TERMINATIONS[result.termination.name], score=str(score),
        score_black=score.black, score_white=score.white, scoring=score.scoring.code,
        today=None if today == str(score) else today,
        by_draw_win=result.by_draw_win, rated=result.rated,
    )


def _name(colour: Color | None) -> ColourName | None:
    return None if colour is None else colour_name(colour)


def _last_move(game: GameController) -> tuple[str | None, list[str], list[ColourName]]:
    """The last disc placed, the discs it flipped, and the colours that passed since."""
    board = game.board
    passed: list[ColourName] = []
    history = game.history
    index = len(history) - 1
    while index >= 0 and history[index].move.is_pass:
        passed.append(colour_name(history[index].colour))
        index -= 1
    if index < 0:
        return None, [], passed
    played = history[index]
    before: Board = board.copy()
    for _ in range(len(history) - index):
        before.pop()
    flipped = [board.square_name(sq) for sq in bits(before.turned_by(played.move))]
    assert played.move.square is not None
    return board.square_name(played.move.square), flipped, passed


def _choices(board: Board) -> dict[str, list[str]]:
    """The legal squares that bracket more than one disc, with the discs to choose from."""
    out = {}
    for sq in bits(board.legal_moves_mask()):
        choices = board.turn_choices(sq)
        if choices.bit_count() > 1:
            out[board.square_name(sq)] = [board.square_name(d) for d in bits(choices)]
    return out


def colour_name(colour: Color) -> ColourName:
    return colour.value


def game_view(game_id: str, game: GameController, *, you: frozenset[int] = frozenset(),
              thinking: bool = False, public: bool = False, awaiting_join: bool = False,
              waiting_for: list[str] | None = None) -> GameView:
    """The game as the holder of the seats ``you`` (participant indices; empty for a
    spectator) sees it: what they may do now is worked out here, nothing else.
    ``waiting_for``: the kernel groups its waiting programs still need."""
    state = game.state
    board = state.board
    cells = board.to_string().split()[0]
    seats = None
    if state.seats is not None:
        seats = {
            c.value: SeatView(name=game.seat(c).name, program=game.seat(c).program,
                              person=game.seat(c).is_person)
            for c in (BLACK, WHITE)
        }
    now = game.now()
    clock = None
    if state.clock is not None and state.clock.per_turn is None:  # not a deadline
        flagged: list[ColourName] = [
            colour_name(c) for c in (BLACK, WHITE) if state.clock.flagged(c, now)]
        clock = ClockView(
            black=round(state.clock.remaining(BLACK, now), 3),
            white=round(state.clock.remaining(WHITE, now), 3),
            running=_name(state.clock.running),
            flagged=flagged,
        )
    result = None if state.result is None else result_view(state.result)
    fuse = None
    if game.setup.colour_method == "fuse-ishi" or state.colours.draw_win_only:
        pending = state.pending_colour_step()
        person_step = pending if pending is not None and pending[1] is not None \
            and pending[0] in ("call", "right", "colour") else None
        # the hidden face is shown only once the call has been made
        top = state.colours.top if state.colours.call is not None else None
        fuse = FuseIshiView(
            step=None if person_step is None else person_step[0],  # type: ignore[arg-type]
            by=None if person_step is None else person_step[1],
            by_name=None if person_step is None or person_step[1] is None
            else game.participants[person_step[1]].name,
            draws_allowed=game.options.draws_allowed,
            draw_win_only=state.colours.draw_win_only,
            top=_name(top),
        )
    last, flipped, passed = _last_move(game)
    moves = [board.move_name(m) for m in board.move_stack]
    opening = None
    if board.name == "standard" and board.start == "cross" and not game.options.handicap \
            and game.options.position is None:
        found = opening_name(moves)
        if found is not None:
            opening = OpeningView(en=found.en, ja=found.ja, moves=found.moves)
    playing = state.phase in (Phase.PLAYING, Phase.PLAYOUT) and not state.suspended \
        and not state.paused
    legal = [board.move_name(m) for m in board.legal_moves if not m.is_pass] if playing else []
    black, white = board.counts()
    mine = [c for c in (BLACK, WHITE) if state.seats is not None and state.seat(c) in you]
    your_colours = [colour_name(c) for c in mine]
    claimable = claim_for = None
    for colour in mine:
        flagged_colour = game.claimable(colour)
        if flagged_colour is not None:
            claimable, claim_for = colour_name(flagged_colour), colour_name(colour)
            if flagged_colour is not colour:
                break
    return GameView(
        id=game_id,
        revision=state.revision,
        position_revision=state.position_revision,
        phase=state.phase.value,
        variant=board.name,
        analysable=board.disc_limit is None,
        rings=board.ring_names(),
        flip_rule=board.rules.turning,
        choices=_choices(board) if playing and board.rules.supports("choose_turned") else {},
        title=board.title,
        rows=board.rows,
        cols=board.cols,
        cells=cells,
        turn=colour_name(board.turn),
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
        persons=[colour_name(c) for c in state.persons],
        clock=clock,
        casual=game.options.casual,
        official=not game.options.casual,
        public=public,
        handicap=game.options.handicap,
        you=sorted(you),
        your_colours=your_colours,
        can_undo=any(game.can_undo(c) for c in mine),
        undo_request=_name(state.undo_request),
        claimable=claimable,
        claim_for=claim_for,
        timeout_loser=_name(state.timeout_loser),
        draw_win=_name(state.draw_win),
        fuse_ishi=fuse,
        result=result,
        scoring=game.options.counted_by.code,
        result_final=state.result_final,
        accepted=[colour_name(c) for c in (BLACK, WHITE) if c in state.accepted],
        suspended=state.suspended,
        awaiting_join=awaiting_join,
        programs_waiting=[colour_name(c) for c in (BLACK, WHITE) if state.waits(c)],
        paused=state.paused,
        days_per_move=game.options.days_per_move, rated=game.options.rated,
        deadline=state.deadline(),
        waiting_for=list(waiting_for or []) if state.waiting else [],
        moves=moves,
        seconds=[None if m.seconds is None else round(m.seconds, 3) for m in state.moves],
        first_colour=colour_name(state.moves[0].colour if state.moves else board.turn),
        opening=opening,
        thinking=thinking,
    )
