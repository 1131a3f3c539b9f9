"""The reply model: a conditional logit of the person's move choice, fitted online."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hasamigo import BLACK, Board
from hasamigo.engine.players import make_player
from hasamigo.engine.players.naturalness import move_scores
from hasamigo.engine.players.opponent_model import ReplyModel, reply_features


def synthetic_choices(weights: np.ndarray, n: int, seed: int) -> list[tuple[np.ndarray, int]]:
    """Choices drawn from a known logit model over random feature rows."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = int(rng.integers(3, 12))
        corner = -(rng.random(k) < 0.7).astype(float) if rng.random() < 0.3 else np.zeros(k)
        x = np.column_stack([-rng.exponential(8, k), -rng.integers(0, 6, k),
                             -rng.exponential(3, k), corner])
        z = x @ weights
        p = np.exp(z - z.max())
        out.append((x, int(rng.choice(k, p=p / p.sum()))))
    return out


def test_fit_recovers_known_weights() -> None:
    truth = np.array([0.3, 1.0, 0.0, 2.0])
    model = ReplyModel()
    for x, chosen in synthetic_choices(truth, 1200, seed=1):
        model.observations.append((x, chosen))
    model.fit()
    # the corner weight rests on the ~30 % of choices that offer a corner: a wider margin
    assert np.all(np.abs(model.weights - truth) <= [0.15, 0.15, 0.15, 0.35]), model.weights


def test_fit_never_lowers_the_posterior() -> None:
    model = ReplyModel()
    data = synthetic_choices(np.array([2.0, -1.0, 0.5, 1.0]), 30, seed=2)
    for x, chosen in data:
        before = model.log_posterior(model.weights)
        model.observations.append((x, chosen))
        old = model.log_posterior(model.weights)
        model.fit()
        assert model.log_posterior(model.weights) >= old - 1e-9
        assert np.isfinite(before)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-40, 0), min_size=1, max_size=12),
       st.floats(-3, 3), st.floats(-3, 3), st.floats(-3, 3), st.floats(-3, 3))
def test_probabilities_are_a_distribution(gaps: list[float], a: float, b: float,
                                          c: float, d: float) -> None:
    model = ReplyModel(prior=(a, b, c, d))
    x = np.column_stack([gaps, gaps[::-1], np.zeros(len(gaps)), -(np.arange(len(gaps)) % 2)])
    p = model.probabilities(x)
    assert p.shape == (len(gaps),) and np.all(p >= 0) and abs(p.sum() - 1) < 1e-9
    values = np.arange(len(gaps), dtype=float)
    assert min(values) - 1e-9 <= model.expected(x, values) <= max(values) + 1e-9


def test_features_are_gaps_to_the_best() -> None:
    board = Board()
    for move in ["f5", "d6", "c3", "d3", "c4"]:
        board.play(move)
    scores = move_scores(board)
    moves, x = reply_features(board, scores)
    assert sorted(moves, key=lambda m: m.square) == moves and set(moves) == set(scores)
    assert x.shape == (len(moves), 4) and np.all(x <= 0) and np.all(x.max(axis=0) == 0)
    for move, row in zip(moves, x, strict=True):
        assert row[0] == scores[move] - max(scores.values())
        assert row[1] == board.flips(move).bit_count() - max(
            board.flips(m).bit_count() for m in moves)
    assert np.all(x[:, 3] == 0)  # no corner among the moves: the rule says nothing


def test_corner_feature_marks_the_moves_beside_an_offered_corner() -> None:
    # after f5 f6 e6 f4 e3 c5 g5 g3 g4 ... any position where a corner is legal will do:
    # find one in a seeded random game
    import random

    rng = random.Random(5)
    board = Board()
    corners = {0, 7, 56, 63}
    while not (board.legal_moves_mask() & sum(1 << c for c in corners)
               and len(board.legal_moves) > 2):
        board.push(rng.choice(list(board.legal_moves)))
    moves, x = reply_features(board, move_scores(board))
    for move, row in zip(moves, x, strict=True):
        assert row[3] == (0.0 if move.square in corners else -1.0), move


def test_model_learns_a_corner_rule_apart_from_the_rest() -> None:
    # "beginner": noisy2 that always takes an offered corner; "noisy2" does not always
    beginner = observe_player("beginner", moves=30, seed=4)
    seen = [x for x, _ in beginner.observations if np.any(x[:, 3] < 0)]
    assert seen, "no corner was offered in the game"
    assert beginner.weights[3] > 1.0, beginner.weights
    assert beginner.weights[3] > observe_player("random", moves=30, seed=4).weights[3]


def observe_player(name: str, moves: int = 24, seed: int = 3) -> ReplyModel:
    """A model fitted to ``name``'s choices on the positions of its own game."""
    model = ReplyModel()
    from hasamigo.study.simulate import PANEL

    player, other = PANEL[name](seed), make_player("random", seed=seed + 1)
    board = Board()
    while not board.is_game_over() and len(model.observations) < moves:
        if board.turn is BLACK and len(board.legal_moves) > 1:
            scores = move_scores(board)
            options, x = reply_features(board, scores)
            move = player.choose(board)
            model.observe(x, options.index(move))
            board.push(move)
        else:
            board.push((player if board.turn is BLACK else other).choose(board))
    return model


def test_model_tells_habits_from_aimlessness() -> None:
    greedy = observe_player("greedy")
    aimless = observe_player("random")
    assert greedy.weights[1] > 0.5  # flips
    assert greedy.information() > 0.4
    assert aimless.information() < 0.1
    assert np.abs(aimless.weights).max() < 0.3
