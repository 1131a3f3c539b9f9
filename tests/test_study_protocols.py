"""The stored study's protocols and the researcher's data: the paper protocol's procedure
(its before and after items only, no question after each game), each protocol refusing
the other's items, settings that change only before the first subject, archive and
re-open, withdrawal that leaves nothing of the subject in the database or the export,
the export bundle with its data dictionary, treatment fidelity, revision 0009."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from dataclasses import fields
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.storage.db import Database, alembic_config, head_revision, normalise_url
from hasamigo.storage.repository import GameRepository
from hasamigo.study.dictionary import DICTIONARY, HEADER
from hasamigo.study.records import TABLES, StudyData, columns
from hasamigo.study.service import StudyError, StudyService, StudySettings, pseudonym
from hasamigo.study.settings import game_spec
from hasamigo.study.store import StudyRepository


def _service(path: Path) -> StudyService:
    db = Database(f"sqlite:///{path}")
    db.open()
    return StudyService(StudyRepository(db), GameRepository(db))


def _play(service: StudyService, spec: str, game_id: str,
          timing: str = "subject-move") -> GameController:
    """A study game to its end, every question answered (both players play the first
    legal move), the questions asked at ``timing``."""
    setup = GameSetup((Participant("Subject"), Participant(spec, program=spec)),
                      GameOptions(clock_seconds=None, casual=False), "random")
    game = GameController.new(setup, game_id=game_id)
    game.declare_study(timing)
    service.games.create(game)
    stored = len(game.events)
    while True:
        study = game.study
        assert study is not None
        asked = study.asked
        if asked is not None:
            for question in asked.asks:
                answer = "unknown" if question == "can_win" else "surprising"
                game.answer(asked.move_number, question, answer, seconds=1.0)
            continue
        if game.result is not None:
            break
        game.play(None, game.board.move_name(next(iter(game.board.legal_moves))))
    service.games.append(game, stored)
    return game


def _paper_subject(service: StudyService, study: str, *, play: bool = True) -> str:
    code = service.new_subject(study, "ja").code
    service.consent(study, code)
    service.answer_before(study, code, strength=3)
    if play:
        for index, program in enumerate(service.subject(study, code).order, 1):
            _play(service, service.settings(study).spec(program), f"{code.lower()}{index}")
            service.add_game(study, code, index, f"{code.lower()}{index}")
    return code


def test_the_paper_protocol_asks_its_items_and_no_question_after_each_game(
        tmp_path: Path) -> None:
    service = _service(tmp_path / "s.db")
    info = service.create("Paper", StudySettings(), "secret-pw")
    assert (info.settings.protocol, info.settings.surprise_window) == ("paper", "moves")
    assert info.settings.arms == ("victory", "amusement")
    code = service.new_subject(info.id, "ja").code
    service.consent(info.id, code)
    with pytest.raises(StudyError, match="paper protocol does not ask play_frequency"):
        service.answer_before(info.id, code, strength=3, play_frequency="rarely")
    with pytest.raises(StudyError, match="strategies"):
        service.answer_before(info.id, code, strength=3, strategies=["corners"])
    with pytest.raises(StudyError, match="strength"):
        service.answer_before(info.id, code, strength=0)
    service.answer_before(info.id, code, strength=3)
    order = service.subject(info.id, code).order
    for index, program in enumerate(order, 1):
        assert service.progress(info.id, code).step == "game"
        _play(service, program, f"p{index}")
        service.add_game(info.id, code, index, f"p{index}")
        with pytest.raises(StudyError, match="asks nothing after each game"):
            service.answer_felt(info.id, code, index, 4)
    assert service.progress(info.id, code).step == "after"
    with pytest.raises(StudyError, match="result of each of the 2 games"):
        service.answer_after(info.id, code, more_fun="amusement", reported_outcomes=["win"])
    with pytest.raises(StudyError, match="result of each"):
        service.answer_after(info.id, code, more_fun="amusement",
                             reported_outcomes=["win", "maybe"])
    service.answer_after(info.id, code, more_fun="amusement", more_fun_why="意外な手",
                         strategies_text="角を取る", what_makes_fun="駆け引き",
                         reported_outcomes=["lose", "win"])
    assert service.progress(info.id, code).step == "done"
    data = service.data(info.id)
    (subject,) = data.subjects
    assert (subject.subject, subject.protocol, subject.strength) == ("S01", "paper", 3)
    assert (subject.strategies_text, subject.play_frequency, subject.strategies) == (
        "角を取る", None, ())
    assert [g.reported_outcome for g in data.games] == ["lose", "win"]
    assert all(g.felt is None for g in data.games)
    assert data.meta is not None and data.meta.protocol == "paper"
    for record in data.games:
        stored = service.games.load(record.game_id)
        assert stored is not None
        game = stored.game
        subject = game.study.subject  # type: ignore[union-attr]
        mine = [p for p in game.history if p.colour is subject and not p.move.is_pass]
        answers = [a for a in data.answers if a.game_id == record.game_id]
        # after every subject move exactly one in-game answer, in order
        assert [a.subject_moves for a in answers] == list(range(1, len(mine) + 1))
        assert all(a.timing == "subject-move" and a.can_win == "unknown" for a in answers)
        for a in answers:
            assert game.history[a.move_number - 1].colour is subject
            if a.about_move is None:  # Black's first move: no program move to ask about
                assert (a.move_number, a.move_felt, a.program_move) == (1, None, "")
            else:
                assert a.about_move < a.move_number and a.move_felt == "surprising"
                assert game.history[a.about_move - 1].colour is subject.other


def test_the_extended_protocol_refuses_the_paper_items(tmp_path: Path) -> None:
    service = _service(tmp_path / "s.db")
    info = service.create("Ext", StudySettings(protocol="extended"), "secret-pw")
    code = service.new_subject(info.id).code
    service.consent(info.id, code)
    with pytest.raises(StudyError, match="how often"):
        service.answer_before(info.id, code, strength=3)
    service.answer_before(info.id, code, strength=3, play_frequency="never", strategies=[])
    for index, program in enumerate(service.subject(info.id, code).order, 1):
        _play(service, program, f"e{index}", "program-move")
        service.add_game(info.id, code, index, f"e{index}")
        service.answer_felt(info.id, code, index, 3)
    with pytest.raises(StudyError, match="extended protocol does not ask reported_outcome"):
        service.answer_after(info.id, code, more_fun="victory", reported_outcomes=["win"] * 2)
    with pytest.raises(StudyError, match="strategies_text"):
        service.answer_after(info.id, code, more_fun="victory", strategies_text="corners")


def test_old_settings_read_as_the_extended_protocol() -> None:
    old = StudySettings.from_json({"arms": ["victory", "amusement"], "clock_minutes": None,
                                   "languages": ["ja"]})
    assert (old.protocol, old.surprise_window) == ("extended", "midgame")
    assert StudySettings.from_json(StudySettings().to_json()) == StudySettings()


def test_arms_are_any_registered_program_and_the_window_maps_the_amusement_ones() -> None:
    settings = StudySettings(("Victory", "amusement:swing", "engine:3", "weakest",
                              "entertainer", "amusement"), surprise_window="moves")
    assert settings.arms[0] == "victory"
    assert [settings.spec(a) for a in settings.arms] == [
        "victory", "amusement:swing:moves", "engine:3", "weakest", "entertainer",
        "amusement:moves"]
    assert game_spec("amusement", "midgame") == "amusement"


def test_settings_change_only_before_the_first_subject(tmp_path: Path) -> None:
    service = _service(tmp_path / "s.db")
    info = service.create("S", StudySettings(), "secret-pw")
    changed = service.change_settings(info.id, protocol="extended", surprise_window="moves",
                                      arms=["victory", "amusement", "entertainer"])
    assert (changed.settings.protocol, changed.settings.surprise_window) == ("extended",
                                                                             "moves")
    assert len(changed.to_json()["design"]) == 6
    with pytest.raises(StudyError):
        service.change_settings(info.id, protocol="nope")
    service.new_subject(info.id)
    with pytest.raises(StudyError, match="running study cannot change") as refused:
        service.change_settings(info.id, protocol="paper")
    assert refused.value.code == "wrong_phase"
    assert service.settings(info.id).protocol == "extended"


def test_an_archived_study_is_read_only_until_reopened(tmp_path: Path) -> None:
    service = _service(tmp_path / "s.db")
    study = service.create("A", StudySettings(), "secret-pw").id
    code = service.new_subject(study).code
    archived = service.archive(study)
    assert archived.archived_at is not None and archived.to_json()["archived_at"]
    for attempt in (lambda: service.new_subject(study), lambda: service.consent(study, code),
                    lambda: service.withdraw(study, code),
                    lambda: service.change_settings(study, protocol="extended")):
        with pytest.raises(StudyError, match="archived") as refused:
            attempt()
        assert refused.value.code == "wrong_phase"
    assert service.data(study).meta.archived_at is not None  # type: ignore[union-attr]
    assert service.reopen(study).archived_at is None
    service.consent(study, code)


def test_a_withdrawn_subject_leaves_nothing_in_the_database_or_the_export(
        tmp_path: Path) -> None:
    service = _service(tmp_path / "s.db")
    study = service.create("W", StudySettings(), "secret-pw").id
    stay = _paper_subject(service, study)
    leave = _paper_subject(service, study, play=False)
    index = 1
    program = service.subject(study, leave).order[0]
    _play(service, program, "leaving1")  # mid-study: one game played, one not
    service.add_game(study, leave, index, "leaving1")
    service.repo.put_evaluation("leaving1", 1, 2.0, False)
    assert service.withdraw(study, leave) == ["leaving1"]
    engine = service.repo.db.engine
    with engine.connect() as conn:
        def count(table: str, where: str, **values: str) -> int:
            return int(conn.execute(sa.text(f"select count(*) from {table} where {where}"),
                                    values).scalar_one())
        assert count("study_subjects", "code = :c", c=leave) == 0
        assert count("study_games", "code = :c", c=leave) == 0
        assert count("games", "id = :g", g="leaving1") == 0
        assert count("game_events", "game_id = :g", g="leaving1") == 0
        assert count("study_evaluations", "game_id = :g", g="leaving1") == 0
        assert count("study_subjects", "code = :c", c=stay) == 1
    data = service.data(study)
    text = json.dumps(data.to_json()) + "".join(data.files().values())
    assert "leaving1" not in text and leave not in text and stay not in text
    assert [s.subject for s in data.subjects] == ["S01"]
    assert data.meta is not None and data.meta.withdrawn == 1
    assert service.info(study).withdrawn == 1
    with pytest.raises(StudyError) as gone:
        service.withdraw(study, leave)
    assert gone.value.code == "not_found"
    # the last arrival withdrew: the next subject takes their row of the design (and
    # their pseudonym), so the counterbalancing stays complete
    assert pseudonym(service.new_subject(study).number) == "S02"


def test_the_export_bundle_and_its_data_dictionary(tmp_path: Path) -> None:
    service = _service(tmp_path / "s.db")
    study = service.create("E", StudySettings(surprise_window="moves"), "secret-pw").id
    _paper_subject(service, study)
    data = service.data(study)
    with zipfile.ZipFile(io.BytesIO(data.zip())) as archive:
        names = set(archive.namelist())
        assert names == {"subjects.csv", "games.csv", "answers.csv", "study.csv",
                         "data_dictionary.csv", "study.json"}
        meta = next(csv.DictReader(io.StringIO(archive.read("study.csv").decode())))
        assert (meta["protocol"], meta["surprise_window"], meta["withdrawn"]) == (
            "paper", "moves", "0")
        assert meta["software_version"]
        dictionary = list(csv.DictReader(io.StringIO(
            archive.read("data_dictionary.csv").decode())))
        everything = json.loads(archive.read("study.json"))
    assert tuple(dictionary[0]) == HEADER
    described = {(row["table"], row["column"]) for row in dictionary}
    wanted = {(table, column) for table, kind in TABLES.items() for column in columns(kind)}
    assert described == wanted
    assert everything["study"]["protocol"] == "paper"
    again = StudyData.from_json(everything)
    assert again.meta == data.meta and again.to_json() == data.to_json()
    assert StudyData.from_json({k: v for k, v in everything.items() if k != "study"}).meta \
        is None
    written = data.write(tmp_path / "out")
    assert {p.name for p in written} == names


def test_every_column_of_every_record_class_is_in_the_dictionary() -> None:
    for table, kind in TABLES.items():
        assert list(DICTIONARY[table]) == [f.name for f in fields(kind)], table
        for column, (kind_text, meaning, _codes) in DICTIONARY[table].items():
            assert kind_text and meaning, (table, column)


def test_each_game_records_the_treatment_it_got(tmp_path: Path) -> None:
    service = _service(tmp_path / "s.db")
    study = service.create("F", StudySettings(surprise_window="moves"), "secret-pw").id
    code = _paper_subject(service, study)
    data = service.data(study)
    assert len(data.games) == 2
    for game in data.games:
        if game.program == "victory":
            assert (game.expectation_at, game.surprise_at) == (None, None)
        else:
            stored = service.games.load(f"{code.lower()}{game.index}")
            assert stored is not None
            assert stored.game.seat(stored.game.study.subject.other  # type: ignore[union-attr]
                                    ).program == "amusement:moves"
        assert game.gifts == 0


def test_revision_0009_adds_the_archive_and_withdrawn_columns(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r0008.db'}"
    engine = sa.create_engine(normalise_url(url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0008")
        conn.execute(sa.text("insert into studies (id, name, settings, password_hash, "
                             "created_at) values ('old', 'Old', :s, 'x', '2025-01-01')"),
                     {"s": json.dumps({"arms": ["victory", "amusement"]})})
    engine.dispose()
    db = Database(url)
    applied = db.open()
    assert applied[0] == "0009" and applied[-1] == head_revision()  # and any later ones
    service = StudyService(StudyRepository(db), GameRepository(db))
    old = service.info("old")
    assert (old.withdrawn, old.archived_at, old.settings.protocol) == (0, None, "extended")
    with db.engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0008")
    columns_now = {c["name"] for c in sa.inspect(db.engine).get_columns("studies")}
    assert {"archived_at", "withdrawn"}.isdisjoint(columns_now)
    db.close()


def test_the_command_line_withdraws_archives_and_exports_the_bundle(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from hasamigo.cli import app

    runner = CliRunner()
    service = _service(tmp_path / "cli.db")
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    study = service.create("CLI", StudySettings(), "secret-pw").id
    stay = _paper_subject(service, study)
    leave = _paper_subject(service, study)
    refused = runner.invoke(app, ["study", "withdraw", study, leave, "--db", db])
    assert refused.exit_code == 2 and service.subject(study, leave)
    done = runner.invoke(app, ["study", "withdraw", study, leave, "--yes", "--db", db,
                               "--json"])
    assert done.exit_code == 0, done.output
    result = json.loads(done.output)
    assert (result["study_withdrawn"], len(result["games"])) == (1, 2)
    archived = runner.invoke(app, ["study", "archive", study, "--db", db, "--json"])
    assert json.loads(archived.output)["archived_at"]
    blocked = runner.invoke(app, ["study", "withdraw", study, stay, "--yes", "--db", db])
    assert blocked.exit_code == 2 and "archived" in blocked.output
    out = tmp_path / "out"
    exported = runner.invoke(app, ["study", "export", study, "-o", str(out), "--db", db])
    assert exported.exit_code == 0, exported.output
    assert {p.name for p in out.iterdir()} >= {"study.csv", "data_dictionary.csv",
                                               "study.json"}
    assert json.loads((out / "study.json").read_text())["study"]["withdrawn"] == 1
    reopened = runner.invoke(app, ["study", "archive", study, "--reopen", "--db", db,
                                   "--json"])
    assert json.loads(reopened.output)["archived_at"] is None
