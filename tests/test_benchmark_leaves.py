"""``benchmarks/leaves.py``: its options are checked, and a tiny run prints its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "leaves.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=600)


def test_bad_options_exit_2_saying_what_is_wrong() -> None:
    for args, message in ((("--empties", "0"), "--empties must be 1 to 7"),
                          (("--empties", "8"), "--empties must be 1 to 7"),
                          (("--positions", "0"), "must be at least 1"),
                          (("--rounds", "-1"), "must be at least 1"),
                          (("--reps", "x"), "invalid int value")):
        done = run(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr, (args, done.stderr)


def test_a_small_run_reports_nodes_and_the_rate() -> None:
    done = run("--empties", "3", "--positions", "20", "--reps", "1", "--rounds", "1")
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith("3 empties, 20 positions x 1: ")
    nodes = int(line.split(": ")[1].split(" nodes")[0].replace(",", ""))
    assert nodes >= 20  # at least a node a solve
    assert "M nodes/s" in line and "checksum" in line


def test_against_another_version_times_both_on_the_same_work(tmp_path: Path) -> None:
    # the tree's own solvers as "another version": the same nodes and checksum both
    endgame = SCRIPT.parent.parent / "src" / "hasamigo" / "_kernels" / "endgame.py"
    other = tmp_path / "endgame_other.py"
    other.write_text(endgame.read_text())
    # twice: numba could not load the other version's kernels back from its cache
    for _ in range(2):
        done = run("--empties", "4", "--positions", "20", "--reps", "1", "--rounds", "2",
                   "--against", str(other))
        assert done.returncode == 0, done.stderr
        first, second = done.stdout.strip().splitlines()[-2:]
        nodes = first.split(": ")[1].split(" nodes")[0]
        checksum = first.rsplit("checksum ", 1)[1]
        assert second.startswith(f"against {other}: {nodes} nodes, ")
        assert f"checksum {checksum};" in second and "ratio " in second


def test_against_a_missing_or_broken_file_exits_2_naming_it(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("x = (\n")
    not_solver = tmp_path / "empty.py"
    not_solver.write_text("")
    for path, message in ((tmp_path / "nothing.py", "no file"),
                          (broken, "failed to load"),
                          (not_solver, "has no solve_small")):
        done = run("--against", str(path))
        assert done.returncode == 2, (path, done.stderr)
        assert f"--against: {path}" in done.stderr or f"no file {path}" in done.stderr
        assert message in done.stderr, (path, done.stderr)
