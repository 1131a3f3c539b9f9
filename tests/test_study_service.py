"""The stored study: subjects, their counterbalanced orders, the procedure's steps, the
answers read back from the games, the exports, and a restart that loses nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.storage.db import Database
from hasamigo.storage.repository import GameRepository
from hasamigo.study.records import AnswerRecord, GameRecord, SubjectRecord, columns
from hasamigo.study.service import StudyError, StudyService, StudySettings
from hasamigo.study.store import StudyRepository


def _service(path: Path) -> StudyService:
    db = Database(f"sqlite:///{path}")
    db.open()
    return StudyService(StudyRepository(db), GameRepository(db))


def _play_study_game(service: StudyService, program: str, game_id: str) -> GameController:
    """A study game played to its end, every question answered (the subject plays the
    first legal move; the program too)."""
    setup = GameSetup((Participant("Subject"), Participant(program, program=program)),
                      GameOptions(clock_seconds=None, casual=False), "random")
    game = GameController.new(setup, game_id=game_id)
    game.declare_study()
    service.games.create(game)
    stored = len(game.events)
    while game.result is None:
        study = game.study
        assert study is not None
        asked = study.asked
        if asked is not None:
            game.answer(asked.move_number, "can_win", "unknown", seconds=1.5)
            game.answer(asked.move_number, "move_felt", "expected", seconds=2.0,
                        move_kind="normal")
            continue
        game.play(None, game.board.move_name(next(iter(game.board.legal_moves))))
    service.games.append(game, stored)
    return game


def test_a_subject_goes_through_the_whole_study_and_a_restart_loses_nothing(
        tmp_path: Path) -> None:
    path = tmp_path / "study.db"
    service = _service(path)
    info = service.create("Pilot", StudySettings(protocol="extended"), "secret-pw")
    assert service.check_password(info.id, "secret-pw")
    assert not service.check_password(info.id, "wrong")
    subject = service.new_subject(info.id, "en")
    code = subject.code
    assert subject.order == ("victory", "amusement")
    assert service.new_subject(info.id).order == ("amusement", "victory")
    assert service.progress(info.id, code).step == "consent"
    with pytest.raises(StudyError, match="consent step"):
        service.answer_before(info.id, code, strength=2, play_frequency="rarely",
                              strategies=[])
    service.consent(info.id, code)
    with pytest.raises(StudyError):
        service.answer_before(info.id, code, strength=6, play_frequency="rarely",
                              strategies=[])
    with pytest.raises(StudyError):
        service.answer_before(info.id, code, strength=2, play_frequency="rarely",
                              strategies=["cheating"])
    service.answer_before(info.id, code, strength=2, play_frequency="rarely",
                          strategies=["mobility", "corners"])
    for index, program in enumerate(subject.order, 1):
        progress = service.progress(info.id, code)
        assert (progress.step, progress.game_index) == ("game", index)
        game_id = f"g{index}{code[:6].lower()}"
        _play_study_game(service, program, game_id)
        service.add_game(info.id, code, index, game_id)
        assert service.progress(info.id, code).step == "felt"
        service.answer_felt(info.id, code, index, 4, "close game")
        with pytest.raises(StudyError):
            service.answer_felt(info.id, code, index, 5, "again")
    assert service.progress(info.id, code).step == "after"
    with pytest.raises(StudyError):
        service.answer_after(info.id, code, more_fun="entertainer", more_fun_why="",
                             what_makes_fun="")
    service.answer_after(info.id, code, more_fun="amusement", more_fun_why="it gave a corner",
                         what_makes_fun="close games")
    assert service.progress(info.id, code).step == "done"

    data = service.data(info.id)
    again = _service(path).data(info.id)  # a new process on the same file
    assert again.to_json() == data.to_json()
    assert code not in str(data.to_json())  # the login code stays in the database
    mine = next(s for s in data.subjects if s.subject == "S01")
    assert (mine.strength, mine.strategies, mine.more_fun) == (2, ("corners", "mobility"),
                                                                "amusement")
    assert [g.program for g in data.games] == ["victory", "amusement"]
    assert all(g.outcome in ("win", "lose", "draw") and g.felt == 4 for g in data.games)
    assert data.answers and all(a.evaluation is None for a in data.answers)
    assert all(a.seconds == 2.0 and a.can_win == "unknown" for a in data.answers)
    csv = data.to_csv()
    assert csv["answers.csv"].splitlines()[0].split(",") == list(columns(AnswerRecord))
    assert csv["games.csv"].splitlines()[0].split(",") == list(columns(GameRecord))
    assert csv["subjects.csv"].splitlines()[0].split(",") == list(columns(SubjectRecord))

    first = data.answers[0]
    service.repo.put_evaluation(first.game_id, first.move_number, -3.0, False)
    assert service.data(info.id).answers[0].evaluation == -3.0
    assert len(service.pending_evaluations(info.id)) == len(data.answers) - 1


def test_bad_studies_and_codes_are_refused(tmp_path: Path) -> None:
    service = _service(tmp_path / "s.db")
    with pytest.raises(StudyError):
        StudySettings(arms=("victory",))
    with pytest.raises(StudyError, match="external engine"):
        StudySettings(arms=("victory", "nboard:edax"))
    with pytest.raises(StudyError, match="unknown program"):
        StudySettings(arms=("victory", "chess"))
    with pytest.raises(StudyError, match="differ"):
        StudySettings(arms=("victory", "Victory"))
    with pytest.raises(StudyError):
        StudySettings(arms=tuple(f"engine:{n}" for n in range(1, 8)))
    with pytest.raises(StudyError):
        StudySettings(protocol="mine")
    with pytest.raises(StudyError):
        StudySettings(surprise_window="always")
    with pytest.raises(StudyError):
        StudySettings(languages=("fr",))
    with pytest.raises(StudyError):
        StudySettings(clock_minutes=0)
    with pytest.raises(StudyError):
        service.create("x", StudySettings(), "pw")  # too short
    with pytest.raises(StudyError):
        service.create("x" * 500, StudySettings(), "password")
    info = service.create("Three", StudySettings(("victory", "amusement", "entertainer"),
                                                 5.0, ("ja",)), "password")
    with pytest.raises(StudyError) as refused:
        service.subject(info.id, "NOPE")
    assert refused.value.code == "not_found"
    with pytest.raises(StudyError):
        service.new_subject(info.id, "en")
    orders = [service.new_subject(info.id).order for _ in range(6)]
    assert len(set(orders)) == 6


def test_the_command_line_creates_lists_and_exports(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from hasamigo.cli import app

    runner = CliRunner()
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    made = runner.invoke(app, ["study", "new", "Pilot", "--password", "secret-pw",
                               "--programs", "victory,amusement,entertainer", "--db", db,
                               "--json"])
    assert made.exit_code == 0, made.output
    study = json.loads(made.output)
    assert len(study["design"]) == 6 and study["arms"][2] == "entertainer"
    assert (study["protocol"], study["surprise_window"]) == ("paper", "moves")
    extended = json.loads(runner.invoke(app, [
        "study", "new", "Rich", "--password", "secret-pw", "--protocol", "extended",
        "--window", "moves", "--db", db, "--json"]).output)
    assert (extended["protocol"], extended["surprise_window"]) == ("extended", "moves")
    for option, value in (("--protocol", "papers"), ("--window", "late")):
        wrong = runner.invoke(app, ["study", "new", "X", "--password", "secret-pw", option,
                                    value, "--db", db])
        assert wrong.exit_code == 2 and value in wrong.output
    service = _service(tmp_path / "cli.db")
    code = service.new_subject(study["id"]).code
    listed = json.loads(runner.invoke(app, ["study", "list", "--db", db, "--json"]).output)
    assert sorted((s["id"], s["subjects"]) for s in listed) == sorted(
        [(study["id"], 1), (extended["id"], 0)])
    subjects = json.loads(runner.invoke(app, ["study", "subjects", study["id"], "--db", db,
                                              "--json"]).output)
    assert [(s["code"], s["step"]) for s in subjects] == [(code, "consent")]
    out = tmp_path / "out"
    exported = runner.invoke(app, ["study", "export", study["id"], "-o", str(out), "--db", db,
                                   "--json"])
    assert json.loads(exported.output)["subjects"] == 1
    assert (out / "answers.csv").read_text().strip() == ",".join(columns(AnswerRecord))
    report = tmp_path / "report.html"
    reported = runner.invoke(app, ["study", "report", study["id"], "--db", db, "-o",
                                   str(report), "--json"])
    assert reported.exit_code == 0, reported.output
    assert json.loads(reported.output)["subjects"] == 1 and "<html" in report.read_text()
    refused = runner.invoke(app, ["study", "subjects", "nope", "--db", db])
    assert refused.exit_code == 2
    unknown = runner.invoke(app, ["study", "report", "nope", "--db", db, "-o", str(report)])
    assert unknown.exit_code == 2 and "no study 'nope'" in unknown.output
    bad = runner.invoke(app, ["study", "new", "X", "--password", "secret-pw", "--programs",
                              "victory", "--db", db])
    assert bad.exit_code == 2
