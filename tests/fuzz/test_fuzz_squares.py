"""Fuzz: square names on every variant; only InvalidSquareError may escape."""

from __future__ import annotations

from fuzzing import FUZZ, check_message, mutated_text, square_names, variants
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import Board, InvalidSquareError
from hasamigo.squares import parse_square


def check_square(variant: type[Board], text: str) -> None:
    """Every square reader on ``text``: a square of the board, or InvalidSquareError."""
    for cut_ok in (False, True):
        try:
            sq = variant.parse_square(text, cut_ok=cut_ok)
        except InvalidSquareError as exc:
            check_message(exc)
            continue
        assert 0 <= sq < variant.stride ** 2  # the grid: 64 squares, or 100 (10×10)
        if not cut_ok:
            assert variant.playable() >> sq & 1
            assert variant.parse_square(variant.square_name(sq)) == sq
    try:
        sq = parse_square(text)
    except InvalidSquareError as exc:
        check_message(exc)
    else:
        assert 0 <= sq < 64


@settings(FUZZ, max_examples=300)
@given(variant=variants(), text=st.text(max_size=8))
def test_arbitrary_text(variant: type[Board], text: str) -> None:
    check_square(variant, text)


@settings(FUZZ, max_examples=300)
@given(variant=variants(), data=st.data())
def test_mutated_square_names(variant: type[Board], data: st.DataObject) -> None:
    check_square(variant, mutated_text(square_names(), data))


@settings(FUZZ, max_examples=50)
@given(variant=variants(), letter=st.sampled_from("aAhz²"),
       digit=st.sampled_from(["1", "0", "9", "²", "٣", "１"]), repeat=st.integers(1, 6000))
def test_long_and_unicode_rows(variant: type[Board], letter: str, digit: str,
                               repeat: int) -> None:
    check_square(variant, letter + digit * repeat)
