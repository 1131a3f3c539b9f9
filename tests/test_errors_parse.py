"""Bad input raises the project's errors, naming what was wrong and where, never echoing
a huge input: the failures found by hand and by the fuzzers (``tests/fuzz``), one by one."""

from __future__ import annotations

import math
import struct
from pathlib import Path

import pytest

from hasamigo import (
    Board,
    HasamigoError,
    InvalidSquareError,
    Move,
    Outcome,
    ParseError,
    find_variant,
)
from hasamigo.engine import Limit, level
from hasamigo.engine.players import EnginePlayer, make_player
from hasamigo.errors import InvalidOptionError, InvalidPositionError, shown
from hasamigo.notation import (
    detect_format,
    parse_ggf,
    parse_obf,
    parse_transcript,
    read_games,
    read_ggf,
    read_obf,
    read_transcripts,
    read_wthor,
)
from hasamigo.notation.wthor import HEADER_SIZE, PLAYER_NAME_SIZE, read_names
from hasamigo.squares import parse_square

DATA = Path(__file__).parent / "data"
START_OBF = "-" * 27 + "OX------XO" + "-" * 27 + " X; F5:+0;"
HUGE = "a" + "1" * 5000
#: A message quoting a huge input stays about this short.
SHORT = 300


# ---- squares and moves ------------------------------------------------------------------
SQUARE_READERS = {
    "Board.parse_square": Board.parse_square,
    "6x6 parse_square": find_variant("6x6").parse_square,
    "squares.parse_square": parse_square,
    "Move.from_str": Move.from_str,
    "Board.parse_move": Board.parse_move,
}


@pytest.mark.parametrize("reader", SQUARE_READERS.values(), ids=SQUARE_READERS.keys())
@pytest.mark.parametrize("text", ["a²", "a٣", "a１", "²1", "ａ1", "a-1", "a+1", "a 1", "a1.0"])
def test_non_ascii_digits_and_other_lookalikes_are_not_squares(reader: object,
                                                               text: str) -> None:
    with pytest.raises(InvalidSquareError) as info:
        reader(text)  # type: ignore[operator]
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("reader", SQUARE_READERS.values(), ids=SQUARE_READERS.keys())
def test_a_5000_digit_row_is_refused_without_echoing_it(reader: object) -> None:
    with pytest.raises(InvalidSquareError) as info:
        reader(HUGE)  # type: ignore[operator]
    message = str(info.value)
    assert len(message) < SHORT and "(5001 characters)" in message


def test_a_20_megabyte_square_name_is_not_echoed() -> None:
    text = "z" * 20_000_000
    with pytest.raises(InvalidSquareError) as info:
        Board.parse_square(text)
    assert len(str(info.value)) < SHORT


def test_the_lenient_square_forms_still_read() -> None:
    assert Board.parse_square(" F5 ") == Board.parse_square("f5") == 37
    assert Board.parse_square("a01") == 0
    assert find_variant("6x6").parse_square("f6") == Board.parse_square("g7")
    assert Move.from_str("PA").is_pass and Board.parse_move("--").is_pass


def test_huge_square_indexes_are_named_not_printed() -> None:
    with pytest.raises(InvalidSquareError, match="an integer of 16610 bits"):
        Move(10**5000)
    assert shown(10**5000) == "an integer of 16610 bits"


def test_an_unknown_colour_prefix_is_a_parse_error() -> None:
    board = Board()
    with pytest.raises(ParseError, match=r"column 1: unknown colour 'purple' in 'purple:f5'"):
        board.play("purple:f5")
    with pytest.raises(ParseError) as info:
        board.play("q" * 100_000 + ":f5")
    assert len(str(info.value)) < SHORT and board.ply == 0
    assert board.play("black:f5") == Move.from_str("f5")


# ---- constructors and options -------------------------------------------------------------
@pytest.mark.parametrize(
    ("make", "error", "pattern"),
    [
        (lambda: Board(start="diagonal"), InvalidOptionError,
         r"unknown start 'diagonal'; expected one of cross, parallel, original"),
        (lambda: Board(disc_limit=0), InvalidOptionError, r"positive number of discs, not 0"),
        (lambda: Board(disc_limit=True), InvalidOptionError, r"not True"),
        (lambda: Board(handicap=5), InvalidOptionError, r"a handicap is 1 to 4 corner discs"),
        (lambda: Board("-" * 64 + " X", handicap=1), InvalidOptionError,
         r"either a position or a handicap"),
        (lambda: find_variant("octagon")(handicap=1), InvalidPositionError,
         r"has no corner a1 for a handicap"),
        (lambda: Board(hands=(3, 3)), InvalidPositionError, r"only count under a disc limit"),
        (lambda: Board(disc_limit=32, hands=(40, 3)), InvalidPositionError,
         r"discs in hand must be 0\.\.32, not 40"),
        (lambda: Board(disc_limit=32, hands=(1, 2, 3)), InvalidPositionError,  # type: ignore[arg-type]
         r"a \(black, white\) pair"),
        (lambda: Board().perft(-1), InvalidOptionError, r"perft depth must be a whole number"),
        (lambda: Outcome.official(40, 40), InvalidPositionError, r"do not fit 64 squares"),
        (lambda: find_variant("9x9"), InvalidOptionError, r"unknown variant '9x9'; known: "),
        (lambda: Limit(depth=0), InvalidOptionError, r"depth must be a whole number"),
        (lambda: Limit(time=math.nan), InvalidOptionError, r"time must be a positive number"),
        (lambda: Limit(time=-1.0), InvalidOptionError, r"time must be a positive number"),
        (lambda: Limit(nodes=0), InvalidOptionError, r"nodes must be a whole number"),
        (lambda: level(11), InvalidOptionError, r"levels run from 1 to 10, not 11"),
        (lambda: make_player("nobody"), InvalidOptionError, r"unknown player 'nobody'; known:"),
        (lambda: make_player("engine:٣"), InvalidOptionError,
             r"'engine:٣': an option's name is a letter"),
        (lambda: make_player("engine:11"), InvalidOptionError,
             r"'engine:11': the level after ':' runs from 1 to 10"),
        (lambda: EnginePlayer(0), InvalidOptionError, r"engine levels run from 1 to 10, not 0"),
        (lambda: detect_format("games.pgn"), InvalidOptionError,
         r"extension '\.pgn' is not a known format"),
        (lambda: read_games("suite.obf"), InvalidOptionError, r"OBF files hold positions"),
    ],
)
def test_constructors_and_options_raise_the_project_errors(make: object, error: type,
                                                           pattern: str) -> None:
    with pytest.raises(error, match=pattern) as info:
        make()  # type: ignore[operator]
    assert isinstance(info.value, HasamigoError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "make",
    [lambda: find_variant("x" * 20_000_000), lambda: make_player("engine:" + "9" * 5000),
     lambda: level(10**5000), lambda: Limit(depth=-(10**5000)),
     lambda: Board(start="s" * 1_000_000)],
)
def test_huge_option_values_are_not_echoed(make: object) -> None:
    with pytest.raises(InvalidOptionError) as info:
        make()  # type: ignore[operator]
    assert len(str(info.value)) < SHORT


def test_pop_on_an_empty_stack_stays_an_index_error() -> None:
    with pytest.raises(IndexError):
        Board().pop()


# ---- GGF ------------------------------------------------------------------------------------
def test_ggf_non_ascii_letter_where_a_tag_starts() -> None:
    with pytest.raises(ParseError, match=r"line 1, column 3: unexpected 'é' inside a game"):
        parse_ggf("(;é[x];)")


@pytest.mark.parametrize("komi", ["inf", "-inf", "nan", "1e999", "9" * 5000, "0x10"])
def test_ggf_komi_that_is_no_plain_number_gives_no_score(komi: str) -> None:
    [record] = parse_ggf(f"(;GM[Othello]TY[8k]KM[{komi}]RE[+2.000];)")
    assert record.recorded_score is None and record.metadata["KM"] == komi


@pytest.mark.parametrize("result", ["inf", "nan", "9" * 5000, "+٣"])
def test_ggf_result_that_is_no_plain_number_gives_no_score(result: str) -> None:
    [record] = parse_ggf(f"(;GM[Othello]TY[8]RE[{result}];)")
    assert record.recorded_score is None


def test_ggf_komi_still_counts() -> None:
    [record] = parse_ggf("(;GM[Othello]TY[8k]KM[-3.133]RE[-22.87];)")
    assert record.recorded_score == (64 - 26) // 2


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("(;GM[Othello]TY[" + "9" * 5000 + "];)", r"unsupported game type TY\['9999"),
        ("(;GM[Othello]TY[٨];)", r"unsupported game type TY\[٨\]"),
        ("(;GM[Othello]TY[8]BO[" + "9" * 5000 + " x];)", r"BO is a size"),
        ("(;GM[Othello]TY[8]BO[٨ -------- *];)", r"BO is a size"),
        ("(;GM[Othello]TY[8]B[" + HUGE + "];)", r"unknown move 'a111"),
        ("(;GM[" + "x" * 100_000 + "];)", r"not an Othello game: GM\['xxx"),
    ],
)
def test_ggf_odd_values_are_refused_briefly(text: str, pattern: str) -> None:
    with pytest.raises(ParseError, match=pattern) as info:
        parse_ggf(text)
    assert info.value.line == 1 and len(str(info.value)) < SHORT


# ---- files that are not UTF-8 -----------------------------------------------------------------
def _bad_byte(tmp_path: Path, name: str, lines: list[bytes], at_line: int) -> Path:
    """A file of ``lines`` with a 0xff byte at the start of line ``at_line`` (1-based)."""
    lines = list(lines)
    lines[at_line - 1] = b"\xff" + lines[at_line - 1]
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _offset_of_line(path: Path, line: int) -> int:
    return sum(len(x) + 1 for x in path.read_bytes().split(b"\n")[: line - 1])


def test_transcript_file_with_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    path = _bad_byte(tmp_path, "games.txt", [b"f5d6c3", b"# caf\xc3\xa9", b"f5f6"], 3)
    with pytest.raises(ParseError) as info:
        list(read_transcripts(path))
    exc = info.value
    assert (exc.source, exc.line, exc.offset) == (str(path), 3, _offset_of_line(path, 3))
    assert str(exc).startswith(f"{path}, line 3, offset 15: byte 0xff is not UTF-8")


def test_obf_file_with_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    lines = (DATA / "ffo" / "fforum-1-19.obf").read_bytes().splitlines()[:4]
    path = _bad_byte(tmp_path, "suite.obf", lines, 2)
    with pytest.raises(ParseError, match=r"suite\.obf, line 2, offset \d+: byte 0xff") as info:
        list(read_obf(path))
    assert info.value.offset == _offset_of_line(path, 2)


def test_ggf_file_with_a_byte_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    # It used to be read with the byte replaced: a name silently changed. Now refused.
    path = tmp_path / "games.ggf"
    path.write_bytes(b"(;GM[Othello]PB[Fran\xe7ois]TY[8]B[f5];)\n")
    with pytest.raises(ParseError, match=r"games\.ggf, line 1, offset 20: byte 0xe7") as info:
        list(read_ggf(path))
    assert "invalid continuation byte" in str(info.value)


def test_a_file_cut_inside_a_character(tmp_path: Path) -> None:
    path = tmp_path / "cut.txt"
    path.write_bytes(b"f5d6\nc3\xe3\x81")
    with pytest.raises(ParseError, match=r"line 2, offset 7: byte 0xe3 .*unexpected end"):
        list(read_transcripts(path))


def test_a_bad_byte_after_a_megabyte(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    body = ("# " + "é" * 60_000 + "\n") * 10  # multi-byte characters across read chunks
    data = body.encode() + b"f5\x80\n"
    path.write_bytes(data)
    with pytest.raises(ParseError) as info:
        list(read_transcripts(path))
    assert (info.value.line, info.value.offset) == (11, len(body.encode()) + 2)


def test_a_utf8_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbff5d6c3\n")
    [record] = read_transcripts(path)
    assert record.problem is None and len(record.moves) == 3


# ---- transcripts and OBF text -----------------------------------------------------------------
def test_transcript_square_with_a_non_ascii_digit() -> None:
    # 'a٣' used to be read as a3.
    with pytest.raises(ParseError, match=r"offset 4: unexpected 'c٣'"):
        parse_transcript("f5d6c٣")


@pytest.mark.parametrize(
    ("line", "pattern"),
    [
        (START_OBF.replace("+0", "+" + "9" * 5000), r"column 72: score \+9999999… is outside"),
        (START_OBF.replace("F5", "F٣"), r"column 69: an answer is MOVE:SCORE"),
        (START_OBF.replace("+0", "+٠"), r"column 69: an answer is MOVE:SCORE"),
        (START_OBF.replace(" X;", " " + "X" * 10_000 + ";"), r"side to move must be X or O"),
    ],
)
def test_obf_odd_values_are_refused_briefly(line: str, pattern: str) -> None:
    with pytest.raises(ParseError, match=pattern) as info:
        parse_obf(line)
    assert len(str(info.value)) < SHORT


# ---- WTHOR name files ---------------------------------------------------------------------------
def test_truncated_players_file(tmp_path: Path) -> None:
    data = (DATA / "wthor" / "WTHOR.JOU").read_bytes()[: HEADER_SIZE + 10 * PLAYER_NAME_SIZE + 7]
    path = tmp_path / "WTHOR.JOU"
    path.write_bytes(data)
    with pytest.raises(ParseError, match=r"WTHOR\.JOU, offset 223: header lists 3884 names"):
        read_names(path, PLAYER_NAME_SIZE)


def test_a_bad_players_file_beside_an_archive_is_named(tmp_path: Path) -> None:
    (tmp_path / "WTH_1977.wtb").write_bytes((DATA / "wthor" / "WTH_1977.wtb").read_bytes())
    data = bytearray((DATA / "wthor" / "WTHOR.JOU").read_bytes())
    struct.pack_into("<B", data, 12, 10)  # board size 10
    (tmp_path / "WTHOR.JOU").write_bytes(bytes(data))
    with pytest.raises(ParseError, match=r"WTHOR\.JOU, offset 12: board size 10"):
        list(read_wthor(tmp_path / "WTH_1977.wtb"))
