"""The study's counterbalancing (a Williams balanced Latin square) and the answer events
of study games: the gate before the subject's move, one answer per question."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from hasamigo import BLACK, WHITE, Board
from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.events import (
    EventFormatError,
    StudyAnswer,
    StudyGame,
    event_from_json,
    event_to_json,
)
from hasamigo.game.procedures.study import of as study_of
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.game.state import replay
from hasamigo.study.design import order_for, orders, williams


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_williams_rows_are_balanced_for_places_and_carry_over(n: int) -> None:
    rows = williams(n)
    assert len(rows) == (n if n % 2 == 0 else 2 * n)
    assert all(sorted(r) == list(range(n)) for r in rows)
    places = Counter((r[i], i) for r in rows for i in range(n))
    follows = Counter((r[i], r[i + 1]) for r in rows for i in range(n - 1))
    assert len(set(places.values())) == 1 and len(places) == n * n
    assert len(set(follows.values())) == 1 and len(follows) == n * (n - 1)


def test_two_arms_alternate_ab_ba() -> None:
    arms = ("victory", "amusement")
    assert orders(arms) == [arms, arms[::-1]]
    assert [order_for(arms, k) for k in range(4)] == [arms, arms[::-1]] * 2


@pytest.mark.parametrize("subjects", [6, 12, 18])
def test_three_arms_play_all_six_orders_equally_often(subjects: int) -> None:
    arms = ("victory", "amusement", "entertainer")
    played = Counter(order_for(arms, k) for k in range(subjects))
    assert set(played) == set(itertools.permutations(arms))
    assert set(played.values()) == {subjects // 6}


@pytest.mark.parametrize("subjects", [3, 6, 9])
def test_three_arms_every_arm_in_every_place_over_multiples_of_three(subjects: int) -> None:
    arms = ("victory", "amusement", "entertainer")
    places = Counter((arm, i) for k in range(subjects)
                     for i, arm in enumerate(order_for(arms, k)))
    assert set(places.values()) == {subjects // 3}


def test_bad_designs_are_refused() -> None:
    with pytest.raises(ValueError):
        orders(("a", "a"))
    with pytest.raises(ValueError):
        williams(0)
    with pytest.raises(ValueError):
        order_for(("a", "b"), -1)


# ---- the answer events ----------------------------------------------------------------------
def _study_game(now: list[float], first: str = "black") -> GameController:
    setup = GameSetup((Participant("Subject"), Participant("Bot", program="random")),
                      GameOptions(clock_seconds=60, casual=False), first)
    game = GameController.new(setup, time_source=lambda: now[0])
    game.declare_study()
    return game


def _legal(game: GameController) -> str:
    return game.board.move_name(next(iter(game.board.legal_moves)))


def test_the_subject_answers_both_questions_before_moving_again() -> None:
    now = [0.0]
    game = _study_game(now)
    game.play(BLACK, "f5")
    now[0] = 2.0
    game.play(WHITE, _legal(game))
    asked = game.study.asked if game.study else None
    assert asked is not None and asked.move_number == 2
    assert asked.position == game.board.to_string()
    with pytest.raises(GameError, match="answer the questions"):
        game.play(BLACK, _legal(game))
    now[0] = 5.0
    game.answer(2, "can_win", "unknown", seconds=3.0)
    with pytest.raises(GameError, match="move_felt"):
        game.play(BLACK, _legal(game))
    with pytest.raises(GameError, match="answered already"):
        game.answer(2, "can_win", "win", seconds=3.5)
    now[0] = 9.0
    game.answer(2, "move_felt", "surprising", seconds=7.0, move_kind="surprise")
    with pytest.raises(GameError, match="answered already"):
        game.answer(2, "move_felt", "expected", seconds=8.0)
    assert game.remaining(BLACK) == 60.0  # answering is not charged to the clock
    game.play(BLACK, _legal(game))
    with pytest.raises(GameError, match="no question"):
        game.answer(3, "can_win", "win", seconds=1.0)  # the subject's own move
    again = replay(game.setup, game.events)
    assert study_of(again) == game.study


def test_answers_are_checked() -> None:
    now = [0.0]
    game = _study_game(now, "white")  # the program (Black) moves first
    game.play(BLACK, "f5")
    with pytest.raises(GameError):
        game.answer(1, "can_win", "surprising", seconds=1.0)
    with pytest.raises(GameError, match="no question"):
        game.answer(2, "can_win", "win", seconds=1.0)
    with pytest.raises(GameError, match="study game already"):
        game.declare_study()


def test_only_a_game_against_a_program_is_a_study_game() -> None:
    setup = GameSetup((Participant("A"), Participant("B")), GameOptions(clock_seconds=None))
    game = GameController.new(setup)
    with pytest.raises(GameError, match="one person"):
        game.declare_study()


def test_the_subjects_forced_pass_waits_for_the_answers() -> None:
    # the program (Black) plays h5; the subject (White) then has no move
    position = "OOOOXXXX-OOOOXXXOOOOXXXXOOOOXXXOOOOOXXO-OOXOOOOXOXOOOOOXXXXOOOOX X"
    setup = GameSetup((Participant("Subject"), Participant("Bot", program="random")),
                      GameOptions(clock_seconds=None, position=position), "white")
    game = GameController.new(setup)
    game.declare_study()
    game.play(BLACK, "h5")
    assert game.board.must_pass() and game.board.turn is WHITE  # the pass waits
    assert [e.kind for e in game.answer(1, "can_win", "lose", seconds=1.0)] \
        == ["study-answer"]
    events = game.answer(1, "move_felt", "expected", seconds=2.0)
    assert [e.kind for e in events] == ["study-answer", "pass"]
    assert game.board.turn is BLACK and game.study is not None and game.study.asked is None


def test_study_events_round_trip_and_refuse_bad_json() -> None:
    events = [StudyGame(at=1.0), StudyAnswer(4, "can_win", "lose", 2.5, "expectation", at=3.0)]
    for e in events:
        assert event_from_json(event_to_json(e, Board), Board) == e
    good = event_to_json(events[1], Board)
    for key, bad in [("question", "why"), ("answer", "maybe"), ("seconds", -1),
                     ("move_kind", "forced"), ("move_number", 0), ("seconds", 1e12)]:
        with pytest.raises(EventFormatError):
            event_from_json({**good, key: bad}, Board)
