"""A program waiting for its kernels (issue 50): the clock as a pure fold over
``ProgramWaiting``/``ProgramReady``.

A fresh server compiles the kernels the programs search with; a program that cannot move
yet must not be charged that time. Every test drives time by hand: the waiting time is not
charged, a restart mid-wait (the events read back from storage) loses nothing, and an
official game does not begin until every program can move.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hasamigo import BLACK, WHITE, Board
from hasamigo.game.controller import (
    GameController,
    GameError,
    GameOptions,
    GameSetup,
    Participant,
    Phase,
)
from hasamigo.game.events import (
    ProgramReady,
    ProgramWaiting,
    event_from_json,
    event_to_json,
)
from hasamigo.storage import Database, GameRepository

ME = Participant("Ann")
BOT = Participant("Bot", program="victory")
MINUTES_10 = 600.0


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def new(t: FakeTime, *, colour: str = "black", casual: bool = True,
        bot: Participant = BOT) -> GameController:
    """Ann against the program: Ann takes ``colour`` (colours chosen by the creator)."""
    setup = GameSetup((ME, bot), GameOptions(clock_seconds=MINUTES_10, casual=casual),
                      colour)  # type: ignore[arg-type]
    return GameController.new(setup, rng=random.Random(1), time_source=t)


def left(game: GameController) -> tuple[float, float]:
    remaining_black, remaining_white = game.remaining(BLACK), game.remaining(WHITE)
    assert remaining_black is not None and remaining_white is not None
    return remaining_black, remaining_white


# ---- casual: the person plays on, the program's clock waits --------------------------------
def test_a_waiting_programs_clock_does_not_run_and_starts_when_it_is_ready() -> None:
    t = FakeTime()
    game = new(t)  # Ann black, the program white
    game.program_waiting(1)
    t.now += 4
    game.play(BLACK, "f5")  # the person may move meanwhile: 4 s charged to Ann
    assert game.state.clock is not None and game.state.clock.running is None
    t.now += 50  # the program waits for its kernels: nobody's clock runs
    assert left(game) == (MINUTES_10 - 4, MINUTES_10)
    assert game.program_to_move() == (WHITE, "victory")
    game.program_ready(1)
    assert game.state.clock is not None and game.state.clock.running is WHITE
    t.now += 2
    game.play(WHITE, "d6")
    assert left(game) == (MINUTES_10 - 4, MINUTES_10 - 2)
    assert [m.seconds for m in game.history] == [4.0, 2.0]  # the wait is in no move


def test_waiting_that_begins_on_the_programs_turn_stops_its_clock_there() -> None:
    t = FakeTime()
    game = new(t, colour="white")  # the program black, on move from the start
    t.now += 1.5  # its clock ran before anyone knew (a restart finding cold kernels)
    game.program_waiting(1)
    t.now += 100
    assert left(game) == (MINUTES_10 - 1.5, MINUTES_10)
    game.program_ready(1)
    t.now += 3
    game.play(BLACK, "f5")
    assert left(game) == (MINUTES_10 - 4.5, MINUTES_10)
    # the move's own record counts from the ready, as a move's does from a Resume
    assert game.history[0].seconds == 3.0


def test_waiting_known_at_creation_charges_not_a_millisecond_of_the_programs_clock() -> None:
    """The server makes the game and then declares its cold program waiting: the wall
    clock moves in between (a millisecond on a loaded machine, CI's 599.999), which must
    not be charged; a wait found later is charged from the last event as before."""
    t = FakeTime()
    game = new(t, colour="white")  # the program black, on move from the start
    t.now += 0.001
    game.program_waiting(1, from_start=True)
    t.now += 30
    assert left(game) == (MINUTES_10, MINUTES_10)
    assert game.state.clock is not None and game.state.clock.running is None
    game.program_ready(1)
    t.now += 2
    game.play(BLACK, "f5")
    assert left(game) == (MINUTES_10 - 2, MINUTES_10)


def test_a_take_back_while_the_program_waits_runs_the_persons_clock() -> None:
    t = FakeTime()
    game = new(t)
    game.program_waiting(1)
    t.now += 1
    game.play(BLACK, "f5")
    t.now += 10
    game.undo(BLACK)  # casual, against a program: Ann is on move again
    assert game.state.clock is not None and game.state.clock.running is BLACK
    t.now += 5
    assert left(game) == (MINUTES_10 - 6, MINUTES_10)


def test_a_waiting_program_may_not_move_but_its_forced_pass_follows_at_once() -> None:
    t = FakeTime()
    game = new(t)
    game.program_waiting(1)
    game.play(BLACK, "f5")
    with pytest.raises(GameError) as refused:
        game.play(WHITE, "d6")
    assert refused.value.code == "program_waiting"
    # white (the program) must pass after black's e1: a forced pass needs no kernels
    start = "OOOO-XXXOOOOOOXOOOOOOXXXOOOOOXXXOOOOOXXXOOOOOOXXOOOOOXXXOO-OXXXX X"
    setup = GameSetup((ME, BOT), GameOptions(clock_seconds=MINUTES_10, position=start),
                      "black")
    game = GameController.new(setup, rng=random.Random(1), time_source=t)
    game.program_waiting(1)
    assert [e.kind for e in game.play(BLACK, "e1")] == ["move", "pass"]
    assert game.board.turn is BLACK and game.phase is Phase.PLAYING


# ---- a restart mid-wait -----------------------------------------------------------------------
def test_a_restart_mid_wait_replays_the_same_clock(tmp_path: Path) -> None:
    """The events are the truth: stored, read back by a new process (a restart) while the
    program still waits, and folded again, they give the same clock; the time the server
    was down counts as waiting, and the clock starts when the new process has the kernels."""
    t = FakeTime()
    db = Database(f"sqlite:///{tmp_path / 'games.db'}")
    db.open()
    repo = GameRepository(db)
    game = new(t)
    game.id = "wait1"
    repo.create(game)
    stored = len(game.events)
    game.program_waiting(1)
    t.now += 3
    game.play(BLACK, "f5")
    stored = repo.append(game, stored)
    before = game.clock_now()

    t.now += 120  # the server stops mid-wait and starts again two minutes later
    loaded = repo.load("wait1", time_source=t)
    assert loaded is not None
    again = loaded.game
    assert again.events == game.events and again.waiting == frozenset({1})
    assert again.clock_now() is not None and before is not None
    assert (again.clock_now().black, again.clock_now().white) == (before.black, before.white)
    again.program_ready(1)  # the new process has the kernels
    t.now += 2
    again.play(WHITE, "d6")
    repo.append(again, stored)
    final = repo.load("wait1", time_source=t)
    assert final is not None and final.game.events == again.events
    assert left(final.game) == (MINUTES_10 - 3, MINUTES_10 - 2)
    db.close()


def test_the_new_events_round_trip_as_json() -> None:
    for event in (ProgramWaiting(1, at=12.5), ProgramReady(0, at=13.0)):
        data = event_to_json(event, Board)
        assert data["kind"] in ("program-waiting", "program-ready")
        assert event_from_json(data, Board) == event


# ---- official: the game does not begin until every program can move -------------------------
def test_an_official_game_begins_only_once_the_program_can_move() -> None:
    t = FakeTime()
    game = new(t, casual=False)  # Ann black: she would move first
    game.program_waiting(1)
    assert game.phase is Phase.PLAYING and game.state.paused
    t.now += 30
    with pytest.raises(GameError) as refused:
        game.play(BLACK, "f5")
    assert refused.value.code == "program_waiting"
    assert left(game) == (MINUTES_10, MINUTES_10)  # neither clock ran
    game.program_ready(1)
    assert not game.state.paused
    t.now += 5
    game.play(BLACK, "f5")  # the clock started for the first mover at the ready
    assert left(game) == (MINUTES_10 - 5, MINUTES_10)


def test_an_official_game_pauses_both_clocks_if_its_program_must_wait_mid_game() -> None:
    t = FakeTime()
    game = new(t, casual=False)
    t.now += 2
    game.play(BLACK, "f5")
    t.now += 1
    game.play(WHITE, "d6")
    t.now += 7  # Ann thinking when the server restarts on a fresh cache
    game.program_waiting(1)
    t.now += 60
    assert left(game) == (MINUTES_10 - 9, MINUTES_10 - 1)
    game.program_ready(1)
    t.now += 1
    assert left(game) == (MINUTES_10 - 10, MINUTES_10 - 1)


def test_waiting_is_refused_for_a_person_twice_or_after_the_end() -> None:
    t = FakeTime()
    game = new(t)
    with pytest.raises(GameError):
        game.program_waiting(0)  # Ann is a person
    with pytest.raises(GameError):
        game.program_ready(1)  # not waiting
    game.program_waiting(1)
    with pytest.raises(GameError):
        game.program_waiting(1)
    game.resign(BLACK)
    with pytest.raises(GameError):
        game.program_waiting(1)
    game.program_ready(1)  # a late word of readiness is harmless
    assert game.waiting == frozenset()
