"""The study simulation: the panel, the paper's direction (weak players do better against
amusement than against victory) with its test, the simulated subjects' records and
answers, the entertainer's target, the CLI's JSON and exports."""

from __future__ import annotations

import csv
import json
import random
from math import comb
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo import Board, Move
from hasamigo.cli import app
from hasamigo.jobs import LocalBackend
from hasamigo.jobs.games import study_player
from hasamigo.study.panel import (
    PANEL,
    PROFILES,
    BeginnerPlayer,
    NoisyMinimaxPlayer,
    SubjectView,
)
from hasamigo.study.records import (
    CAN_WIN,
    MOVE_FELT,
    AnswerRecord,
    GameRecord,
    StudyData,
    SubjectRecord,
    columns,
)
from hasamigo.study.simulate import (
    PROGRAMS,
    StudyRow,
    direction_tests,
    run_simulation,
    simulate,
    study_data,
    study_tasks,
)

runner = CliRunner()


def test_panel_players_are_legal_and_seeded() -> None:
    assert set(PROFILES) == set(PANEL)
    for name, factory in PANEL.items():
        a, b = factory(3), factory(3)
        board = Board()
        while not board.is_game_over():
            move = a.choose(board)
            assert move == b.choose(board), name
            board.push(move)


def sampled(seed: int, count: int) -> list[Board]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = Board()
        for _ in range(rng.randint(10, 50)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        if board.legal_moves_mask():
            out.append(board)
    return out


def test_beginner_takes_a_corner_when_offered_else_plays_like_noisy2() -> None:
    offered = 0
    for index, board in enumerate(sampled(4, 60)):
        beginner, noisy = BeginnerPlayer(seed=index), NoisyMinimaxPlayer(seed=index)
        move = beginner.choose(board)
        corners = [c for c in board.corners() if board.legal_moves_mask() >> c & 1]
        if corners:
            offered += 1
            assert move.square in corners
        else:
            assert move == noisy.choose(board)
    assert offered >= 5


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
        assert r.player_win_pct == pytest.approx(100 * (r.wins + r.draws / 2) / r.games)
    again = simulate(2, seed=0, panel=["random", "greedy"], programs=["victory", "amusement"],
                     play=study_player(LocalBackend(2)))
    assert again == rows


def test_direction_test_is_fishers_exact_one_sided() -> None:
    # the paper's own numbers: 4/6 wins against amusement, 0/6 against victory
    rows = [StudyRow("weak", "victory", 6, 0.0, 0, 0, 0),
            StudyRow("weak", "amusement", 6, 100 * 4 / 6, 0, 4, 0),
            StudyRow("other", "victory", 6, 50.0, 0, 3, 0),
            StudyRow("other", "amusement", 6, 50.0, 0, 2, 2)]
    tests = direction_tests(rows)
    assert [(t.player, t.program) for t in tests] == [("weak", "amusement"),
                                                       ("other", "amusement")]
    # P(4 or more of the 4 wins fall in the amusement row) = C(6,4) C(6,0) / C(12,4)
    assert tests[0].p_value == pytest.approx(comb(6, 4) / comb(12, 4))
    assert tests[0].direction_holds
    # draws count as non-wins in the test, as halves in the score
    other = tests[1]
    assert other.wins == 2 and other.baseline_wins == 3 and other.p_value > 0.5
    assert not other.direction_holds
    assert set(other.as_json()) >= {"player", "program", "p_value", "player_win_pct",
                                    "baseline_win_pct"}


def test_the_paper_direction_at_a_modest_count() -> None:
    """Weak players win more against amusement than against victory (12 games a cell)."""
    sim = run_simulation(12, seed=3, panel=["weighted1", "beginner"],
                         programs=["victory", "amusement"])
    assert len(sim.tests) == 2
    for t in sim.tests:
        assert t.direction_holds, t
        assert t.score_pct > t.baseline_score_pct
    assert min(t.p_value for t in sim.tests) < 0.05


@pytest.mark.exhaustive  # 2,000 games: 68 s on 2 cores (quiet), kept out of CI for time
def test_the_paper_direction_for_every_member_over_200_games() -> None:
    sim = run_simulation(200, seed=515, play=study_player(LocalBackend(2)),
                         programs=["victory", "amusement"])
    assert {t.player for t in sim.tests} == set(PANEL)
    for t in sim.tests:
        assert t.games == t.baseline_games == 200
        assert t.direction_holds, t
        assert t.p_value < 0.05, t


@pytest.mark.exhaustive  # 1,000 games, ~25 min on 2 cores
def test_entertainer_keeps_every_member_near_even_over_200_games() -> None:
    """Seed 777 was never tuned on (tuned: 101, 8128; the corner feature: 4096). The
    issue's band, 45-55 % for every member over 200 games, is inside the sampling noise:
    a program that gives every member exactly 50 % keeps all five in it on only about
    half the seeds (0.86 a member, binomial). What can be shown is that every member's
    score is consistent with 50 % (two-sided binomial test on the points, Bonferroni over
    the five at 5 %), the pooled score is within 2.5 points of 50 (1,000 games: ± 1.6 is
    one standard error) and no move breaks the naturalness bound. (Seed 777, 200 games:
    51.0 / 42.8 / 52.5 / 55.0 / 53.2 %, pooled 50.9.)"""
    from scipy.stats import binomtest

    rows = simulate(200, seed=777, play=study_player(LocalBackend(2)),
                    programs=["entertainer"])
    assert {r.player for r in rows} == set(PANEL)
    for r in rows:
        assert r.naturalness_violations == 0, r
        points = round(r.player_win_pct * r.games / 100)
        assert binomtest(points, r.games, 0.5).pvalue >= 0.05 / len(rows), r
    pooled = sum(r.player_win_pct for r in rows) / len(rows)
    assert abs(pooled - 50) <= 2.5, pooled


def test_subject_view_answers_from_its_own_model() -> None:
    # the side to move holds every edge square (corners too), the other side the stars
    edges = "XXXXXXXX" + "XO----OX" + "X------X" * 4 + "XO----OX" + "XXXXXXXX"
    ahead = Board.from_string(edges + " X")
    behind = Board.from_string(edges + " O")
    for member in PANEL:
        view = SubjectView(member, random.Random(0))
        assert view.can_win(ahead.copy()) == "win", member
        assert view.can_win(behind.copy()) == "lose", member
    board = sampled(9, 1)[0]
    view = SubjectView("weighted1", random.Random(0))
    rated = view.options(board)
    ranked = sorted(rated, key=lambda s: -rated[s])
    assert len(ranked) >= 4
    assert view.move_felt(board, Move(ranked[0])) == "expected"
    assert view.move_felt(board, Move(ranked[-1])) == "surprising"


@pytest.mark.parametrize("protocol", ["paper", "extended"])
def test_study_data_records_subjects_games_and_answers(protocol: str) -> None:
    sim = run_simulation(2, seed=1, panel=["beginner", "greedy"],
                         programs=["victory", "amusement"], answers=True, protocol=protocol)
    data = study_data(sim)
    paper = protocol == "paper"
    assert [s.subject for s in data.subjects] == ["beginner-001", "beginner-002",
                                                  "greedy-001", "greedy-002"]
    assert [s.order for s in data.subjects[:2]] == [("victory", "amusement"),
                                                    ("amusement", "victory")]
    assert all(s.simulated and s.more_fun in s.order for s in data.subjects)
    assert all(s.protocol == protocol for s in data.subjects)
    assert data.subjects[0].strength == PROFILES["beginner"].strength
    # each protocol's own items: the paper asks strategies after, as free text, and no
    # play frequency; the extended one asks both before
    beginner = data.subjects[0]
    assert (beginner.play_frequency is None) is paper
    assert bool(beginner.strategies) is not paper and bool(beginner.strategies_text) is paper
    assert len(data.games) == 8
    for g in data.games:
        subject = next(s for s in data.subjects if s.subject == g.subject)
        assert subject.order[g.index - 1] == g.program
        # the paper has no question after each game; it asks each game's result after all
        assert (g.felt is None) is paper
        assert g.felt is None or 1 <= g.felt <= 5
        assert g.reported_outcome == (g.outcome if paper else None)
        answers = [a for a in data.answers if a.game_id == g.game_id]
        assert answers and all(a.program == g.program for a in answers)
        assert [a.move_number for a in answers] == sorted({a.move_number for a in answers})
        assert {a.timing for a in answers} == {"subject-move" if paper else "program-move"}
    kinds = {a.move_kind for a in data.answers if a.program == "amusement"}
    assert "normal" in kinds and kinds & {"expectation", "surprise"}
    assert {a.move_kind for a in data.answers if a.program == "victory"} == {"normal"}
    assert {a.can_win for a in data.answers} <= set(CAN_WIN)
    felt = {a.move_felt for a in data.answers}
    assert felt - {None} <= set(MOVE_FELT) and len(felt - {None}) == 3
    # no opponent's move before Black's first: the paper asks only "can you win" then
    assert (None in felt) is paper
    assert all(a.evaluation is not None and a.seconds > 0 for a in data.answers)
    assert any(a.exact for a in data.answers)
    # the answers are those of the position the subject faced
    first = data.answers[0]
    assert Board.from_string(first.position).to_string() == first.position
    again = StudyData.from_json(data.to_json())
    assert (again.subjects, again.games, again.answers) == (data.subjects, data.games,
                                                            data.answers)


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
    assert [(t["player"], t["program"]) for t in data["tests"]] == [
        ("random", "amusement"), ("random", "amusement:swing")]
    assert {"player", "p_value"} <= set(data["tests"][0])


@pytest.mark.parametrize("protocol", ["extended", "paper"])
def test_cli_writes_the_study_exports(tmp_path: Path, protocol: str) -> None:
    out = tmp_path / "sim"
    result = runner.invoke(app, ["study", "simulate", "--games", "2", "--jobs", "1", "--json",
                                 "--programs", "victory,amusement", "--players", "beginner",
                                 "--protocol", protocol, "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["tests"] and data["written"]
    for name, kind in (("subjects.csv", SubjectRecord), ("games.csv", GameRecord),
                       ("answers.csv", AnswerRecord)):
        with (out / name).open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
        assert tuple(rows[0]) == columns(kind), name
        assert len(rows) > 1, name
    study = StudyData.read(out)
    assert len(study.subjects) == 2 and len(study.games) == 4 and study.answers
    report = out / "report.html"
    assert report.exists() and "<svg" in report.read_text(encoding="utf-8")


def test_cli_selects_programs_and_players() -> None:
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--jobs", "1", "--json",
                                 "--programs", "victory", "--players", "greedy,random"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [(r["player"], r["program"], r["games"]) for r in data["rows"]] == [
        ("greedy", "victory", 1), ("random", "victory", 1)]
    assert data["tests"] == []


def test_cli_refuses_unknown_names() -> None:
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--programs",
                                 "victory,nobody"])
    assert result.exit_code != 0
    assert "nobody" in result.stderr and "--programs" in result.stderr
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--players", "alice"])
    assert result.exit_code != 0 and "alice" in result.stderr
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--programs", " , "])
    assert result.exit_code != 0 and "none given" in result.stderr
