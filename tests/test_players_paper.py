"""The amusement paper's programs: the weighted minimax against the reference, the phases,
the expectation and surprise moves."""

from __future__ import annotations

import random

import numpy as np
import pytest
from naive_weighted import root_values

from hasamigo import BLACK, WHITE, Board, Move
from hasamigo.engine.players import EXPECTATION, SURPRISE, make_player, move_number
from hasamigo.engine.players.base import X_SQUARES
from hasamigo.engine.players.paper import (
    ENDGAME,
    EXPECTATION_FROM,
    MIDGAME,
    MIDGAME_WEIGHTS,
    MOBILITY_WEIGHT,
    OPENING,
    OPENING_WEIGHTS,
    PHASES,
    SURPRISE_WINDOW,
    AmusementPlayer,
    VictoryPlayer,
    hands_corner,
    move_values,
    phase,
    planned_moves_done,
    static_value,
)


def random_board(rng: random.Random, plies: int) -> Board:
    board = Board()
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    return board


def sampled_positions(seed: int, count: int, low: int = 0, high: int = 58) -> list[Board]:
    rng = random.Random(seed)
    out: list[Board] = []
    while len(out) < count:
        board = random_board(rng, rng.randint(low, high))
        if board.legal_moves_mask():
            out.append(board)
    return out


def test_tables_are_symmetric_and_opening_mostly_negative() -> None:
    for table in (MIDGAME_WEIGHTS, OPENING_WEIGHTS):
        grid = np.asarray(table).reshape(8, 8)
        assert (grid == grid.T).all() and (grid == grid[::-1]).all()
        assert (grid == grid[:, ::-1]).all()
    assert (np.asarray(OPENING_WEIGHTS) < 0).sum() >= 56
    assert MIDGAME_WEIGHTS[0] == 100 and MIDGAME_WEIGHTS[9] == -50


@pytest.mark.parametrize("stage", [OPENING, MIDGAME, ENDGAME])
def test_kernel_equals_reference_minimax(stage: str) -> None:
    weights, mode = PHASES[stage]
    for board in sampled_positions(11, 12):
        for depth in (1, 2, 3):
            assert move_values(board, depth, stage) == root_values(
                board, depth, weights, MOBILITY_WEIGHT, mode), (board, depth)


def test_kernel_equals_reference_at_five_plies() -> None:
    # early positions keep the pure-Python reference fast; one near the end has passes
    rng = random.Random(5)
    boards = [Board(), random_board(rng, 2), random_board(rng, 3)]
    boards += sampled_positions(3, 2, 52, 56)
    for board in boards:
        stage = phase(board)
        weights, mode = PHASES[stage]
        assert move_values(board, 5) == root_values(board, 5, weights, MOBILITY_WEIGHT, mode)


def test_pass_does_not_use_a_ply() -> None:
    board = Board("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO-OO-O X")
    weights, mode = PHASES[phase(board)]
    assert move_values(board, 2) == root_values(board, 2, weights, MOBILITY_WEIGHT, mode)


def board_with(black: list[str], white: list[str]) -> Board:
    cells = ["-"] * 64
    for names, char in ((black, "X"), (white, "O")):
        for name in names:
            cells[Board.parse_square(name)] = char
    return Board.from_string("".join(cells) + " X")


def test_phases() -> None:
    centre_b, centre_w = ["e4", "d5", "e5"], ["d4", "c4"]
    assert phase(Board()) == OPENING
    assert phase(board_with(centre_b, centre_w)) == OPENING
    assert phase(board_with([*centre_b, "c3"], centre_w)) == OPENING  # c3 is inside
    assert phase(board_with(centre_b, [*centre_w, "a4"])) == MIDGAME  # a disc on an edge
    assert phase(board_with([*centre_b, "a1"], [*centre_w, "a4"])) == MIDGAME  # one corner
    assert phase(board_with([*centre_b, "a1"], [*centre_w, "h8"])) == ENDGAME  # two corners
    cornerless = Board.from_string("-" + "X" * 6 + "-" + "X" * 24 + "O" * 24 + "-" * 8 + " X")
    assert phase(cornerless) == ENDGAME  # 10 empties, no corner
    eleven = Board.from_string("-" + "X" * 6 + "-" + "X" * 23 + "-" + "O" * 24 + "-" * 8 + " X")
    assert phase(eleven) == MIDGAME


def test_victory_plays_the_best_minimax_move_and_never_mutates() -> None:
    for board in sampled_positions(21, 6):
        before = (board.key(), board.ply)
        player = VictoryPlayer(seed=0)
        move = player.choose(board)
        assert (board.key(), board.ply) == before
        values = move_values(board)
        assert move.square is not None and values[move.square] == max(values.values())


def test_move_number_counts_discs_not_passes() -> None:
    board = Board()
    assert move_number(board) == 1
    for ply in range(10):
        board.push(next(iter(board.legal_moves)))
        assert move_number(board) == ply + 2


def play_amusement(seed: int) -> tuple[list[tuple[int, str, Board, Move]], AmusementPlayer]:
    """A game of amusement against random; (move number, kind, board before, move) of its
    moves."""
    program = AmusementPlayer(seed=seed)
    other = make_player("random", seed=seed + 100)
    board = Board()
    log = []
    while not board.is_game_over():
        player = program if (board.turn.name == "BLACK") == (seed % 2 == 0) else other
        number = move_number(board)
        before = board.copy()
        move = player.choose(board)
        if player is program:
            log.append((number, program.last_kind, before, move))
        board.push(move)
    return log, program


def test_expectation_move_rules() -> None:
    fired_games = 0
    for seed in range(8):
        log, _ = play_amusement(seed)
        fired = [(n, b, m) for n, kind, b, m in log if kind == EXPECTATION]
        assert len(fired) <= 1
        if not fired:
            continue
        fired_games += 1
        number, before, move = fired[0]
        assert number >= EXPECTATION_FROM
        assert move.square in X_SQUARES.values()
        corner = hands_corner(before.copy(), move.square)
        after = before.copy()
        after.push(move)
        assert corner is not None and after.legal_moves_mask() >> corner & 1
        # the first chance: no earlier turn from move 20 had such an X-square move
        for n, _kind, b, _ in log:
            if b.ply >= before.ply:
                break
            if n >= EXPECTATION_FROM:
                assert not any(hands_corner(b.copy(), sq) is not None
                               for sq in X_SQUARES.values() if b.legal_moves_mask() >> sq & 1)
    assert fired_games >= 3


def test_surprise_move_is_once_in_window_and_minimax_worst() -> None:
    low, high = SURPRISE_WINDOW
    for seed in range(6):
        log, _ = play_amusement(seed)
        fired = [(n, b, m) for n, kind, b, m in log if kind == SURPRISE]
        assert len(fired) == 1
        number, before, move = fired[0]
        assert low <= number <= high
        values = move_values(before)
        assert move.square is not None and values[move.square] == min(values.values())
        earlier = [n for n, _, b, _ in log if low <= n and b.ply < before.ply
                   and len(b.legal_moves) >= 2]
        assert not earlier  # its first turn in the window with a choice


def test_amusement_reads_its_planned_moves_from_the_record() -> None:
    """A fresh program (a server restart) or a take-back must not make either planned move
    fire twice or be lost: the record says whether each has been played."""
    log, program = play_amusement(0)
    assert program.surprise_done
    program.choose(Board())
    assert not program.surprise_done and not program.expectation_done
    kinds = [kind for _n, kind, _b, _m in log]
    assert kinds.count(SURPRISE) == 1
    for index, (_n, kind, before, move) in enumerate(log):
        # a new program at every turn of the game makes the same kind of choice as the one
        # that played it (ties among ordinary moves follow the seeded generator)
        fresh = AmusementPlayer(seed=0)
        chosen = fresh.choose(before)
        assert fresh.last_kind == kind, index
        if kind in (SURPRISE, EXPECTATION):
            assert chosen == move, index
        # ...and, after a take-back to just after a planned move, a fresh one knows it
        if kind in (SURPRISE, EXPECTATION):
            after = before.copy()
            after.push(move)
            while not after.is_game_over() and after.turn is not before.turn:
                after.push(next(iter(after.legal_moves)))
            if after.is_game_over():
                continue
            expectation, surprise = planned_moves_done(after)
            assert surprise if kind == SURPRISE else expectation


def test_weighted_kernel_signatures_have_no_float() -> None:
    from hasamigo._kernels.weighted import evaluate_entry, search

    move_values(Board(), 2)
    static_value(Board())
    for kernel in (search, evaluate_entry):
        assert kernel.signatures
        for sig in kernel.signatures:
            assert "float" not in str(sig), sig
        for result in kernel.nopython_signatures:
            assert "float" not in str(result.return_type)


def test_square_total_is_the_table_over_each_sides_discs() -> None:
    from hasamigo.engine.players.paper import MIDGAME_WEIGHTS, square_total

    board = Board()
    player = make_player("random", seed=4)
    while not board.is_game_over():
        for colour in (BLACK, WHITE):
            mine, theirs = board.discs(colour), board.discs(colour.other)
            naive = sum(int(MIDGAME_WEIGHTS[s]) for s in range(64) if mine >> s & 1) - sum(
                int(MIDGAME_WEIGHTS[s]) for s in range(64) if theirs >> s & 1)
            assert square_total(board, colour) == naive
        board.push(player.choose(board))
