"""``hasamigo tournament …`` end to end: new, enter (options, CSV, withdrawals), pair
(--explain, --undo), result (cards, forfeits, corrections), standings, explain, list,
audit, export, simulate --json (its shape, and its wins and Brightwell points recomputed
from its own games), and run: four programs play a Meijin tournament by themselves."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.notation import read_games
from hasamigo.storage import Database, GameRepository

runner = CliRunner()
KNOCKOUT_STAGES = {"semifinal", "final", "third_place", "women_final"}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cli.db'}"


def cli(*args: str, code: int = 0) -> Any:
    """Run a command; with --json return its parsed output."""
    result = runner.invoke(app, ["tournament", *args])
    assert result.exit_code == code, result.output
    if "--json" in args and code == 0:
        return json.loads(result.stdout)
    return result.output


def test_a_club_swiss_from_the_command_line(db: str, tmp_path: Path) -> None:
    info = cli("new", "Club", "--format", "swiss", "--rounds", "2", "--c", "6",
               "--password", "pass1234", "--db", db, "--json")
    assert (info["format"], info["c"], info["has_password"], info["state"]) == (
        "swiss", 6, True, "registration")
    assert "pass1234" not in json.dumps(info)
    people = tmp_path / "people.csv"
    people.write_text("name,rank,birth_year,woman,seed\nAnn,3d,1970,yes,1\nBen,1d,1980,,\n"
                      "Cid,,1990,no,\nDee,2k,,1,0\n", encoding="utf-8")
    entered = cli("enter", "Club", "--csv", str(people), "--db", db, "--json")["entered"]
    assert [(e["name"], e["rank"], e["woman"], e["seed"]) for e in entered] == [
        ("Ann", "3d", True, True), ("Ben", "1d", False, False), ("Cid", None, False, False),
        ("Dee", "2k", True, False)]
    out = cli("enter", "Club", "Eve", "--rank", "五段", "--db", db)
    assert "#5 Eve" in out
    cli("enter", "Club", "--db", db, code=2)  # nothing to enter

    round1 = cli("pair", "Club", "--explain", "--db", db, "--json")
    assert round1["number"] == 1 and round1["stages"] == ["swiss"]
    assert [g["kind"] for g in round1["games"]].count("bye") == 1
    assert round1["explanation"]["notes"][0]["rule"] == "draw_round"
    cli("pair", "Club", "--db", db, code=2)  # round 1 is not complete
    games = [g for g in round1["games"] if g["kind"] == "played"]
    first = cli("result", "Club", str(games[0]["board"]), "35", "30", "--db", db, "--json")
    assert (first["black_discs"], first["white_discs"], first["winner"]) == (
        34, 30, games[0]["black"])  # rule 18: 65 discs, the winner's count shrinks
    forfeit = cli("result", "Club", str(games[1]["board"]), "--forfeit", games[1]["white"],
                  "--late", "--db", db, "--json")
    assert (forfeit["kind"], forfeit["black_discs"], forfeit["rated"]) == ("forfeit", 64,
                                                                         False)
    cli("result", "Club", str(games[0]["board"]), "20", "44", "--correct", "--db", db,
        code=2)  # a correction needs a reason
    fixed = cli("result", "Club", str(games[0]["board"]), "20", "44", "--correct",
                "--reason", "misread", "--as", "chief", "--db", db, "--json")
    assert fixed["winner"] == games[0]["white"]

    explained = cli("explain", "Club", "--db", db, "--json")
    assert explained["round"] == 1 and len(explained["boards"]) == 3
    out = cli("pair", "Club", "--explain", "--db", db)
    assert "Round 2" in out and ("[score_group]" in out or "[float]" in out)
    assert cli("pair", "Club", "--undo", "--db", db, "--json") == {"unpaired": 2}
    cli("pair", "Club", "--db", db)
    round2 = cli("standings", "Club", "--db", db, "--json")
    for g in cli("explain", "Club", "--db", db, "--json")["boards"]:
        if g[2] is not None:
            cli("result", "Club", str(g[0]), "40", "24", "--db", db)
    cli("enter", "Club", "--withdraw", "Dee", "--reason", "left", "--db", db)

    table = cli("standings", "Club", "--db", db, "--json")
    assert table["tournament"]["state"] == "finished"
    row = table["standings"][0]
    assert row["brightwell"] == row["discs"] + row["c"] * row["opponents_wins"]
    assert row["formula"].endswith(f"= {row['brightwell']:g}")
    assert [r["place"] for r in table["ranking"]] == [1, 2, 3, 4, 5]
    assert round2["standings"] != table["standings"]
    assert "final ranking" in cli("standings", "Club", "--db", db)

    log = cli("audit", "Club", "--db", db, "--json")
    correction = next(e for e in log if e["action"] == "correct")
    assert (correction["who"], correction["reason"]) == ("chief", "misread")
    assert correction["before"]["black_discs"] == 34 and correction["after"]["white_discs"] == 44
    assert [t["name"] for t in cli("list", "--db", db, "--json")] == ["Club"]

    out_dir = tmp_path / "out"
    out_dir.mkdir()
    written = cli("export", "Club", "--standings", str(out_dir / "s.csv"), "--games",
                  str(out_dir / "g.csv"), "--ggf", str(out_dir / "g.ggf"), "--library",
                  "--db", db, "--json")
    assert written == {"standings": 5, "games": 6, "ggf": 0, "sanctions": None,
                       "library": []}
    with (out_dir / "s.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["name"] == table["standings"][0]["name"] and rows[0]["final_place"]
    with (out_dir / "g.csv").open(encoding="utf-8") as f:
        assert {r["kind"] for r in csv.DictReader(f)} >= {"played", "bye", "forfeit"}


def test_errors_are_reported_not_raised(db: str) -> None:
    assert "unknown format" in cli("new", "X", "--format", "ladder", "--db", db, code=2)
    assert "no tournament" in cli("standings", "nothing", "--db", db, code=2)
    cli("new", "K", "--format", "knockout", "--db", db)
    cli("enter", "K", "A", "--db", db)
    cli("enter", "K", "B", "--db", db)
    assert "registered already" in cli("enter", "K", "a", "--db", db, code=2)
    assert "unknown player" in cli("enter", "K", "--program", "chess", "--db", db, code=2)
    cli("pair", "K", "--db", db)
    out = cli("result", "K", "1", "32", "32", "--db", db, code=2)
    assert "fuse-ishi" in out  # who played Black?
    done = cli("result", "K", "1", "32", "32", "--black", "A", "--draw-win", "B", "--db",
               db, "--json")
    assert done["winner"] == "B" and done["draw_win"] == "B"
    assert "C is 'auto'" in cli("new", "Y", "--c", "bad", "--db", db, code=2)


def independent_scores(data: dict[str, Any]) -> tuple[dict[str, float], dict[str, float]]:
    """Wins and Brightwell points from the JSON's own games: every game but the knockout
    ones; a bye a win worth 32 + C × own wins; a draw ½."""
    c = data["c"]
    games = [g for r in data["rounds"] if r["stage"] not in KNOCKOUT_STAGES
             for g in r["games"]]
    wins: dict[str, float] = {p["name"]: 0.0 for p in data["ranking"]}
    for g in games:
        if g["kind"] == "bye":
            wins[g["black"]] += 1
        elif g["black_discs"] == g["white_discs"]:
            wins[g["black"]] += 0.5
            wins[g["white"]] += 0.5
        else:
            wins[g["black"] if g["black_discs"] > g["white_discs"] else g["white"]] += 1
    bw = dict.fromkeys(wins, 0.0)
    for g in games:
        if g["kind"] == "bye":
            bw[g["black"]] += 32 + c * wins[g["black"]]
            continue
        bw[g["black"]] += g["black_discs"] + c * wins[g["white"]]
        bw[g["white"]] += g["white_discs"] + c * wins[g["black"]]
    return wins, bw


@pytest.mark.parametrize("entrants", [11, 40])
def test_simulate_json(entrants: int) -> None:
    data = cli("simulate", "--entrants", str(entrants), "--seed", "3", "--json")
    assert set(data) == {"format", "c", "rounds", "ranking"}
    assert (data["format"], data["c"]) == ("meijin", 9)
    stages = [(r["round"], r["stage"]) for r in data["rounds"]]
    assert [s for r, s in stages if r <= 6] == ["swiss"] * 6
    assert [s for r, s in stages if r == 7] == ["semifinal", "placement"]
    assert [s for r, s in stages if r == 8][:2] == ["final", "third_place"]
    assert {s for _, s in stages} <= {"swiss", "semifinal", "final", "third_place",
                                      "placement", "women_final"}
    for r in data["rounds"]:
        assert set(r) == {"round", "stage", "games"}
        for g in r["games"]:
            assert set(g) == {"black", "white", "black_discs", "white_discs", "kind"}
            assert g["kind"] in {"played", "bye", "not_played_draw", "forfeit"}
            if g["kind"] == "bye":
                assert g["white"] is None and g["black_discs"] == 32
            else:
                assert g["black_discs"] + g["white_discs"] == 64
            if r["stage"] in KNOCKOUT_STAGES:
                assert g["black_discs"] != g["white_discs"] or g["kind"] == "played"
    ranking = data["ranking"]
    assert [p["rank"] for p in ranking] == list(range(1, entrants + 1))
    for p in ranking:
        assert set(p) == {"rank", "name", "wins", "brightwell", "woman", "dan"}
    wins, bw = independent_scores(data)
    for p in ranking:
        assert p["wins"] == wins[p["name"]], p
        assert p["brightwell"] == bw[p["name"]], p
    assert [p["dan"] for p in ranking[:3]] == ["七段", "六段", "六段"]
    final = next(r for r in data["rounds"] if r["stage"] == "final")["games"][0]
    champion = final["black"] if final["black_discs"] > final["white_discs"] else \
        final["white"]
    assert ranking[0]["name"] == champion
    again = cli("simulate", "--entrants", str(entrants), "--seed", "3", "--json")
    assert again == data  # the seed gives the same tournament
    assert "rank" in cli("simulate", "--entrants", str(entrants))


def test_simulate_other_formats() -> None:
    master = cli("simulate", "--entrants", "12", "--format", "master", "--json")
    assert master["c"] == 13 and [r["stage"] for r in master["rounds"]][-2:] == [
        "final", "third_place"]
    assert master["ranking"][0]["dan"] == "五段"
    old = cli("simulate", "--entrants", "8", "--c", "6", "--json")
    assert old["c"] == 6
    cli("simulate", "--entrants", "2", code=2)


def test_four_programs_play_a_meijin_tournament(db: str, tmp_path: Path) -> None:
    cli("new", "Bots", "--format", "meijin", "--seed", "2", "--db", db)
    for spec, rank in (("random", None), ("greedy", "1k"), ("engine:1", "1d")):
        cli("enter", "Bots", "--program", spec, *(["--rank", rank] if rank else []),
            "--db", db)
    cli("enter", "Bots", "Second random", "--program", "random", "--birth-year", "1990",
        "--db", db)
    games_file = tmp_path / "bots.ggf"
    data = cli("run", "Bots", "--jobs", "2", "--out", str(games_file), "--db", db, "--json")
    assert data["tournament"]["state"] == "finished"
    assert data["tournament"]["rounds_paired"] == 8
    assert len(data["ranking"]) == 4 and data["ranking"][0]["dan"] == "七段"
    league = data["league"]
    assert sum(r["games"] for r in league) == 2 * 16  # 8 rounds of 2 games
    assert all(r["wins"] + r["draws"] + r["losses"] == r["games"] for r in league)
    records = list(read_games(games_file))
    assert len(records) == 16
    assert all(record.replay().is_game_over() for record in records)

    database = Database(db)
    database.open()
    library = GameRepository(database).summaries(limit=100)
    database.close()
    assert len(library) == 16 and all(s.public and s.phase == "over" for s in library)
    standings = cli("standings", "Bots", "--db", db, "--json")
    assert standings["ranking"] == data["ranking"]
    boards = tmp_path / "boards.csv"
    cli("export", "Bots", "--games", str(boards), "--db", db)
    with boards.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    knockout = [r for r in rows if r["stage"] in KNOCKOUT_STAGES]
    assert [r["stage"] for r in knockout] == ["semifinal", "semifinal", "final",
                                              "third_place"]
    # fuse-ishi by the controller: the draw-win holder is recorded on every one
    assert all(r["draw_win"] in (r["black"], r["white"]) for r in knockout)
    assert all(r["game_id"] for r in rows if r["kind"] == "played")
    text = cli("run", "Bots", "--db", db)  # finished: nothing more to play
    assert "League table" in text


def test_programs_on_threads_get_a_worker_per_their_cores(db: str,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """An entrant on two threads (``engine:1@2``): by default one worker per two cores,
    so that each game's searches have the cores their threads ask for."""
    from hasamigo.cli import workers
    from hasamigo.cli.tournament import runs
    from hasamigo.jobs import LocalBackend

    asked: list[int] = []

    def backend(count: int, ray: bool, address: str | None) -> LocalBackend:
        asked.append(count)
        return LocalBackend(1)

    monkeypatch.setattr(workers, "available_cores", lambda: 4)
    monkeypatch.setattr(runs, "backend_for", backend)
    cli("new", "Threads", "--format", "meijin", "--seed", "3", "--db", db)
    for name, spec in (("A", "engine:1@2"), ("B", "random"), ("C", "greedy"),
                       ("D", "random")):
        cli("enter", "Threads", name, "--program", spec, "--db", db)
    data = cli("run", "Threads", "--db", db, "--json")
    assert data["tournament"]["state"] == "finished"
    assert asked == [2]
