"""Jobs on local worker processes: the runner, its journal (resume), a worker that dies,
``solve --workers`` and ``selfplay``. The same jobs on Ray: ``test_jobs_ray.py``."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo import Board
from hasamigo.cli import app
from hasamigo.engine import solve_obf_file
from hasamigo.jobs import JobError, Journal, LocalBackend, make_backend, run_job
from hasamigo.jobs.selfplay import (
    BOOK_MARGIN,
    book_openings,
    game_records,
    selfplay_job,
    selfplay_tasks,
    xot_openings,
)
from hasamigo.jobs.solve import solve_job
from hasamigo.notation import read_games
from hasamigo.tournament.match import read_openings

DATA = Path(__file__).parent / "data"
#: 12 openings of the XOT list (tests/data/ATTRIBUTION.md); the list is not shipped
XOT_SAMPLE = DATA / "xot-sample.txt"
runner = CliRunner()
CALLS: list[int] = []


@pytest.fixture
def xot_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """The self-play's default openings (``xot``) are the 12 of the sample, named by
    $HASAMIGO_XOT, whether or not the whole list lies beside the checkout."""
    monkeypatch.setenv("HASAMIGO_XOT", str(XOT_SAMPLE))


def double(x: int) -> int:
    CALLS.append(x)
    return 2 * x


def die_once(task: tuple[int, str]) -> int:
    """Kills its worker process the first time (the marker file does not exist yet)."""
    x, marker = task
    if x == 2 and not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)
    return 2 * x


def always_die(x: int) -> int:
    os._exit(1)


def boom(x: int) -> int:
    raise ValueError(f"bad task {x}")


def boom_or_touch(task: tuple[int, str]) -> int:
    """Task 0 fails at once; the others take a while, then leave a file behind."""
    x, folder = task
    if x == 0:
        raise ValueError("bad task 0")
    time.sleep(0.3)
    (Path(folder) / str(x)).touch()
    return x


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_back_by_key_in_task_order(workers: int) -> None:
    tasks = {str(i): i for i in range(6)}
    assert run_job(tasks, double, backend=LocalBackend(workers)) == {
        str(i): 2 * i for i in range(6)}


def test_a_journal_skips_what_is_done_and_records_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    params = {"job": "double", "n": 1}
    CALLS.clear()
    run_job({"a": 1, "b": 2}, double, backend=LocalBackend(1), journal=Journal(path, params))
    assert CALLS == [1, 2]
    CALLS.clear()
    started: list[int] = []
    new: list[str] = []
    out = run_job({"a": 1, "b": 2, "c": 3}, double, backend=LocalBackend(1),
                  journal=Journal(path, params), on_start=started.append,
                  on_result=lambda key, _r: new.append(key))
    assert out == {"a": 2, "b": 4, "c": 6}
    assert CALLS == [3] and started == [2] and new == ["c"]
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0] == {"job": params} and [e["key"] for e in lines[1:]] == ["a", "b", "c"]


def test_a_line_cut_short_is_dropped_and_the_task_run_again(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    params = {"job": "double"}
    run_job({"a": 1}, double, backend=LocalBackend(1), journal=Journal(path, params))
    with path.open("a") as f:
        f.write('{"key": "b", "resu')  # the job stopped while writing
    CALLS.clear()
    out = run_job({"a": 1, "b": 2}, double, backend=LocalBackend(1),
                  journal=Journal(path, params))
    assert out == {"a": 2, "b": 4} and CALLS == [2]
    assert Journal(path, params).load() == {"a": 2, "b": 4}


def test_a_journal_of_another_job_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    run_job({"a": 1}, double, backend=LocalBackend(1), journal=Journal(path, {"n": 1}))
    with pytest.raises(JobError, match="other parameters"):
        run_job({"a": 1}, double, backend=LocalBackend(1), journal=Journal(path, {"n": 2}))
    (tmp_path / "x.jsonl").write_text("not json\n")
    with pytest.raises(JobError, match="not a hasamigo job journal"):
        Journal(tmp_path / "x.jsonl", {}).load()


def test_a_dead_worker_process_is_replaced_and_its_task_run_again(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    backend = LocalBackend(2)
    tasks = {str(i): (i, marker) for i in range(4)}
    assert run_job(tasks, die_once, backend=backend) == {str(i): 2 * i for i in range(4)}
    assert backend.restarts == 1 and os.path.exists(marker)


def test_a_task_whose_workers_keep_dying_is_named() -> None:
    with pytest.raises(JobError, match=r"died 3 times; tasks not done: .*7"):
        run_job({"7": 7, "8": 8}, always_die, backend=LocalBackend(2, retries=2))


def test_an_error_of_the_work_itself_ends_the_job() -> None:
    with pytest.raises(ValueError, match="bad task"):
        run_job({"1": 1, "2": 2}, boom, backend=LocalBackend(2))


def test_an_error_starts_no_more_tasks(tmp_path: Path) -> None:
    tasks = {str(i): (i, str(tmp_path)) for i in range(10)}
    with pytest.raises(ValueError, match="bad task 0"):
        run_job(tasks, boom_or_touch, backend=LocalBackend(2))
    assert len(list(tmp_path.iterdir())) <= 5  # those already running or queued


def test_ray_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                           xot_sample: None) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(JobError, match=r"pip install 'hasamigo\[cluster\]'"):
        make_backend(2, ray=True)
    result = runner.invoke(app, ["selfplay", "--level", "1", "--games", "1", "--out", "x.ggf",
                                 "--ray"])
    assert result.exit_code == 2
    assert "pip install 'hasamigo[cluster]'" in result.stderr


def test_solve_on_two_workers_gives_the_rows_of_one(ffo4: Path) -> None:
    one = solve_obf_file(ffo4, table_size=1 << 16)
    two = solve_job(ffo4, backend=LocalBackend(2), table_size=1 << 16)
    keys = ("index", "move", "score", "expected_score", "ok", "nodes")
    assert [[r[k] for k in keys] for r in two["positions"]] == [
        [r[k] for k in keys] for r in one["positions"]]
    assert two["all_ok"] and [r["index"] for r in two["positions"]] == [1, 2, 3, 4]


def test_solve_cli_workers_and_resume(ffo4: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    args = ["solve", str(ffo4), "--table-bits", "16", "--workers", "2", "--out", str(out)]
    first = runner.invoke(app, [*args, "--json"])
    assert first.exit_code == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["all_ok"] and [p["index"] for p in data["positions"]] == [1, 2, 3, 4]
    assert len(out.read_text().splitlines()) == 5  # the header and four rows
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.stderr
    assert "4 positions (exact)" in again.stdout and "2 local workers" in again.stdout
    assert len(out.read_text().splitlines()) == 5  # nothing solved twice
    clash = runner.invoke(app, [*args, "--threads", "2"])
    assert clash.exit_code == 2 and "--threads" in clash.stderr


def test_solve_cli_disagreement_still_exits_1(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.obf"
    line = (DATA / "ffo" / "fforum-1-19.obf").read_text().splitlines()[3]
    wrong.write_text(line.replace("+0", "+2", 1) + "\n")  # #4 is a draw
    result = runner.invoke(app, ["solve", str(wrong), "--table-bits", "16", "--workers", "2"])
    assert result.exit_code == 1 and "DISAGREES" in result.stdout


def test_selfplay_games_do_not_depend_on_the_workers() -> None:
    book = read_openings(XOT_SAMPLE)
    assert len(book) == 12 and all(len(o) == 8 for o in book)
    one = selfplay_job(1, 4, backend=LocalBackend(1), seed=5, openings=book)
    two = selfplay_job(1, 4, backend=LocalBackend(2), seed=5, openings=book)
    assert [r.moves for r in one] == [r.moves for r in two]
    tasks = list(selfplay_tasks(1, 4, seed=5, openings=book).values())
    assert tasks[0].opening == tasks[1].opening != tasks[2].opening == tasks[3].opening
    for record in one:
        assert record.replay().is_game_over()
        assert record.black == record.white == "engine:1"


def test_selfplay_rows_round_trip_to_records() -> None:
    rows = [{"index": 0, "moves": ["f5", "d6"], "black_score": 40}]
    (record,) = game_records(rows, 3)
    assert [str(m) for m in record.moves] == ["f5", "d6"] and record.recorded_score == 40


@pytest.mark.parametrize("suffix", [".ggf", ".wtb"])
def test_selfplay_cli_writes_and_resumes(tmp_path: Path, suffix: str, xot_sample: None) -> None:
    out = tmp_path / f"games{suffix}"
    args = ["selfplay", "--level", "1", "--games", "2", "--seed", "3", "--workers", "2",
            "--out", str(out), "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.stderr
    assert json.loads(first.stdout)["resumed"] == 0
    games = list(read_games(out))
    assert len(games) == 2
    more = runner.invoke(app, [*args[:4], "4", *args[5:]])
    assert more.exit_code == 0, more.stderr
    data = json.loads(more.stdout)
    assert data["games"] == 4 and data["resumed"] == 2
    assert data["black_wins"] + data["draws"] + data["white_wins"] == 4
    again = list(read_games(out))
    assert [g.moves for g in again[:2]] == [g.moves for g in games]
    other = runner.invoke(app, [*args[:6], "4", *args[7:]])  # another seed, same journal
    assert other.exit_code == 2 and "other parameters" in other.stderr


def test_selfplay_from_a_file_of_openings(tmp_path: Path) -> None:
    out = tmp_path / "g.txt"
    result = runner.invoke(app, ["selfplay", "-l", "1", "-n", "2", "--out", str(out),
                                 "--openings", str(XOT_SAMPLE)])
    assert result.exit_code == 0, result.stderr
    assert "2 games of engine:1" in result.stdout
    assert len(list(read_games(out))) == 2


def test_book_openings_are_book_lines_to_distinct_balanced_positions() -> None:
    """Each line is legal and played by book moves only; its end is a book position
    valued within the margin; no two lines end at the same position or a mirror image."""
    from hasamigo.engine.book import default_book, key_of

    book = default_book()
    assert book is not None
    lines = book_openings(6)
    assert len(lines) > 20
    ends = set()
    for line in lines:
        assert len(line) == 6
        board = Board()
        for move in line:
            assert move in [m.move for m in book.moves(board) if m.in_book]
            board.play(move)
        value = book.value_of(board)
        assert value is not None and abs(value) <= BOOK_MARGIN
        ends.add(key_of(board))
    assert len(ends) == len(lines)
    everything = book.lines(6)
    assert set(lines) < set(everything)  # the margin left some out
    assert book_openings(6) == lines  # the same book, the same list


def test_selfplay_from_the_book(tmp_path: Path) -> None:
    out = tmp_path / "g.txt"
    result = runner.invoke(app, ["selfplay", "-l", "1", "-n", "2", "--out", str(out),
                                 "--openings", "book:10", "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["openings"] == "book:10"
    starts = set(book_openings(10))
    for game in read_games(out):
        assert tuple(game.moves[:10]) in starts


@pytest.mark.parametrize("args, message", [
    (["--level", "1", "--games", "1", "--out", "x.ggf", "--openings", "book:0"],
     "from 1 to 24 moves long, not 0"),
    (["--level", "1", "--games", "1", "--out", "x.ggf", "--openings", "book:30"],
     "not 30"),
    (["--level", "1", "--games", "1", "--out", "x.ggf", "--openings", "book:x"],
     "'book:N'"),
    (["--level", "1", "--games", "1", "--out", "x.obf"], "not .obf"),
    (["--level", "1", "--games", "1", "--out", "x.pgn"], "extension"),
    (["--level", "1", "--games", "1", "--out", "x.ggf", "--openings", "nothere"], "no file"),
    (["--level", "0", "--games", "1", "--out", "x.ggf"], "--level"),
    (["--level", "1", "--games", "0", "--out", "x.ggf"], "--games"),
])
def test_selfplay_refuses_bad_input(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["selfplay", *args])
    assert result.exit_code == 2
    assert message in result.stderr


def test_the_xot_list_is_read_from_outside_the_package(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Not shipped (its published copy is GPL-3.0): $HASAMIGO_XOT, then the user's data
    directory, then the reference data beside a checkout; else an error that says so."""
    from hasamigo.jobs import selfplay

    mine = tmp_path / "mine.txt"
    mine.write_text(XOT_SAMPLE.read_text())
    monkeypatch.setenv("HASAMIGO_XOT", str(mine))
    assert selfplay.xot_path() == mine
    assert selfplay.xot_openings() == read_openings(XOT_SAMPLE)
    monkeypatch.delenv("HASAMIGO_XOT")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    (tmp_path / "hasamigo").mkdir()
    (tmp_path / "hasamigo" / "xot.txt").write_text("f5d6c3d3c4f4f6f5\n")
    assert selfplay.xot_path() == tmp_path / "hasamigo" / "xot.txt"
    (tmp_path / "hasamigo" / "xot.txt").unlink()
    monkeypatch.setattr(selfplay, "_CHECKOUT_XOT", tmp_path / "none.txt")
    with pytest.raises(FileNotFoundError, match="not shipped"):
        selfplay.xot_path()
    result = CliRunner().invoke(app, ["selfplay", "--level", "1", "--games", "2", "--out",
                                      str(tmp_path / "g.ggf")])
    assert result.exit_code == 2 and "HASAMIGO_XOT" in result.output


@pytest.mark.shared("xot/xot-large.txt")
def test_the_whole_xot_list_beside_a_checkout_is_read(shared_data: Callable[[str], Path],
                                                       tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from hasamigo.jobs import selfplay

    monkeypatch.delenv("HASAMIGO_XOT", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # no copy of the user's
    assert selfplay.xot_path().resolve() == shared_data("xot/xot-large.txt").resolve()
    book = xot_openings()
    assert len(book) == 10784 and all(len(o) == 8 for o in book)
