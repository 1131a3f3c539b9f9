"""Game review (issue 19): every move's disc loss, checked against exact solves done
another way (each child solved) and against a plain negamax over the rules near the end;
forced moves and passes carry their position's score (issue 50); the summary adds up; a
review resumes; stored rows read back, old ones too; the command line and its errors."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hasamigo.analysis.review import (
    LABELS,
    MoveReview,
    Review,
    label_of,
    review,
    rows_from_json,
)
from hasamigo.board import Board
from hasamigo.cli import app
from hasamigo.engine import Engine, Limit
from hasamigo.errors import InvalidOptionError
from hasamigo.move import BLACK, PASS, WHITE, Color
from hasamigo.notation import read_games
from hasamigo.variants import find_variant

runner = CliRunner()
WTHOR = Path(__file__).parent / "data" / "wthor" / "WTH_1977.wtb"
JSON_ROW = {"ply", "colour", "move", "best_move", "best_score", "played_score", "loss",
            "label", "exact", "forced"}


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


def exact_value(engine: Engine, board: Board) -> int:
    """The exact score of ``board`` for the side to move, found apart from the review: a
    plain negamax over the rules from 8 empties; else each move's child (a pass's too)
    solved on its own."""
    if board.empties.bit_count() <= 8:
        return _naive(board.black, board.white, board.turn)
    return max(exact_by_children(engine, board).values())


@functools.cache
def reviewed(index: int, depth: int, exact_empties: int) -> tuple[Board, Review]:
    game = wthor_game(index)
    return game, review(game.root(), game.move_stack, depth=depth,
                        exact_empties=exact_empties)


@pytest.mark.parametrize("index, exact_empties", [(1, 12), (5, 18)])
def test_forced_moves_and_passes_carry_the_positions_exact_score(
        index: int, exact_empties: int) -> None:
    """Issue 50: the only legal move and a pass are scored as the position is, exactly
    where the review solves, not as 0. WTHOR 1977 game 1 ends with five forced moves and
    two passes in its last 11 empties; game 5 has a forced move at 18 empties and a pass
    at 16, at -40 and -38 for the side to move."""
    game, result = reviewed(index, 2, exact_empties)
    check = Engine()
    board = game.root()
    forced_seen = []
    for row, move in zip(result.moves, game.move_stack, strict=True):
        forced = move.is_pass or len(board.legal_moves) == 1
        assert row.forced is forced, row
        if board.empties.bit_count() <= exact_empties:
            value = exact_value(check, board)
            assert row.exact and row.best_score == value, (row, value)
            if forced:
                assert (row.played_score, row.loss, row.label) == (value, 0, "best"), row
                assert row.best_move == move and row.best_name == row.name
                forced_seen.append((row.name, value))
        board.push(move)
    assert {name == "pass" for name, _ in forced_seen} == {True, False}, forced_seen
    assert any(value != 0 for _, value in forced_seen), forced_seen
    # along the game, in the exact phase: each move's score is the next position's,
    # negated (a pass's and the move after a pass included); the last, the result
    pairs = zip(result.moves, result.moves[1:], strict=False)
    assert all(row.played_score == -after.best_score for row, after in pairs if row.exact)
    assert result.moves[-1].played_score == _final(game)


def test_a_forced_move_in_the_midgame_is_searched_at_the_reviews_depth() -> None:
    """Before the exact phase a forced move's score is the position's search at the
    review's depth, from the mover's side: the only move's child searched a ply
    shallower, the position after a pass at the same depth (as the root searches them)."""
    game = wthor_game(5)
    result = review(game.root(), game.move_stack[:45], depth=3, exact_empties=0)
    check = Engine()
    board = game.root()
    kinds = set()
    for row, move in zip(result.moves, game.move_stack, strict=False):
        if row.forced:
            board.push(move)
            after = check.analyse(board, Limit(depth=3 if move.is_pass else 2)).score
            board.pop()
            assert (row.best_score, row.played_score) == (-after, -after), row
            assert not row.exact and row.loss == 0
            kinds.add(move.is_pass)
        board.push(move)
    assert kinds == {True, False}  # g2, the only move at 18 empties; a pass at 16


def test_stored_rows_read_back_and_old_forced_rows_are_unscored() -> None:
    """Rows read back as they were made (:func:`rows_from_json` reads each on the position
    before its move). A row stored before forced moves were searched has no ``forced``:
    if its move was forced its stored 0s were never the position's score and read as
    unknown (``None``, loss 0); an unforced old row keeps its scores."""
    game, result = reviewed(5, 2, 18)
    moves = game.move_stack
    stored = [row.to_json() for row in result.moves]
    assert rows_from_json(stored, game.root(), moves) == result.moves
    old = [{key: value for key, value in row.items() if key != "forced"} | (
        {"best_score": 0, "played_score": 0, "loss": 0, "exact": False}
        if row["forced"] else {}) for row in stored]
    read = rows_from_json(old, game.root(), moves)
    for was, now in zip(result.moves, read, strict=True):
        assert now.forced is was.forced and now.loss == was.loss and now.label == was.label
        if was.forced:
            assert (now.best_score, now.played_score) == (None, None)
            shown = now.to_json()
            assert (shown["best_score"], shown["played_score"], shown["loss"],
                    shown["forced"]) == (None, None, 0, True)
        else:
            assert now == was
    assert sum(row.forced for row in read) == 4  # g2, two passes and the last move
    # a pass's old row names a pass whatever the board
    row = MoveReview.from_json(old[44], Board())
    assert row.move == PASS and row.forced and row.best_score is None


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


def test_cli_reviews_on_the_threads_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--threads 2``: the review's engine searches on two threads, and the positions
    it solves exactly score as on one."""
    import hasamigo.engine

    made: list[int] = []

    class Counted(hasamigo.engine.Engine):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self.threads)

    monkeypatch.setattr(hasamigo.engine, "Engine", Counted)
    args = ["review", str(WTHOR), "--index", "2", "--depth", "2", "--exact", "10", "--json"]
    runs = {}
    for threads in ("1", "2"):
        result = runner.invoke(app, [*args, "--threads", threads])
        assert result.exit_code == 0, result.stderr
        runs[threads] = [(row["ply"], row["best_score"], row["played_score"])
                         for row in json.loads(result.stdout)["moves"] if row["exact"]]
    assert made == [1, 2]
    assert runs["1"] and runs["1"] == runs["2"]
    bad = runner.invoke(app, [*args, "--threads", "0"])
    assert bad.exit_code == 2 and "--threads" in bad.stderr


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
