"""Transcripts: parsing with separators and passes, errors with offsets, writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from hasamigo import PASS, Board, IllegalMoveError, Move, ParseError, find_variant
from hasamigo.notation import GameRecord, parse_transcript, read_transcripts, write_transcript

OPENING = ["f5", "d6", "c3", "d3", "c4"]


def names(moves: list[Move]) -> list[str]:
    return [str(m) for m in moves]


@pytest.mark.parametrize(
    "text",
    [
        "f5d6c3d3c4",
        "F5D6C3D3C4",
        "f5 d6 c3 d3 c4",
        "f5, d6, c3; d3,c4",
        "1. f5 2. d6 3. c3 4. d3 5. c4",
        "1.f5 2.d6 3.c3 4.d3 5.c4\n",
    ],
)
def test_separators_and_case(text: str) -> None:
    assert names(parse_transcript(text)) == OPENING


def test_does_not_change_the_given_board() -> None:
    board = Board()
    board.play("f5")
    moves = parse_transcript("d6c3", board)
    assert names(moves) == ["d6", "c3"]
    assert board.ply == 1


def _game_with_pass() -> list[Move]:
    """A random-looking but fixed legal game that contains a forced pass."""
    import random

    rng = random.Random(7)
    for _ in range(200):
        board = Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if PASS in board.move_stack:
            return list(board.move_stack)
    raise AssertionError("no game with a pass found")


def test_forced_passes_are_inserted_and_explicit_ones_accepted() -> None:
    game = _game_with_pass()
    without = write_transcript(game)
    assert "pass" not in without
    assert parse_transcript(without) == game
    with_passes = write_transcript(game, passes=True)
    assert "pass" in with_passes
    assert parse_transcript(with_passes) == game
    for token in ("PA", "--", "pass", "PASS"):
        assert parse_transcript(with_passes.replace("pass", f" {token} ")) == game


def test_bad_token_names_its_offset() -> None:
    with pytest.raises(ParseError) as info:
        parse_transcript("f5 d6 zz c3")
    assert info.value.offset == 6
    assert "offset 6" in str(info.value) and "'zz'" in str(info.value)


def test_square_off_the_board_names_its_offset() -> None:
    with pytest.raises(ParseError) as info:
        parse_transcript("f5d9")
    assert info.value.offset == 2
    assert "d9" in str(info.value)


def test_illegal_move_names_number_square_reason_and_offset() -> None:
    with pytest.raises(ParseError) as info:
        parse_transcript("f5 d6 c3 a1")
    message = str(info.value)
    assert info.value.offset == 9
    assert "move 4 (a1): flips nothing" in message
    assert isinstance(info.value.__cause__, IllegalMoveError)


def test_pass_while_a_move_exists_is_refused() -> None:
    with pytest.raises(ParseError, match=r"offset 3: move 2 \(pass\): pass while a legal move"):
        parse_transcript("f5 pass")


def test_moves_after_the_end_are_refused() -> None:
    game = _game_with_pass()
    text = write_transcript(game) + " a1"
    with pytest.raises(ParseError, match=r"the game is over|occupied"):
        parse_transcript(text)


def test_variant_coordinates() -> None:
    mini = find_variant("6x6")
    board = mini()
    moves = parse_transcript("E4 e5", board)  # 6x6 local names; e4 = grid f5 on 8x8
    assert write_transcript(moves, mini) == "e4e5"
    assert names(moves) == ["f5", "f6"]  # grid names
    with pytest.raises(ParseError, match="offset 0"):
        parse_transcript("g1", board)


def test_read_transcripts_skips_blank_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_text("# a comment\n\nf5d6c3\n  \nF5F6e6f4 # not a comment: bad\nf5d6\n")
    records = list(read_transcripts(path))
    assert names(records[0].moves) == ["f5", "d6", "c3"]
    assert records[1].problem is not None and "line 5" in records[1].problem
    assert names(records[1].moves) == ["f5", "f6", "e6", "f4"]
    assert names(records[2].moves) == ["f5", "d6"]
    with pytest.raises(ParseError, match="line 5"):
        list(read_transcripts(path, strict=True))


def test_record_replay_names_move_and_square() -> None:
    record = GameRecord(moves=[Move.from_str(s) for s in ("f5", "d6", "c3", "c3")])
    with pytest.raises(IllegalMoveError, match=r"move 4 \(c3\): occupied"):
        record.replay()
    assert record.problem is None
