"""A whole 8×8 game for tests of the last move (rule 10): random legal moves (seed 0)
that end by filling the last empty square, no pass on the way."""

from __future__ import annotations

import random

from hasamigo import Board


def game_to_the_last_square(seed: int = 0) -> list[str]:
    """The moves (names) of a game whose last move fills the last empty square."""
    rng = random.Random(seed)
    board = Board()
    names = []
    while True:
        move = rng.choice(list(board.legal_moves))
        after = board.copy()
        after.push(move)
        names.append(board.move_name(move))
        if after.outcome() is not None:
            assert not move.is_pass and board.empties.bit_count() == 1, names
            assert "pass" not in names
            return names
        board = after
