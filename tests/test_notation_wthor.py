"""WTHOR: header and records, names, the score convention on real games, refusals."""

from __future__ import annotations

import datetime
import shutil
import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from hasamigo import Move, ParseError
from hasamigo.notation import GameRecord, read_games, read_wthor, write_wthor
from hasamigo.notation.wthor import (
    HEADER_SIZE,
    PLAYER_NAME_SIZE,
    parse_header,
    read_names,
)

DATA = Path(__file__).parent / "data" / "wthor"
ONE_GAME = DATA / "nboard-test.wtb"
Y1977 = DATA / "WTH_1977.wtb"


def check_scores(records: list[GameRecord]) -> tuple[int, int]:
    """Replay every game; finished ones must record the official black count.

    Returns ``(games, unfinished)``; unfinished games (time-outs, resignations) carry
    the arbiter's score, which a replay cannot check.
    """
    unfinished = 0
    for record in records:
        assert record.problem is None, record.problem
        board = record.replay()  # raises if any move is illegal
        outcome = board.outcome()
        if outcome is None:
            unfinished += 1
            continue
        where = f"{record.metadata['wthor_game']} ({record.date})"
        assert record.recorded_score == outcome.black, where
    return len(records), unfinished


def test_header_layout() -> None:
    header = parse_header(Y1977.read_bytes())
    assert header.created == datetime.date(2007, 5, 22)
    assert (header.games, header.year, header.board_size, header.depth) == (12, 1977, 8, 24)
    assert not header.solitaire
    assert Y1977.stat().st_size == HEADER_SIZE + 68 * header.games
    one = parse_header(ONE_GAME.read_bytes())
    assert (one.games, one.year, one.board_size) == (1, 1980, 8)  # size byte 0 means 8


def test_name_files() -> None:
    players = read_names(DATA / "WTHOR.JOU", PLAYER_NAME_SIZE)
    tournaments = read_names(DATA / "WTHOR.TRN", 26)
    assert len(players) == 3884 and len(tournaments) == 439
    assert players[346] == "Inoue Hiroshi"
    assert tournaments[1] == "World Championship"
    assert any("é" in name for name in tournaments)  # Latin-1 names


def test_one_game_file() -> None:
    [game] = read_games(ONE_GAME)
    assert (game.black, game.white, game.event, game.date) == (
        "Jacobs Carol", "Roberts Andy", "Divers avant et pendant", "1980")
    assert game.moves[:3] == [Move.from_str(s) for s in ("f5", "f4", "e3")]
    assert game.metadata["theoretical_score"] == "39"
    assert game.recorded_score == 31
    assert str(game.outcome()) == "31–33"


def test_1977_archive_replays_and_scores() -> None:
    records = list(read_wthor(Y1977))
    assert check_scores(records) == (12, 0)
    first = records[0]
    assert (first.black, first.white, first.event) == (
        "Inoue Hiroshi", "Heiberg Thomas", "World Championship")
    assert str(first.outcome()) == "34–30"


def test_names_are_optional(tmp_path: Path) -> None:
    shutil.copy(Y1977, tmp_path / "WTH_1977.wtb")
    first = next(read_wthor(tmp_path / "WTH_1977.wtb"))
    assert first.black == "" and first.metadata["black_id"] == "346"
    named = next(read_wthor(tmp_path / "WTH_1977.wtb", players=["?"] * 400))
    assert named.black == "?"


def test_round_trip(tmp_path: Path) -> None:
    records = list(read_wthor(Y1977))
    out = tmp_path / "copy.wtb"
    assert write_wthor(out, records, depth=24) == 12
    again = list(read_wthor(out, players=None))
    assert [r.moves for r in again] == [r.moves for r in records]
    shutil.copy(DATA / "WTHOR.JOU", tmp_path)
    shutil.copy(DATA / "WTHOR.TRN", tmp_path)
    assert list(read_wthor(out)) == records
    assert out.read_bytes()[4:] == Y1977.read_bytes()[4:]  # all but the creation date


def test_writer_refuses_other_variants(tmp_path: Path) -> None:
    from hasamigo import find_variant

    with pytest.raises(ValueError, match="only 8×8"):
        write_wthor(tmp_path / "x.wtb", [GameRecord(variant=find_variant("6x6"))])


# ---- malformed files ------------------------------------------------------------------
def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "bad.wtb"
    path.write_bytes(data)
    return path


def test_truncated_file(tmp_path: Path) -> None:
    path = _write(tmp_path, Y1977.read_bytes()[:-10])
    with pytest.raises(ParseError, match=r"bad\.wtb, offset 764: truncated.*12 games") as info:
        list(read_wthor(path))
    assert info.value.offset == HEADER_SIZE + 11 * 68


def test_short_header(tmp_path: Path) -> None:
    path = _write(tmp_path, b"\x14\x07\x05")
    with pytest.raises(ParseError, match=r"offset 3: a WTHOR header is 16 bytes"):
        list(read_wthor(path))


@pytest.mark.parametrize(
    ("index", "value", "pattern"),
    [
        (12, 10, r"offset 12: board size 10"),
        (2, 13, r"offset 0: bad creation date 2007-13-22"),
        (14, 99, r"offset 14: theoretical-score depth 99"),
    ],
)
def test_bad_header(tmp_path: Path, index: int, value: int, pattern: str) -> None:
    data = bytearray(Y1977.read_bytes())
    data[index] = value
    with pytest.raises(ParseError, match=pattern):
        list(read_wthor(_write(tmp_path, bytes(data))))


def test_move_byte_99_is_a_problem_not_an_abort(tmp_path: Path) -> None:
    data = bytearray(Y1977.read_bytes())
    offset = HEADER_SIZE + 68 + 8 + 4  # game 2, move 5
    data[offset] = 99
    records = list(read_wthor(_write(tmp_path, bytes(data))))
    assert len(records) == 12
    bad = records[1]
    where = f"{tmp_path / 'bad.wtb'}, game 2, offset {offset}"
    assert bad.problem == f"{where}: move 5 byte 99 is no square"
    assert len(bad.moves) == 4
    with pytest.raises(ParseError, match="move 5 byte 99"):
        bad.replay()
    assert all(r.problem is None for i, r in enumerate(records) if i != 1)


def test_move_after_end_marker_is_a_problem(tmp_path: Path) -> None:
    data = bytearray(ONE_GAME.read_bytes())
    struct.pack_into("<BB", data, HEADER_SIZE + 8 + 58, 0, 11)
    [record] = read_wthor(_write(tmp_path, bytes(data)))
    assert record.problem is not None and "after move 58" in record.problem


def test_illegal_move_names_number_and_square(tmp_path: Path) -> None:
    data = bytearray(ONE_GAME.read_bytes())
    data[HEADER_SIZE + 8 + 1] = 11  # move 2: a1
    [record] = read_wthor(_write(tmp_path, bytes(data)))
    with pytest.raises(ValueError, match=r"move 2 \(a1\): flips nothing"):
        record.replay()


# ---- the whole database -----------------------------------------------------------------
def _archives(shared_data: Callable[[str], Path]) -> list[Path]:
    """Every year of the database, in the reference data beside the checkout."""
    return sorted(shared_data("wthor").glob("WTH_*.wtb"))


def test_small_archives_of_the_database() -> None:
    for path in (DATA / f"WTH_{year}.wtb" for year in (1977, 1978, 1979)):  # copies
        games, unfinished = check_scores(list(read_wthor(path)))
        assert games > 0 and unfinished == 0


@pytest.mark.slow
@pytest.mark.shared("wthor")
def test_a_year_in_each_decade(shared_data: Callable[[str], Path]) -> None:
    """Every game of one year in eight across the archive (CI); the test below reads all."""
    total = unfinished = 0
    for path in _archives(shared_data)[3::8]:
        games, open_games = check_scores(list(read_wthor(path)))
        total += games
        unfinished += open_games
    assert total > 10_000
    assert unfinished < total // 100


@pytest.mark.exhaustive
@pytest.mark.shared("wthor")
def test_every_game_of_the_database(shared_data: Callable[[str], Path]) -> None:
    total = unfinished = 0
    for path in _archives(shared_data):
        games, open_games = check_scores(list(read_wthor(path)))
        total += games
        unfinished += open_games
    assert total > 100_000
    assert unfinished < total // 100  # 413 of 123,600 in the 1977-2021 set
