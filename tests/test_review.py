"""Game review (issue 19): every move's disc loss, checked against exact solves done
another way (each child solved) and against a plain negamax over the rules near the end;
the summary adds up; a review resumes; the command line and its errors."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hasamigo.analysis.review import LABELS, Review, label_of, review
from hasamigo.board import Board
from hasamigo.cli import app
from hasamigo.engine import Engine
from hasamigo.errors import InvalidOptionError
from hasamigo.move import BLACK, WHITE, Color
from hasamigo.notation import read_games
from hasamigo.variants import find_variant

runner = CliRunner()
WTHOR = Path(__file__).parent / "data" / "wthor" / "WTH_1977.wtb"
JSON_ROW = {"ply", "colour", "move", "best_move", "best_score", "played_score", "loss",
            "label", "exact"}


def wthor_game(index: int) -> Board:
    for number, record in enumerate(read_games(WTHOR), 1):
        if number == index:
            return record.replay()
    raise AssertionError(f"no game {index}")


def exact_by_children(engine: Engine, board: Board) -> dict[str, int]:
    """Every legal move's exact score, each child solved on its own (mover's view)."""
    scores = {}
    for move in list(board.legal_moves):
        board.push(move)
        scores[board.move_name(move)] = (-engine.solve(board).score if not board.is_game_over()
                                         else _final(board))
        board.pop()
    return scores


def _final(board: Board) -> int:
    """The finished game's official difference from the view of the side that just
    moved (the side not to move)."""
    outcome = board.outcome()
    assert outcome is not None
    return outcome.disc_difference if board.turn is WHITE else -outcome.disc_difference


def summary_adds_up(result: Review) -> None:
    for colour in (BLACK, WHITE):
        s = result.summary(colour)
        rows = [m for m in result.moves if m.colour is colour]
        assert s.moves == len(rows) == sum(s.labels.values())
        assert s.total_loss == sum(m.loss for m in rows)
        assert all(m.loss >= 0 for m in rows)
        if s.total_loss:
            assert s.worst is not None and s.worst.loss == max(m.loss for m in rows)
    assert sum(result.summary(c).moves for c in (BLACK, WHITE)) == len(result.moves)


def test_exact_losses_equal_each_childs_solve() -> None:
    """A WTHOR game reviewed with exact scores from 14 empties: there every row's best and
    played scores are those of the children solved one by one."""
    game = wthor_game(3)
    result = review(game.root(), game.move_stack, depth=4, exact_empties=14)
    assert len(result.moves) == len(game.move_stack)
    summary_adds_up(result)
    check = Engine()
    board = game.root()
    exact_rows = 0
    for row, move in zip(result.moves, game.move_stack, strict=True):
        if board.empties.bit_count() <= 14 and len(board.legal_moves) > 1:
            scores = exact_by_children(check, board)
            assert row.exact
            assert row.best_score == max(scores.values())
            assert row.played_score == scores[row.name]
            assert row.loss == max(scores.values()) - scores[row.name]
            assert scores[row.best_name] == row.best_score
            exact_rows += 1
        board.push(move)
    assert exact_rows >= 8


@functools.cache
def _naive(black: int, white: int, turn: Color) -> int:
    board = Board()
    board.black, board.white, board.turn = black, white, turn
    if board.is_game_over():
        outcome = board.outcome()
        assert outcome is not None
        return outcome.disc_difference * (1 if turn is BLACK else -1)
    return max(-_naive_after(board, move) for move in list(board.legal_moves))


def _naive_after(board: Board, move: object) -> int:
    """The negamax value after ``move``, from the view of the side then to move."""
    board.push(move)  # type: ignore[arg-type]
    value = _naive(board.black, board.white, board.turn)
    board.pop()
    return value


def test_last_moves_agree_with_plain_negamax() -> None:
    """The last 7 empties: the review's exact scores are a plain negamax's."""
    game = wthor_game(5)
    result = review(game.root(), game.move_stack, depth=2, exact_empties=7)
    board = game.root()
    checked = 0
    for row, move in zip(result.moves, game.move_stack, strict=True):
        if board.empties.bit_count() <= 7 and not move.is_pass and len(board.legal_moves) > 1:
            assert row.played_score == -_naive_after(board, move)
            assert row.best_score == max(-_naive_after(board, m)
                                         for m in list(board.legal_moves))
            checked += 1
        board.push(move)
    assert checked >= 2


def test_forced_moves_are_best_and_labels_have_thresholds() -> None:
    assert [label_of(n) for n in (0, 1, 2, 3, 5, 6, 9, 10, 64)] == [
        "best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake",
        "blunder", "blunder"]
    assert [name for name, _ in LABELS] == ["best", "good", "inaccuracy", "mistake",
                                            "blunder"]
    # the first move of a WTHOR game with a single legal move (or a pass)
    for number, record in enumerate(read_games(WTHOR), 1):
        board = record.replay()
        walk = board.root()
        for ply, move in enumerate(board.move_stack):
            if len(walk.legal_moves) == 1:
                result = review(walk.root(), board.move_stack[:ply + 1], depth=2,
                                exact_empties=0)
                row = result.moves[-1]
                assert (row.loss, row.label, row.best_name) == (0, "best", row.name)
                return
            walk.push(move)
        assert number < 200, "no forced move in 200 games"
    raise AssertionError("no forced move found")


def test_a_review_resumes_from_its_rows() -> None:
    game = wthor_game(2)
    moves = game.move_stack[:16]
    rows = []
    first = review(game.root(), moves, depth=3, on_move=rows.append)
    assert list(first.moves) == rows and len(rows) == 16
    new = []
    again = review(game.root(), moves, depth=3, done=rows[:10], on_move=new.append)
    assert len(new) == 6 and again.moves[:10] == first.moves[:10]
    assert [m.name for m in again.moves] == [m.name for m in first.moves]


def test_refuses_boards_the_engine_cannot_search() -> None:
    with pytest.raises(InvalidOptionError, match="Nip"):
        review(find_variant("nip-octagon")(), [], depth=2)
    with pytest.raises(InvalidOptionError, match="depth"):
        review(Board(), [], depth=0)


def test_cli_json_and_table(tmp_path: Path) -> None:
    result = runner.invoke(app, ["review", "f5d6c3d3c4f4f6f3e6e7", "--depth", "3", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert len(data["moves"]) == 10 and set(data["moves"][0]) == JSON_ROW
    for row in data["moves"]:
        assert row["loss"] == row["best_score"] - row["played_score"] >= 0
    assert set(data["summary"]) == {"black", "white"}
    assert data["summary"]["black"]["moves"] + data["summary"]["white"]["moves"] == 10
    text = runner.invoke(app, ["review", str(WTHOR), "--index", "2", "--depth", "2",
                               "--exact", "8"])
    assert text.exit_code == 0, text.stderr
    assert "Black:" in text.stdout and "White:" in text.stdout and "average loss" in text.stdout


@pytest.mark.parametrize("args, message", [
    (["f5d6z9"], "z9"),
    (["f5f5"], "f5"),
    ([""], "no moves"),
    ([str(WTHOR), "--index", "9999"], "no game 9999"),
    (["f5", "--variant", "nip-octagon"], "Nip"),
    (["f5", "--depth", "0"], "depth"),
])
def test_cli_refuses_bad_input(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["review", *args])
    assert result.exit_code == 2, result.stdout
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
