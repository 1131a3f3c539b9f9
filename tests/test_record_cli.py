"""``hasamigo record``: ``check`` (the exact ``--json`` shape, exit statuses), ``enter``
(move by move, faults named, correct or keep), ``sheet`` (printable HTML)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hasamigo import Board
from hasamigo.cli import app
from hasamigo.notation.sheet import format_sheet, sheet_of_moves
from hasamigo.notation.transcript import parse_transcript

runner = CliRunner()
GAME = "f5d6c3d3c4f4f6f3e6e7d7"


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def write_sheet(tmp_path: Path, transcript: str = GAME, swap: tuple[int, int] | None = None
                ) -> Path:
    text = format_sheet(sheet_of_moves(parse_transcript(transcript)))
    if swap is not None:
        a, b = swap
        fields = text.split(" ")
        text = " ".join(str(b).rjust(2)[-len(f):] if f.strip() == str(a) else
                        str(a).rjust(2)[-len(f):] if f.strip() == str(b) else f
                        for f in fields)
    path = tmp_path / "sheet.txt"
    path.write_text(text + "\n", encoding="utf-8")
    return path


# ---- check ----------------------------------------------------------------------------------
def test_check_json_of_a_legal_sheet(tmp_path: Path) -> None:
    code, out, _ = run("record", "check", str(write_sheet(tmp_path)), "--json")
    assert code == 0
    assert json.loads(out) == {"ok": True, "transcript": GAME, "faults": [],
                               "suggestion": None}


def test_check_json_of_a_sheet_with_two_numbers_swapped(tmp_path: Path) -> None:
    code, out, _ = run("record", "check", str(write_sheet(tmp_path, swap=(3, 4))), "--json")
    assert code == 1
    data = json.loads(out)
    assert list(data) == ["ok", "transcript", "faults", "suggestion"]
    assert data["ok"] is False and data["transcript"] == "f5d6"
    assert data["faults"] == [{
        "move_number": 3, "kind": "illegal", "squares": ["d3"],
        "message": "move 3: d3 is not a legal move for Black; the legal squares are c3, "
                   "c4, c5, c6, c7"}]
    assert data["suggestion"] == {"description": "3 and 4 are swapped: 3 on c3, 4 on d3",
                                  "transcript": GAME}


def test_check_in_words_and_from_standard_input(tmp_path: Path) -> None:
    text = write_sheet(tmp_path, swap=(3, 4)).read_text(encoding="utf-8")
    code, out, _ = run("record", "check", "-", input=text)
    assert code == 1
    assert "move 3: d3 is not a legal move for Black" in out
    assert "likely fix: 3 and 4 are swapped" in out and GAME in out


def test_a_malformed_sheet_is_exit_2_with_the_place(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("1 2 3\n", encoding="utf-8")
    code, out, err = run("record", "check", str(path), "--json")
    assert code == 2 and out == ""
    assert "bad.txt, line" in err and "8 rows" in err
    code, _, err = run("record", "check", str(tmp_path / "missing.txt"))
    assert code == 2 and "missing.txt: No such file" in err
    latin = tmp_path / "latin1.txt"
    latin.write_bytes(b"1 2 3\n4 5 \xe9\n")
    for command in (("record", "check"), ("record", "sheet")):
        code, _, err = run(*command, str(latin))
        assert code == 2
        assert "latin1.txt, line 2, offset 10: byte 0xe9 is not UTF-8" in err, err


# ---- enter ---------------------------------------------------------------------------------
def test_enter_names_faults_and_takes_the_recorders_decision() -> None:
    lines = ["f5",               # legal
             "d6 none", "c",     # White turned nothing: corrected (the legal d6)
             "c3 white d4", "k",  # Black put a white disc: kept as played
             "end"]
    code, out, err = run("record", "enter", "--json", input="\n".join(lines) + "\n")
    assert code == 0, err
    record = json.loads(out)
    assert record["moves"] == ["f5", "d6", "c3"]
    assert [(f["move_number"], f["kind"], f["decision"]) for f in record["faults"]] == [
        (2, "not_turned", "corrected"), (3, "wrong_colour", "kept"),
        (3, "no_flips", "kept"), (3, "displaced", "kept")]
    assert record["faults"][0]["message"] == \
        "move 2: d5 not turned: bracketed on the line d6–d4"
    assert record["marks"] == [{"move_number": 3, "board": record["marks"][0]["board"]}]
    assert "fault: move 3: Black put a white disc on c3" in err  # the prompts go to stderr


def test_enter_a_whole_game_in_words() -> None:
    moves = parse_transcript("f5f6e6f4e3c5c4e7c6e2")
    lines = [Board.move_name(m) for m in moves]  # one move a line, as played
    code, out, err = run("record", "enter", "--black", "Ann", input="\n".join(lines) + "\n")
    assert code == 0, err
    assert "game: f5f6e6f4e3c5c4e7c6e2" in out
    assert "result: unfinished" in out


def test_enter_takes_back_an_entry_and_reads_a_typed_board() -> None:
    after_f5 = "---------------------------OX------XXX-------------------------- O"
    lines = ["f5", "undo", f"board {after_f5.split()[0]}", "pass by white", "k", "end"]
    code, out, err = run("record", "enter", "--json", input="\n".join(lines) + "\n")
    assert code == 0, err
    record = json.loads(out)
    assert record["moves"] == ["f5", "pass"]
    assert record["faults"][0]["kind"] == "pass_with_moves"
    assert record["faults"][0]["squares"] == ["f4", "d6", "f6"]  # in square order


# ---- sheet ---------------------------------------------------------------------------------
def test_sheets_as_printable_html(tmp_path: Path) -> None:
    code, out, _ = run("record", "sheet", "--blank", "--lang", "ja")
    assert code == 0 and "オセロ棋譜用紙" in out and out.count('class="start"') == 4
    target = tmp_path / "game.html"
    code, _, _ = run("record", "sheet", GAME, "--black", "Ann", "--out", str(target))
    assert code == 0
    page = target.read_text(encoding="utf-8")
    assert "Othello record sheet" in page and "<td>11</td>" in page and "Ann" in page
    code, out, _ = run("record", "sheet", str(write_sheet(tmp_path)))
    assert code == 0 and "<td>11</td>" in out
    code, _, err = run("record", "sheet")
    assert code == 2 and "--blank" in err
    code, _, err = run("record", "sheet", str(write_sheet(tmp_path, swap=(3, 4))))
    assert code == 2 and "not a legal game" in err
