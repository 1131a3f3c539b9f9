"""``match`` and ``tournament run`` on several workers (:mod:`hasamigo.jobs.games`): the
games of the sequential run for the same seed, a journal that resumes a stopped match
and refuses another one's, bad options refused. On Ray: ``test_jobs_ray.py``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.game.result import GameResult, timeout_win
from hasamigo.jobs import JournalError, LocalBackend
from hasamigo.jobs.games import (
    SHORT_KEYS,
    game_result,
    game_row,
    match_params,
    match_player,
    play_short_task,
)
from hasamigo.move import BLACK, PASS, WHITE, Move
from hasamigo.notation import read_games
from hasamigo.player_spec import PlayerSpec
from hasamigo.tournament.match import MatchGame, match_tasks, run_match

runner = CliRunner()
A, B = PlayerSpec("greedy"), PlayerSpec("victory")  # quick, and their games differ with
PARAMS = match_params(seed=9, openings="", random_plies=4, clock=None)  # random openings


def test_a_row_gives_back_the_game_passes_clock_and_all() -> None:
    played = MatchGame(3, (Move.from_str("f5"),), (Move.from_str("d6"), PASS),
                       ("book", "normal"), (None, "only move"), WHITE, timeout_win(BLACK),
                       (0.25, 1 / 3))
    row = json.loads(json.dumps(game_row(played)))  # as the journal keeps it
    assert game_result(row) == played and game_result(row).time_loss is WHITE
    assert row["moves"] == ["f5", "d6", "pass"] and row["black_score"] == 33


def test_a_row_of_an_older_journal_still_loads() -> None:
    """Rows journalled before a row kept the whole result: the counts, the discs, the
    winner and the side that lost on time, side by side."""
    row = {"index": 3, "moves": ["f5", "d6", "pass"], "black_score": 33, "white_score": 31,
           "discs": [10, 12], "winner": "black", "opening": 1, "a_color": "white",
           "kinds": ["book", "normal"], "reasons": [None, "only move"], "time_loss": "white",
           "seconds": [0.25, 1 / 3]}
    old = game_result(row)
    assert old.result == timeout_win(BLACK) and old.time_loss is WHITE and old.a_points == 0.0
    assert old.opening == (Move.from_str("f5"),) and old.a_color is WHITE
    drawn = game_result({**row, "black_score": 32, "white_score": 32, "winner": None,
                         "time_loss": None})
    assert drawn.result == GameResult(32, 32, None) and drawn.time_loss is None
    assert game_result(json.loads(json.dumps(game_row(old)))) == old


def test_self_play_keeps_the_short_row() -> None:
    task = match_tasks(PlayerSpec("random"), PlayerSpec("random"), 1, seed=1)[0]
    row = play_short_task(task)
    assert tuple(row) == SHORT_KEYS and row["index"] == 0 and len(row["moves"]) >= 58


def test_two_workers_play_the_games_of_one_process() -> None:
    one = run_match(A, B, 6, seed=9, random_plies=4)
    two = run_match(A, B, 6, seed=9, random_plies=4,
                    play=match_player(LocalBackend(2), params=PARAMS))
    assert two.results == one.results
    assert two.as_json() == one.as_json()
    assert len({r.moves for r in two.results}) > 1  # not one game six times


def test_a_journal_resumes_a_stopped_match(tmp_path: Path) -> None:
    journal = tmp_path / "m.jsonl"
    seen: list[int] = []
    first = run_match(A, B, 2, seed=9, random_plies=4,
                      play=match_player(LocalBackend(2), journal=journal, params=PARAMS,
                                        on_start=seen.append))
    assert seen == [0] and len(journal.read_text().splitlines()) == 3
    more = run_match(A, B, 4, seed=9, random_plies=4,
                     play=match_player(LocalBackend(2), journal=journal, params=PARAMS,
                                       on_start=seen.append))
    assert seen == [0, 2]
    assert len(journal.read_text().splitlines()) == 5  # the first two not played again
    assert more.results[:2] == first.results
    assert more.results == run_match(A, B, 4, seed=9, random_plies=4).results


def test_a_journal_of_another_match_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "m.jsonl"
    run_match(A, B, 1, seed=9, random_plies=4,
              play=match_player(LocalBackend(1), journal=journal, params=PARAMS))
    other = match_params(seed=10, openings="", random_plies=4, clock=None)
    with pytest.raises(JournalError, match="other parameters"):
        run_match(A, B, 1, seed=10, random_plies=4,
                  play=match_player(LocalBackend(1), journal=journal, params=other))


def test_a_journal_keeps_the_players_of_its_games_and_refuses_others(tmp_path: Path) -> None:
    """The players a journal is checked against are the games' own (their specs' text, as
    journals always held them): they cannot disagree with the games played."""
    journal = tmp_path / "m.jsonl"
    run_match(A, PlayerSpec.parse("Engine:1"), 1, seed=9, random_plies=4,
              play=match_player(LocalBackend(1), journal=journal, params=PARAMS))
    header = json.loads(journal.read_text().splitlines()[0])["job"]
    assert header == {"job": "match", "a": "greedy", "b": "engine:1", "seed": 9,
                      "openings": "", "random_plies": 4, "clock": None}
    with pytest.raises(JournalError, match="other parameters"):
        run_match(A, B, 1, seed=9, random_plies=4,
                  play=match_player(LocalBackend(1), journal=journal, params=PARAMS))


def match_cli(*args: str) -> Any:
    result = runner.invoke(app, ["match", str(A), str(B), "-n", "4", "--seed", "9",
                                 "--random-plies", "4", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout) if "--json" in args else result.stdout


def test_match_cli_on_workers_writes_what_one_process_does_and_resumes(tmp_path: Path
                                                                       ) -> None:
    alone = match_cli("--jobs", "1", "--out", str(tmp_path / "one.ggf"), "--json")
    out = tmp_path / "two.ggf"
    shared = match_cli("--workers", "2", "--out", str(out), "--json")
    assert shared == alone
    assert [g.moves for g in read_games(out)] == [
        g.moves for g in read_games(tmp_path / "one.ggf")]
    journal = tmp_path / "two.ggf.jsonl"
    assert len(journal.read_text().splitlines()) == 5
    text = match_cli("--workers", "2", "--out", str(out))
    assert "4 games on 2 local workers, 4 of them from" in text
    assert len(journal.read_text().splitlines()) == 5  # nothing played twice
    own = tmp_path / "mine.jsonl"
    assert match_cli("--journal", str(own), "--json") == alone  # one worker, no --out
    assert len(own.read_text().splitlines()) == 5
    one = tmp_path / "one-worker.ggf"
    assert "on 1 local worker" in match_cli("--workers", "1", "--out", str(one))
    assert (tmp_path / "one-worker.ggf.jsonl").exists()  # --workers 1 is the jobs runner


@pytest.mark.parametrize("args, message", [
    (["--jobs", "2", "--workers", "2"], "choose one of --jobs and --workers"),
    (["--jobs", "2", "--workers", "1"], "choose one of --jobs and --workers"),
    (["--workers", "0"], "--workers"),
    (["--ray-address", "auto"], "pip install 'hasamigo[cluster]'"),
])
def test_match_cli_refuses_bad_worker_options(args: list[str], message: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    result = runner.invoke(app, ["match", str(A), str(B), "-n", "2", *args])
    assert result.exit_code == 2
    assert message in result.stderr


def test_match_cli_refuses_the_journal_of_another_seed(tmp_path: Path) -> None:
    out = tmp_path / "g.ggf"
    match_cli("--workers", "2", "--out", str(out))
    result = runner.invoke(app, ["match", str(A), str(B), "-n", "4", "--seed", "10",
                                 "--random-plies", "4", "--workers", "2", "--out", str(out)])
    assert result.exit_code == 2 and "other parameters" in result.stderr


def tournament(*args: str, code: int = 0) -> Any:
    result = runner.invoke(app, ["tournament", *args])
    assert result.exit_code == code, result.output
    return json.loads(result.stdout) if "--json" in args and code == 0 else result.output


def bots(db: str) -> None:
    """Four programs entered in a Meijin tournament (knockout games included)."""
    tournament("new", "Bots", "--format", "meijin", "--seed", "2", "--db", db)
    for spec, rank in (("random", None), ("greedy", "1k"), ("engine:1", "1d")):
        tournament("enter", "Bots", "--program", spec, *(["--rank", rank] if rank else []),
                   "--db", db)
    tournament("enter", "Bots", "Second random", "--program", "random", "--birth-year",
               "1990", "--db", db)


def test_tournament_run_on_workers_plays_the_games_of_one_process(tmp_path: Path) -> None:
    results = []
    for name, options in (("one", ["--jobs", "1"]), ("two", ["--workers", "2"])):
        db = f"sqlite:///{tmp_path / name}.db"
        bots(db)
        out = tmp_path / f"{name}.ggf"
        data = tournament("run", "Bots", *options, "--out", str(out), "--db", db, "--json")
        assert data["tournament"]["state"] == "finished"
        results.append((data["ranking"], data["league"],
                        sorted((g.black, g.white, " ".join(map(str, g.moves)))
                               for g in read_games(out))))
    assert results[1] == results[0]
    assert len(results[0][2]) == 16
    db = f"sqlite:///{tmp_path / 'three'}.db"
    bots(db)
    refused = tournament("run", "Bots", "--jobs", "2", "--workers", "2", "--db", db, code=2)
    assert "choose one of --jobs and --workers" in refused
