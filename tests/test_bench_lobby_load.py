"""``benchmarks/lobby_load.py`` (issue 67's load): its options are checked, and a tiny run
(6 players, 3 games, 5 seconds) signs the players up, plays moves between them over a live
server and reports its figures. Nothing about speed is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "lobby_load.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=900)


def test_bad_options_exit_2_saying_what_is_wrong() -> None:
    for args, message in ((("--players", "0"), "must be positive"),
                          (("--players", "4", "--games", "3"), "needs at least 6 players"),
                          (("--think", "-1"), "must not be negative"),
                          (("--duration", "x"), "invalid")):
        done = run(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr, (args, done.stderr)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_tiny_run_signs_up_plays_and_reports_its_figures(workers: int) -> None:
    done = run("--players", "6", "--games", "3", "--duration", "5", "--watchers", "2",
               "--think", "0.3", "--lobby-interval", "1", "--server-workers", str(workers),
               "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["setup"]["signed_up"] == 6
    assert report["games_started"] >= 3
    assert report["errors_by_kind"] == {}
    assert report["server_log_errors"] == []
    moves = report["move_latency_ms"]
    assert moves["count"] == report["moves"] > 0
    assert 0 < moves["p50"] <= moves["p95"] <= moves["p99"] <= moves["max"]
    assert report["lobby_poll_latency_ms"]["count"] > 0
    assert report["opponent_sees_move_ms"]["count"] > 0
    server = report["server"]
    assert server["cpu_seconds"] > 0 and server["rss_mb_peak"] >= server["rss_mb_start"] > 0
    # the processes answering the requests are counted: the workers, with several (not
    # bounded by the whole tree's figure: a child that ends during the run leaves that sum)
    assert server["serving_processes_cpu_seconds"] > 0
    assert report["server_cpu_ms_per_request"] > 0
    assert len(report["load_average_before"]) == 3
