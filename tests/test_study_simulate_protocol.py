"""The simulated study under a protocol and a surprise window: when the simulated subjects
answer (the paper's 「被験者が１手打つごとに」, or after each program move), which program
plays an amusement arm, the treatment fidelity each game records and reports, and the
command line's ``--protocol`` and ``--window``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import hasamigo
from hasamigo import Board
from hasamigo.cli import app
from hasamigo.engine.players.base import move_number
from hasamigo.errors import InvalidOptionError
from hasamigo.study.records import CAN_WIN, MOVE_FELT, StudyData
from hasamigo.study.simulate import (
    StudyGame,
    arm_spec,
    run_simulation,
    run_study_task,
    study_data,
    study_tasks,
)

runner = CliRunner()


def plies(game: StudyGame) -> tuple[list[int], list[int], list[int]]:
    """The plies (1-based, passes counted) of the subject's moves (passes excepted), of
    the program's moves that leave the game going, and of all the program's moves."""
    board = Board()
    subject, going, program = [], [], []
    for ply, move in enumerate(game.result.moves, 1):
        mover = board.turn
        board.push(move)
        if mover is game.result.a_color:
            if not move.is_pass:
                subject.append(ply)
        else:
            program.append(ply)
            if not board.is_game_over():
                going.append(ply)
    return subject, going, program


def position_after(game: StudyGame, ply: int) -> Board:
    board = Board()
    for move in game.result.moves[:ply]:
        board.push(move)
    return board


@pytest.fixture(scope="module")
def paper_games() -> list[StudyGame]:
    sim = run_simulation(2, seed=5, panel=["random", "beginner"],
                         programs=["victory", "amusement"], answers=True, protocol="paper")
    return sim.games


def test_paper_protocol_answers_once_after_every_subject_move(
        paper_games: list[StudyGame]) -> None:
    """「被験者が１手打つごとに」: one answer per move the subject played (passes are not
    played moves), none after a program move."""
    for game in paper_games:
        subject, _, program = plies(game)
        numbers = [a.move_number for a in game.answers]
        assert numbers == subject, game.task
        assert not set(numbers) & set(program)
        assert [a.subject_moves for a in game.answers] == list(range(1, len(subject) + 1))
        assert {a.timing for a in game.answers} == {"subject-move"}
        for a in game.answers:
            # judged at the position after the subject's move
            assert a.position == position_after(game, a.move_number).to_string()
            assert a.can_win in CAN_WIN
            # about the program's move just before it, if there was one
            before = [p for p in program if p < a.move_number]
            if a.about_move is None:
                assert a.move_felt is None and a.program_move == ""
                assert a.move_number == 1 and game.result.a_color.name == "BLACK"
            else:
                assert a.about_move == max(before)
                assert a.move_felt in MOVE_FELT
                move = game.result.moves[a.about_move - 1]
                assert a.program_move == position_after(game, a.about_move).move_name(move)
        # the subject's own last move is asked about too; at the game's end the
        # evaluation is its result
        if subject[-1] == len(game.result.moves):
            last = game.answers[-1]
            assert last.exact
            assert last.evaluation == game.result.a_discs - game.result.b_discs
            assert last.can_win == ("win" if game.result.a_points == 1 else "lose"
                                    if game.result.a_points == 0 else "unknown")
    # the first move of a White subject follows the program's first move
    white = [g for g in paper_games if g.result.a_color.name == "WHITE"]
    assert white and all(g.answers[0].about_move == 1 for g in white)


def test_extended_protocol_answers_after_every_program_move_that_leaves_the_game_going(
        ) -> None:
    sim = run_simulation(2, seed=5, panel=["beginner"], programs=["victory", "amusement"],
                         answers=True, protocol="extended")
    for game in sim.games:
        subject, going, _ = plies(game)
        assert [a.move_number for a in game.answers] == going
        assert all(a.about_move == a.move_number and a.move_felt in MOVE_FELT
                   for a in game.answers)
        assert {a.timing for a in game.answers} == {"program-move"}
        # the subject's moves played so far, before the program's
        assert [a.subject_moves for a in game.answers] == [
            sum(p < a.move_number for p in subject) for a in game.answers]


def test_the_window_names_the_program_but_not_the_arm() -> None:
    assert arm_spec("amusement") == "amusement"
    assert arm_spec("amusement", "moves") == "amusement:moves"
    assert arm_spec("amusement:swing", "moves") == "amusement:swing:moves"
    assert arm_spec("entertainer", "moves") == "entertainer"
    with pytest.raises(InvalidOptionError, match="surprise window"):
        arm_spec("amusement", "late")
    with pytest.raises(InvalidOptionError, match="protocol"):
        run_simulation(1, panel=["random"], programs=["victory"], protocol="nonsense")
    tasks = study_tasks(1, panel=["greedy"], programs=["amusement"], window="moves")
    assert tasks[0].program == "amusement" and tasks[0].spec == "amusement:moves"
    # the same games seed for seed, whatever the window
    assert tasks[0].seed == study_tasks(1, panel=["greedy"], programs=["amusement"])[0].seed


def test_treatment_is_what_the_program_reported_playing() -> None:
    """expectation_at / surprise_at, read from the record, are the move numbers of the
    moves the program itself reported as its expectation and surprise moves."""
    for window in ("midgame", "moves"):
        for task in study_tasks(3, seed=2, panel=["greedy", "beginner"],
                                programs=["amusement", "victory"], window=window):
            game = run_study_task(task)
            reported: dict[str, int] = {}
            board = Board()
            for move, kind in zip(game.result.moves, game.result.kinds, strict=True):
                if board.turn is not game.result.a_color and kind in ("expectation",
                                                                      "surprise"):
                    reported[kind] = move_number(board)
                board.push(move)
            assert game.expectation_at == reported.get("expectation"), task
            assert game.surprise_at == reported.get("surprise"), task
            assert game.gifts == 0


def test_moves_window_gives_the_surprise_in_nearly_every_game() -> None:
    """The issue's check at a modest count: with "moves 30-35 whatever the phase" the
    amusement program plays its surprise move in at least 90 % of the games, against a
    corner-taking greedy player too, where the midgame window often ends first."""
    panel = ["greedy", "weighted1", "beginner"]
    moves = run_simulation(8, seed=11, panel=panel, programs=["amusement"], window="moves")
    midgame = run_simulation(8, seed=11, panel=panel, programs=["amusement"],
                             window="midgame")
    assert moves.window == "moves" and midgame.window == "midgame"
    fidelity = moves.fidelity()["amusement"]
    assert fidelity.games == 24
    assert fidelity.surprise_pct >= 90, fidelity
    by_member = moves.fidelity_by_member()["amusement"]
    assert set(by_member) == set(panel)
    assert all(f.games == 8 and f.surprise_pct >= 75 for f in by_member.values()), by_member
    # the midgame window misses it more often, most against greedy
    assert midgame.fidelity()["amusement"].surprise_pct < fidelity.surprise_pct
    greedy = midgame.fidelity_by_member()["amusement"]["greedy"]
    assert greedy.surprise_pct < by_member["greedy"].surprise_pct


def test_the_paper_protocol_plays_the_papers_window_by_default() -> None:
    """Issue 64: 「意外性の手は３０～３５手で打つ」. Unless told, the paper protocol's
    simulation plays the surprise move in the paper's window (the game's moves 30-35) and
    the amusement program has it in at least 99 % of its games — against the corner-taking
    players too, where the project's midgame window misses it (measured before the change,
    60 games a member, seed 0: 88.7 % of the amusement games)."""
    panel = ["random", "greedy"]
    paper = run_simulation(12, seed=6, panel=panel, programs=["amusement"])
    assert (paper.protocol, paper.window) == ("paper", "moves")
    fidelity = paper.fidelity()["amusement"]
    assert fidelity.games == 24 and fidelity.surprise_pct >= 99, fidelity
    # the project's reading stays an option, and misses some of these very games
    midgame = run_simulation(12, seed=6, panel=panel, programs=["amusement"],
                             window="midgame")
    assert midgame.window == "midgame"
    assert midgame.fidelity()["amusement"].surprise_pct < 99
    extended = run_simulation(1, seed=5, panel=["greedy"], programs=["victory"],
                              protocol="extended")
    assert extended.window == "midgame"  # the extended protocol keeps the project's


def test_cli_paper_protocol_reports_the_surprise_in_nearly_every_amusement_game() -> None:
    """The bar of issue 64: ``study simulate --protocol paper`` (no --window) reports the
    paper's window and the surprise move in at least 99 % of the amusement games (a
    small simulation)."""
    result = runner.invoke(app, ["study", "simulate", "--games", "12", "--workers", "1",
                                 "--json", "--protocol", "paper", "--programs",
                                 "victory,amusement", "--players", "random,greedy"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["surprise_window"] == "moves"
    assert data["fidelity"]["amusement"]["games"] == 24
    assert data["fidelity"]["amusement"]["surprise_pct"] >= 99


@pytest.mark.exhaustive  # 2,000 games: about 4 min on one core
def test_moves_window_gives_the_surprise_in_90_percent_over_200_games_a_member() -> None:
    """The issue's check: over 200 games against each panel member, with "moves 30-35
    whatever the phase" the amusement programs play their surprise move in at least 90 %
    of the games, against every member. Measured (seed 0, paper protocol): moves window
    amusement 99.8 % (greedy 99.0, the others 100), amusement:swing 99.6 % (greedy 98.5,
    noisy2 99.5); midgame window 85.1 % (random 82.0, greedy 80.5, weighted1 82.5, noisy2
    91.5, beginner 89.0) and 83.1 %."""
    from hasamigo.jobs import LocalBackend
    from hasamigo.jobs.games import study_player

    sim = run_simulation(200, play=study_player(LocalBackend(2)),
                         programs=["amusement", "amusement:swing"], window="moves")
    for program, fidelity in sim.fidelity().items():
        assert fidelity.games == 1000 and fidelity.surprise_pct >= 90, (program, fidelity)
        for member, f in sim.fidelity_by_member()[program].items():
            assert f.games == 200 and f.surprise_pct >= 90, (program, member, f)


def test_gifts_are_the_entertainers() -> None:
    sim = run_simulation(2, seed=3, panel=["beginner"],
                         programs=["victory", "amusement", "entertainer"])
    fidelity = sim.fidelity()
    assert fidelity["victory"].expectation == fidelity["victory"].surprise == 0
    assert fidelity["victory"].gifts == fidelity["amusement"].gifts == 0
    assert fidelity["entertainer"].expectation == fidelity["entertainer"].surprise == 0
    for game in sim.games:
        board, reported = Board(), 0
        for move, kind in zip(game.result.moves, game.result.kinds, strict=True):
            reported += board.turn is not game.result.a_color and kind in (
                "expectation", "surprise", "gift")
            board.push(move)
        assert game.gifts == (reported if game.task.program == "entertainer" else 0)
    assert fidelity["entertainer"].gifts >= 1
    data = study_data(sim)
    assert [g.gifts for g in data.games if g.program == "entertainer"] == [
        g.gifts for g in sim.games if g.task.program == "entertainer"]


def test_study_data_carries_the_studys_meta_and_treatment() -> None:
    sim = run_simulation(2, seed=4, panel=["greedy"], programs=["victory", "amusement"],
                         window="moves")
    data = study_data(sim, name="A simulated study")
    meta = data.meta
    assert meta is not None
    assert (meta.protocol, meta.arms, meta.surprise_window) == (
        "paper", ("victory", "amusement"), "moves")
    assert meta.name == "A simulated study" and meta.software_version == hasamigo.__version__
    by_game = {(g.task.index, g.task.program): g for g in sim.games}
    for record in data.games:
        rep = int(record.subject.rsplit("-", 1)[1]) - 1
        game = by_game[(rep, record.program)]
        assert (record.expectation_at, record.surprise_at) == (game.expectation_at,
                                                               game.surprise_at)
    assert any(g.surprise_at for g in data.games if g.program == "amusement")
    assert all(g.expectation_at is None and g.surprise_at is None
               for g in data.games if g.program == "victory")


# ---- the command line --------------------------------------------------------------------
def test_cli_reports_fidelity_and_the_window() -> None:
    result = runner.invoke(app, ["study", "simulate", "--games", "4", "--workers", "1",
                                 "--json", "--protocol", "paper", "--window", "moves",
                                 "--programs", "victory,amusement", "--players",
                                 "greedy,beginner"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["protocol"] == "paper" and data["surprise_window"] == "moves"
    assert set(data["fidelity"]) == {"victory", "amusement"}
    for program, fidelity in data["fidelity"].items():
        assert set(fidelity) == {"games", "expectation_pct", "surprise_pct", "gift_pct"}
        assert fidelity["games"] == 8
        members = data["fidelity_by_member"][program]
        assert set(members) == {"greedy", "beginner"}
        assert sum(m["games"] for m in members.values()) == 8
        assert fidelity["surprise_pct"] == pytest.approx(
            sum(m["surprise_pct"] for m in members.values()) / 2, abs=0.1)
    assert data["fidelity"]["victory"]["surprise_pct"] == 0
    assert data["fidelity"]["amusement"]["surprise_pct"] > 50
    assert [r["program"] for r in data["rows"]] == ["victory", "amusement"] * 2


def test_cli_human_output_states_the_window() -> None:
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--workers", "1",
                                 "--programs", "amusement", "--players", "greedy",
                                 "--window", "MOVES"], terminal_width=200)
    assert result.exit_code == 0, result.stderr
    assert "Treatment fidelity" in result.stdout
    assert "surprise window: moves (the paper's: moves 30-35 of the game)" in result.stdout
    assert "protocol: paper" in result.stdout


def test_cli_extended_protocol_writes_program_move_answers(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    result = runner.invoke(app, ["study", "simulate", "--games", "1", "--workers", "1",
                                 "--json", "--protocol", "extended", "--programs",
                                 "victory,amusement", "--players", "random", "--out",
                                 str(out)])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["protocol"] == "extended"
    study = StudyData.read(out)
    assert study.answers and {a.timing for a in study.answers} == {"program-move"}
    assert all(s.protocol == "extended" for s in study.subjects)


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--protocol", "papers", "unknown protocol 'papers'; known: paper, extended"),
    ("--window", "endgame", "unknown surprise window 'endgame'; known: moves, midgame"),
])
def test_cli_refuses_a_bad_protocol_or_window(option: str, value: str, message: str) -> None:
    result = runner.invoke(app, ["study", "simulate", "--games", "1", option, value])
    assert result.exit_code == 2
    said = " ".join(result.stderr.replace("│", " ").split())  # out of rich's box
    assert option in said and message in said


def test_a_pass_is_not_a_subject_move() -> None:
    """A game where the subject must pass (seed 5's second game: random against victory
    passes at plies 28, 38 and 40): the passes get no answer, its moves around them do."""
    task = study_tasks(2, seed=5, panel=["random"], programs=["victory"], answers=True)[1]
    game = run_study_task(task)
    board = Board()
    passes = []
    for ply, move in enumerate(game.result.moves, 1):
        if board.turn is game.result.a_color and move.is_pass:
            passes.append(ply)
        board.push(move)
    assert passes, "the seeded game has no subject pass any more: choose another"
    numbers = {a.move_number for a in game.answers}
    assert not set(passes) & numbers
    assert len(numbers) == len(plies(game)[0])
