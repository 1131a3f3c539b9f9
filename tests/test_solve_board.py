"""solve-board: the small boards solved from their start (published: 4×4 White wins 3–13,
6×6 White wins 16–20), the line replayed by the rules, the command line and its errors."""

from __future__ import annotations

import json

import pytest
from numba import types
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.engine.smallboard import SOLVED_LINES, SmallSolver, solvable, solve_board
from hasamigo.errors import InvalidOptionError
from hasamigo.notation.transcript import parse_transcript
from hasamigo.variants import Board4x4, MiniBoard

runner = CliRunner()
JSON_KEYS = {"board", "black", "white", "line", "nodes", "seconds"}


def replayed(variant: type, transcript: str) -> tuple[int, int]:
    """The official score at the end of ``transcript`` played by the rules from the start;
    the game must be over there."""
    board = variant()
    for move in parse_transcript(transcript, board.copy()):
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None, f"the line {transcript} does not end the game"
    return outcome.black, outcome.white


@pytest.mark.parametrize("threads", [1, 2])
def test_4x4_white_wins_3_13(threads: int) -> None:
    result = solve_board(Board4x4, threads=threads)
    assert (result.outcome.black, result.outcome.white) == (3, 13)
    data = result.to_json()
    assert set(data) == JSON_KEYS and data["board"] == "4x4"
    assert replayed(Board4x4, data["line"]) == (3, 13)
    assert data["nodes"] > 0 and data["seconds"] >= 0


def test_4x4_every_first_move_scores_the_same() -> None:
    """The four first moves are one move turned: each loses by 10 (an independent check of
    the symmetry the solver uses to skip them)."""
    solver = SmallSolver(Board4x4, threads=1, table_rows=1 << 12)
    board = Board4x4()
    for move in list(board.legal_moves):
        board.push(move)
        p, o = board.white, board.black
        assert solver.value(p, o) == 10
        board.pop()


def test_cli_json_and_text() -> None:
    result = runner.invoke(app, ["solve-board", "4x4", "--json", "--threads", "1"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == JSON_KEYS
    assert (data["black"], data["white"]) == (3, 13)
    assert replayed(Board4x4, data["line"]) == (3, 13)
    result = runner.invoke(app, ["solve-board", "micro"])
    assert result.exit_code == 0, result.stderr
    assert "White wins 3–13" in result.stdout and "perfect line:" in result.stdout


# (8x8, "standard", prints the published result: tests/test_known_results.py)
@pytest.mark.parametrize("name", ["7x7", "nonsense", "octagon", ""])
def test_cli_refuses_other_boards(name: str) -> None:
    result = runner.invoke(app, ["solve-board", name])
    assert result.exit_code == 2
    assert "error:" in result.stderr and "4x4 and 6x6" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    with pytest.raises(InvalidOptionError):
        solvable(name)


@pytest.mark.exhaustive
def test_6x6_white_wins_16_20() -> None:
    """The whole solve from the start (5 minutes on 2 cores; the benchmark times it)."""
    result = solve_board(MiniBoard, threads=2)
    assert (result.outcome.black, result.outcome.white) == (16, 20)
    assert replayed(MiniBoard, result.transcript()) == (16, 20)


@pytest.mark.slow
@pytest.mark.parametrize("plies", [6, 12])
def test_6x6_perfect_line_holds_its_value_down_the_line(plies: int) -> None:
    """Solved from scratch a way down the stored perfect line, the position is still worth
    Black -4 (White wins 16–20): the line's moves never gave a disc away."""
    board = MiniBoard()
    for move in parse_transcript(SOLVED_LINES["6x6"], board.copy())[:plies]:
        board.push(move)
    solver = SmallSolver(MiniBoard, threads=2, table_rows=1 << 20)
    try:
        mover, other = board.discs(board.turn), board.discs(board.turn.other)
        value = solver.value(mover, other)
    finally:
        solver.close()
    assert value == (-4 if board.turn.value == "black" else 4)


def test_kernel_has_no_float64() -> None:
    """Mixing uint64 with signed ints silently gives float64 in numba (a fresh compile,
    so that the typing of every variable is seen, inlined helpers included)."""
    from test_kernels import float_variables

    from hasamigo._kernels import smallboard

    u64, i64 = types.uint64, types.int64
    table = types.Array(u64, 2, "C")
    flag = types.Array(i64, 1, "C")
    signature = (u64, u64, u64, u64, flag, i64, i64, table, flag, flag)
    assert float_variables(smallboard.solve.py_func, signature) == {}
    solve_board(Board4x4, threads=1)
    for sig in smallboard.solve.nopython_signatures:
        assert "float" not in str(sig)
