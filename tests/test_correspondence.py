"""Correspondence games (issue 67): days per move instead of a chess clock.

Each turn's deadline is the instant it began plus the days; once it passes, the side to
move loses on time (a 33–31 time-out, termination ``timeout``), claimed for its opponent
by the same path a program's claim of a fallen flag takes. Time is a fake clock here:
nothing sleeps for days.
"""

from __future__ import annotations

import pytest

from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.events import Resume, Suspend
from hasamigo.game.setup import DAY_SECONDS, GameOptions, GameSetup, Participant
from hasamigo.game.state import Phase
from hasamigo.move import BLACK, WHITE

START = 1_800_000_000.0
DAY = DAY_SECONDS


class FakeTime:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def correspondence(days: int = 3, t: FakeTime | None = None) -> tuple[GameController, FakeTime]:
    t = t or FakeTime()
    setup = GameSetup((Participant("Ann"), Participant("Bob")),
                      GameOptions(clock_seconds=None, days_per_move=days))
    return GameController.new(setup, time_source=t), t


# ---- the option ---------------------------------------------------------------------------
@pytest.mark.parametrize("days", [0, 15, -1])
def test_days_per_move_run_from_1_to_14(days: int) -> None:
    with pytest.raises(GameError, match="1 to 14 days"):
        GameOptions(clock_seconds=None, days_per_move=days)


def test_a_correspondence_game_has_no_chess_clock() -> None:
    with pytest.raises(GameError, match="no chess clock"):
        GameOptions(days_per_move=3)  # the default 20-minute clock left in
    assert GameOptions(clock_seconds=None, days_per_move=14).move_seconds == 14 * DAY


def test_the_option_is_stored_and_old_setups_read_as_none() -> None:
    game, _t = correspondence(5)
    data = game.setup.to_json()
    assert data["options"]["days_per_move"] == 5
    assert GameSetup.from_json(data).options.days_per_move == 5
    plain = GameSetup((Participant("Ann"), Participant("Bob"))).to_json()
    assert "days_per_move" not in plain["options"]  # as stored before it existed
    assert GameSetup.from_json(plain).options.days_per_move is None
    data["options"]["days_per_move"] = True
    with pytest.raises(GameError, match="wrong type"):
        GameSetup.from_json(data)


# ---- the fold -----------------------------------------------------------------------------
def test_each_turn_has_the_days_from_the_instant_it_began() -> None:
    game, t = correspondence(3)
    assert game.phase is Phase.PLAYING
    assert game.state.deadline() == START + 3 * DAY
    t.now += 2 * DAY + 5
    game.play(BLACK, "f5")
    assert game.state.deadline() == t.now + 3 * DAY  # White's turn: the days afresh
    t.now += 3 * DAY - 1  # a second before White's deadline
    game.observe()
    assert game.phase is Phase.PLAYING
    game.play(WHITE, "d6")
    assert game.state.deadline() == t.now + 3 * DAY  # Black has three days again
    assert game.remaining(BLACK) == 3 * DAY


def test_when_the_deadline_passes_the_side_to_move_loses_on_time() -> None:
    game, t = correspondence(2)
    game.play(BLACK, "f5")
    moved = t.now
    t.now += 2 * DAY + 600  # seen ten minutes after White's deadline
    events = game.observe()
    assert [e.kind for e in events] == ["claim"]
    assert events[0].at == moved + 2 * DAY  # the game ended at the deadline itself
    result = game.result
    assert game.phase is Phase.OVER and result is not None
    assert result.winner is BLACK and (result.black, result.white) == (33, 31)
    assert result.termination.code == "timeout" and result.termination.on_time
    assert game.state.result_final  # no choice, no claim after the end
    assert game.observe() == []
    with pytest.raises(GameError):
        game.play(WHITE, "d6")


def test_the_loss_on_time_is_a_claim_like_a_fallen_flags() -> None:
    """One time-out rule: the fold's claim (a person may claim a passed deadline too),
    ending a correspondence game at once instead of offering the play-out."""
    game, t = correspondence(1)
    t.now += DAY + 1
    game.claim(WHITE)
    assert game.phase is Phase.OVER and game.result is not None
    assert game.result.winner is WHITE and game.result.termination.code == "timeout"
    fresh, t2 = correspondence(1)
    t2.now += DAY - 1
    with pytest.raises(GameError, match="has not fallen"):
        fresh.claim(WHITE)


def test_the_state_replays_the_same_from_its_events() -> None:
    game, t = correspondence(4)
    game.play(BLACK, "f5")
    t.now += DAY
    game.play(WHITE, "d6")
    again = GameController(game.setup, game.events, time_source=t)
    assert again.state.deadline() == game.state.deadline() == t.now + 4 * DAY


def test_a_turn_held_while_the_opponent_joins_begins_afresh() -> None:
    """The server holds the clock while the invited person's seat is empty (a suspend);
    the first turn begins, with its days, when they join."""
    game, t = correspondence(3)
    game.append(Suspend(at=t.now))
    assert game.state.deadline() is None
    t.now += 10 * DAY
    game.append(Resume(at=t.now))
    assert game.state.deadline() == t.now + 3 * DAY


def test_a_take_back_starts_the_turn_again() -> None:
    game, t = correspondence(3)
    game.play(BLACK, "f5")
    t.now += DAY
    game.request_undo(BLACK)
    game.undo(BLACK)
    assert game.state.position.turn is BLACK and game.state.deadline() == t.now + 3 * DAY


def test_a_correspondence_game_is_not_played_over_the_board() -> None:
    game, _t = correspondence(3)
    with pytest.raises(GameError, match="not played over the board"):
        game.declare_over_the_board()
