"""The official procedure of a game over the board, each rule with an injected time source:
the clock pressed by the players (rule 5: White starts it; rules 6④ and 9: every turn, a
pass too, ends with a press), late arrival (rules 12–14), an illegal move claimed in
byo-yomi (rules 6① and 15), flags claimed or self-reported and both flags down (rules
15–16), play-out, and the result card (rule 18). Every game is also rebuilt from its
events' JSON, as storage does, and must give the same state."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import BLACK, WHITE
from hasamigo.errors import HasamigoError
from hasamigo.game import Termination
from hasamigo.game.controller import (
    GameController,
    GameError,
    GameOptions,
    GameSetup,
    Participant,
    Phase,
)
from hasamigo.game.events import (
    EVENT_TYPES,
    Absent,
    ClockPress,
    OverTheBoard,
    event_from_json,
    event_to_json,
)
from hasamigo.game.result import result_card

ANN = Participant("Ann", rank="3d")
BOB = Participant("Bob", rank="1d")


class FakeTime:
    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


def otb(t: FakeTime, *, colour: str = "black", scheduled: float | None = None,
        byoyomi: float = 0.0, second: Participant = BOB, **options: object
        ) -> GameController:
    options = {"casual": False, "clock_seconds": 600.0, **options}
    setup = GameSetup((ANN, second), GameOptions(**options), colour)  # type: ignore[arg-type]
    game = GameController.new(setup, time_source=t, rng=random.Random(4))
    game.declare_over_the_board(scheduled=scheduled, byoyomi=byoyomi)
    return game


def same_when_reloaded(game: GameController) -> None:
    variant = type(game.board)
    events = [event_from_json(json.loads(json.dumps(event_to_json(e, variant))), variant)
              for e in game.events]
    again = GameController(GameSetup.from_json(json.loads(json.dumps(game.setup.to_json()))),
                           events, time_source=game._now)
    a, b = again.state, game.state
    assert (a.board.to_string(), a.phase, a.clock, a.result, again.over_board,
            a.timeout_loser) == \
        (b.board.to_string(), b.phase, b.clock, b.result, game.over_board, b.timeout_loser)


# ---- the clock ------------------------------------------------------------------------------
def test_white_starts_the_clock_and_each_press_ends_a_turn() -> None:
    t = FakeTime()
    game = otb(t)
    assert game.state.clock is not None and game.state.clock.running is None
    t.now += 30  # nobody's time runs before the first press
    assert game.remaining(BLACK) == game.remaining(WHITE) == 600
    with pytest.raises(GameError, match="white starts the clock"):
        game.press(BLACK)
    game.press(WHITE)
    t.now += 12
    assert game.remaining(BLACK) == 588 and game.remaining(WHITE) == 600
    with pytest.raises(GameError, match="white pressed, but black's clock is running"):
        game.press(WHITE)
    game.press(BLACK)
    t.now += 5
    game.press(WHITE, passed=True)  # a pass ends with a press too
    assert game.over_board.last_press == (WHITE, True)
    assert (game.remaining(BLACK), game.remaining(WHITE)) == (588, 595)
    assert game.state.clock.running is BLACK and game.board.ply == 0  # no move entered
    same_when_reloaded(game)


def test_in_a_handicap_game_black_starts_the_clock_for_white() -> None:
    t = FakeTime()
    game = otb(t, handicap=2)
    with pytest.raises(GameError, match="black starts the clock"):
        game.press(WHITE)
    game.press(BLACK)
    assert game.state.clock is not None and game.state.clock.running is WHITE


def test_moves_entered_never_press_the_clock() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 4
    game.enter_move("f5")
    t.now += 4
    assert game.state.clock is not None and game.state.clock.running is BLACK
    assert game.remaining(BLACK) == 592 and game.board.turn is WHITE
    game.press(BLACK)
    assert game.state.clock.running is WHITE


def test_a_flag_is_lost_only_on_a_claim_and_a_move_after_it_stands() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 700  # Black's flag fell long ago; nothing happens by itself
    assert game.observe() == [] and game.phase is Phase.PLAYING
    game.press(BLACK)  # Black's move after the flag fell stands
    t.now += 1
    with pytest.raises(GameError, match="white's flag has not fallen"):
        game.claim(BLACK)
    game.claim(WHITE)  # the opponent claims it
    assert game.phase is Phase.TIMEOUT_CHOICE and game.timeout_loser is BLACK
    game.choose_after_timeout("33-31")
    assert game.result is not None and (game.result.black, game.result.white) == (31, 33)
    same_when_reloaded(game)


def test_a_self_report_loses_on_time_too() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 601
    game.claim(BLACK, BLACK)
    assert game.timeout_loser is BLACK


def test_both_flags_down_is_a_draw_not_rated_or_the_draw_win_holders_win() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 601
    game.press(BLACK)
    t.now += 601
    game.claim(BLACK)  # White's flag is down, but so is Black's
    assert game.result is not None and game.result.termination is Termination.BOTH_FLAGS
    assert (game.result.black, game.result.white, game.result.winner) == (32, 32, None)
    assert not game.result.rated
    final = otb(FakeTime(), draws_allowed=False)
    final.colour_step(1, "call", "black")  # the draw-win fuse-ishi (Ann, 3d, hides)
    holder = final.draw_win
    assert holder is not None
    t2 = final._now
    assert isinstance(t2, FakeTime)
    final.press(WHITE)
    t2.now += 601
    final.press(BLACK)
    t2.now += 601
    final.claim(WHITE)
    assert final.result is not None and final.result.winner is holder
    assert final.result.by_draw_win and not final.result.rated
    same_when_reloaded(final)


def test_play_out_runs_on_the_winners_time_and_the_card_gives_the_count() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 601
    game.claim(WHITE)
    game.choose_after_timeout("playout")
    assert game.phase is Phase.PLAYOUT
    with pytest.raises(GameError, match="the clock is not pressed now"):
        game.press(WHITE)
    t.now += 100
    assert game.remaining(WHITE) == 500  # the winner's own time runs
    game.stop_playout()
    # the board was not recorded: the count comes from the card; empties to the loser
    game.hand_in_card(20, 39)
    assert game.result is not None
    assert (game.result.black, game.result.white, game.result.winner,
            game.result.termination) == (25, 39, WHITE, Termination.PLAYOUT)
    # a card that favours the loser cannot take the time-out's win away
    other = otb(FakeTime())
    other.press(WHITE)
    other._now.now += 601  # type: ignore[attr-defined]
    other.claim(WHITE)
    other.choose_after_timeout("playout")
    other.stop_playout()
    other.hand_in_card(40, 24)
    assert other.result is not None and (other.result.black, other.result.white) == (31, 33)
    same_when_reloaded(game)


def test_the_play_out_ends_when_the_winners_time_runs_out() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 601
    game.claim(WHITE)
    game.choose_after_timeout("playout")
    t.now += 700
    [stop] = game.observe()
    assert stop.kind == "stop-playout" and game.phase is Phase.OVER


# ---- late arrival -----------------------------------------------------------------------------
def test_a_late_players_clock_runs_from_the_scheduled_start() -> None:
    t = FakeTime()
    game = otb(t, scheduled=t.now - 120)  # the round began two minutes ago
    game.absent(1)  # Bob (White) is not there: his time runs from the scheduled start
    assert game.remaining(WHITE) == 480 and game.remaining(BLACK) == 600
    with pytest.raises(GameError, match="Bob has not arrived"):
        game.press(WHITE)
    t.now += 180
    game.arrive(1)  # the clock stops: he plays with what is left
    assert game.remaining(WHITE) == 300
    t.now += 60
    assert game.remaining(WHITE) == 300
    game.press(WHITE)
    assert game.state.clock is not None and game.state.clock.running is BLACK
    assert game.remaining(WHITE) == 300 and game.remaining(BLACK) == 600
    same_when_reloaded(game)


def test_the_absent_clock_runs_from_now_without_a_scheduled_start() -> None:
    t = FakeTime()
    game = otb(t)
    events = game.absent(0)
    assert isinstance(events[0], Absent) and events[0].since == t.now
    t.now += 30
    assert game.remaining(BLACK) == 570


def test_a_late_player_may_choose_a_forfeit_loss_not_rated() -> None:
    t = FakeTime()
    game = otb(t, scheduled=t.now)
    game.absent(1)
    t.now += 300
    game.arrive(1)
    game.late_forfeit(1)
    result = game.result
    assert result is not None and game.phase is Phase.OVER
    assert (result.black, result.white, result.winner) == (64, 0, BLACK)
    assert result.termination is Termination.FORFEIT and not result.rated
    same_when_reloaded(game)


def test_a_late_player_loses_on_time_once_their_time_is_used_up() -> None:
    t = FakeTime()
    game = otb(t, scheduled=t.now)
    game.absent(1)
    t.now += 601
    game.claim(BLACK)  # rule 14, claimed as any time-out (rule 15)
    assert game.timeout_loser is WHITE and game.phase is Phase.TIMEOUT_CHOICE


def test_late_arrival_before_colours_are_decided_by_fuse_ishi() -> None:
    t = FakeTime()
    game = otb(t, colour="fuse-ishi", scheduled=t.now)  # Ann (3d) hides, Bob calls
    assert game.phase is Phase.COLOURS
    game.absent(1)
    with pytest.raises(GameError, match="Bob has not arrived"):
        game.colour_step(1, "call", "top")
    t.now += 200
    game.arrive(1)
    game.colour_step(1, "call", "top")
    assert game.phase is Phase.PLAYING
    bob = game.colour_of(1)
    assert bob is not None and game.remaining(bob) == 400
    assert game.remaining(bob.other) == 600
    same_when_reloaded(game)
    # a late player who forfeits before the colours: the present player is written Black
    forfeiting = otb(FakeTime(), colour="fuse-ishi")
    forfeiting.absent(0)
    forfeiting.late_forfeit(0)
    assert forfeiting.result is not None and forfeiting.result.winner is BLACK
    assert forfeiting.colour_of(1) is BLACK


def test_late_arrival_is_for_the_start_only() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    with pytest.raises(GameError, match="only before the game has begun"):
        game.absent(0)
    with pytest.raises(GameError, match="was not absent"):
        game.arrive(0)


# ---- illegal moves claimed, byo-yomi ------------------------------------------------------------
def test_an_illegal_move_claimed_hands_the_turn_back_to_the_offender() -> None:
    t = FakeTime()
    game = otb(t, byoyomi=30)
    game.press(WHITE)
    t.now += 10
    game.press(BLACK)  # Black's move was illegal; White claims on White's turn
    t.now += 3
    with pytest.raises(GameError, match="claimant's own turn"):
        game.claim_illegal(BLACK)
    game.claim_illegal(WHITE)
    assert game.state.clock is not None and game.state.clock.running is BLACK
    assert game.phase is Phase.PLAYING and game.remaining(WHITE) == 597


def test_an_illegal_move_claimed_in_byo_yomi_is_a_time_out() -> None:
    t = FakeTime()
    game = otb(t, byoyomi=30)
    game.press(WHITE)
    t.now += 575  # Black has 25 s left: byo-yomi
    game.press(BLACK)
    t.now += 2
    game.claim_illegal(WHITE)
    assert game.phase is Phase.TIMEOUT_CHOICE and game.timeout_loser is BLACK
    game.choose_after_timeout("33-31")
    assert game.result is not None and game.result.winner is WHITE
    same_when_reloaded(game)


def test_a_faulty_move_entered_in_byo_yomi_is_corrected_then_a_time_out() -> None:
    t = FakeTime()
    game = otb(t, byoyomi=30)
    game.press(WHITE)
    t.now += 580  # Black is in byo-yomi (20 s left)
    game.enter_move("f5", turned=[])
    game.press(BLACK)
    t.now += 2
    game.correct_entry()  # the correction comes first (the board is legal again) ...
    assert [game.board.move_name(m) for m in game.board.move_stack] == ["f5"]
    assert game.phase is Phase.TIMEOUT_CHOICE and game.timeout_loser is BLACK  # ... then
    same_when_reloaded(game)


def test_a_faulty_move_kept_or_made_with_time_to_spare_is_no_time_out() -> None:
    t = FakeTime()
    game = otb(t, byoyomi=30)
    game.press(WHITE)
    t.now += 100
    game.enter_move("f5", turned=[])
    game.correct_entry()
    assert game.phase is Phase.PLAYING
    t.now += 490  # now in byo-yomi, White's move 2 is faulty but nobody noticed: kept
    game.press(BLACK)
    t.now += 590
    game.enter_move("d6", turned=[])
    game.keep_board()
    assert game.phase is Phase.PLAYING and game.marks


# ---- the result card ---------------------------------------------------------------------------
def test_the_result_card_ends_a_game_whose_board_was_not_recorded() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 100
    game.hand_in_card(35, 30)  # 65 discs: read to the winner's disadvantage
    result = game.result
    assert result is not None and (result.black, result.white, result.winner) == \
        (34, 30, BLACK)
    assert game.state.result_final and game.state.clock is not None
    assert game.state.clock.running is None
    with pytest.raises(GameError, match="handed in already"):
        game.hand_in_card(34, 30)
    t.now += 1000
    with pytest.raises(GameError, match="no flag to claim"):
        game.claim(WHITE)  # signed: no time-out can be claimed any more
    same_when_reloaded(game)


def test_a_card_of_equal_counts_is_a_draw_or_the_draw_win_holders_win() -> None:
    game = otb(FakeTime())
    game.hand_in_card(30, 30)
    assert game.result is not None and game.result.winner is None
    assert (game.result.black, game.result.white) == (32, 32)
    final = otb(FakeTime(), draws_allowed=False)
    final.colour_step(1, "call", "white")
    final.hand_in_card(32, 32)
    assert final.result is not None and final.result.winner is final.draw_win
    assert final.result.by_draw_win


def test_the_card_stands_for_the_count_of_a_recorded_game() -> None:
    t = FakeTime()
    game = otb(t, variant="4x4", clock_seconds=None)
    while game.phase is Phase.PLAYING:
        board = game.board
        move = next(m for m in board.legal_moves if not m.is_pass)
        game.enter_move(board.move_name(move))
    recorded = game.result
    assert recorded is not None and recorded.termination is Termination.NORMAL
    game.hand_in_card(recorded.white, recorded.black)  # written the other way round
    expected = result_card(recorded.white, recorded.black, squares=16)
    assert game.result is not None and game.over_board.card == (recorded.white, recorded.black)
    assert (game.result.black, game.result.white, game.result.winner) == \
        (expected.black, expected.white, expected.winner)


def test_a_card_must_read_as_a_result_the_procedure_decided() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 601
    game.claim(WHITE)
    game.choose_after_timeout("33-31")
    with pytest.raises(GameError, match="the card must read so"):
        game.hand_in_card(33, 31)
    game.hand_in_card(31, 33)
    assert game.over_board.card == (31, 33)


def test_a_card_is_signed_by_two_people() -> None:
    setup = GameSetup((ANN, Participant("Bot", program="random")), GameOptions())
    game = GameController.new(setup, time_source=FakeTime())
    with pytest.raises(GameError, match="signed by two people"):
        game.hand_in_card(40, 24)
    with pytest.raises(GameError, match="played by two people"):
        game.declare_over_the_board()


# ---- declaring, and the events themselves ------------------------------------------------------
def test_a_game_is_declared_over_the_board_before_it_begins() -> None:
    t = FakeTime()
    game = otb(t)
    with pytest.raises(GameError, match="already"):
        game.declare_over_the_board()
    setup = GameSetup((ANN, BOB), GameOptions())
    plain = GameController.new(setup, time_source=t)
    plain.play(BLACK, "f5")
    with pytest.raises(GameError, match="before it begins"):
        plain.declare_over_the_board()
    with pytest.raises(GameError, match="games played over the board"):
        plain.press(WHITE)


def test_the_new_events_round_trip_through_json() -> None:
    from hasamigo import Board

    for kind in ("over-the-board", "press", "absent", "arrival", "late-forfeit",
                 "illegal-claim", "entered-move", "correct-entry", "keep-board",
                 "result-card"):
        assert kind in EVENT_TYPES and len(kind) <= 24  # the stored kind column's width
    for event in (OverTheBoard(None, 0.0, at=1.0), OverTheBoard(5.0, 30.0, at=6.0),
                  ClockPress(WHITE, True, at=2.0), Absent(1, 0.5, at=3.0)):
        data = event_to_json(event, Board)
        assert event_from_json(json.loads(json.dumps(data)), Board) == event
    with pytest.raises(ValueError, match="byo-yomi is 0 to 3600"):
        event_from_json({"kind": "over-the-board", "scheduled": None, "byoyomi": -1,
                         "at": 1.0}, Board)
    with pytest.raises(ValueError, match="a board is 64 cells"):
        event_from_json({"kind": "entered-move", "by": "black", "placed": "f5",
                         "board": "X", "at": 1.0}, Board)


# ---- property: a game over the board is its events too -----------------------------------------
def otb_snapshot(game: GameController) -> tuple[object, ...]:
    s = game.state
    return (s.board.to_string(), list(s.board.move_stack), s.phase, s.seats, s.clock,
            s.moves, s.result, s.timeout_loser, s.accepted, s.last_at, s.revision,
            s.players_clock, game.over_board)


def _otb_request(game: GameController, t: FakeTime, kind: int, value: int,
                 rng: random.Random) -> None:
    """One request of a recorder or the players at the board; it may well be refused."""
    from hasamigo.game.entry import legal_entry

    colour = (BLACK, WHITE)[value % 2]
    board = game.board
    legal = [m for m in board.legal_moves if not m.is_pass]
    if kind == 0:
        game.press(colour, passed=value % 5 == 0)
    elif kind == 1 and legal:  # a legal move entered
        game.enter(legal_entry(board, rng.choice(legal)))
    elif kind == 2:  # a move entered with whatever was turned
        empties = [sq for sq in range(64) if board.empties >> sq & 1]
        discs = [sq for sq in range(64) if board.occupied >> sq & 1]
        if empties:
            turned = rng.sample(discs, min(len(discs), value % 4))
            game.enter_move(rng.choice(empties), colour if value % 3 else None, turned,
                            by=colour if value % 7 == 0 else None)
    elif kind == 3:
        game.correct_entry() if value % 2 else game.keep_board()
    elif kind == 4:
        t.now += (value * 37) % 97 + 1
    elif kind == 5:
        game.claim(colour, colour.other if value % 3 else colour)
    elif kind == 6:
        game.choose_after_timeout(("33-31", "playout")[value % 2])
    elif kind == 7:
        game.stop_playout()
    elif kind == 8 and value % 6 == 0:  # rarely: a card ends the game
        game.hand_in_card(value % 65, (value * 7) % 65)
    elif kind == 9:
        game.claim_illegal(colour)
    elif kind == 10:
        (game.absent, game.arrive, game.late_forfeit)[value % 3](value % 2)
    elif kind == 11:
        game.request_undo(colour)
        game.undo(colour)
    elif kind == 13:  # the arbiter: time off a clock, rarely a loss by penalty (rule 21)
        game.penalise(colour, "rule 8", seconds=value % 50, loss=value % 9 == 0)
    else:
        game.observe()


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.sampled_from([30.0, 90.0, None]), st.sampled_from([0.0, 20.0]), st.booleans(),
       st.lists(st.tuples(st.sampled_from([0, 0, 1, 1, 1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10,
                                           11, 12, 13]), st.integers(0, 1000)), max_size=70),
       st.integers(0, 2**16))
def test_the_fold_of_the_record_is_the_live_state_over_the_board(
        clock: float | None, byoyomi: float, draws: bool, requests: list[tuple[int, int]],
        seed: int) -> None:
    t = FakeTime()
    game = otb(t, clock_seconds=clock, byoyomi=byoyomi, draws_allowed=draws,
               scheduled=t.now - 10)
    if game.phase is Phase.COLOURS:
        game.colour_step(1, "call", "black")
    rng = random.Random(seed)
    for kind, value in requests:
        before, events = otb_snapshot(game), game.events
        try:
            _otb_request(game, t, kind, value, rng)
        except (HasamigoError, ValueError):
            assert game.events[:len(events)] == events
            if game.events == events:
                assert otb_snapshot(game) == before  # a refusal records nothing
            continue
        variant = type(game.board)
        replayed = GameController(game.setup, [
            event_from_json(json.loads(json.dumps(event_to_json(e, variant))), variant)
            for e in game.events], time_source=t)
        assert otb_snapshot(replayed) == otb_snapshot(game)
        if game.result is not None:
            assert game.result.black + game.result.white == 64


def test_a_play_out_that_runs_out_while_an_entry_waits_still_ends() -> None:
    t = FakeTime()
    game = otb(t)
    game.press(WHITE)
    t.now += 601
    game.claim(WHITE)
    game.choose_after_timeout("playout")
    game.enter_move("f5", turned=[])  # the winner's play-out move, entered with a fault
    t.now += 700
    [stop] = game.observe()
    assert stop.kind == "stop-playout" and game.phase is Phase.OVER
    assert [f.decision for f in game.faults] == ["undecided"]
