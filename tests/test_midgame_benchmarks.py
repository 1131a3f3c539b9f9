"""The midgame benchmarks' positions: ``benchmarks/search.py`` draws them from random games
or, with ``--archive``, from a WTHOR archive's games (a missing archive is refused before
any search); ``benchmarks/probcut_fit.py --random-games`` fits the probable cuts' error
model on the random games' positions."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
#: 200 games of WTHOR 2010 (tests/data/ATTRIBUTION.md)
ARCHIVE = Path(__file__).resolve().parent / "data" / "wthor" / "WTH_2010-sample.wtb"
ROW = re.compile(r"^\s*\d+ empties (\d+) depth\s+4 move\s+([a-h][1-8]|pass) score\s+([+-]?\d+)",
                 re.MULTILINE)


def run(*args: str, script: str = "search.py", cwd: Path | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=600, cwd=cwd)


def test_positions_from_an_archive_are_searched_and_compared_with_full_width() -> None:
    done = run("--archive", str(ARCHIVE), "--positions", "4", "--depth", "4",
               "--selectivity", "2", "--agree")
    assert done.returncode == 0, done.stderr
    rows = ROW.findall(done.stdout)
    assert len(rows) == 4, done.stdout
    assert all(30 <= int(empties) <= 50 for empties, _, _ in rows)
    assert re.search(r"agrees with full width: score [0-4]/4 ", done.stdout)
    random_games = run("--positions", "4", "--depth", "4")
    assert random_games.returncode == 0, random_games.stderr
    assert ROW.findall(random_games.stdout) != rows  # other positions


def test_an_archive_named_by_a_relative_path_is_read_from_there(tmp_path: Path) -> None:
    (tmp_path / "games.wtb").write_bytes(ARCHIVE.read_bytes())
    done = run("--archive", "games.wtb", "--positions", "2", "--depth", "4", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(ROW.findall(done.stdout)) == 2


@pytest.mark.shared("wthor/WTH_2010.wtb")
def test_an_archive_named_alone_is_read_from_the_reference_data(tmp_path: Path) -> None:
    done = run("--archive", "WTH_2010.wtb", "--positions", "2", "--depth", "4", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(ROW.findall(done.stdout)) == 2


def test_a_missing_or_unreadable_archive_is_refused_before_searching(tmp_path: Path) -> None:
    done = run("--archive", "WTH_1066.wtb")
    assert done.returncode == 2
    assert "--archive: no file WTH_1066.wtb here or in" in done.stderr
    assert "Traceback" not in done.stderr
    text = tmp_path / "notes.wtb"
    text.write_text("not an archive\n")
    done = run("--archive", str(text))
    assert done.returncode == 2
    assert "--archive:" in done.stderr and "notes.wtb" in done.stderr
    assert "WTHOR header" in done.stderr and "Traceback" not in done.stderr


def test_the_error_model_is_fitted_on_random_games_positions() -> None:
    done = run("--random-games", "--positions", "40", "--depth", "5", script="probcut_fit.py")
    assert done.returncode == 0, done.stderr
    assert "40 positions from random games, depths 0-5" in done.stdout
    groups = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d\d)-\d\d\s+(\d+)\s+[+-]\d+\.\d\d\s+(\d+\.\d\d)$",
                        done.stdout, re.MULTILINE)
    assert {int(d) for d, *_ in groups} == {3, 4, 5}  # every depth from MPC_MIN_DEPTH
    assert sum(int(n) for d, _, _, n, _ in groups if d == "3") <= 40
    assert all(float(sd) > 0 for *_, sd in groups)  # random play: never one score
    assert re.search(r"^sigma \(1/100 disc\) = -?\d+ \+ -?\d+\.\d \* empties", done.stdout,
                     re.MULTILINE)
