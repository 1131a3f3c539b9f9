"""The command line: JSON shapes, errors with exit status 2 (the terminal game is in
test_play_cli.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo import Board, Move
from hasamigo.cli import app
from hasamigo.variants import find_variant

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_perft_json_shape_and_counts() -> None:
    code, out, _ = run("perft", "5", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["depth"] for r in rows] == [1, 2, 3, 4, 5]
    assert [r["leaves"] for r in rows] == [4, 12, 56, 244, 1396]
    assert set(rows[0]) == {"depth", "leaves", "cpu_seconds", "leaves_per_cpu_second",
                            "wall_seconds"}


def test_perft_reports_cpu_time_and_leaves_per_cpu_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate is per CPU second: on a busy machine the elapsed time says more about the
    machine than about the count (3.5 s elapsed for 0.41 s of CPU at depth 11)."""
    from hasamigo.cli import core

    class Clocks:
        """Each reading of the CPU clock 0.5 s on, of the wall clock 4 s on."""
        cpu = wall = 0.0

        def process_time(self) -> float:
            self.cpu += 0.5
            return self.cpu

        def perf_counter(self) -> float:
            self.wall += 4.0
            return self.wall

    monkeypatch.setattr(core, "time", Clocks())
    code, out, _ = run("perft", "5", "--only", "--json")
    assert code == 0
    [row] = json.loads(out)
    assert row == {"depth": 5, "leaves": 1396, "cpu_seconds": 0.5,
                   "leaves_per_cpu_second": 2792, "wall_seconds": 4.0}
    code, out, _ = run("perft", "5", "--only")
    assert code == 0
    assert "0.5000 CPU s" in out and "M leaves/CPU s" in out and "4.0000 s elapsed" in out


def test_perft_only_from_a_board_on_a_variant() -> None:
    code, out, _ = run("perft", "4", "--only", "--json", "--variant", "6x6")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 1 and rows[0]["depth"] == 4
    assert rows[0]["leaves"] == find_variant("6x6")().perft(4)
    code, out, _ = run("perft", "2", "--json", "--board", "f5d6")
    assert code == 0
    board = Board()
    board.play("f5")
    board.play("d6")
    assert json.loads(out)[-1]["leaves"] == board.perft(2)


def test_show_transcript_json() -> None:
    code, out, _ = run("show", "f5d6c3d3c4", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["turn"] == "white"
    assert data["moves"] == ["f5", "d6", "c3", "d3", "c4"]
    assert (data["black"], data["white"]) == (6, 3)
    assert data["game_over"] is False and data["outcome"] is None
    assert "f4" in data["legal_moves"]


def test_show_board_string_finished_game() -> None:
    # A wipe-out: one black disc left alone, the official score is 64-0.
    cells = "X" + "-" * 63
    code, out, _ = run("show", "--json", "--", cells + " O")
    assert code == 0
    data = json.loads(out)
    assert data["game_over"] is True
    assert data["outcome"] == {"black": 64, "white": 0, "winner": "black", "score": "64–0"}


def test_show_text_has_diagram_and_moves() -> None:
    code, out, _ = run("show", "F5D6")
    assert code == 0
    assert "black to move" in out
    assert "legal moves:" in out


def test_show_refuses_illegal_transcript_with_reason() -> None:
    code, _, err = run("show", "f5f5")
    assert code == 2
    assert "f5" in err and "occupied" in err


def test_show_refuses_bad_board_string() -> None:
    code, _, err = run("show", "--", "-" * 63 + "Z X")
    assert code == 2
    assert "unexpected character" in err


def test_unknown_variant_is_refused() -> None:
    code, _, err = run("perft", "1", "--variant", "9x9")
    assert code == 2
    assert "unknown variant" in err


def test_variants_json_lists_every_variant() -> None:
    code, out, _ = run("variants", "--json")
    assert code == 0
    names = {row["name"] for row in json.loads(out)}
    assert {"standard", "6x6", "4x4", "octagon", "parallel", "original", "reversi-32"} <= names


def test_python_dash_m_runs_the_cli() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hasamigo", "perft", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)[-1]["leaves"] == 56


def test_import_compiles_nothing() -> None:
    """`import hasamigo` must not compile (or load) any kernel a command does not use."""
    code = (
        "import hasamigo, hasamigo.cli\n"
        "from hasamigo._kernels import moves\n"
        "from numba.core.registry import CPUDispatcher\n"
        "kernels = [f for f in vars(moves).values() if isinstance(f, CPUDispatcher)]\n"
        "used = [f.__name__ for f in kernels if f.signatures]\n"
        "print(used)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


GGF_FILE = Path(__file__).parent / "data" / "ggf" / "nboard-test2.ggf"
WTHOR_FILE = Path(__file__).parent / "data" / "wthor" / "WTH_1977.wtb"


def test_games_reports_counts_as_json() -> None:
    code, out, _ = run("games", str(WTHOR_FILE), "--json")
    assert code == 0
    data = json.loads(out)
    assert data == {"games": 12, "failed": [], "score_mismatches": []}


def test_games_reports_a_bad_game_and_exits_1(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_text("f5d6c3\nf5f5\n# a comment\nf5d6\n")
    code, out, _ = run("games", str(games), "--json")
    assert code == 1
    data = json.loads(out)
    assert data["games"] == 3
    assert [f["index"] for f in data["failed"]] == [1]
    assert "occupied" in data["failed"][0]["reason"]


def test_games_refuses_unknown_extension(tmp_path: Path) -> None:
    other = tmp_path / "games.pgn"
    other.write_text("1. e4")
    code, _, err = run("games", str(other))
    assert code == 2
    assert ".pgn" in err


def test_convert_wthor_to_ggf_and_back_to_transcripts(tmp_path: Path) -> None:
    ggf = tmp_path / "out.ggf"
    code, out, _ = run("convert", str(WTHOR_FILE), str(ggf))
    assert code == 0 and "12 games" in out
    txt = tmp_path / "out.txt"
    code, _, _ = run("convert", str(ggf), str(txt))
    assert code == 0
    lines = txt.read_text().split()
    assert len(lines) == 12
    from hasamigo.notation import read_games

    original = [r.replay().move_stack for r in read_games(WTHOR_FILE)]
    assert [r.replay().move_stack for r in read_games(txt)] == original


def test_convert_keeps_the_variant_in_transcript_files(tmp_path: Path) -> None:
    from hasamigo.notation import GameRecord, read_games, write_games

    source = next(r for r in read_games(GGF_FILE) if r.variant.name == "4x4")
    ggf = tmp_path / "small.ggf"
    standard = GameRecord(moves=[Move.from_str(m) for m in ("f5", "d6")])
    write_games(ggf, [source, standard])
    txt = tmp_path / "small.txt"
    code, _, err = run("convert", str(ggf), str(txt))
    assert code == 0, err
    assert txt.read_text().startswith("# variant: 4x4\n")
    back = list(read_games(txt))
    assert back[0].variant.name == "4x4" and back[0].moves == source.moves
    assert back[1].variant.name == "standard" and back[1].moves == standard.moves


def test_convert_failure_leaves_no_file(tmp_path: Path) -> None:
    # The komi game starts from a non-standard position: no transcript line can hold it.
    target = tmp_path / "out.txt"
    code, _, err = run("convert", str(GGF_FILE), str(target))
    assert code == 2
    assert "non-standard start" in err and "game 1" in err
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


# ---- files that cannot be decoded or parsed: one line naming the file and the place ----
def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_games_refuses_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_bytes(b"f5d6c3\nf5\xffd6\n")
    code, out, err = run("games", str(games))
    assert code == 2 and out == ""
    line = _one_error_line(err)
    assert f"{games}, line 2, offset 9: byte 0xff is not UTF-8" in line


def test_games_refuses_a_truncated_archive_naming_the_offset(tmp_path: Path) -> None:
    archive = tmp_path / "cut.wtb"
    archive.write_bytes(WTHOR_FILE.read_bytes()[:100])
    code, _, err = run("games", str(archive), "--json")
    assert code == 2
    assert f"{archive}, offset 84: truncated" in _one_error_line(err)


def test_games_prints_brackets_of_a_file_as_they_are(tmp_path: Path) -> None:
    # Rich markup must not eat '[/x]' quoted from the file (it used to crash on it).
    games = tmp_path / "odd.ggf"
    games.write_text("(;GM[Othello]TY[/x]B[f5];)\n(;GM[Othello]PB[[b\\]x]TY[8]B[f5];)\n")
    code, out, _ = run("games", str(games))
    assert code == 1
    assert "game 0:" in out and "unsupported game type TY[/x]" in out
    code, out, err = run("games", str(tmp_path / "odd.ggf"), "--json")
    assert code == 1 and err == ""
    assert [g["index"] for g in json.loads(out)["failed"]] == [0]


def test_convert_refuses_a_broken_ggf_naming_line_and_column(tmp_path: Path) -> None:
    source = tmp_path / "broken.ggf"
    source.write_text("(;GM[Othello]TY[8]B[f5]W[d6\n")
    code, _, err = run("convert", str(source), str(tmp_path / "out.txt"))
    assert code == 2
    assert f"{source}, line 1, column 25: unclosed '[' of tag W" in _one_error_line(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.ggf"]


def test_solve_refuses_an_obf_file_that_is_not_utf8(tmp_path: Path) -> None:
    suite = tmp_path / "suite.obf"
    suite.write_bytes(b"% positions\n" + b"-" * 27 + b"OX\xc0-----XO" + b"-" * 27 + b" X;\n")
    code, _, err = run("solve", str(suite))
    assert code == 2
    assert f"{suite}, line 2, offset 41: byte 0xc0 is not UTF-8" in _one_error_line(err)


def test_match_refuses_openings_that_are_not_utf8(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_bytes(b"f5d6\n\xe9f5f6\n")
    code, _, err = run("match", "random", "random", "--openings", str(openings), "-n", "2")
    assert code == 2
    assert f"{openings}, line 2, offset 5: byte 0xe9" in _one_error_line(err)


def test_show_refuses_a_huge_square_briefly() -> None:
    code, _, err = run("show", "f5" + "a" + "9" * 5000)
    assert code == 2
    assert len(_one_error_line(err)) < 300


def test_no_help_text_loses_brackets_to_rich_markup() -> None:
    """Rich reads ``[word …]`` in a help text as a style tag and drops it: a JSON shape
    written ``games: [game]`` was shown as ``games: ``. Every command's docstring and
    option help must write brackets that Rich leaves alone (``[{…}]``, ``["id", …]``) or
    escape them (``\\[low, high]``)."""
    import re

    import typer.main

    tag = re.compile(r"(?<!\\)\[([a-z#/@][^\[]*?)\]")
    group = typer.main.get_command(app)

    def walk(command: object, path: str) -> list[str]:
        found = []
        texts = [getattr(command, "help", None) or ""]
        texts += [getattr(p, "help", None) or "" for p in getattr(command, "params", [])]
        for text in texts:
            found += [f"{path}: [{m}]" for m in tag.findall(text)]
        for name, sub in getattr(command, "commands", {}).items():
            found += walk(sub, f"{path} {name}")
        return found

    assert walk(group, "hasamigo") == []


def test_wide_variants_from_the_command_line() -> None:
    """perft, show and variants on the boards larger than 8×8."""
    code, out, _ = run("perft", "7", "--json", "--variant", "grand")
    assert code == 0
    assert [r["leaves"] for r in json.loads(out)][-2:] == [8200, 55180]
    code, out, _ = run("show", "e4d4c4", "--json", "--variant", "grand")
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == "grand" and data["moves"] == ["e4", "d4", "c4"]
    assert len(data["board"].split()[0]) == 100
    code, out, _ = run("show", "e4", "--variant", "eight-stars")
    assert code == 0
    assert "10 " in out and " a b c d e f g h i j" in out
    code, _, err = run("show", "e4k5", "--variant", "grand")
    assert code == 2 and "not a square" in err
    code, out, _ = run("variants", "--json")
    squares = {row["name"]: row["squares"] for row in json.loads(out)}
    assert squares["grand"] == 100 and squares["eight-stars"] == 88
    assert squares["hasegawa-8x9"] == 72 and squares["hasegawa-9x10"] == 90
