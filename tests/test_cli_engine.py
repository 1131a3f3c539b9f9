"""The engine commands: solve (OBF), analyse, bench — JSON shapes, verdicts, errors; the
first run compiles before it times anything."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo import Board
from hasamigo.cli import app
from hasamigo.engine import Engine

runner = CliRunner()
FFO = Path(__file__).parent / "data" / "ffo" / "fforum-1-19.obf"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def first_lines(tmp_path: Path, count: int) -> Path:
    path = tmp_path / "few.obf"
    path.write_text("".join(FFO.read_text().splitlines(keepends=True)[:count]))
    return path


def test_solve_json_agrees_with_the_file(tmp_path: Path) -> None:
    code, out, _ = run("solve", str(first_lines(tmp_path, 3)), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["all_ok"] is True
    assert [p["index"] for p in data["positions"]] == [1, 2, 3]
    first = data["positions"][0]
    assert set(first) == {"index", "move", "score", "expected_score", "ok", "seconds", "wall",
                          "nodes"}
    assert (first["move"], first["score"], first["expected_score"]) == ("g8", 18, 18)
    code, out, _ = run("solve", str(first_lines(tmp_path, 3)), "--json", "--threads", "2")
    two = json.loads(out)
    assert code == 0 and two["all_ok"] is True and two["total_wall"] > 0
    assert [p["score"] for p in two["positions"]] == [p["score"] for p in data["positions"]]


def test_solve_text_reports_each_position_and_totals(tmp_path: Path) -> None:
    code, out, _ = run("solve", str(first_lines(tmp_path, 2)), "--wld")
    assert code == 0
    assert "#1" in out and "#2" in out and "0 disagree" in out


def test_solve_exits_1_when_an_answer_disagrees(tmp_path: Path) -> None:
    line = FFO.read_text().splitlines()[0].replace("G8:+18", "G8:+20", 1)
    path = tmp_path / "wrong.obf"
    path.write_text(line + "\n")
    code, out, _ = run("solve", str(path), "--json")
    assert code == 1
    row = json.loads(out)["positions"][0]
    assert row["ok"] is False and row["score"] == 18 and row["expected_score"] == 20


def test_solve_refuses_a_malformed_file_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.obf"
    path.write_text(FFO.read_text().splitlines()[0] + "\n" + "X" * 63 + " X; A1:+2;\n")
    code, _, err = run("solve", str(path))
    assert code == 2
    assert "line 2" in err


def test_solve_refuses_both_modes(tmp_path: Path) -> None:
    code, _, err = run("solve", str(first_lines(tmp_path, 1)), "--exact", "--wld")
    assert code == 2 and "one of" in err


def test_analyse_ranks_every_move_with_a_pv() -> None:
    code, out, _ = run("analyse", "f5d6c3", "--depth", "4", "--json")
    assert code == 0
    data = json.loads(out)
    board = Board()
    for name in ("f5", "d6", "c3"):
        board.play(name)
    assert sorted(m["move"] for m in data["moves"]) == sorted(
        board.move_name(m) for m in board.legal_moves
    )
    scores = [m["score"] for m in data["moves"]]
    assert scores == sorted(scores, reverse=True)
    assert all(m["pv"] and m["pv"][0] == m["move"] for m in data["moves"])
    assert data["turn"] == "white" and data["depth"] == 4 and data["exact"] is False


def test_analyse_says_what_its_table_is_in_whole_sentences() -> None:
    """The note under the table wraps at the terminal's width, not the three narrow
    columns' (issue 65.12: "… 548 nodes in / 0.00 s. Scores are …")."""
    code, out, _ = run("analyse", "f5d6c3", "--depth", "4")
    assert code == 0
    note = next(line for line in out.splitlines() if "to move —" in line)
    assert re.match(r"white to move — depth 4, [\d,]+ nodes in \d+\.\d\d s\. Scores are",
                    note), note


def test_analyse_with_probable_cuts() -> None:
    """--selectivity reaches the search: fewer nodes than full width, every move ranked;
    out-of-range values are refused before any search."""
    full = json.loads(run("analyse", "f5d6c3d3c4", "--depth", "8", "--json")[1])
    code, out, _ = run("analyse", "f5d6c3d3c4", "--depth", "8", "--selectivity", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["selectivity"] == 1 and full["selectivity"] == 0
    assert data["nodes"] < full["nodes"] and data["depth"] == 8
    assert sorted(m["move"] for m in data["moves"]) == sorted(m["move"] for m in full["moves"])
    code, _, err = run("analyse", "f5d6c3", "--selectivity", "5")
    assert code == 2 and "selectivity" in err


def test_analyse_is_exact_near_the_end() -> None:
    line = FFO.read_text().splitlines()[0]
    board = Board(line.split(";")[0])
    code, out, _ = run("analyse", "--depth", "30", "--best", "1", "--json", "--", board.to_string())
    assert code == 0
    data = json.loads(out)
    assert data["exact"] is True
    assert data["moves"] == [{"move": "g8", "score": 18, "pv": data["moves"][0]["pv"]}]
    assert Engine().solve(board).score == 18


def test_analyse_refuses_a_finished_game_and_bad_input() -> None:
    code, _, err = run("analyse", "--", "X" + "-" * 63 + " O")
    assert code == 2 and "over" in err
    code, _, err = run("analyse", "f5z9")
    assert code == 2 and "z9" in err


def test_bench_json_shape() -> None:
    code, out, _ = run("bench", "--perft-depth", "6", "--midgame-depth", "4", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["perft"]["leaves"] == 8200
    assert data["endgame"]["all_ok"] is True and data["endgame"]["positions"] == 19
    assert data["midgame"]["depth"] == 4 and data["midgame"]["nodes"] > 0
    assert data["threads"] == 1
    assert data["endgame"]["wall"] >= 0 and data["midgame"]["wall"] >= 0


def test_bench_on_threads() -> None:
    """``--threads 2``: the suite still solves right, the report says the threads and the
    elapsed time beside the CPU time; the text says it too; 0 threads are refused."""
    code, out, _ = run("bench", "--perft-depth", "6", "--midgame-depth", "4", "--threads",
                       "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["threads"] == 2 and data["endgame"]["all_ok"] is True
    assert data["endgame"]["wall"] > 0 and data["midgame"]["nodes"] > 0
    code, out, _ = run("bench", "--perft-depth", "6", "--midgame-depth", "4", "--threads", "2")
    assert code == 0 and "elapsed on 2 threads" in out
    code, _, err = run("bench", "--threads", "0")
    assert code == 2 and "--threads" in err


def test_analyse_compiles_before_it_times_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first run's compile (here a stand-in of 0.5 s) gets a progress line on stderr and
    stays out of the reported search time."""
    from hasamigo._kernels import warm

    real_warm = warm.warm

    def slow_compile(*groups: str) -> None:
        time.sleep(0.5)
        real_warm(*groups)

    monkeypatch.setattr(warm, "on_disk", lambda *groups: False)
    monkeypatch.setattr(warm, "warm", slow_compile)
    code, out, err = run("analyse", "f5d6c3", "--depth", "2", "--json")
    assert code == 0
    assert "compiling the engine, first run only" in err and "compiled in" in err
    assert json.loads(out)["seconds"] < 0.5


def test_analyse_on_a_warm_cache_says_nothing_about_compiling() -> None:
    code, _, err = run("analyse", "f5d6c3", "--depth", "2", "--json")
    assert code == 0 and "compiling" not in err


@pytest.mark.slow
def test_analyse_on_a_cold_cache_reports_the_search_time_without_the_compile(
        tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "hasamigo", "analyse", "f5d6c3", "--depth",
                           "8", "--json"], env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    wall = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    assert "compiling the engine, first run only" in proc.stderr
    seconds = json.loads(proc.stdout)["seconds"]
    # the compile (tens of seconds) is the process's time, not the search's
    assert seconds < wall / 5, (seconds, wall)
