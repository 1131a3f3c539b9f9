"""GGF: the reference files (8×8, 4×4, komi start), RE against the replay, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from hasamigo import PASS, Board, Move, ParseError, find_variant
from hasamigo.notation import format_ggf, parse_ggf, read_ggf, write_ggf

DATA = Path(__file__).parent / "data" / "ggf"
HEAD = "(;GM[Othello]PC[t]DT[0]PB[b]PW[w]TY[8]"


def test_first_file() -> None:
    [game] = read_ggf(DATA / "nboard-test.ggf")
    assert game.problem is None
    assert (game.black, game.white, game.event) == ("Saio1200", "Saio3000", "GGS/os")
    assert game.date == "2003.12.15_12:33:18.MST"
    assert game.variant is Board and game.start is None
    assert len(game.moves) == 60 and str(game.moves[0]) == "d3"
    assert game.metadata["RB"] == "2196.37" and game.metadata["TI"] == "05:00//02:00"
    assert game.recorded_score == 32
    assert str(game.outcome()) == "32–32"


def test_second_file_4x4_komi_and_8x8() -> None:
    small, komi, normal = read_ggf(DATA / "nboard-test2.ggf")
    # 4x4 in local coordinates a1..d4, with an explicit pass, RE[-2.00]
    assert small.variant is find_variant("4x4")
    assert small.moves[10] is PASS
    assert small.variant.move_name(small.moves[0]) == "a2"
    assert small.recorded_score == 7
    outcome = small.outcome()
    assert outcome is not None and outcome.disc_difference == -2
    # komi game with a random start: BO kept as start, KB/KW/KM in metadata
    assert komi.start is not None and komi.start != Board().to_string()
    assert komi.metadata["TY"] == "8kr20"
    assert (komi.metadata["KM"], komi.metadata["KB"]) == ("-3.133", "B3/2.00/27.23")
    assert komi.metadata["RE"] == "-22.87"
    outcome = komi.outcome()
    assert outcome is not None
    # RE is the disc difference minus the komi: -26 - (-3.133) = -22.867
    assert outcome.disc_difference == -26 == round(-22.87 + -3.133)
    assert komi.recorded_score == outcome.black == 19
    assert normal.recorded_score == 32


def test_round_trip_of_reference_files(tmp_path: Path) -> None:
    for path in sorted(DATA.glob("*.ggf")):
        records = list(read_ggf(path, strict=True))
        out = tmp_path / path.name
        write_ggf(out, records)
        assert list(read_ggf(out, strict=True)) == records


def test_result_is_written_from_the_score_when_metadata_disagrees() -> None:
    [record] = parse_ggf(HEAD + "RE[+0.000]B[f5]W[d6];)")
    record.recorded_score = 40
    assert "RE[+16.000]" in format_ggf(record)
    record.metadata.pop("RE")
    record.recorded_score = None
    assert "RE[" not in format_ggf(record)


def test_missing_passes_are_inserted_from_the_colours() -> None:
    # White to move has no move; the file goes straight on with Black's h8.
    text = HEAD + "BO[8 " + " ".join(["*" * 8] * 7) + " ******O- O]B[h8];)"
    [record] = parse_ggf(text)
    assert record.moves == [PASS, Move.from_str("h8")]
    assert str(record.outcome()) == "64–0"
    assert "W[PA]B[h8]" in format_ggf(record)


def test_text_escapes_round_trip() -> None:
    [record] = parse_ggf(HEAD + r"C[a \] bracket]B[f5];)")
    assert record.metadata["C"] == "a ] bracket"
    assert parse_ggf(format_ggf(record)) == [record]


def test_multiline_value_and_several_games() -> None:
    text = HEAD + "C[two\nlines]B[f5];)\n" + HEAD + "B[f5]W[f6];)"
    first, second = parse_ggf(text)
    assert first.metadata["C"] == "twolines"  # line breaks inside a value are dropped
    assert len(second.moves) == 2


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        (HEAD + "B[f5]W[d6;)", r"line 1, column \d+: unclosed '\[' of tag W"),
        (HEAD + "B[f5]W[zz];)", r"line 1, column 46: unknown move 'zz'"),
        (HEAD + "B[f5]W[f5];)", r"line 1, column 46: move 2 \(f5\): occupied"),
        (HEAD + "B[f5]W[a1//3];)", r"column 46: move 2 \(a1\): flips nothing"),
        (HEAD + "B[f5]", r"line 1: game opened on line 1 is not closed"),
        ("GM[Othello]", r"line 1, column 1: expected '\(;' to open a game"),
        (HEAD + "B[f5] ? ;)", r"column 45: unexpected '\?' inside a game"),
        (HEAD + "B f5;)", r"expected '\[' after tag B"),
        ("(;GM[Chess]B[e4];)", r"not an Othello game"),
        ("(;GM[Othello]TY[12]B[e4];)",
         r"unsupported game type TY\[12\] \(sizes 8, 10, 6, 4 are read\)"),
        ("(;GM[Othello]TY[8]BO[8 ---- *];)", r"BO holds 4 squares, expected 8×8"),
        ("(;GM[Othello]TY[4]BO[4 ---- -O*- -*O- ---- X];)", r"BO uses '\*' black"),
    ],
)
def test_malformed_games_are_refused_with_line_and_column(text: str, pattern: str) -> None:
    with pytest.raises(ParseError, match=pattern):
        parse_ggf(text)


def test_file_reader_records_problems_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "mixed.ggf"
    path.write_text(HEAD + "B[f5]W[f5];)\n" + HEAD + "B[f5]W[d6];)\n")
    bad, good = read_ggf(path)
    assert bad.problem is not None and "mixed.ggf, line 1, column 46" in bad.problem
    assert bad.black == "b" and bad.moves == []
    with pytest.raises(ParseError, match="move 2"):
        bad.replay()
    assert good.problem is None and len(good.moves) == 2
    with pytest.raises(ParseError, match=r"mixed\.ggf, line 1, column 46"):
        list(read_ggf(path, strict=True))


def test_structural_errors_raise_even_when_not_strict(tmp_path: Path) -> None:
    path = tmp_path / "cut.ggf"
    path.write_text(HEAD + "B[f5]\nW[d6")
    with pytest.raises(ParseError, match=r"cut\.ggf, line 2, column 2: unclosed"):
        list(read_ggf(path))


def test_variants_without_a_ggf_form_are_refused() -> None:
    from hasamigo.notation import GameRecord

    with pytest.raises(ValueError, match="GGF cannot hold"):
        format_ggf(GameRecord(variant=find_variant("octagon")))
    text = format_ggf(GameRecord(variant=find_variant("parallel")))
    [record] = parse_ggf(text)
    assert record.start == find_variant("parallel")().to_string()
