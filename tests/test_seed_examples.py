"""The worked examples of the rules article (figures 1-8): facts encoded here as positions.

Each figure lists its discs as ``<square><X|O>`` (X black, O white); every other square is empty.
"""

from __future__ import annotations

import pytest

from hasamigo import BLACK, PASS, WHITE, Board, IllegalMoveError, IllegalReason, Move, parse_square

FIGURES = {
    1: "d4O e4X d5X e5O",
    2: "d4O e4X d5X e5X f5X",
    3: "d4O e4X d5O e5X f5X d6O",
    4: "e3X d4O e4X f4O d5X e5O f5O f6O",
    5: "e3X d4O e4X f4X d5X e5X f5X g5X f6O",
    6: "c4X d4X e4X h4O d5X e5X f5X g5O h5O f6X h6O f7X",
    8: "c3X d4X e4X f4X g4X d5X e5X f5X g5X h5X e6X g6X f7X e8O g8X",
}

# Figure 7, the full board, row by row (a..h).
FIGURE_7_ROWS = [
    "OOOOOOOO",
    "OXXOOXOX",
    "OXXXXOXX",
    "OXOXXXXX",
    "OXOOXXXX",
    "OXOOOXXX",
    "OOOOOOXX",
    "OXXXXXXX",
]


def figure(number: int, to_move: str) -> Board:
    if number == 7:
        return Board.from_string("".join(FIGURE_7_ROWS) + " " + to_move)
    cells = ["-"] * 64
    for token in FIGURES[number].split():
        cells[parse_square(token[:2])] = token[2]
    return Board.from_string("".join(cells) + " " + to_move)


def mask(*names: str) -> int:
    return sum(1 << parse_square(n) for n in names)


def test_figure_1_is_the_start() -> None:
    assert figure(1, "X") == Board()


def test_f5_d6_c3_flip_exactly_what_the_article_says() -> None:
    board = Board()
    assert board.flips("f5") == mask("e5")
    board.play("f5")
    assert board == figure(2, "O")
    assert board.flips("d6") == mask("d5")
    board.play("d6")
    assert board == figure(3, "X")
    assert board.flips("c3") == mask("d4")
    board.play("c3")
    assert board.discs(BLACK) == figure(3, "X").discs(BLACK) | mask("c3", "d4")
    assert board.turn is WHITE


def test_figure_4_g5_flips_three_discs_in_two_directions() -> None:
    board = figure(4, "X")
    assert board.flips("g5") == mask("e5", "f5", "f4")
    board.play("g5")
    assert board == figure(5, "O")


def test_figure_5_white_h5_flips_nothing() -> None:
    board = figure(5, "O")
    assert board.flips("h5") == 0
    assert not board.is_legal("h5")
    with pytest.raises(IllegalMoveError) as info:
        board.play("h5")
    assert info.value.reason is IllegalReason.NO_FLIPS
    assert board == figure(5, "O")  # nothing changed


def test_figure_6_black_must_pass() -> None:
    board = figure(6, "X")
    assert board.legal_moves_mask() == 0
    assert board.must_pass() and not board.is_game_over()
    assert list(board.legal_moves) == [PASS]
    with pytest.raises(IllegalMoveError) as info:
        board.play("a1")
    assert info.value.reason is IllegalReason.MUST_PASS
    board.play("pass")
    assert board.turn is WHITE and board.legal_moves_mask() != 0


def test_figure_7_full_board_is_34_30() -> None:
    board = figure(7, "X")
    assert board.counts() == (34, 30)
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.black, outcome.white, outcome.winner) == (34, 30, BLACK)
    assert outcome.disc_difference == 4 and str(outcome) == "34–30"


@pytest.mark.parametrize("to_move", ["X", "O"])
def test_figure_8_both_blocked_is_63_1(to_move: str) -> None:
    board = figure(8, to_move)
    assert board.counts() == (14, 1)
    assert bin(board.empties).count("1") == 49
    assert board.is_game_over() and not board.must_pass()
    assert list(board.legal_moves) == []
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.black, outcome.white, outcome.winner) == (63, 1, BLACK)
    assert (outcome.black_discs, outcome.white_discs, outcome.empties) == (14, 1, 49)
    assert outcome.disc_difference == 62
    with pytest.raises(IllegalMoveError) as info:
        board.push(Move(parse_square("a1")))
    assert info.value.reason is IllegalReason.GAME_OVER
