"""The paper's timing of the in-game questions: after every move the subject plays
(「被験者が１手打つごとに」, §4.1), the program waiting for the answers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import BLACK, WHITE, Board
from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.events import (
    PROGRAM_MOVE,
    SUBJECT_MOVE,
    EventFormatError,
    StudyGame,
    event_from_json,
    event_to_json,
)
from hasamigo.game.procedures.study import of as study_of
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.game.state import replay
from hasamigo.move import PASS, Color


def _game(now: list[float], subject: str = "black", *, clock: float | None = 60,
          position: str | None = None) -> GameController:
    setup = GameSetup((Participant("Subject"), Participant("Bot", program="random")),
                      GameOptions(clock_seconds=clock, casual=False, position=position),
                      subject)
    game = GameController.new(setup, time_source=lambda: now[0])
    game.declare_study(SUBJECT_MOVE)
    return game


def _legal(game: GameController, rng: random.Random | None = None) -> str:
    moves = sorted(game.board.legal_moves, key=lambda m: m.square or -1)
    move = rng.choice(moves) if rng else moves[0]
    return game.board.move_name(move)


def _answer_all(game: GameController, at: float = 1.0) -> None:
    asked = game.study.asked if game.study else None
    assert asked is not None
    for q in asked.asks:
        game.answer(asked.move_number, q, "unknown", seconds=at)


def test_a_question_follows_the_subjects_move_and_the_program_waits() -> None:
    now = [0.0]
    game = _game(now)  # the subject is Black: moves first
    game.play(BLACK, "f5")
    asked = game.study.asked if game.study else None
    assert asked is not None and asked.move_number == 1 and asked.about is None
    assert asked.asks == ("can_win",)  # the opponent has not moved yet
    assert asked.position == game.board.to_string()
    assert game.program_to_move() is None  # the program waits for the answer
    with pytest.raises(GameError, match="before the program moves"):
        game.play(WHITE, _legal(game))
    with pytest.raises(GameError, match="not asked"):
        game.answer(1, "move_felt", "expected", seconds=1.0)
    now[0] = 30.0  # answering takes half a minute: nobody's clock runs
    game.answer(1, "can_win", "win", seconds=30.0)
    assert game.study is not None and game.study.asked is None
    assert game.program_to_move() == (WHITE, "random")
    assert game.remaining(WHITE) == 60.0 and game.remaining(BLACK) == 60.0
    now[0] = 32.0
    game.play(WHITE, _legal(game))
    assert game.remaining(WHITE) == 58.0  # the program's time ran from the answer
    assert game.study.asked is None  # no question after the program's move
    now[0] = 35.0
    game.play(BLACK, _legal(game))
    asked = game.study.asked
    assert asked is not None and asked.move_number == 3 and asked.about == 2
    assert asked.asks == ("can_win", "move_felt")
    game.answer(3, "move_felt", "surprising", seconds=2.0, move_kind="surprise")
    with pytest.raises(GameError, match="before the program moves"):
        game.play(WHITE, _legal(game))
    game.answer(3, "can_win", "lose", seconds=2.5)
    with pytest.raises(GameError, match="answered already"):
        game.answer(3, "can_win", "win", seconds=3.0)
    assert study_of(replay(game.setup, game.events)) == game.study


def test_when_the_program_moves_first_every_question_has_both_parts() -> None:
    now = [0.0]
    game = _game(now, "white")
    game.play(BLACK, "f5")  # the program
    assert game.study is not None and game.study.asked is None
    game.play(WHITE, _legal(game))
    asked = game.study.asked
    assert asked is not None and asked.about == 1 and len(asked.asks) == 2


def test_the_programs_forced_pass_waits_for_the_answer() -> None:
    # the subject (Black) plays h5; the program (White) then has no move
    position = "OOOOXXXX-OOOOXXXOOOOXXXXOOOOXXXOOOOOXXO-OOXOOOOXOXOOOOOXXXXOOOOX X"
    game = _game([0.0], "black", clock=None, position=position)
    game.play(BLACK, "h5")
    assert game.board.must_pass() and game.board.turn is WHITE  # the pass waits
    asked = game.study.asked if game.study else None
    assert asked is not None and asked.about is None  # the start is not a program move
    events = game.answer(asked.move_number, "can_win", "win", seconds=1.0)
    assert [e.kind for e in events] == ["study-answer", "pass"]
    assert game.board.turn is BLACK


def test_the_last_move_is_asked_about_after_the_game_is_over() -> None:
    # Black (the subject) fills the last square: the game ends with its move
    board = Board()
    rng = random.Random(3)
    while board.empties.bit_count() > 1 or not board.legal_moves:
        moves = list(board.legal_moves)
        if not moves:
            board.push(PASS)
            continue
        board.push(rng.choice(moves))
        if board.outcome() is not None:
            pytest.skip("this seed ended early")  # pragma: no cover
    subject = "black" if board.turn is BLACK else "white"
    game = _game([0.0], subject, clock=None, position=board.to_string())
    mover = board.turn
    game.play(mover, _legal(game))
    assert game.result is not None
    asked = game.study.asked if game.study else None
    assert asked is not None
    _answer_all(game)
    assert game.study is not None and game.study.asked is None
    assert all(q.complete for q in game.study.questions)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["black", "white"]))
def test_exactly_one_question_after_every_subject_move(seed: int, subject: str) -> None:
    """A whole game with random moves: one question per move the subject played (its
    passes not counted), none after the program's, every one answered in turn."""
    rng = random.Random(seed)
    now = [0.0]
    game = _game(now, subject, clock=None)
    me = Color.parse(subject)
    while game.result is None:
        study = game.study
        assert study is not None
        if study.asked is not None:
            _answer_all(game)
            continue
        turn = game.board.turn
        game.play(turn, _legal(game, rng))
    if game.study is not None and game.study.asked is not None:
        _answer_all(game)
    study = game.study
    assert study is not None
    played = [p for p in game.history if p.colour is me and not p.move.is_pass]
    assert [q.move_number for q in study.questions] == [
        i for i, p in enumerate(game.history, 1) if p.colour is me and not p.move.is_pass]
    assert len(study.questions) == len(played)
    for q in study.questions:
        assert q.complete
        if q.about is not None:
            assert game.history[q.about - 1].colour is me.other
            assert q.about < q.move_number
    assert study_of(replay(game.setup, game.events)) == study


def test_the_timing_round_trips_and_old_events_read_as_program_move() -> None:
    new = StudyGame(timing=SUBJECT_MOVE, at=1.0)
    assert event_from_json(event_to_json(new, Board), Board) == new
    old = {"kind": "study-game", "at": 1.0}  # stored before there was a timing
    assert event_from_json(old, Board) == StudyGame(at=1.0)
    with pytest.raises(EventFormatError, match="timing"):
        event_from_json({**old, "timing": "whenever"}, Board)
    game = GameController.new(GameSetup((Participant("S"), Participant("B", program="random")),
                                        GameOptions(clock_seconds=None, casual=False)),
                              time_source=lambda: 0.0)
    game.append(StudyGame(at=0.0))
    assert game.study is not None and game.study.timing == PROGRAM_MOVE
