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
