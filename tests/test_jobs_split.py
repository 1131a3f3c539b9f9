"""One position split among workers at its root (:mod:`hasamigo.jobs.split`) and the
windowed solve it stands on (:meth:`~hasamigo.engine.Engine.solve_window`)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hasamigo.board import Board
from hasamigo.cli import app
from hasamigo.engine.core import Engine
from hasamigo.errors import InvalidOptionError
from hasamigo.jobs import JournalError
from hasamigo.jobs.runner import Journal, LocalBackend
from hasamigo.jobs.split import split_solve
from hasamigo.move import PASS
from hasamigo.variants import find_variant

FFO = Path(__file__).parent / "data" / "ffo" / "fforum-1-19.obf"
ENGINE = Engine(table_size=1 << 16)


def late_position(seed: int, empties: int) -> Board:
    rng = random.Random(seed)
    board = Board()
    while board.empties.bit_count() > empties and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


def must_pass() -> Board:
    """The first position of seeded random games, at 14 empties or fewer, whose side to
    move must pass."""
    for seed in range(1000):
        rng, board = random.Random(seed), Board()
        while not board.is_game_over():
            if board.empties.bit_count() <= 14 and not board.legal_moves_mask():
                return board
            board.push(rng.choice(list(board.legal_moves)))
    raise AssertionError("no random game reached a pass")


@hsettings(max_examples=25)
@given(st.integers(0, 10**6), st.integers(-64, 63), st.integers(1, 20))
def test_a_windowed_solve_is_exact_inside_and_a_bound_outside(
        seed: int, alpha: int, width: int) -> None:
    board = late_position(seed, 9)
    if board.is_game_over():
        return
    beta = min(64, alpha + width)
    exact = ENGINE.solve(board).score
    ENGINE.clear()
    found = ENGINE.solve_window(board, alpha, beta).score
    if alpha < exact < beta:
        assert found == exact
    elif exact <= alpha:
        assert found <= alpha
    else:
        assert found >= beta


def test_a_windowed_solve_refuses_a_bad_window() -> None:
    for alpha, beta in ((3, 3), (-65, 0), (0, 65), (1.5, 4)):
        with pytest.raises(InvalidOptionError, match="window"):
            ENGINE.solve_window(Board(), alpha, beta)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(6))
def test_the_split_finds_the_exact_score_and_a_best_move(seed: int) -> None:
    board = late_position(seed, 11)
    if board.is_game_over():
        pytest.skip("the random game ended early")
    found = split_solve(board, backend=LocalBackend(1), table_size=1 << 16)
    assert found["score"] == Engine(table_size=1 << 16).solve(board).score
    after = board.copy(stack=False)
    after.push(after.parse_move(found["move"]) if found["move"] != "pass" else PASS)
    # the move is a best one: after it, the opponent's exact score is minus ours
    if not after.is_game_over():
        assert -Engine(table_size=1 << 16).solve(after).score == found["score"]
    assert found["tasks"] >= 1 and found["nodes"] >= 0


def test_two_workers_give_the_same_answer_as_one() -> None:
    board = late_position(11, 13)
    one = split_solve(board, backend=LocalBackend(1), table_size=1 << 16)
    two = split_solve(board, backend=LocalBackend(2), table_size=1 << 16)
    assert (one["score"], one["tasks"]) == (two["score"], two["tasks"])


def test_a_position_that_must_pass_is_split_over_the_opponents_moves() -> None:
    board = must_pass()
    found = split_solve(board, backend=LocalBackend(1), table_size=1 << 16)
    assert found["move"] == "pass"
    assert found["score"] == Engine(table_size=1 << 16).solve(board).score


def test_a_journal_resumes_without_running_a_task_again(tmp_path: Path) -> None:
    board = late_position(5, 12)
    path = tmp_path / "split.jsonl"
    first: list[str] = []
    done = split_solve(board, backend=LocalBackend(1), table_size=1 << 16,
                       journal=Journal(path, {"job": "t"}),
                       on_task=lambda key, _r: first.append(key))
    assert len(first) == done["tasks"] >= 2
    again: list[str] = []
    redone = split_solve(board, backend=LocalBackend(1), table_size=1 << 16,
                         journal=Journal(path, {"job": "t"}),
                         on_task=lambda key, _r: again.append(key))
    assert again == [] and (redone["score"], redone["move"]) == (done["score"], done["move"])
    # half a journal: the first task kept, the rest run again, the same answer
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n")
    third: list[str] = []
    resumed = split_solve(board, backend=LocalBackend(1), table_size=1 << 16,
                          journal=Journal(path, {"job": "t"}),
                          on_task=lambda key, _r: third.append(key))
    assert len(third) == done["tasks"] - 1 and resumed["score"] == done["score"]
    with pytest.raises(JournalError, match="other parameters"):
        split_solve(board, backend=LocalBackend(1), table_size=1 << 16,
                    journal=Journal(path, {"job": "another"}))


def test_a_finished_game_or_a_variant_is_refused() -> None:
    over = late_position(0, 0)
    assert over.is_game_over()
    with pytest.raises(InvalidOptionError, match="over"):
        split_solve(over, backend=LocalBackend(1))
    with pytest.raises(InvalidOptionError, match="within 8×8"):
        split_solve(find_variant("grand")(), backend=LocalBackend(1))
    with pytest.raises(InvalidOptionError, match="within 8×8"):
        ENGINE.solve_window(find_variant("hasegawa-8x9")(), -1, 1)


def test_solve_split_from_the_command_line(tmp_path: Path) -> None:
    obf = tmp_path / "three.obf"
    obf.write_text("".join(FFO.read_text().splitlines(keepends=True)[:3]))
    out = tmp_path / "rows.jsonl"
    runner = CliRunner()
    result = runner.invoke(app, ["solve", str(obf), "--split", "--workers", "2",
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout[result.stdout.index("{"):])["positions"]
    assert [r["index"] for r in rows] == [1, 2, 3] and all(r["ok"] for r in rows)
    kept = out.read_text().splitlines()
    assert len(kept) > 3  # the header and every task
    again = runner.invoke(app, ["solve", str(obf), "--split", "--out", str(out), "--json"])
    assert again.exit_code == 0, again.output
    assert out.read_text().splitlines() == kept  # all resumed: nothing run again
    refused = runner.invoke(app, ["solve", str(obf), "--split", "--wld"])
    assert refused.exit_code == 2 and "--split solves exact scores" in refused.output


def test_a_small_board_within_8x8_splits_too() -> None:
    rng = random.Random(7)
    board = find_variant("6x6")()
    while board.empties.bit_count() > 10 and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    found = split_solve(board, backend=LocalBackend(1), table_size=1 << 16)
    assert found["score"] == Engine(table_size=1 << 16).solve(board).score
