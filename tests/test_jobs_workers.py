"""``match`` and the opening book's leaves through the jobs runner (:mod:`hasamigo.jobs`):
the same results on one worker and on two, and the old ``--jobs`` as a deprecated name of
``--workers``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from hasamigo import Board, Move
from hasamigo.cli import app
from hasamigo.engine.book import Book, expand, search_leaves, tree_from_records
from hasamigo.jobs import LocalBackend
from hasamigo.jobs.book import leaf_searcher
from hasamigo.notation import GameRecord, write_wthor

runner = CliRunner()
OPENINGS = ["f5d6c3d3c4f4f6f3e6e7", "f5d6c3d3c4f4f6f3e6e7", "e6f4c3c4d3d6f6c6f5g5",
            "f5f6e6f4e3c5c4d3c3", "d3c3c4e3f4d6", "f5f4e3f6d3"]


def games() -> list[GameRecord]:
    out = [GameRecord(moves=[Move.from_str(t[i:i + 2]) for i in range(0, len(t), 2)])
           for t in OPENINGS]
    rng = random.Random(3)
    for _ in range(10):
        board = Board()
        for m in ("f5", "d6", "c3"):
            board.play(m)
        while not board.is_game_over() and board.ply < 16:
            board.push(rng.choice(list(board.legal_moves)))
        out.append(GameRecord(moves=list(board.move_stack)))
    return out


def columns(book: Book) -> list[list[int]]:
    return [np.asarray(getattr(book, name)).tolist()
            for name in ("player", "opponent", "games", "value", "leaf", "leaf_value",
                         "depth")]


def test_the_leaves_on_two_workers_are_those_searched_here() -> None:
    here, _ = tree_from_records(games(), plies=5, min_games=2)
    shared, _ = tree_from_records(games(), plies=5, min_games=2)
    assert search_leaves(here, 2) == search_leaves(shared, 2,
                                                   search=leaf_searcher(LocalBackend(2)))
    assert columns(shared) == columns(here)
    grown_here = expand(here, 2, rounds=1)
    grown_shared = expand(shared, 2, rounds=1, search=leaf_searcher(LocalBackend(2)))
    assert len(grown_here) > len(here) and columns(grown_shared) == columns(grown_here)


def cli(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_book_build_writes_the_same_book_on_one_worker_and_two(tmp_path: Path) -> None:
    archive = tmp_path / "games.wtb"
    write_wthor(archive, games())
    books = []
    for workers in ("1", "2"):
        out = tmp_path / f"book{workers}.npz"
        cli("book", "build", str(archive), "--out", str(out), "--plies", "5", "--min-games",
            "2", "--depth", "2", "--rounds", "1", "--workers", workers, "--json")
        books.append(columns(Book.load(out)))
    assert books[1] == books[0]


def test_match_plays_the_same_games_on_one_worker_and_two(tmp_path: Path) -> None:
    outs = []
    for workers in ("1", "2"):
        result = cli("match", "greedy", "victory", "-n", "4", "--seed", "9", "--random-plies",
                     "4", "--workers", workers, "--out", str(tmp_path / f"{workers}.ggf"),
                     "--json")
        outs.append(json.loads(result.stdout))
    assert outs[1] == outs[0]
    assert (tmp_path / "1.ggf").read_text() == (tmp_path / "2.ggf").read_text()


@pytest.mark.parametrize("command", [
    ["match", "random", "random", "-n", "1"],
    ["study", "simulate", "--games", "1", "--programs", "victory", "--players", "random"],
])
def test_jobs_is_the_deprecated_name_of_workers(command: list[str]) -> None:
    old = cli(*command, "--jobs", "1", "--json")
    assert "--jobs is deprecated: give --workers 1" in old.stderr
    new = cli(*command, "--workers", "1", "--json")
    assert "deprecated" not in new.stderr
    assert json.loads(old.stdout) == json.loads(new.stdout)
    assert "--jobs" not in cli(command[0], *command[1:2] if command[0] == "study" else [],
                               "--help").stdout  # hidden
    both = runner.invoke(app, [*command, "--jobs", "1", "--workers", "1"])
    assert both.exit_code == 2 and "choose one of --jobs and --workers" in both.stderr
