"""``python -m hasamigo._kernels.warm --progress``: the kernels' compile, told as it goes.

The web app reads these lines to load each group as soon as it is compiled and to show a
progress bar (issue 50). Run on an empty cache (a fresh ``NUMBA_CACHE_DIR``) with the two
cheapest groups, a second or two of CPU each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hasamigo._kernels import warm


def run_warm(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hasamigo._kernels.warm", *args],
                          env={**os.environ, "NUMBA_CACHE_DIR": str(cache)},
                          capture_output=True, text=True, timeout=300, check=False)


def test_progress_names_each_kernel_compiled_and_each_group_done(tmp_path: Path) -> None:
    proc = run_warm(tmp_path, "--progress", "rules", "wide-rules")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert all(isinstance(line["cpu"], float | int) for line in lines)
    cpu = [line["cpu"] for line in lines]
    assert cpu == sorted(cpu)
    told = [(line["event"], line.get("group"), line.get("kernel")) for line in lines
            if line["event"] != "tick"]
    assert told == [
        ("compiling", "rules", "moves.legal_moves_mask"),
        ("compiled", "rules", "moves.legal_moves_mask"),
        ("compiling", "rules", "moves.flips_at"),
        ("compiled", "rules", "moves.flips_at"),
        ("done", "rules", None),
        ("compiling", "wide-rules", "wide.legal_moves_mask"),
        ("compiled", "wide-rules", "wide.legal_moves_mask"),
        ("compiling", "wide-rules", "wide.flips_at"),
        ("compiled", "wide-rules", "wide.flips_at"),
        ("done", "wide-rules", None),
    ]
    done = [line for line in lines if line["event"] == "done"]
    assert all(line["seconds"] > 0 for line in done)

    # the second run finds them in the cache: nothing compiles, each group is done at once
    again = run_warm(tmp_path, "--progress", "rules", "wide-rules")
    assert [json.loads(line)["event"] for line in again.stdout.splitlines()
            if json.loads(line)["event"] != "tick"] == ["done", "done"]


def test_unknown_groups_are_refused_and_every_group_has_an_estimate(tmp_path: Path) -> None:
    proc = run_warm(tmp_path, "--progress", "rules", "nonsense")
    assert proc.returncode == 2 and "nonsense" in proc.stderr and not proc.stdout
    assert set(warm.EXPECTED_CPU) == set(warm.GROUPS)
    assert all(seconds > 0 for seconds in warm.EXPECTED_CPU.values())
    # the board's kernels on the 10-column grid are a group of their own, within "wide"
    assert set(warm.kernels("wide-rules")) <= set(warm.kernels("wide"))
