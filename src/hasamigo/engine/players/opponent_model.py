"""A model of the person across the board: which move will they play?

A weak player does not punish a concession it does not see: the engine's score of a move
assumes the best reply, so a program that concedes discs "by the engine" to a beginner
concedes nothing. :class:`ReplyModel` predicts the person's reply as a conditional logit
(a softmax over their legal moves) on four features of each move, measured from the
person's side:

* ``gap`` — its search score minus the best move's (discs, ≤ 0): skill;
* ``flips`` — discs it flips minus the most any move flips (≤ 0): greed, a beginner's habit;
* ``squares`` — the classic weighted-square total after it minus the best total, in tens
  (≤ 0): positional rules of thumb (corners good, X-squares bad);
* ``corner`` — −1 for a move that is not a corner when a corner is among the moves, else 0:
  the first rule a beginner learns, kept apart from ``squares`` because it is a rule, not
  a weight: a player who always takes an offered corner, however the rest of their moves
  are chosen, gets a large weight here and nowhere else. (Without it the ``beginner`` of
  the study's panel, ``noisy2`` plus that rule, looked half aimless to the model: the
  entertainer left it corners it then took, and it scored 63.8 % over 200 games.)

``P(move) ∝ exp(β · features)``. The weights β start at :data:`PRIOR_WEIGHTS` and are fitted
to the person's moves so far by maximum a-posteriori (a Gaussian prior of widths
:data:`PRIOR_WIDTHS`, a few Newton steps), so a random mover ends near β = 0 (uniform), a
greedy one with a large ``flips`` weight, a careful one with a large ``gap`` weight.

>>> import numpy as np
>>> model = ReplyModel()
>>> x = np.array([[0.0, 0.0, 0.0, 0.0], [-10.0, -3.0, -2.0, 0.0]])  # the best and a poor one
>>> p = model.probabilities(x)
>>> bool(p[0] > p[1]) and abs(float(p.sum()) - 1) < 1e-12
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from hasamigo.board import Board
from hasamigo.engine.players.paper import corner_mask, square_total
from hasamigo.move import Move

FEATURES = ("gap", "flips", "squares", "corner")
PRIOR_WEIGHTS = (0.15, 0.1, 0.1, 0.5)
#: the prior's widths: the corner rule's wide, as players either follow it or do not
PRIOR_WIDTHS = (0.5, 0.5, 0.5, 1.5)
NEWTON_STEPS = 12
INFO_PRIOR = 0.3
INFO_PRIOR_MOVES = 4

def reply_features(board: Board, scores: dict[Move, int]) -> tuple[list[Move], np.ndarray]:
    """The moves of ``scores`` (the side to move's, with their search scores) in a fixed
    order, and their feature rows (see the module docstring)."""
    moves = sorted(scores, key=lambda m: -1 if m.square is None else m.square)
    me = board.turn
    best = max(scores.values())
    corners = corner_mask(board)
    rows = []
    for move in moves:
        flips = board.flips(move).bit_count()
        board.push(move)
        total = square_total(board, me)
        board.pop()
        corner = move.square is not None and corners >> move.square & 1
        rows.append((scores[move] - best, flips, total / 10.0, float(corner)))
    x = np.asarray(rows, dtype=np.float64)
    x[:, 1:] -= x[:, 1:].max(axis=0)
    return moves, x


def _log_softmax(z: np.ndarray) -> np.ndarray:
    shifted = z - z.max()
    out: np.ndarray = shifted - np.log(np.exp(shifted).sum())
    return out


class ReplyModel:
    """A conditional-logit model of one person's move choice, refitted as moves are seen."""

    def __init__(self, prior: Sequence[float] = PRIOR_WEIGHTS,
                 widths: Sequence[float] = PRIOR_WIDTHS) -> None:
        self.prior = np.asarray(prior, dtype=np.float64)
        if len(widths) != len(self.prior):
            raise ValueError(f"{len(widths)} prior widths for {len(self.prior)} weights")
        self.precision = np.diag(1.0 / np.asarray(widths, dtype=np.float64) ** 2)
        self.weights = self.prior.copy()
        self.observations: list[tuple[np.ndarray, int]] = []

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """The chance of each row's move being played."""
        p: np.ndarray = np.exp(_log_softmax(x @ self.weights))
        return p

    def expected(self, x: np.ndarray, values: Sequence[float]) -> float:
        """The expectation of ``values`` (one per row) over the predicted choice."""
        return float(self.probabilities(x) @ np.asarray(values, dtype=np.float64))

    def observe(self, x: np.ndarray, chosen: int) -> None:
        """Record that the move of row ``chosen`` was played among ``x``'s, and refit."""
        if len(x) < 2:
            return  # a forced move says nothing
        self.observations.append((x, chosen))
        self.fit()

    def log_posterior(self, w: np.ndarray) -> float:
        """The log-likelihood of the observations under ``w`` plus the log prior."""
        d = w - self.prior
        total = -0.5 * float(d @ self.precision @ d)
        for x, chosen in self.observations:
            total += float(_log_softmax(x @ w)[chosen])
        return total

    def fit(self) -> None:
        """Maximum a-posteriori weights for the observations so far: Newton's method with
        a backtracking line search (the posterior is log-concave, so this converges)."""
        w = self.weights.copy()
        current = self.log_posterior(w)
        for _ in range(NEWTON_STEPS):
            grad = -self.precision @ (w - self.prior)
            hess = -self.precision.copy()
            for x, chosen in self.observations:
                p = np.exp(_log_softmax(x @ w))
                mean = p @ x
                grad += x[chosen] - mean
                centred = x - mean
                hess -= (centred * p[:, None]).T @ centred
            step = -np.linalg.solve(hess, grad)
            scale = 1.0
            while scale > 1e-4:
                trial = w + scale * step
                value = self.log_posterior(trial)
                if value >= current:
                    break
                scale /= 2
            else:
                break
            w, current = trial, value
            if float(np.abs(scale * step).max()) < 1e-6:
                break
        self.weights = w

    def information(self) -> float:
        """How much better than a uniform guess the model predicts the moves seen (nats per
        move; about 0 for an aimless player): the mean log-probability gain, less the
        optimism of fitting :data:`FEATURES` weights to the same moves (½ nat per weight,
        Akaike's correction), pooled with :data:`INFO_PRIOR_MOVES` moves' worth of
        :data:`INFO_PRIOR`."""
        gain = sum(float(_log_softmax(x @ self.weights)[chosen]) + math.log(len(x))
                   for x, chosen in self.observations)
        if self.observations:
            gain -= len(self.weights) / 2
        return (gain + INFO_PRIOR * INFO_PRIOR_MOVES) / (len(self.observations) + INFO_PRIOR_MOVES)
