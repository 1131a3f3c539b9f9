"""Slow, obviously correct reference for the weighted-square minimax of the paper's programs.

Plain minimax (no pruning) over :class:`hasamigo.Board` push/pop, the evaluation written out
square by square. A pass does not use up a ply; a finished game scores 1000 × the official
disc difference (empties to the winner) for the side to move.
"""

from __future__ import annotations

from collections.abc import Sequence

from hasamigo import PASS, Board, Move


def evaluate(board: Board, weights: Sequence[int], mobility_weight: int, mode: int) -> int:
    """Mode 0: weighted squares; 1: plus mobility difference; 2: disc difference."""
    me, them = (board.black, board.white) if board.turn.name == "BLACK" else (
        board.white, board.black)
    if mode == 2:
        return bin(me).count("1") - bin(them).count("1")
    total = 0
    for sq in range(64):
        if me >> sq & 1:
            total += int(weights[sq])
        elif them >> sq & 1:
            total -= int(weights[sq])
    if mode == 1:
        mine = bin(board.moves_mask(board.turn)).count("1")
        theirs = bin(board.moves_mask(board.turn.other)).count("1")
        total += mobility_weight * (mine - theirs)
    return total


def terminal(board: Board) -> int:
    outcome = board.outcome()
    assert outcome is not None
    diff = outcome.black - outcome.white
    return 1000 * (diff if board.turn.name == "BLACK" else -diff)


def minimax(board: Board, depth: int, weights: Sequence[int], mobility_weight: int,
            mode: int) -> int:
    """The value for the side to move of ``board`` searched ``depth`` plies."""
    if board.is_game_over():
        return terminal(board)
    moves = list(board.legal_moves)
    if moves == [PASS]:
        board.push(PASS)
        value = -minimax(board, depth, weights, mobility_weight, mode)
        board.pop()
        return value
    if depth <= 0:
        return evaluate(board, weights, mobility_weight, mode)
    best = None
    for move in moves:
        board.push(move)
        value = -minimax(board, depth - 1, weights, mobility_weight, mode)
        board.pop()
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def root_values(board: Board, depth: int, weights: Sequence[int], mobility_weight: int,
                mode: int) -> dict[int, int]:
    out = {}
    for move in list(board.legal_moves):
        assert isinstance(move, Move) and move.square is not None
        board.push(move)
        out[move.square] = -minimax(board, depth - 1, weights, mobility_weight, mode)
        board.pop()
    return out
