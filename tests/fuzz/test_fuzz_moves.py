"""Fuzz: moves as text (Move.from_str, Board.parse_move, Board.play with a colour prefix)."""

from __future__ import annotations

from fuzzing import FUZZ, check_message, mutated_text, square_names, variants
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import Board, HasamigoError, InvalidSquareError, Move


def check_move(variant: type[Board], text: str) -> None:
    """The readers of a move give a Move or InvalidSquareError; ``play`` adds
    IllegalMoveError and (an unknown colour prefix) ParseError, all project errors."""
    try:
        move = Move.from_str(text)
    except InvalidSquareError as exc:
        check_message(exc)
    else:
        assert Move.from_str(str(move)) == move
    try:
        move = variant.parse_move(text)
    except InvalidSquareError as exc:
        check_message(exc)
    else:
        assert variant.parse_move(variant.move_name(move)) == move
    board = variant()
    try:
        played = board.play(text)
    except HasamigoError as exc:
        assert isinstance(exc, ValueError)
        check_message(exc)
        assert board.ply == 0
    else:
        assert board.move_stack == [played]


@settings(FUZZ, max_examples=300)
@given(variant=variants(), text=st.text(max_size=12))
def test_arbitrary_text(variant: type[Board], text: str) -> None:
    check_move(variant, text)


@settings(FUZZ, max_examples=300)
@given(variant=variants(), data=st.data())
def test_mutated_moves(variant: type[Board], data: st.DataObject) -> None:
    check_move(variant, mutated_text(square_names(), data))
