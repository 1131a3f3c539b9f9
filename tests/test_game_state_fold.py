"""The fold's frozen state: each event gives a new state sharing the old one's values, the
record of moves has one home (the chain of plies; the move list and the board's move stack
are derived from it), and folding never walks the record, so it is linear in the events."""

from __future__ import annotations

import dataclasses
import random

import pytest

from hasamigo import BLACK, WHITE
from hasamigo.game.controller import GameController
from hasamigo.game.events import ClockPress, MovePlayed, Undo, UndoRequest
from hasamigo.game.procedures import core, over_board
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.game.state import GameState, apply, replay

ANN, BOB = Participant("Ann"), Participant("Bob")


def played(seed: int = 3, moves: int = 20, **options: object) -> GameController:
    rng = random.Random(seed)
    now = [0.0]
    setup = GameSetup((ANN, BOB), GameOptions(**options))  # type: ignore[arg-type]
    game = GameController.new(setup, time_source=lambda: now[0])
    while game.board.ply < moves and game.state.result is None:
        now[0] += 1.5
        board = game.board
        game.play(board.turn, rng.choice(list(board.legal_moves)))
    return game


def test_the_state_is_frozen() -> None:
    state = played().state
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.phase = state.phase  # type: ignore[misc]
    assert {f.name for f in dataclasses.fields(GameState)}.isdisjoint({"moves", "board"})


def test_an_event_shares_the_old_state_and_its_record() -> None:
    game = played(moves=10)
    state = game.state
    move = next(iter(state.position.legal_moves))
    after = apply(state, MovePlayed(state.position.turn, move.square, at=100.0))
    assert after.last is not None and after.last.before is state.last  # one link added
    assert after.root is state.root and after.setup is state.setup
    assert state.ply_count == 10 and after.ply_count == 11  # the old state is untouched


def test_the_move_list_and_the_move_stack_come_from_one_record() -> None:
    game = played(moves=30)
    state = game.state
    assert [p.move for p in state.moves] == state.board.move_stack
    assert len(state.moves) == state.ply_count == 30
    assert state.position.to_string() == state.board.to_string()
    assert state.board.root().to_string() == state.start  # pop walks the record back
    state.board.push(next(iter(state.board.legal_moves)))  # a board of its own
    assert len(state.moves) == 30 and state.position.ply == 0


def test_a_take_back_returns_to_a_link_of_the_same_record() -> None:
    game = played(moves=12)
    state = game.state
    mover = state.moves[-1].colour
    back = apply(apply(state, UndoRequest(mover, at=199.0)), Undo(mover, at=200.0))
    target = state.undo_target(mover)
    assert back.ply_count == target and back.last is not None
    link = state.last
    while link is not None and link.number > target:
        link = link.before
    assert back.last is link  # the earlier ply itself, not a copy
    assert back.board.move_stack == state.board.move_stack[:target]


def test_folding_never_walks_the_record(monkeypatch: pytest.MonkeyPatch) -> None:
    game = played(moves=60, clock_seconds=None)
    events, expected = game.events, game.board.to_string()

    def walked(_last: object) -> list[core.Ply]:
        raise AssertionError("the fold walked the whole record")

    monkeypatch.setattr(core, "plies", walked)
    state = replay(game.setup, events)  # every event in constant time
    assert state.ply_count == game.state.ply_count
    assert state.position.to_string() == expected


def test_clock_events_keep_the_record_itself() -> None:
    now = [10.0]
    setup = GameSetup((ANN, BOB), GameOptions(casual=False, clock_seconds=600.0))
    game = GameController.new(setup, time_source=lambda: now[0])
    game.declare_over_the_board()
    state = game.state
    pressed = apply(state, ClockPress(WHITE, at=11.0))
    assert pressed.last is state.last and over_board.of(pressed).presses == 1
    assert pressed.clock is not None and pressed.clock.running is BLACK


def test_the_queries_declare_every_field_a_draft_edits() -> None:
    # a Draft is typed by Queries' declarations: a field added to GameState goes there too
    assert list(core.Queries.__annotations__) == [f.name for f in dataclasses.fields(GameState)]
