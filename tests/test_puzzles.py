"""Puzzles (issue 19): FFO positions and one's own, answers judged by the exact solver;
the published FFO scores checked against the solver; the command line and the web API."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import error_of, make_client
from typer.testing import CliRunner

from hasamigo import Board
from hasamigo.analysis.puzzles import (
    MAX_OWN_EMPTIES,
    exact_scores,
    ffo_puzzle,
    ffo_puzzles,
    judge,
    position_puzzle,
)
from hasamigo.cli import app
from hasamigo.engine import Engine
from hasamigo.errors import IllegalMoveError, InvalidOptionError, InvalidPositionError
from hasamigo.variants import find_variant

runner = CliRunner()


def solved_children(board: Board) -> dict[str, int]:
    """Each legal move's exact score, each child solved on its own (side to move's view)."""
    engine = Engine()
    out = {}
    for move in list(board.legal_moves):
        child = board.copy()
        child.push(move)
        out[board.move_name(move)] = -engine.solve(child).score
    return out


@pytest.mark.parametrize("number", [1, 2, 3])
def test_published_ffo_scores_are_the_solvers(number: int) -> None:
    puzzle = ffo_puzzle(number)
    solved = solved_children(puzzle.board)
    for name, score in puzzle.known:
        assert solved[name] == score, (name, score)
    assert max(solved.values()) == max(score for _, score in puzzle.known)


@pytest.mark.slow
@pytest.mark.parametrize("number", range(4, 20))
def test_published_ffo_scores_are_the_solvers_1_to_19(number: int) -> None:
    test_published_ffo_scores_are_the_solvers(number)


def test_answers_are_judged_exactly() -> None:
    puzzle = ffo_puzzle(1)
    assert len(ffo_puzzles()) == 39 and puzzle.title == "FFO #1"
    known = dict(puzzle.known)
    best = max(known.values())
    right = judge(puzzle, "g8")
    assert right.correct and right.score == best == known["g8"] and "g8" in right.best_moves
    wrong = judge(puzzle, "a4")
    assert not wrong.correct and wrong.loss == best - known["a4"] > 0
    unlisted = [board_move for board_move in (puzzle.board.move_name(m)
                for m in puzzle.board.legal_moves) if board_move not in known]
    if unlisted:  # a move the file does not score is solved
        verdict = judge(puzzle, unlisted[0])
        assert verdict.score == solved_children(puzzle.board)[unlisted[0]]
    with pytest.raises(IllegalMoveError):
        judge(puzzle, "a1")


def test_a_position_of_ones_own_is_solved_move_by_move() -> None:
    rng = random.Random(3)
    board = Board()
    while board.empties.bit_count() > 12:
        board.push(rng.choice(list(board.legal_moves)))
    if not board.legal_moves_mask():
        board.push(next(iter(board.legal_moves)))
    puzzle = position_puzzle(board.copy(stack=False))
    assert exact_scores(puzzle.board) == solved_children(puzzle.board)
    name = puzzle.board.move_name(next(iter(puzzle.board.legal_moves)))
    verdict = judge(puzzle, name)
    assert verdict.loss == max(exact_scores(puzzle.board).values()) - verdict.score


def test_refusals() -> None:
    with pytest.raises(InvalidPositionError, match=str(MAX_OWN_EMPTIES)):
        position_puzzle(Board())
    with pytest.raises(InvalidOptionError, match="1 to 39"):
        ffo_puzzle(40)
    with pytest.raises(InvalidOptionError, match="Nip"):
        position_puzzle(find_variant("nip-circle")())
    full = Board.from_string("X" * 64 + " X")
    with pytest.raises(InvalidPositionError, match="no move"):
        position_puzzle(full)


def test_cli_shows_and_judges() -> None:
    shown = runner.invoke(app, ["puzzle", "1", "--json"])
    assert shown.exit_code == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["puzzle"]["key"] == "ffo-1" and "verdict" not in data
    judged = runner.invoke(app, ["puzzle", "1", "G8", "--json"])
    assert judged.exit_code == 0, judged.stderr
    assert json.loads(judged.stdout)["verdict"]["correct"] is True
    text = runner.invoke(app, ["puzzle", "1", "a4"])
    assert text.exit_code == 0 and "discs lost" in text.stdout
    for args, message in ((["puzzle", "0"], "1 to 39"), (["puzzle", "1", "a1"], "a1"),
                          (["puzzle", "--board", "f5d6"], "at most 20")):
        bad = runner.invoke(app, args)
        assert bad.exit_code == 2 and message in bad.stderr, bad.stderr


def test_cli_judges_on_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--threads 2``: the verdict's solve runs on an engine of two threads (FFO #39's b8
    is not a best move, so its child of 23 empties is solved, shared between them) and
    says what one thread says; a thread count out of range is refused."""
    import hasamigo.engine as engine_pkg

    made: list[int] = []

    class Counted(engine_pkg.Engine):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self.threads)

    monkeypatch.setattr(engine_pkg, "Engine", Counted)
    verdicts = []
    for threads in ("1", "2"):
        judged = runner.invoke(app, ["puzzle", "39", "b8", "--threads", threads, "--json"])
        assert judged.exit_code == 0, judged.stderr
        verdicts.append(json.loads(judged.stdout)["verdict"])
    assert made == [1, 2]
    assert verdicts[0] == verdicts[1]
    assert verdicts[1]["correct"] is False and verdicts[1]["loss"] > 0
    bad = runner.invoke(app, ["puzzle", "39", "b8", "--threads", "0"])
    assert bad.exit_code == 2 and "--threads" in bad.stderr


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with make_client(tmp_path / "games.db") as c:
        yield c


def test_web_api_and_page(client: TestClient) -> None:
    listed = client.get("/api/puzzles").json()
    assert len(listed) == 39 and listed[0]["key"] == "ffo-1" and listed[0]["legal"]
    right = client.post("/api/puzzles/answer", json={"key": "ffo-1", "move": "g8"})
    assert right.status_code == 200 and right.json()["correct"] is True, right.text
    puzzle = ffo_puzzle(1)
    own = client.post("/api/puzzles/answer", json={
        "variant": "standard", "board": puzzle.board.to_string(), "move": "a4"})
    assert own.status_code == 200 and own.json()["loss"] == right.json()["best_score"] + 22
    for body, status in (({"key": "ffo-99", "move": "g8"}, 400),
                         ({"key": "chess", "move": "g8"}, 400),
                         ({"key": "ffo-1", "move": "a1"}, 422),
                         ({"key": "ffo-1", "move": "zz"}, 400),
                         ({"key": "ffo-1"}, 422),
                         ({"board": Board().to_string(), "move": "f5"}, 400)):
        response = client.post("/api/puzzles/answer", json=body)
        assert response.status_code == status, (body, response.text)
        assert "code" in error_of(response)
    page = client.get("/puzzles?n=2")
    assert page.status_code == 200 and "FFO #2" in page.text
    link = client.get("/puzzles", params={"variant": "standard", "board": "junk"})
    assert link.status_code == 200 and 'id="puzzle-problem"' in link.text
