"""The entertainer and the naturalness bound."""

from __future__ import annotations

import numpy as np

from hasamigo import BLACK, WHITE, Board, Move
from hasamigo.engine.players import (
    EXPECTATION,
    FORCED,
    NORMAL,
    SURPRISE,
    EntertainerPlayer,
    make_player,
    move_losses,
    violations,
)
from hasamigo.engine.players.entertainer import AIMLESS_HELP, REPLY_DEPTH, TARGET
from hasamigo.engine.players.naturalness import (
    GIFT_LOSS_CAP,
    GIFTS_PER_GAME,
    NATURAL_LOSS_CAP,
    move_scores,
)
from hasamigo.tournament.match import play_game


def worst_opening_game() -> tuple[list[Move], list[str]]:
    """Black plays its worst move (by the bound's search) for a few moves, White random."""
    board = Board()
    moves, kinds = [], []
    other = make_player("random", seed=1)
    for _ in range(16):
        if board.turn is BLACK:
            losses = move_losses(board)
            move = max(losses, key=lambda m: losses[m])
        else:
            move = other.choose(board)
        moves.append(move)
        kinds.append(NORMAL)
        board.push(move)
    return moves, kinds


def test_move_losses_are_best_minus_score() -> None:
    board = Board()
    for move in ["f5", "d6", "c3", "d3", "c4"]:
        board.play(move)
    scores = move_scores(board)
    losses = move_losses(board)
    assert min(losses.values()) == 0
    assert all(losses[m] == max(scores.values()) - scores[m] for m in scores)
    assert move_scores(board) == scores  # a cleared table: the measure depends on the board


def test_violations_cap_ordinary_moves_and_exempt_planned_gifts() -> None:
    moves, kinds = worst_opening_game()
    broke = violations(moves, kinds, BLACK)
    assert broke and all(v.loss > NATURAL_LOSS_CAP and v.move == moves[v.ply] for v in broke)
    assert violations(moves, kinds, WHITE) == [] or all(
        v.ply % 2 == 1 for v in violations(moves, kinds, WHITE))
    # declared as gifts, only gifts above the gift cap or beyond the allowance count
    gift_kinds = [SURPRISE if i % 2 == 0 else k for i, k in enumerate(kinds)]
    as_gifts = violations(moves, gift_kinds, BLACK)
    for v in as_gifts:
        assert v.loss > GIFT_LOSS_CAP or "gift number" in v.why
    assert sum("gift number" in v.why for v in as_gifts) >= 1
    # forced moves never count
    assert violations(moves, [FORCED] * len(moves), BLACK) == []


def test_entertainer_stays_within_the_bound() -> None:
    for seed in range(3):
        for other in ("random", "greedy"):
            program = EntertainerPlayer(seed=seed)
            opponent = make_player(other, seed=seed)
            black, white = (program, opponent) if seed % 2 == 0 else (opponent, program)
            result = play_game(black, white)
            colour = BLACK if seed % 2 == 0 else WHITE
            assert violations(result.moves, result.kinds, colour) == []
            gifts = [k for k, m in zip(result.kinds, result.moves, strict=True)
                     if k in (EXPECTATION, SURPRISE)]
            assert len(gifts) <= GIFTS_PER_GAME


def test_entertainer_estimates_the_opponent() -> None:
    strong = EntertainerPlayer(seed=0)
    play_game(strong, make_player("engine:4", seed=0))
    weak = EntertainerPlayer(seed=0)
    play_game(weak, make_player("random", seed=0))
    assert strong.opponent_losses and weak.opponent_losses
    assert weak.estimated_loss() > strong.estimated_loss()


def reference_expectation(board: Board, move: Move, weights: np.ndarray) -> float:
    """The entertainer's score expected over the reply of a model with ``weights``,
    computed directly."""
    from hasamigo.engine import Engine, Limit
    from hasamigo.engine.players.opponent_model import reply_features

    board = board.copy()
    board.push(move)
    lines = Engine(table_size=1 << 12).hints(board, Limit(depth=REPLY_DEPTH))
    scores = {line.move: line.score for line in lines}
    moves, x = reply_features(board, scores)
    z = x @ weights
    p = np.exp(z - z.max())
    p /= p.sum()
    return -float(sum(pi * scores[m] for pi, m in zip(p, moves, strict=True)))


def test_entertainer_concedes_what_the_person_will_take() -> None:
    # a target far below every score: the natural move whose *expected* score (over the
    # predicted reply) is lowest
    board = Board()
    for move in ["f5", "f6", "e6", "f4", "e3", "c5", "c4", "e7", "c6", "e2"]:
        board.play(move)
    program = EntertainerPlayer(seed=0, target=-60)
    move = program.choose(board)
    losses = move_losses(board)
    allowed = [m for m in losses if losses[m] <= NATURAL_LOSS_CAP]
    expected = {m: reference_expectation(board, m, program.model.weights) for m in allowed}
    assert move in allowed and len(allowed) > 1
    assert abs(expected[move] - min(expected.values())) < 1e-6
    plan = program.last_plan
    assert plan is not None and program.last_kind == NORMAL
    assert abs(plan.expected - expected[move]) < 1e-6 and plan.loss == losses[move]
    assert "expected" in (program.last_reason or "")


def test_entertainer_aims_near_a_draw_against_a_player_with_habits() -> None:
    board = Board()
    for move in ["f5", "f6", "e6", "f4", "e3", "c5", "c4", "e7", "c6", "e2"]:
        board.play(move)
    program = EntertainerPlayer(seed=0)
    move = program.choose(board)
    plan = program.last_plan
    assert plan is not None and plan.target == TARGET - AIMLESS_HELP * program.aimlessness()
    losses = move_losses(board)
    allowed = [m for m in losses if losses[m] <= NATURAL_LOSS_CAP]
    expected = {m: reference_expectation(board, m, program.model.weights) for m in allowed}
    assert program.last_kind == NORMAL  # move 11: before any gift may fire
    assert abs(expected[move] - plan.target) <= min(
        abs(v - plan.target) for v in expected.values()) + 0.5 + 1e-6


def test_entertainer_helps_an_aimless_player_more() -> None:
    """One game reads a random player noisily (its information swings by about 0.1 nat a
    move from game to game, so one game's aimlessness ranges from 0 to 1): over six games it
    is aimless on average, and always far less readable than a greedy player."""
    aimless = []
    for seed in range(2, 8):
        player = EntertainerPlayer(seed=0)
        play_game(player, make_player("random", seed=seed))
        aimless.append(player)
    habits = EntertainerPlayer(seed=0)
    play_game(habits, make_player("greedy", seed=2))
    assert np.mean([player.aimlessness() for player in aimless]) > 0.5
    assert max(player.model.information() for player in aimless) < (
        habits.model.information() / 2)
    assert habits.aimlessness() == 0.0
    most = max(aimless, key=lambda player: player.aimlessness())
    assert most.last_plan is not None and habits.last_plan is not None
    assert most.last_plan.target < habits.last_plan.target == TARGET


def test_entertainer_joining_a_game_in_progress_reads_the_moves_so_far() -> None:
    board = Board()
    person = make_player("greedy", seed=0)
    first = EntertainerPlayer(seed=0)
    while board.ply < 24 or board.turn is BLACK:
        board.push((person if board.turn is BLACK else first).choose(board))
    # a fresh entertainer (say, after a server restart) sees the same person
    late = EntertainerPlayer(seed=0)
    late.choose(board)
    seen = len(first.opponent_losses)
    assert seen > 5
    # the same moves, the same verdict, and the person's move since
    assert late.opponent_losses[:seen] == first.opponent_losses
    assert len(late.opponent_losses) == len(late.model.observations) == seen + 1
