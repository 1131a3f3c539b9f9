"""The game controller: the official procedure, the clock without sleeping, storage state."""

from __future__ import annotations

import json
import random

import pytest

from hasamigo import BLACK, PASS, WHITE, Board, IllegalMoveError, IllegalReason
from hasamigo.game import Termination
from hasamigo.game.controller import (
    GameController,
    GameError,
    GameOptions,
    Participant,
    Phase,
    verdict_for,
)

ME = Participant("Ann")
BOT = Participant("Bot", program="random")
BOB = Participant("Bob")


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def new(first: Participant = ME, second: Participant = BOT, *, colour: str = "black",
        t: FakeTime | None = None, seed: int = 1, **options: object) -> GameController:
    return GameController.new(
        first, second, colour=colour, options=GameOptions(**options),  # type: ignore[arg-type]
        rng=random.Random(seed), time_source=t or FakeTime(), wall_clock=t or FakeTime(),
    )


def first_legal(game: GameController) -> str:
    return game.board.move_name(next(iter(game.board.legal_moves)))


def pass_position() -> tuple[str, str]:
    """A position (board string) and a move after which the opponent must pass."""
    rng = random.Random(7)
    while True:
        board = Board()
        while not board.is_game_over():
            for move in list(board.legal_moves):
                if move.is_pass:
                    continue
                board.push(move)
                forced = board.must_pass()
                board.pop()
                if forced:
                    return board.to_string(), board.move_name(move)
            board.push(rng.choice(list(board.legal_moves)))


# ---- set-up and colours ----------------------------------------------------------------
def test_colour_by_choice_and_clock_starts_for_black() -> None:
    t = FakeTime()
    game = new(colour="white", t=t)
    assert game.phase is Phase.PLAYING
    assert game.seat(WHITE) == ME and game.seat(BLACK) == BOT
    assert game.program_to_move() == (BLACK, "random")
    assert game.clock is not None and game.clock.running is BLACK


def test_handicap_game_white_moves_first_and_needs_a_chosen_colour() -> None:
    game = new(handicap=2)
    assert game.board.turn is WHITE and game.clock is not None and game.clock.running is WHITE
    assert game.board.black >> 0 & 1 and game.board.black >> 63 & 1
    with pytest.raises(GameError, match="weaker player takes Black"):
        new(handicap=1, colour="random")


def test_random_colours_follow_the_rng() -> None:
    seats = {new(colour="random", seed=s).seat(BLACK).name for s in range(20)}
    assert seats == {"Ann", "Bot"}


def test_fuse_ishi_with_draws_allowed_the_call_decides_the_colour() -> None:
    game = new(colour="fuse-ishi", seed=3)
    assert game.phase is Phase.COLOURS and game.fuse_ishi_pending() == ("call", 0)
    game.fuse_ishi_step(0, "call", "top")
    top = game.fuse_ishi_top
    assert game.phase is Phase.PLAYING and top is not None
    assert game.seat(top) == ME and game.draw_win is None


def test_fuse_ishi_without_draws_right_call_lets_the_person_take_a_right() -> None:
    game = new(colour="fuse-ishi", seed=3, draws_allowed=False)
    top = game._fuse.top  # type: ignore[union-attr]
    with pytest.raises(GameError, match="waiting for Ann to choose the call"):
        game.fuse_ishi_step(0, "right", "draw-win")
    game.fuse_ishi_step(0, "call", top.value)  # right call: Ann chooses a right
    assert game.fuse_ishi_pending() == ("right", 0)
    game.fuse_ishi_step(0, "right", "colour")  # the program gets the draw-win right
    game.fuse_ishi_step(0, "colour", "white")
    assert game.seat(WHITE) == ME and game.draw_win is BLACK


def test_fuse_ishi_without_draws_wrong_call_the_program_takes_the_draw_win_right() -> None:
    game = new(colour="fuse-ishi", seed=3, draws_allowed=False)
    top = game._fuse.top  # type: ignore[union-attr]
    game.fuse_ishi_step(0, "call", top.other.value)  # wrong: the program (hider) chooses
    assert game.fuse_ishi_pending() == ("colour", 0)  # it took the draw-win right
    game.fuse_ishi_step(0, "colour", "black")
    assert game.seat(BLACK) == ME and game.draw_win is WHITE


def test_a_bad_fuse_ishi_value_changes_nothing() -> None:
    game = new(colour="fuse-ishi", draws_allowed=False)
    with pytest.raises(GameError):
        game.fuse_ishi_step(0, "call", "top")  # without draws the call is a colour
    assert game.fuse_ishi_pending() == ("call", 0)


# ---- moves, passes, clock ----------------------------------------------------------------
def test_time_is_charged_from_offer_to_receipt() -> None:
    t = FakeTime()
    game = new(t=t, clock_seconds=600)
    t.now += 12.5
    added = game.play(BLACK, "f5")
    assert added[0].seconds == pytest.approx(12.5)
    assert game.clock is not None
    assert game.clock.remaining(BLACK) == pytest.approx(587.5)
    t.now += 3
    game.play(WHITE, first_legal(game))
    assert game.clock.remaining(WHITE) == pytest.approx(597)


def test_illegal_moves_are_refused_with_the_reason_and_change_nothing() -> None:
    game = new()
    before = game.to_dict()
    with pytest.raises(IllegalMoveError) as info:
        game.play(BLACK, "e5")
    assert info.value.reason is IllegalReason.OCCUPIED
    with pytest.raises(IllegalMoveError) as info:
        game.play(WHITE, "f4")
    assert info.value.reason is IllegalReason.NOT_YOUR_TURN
    with pytest.raises(IllegalMoveError) as info:
        game.play(BLACK, "pass")
    assert info.value.reason is IllegalReason.PASS_NOT_ALLOWED
    with pytest.raises(GameError):
        game.play(BLACK, "z9")
    after = game.to_dict()
    before["clock"]["saved_at"] = after["clock"]["saved_at"]
    assert after == before


def test_passes_are_automatic_and_press_the_clock() -> None:
    position, move = pass_position()
    game = new(position=position, colour="black" if position.endswith("X") else "white")
    mover = game.board.turn
    added = game.play(mover, move)
    assert [m.move for m in added] == [game.board.parse_move(move), PASS]
    assert added[1].automatic and added[1].colour is mover.other
    assert game.board.turn is mover


def test_stale_program_moves_are_refused() -> None:
    game = new(colour="white")
    revision = game.revision
    game.play(BLACK, "f5")
    with pytest.raises(GameError) as info:
        game.play(WHITE, "f4", revision=revision)
    assert info.value.code == "stale"


def test_a_game_played_out_ends_with_the_official_score() -> None:
    game = new(variant="4x4", clock_seconds=None)
    while game.phase is Phase.PLAYING:
        game.play(None, first_legal(game))
    assert game.result is not None and game.result.termination is Termination.NORMAL
    assert game.result.black + game.result.white == 16
    verdict = verdict_for(game.result, BLACK)
    assert verdict.outcome in ("win", "lose", "draw")


# ---- time-out --------------------------------------------------------------------------
def test_a_persons_flag_is_claimed_when_seen_and_the_program_takes_33_31() -> None:
    t = FakeTime()
    game = new(t=t, clock_seconds=60)
    t.now += 59
    assert not game.tick()
    t.now += 2
    with pytest.raises(GameError) as info:
        game.play(BLACK, "f5")  # arrives after the flag fell: refused, the flag is claimed
    assert info.value.code == "time_up"
    assert game.result is not None and game.result.termination is Termination.TIMEOUT
    assert (game.result.black, game.result.white, game.result.winner) == (31, 33, WHITE)


def test_a_programs_flag_waits_for_the_persons_claim_then_play_out() -> None:
    t = FakeTime()
    game = new(t=t, colour="white", clock_seconds=60)
    with pytest.raises(GameError, match="has not fallen"):
        game.claim_flag(WHITE)
    t.now += 61
    assert not game.tick()  # nobody claims a program's flag but the person
    game.play(BLACK, "f5")  # the program's move still counts
    assert game.claimable_flag() is BLACK
    game.claim_flag(WHITE)
    assert game.phase is Phase.TIMEOUT_CHOICE and game.timeout_loser is BLACK
    game.choose_after_timeout("playout")
    assert game.phase is Phase.PLAYOUT
    t.now += 5
    game.play(None, first_legal(game))  # the winner plays White...
    game.play(None, first_legal(game))  # ...and Black
    game.stop_playout()
    assert game.result is not None and game.result.winner is WHITE
    # behind on the board: the winner keeps the 33–31 it could have taken instead
    assert game.result.termination is Termination.TIMEOUT


def test_a_playout_count_gives_the_empties_to_the_loser() -> None:
    t = FakeTime()
    position = "--OOOOOO" + "OOOOOOOO" * 6 + "XXXXXXXX X"
    game = new(t=t, colour="white", clock_seconds=60, position=position)
    t.now += 61
    game.claim_flag(WHITE)
    game.choose_after_timeout("playout")
    game.stop_playout()
    assert game.result is not None and game.result.termination is Termination.PLAYOUT
    assert (game.result.black, game.result.white) == (10, 54)


def test_playout_ends_when_the_winners_time_runs_out() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=60)
    t.now += 61
    assert game.tick() and game.phase is Phase.TIMEOUT_CHOICE  # Ann (Black) flagged
    game.choose_after_timeout("playout")
    t.now += 61  # Bob's remaining minute runs out while he plays out
    assert game.tick()
    assert game.result is not None and game.result.winner is WHITE


def test_both_flags_down_is_a_draw_or_a_draw_win() -> None:
    t = FakeTime()
    game = new(t=t, colour="white", clock_seconds=60)
    t.now += 61
    game.play(BLACK, "f5")  # the program's flag fell unclaimed
    t.now += 61
    assert game.tick()
    assert game.result is not None and game.result.termination is Termination.BOTH_FLAGS
    assert game.result.winner is None and not game.result.rated
    game = new(t=t, colour="fuse-ishi", draws_allowed=False, clock_seconds=60, seed=3)
    top = game._fuse.top  # type: ignore[union-attr]
    game.fuse_ishi_step(0, "call", top.value)
    game.fuse_ishi_step(0, "right", "draw-win")  # the program then takes White itself
    assert game.seat(WHITE) == BOT
    assert game.draw_win is game.colour_of(0)


# ---- resign and undo ---------------------------------------------------------------------
def test_resign() -> None:
    game = new()
    game.resign(BLACK)
    assert game.result is not None and game.result.termination is Termination.RESIGNATION
    assert (game.result.black, game.result.white) == (0, 64)
    with pytest.raises(GameError):
        game.play(BLACK, "f5")


def test_undo_takes_back_the_persons_move_and_the_reply_in_casual_games_only() -> None:
    game = new()
    game.play(BLACK, "f5")
    game.play(WHITE, first_legal(game))
    assert game.can_undo
    removed = game.undo()
    assert [m.colour for m in removed] == [BLACK, WHITE]
    assert game.board.ply == 0 and game.board.turn is BLACK
    with pytest.raises(GameError) as info:
        game.undo()
    assert info.value.code == "nothing_to_undo"
    official = new(casual=False)
    official.play(BLACK, "f5")
    with pytest.raises(GameError) as info:
        official.undo()
    assert info.value.code == "undo_not_allowed"


# ---- storage state -----------------------------------------------------------------------
def test_state_round_trips_and_an_outage_is_not_charged() -> None:
    t = FakeTime()
    game = new(t=t, clock_seconds=600, colour="fuse-ishi", draws_allowed=False, seed=5)
    top = game._fuse.top  # type: ignore[union-attr]
    game.fuse_ishi_step(0, "call", top.value)
    game.fuse_ishi_step(0, "right", "draw-win")
    mover = game.board.turn
    t.now += 10
    game.play(mover, first_legal(game))
    t.now += 4
    data = json.loads(json.dumps(game.to_dict()))
    t.now += 3600  # the server is down for an hour
    again = GameController.from_dict(data, time_source=t, wall_clock=t)
    assert again.board == game.board and again.board.move_stack == game.board.move_stack
    assert again.seats == game.seats and again.draw_win == game.draw_win
    assert again.revision == game.revision and again.phase is game.phase
    assert again.clock is not None and game.clock is not None
    assert again.clock.running is game.clock.running
    assert again.clock.remaining(mover.other) == pytest.approx(596)
    assert again.to_dict()["moves"] == game.to_dict()["moves"]


def test_finished_and_timeout_states_round_trip() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=60)
    t.now += 61
    game.tick()
    again = GameController.from_dict(game.to_dict(), time_source=t, wall_clock=t)
    assert again.phase is Phase.TIMEOUT_CHOICE and again.timeout_loser is BLACK
    again.choose_after_timeout("33-31")
    final = GameController.from_dict(again.to_dict(), time_source=t, wall_clock=t)
    assert final.result == again.result
