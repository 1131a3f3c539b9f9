"""``hasamigo play-multi`` and ``replay-multi``: games in the terminal through typer's
CliRunner, their records written and read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.notation import read_multi_records

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """The exit status, stdout and stderr, each with Rich's line wrapping undone."""
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, " ".join(result.stdout.split()), " ".join(result.stderr.split())


def test_four_programs_play_to_the_end_and_the_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.mgf"
    code, out, err = run("play-multi", "--seat", "random", "--seat", "greedy", "--seat",
                         "search:1", "--seat", "maxn:1", "--seed", "5", "--record", str(path))
    assert code == 0, err
    assert "Game over." in out and f"record written to {path}" in out
    [record] = read_multi_records(path)
    assert record.result is not None and sum(record.result) == 64
    assert record.names == ("random", "greedy", "search:1", "maxn:1")[
        record.seats.index(0):] + ("random", "greedy", "search:1", "maxn:1")[
        :record.seats.index(0)]
    code, shown, err = run("replay-multi", str(path), "--json")
    assert code == 0, err
    data = json.loads(shown)
    assert data["finished"] and len(data["moves"]) == 60
    assert sum(s["discs"] for s in data["standings"]) == 64
    first = data["standings"][0]
    assert f"1. {first['colour']} ({first['player']}): {first['discs']}" in out


def test_a_person_plays_is_refused_takes_back_and_leaves(tmp_path: Path) -> None:
    path = tmp_path / "left.mgf"
    code, out, err = run("play-multi", "--seat", "person:Ann", "--seat", "greedy",
                         "--seat", "greedy", "--seat", "greedy", "--first", "red",
                         "--seed", "1", "--record", str(path),
                         input="c3\nz9\nmoves\nf4\nundo\nquit\n")
    assert code == 0, err
    assert "a capture is possible, so one must be made" in out
    assert "not a square name" in out
    assert "f4 d6 f6" in out  # the legal moves, listed
    assert "took back 4 moves" in out  # red's f4 and the three programs' replies
    assert "left after 0 moves" in out
    [record] = read_multi_records(path)
    assert record.moves == () and record.result is None and record.names[0] == "Ann"


def test_the_end_of_input_leaves_like_quit(tmp_path: Path) -> None:
    code, out, _ = run("play-multi", "--game", "othello4", "--seat", "person",
                       "--seat", "random", "--first", "black", input="f4\n")
    assert code == 0 and "left after" in out


def test_two_players_on_chosen_colours() -> None:
    code, out, err = run("play-multi", "--seat", "greedy", "--seat", "random",
                         "--colours", "yellow,blue", "--first", "blue", "--seed", "2")
    assert code == 0, err
    assert "blue (random) moves first" in out and "Game over." in out


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "chess"], "no multi-player game 'chess'"),
    (["--seat", "chess", "--seat", "random"], "no multi-player program 'chess'"),
    (["--seat", "random"], "2 to 4 players"),
    (["--seat", "random", "--seat", "random", "--colours", "red"], "1 colours for 2 seats"),
    (["--seat", "random", "--seat", "random", "--first", "yellow"], "yellow does not play"),
    (["--seat", "random", "--seat", "random", "--first", "pink"], "no colour 'pink'"),
])
def test_bad_options_are_refused(args: list[str], message: str) -> None:
    code, _, err = run("play-multi", *args)
    assert code == 2 and message in err


def test_a_bad_record_is_refused_with_its_place(tmp_path: Path) -> None:
    path = tmp_path / "bad.mgf"
    path.write_text("(;GM[Rolit]SE[red yellow green blue]\n;1[f4];2[f4];)\n")
    code, _, err = run("replay-multi", str(path))
    assert code == 2
    assert f"{path}, line 2, column 10: move 2: f4 for yellow: occupied" in err
