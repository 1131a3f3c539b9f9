"""OBF lines: the FFO suite read and written back, answers, refusals with line/column."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hasamigo import BLACK, WHITE, Board, Move, ParseError
from hasamigo.notation import ObfPosition, format_obf, parse_obf, read_obf, write_obf

DATA = Path(__file__).parent / "data" / "ffo"
SUITES = sorted(DATA.glob("*.obf"))
START = "-" * 27 + "OX------XO" + "-" * 27


def test_suite_reads_and_formats_back_verbatim() -> None:
    assert len(SUITES) == 3
    total = 0
    for path in SUITES:
        lines = path.read_text().splitlines()
        positions = list(read_obf(path))
        assert len(positions) == len(lines)
        for position, line in zip(positions, lines, strict=True):
            assert format_obf(position) == line
            total += 1
    assert total == 59


def test_first_position() -> None:
    first = next(read_obf(DATA / "fforum-1-19.obf"))
    assert first.board.turn is BLACK
    assert first.board.counts() == (27, 23)  # FFO #1: 14 empties
    assert first.best_score == 18
    assert first.best_moves == [Move.from_str("g8")]
    assert first.answers[-1] == (Move.from_str("g2"), -24)


def test_best_moves_agree_with_the_answer_table() -> None:
    positions = list(read_obf(DATA / "fforum-40-59.obf"))
    with open(DATA / "fforum-40-59-answers.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(positions) == 20
    for row, position in zip(rows, positions, strict=True):
        assert position.best_score == int(row["best_score"])
        assert [str(m).upper() for m in position.best_moves] == row["best_moves"].split()
        assert position.board.to_string() == f"{row['board']} {row['side_to_move']}"


def test_lines_iterable_skips_blanks_and_comments() -> None:
    lines = ["% header comment", "", f"{START} O; PA:+0;  % nothing to do?", "# more"]
    with pytest.raises(ParseError, match=r"line 3.*PA is not a legal move"):
        list(read_obf(lines))
    [position] = read_obf(["", f"{START} X; F5:+0; E6:+0; % opening"])
    assert position.comment == "opening"
    assert format_obf(position) == f"{START} X; F5:+0; E6:+0; % opening"


def test_pass_answer() -> None:
    text = "X" * 62 + "O- O"  # White must pass; Black then takes h8
    position = parse_obf(f"{text}; PA:-64;")
    assert position.answers == [(Move(None), -64)]
    assert format_obf(position) == f"{text}; PA:-64;"


def test_write_obf(tmp_path: Path) -> None:
    positions = list(read_obf(SUITES[0]))
    out = tmp_path / "copy.obf"
    write_obf(out, positions)
    assert out.read_text() == SUITES[0].read_text()


def test_empty_answers() -> None:
    position = ObfPosition(Board())
    assert position.best_score is None and position.best_moves == []
    assert parse_obf(format_obf(position)).board == Board()
    assert parse_obf(START + " O").board.turn is WHITE


@pytest.mark.parametrize(
    ("line", "pattern"),
    [
        (START[:-1] + " X; F5:+0;", r"line 2, column 1: the board has 63 squares, expected 64"),
        (START + "- X; F5:+0;", r"the board has 65 squares"),
        (START + " Z; F5:+0;", r"column 66: side to move must be X or O, not 'Z'"),
        (START + "; F5:+0;", r"side to move must be X or O, not ''"),
        (START + " X; F5:+x;", r"column 69: an answer is MOVE:SCORE"),
        (START + " X; F5:+99;", r"score \+99 is outside -64..\+64"),
        (START + " X; F5:+0; E6", r"column 76: an answer is MOVE:SCORE"),
        (START + " X; J5:+0;", r"column 69: not a square"),
        (START + " X; A1:+0;", r"A1 is not a legal move"),
        (START.replace("O", "Q", 1) + " X;", r"unexpected character 'Q'"),
    ],
)
def test_malformed_lines_are_refused_with_line_and_column(line: str, pattern: str) -> None:
    with pytest.raises(ParseError, match=pattern) as info:
        list(read_obf(["% comment", line]))
    assert info.value.line == 2


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.obf"
    path.write_text(f"{START} X; F5:+0;\n{START} X; F5:0+;\n")
    with pytest.raises(ParseError, match=r"bad\.obf, line 2, column 69"):
        list(read_obf(path))
