"""Clock, off-board results and colour decision (JOF procedure), without sleeping."""

from __future__ import annotations

import random

import pytest

from hasamigo import BLACK, WHITE, Board
from hasamigo.game import (
    Clock,
    ClockError,
    FuseIshi,
    FuseIshiError,
    GameResult,
    Right,
    Termination,
    at_random,
    both_flags_down,
    forfeit,
    playout_result,
    resignation,
    timeout_win,
)
from hasamigo.variants import find_variant


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_clock_charges_only_the_running_side() -> None:
    t = FakeTime()
    clock = Clock(1200, time_source=t)
    assert clock.running is None
    clock.start(BLACK)
    t.now += 30
    assert clock.remaining(BLACK) == 1170 and clock.remaining(WHITE) == 1200
    assert clock.press(BLACK) == 30
    t.now += 5
    assert clock.remaining(WHITE) == 1195 and clock.remaining(BLACK) == 1170
    assert clock.running is WHITE


def test_clock_flag_falls_and_time_goes_negative() -> None:
    t = FakeTime()
    clock = Clock({BLACK: 10, WHITE: 20}, time_source=t)
    clock.start(BLACK)
    t.now += 10
    assert clock.flagged(BLACK)
    t.now += 2
    assert clock.remaining(BLACK) == -2
    assert not clock.flagged(WHITE)


def test_clock_refuses_presses_out_of_turn() -> None:
    t = FakeTime()
    clock = Clock(60, time_source=t)
    with pytest.raises(ClockError, match="stopped"):
        clock.press(BLACK)
    clock.start(BLACK)
    with pytest.raises(ClockError, match="running for black"):
        clock.press(WHITE)
    with pytest.raises(ClockError, match="already running"):
        clock.start(WHITE)


def test_clock_stop_and_resume_from_state() -> None:
    t = FakeTime()
    clock = Clock(60, time_source=t)
    clock.start(WHITE)
    t.now += 7
    state = clock.state()
    assert (state.black, state.white, state.running) == (60, 53, WHITE)
    resumed = Clock.from_state(state, time_source=t)
    t.now += 3
    assert resumed.remaining(WHITE) == 50
    assert resumed.stop() == 3 and resumed.running is None
    assert resumed.stop() == 0


def test_clock_refuses_non_positive_time() -> None:
    with pytest.raises(ValueError, match="positive"):
        Clock(0)


def test_timeout_win_is_33_31_for_either_side() -> None:
    assert (timeout_win(BLACK).black, timeout_win(BLACK).white) == (33, 31)
    result = timeout_win(WHITE)
    assert (result.black, result.white, result.winner) == (31, 33, WHITE)
    assert result.termination is Termination.TIMEOUT
    mini = timeout_win(BLACK, squares=36)
    assert (mini.black, mini.white) == (19, 17)


def test_playout_mid_game_gives_empties_to_the_loser() -> None:
    # White flagged; Black plays both sides and stops at 10 black, 3 white, 51 empties:
    # with the empties to the loser that is 10-54.
    board = Board("X" * 10 + "O" * 3 + "-" * 51 + " X")
    result = playout_result(board, BLACK)
    # The count does not favour Black once the empties go to White: 33-31 instead.
    assert (result.black, result.white, result.termination) == (33, 31, Termination.TIMEOUT)


def test_playout_mid_game_count_that_favours_the_winner() -> None:
    board = Board("X" * 40 + "O" * 10 + "-" * 14 + " O")
    assert not board.is_game_over()
    result = playout_result(board, BLACK)
    assert (result.black, result.white) == (40, 24)
    assert result.winner is BLACK and result.termination is Termination.PLAYOUT


def test_playout_to_the_natural_end_scores_as_usual() -> None:
    board = Board("X" * 50 + "-" * 14 + " O")  # white wiped out: over
    result = playout_result(board, BLACK)
    assert (result.black, result.white) == (64, 0)


def test_both_flags_down_is_an_unrated_draw_unless_draw_win() -> None:
    plain = both_flags_down()
    assert (plain.black, plain.white, plain.winner, plain.rated) == (32, 32, None, False)
    final = both_flags_down(draw_win=WHITE)
    assert final.winner is WHITE and final.by_draw_win


def test_forfeit_and_resignation_score_the_whole_board() -> None:
    late = forfeit(WHITE, rated=False)
    assert (late.black, late.white, late.rated) == (0, 64, False)
    gave_up = resignation(WHITE)
    assert (gave_up.black, gave_up.white, gave_up.winner) == (64, 0, BLACK)
    assert gave_up.termination is Termination.RESIGNATION


def test_draw_win_right_decides_a_tie() -> None:
    board = Board("X" * 32 + "O" * 32 + " X")
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is None
    assert GameResult.from_outcome(outcome).winner is None
    won = GameResult.from_outcome(outcome, draw_win=BLACK)
    assert won.winner is BLACK and won.by_draw_win and str(won) == "32–32"


def test_fuse_ishi_with_draws_caller_plays_the_called_face() -> None:
    f = FuseIshi("hider", "caller", draws_allowed=True)
    f.hide(top=WHITE)
    f.call("bottom")
    d = f.decision()
    assert d.black == "caller" and d.white == "hider" and d.draw_win is None


@pytest.mark.parametrize("call_right", [True, False])
def test_fuse_ishi_without_draws_gives_rights(call_right: bool) -> None:
    f = FuseIshi("hider", "caller", draws_allowed=False)
    f.hide(top=BLACK)
    f.call(BLACK if call_right else WHITE)
    assert f.chooser == ("caller" if call_right else "hider")
    f.choose_right(Right.COLOUR)
    assert f.colour_chooser == f.chooser
    f.choose_colour(WHITE)
    d = f.decision()
    other = "hider" if f.chooser == "caller" else "caller"
    assert d.white == f.chooser and d.black == other and d.draw_win == other
    assert d.draw_win_colour is BLACK


def test_fuse_ishi_refuses_steps_out_of_order() -> None:
    f = FuseIshi("a", "b", draws_allowed=False)
    with pytest.raises(FuseIshiError, match="hide"):
        f.call(BLACK)
    f.hide(top=BLACK)
    with pytest.raises(FuseIshiError, match="black or white"):
        f.call("top")
    f.call(WHITE)
    with pytest.raises(FuseIshiError, match="rights first"):
        f.choose_colour(BLACK)
    with pytest.raises(FuseIshiError, match="not finished"):
        f.decision()
    with pytest.raises(FuseIshiError, match="different"):
        FuseIshi("a", "a", draws_allowed=True)


def test_random_colours_are_seeded_and_fair() -> None:
    rng = random.Random(7)
    blacks = [at_random("p", "q", rng).black for _ in range(2000)]
    assert 850 < blacks.count("p") < 1150


def test_results_scale_with_board_size() -> None:
    assert forfeit(BLACK, squares=find_variant("4x4").square_count()).black == 16
