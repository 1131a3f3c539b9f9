"""The exact solver on endgames from real tournament games it has never seen.

WTHOR archives record, for every game, Black's disc count under perfect play from the
position with ``theoretical_depth`` empties (computed by the federation's own solver, with
the empties to the winner). Our solver must reproduce it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hasamigo import BLACK, Board
from hasamigo.engine import Engine
from hasamigo.notation.wthor import read_wthor

WTHOR_1977 = Path(__file__).parent / "data" / "wthor" / "WTH_1977.wtb"
# Games of the 1977 World Championship whose 24-empties solve takes seconds, not minutes.
GAMES = (6, 8, 9)


def position_at(board: Board, moves: list, empties: int) -> Board:  # type: ignore[type-arg]
    for move in moves:
        if board.empties.bit_count() <= empties and not board.must_pass():
            break
        board.push(move)
    return board


@pytest.mark.slow
@pytest.mark.parametrize("index", GAMES)
def test_solver_reproduces_the_recorded_theoretical_score(index: int) -> None:
    record = list(read_wthor(WTHOR_1977))[index]
    empties = int(record.metadata["theoretical_depth"])
    expected_black = int(record.metadata["theoretical_score"])
    board = position_at(record.board(), record.replay().move_stack, empties)
    assert board.empties.bit_count() == empties
    analysis = Engine(table_size=1 << 22).solve(board)
    black_diff = analysis.score if board.turn is BLACK else -analysis.score
    assert (64 + black_diff) // 2 == expected_black
    assert analysis.exact
