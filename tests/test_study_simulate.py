"""The study simulation: the panel, the report rows, the CLI's JSON."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from hasamigo import Board
from hasamigo.cli import app
from hasamigo.study.simulate import PANEL, PROGRAMS, simulate, study_tasks

runner = CliRunner()


def test_panel_players_are_legal_and_seeded() -> None:
    for name, factory in PANEL.items():
        a, b = factory(3), factory(3)
        board = Board()
        while not board.is_game_over():
            move = a.choose(board)
            assert move == b.choose(board), name
            board.push(move)


def test_tasks_alternate_colours_and_are_reproducible() -> None:
    tasks = study_tasks(4, seed=1)
    assert len(tasks) == 4 * len(PANEL) * len(PROGRAMS)
    assert tasks == study_tasks(4, seed=1)
    assert [t.member_color.name for t in tasks[:4]] == ["BLACK", "WHITE"] * 2


def test_simulate_rows() -> None:
    rows = simulate(2, seed=0, panel=["random", "greedy"], programs=["victory", "amusement"])
    assert [(r.player, r.program) for r in rows] == [
        ("random", "victory"), ("random", "amusement"), ("greedy", "victory"),
        ("greedy", "amusement")]
    for r in rows:
        assert r.games == 2 and 0 <= r.player_win_pct <= 100
        assert r.naturalness_violations >= 0
    again = simulate(2, seed=0, panel=["random", "greedy"], programs=["victory", "amusement"],
                     jobs=2)
    assert again == rows


def test_cli_json_shape() -> None:
    import hasamigo.study.simulate as sim

    saved = sim.PANEL
    sim.PANEL = {"random": saved["random"]}
    try:
        result = runner.invoke(app, ["study", "simulate", "--games", "1", "--jobs", "1",
                                     "--json"])
    finally:
        sim.PANEL = saved
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [r["program"] for r in data["rows"]] == list(PROGRAMS)
    assert set(data["rows"][0]) == {"player", "program", "games", "player_win_pct",
                                    "naturalness_violations"}


def test_cli_selects_programs_and_players() -> None:
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--jobs", "1", "--json",
                                 "--programs", "victory", "--players", "greedy,random"])
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["rows"]
    assert [(r["player"], r["program"], r["games"]) for r in rows] == [
        ("greedy", "victory", 1), ("random", "victory", 1)]


def test_cli_refuses_unknown_names() -> None:
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--programs",
                                 "victory,nobody"])
    assert result.exit_code != 0
    assert "nobody" in result.stderr and "--programs" in result.stderr
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--players", "alice"])
    assert result.exit_code != 0 and "alice" in result.stderr
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--programs", " , "])
    assert result.exit_code != 0 and "none given" in result.stderr
