"""The arbiter's rules over the board: the last move claimed illegal after the game ended,
whatever the time left (JOF rule 10), and penalties, time off the clock or a loss by
penalty, each with its reason (rule 21). Every game is also rebuilt from its events'
JSON, as storage does, and must give the same state."""

from __future__ import annotations

import json
import random

import pytest

from hasamigo import BLACK, WHITE
from hasamigo.game import Termination
from hasamigo.game.controller import (
    GameController,
    GameError,
    GameOptions,
    GameSetup,
    Participant,
    Phase,
)
from hasamigo.game.events import Penalty, event_from_json, event_to_json
from hasamigo.game.events.codec import EventFormatError
from hasamigo.game.procedures.over_board import last_move_claimant

ANN, BOB = Participant("Ann"), Participant("Bob")


class FakeTime:
    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


def otb(t: FakeTime, *, byoyomi: float = 0.0, **options: object) -> GameController:
    options = {"casual": False, "clock_seconds": 600.0, **options}
    setup = GameSetup((ANN, BOB), GameOptions(**options), "black")  # type: ignore[arg-type]
    game = GameController.new(setup, time_source=t, rng=random.Random(4))
    game.declare_over_the_board(byoyomi=byoyomi)
    return game


def reloaded(game: GameController) -> GameController:
    variant = type(game.board)
    events = [event_from_json(json.loads(json.dumps(event_to_json(e, variant))), variant)
              for e in game.events]
    again = GameController(game.setup, events, time_source=game._now)
    a, b = again.state, game.state
    assert (a.board.to_string(), a.phase, a.clock, a.result, again.over_board) == \
        (b.board.to_string(), b.phase, b.clock, b.result, game.over_board)
    return again


def to_the_last_move(t: FakeTime, *, black_used: float = 0.0, white_used: float = 0.0,
                     byoyomi: float = 0.0) -> GameController:
    """A 4×4 game over the board, moves entered as played (the first legal one, 5 s
    each), up to its last empty square: White to play d4, which ends the game."""
    game = otb(t, byoyomi=byoyomi, variant="4x4")
    game.press(WHITE)
    t.now += black_used
    while game.board.empties.bit_count() > 1:
        board = game.board
        move = next(iter(board.legal_moves))
        t.now += 5
        game.enter_move(None if move.is_pass else board.move_name(move))
        game.press(board.turn)
    assert game.board.turn is WHITE and [game.board.move_name(m)
                                         for m in game.board.legal_moves] == ["d4"]
    t.now += white_used
    return game


# ---- rule 10: the last move claimed after the game ended ----------------------------------------
def test_the_last_move_kept_as_played_is_claimed_after_the_clock_stopped() -> None:
    t = FakeTime()
    game = to_the_last_move(t, black_used=590)  # Black, the claimant, has 5 s or so left
    game.enter_move("d4", turned=[])  # White forgot to turn the discs; nobody claimed yet
    game.keep_board()
    kept = game.result
    assert game.phase is Phase.OVER and kept is not None
    assert game.state.clock is not None and game.state.clock.running is None
    assert last_move_claimant(game.state) is BLACK
    t.now += 1000  # the clock stopped: Black's time left does not matter (rule 10)
    with pytest.raises(GameError, match="side that did not play it"):
        game.claim_illegal(WHITE)
    game.claim_illegal(BLACK)
    assert game.phase is Phase.OVER and game.result is not None
    assert game.result != kept and game.result.termination is Termination.NORMAL
    assert not game.marks  # the move stands corrected ...
    assert game.board.move_stack[-1] == game.board.parse_move("d4")
    assert not game.marks and [f.decision for f in game.faults] == ["claimed"]
    corrected = game.board
    assert corrected.empties == 0 and corrected.counts() == (game.result.black,
                                                             game.result.white)
    assert last_move_claimant(game.state) is None  # ... and cannot be claimed twice
    with pytest.raises(GameError, match="only a last move kept as played"):
        game.claim_illegal(BLACK)
    reloaded(game)


def test_a_last_move_played_out_of_turn_is_withdrawn_and_the_right_side_plays() -> None:
    t = FakeTime()
    game = to_the_last_move(t)
    game.enter_move("d4", by=BLACK)  # Black took White's last square out of turn
    pending = game.pending_entry
    assert pending is not None and "out_of_turn" in [f.kind for f in pending.faults]
    game.keep_board()
    assert game.phase is Phase.OVER and last_move_claimant(game.state) is WHITE
    t.now += 30
    game.claim_illegal(WHITE)
    assert game.phase is Phase.PLAYING and game.board.turn is WHITE
    assert game.state.clock is not None and game.state.clock.running is WHITE
    game.enter_move("d4")
    assert game.phase is Phase.OVER and game.board.empties == 0
    reloaded(game)


def test_a_legal_last_move_or_an_agreed_result_cannot_be_claimed() -> None:
    t = FakeTime()
    game = to_the_last_move(t)
    game.enter_move("d4")
    assert game.phase is Phase.OVER and last_move_claimant(game.state) is None
    with pytest.raises(GameError, match="rule 10"):
        game.claim_illegal(BLACK)
    signed = to_the_last_move(FakeTime())
    signed.enter_move("d4", turned=[])
    signed.keep_board()
    assert signed.result is not None
    signed.hand_in_card(signed.result.black, signed.result.white)
    with pytest.raises(GameError, match="rule 10"):
        signed.claim_illegal(BLACK)


def test_a_last_move_claimed_from_an_offender_in_byo_yomi_is_a_time_out() -> None:
    t = FakeTime()
    game = to_the_last_move(t, white_used=580, byoyomi=30)  # White in byo-yomi
    game.enter_move("d4", turned=[])
    game.keep_board()
    game.claim_illegal(BLACK)
    assert game.phase is Phase.TIMEOUT_CHOICE and game.timeout_loser is WHITE
    game.choose_after_timeout("33-31")
    assert game.result is not None and game.result.winner is BLACK
    reloaded(game)


# ---- rule 21: penalties ----------------------------------------------------------------------
def test_the_arbiter_takes_time_off_a_running_clock_with_the_reason() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 100  # Black's clock runs: 500 s left
    game.penalise(BLACK, "touched the board in the opponent's turn (rule 8)", seconds=120)
    assert game.remaining(BLACK) == pytest.approx(380)
    assert game.remaining(WHITE) == 600
    t.now += 10
    assert game.remaining(BLACK) == pytest.approx(370)  # still running
    [penalty] = game.over_board.penalties
    assert (penalty.colour, penalty.deducted, penalty.loss) == (BLACK, 120.0, False)
    game.penalise(WHITE, "advice from a spectator", seconds=700)  # the flag falls by it
    assert game.state.flagged(WHITE, t.now) and game.phase is Phase.PLAYING
    game.claim(BLACK)
    assert game.phase is Phase.TIMEOUT_CHOICE and game.timeout_loser is WHITE
    reloaded(game)


def test_a_loss_by_penalty_ends_the_game_scored_like_a_forfeit() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    game.enter_move("f5")
    game.press(BLACK)
    game.penalise(WHITE, "used a phone during the game (rule 29)", loss=True)
    result = game.result
    assert result is not None and game.phase is Phase.OVER
    assert (result.black, result.white, result.winner, result.termination, result.rated) \
        == (64, 0, BLACK, Termination.PENALTY, True)
    assert game.state.clock is not None and game.state.clock.running is None
    game.hand_in_card(64, 0)  # the card must read as the penalty decided
    with pytest.raises(GameError, match="no penalty changes it"):
        game.penalise(BLACK, "again", loss=True)
    reloaded(game)


def test_a_penalty_needs_its_reason_a_clock_and_the_game_not_agreed() -> None:
    t = FakeTime()
    game = otb(t)
    with pytest.raises(GameError, match="with its reason"):
        game.penalise(BLACK, "   ", seconds=60)
    with pytest.raises(GameError, match="some seconds"):
        game.penalise(BLACK, "late", seconds=0)
    with pytest.raises(GameError, match="not both"):
        game.penalise(BLACK, "late", seconds=60, loss=True)
    clockless = otb(FakeTime(), clock_seconds=None)
    with pytest.raises(GameError, match="no clock"):
        clockless.penalise(BLACK, "late", seconds=60)
    game.hand_in_card(40, 24)
    with pytest.raises(GameError, match="result is agreed"):
        game.penalise(WHITE, "late", loss=True)
    online = GameController.new(GameSetup((ANN, BOB), GameOptions(casual=False)),
                                time_source=t)
    with pytest.raises(GameError, match="over the board"):
        online.penalise(BLACK, "late", loss=True)


def test_a_penalty_event_is_read_back_strictly() -> None:
    from hasamigo import Board

    event = Penalty(BLACK, "rule 8", 30.0, at=5.0)
    data = event_to_json(event, Board)
    assert data == {"kind": "penalty", "colour": "black", "reason": "rule 8",
                    "deducted": 30.0, "loss": False, "at": 5.0}
    assert event_from_json(data, Board) == event
    for bad in ({"reason": ""}, {"reason": "x" * 501}, {"deducted": -1},
                {"deducted": 4000}, {"loss": "yes"}):
        with pytest.raises(EventFormatError):
            event_from_json({**data, **bad}, Board)
