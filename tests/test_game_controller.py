"""The game controller: the official procedure as events, each clock rule with injected time.

Every test drives time by hand (``FakeTime``), so rule 15 of the JOF rules is checked
instant by instant without sleeping.
"""

from __future__ import annotations

import random

import pytest

from hasamigo import BLACK, PASS, WHITE, Board, IllegalMoveError, IllegalReason
from hasamigo.game import Termination
from hasamigo.game.controller import (
    GameController,
    GameError,
    GameOptions,
    GameSetup,
    Participant,
    Phase,
    verdict_for,
)
from hasamigo.game.errors import StoredGameError
from hasamigo.game.events import ColourStep, MovePlayed, Pass, Resume, Suspend
from hasamigo.game.state import replay

ME = Participant("Ann", birth_year=2000)
BOT = Participant("Bot", program="random")
BOB = Participant("Bob")


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def new(first: Participant = ME, second: Participant = BOT, *, colour: str = "black",
        t: FakeTime | None = None, seed: int = 1, **options: object) -> GameController:
    setup = GameSetup((first, second), GameOptions(**options), colour)  # type: ignore[arg-type]
    return GameController.new(setup, rng=random.Random(seed), time_source=t or FakeTime())


def first_legal(game: GameController) -> str:
    return game.board.move_name(next(iter(game.board.legal_moves)))


def snapshot(game: GameController) -> tuple[object, ...]:
    """Everything the fold says, in comparable form."""
    s = game.state
    return (s.board.to_string(), list(s.board.move_stack), s.phase, s.seats, s.draw_win,
            s.colours, s.clock, s.moves, s.result, s.timeout_loser, s.playout_from,
            s.accepted, s.undo_request, s.suspended, s.last_at, s.revision,
            s.position_revision)


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


def drawn_4x4() -> tuple[str, str]:
    """A 4×4 position (board string) and the move that ends it 8–8."""
    from hasamigo import find_variant

    variant = find_variant("4x4")
    rng = random.Random(3)
    while True:
        board = variant()
        while not board.is_game_over():
            moves = list(board.legal_moves)
            if board.empties.bit_count() == 1 or len(moves) == 1:
                for move in moves:
                    board.push(move)
                    outcome = board.outcome()
                    board.pop()
                    if outcome is not None and outcome.winner is None and not move.is_pass:
                        return board.to_string(), board.move_name(move)
            board.push(rng.choice(moves))


# ---- set-up and colours ----------------------------------------------------------------
def test_colour_by_choice_starts_blacks_clock_and_is_an_event() -> None:
    t = FakeTime()
    game = new(colour="white", t=t)
    assert game.phase is Phase.PLAYING
    assert game.seat(WHITE) == ME and game.seat(BLACK) == BOT
    assert game.program_to_move() == (BLACK, "random")
    assert game.events == (ColourStep("choose", "white", 0, at=1000.0),)
    clock = game.state.clock
    assert clock is not None and clock.running is BLACK and clock.since == 1000.0


def test_handicap_game_white_moves_first_and_needs_a_chosen_colour() -> None:
    game = new(handicap=2)
    assert game.board.turn is WHITE and game.state.clock is not None
    assert game.state.clock.running is WHITE
    assert game.board.black >> 0 & 1 and game.board.black >> 63 & 1
    with pytest.raises(GameError, match="weaker player takes Black"):
        new(handicap=1, colour="random")


def test_random_colours_follow_the_rng_and_are_recorded() -> None:
    seats = {new(colour="random", seed=s).seat(BLACK).name for s in range(20)}
    assert seats == {"Ann", "Bot"}
    game = new(colour="random", seed=4)
    step = game.events[0]
    assert isinstance(step, ColourStep) and step.step == "draw"
    assert game.seat(BLACK) == game.participants[int(step.value)]


def test_fuse_ishi_hider_is_the_higher_rank_then_the_elder_then_drawn() -> None:
    strong = Participant("Kim", rank="3d", birth_year=1990)
    weak = Participant("Lee", rank="2k", birth_year=1950)
    game = new(weak, strong, colour="fuse-ishi")
    assert game.state.colours.hider == 1  # the higher rank, though younger
    same = new(Participant("A", rank="1d", birth_year=1980),
               Participant("B", rank="初段", birth_year=1960), colour="fuse-ishi")
    assert same.state.colours.hider == 1  # equal ranks: the elder
    unknown = new(Participant("Ann"), BOB, colour="fuse-ishi", seed=2)
    kinds = [(e.step, e.participant) for e in unknown.events if isinstance(e, ColourStep)]
    assert kinds[0] == ("hider", None)  # nothing decides: drawn, and recorded
    assert unknown.state.colours.hider == int(unknown.events[0].value)  # type: ignore[attr-defined]
    with pytest.raises(GameError, match="not a rank"):
        Participant("X", rank="strong")


def test_fuse_ishi_with_draws_allowed_the_call_decides_the_colour() -> None:
    game = new(Participant("Ann", birth_year=2000), Participant("Bot", program="random",
                                                               birth_year=1990),
               colour="fuse-ishi", seed=3)
    assert game.phase is Phase.COLOURS
    assert game.state.pending_colour_step() == ("call", 0)
    top = game.state.colours.top
    game.colour_step(0, "call", "top")
    assert game.phase is Phase.PLAYING and top is not None
    assert game.seat(top).name == "Ann" and game.draw_win is None


def test_fuse_ishi_without_draws_right_call_lets_the_person_take_a_right() -> None:
    bot = Participant("Bot", program="random", birth_year=1950)
    game = new(ME, bot, colour="fuse-ishi", seed=3, draws_allowed=False)
    top = game.state.colours.top
    assert top is not None
    with pytest.raises(GameError, match="waiting for Ann to take the call step"):
        game.colour_step(0, "right", "draw-win")
    game.colour_step(0, "call", top.value)  # right call: Ann chooses a right
    assert game.state.pending_colour_step() == ("right", 0)
    game.colour_step(0, "right", "colour")  # the program gets the draw-win right
    game.colour_step(0, "colour", "white")
    assert game.seat(WHITE) == ME and game.draw_win is BLACK


def test_fuse_ishi_without_draws_wrong_call_the_program_takes_the_draw_win_right() -> None:
    bot = Participant("Bot", program="random", birth_year=1950)
    game = new(ME, bot, colour="fuse-ishi", seed=3, draws_allowed=False)
    top = game.state.colours.top
    assert top is not None
    game.colour_step(0, "call", top.other.value)  # wrong: the program (hider) chooses
    assert game.state.pending_colour_step() == ("colour", 0)  # it took the draw-win right
    game.colour_step(0, "colour", "black")
    assert game.seat(BLACK) == ME and game.draw_win is WHITE


def test_a_bad_colour_step_changes_nothing() -> None:
    bot = Participant("Bot", program="random", birth_year=1950)
    game = new(ME, bot, colour="fuse-ishi", draws_allowed=False)
    before, events = snapshot(game), game.events
    with pytest.raises(GameError):
        game.colour_step(0, "call", "top")  # without draws the call is a colour
    with pytest.raises(GameError):
        game.colour_step(1, "call", "black")  # not the caller
    assert snapshot(game) == before and game.events == events


def test_no_draws_with_chosen_colours_a_fuse_ishi_decides_the_draw_win_right() -> None:
    position, last = drawn_4x4()
    turn = BLACK if position.endswith("X") else WHITE
    for call_right in (True, False):
        game = new(ME, BOB, variant="4x4", position=position, draws_allowed=False,
                   colour="black" if turn is BLACK else "white", seed=8)
        assert game.phase is Phase.COLOURS and game.state.colours.draw_win_only
        pending = game.state.pending_colour_step()
        assert pending is not None and pending[0] == "call"
        top = game.state.colours.top
        assert top is not None
        caller = pending[1]
        assert caller is not None
        game.colour_step(caller, "call", top.value if call_right else top.other.value)
        holder = caller if call_right else 1 - caller
        assert game.draw_win is game.colour_of(holder)
        game.play(None, last)
        result = game.result
        assert result is not None and (result.black, result.white) == (8, 8)
        assert result.winner is game.draw_win and result.by_draw_win


# ---- moves, passes, clock ----------------------------------------------------------------
def test_time_is_charged_from_offer_to_receipt() -> None:
    t = FakeTime()
    game = new(t=t, clock_seconds=600)
    t.now += 12.5
    game.play(BLACK, "f5")
    assert game.history[0].seconds == pytest.approx(12.5)
    assert game.remaining(BLACK) == pytest.approx(587.5)
    t.now += 3
    game.play(WHITE, first_legal(game))
    assert game.remaining(WHITE) == pytest.approx(597)


def test_illegal_moves_are_refused_with_the_reason_and_change_nothing() -> None:
    game = new()
    before, events = snapshot(game), game.events
    with pytest.raises(IllegalMoveError) as info:
        game.play(BLACK, "e5")
    assert info.value.reason is IllegalReason.OCCUPIED
    with pytest.raises(IllegalMoveError) as info:
        game.play(WHITE, "f4")
    assert info.value.reason is IllegalReason.NOT_YOUR_TURN
    with pytest.raises(IllegalMoveError) as info:
        game.play(BLACK, "pass")
    assert info.value.reason is IllegalReason.PASS_NOT_ALLOWED
    # rule 6①: a refused pass says where the moves are
    assert "d3" in str(info.value) and "f5" in str(info.value)
    for bad in ("z9", "a²", "a" + "9" * 5000):
        with pytest.raises(ValueError):
            game.play(BLACK, bad)
    assert snapshot(game) == before and game.events == events


def test_passes_are_automatic_at_the_same_instant() -> None:
    position, move = pass_position()
    t = FakeTime()
    game = new(ME, BOB, position=position, t=t,
               colour="black" if position.endswith("X") else "white")
    mover = game.board.turn
    t.now += 5
    added = game.play(mover, move)
    assert [type(e) for e in added] == [MovePlayed, Pass]
    assert added[1].at == added[0].at and added[1].colour is mover.other  # type: ignore[attr-defined]
    assert game.board.turn is mover and game.history[-1].seconds == 0
    assert game.state.clock is not None and game.state.clock.running is mover


def test_a_move_chosen_before_the_position_changed_is_stale() -> None:
    game = new(colour="white")
    revision = game.revision
    game.play(BLACK, "f5")
    with pytest.raises(GameError) as info:
        game.play(WHITE, "f4", revision=revision)
    assert info.value.code == "stale"
    game.play(WHITE, "f4", revision=game.revision)  # the current revision is fine


def test_a_game_played_out_ends_with_the_official_score() -> None:
    game = new(ME, BOB, variant="4x4", clock_seconds=None)
    while game.phase is Phase.PLAYING:
        game.play(None, first_legal(game))
    assert game.result is not None and game.result.termination is Termination.NORMAL
    assert game.result.black + game.result.white == 16
    verdict = verdict_for(game.result, BLACK)
    assert verdict.outcome in ("win", "lose", "draw")
    assert game.state.result_final  # no clock: nothing left to claim


# ---- time-out: JOF rule 15 ----------------------------------------------------------------
def test_the_server_never_claims_a_persons_flag_between_two_people() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=60)
    t.now += 61
    assert game.observe() == [] and game.phase is Phase.PLAYING
    game.play(BLACK, "f5")  # received after the flag fell, before a claim: it stands
    assert game.board.ply == 1
    t.now += 1
    assert game.observe() == []
    assert game.claimable(WHITE) is BLACK  # the flag stays down
    game.claim(WHITE)
    assert game.phase is Phase.TIMEOUT_CHOICE and game.timeout_loser is BLACK


def test_a_program_claims_the_persons_fallen_flag_as_a_player_would() -> None:
    t = FakeTime()
    game = new(t=t, clock_seconds=60)
    t.now += 59
    assert game.observe() == []
    t.now += 2
    events = game.observe()
    assert [e.kind for e in events] == ["claim", "timeout-choice", "accept"]
    assert game.result is not None and game.result.termination is Termination.TIMEOUT
    assert (game.result.black, game.result.white, game.result.winner) == (31, 33, WHITE)
    # the claim is at the instant it was seen, not when the flag fell
    assert events[0].at == 1061.0
    quiet = new(t=t, clock_seconds=60, program_claims=False)
    t.now += 100
    assert quiet.observe() == [] and quiet.phase is Phase.PLAYING
    quiet.claim(BLACK, BLACK)  # the person reports their own flag
    assert quiet.result is not None and quiet.result.winner is WHITE


def test_a_programs_flag_waits_for_the_persons_claim_unless_they_asked() -> None:
    t = FakeTime()
    game = new(t=t, colour="white", clock_seconds=60)
    with pytest.raises(GameError, match="has not fallen"):
        game.claim(WHITE)
    t.now += 61
    assert game.observe() == []  # nobody claims a program's flag but the person
    game.play(BLACK, "f5")  # the program's move still counts
    assert game.claimable(WHITE) is BLACK
    game.claim(WHITE)
    assert game.phase is Phase.TIMEOUT_CHOICE and game.timeout_loser is BLACK
    helper = Participant("Ann", birth_year=2000, auto_claim=True)
    auto = new(helper, BOT, t=t, colour="white", clock_seconds=60)
    t.now += 61
    assert auto.observe(busy=[BLACK]) == []  # its move is being computed: completed first
    assert [e.kind for e in auto.observe()] == ["claim"]
    assert auto.phase is Phase.TIMEOUT_CHOICE


def test_claim_when_the_claimants_flag_is_down_too_is_both_flags() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=60)
    t.now += 61
    game.play(BLACK, "f5")  # Black's flag fell unclaimed
    t.now += 61
    game.claim(WHITE)  # White claims, but White's flag is down as well
    result = game.result
    assert result is not None and result.termination is Termination.BOTH_FLAGS
    assert result.winner is None and not result.rated and (result.black, result.white) == (32, 32)


def test_both_flags_down_goes_to_the_draw_win_holder() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=60, colour="fuse-ishi", draws_allowed=False, seed=3)
    pending = game.state.pending_colour_step()
    assert pending is not None and pending[0] == "call"
    caller = pending[1]
    assert caller is not None and game.state.colours.top is not None
    game.colour_step(caller, "call", game.state.colours.top.value)
    game.colour_step(caller, "right", "draw-win")
    game.colour_step(1 - caller, "colour", "black")
    holder = game.colour_of(caller)
    t.now += 61
    game.play(BLACK, "f5")
    t.now += 61
    game.claim(BLACK)
    assert game.result is not None and game.result.winner is holder
    assert game.result.by_draw_win and not game.result.rated


def test_the_winner_chooses_and_only_the_winner_plays_out() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=60)
    with pytest.raises(GameError):
        game.choose_after_timeout("33-31")  # no time-out yet
    t.now += 61
    game.claim(WHITE)
    game.choose_after_timeout("playout")
    assert game.phase is Phase.PLAYOUT and game.state.clock is not None
    assert game.state.clock.running is WHITE
    t.now += 5
    game.play(None, first_legal(game))  # the winner plays Black...
    game.play(None, first_legal(game))  # ...and White
    assert game.remaining(WHITE) == pytest.approx(55)  # only the winner's time runs
    game.stop_playout()
    assert game.result is not None and game.result.winner is WHITE


def test_a_playout_count_gives_the_empties_to_the_loser() -> None:
    t = FakeTime()
    position = "--OOOOOO" + "OOOOOOOO" * 6 + "XXXXXXXX X"
    game = new(t=t, colour="white", clock_seconds=60, position=position)
    t.now += 61
    game.claim(WHITE)
    game.choose_after_timeout("playout")
    game.stop_playout()
    assert game.result is not None and game.result.termination is Termination.PLAYOUT
    assert (game.result.black, game.result.white) == (10, 54)


def test_an_unfavourable_playout_count_keeps_the_winners_33_31() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=60)
    t.now += 61
    game.claim(WHITE)
    game.choose_after_timeout("playout")
    game.stop_playout()  # 2–2 with 60 empties to the loser: 62–2 for Black on the board
    assert game.result is not None and game.result.winner is WHITE
    assert game.result.termination is Termination.TIMEOUT and game.result.white == 33


def test_playout_ends_when_the_winners_time_runs_out() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=60)
    t.now += 61
    game.claim(WHITE)
    t.now += 10
    game.choose_after_timeout("playout")
    t.now += 30
    game.play(None, first_legal(game))
    t.now += 40  # White's remaining minute ran out 10 s ago
    with pytest.raises(GameError) as info:
        game.play(None, first_legal(game))  # a move after the fall does not count
    assert info.value.code == "time_up"
    events = game.observe()
    assert [e.kind for e in events] == ["stop-playout"]
    assert events[0].at == pytest.approx(1000 + 61 + 10 + 60)  # the instant it fell
    assert game.result is not None and game.result.winner is WHITE
    assert game.board.ply == 1


def test_the_last_movers_time_out_can_be_claimed_until_both_accept() -> None:
    position, last = drawn_4x4()
    for accept_first in (False, True):
        t = FakeTime()
        game = new(ME, BOB, t=t, clock_seconds=60, position=position, variant="4x4",
                   colour="black" if position.endswith("X") else "white")
        mover = game.board.turn
        t.now += 70  # the last move is made after the mover's flag fell
        game.play(mover, last)
        assert game.phase is Phase.OVER and not game.state.result_final
        if accept_first:
            game.accept_result(BLACK)
            game.accept_result(WHITE)
            assert game.state.result_final
            with pytest.raises(GameError):
                game.claim(mover.other)
            continue
        game.accept_result(mover)  # one acceptance is not enough
        game.claim(mover.other)
        assert game.phase is Phase.TIMEOUT_CHOICE and game.timeout_loser is mover
        game.choose_after_timeout("33-31")
        assert game.result is not None and game.result.winner is mover.other
        assert (game.result.black + game.result.white) == 16


def test_an_outage_is_not_charged() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=600)
    t.now += 10
    game.play(BLACK, "f5")
    t.now += 4
    game.suspend()  # the server stops
    t.now += 3600
    with pytest.raises(GameError) as info:
        game.play(WHITE, first_legal(game))
    assert info.value.code == "suspended"
    game.resume()
    t.now += 2
    assert game.remaining(WHITE) == pytest.approx(594)
    assert [type(e) for e in game.events[-2:]] == [Suspend, Resume]


# ---- resign and take-backs ---------------------------------------------------------------
def test_resign() -> None:
    game = new()
    game.resign(BLACK)
    assert game.result is not None and game.result.termination is Termination.RESIGNATION
    assert (game.result.black, game.result.white) == (0, 64)
    with pytest.raises(GameError):
        game.play(BLACK, "f5")


def test_undo_against_a_program_takes_back_the_reply_too_in_casual_games_only() -> None:
    t = FakeTime()
    game = new(t=t)
    t.now += 5
    game.play(BLACK, "f5")
    t.now += 1
    game.play(WHITE, first_legal(game))
    assert game.can_undo(BLACK)
    t.now += 2
    game.undo(BLACK)
    assert game.board.ply == 0 and game.board.turn is BLACK
    assert game.remaining(BLACK) == pytest.approx(1193)  # time used is not given back
    assert game.remaining(WHITE) == pytest.approx(1199)
    with pytest.raises(GameError) as info:
        game.undo(BLACK)
    assert info.value.code == "nothing_to_undo"
    official = new(casual=False)
    official.play(BLACK, "f5")
    with pytest.raises(GameError) as info:
        official.undo(BLACK)
    assert info.value.code == "undo_not_allowed"


def test_undo_between_two_people_needs_the_opponents_consent() -> None:
    game = new(ME, BOB)
    game.play(BLACK, "f5")
    with pytest.raises(GameError) as info:
        game.undo(BLACK)
    assert info.value.code == "no_undo_request"
    game.request_undo(BLACK)
    game.decline_undo(WHITE)
    assert game.board.ply == 1 and game.state.undo_request is None
    game.request_undo(BLACK)
    game.play(WHITE, first_legal(game))  # playing on withdraws the request
    assert game.state.undo_request is None
    game.request_undo(BLACK)
    game.undo(BLACK)  # White consents: Black's f5 and White's reply go
    assert game.board.ply == 0


# ---- the record is the truth -----------------------------------------------------------
def test_replaying_the_events_gives_the_same_state() -> None:
    t = FakeTime()
    game = new(ME, BOB, t=t, clock_seconds=300, colour="fuse-ishi", draws_allowed=False, seed=5)
    pending = game.state.pending_colour_step()
    assert pending is not None and pending[1] is not None
    game.colour_step(pending[1], "call", "black")
    while (step := game.state.pending_colour_step()) is not None:
        assert step[1] is not None
        game.colour_step(step[1], step[0], "draw-win" if step[0] == "right" else "white")
    for _ in range(6):
        t.now += 3
        game.play(None, first_legal(game))
    again = GameController(game.setup, game.events, time_source=t)
    assert snapshot(again) == snapshot(game)


def test_a_damaged_record_is_refused_with_the_event_number() -> None:
    game = new(ME, BOB)
    game.play(BLACK, "f5")
    events = list(game.events)
    events.insert(1, MovePlayed(WHITE, Board.parse_square("a1"), at=1000.0))
    with pytest.raises(StoredGameError, match="event 2") as info:
        replay(game.setup, events, game="g1")
    assert info.value.game == "g1" and info.value.event == 2
    backwards = [*game.events, MovePlayed(WHITE, Board.parse_square("f4"), at=1.0)]
    with pytest.raises(StoredGameError, match="before the previous"):
        GameController(game.setup, backwards, game_id="g2")


def test_a_pass_is_refused_while_a_move_exists_and_accepted_when_forced() -> None:
    game = new(ME, BOB)
    with pytest.raises(IllegalMoveError):
        game.append(Pass(BLACK, at=game.now()))
    assert game.board.move_stack == [] and PASS not in game.board.move_stack
