"""The multi-player record (:mod:`hasamigo.notation.multi_record`): round trips of whole
games, and bad records refused with the line and column."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hasamigo.errors import InvalidOptionError, ParseError
from hasamigo.multi import MultiBoard
from hasamigo.notation import (
    MultiRecord,
    format_multi_record,
    parse_multi_record,
    parse_multi_records,
    read_multi_records,
    write_multi_records,
)


def finished(game: str, players: int, seed: int, first: int | None = None) -> MultiBoard:
    board = MultiBoard(game, players=players)
    if first is not None:
        board = MultiBoard(game, seats=board.seats, first=board.seats[first])
    rng = random.Random(seed)
    while not board.is_game_over():
        board.play(rng.choice(board.legal_moves()))
    return board


@pytest.mark.parametrize(("game", "players", "first"), [
    ("rolit", 4, None), ("rolit", 3, 2), ("rolit", 2, 1), ("othello4", 4, 3),
    ("othello4", 3, None)])
def test_a_finished_game_round_trips(game: str, players: int, first: int | None) -> None:
    board = finished(game, players, seed=players * 7 + (first or 0), first=first)
    record = MultiRecord.from_board(board, names=("Ann", None, "paranoid:3")[:players],
                                    date="2026-12-03 18:40Z", place="a [test] \\ place")
    text = format_multi_record(record)
    again = parse_multi_record(text)
    assert again == record
    assert again.board().discs == board.discs
    assert again.result == tuple(board.scores()[c] for c in record.seats)
    assert sum(again.result) + sum(board.counts()[c] for c in range(4)
                                   if c not in board.seats) == board.occupied.bit_count()
    assert format_multi_record(again) == text


def test_an_unfinished_game_round_trips_without_a_result() -> None:
    board = MultiBoard("rolit", first="green")
    for square in ("c5", "c6", "b6"):
        board.play(square)
    record = MultiRecord.from_board(board)
    assert record.result is None and record.seats == (2, 3, 0, 1)
    text = format_multi_record(record)
    assert "RE[" not in text and text.startswith("(;GM[Rolit]SE[green blue red yellow]")
    assert parse_multi_record(text).board().discs == board.discs


def test_passes_are_written_pa() -> None:
    board = MultiBoard("othello4")
    board.play("f4")
    board.play("pass")
    text = format_multi_record(MultiRecord.from_board(board))
    assert ";1[f4];2[PA];)" in text
    assert parse_multi_record(text).moves[1].is_pass


def test_files_hold_several_records(tmp_path: Path) -> None:
    records = [MultiRecord.from_board(finished("rolit", 4, seed)) for seed in range(3)]
    path = tmp_path / "games.mgf"
    write_multi_records(path, records)
    assert read_multi_records(path) == records
    assert len(parse_multi_records(path.read_text())) == 3


GOOD = "(;GM[Rolit]SE[red yellow green blue]\n;1[f4];2[g3];)"


@pytest.mark.parametrize(("text", "where", "message"), [
    ("", "line 1, column 1", "expected a record's start"),
    ("(;SE[red green]\n;1[f4];)", "line 1, column 3", "starts with GM"),
    ("(;GM[Chess]SE[red green];)", "line 1, column 3", "unknown game 'Chess'"),
    ("(;GM[Rolit]SE[red purple];)", "line 1, column 12", "no colour 'purple'"),
    ("(;GM[Rolit]SE[red green yellow];)", "line 1, column 12", "turn order"),
    ("(;GM[Rolit]SE[red];)", "line 1, column 12", "2 to 4 different colours"),
    ("(;GM[Rolit];)", "line 1, column 12", "no SE"),
    ("(;GM[Rolit]SE[red green]XX[1];)", "line 1, column 25", "unknown property 'XX'"),
    ("(;GM[Rolit]SE[red green]PC[a]PC[b];)", "line 1, column 30", "PC given twice"),
    ("(;GM[Rolit]SE[red green]PL3[c];)", "line 1, column 25", "only 2 seats"),
    ("(;GM[Rolit]SE[red yellow green blue]\n;1[f4];3[g3];)", "line 2, column 8",
     "move 2 is seat 2's (yellow), not seat 3's"),
    ("(;GM[Rolit]SE[red yellow green blue]\n;1[c3];)", "line 2, column 4",
     "move 1: c3 for red: a capture is possible"),
    ("(;GM[Rolit]SE[red yellow green blue]\n;1[z9];)", "line 2, column 4",
     "move 1: not a square name"),
    ("(;GM[Rolit]SE[red yellow green blue]\n;1[f4", "line 2, column 4", "not closed"),
    ("(;GM[Rolit]SE[red yellow green blue]\n;1[f4]", "line 2, column 7",
     "found the end"),
    ("(;GM[Rolit]SE[red yellow green blue]\n;x[f4];)", "line 2, column 2",
     "expected a move as a seat's number"),
    ("(;GM[Rolit]SE[red green]RE[red 3 green 1]\n;1[f4];)", "line 1, column 25",
     "the moves do not finish the game"),
    ("(;GM[Rolit]SE[red green]RE[green 3 red 1]\n;1[f4];)", "line 1, column 25",
     "RE is each seat's colour and discs in SE's order (red N green N)"),
    (GOOD + " junk", "line 2, column 16", "expected a record's start"),
])
def test_bad_records_are_refused_where_they_go_wrong(text: str, where: str,
                                                     message: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_multi_records(text, source="x.mgf")
    assert str(info.value).startswith(f"x.mgf, {where}: "), str(info.value)
    assert message in str(info.value)


def test_a_result_the_moves_do_not_give_is_refused() -> None:
    record = MultiRecord.from_board(finished("rolit", 4, seed=1))
    assert record.result is not None
    wrong = (record.result[0] + 1, record.result[1] - 1, *record.result[2:])
    text = format_multi_record(MultiRecord(record.game, record.seats, moves=record.moves,
                                           result=wrong))
    with pytest.raises(ParseError, match=r"RE says .* but the moves give"):
        parse_multi_record(text)


def test_more_names_than_seats() -> None:
    with pytest.raises(InvalidOptionError, match="3 names for 2 seats"):
        MultiRecord.from_board(MultiBoard("rolit", players=2), names=("a", "b", "c"))


def test_one_record_expected() -> None:
    with pytest.raises(ParseError, match="expected one record, found 2"):
        parse_multi_record(GOOD + GOOD)
    assert parse_multi_record(GOOD).moves[0].square == 29
