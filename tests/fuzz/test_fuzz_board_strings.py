"""Fuzz: board strings (Board.from_string) on every variant; only ParseError may escape."""

from __future__ import annotations

from fuzzing import FUZZ, board_strings, check_message, mutated_text, variants
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import VARIANTS, Board, ParseError


def check_board_string(variant: type[Board], text: str) -> None:
    try:
        board = variant.from_string(text)
    except ParseError as exc:
        check_message(exc)
        return
    assert variant.from_string(board.to_string()) == board
    assert not (board.black & board.white) and not (board.occupied & ~variant.playable())


def test_the_real_board_strings_read() -> None:
    for text in board_strings()[: -len(VARIANTS)]:  # the FFO positions
        assert Board.from_string(text).to_string() == text
    for variant in VARIANTS:
        assert variant.from_string(variant().to_string()) == variant()


@settings(FUZZ, max_examples=200)
@given(variant=variants(), text=st.text(alphabet="XO-#x*o._ \nBW1", max_size=70))
def test_board_like_text(variant: type[Board], text: str) -> None:
    check_board_string(variant, text)


@settings(FUZZ, max_examples=150)
@given(variant=variants(), text=st.text(max_size=70))
def test_arbitrary_text(variant: type[Board], text: str) -> None:
    check_board_string(variant, text)


@settings(FUZZ, max_examples=250)
@given(variant=variants(), data=st.data())
def test_mutated_board_strings(variant: type[Board], data: st.DataObject) -> None:
    check_board_string(variant, mutated_text(board_strings(), data))
