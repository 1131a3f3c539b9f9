"""``benchmarks/timed_depth.py``: its options are checked, and a tiny run prints the depth
reached on each thread count."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "timed_depth.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=600)


def test_bad_options_exit_2_saying_what_is_wrong() -> None:
    for args, message in ((("--threads", "1,x"), "--threads: whole numbers"),
                          (("--threads", "1,0"), "--threads: each from 1 to 64"),
                          (("--target", "0"), "must be positive"),
                          (("--positions", "0"), "must be positive"),
                          (("--parallel", "fast"), "invalid choice")):
        done = run(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr, (args, done.stderr)


def test_a_small_run_reports_the_depth_on_each_thread_count() -> None:
    done = run("--target", "0.05", "--positions", "2", "--threads", "1,2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert [line.split(" thread")[0] for line in lines] == ["1", "2"]
    for line in lines:
        found = re.search(r"mean depth ([\d.]+), wall ([\d.]+) s for 2 positions at 0.05 s: "
                          r"(\d+) (\d+)$", line)
        assert found, line
        depths = [int(found[3]), int(found[4])]
        assert all(d >= 1 for d in depths)  # at least the one-ply move
        assert float(found[1]) == sum(depths) / 2
