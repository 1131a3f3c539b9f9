"""The match runner: colours, openings twice, seeds, tallies, Elo, GGF output, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo import BLACK, WHITE
from hasamigo.cli import app
from hasamigo.notation import read_games
from hasamigo.tournament.match import (
    GameTask,
    elo_difference,
    elo_interval,
    game_seed,
    match_tasks,
    read_openings,
    run_match,
)

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def test_colours_alternate_and_each_opening_is_played_twice() -> None:
    openings = read_openings(DATA / "xot-sample.txt")
    tasks = match_tasks("random", "greedy", 8, seed=3, openings=openings)
    assert [t.a_color for t in tasks] == [BLACK, WHITE] * 4
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert first.opening == second.opening and len(first.opening) == 8
    assert len({t.opening for t in tasks}) == 4
    assert len({t.seed for t in tasks}) == 8
    assert match_tasks("random", "greedy", 8, seed=3, openings=openings) == tasks


def test_random_plies_openings() -> None:
    tasks = match_tasks("random", "random", 4, seed=1, random_plies=6)
    assert all(len(t.opening) == 6 for t in tasks)
    assert tasks[0].opening == tasks[1].opening != tasks[2].opening


def test_game_seed_depends_on_match_seed_and_index_only() -> None:
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, i) for i in range(50)} | {game_seed(2, 0)}) == 51


def test_tallies_and_colours_in_play() -> None:
    summary = run_match("greedy", "random", 6, seed=4)
    assert summary.games == 6
    assert summary.a_wins + summary.draws + summary.b_wins == 6
    for r in summary.results:
        assert r.a_color is (BLACK if r.index % 2 == 0 else WHITE)
        assert r.a_discs + r.b_discs == 64  # official counts
        points = 0.5 if r.outcome.winner is None else float(r.outcome.winner is r.a_color)
        assert r.a_points == points
    wins = sum(r.a_points == 1 for r in summary.results)
    assert summary.a_wins == wins
    assert summary.a_score_pct == pytest.approx(
        100 * (summary.a_wins + summary.draws / 2) / 6)
    assert summary.a_discs == sum(r.a_discs for r in summary.results)


def test_same_results_with_one_or_two_jobs() -> None:
    one = run_match("greedy", "victory", 4, seed=9, random_plies=4, jobs=1)
    two = run_match("greedy", "victory", 4, seed=9, random_plies=4, jobs=2)
    assert [(r.opening, r.moves, r.outcome) for r in one.results] == [
        (r.opening, r.moves, r.outcome) for r in two.results]


def test_elo_on_known_inputs() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(10 / 11) == pytest.approx(400.0)
    assert elo_difference(1 / 11) == pytest.approx(-400.0)
    assert elo_difference(0.0) is None and elo_difference(1.0) is None
    low, high = elo_interval(5, 0, 5)
    assert low is not None and high is not None
    assert low == pytest.approx(-high)
    # mean 0.5, sd 0.5 per game, n = 10: s ± 1.96 * 0.5 / sqrt(10)
    margin = 1.959963984540054 * 0.5 / math.sqrt(10)
    assert high == pytest.approx(-400 * math.log10(1 / (0.5 + margin) - 1))
    assert elo_interval(10, 0, 0) == (None, None)
    assert elo_interval(0, 10, 0) == (0.0, 0.0)


def test_ggf_output_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "games.ggf"
    summary = run_match("random", "greedy", 4, seed=2, random_plies=3, out=out)
    records = list(read_games(out))
    assert len(records) == 4
    for record, result in zip(records, summary.results, strict=True):
        board = record.replay()
        assert board.outcome() == result.outcome
        assert record.recorded_score == result.outcome.black
        assert {record.black, record.white} == {"random", "greedy"}
        assert (record.black == "random") == (result.a_color is BLACK)


def test_cli_json_shape(tmp_path: Path) -> None:
    out = tmp_path / "m.ggf"
    result = runner.invoke(app, ["match", "greedy", "random", "--games", "4", "--seed", "1",
                                 "--jobs", "1", "--openings", str(DATA / "xot-sample.txt"),
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"a", "b", "games", "a_wins", "draws", "b_wins", "a_score_pct",
                         "elo", "elo_ci95"}
    assert data["a"] == "greedy" and data["games"] == 4
    assert data["a_wins"] + data["draws"] + data["b_wins"] == 4
    assert isinstance(data["elo_ci95"], list) and len(data["elo_ci95"]) == 2
    assert len(list(read_games(out))) == 4


def test_cli_table_output() -> None:
    result = runner.invoke(app, ["match", "random", "random", "--games", "2", "--jobs", "1"])
    assert result.exit_code == 0, result.stderr
    assert "wins" in result.stdout and "Elo" in result.stdout


@pytest.mark.parametrize("args", [
    ["match", "nobody", "random"],
    ["match", "random", "engine:99"],
    ["match", "random", "random", "--openings", "missing.txt"],
    ["match", "random", "random", "--out", "games.xyz"],
])
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    if "nobody" in args:
        assert "unknown player 'nobody'" in result.stderr and "victory" in result.stderr


def test_task_is_picklable() -> None:
    import pickle

    task = GameTask(0, "random", "greedy", (), 5)
    assert pickle.loads(pickle.dumps(task)) == task


def test_cli_refuses_an_illegal_opening_line_naming_it(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("f5d6c3\nf5f5\n")
    result = runner.invoke(app, ["match", "random", "random", "--games", "2",
                                 "--openings", str(openings), "--jobs", "1"])
    assert result.exit_code == 2
    assert "line 2" in result.stderr and "occupied" in result.stderr
