"""The entertainer and the naturalness bound."""

from __future__ import annotations

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


def test_entertainer_concedes_when_far_ahead() -> None:
    # a target far below every score: the natural move that concedes most (by its search)
    from hasamigo.engine.players.entertainer import SCORE_DEPTH

    board = Board()
    for move in ["f5", "f6", "e6", "f4", "e3", "c5", "c4", "e7", "c6", "e2"]:
        board.play(move)
    program = EntertainerPlayer(seed=0, bias=-60)
    move = program.choose(board)
    losses = move_losses(board)
    deep = move_scores(board, SCORE_DEPTH)
    allowed = [m for m in losses if losses[m] <= NATURAL_LOSS_CAP]
    assert move in allowed and len(allowed) > 1
    assert deep[move] == min(deep[m] for m in allowed)
