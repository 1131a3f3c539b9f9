"""``benchmarks/tree_nboard.py``: a tree's engine over NBoard, on a clock of its own, as
``hasamigo match`` plays it (here this tree's own engine; in use, an older tree's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hasamigo import Board

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "tree_nboard.py"
START = "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"


def talk(lines: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=600)


def test_it_answers_a_ping_and_plays_a_legal_move_on_the_game_sent() -> None:
    game = f"(;GM[Othello]TY[8]TI[0:30]{START}B[f5]W[d6];)"
    done = talk(["nboard 2", f"set game {game}", "ping 7", "go", "quit"], "--level", "2",
                "--seconds", "5")
    assert done.returncode == 0, done.stderr
    pong, answer = done.stdout.splitlines()
    assert pong == "pong 7"
    assert answer.startswith("=== ")
    board = Board()
    board.play("f5")
    board.play("d6")
    assert answer[4:] in {str(m).lower() for m in board.legal_moves}


def test_a_match_on_a_short_clock_is_played_to_the_end_with_no_loss_on_time() -> None:
    command = f"nboard:{sys.executable} {SCRIPT} --level 1 --seconds 6"
    done = subprocess.run([sys.executable, "-m", "hasamigo", "match", "engine:1", command,
                           "--games", "2", "--clock", "0.1", "--jobs", "1", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 2
    assert result["a_wins"] + result["draws"] + result["b_wins"] == 2
    assert result["time_losses"] == {"a": 0, "b": 0}


def test_a_negative_clock_and_an_unknown_level_are_refused() -> None:
    done = talk(["quit"], "--seconds", "-1")
    assert done.returncode == 2
    assert "--seconds must be 0 (no clock) or more" in done.stderr
    done = talk(["quit"], "--level", "99")
    assert done.returncode == 2
    assert "'engine:99': the level after ':' runs from 1 to 10" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_game_it_cannot_read_or_play_is_refused_and_go_then_says_so() -> None:
    bad = f"(;GM[Othello]TY[8]{START}B[f5]W[a1];)"  # a1 flips nothing
    done = talk(["nboard 2", f"set game {bad}", "set game (;GM[Othello]", "ping 1", "go",
                 "quit"], "--level", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("status error: set game refused: ")
    assert "a1" in lines[0]
    assert lines[1].startswith("status error: set game refused: ")
    assert lines[2:] == ["pong 1", "status error: no game to play: send set game first"]
