"""Fitting the pattern evaluation (:mod:`hasamigo._kernels.patterns`) to game records.

``hasamigo train-eval`` runs :func:`train` on WTHOR archives:

1. **Samples.** Every position before a move of every finished game, from the side to
   move, labelled with the game's official disc difference from that side. Where the
   archive records a *theoretical* score (perfect play from the position with ``depth``
   empties, as WTHOR stores it), positions with at least that many empties take it
   instead: it is the value of the game at that point, free of the players' later
   mistakes. Each position is also added mirrored in the a1-h8 diagonal, so the tables
   learn both orientations of the shapes read under rotations only.
2. **Fit.** Per stage, a ridge least-squares fit of the weights (in discs) by conjugate
   gradients on the normal equations (CGLS); ``ridge`` shrinks weights seen in few
   positions towards 0. Positions of the neighbouring stage within ``overlap`` empties
   join each stage's fit so that consecutive tables do not jump.
3. **Held out.** Games whose number is a multiple of ``holdout_every`` are kept out of the
   fit; the report gives the root-mean-square error of the fitted and the hand-set
   evaluation on them, per stage.

Weights are saved in 1/``SCALE`` disc as int16 with a small header
(:func:`hasamigo.engine.evaluation.save_weights`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from hasamigo._kernels.bits import FULL
from hasamigo._kernels.evaluate import default_params
from hasamigo._kernels.fitting import (
    ILLEGAL,
    REPLAYED,
    UNFINISHED,
    evaluate_all,
    replay_games,
    sparse_dot,
    sparse_dot_t,
    transpose_all,
)
from hasamigo._kernels.patterns import N_FEATURES, N_WEIGHTS, SCALE, STAGES, features, stage_of
from hasamigo.board import Board
from hasamigo.notation.record import GameRecord
from hasamigo.notation.wthor import read_wthor

Progress = Callable[[str, int, int], None]  # (what, done, total)


@dataclass(slots=True)
class Samples:
    """Positions from the side to move (``p``, ``o`` as uint64), their empties, labels
    (discs, side to move) and the game each came from."""

    p: np.ndarray
    o: np.ndarray
    empties: np.ndarray
    label: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return int(self.p.shape[0])

    def take(self, keep: np.ndarray) -> Samples:
        return Samples(self.p[keep], self.o[keep], self.empties[keep], self.label[keep],
                       self.game[keep])


@dataclass(frozen=True, slots=True)
class StageReport:
    """Held-out error of one stage (discs, root-mean-square)."""

    stage: int
    empties: tuple[int, int]
    train_positions: int
    test_positions: int
    rmse_trained: float
    rmse_hand: float


def samples_from_records(records: Iterable[GameRecord]) -> tuple[Samples, dict[str, int]]:
    """Replay the 8×8 standard-start games of ``records`` into labelled samples.

    Returns the samples and counts of games used and left out (with why)."""
    start = Board()
    squares: list[int] = []
    starts = [0]
    theo: list[int] = []
    theo_depth: list[int] = []
    skipped = {"other_start_or_variant": 0, "undecodable": 0}
    for record in records:
        if record.problem is not None:
            skipped["undecodable"] += 1
            continue
        if record.variant is not Board or record.start is not None:
            skipped["other_start_or_variant"] += 1
            continue
        squares.extend(m.square for m in record.moves if m.square is not None)
        starts.append(len(squares))
        t = record.metadata.get("theoretical_score")
        depth = int(record.metadata.get("theoretical_depth", "0") or 0)
        theo.append(int(t) if t is not None and t != "" else -1)
        theo_depth.append(depth)
    n_games = len(starts) - 1
    moves = np.asarray(squares, dtype=np.int64)
    cap = len(squares)
    out_p = np.zeros(cap, dtype=np.uint64)
    out_o = np.zeros(cap, dtype=np.uint64)
    out_e = np.zeros(cap, dtype=np.int64)
    out_b = np.zeros(cap, dtype=np.int64)
    out_g = np.zeros(cap, dtype=np.int64)
    final = np.zeros(n_games, dtype=np.int64)
    status = np.zeros(n_games, dtype=np.int64)
    n = replay_games(np.uint64(start.black), np.uint64(start.white), moves,
                     np.asarray(starts, dtype=np.int64), out_p, out_o, out_e, out_b, out_g,
                     final, status)
    out_p, out_o = out_p[:n], out_o[:n]
    out_e, out_b, out_g = out_e[:n], out_b[:n], out_g[:n]
    theo_a = np.asarray(theo, dtype=np.int64)
    depth_a = np.asarray(theo_depth, dtype=np.int64)
    # WTHOR's theoretical score is Black's discs under perfect play from ``depth`` empties
    theo_diff = 2 * theo_a - 64
    use_theo = (theo_a >= 0) & (depth_a > 0) & (depth_a <= 60)
    black_label = np.where(use_theo[out_g] & (out_e >= depth_a[out_g]), theo_diff[out_g],
                           final[out_g])
    label = np.where(out_b == 1, black_label, -black_label)
    counts = {
        "games_used": int((status == REPLAYED).sum()),
        "illegal": int((status == ILLEGAL).sum()),
        "unfinished": int((status == UNFINISHED).sum()),
        **skipped,
    }
    return Samples(out_p, out_o, out_e, label.astype(np.float64), out_g), counts


def read_archives(paths: Sequence[str | os.PathLike[str]]) -> Iterable[GameRecord]:
    """Every game of the WTHOR archives ``paths``, in order."""
    for path in paths:
        yield from read_wthor(path)


def mirrored(samples: Samples) -> Samples:
    """The samples mirrored in the a1-h8 diagonal (the same values)."""
    return Samples(transpose_all(samples.p), transpose_all(samples.o), samples.empties,
                   samples.label, samples.game)


def feature_matrix(samples: Samples) -> np.ndarray:
    """The table indices (within a stage) of every sample, shape ``(n, N_FEATURES)``."""
    out = np.zeros((len(samples), N_FEATURES), dtype=np.int32)
    features(samples.p, samples.o, out)
    return out


def fit_stage(idx: np.ndarray, y: np.ndarray, *, ridge: float = 2.0,
              iterations: int = 150) -> np.ndarray:
    """Ridge least squares ``min |A w - y|^2 + ridge |w|^2`` by CGLS, where row ``i`` of
    ``A`` has a 1 at each ``idx[i]``; returns ``w`` (float64, ``N_WEIGHTS``)."""
    w = np.zeros(N_WEIGHTS)
    r = y.astype(np.float64).copy()
    s = np.zeros(N_WEIGHTS)
    sparse_dot_t(idx, r, s)
    d = s.copy()
    gamma = float(s @ s)
    q = np.zeros(idx.shape[0])
    for _ in range(iterations):
        if gamma <= 1e-12:
            break
        sparse_dot(idx, d, q)
        delta = float(q @ q) + ridge * float(d @ d)
        alpha = gamma / delta
        w += alpha * d
        r -= alpha * q
        sparse_dot_t(idx, r, s)
        s -= ridge * w
        gamma_new = float(s @ s)
        d = s + (gamma_new / gamma) * d
        gamma = gamma_new
    return w


def stage_range(stage: int) -> tuple[int, int]:
    """The empties (inclusive) of ``stage``."""
    lo = 4 * stage + 1
    hi = 60 if stage == STAGES - 1 else lo + 3
    return lo, hi


def train(samples: Samples, *, holdout_every: int = 20, ridge: float = 2.0,
          iterations: int = 150, overlap: int = 2,
          progress: Progress | None = None) -> tuple[np.ndarray, list[StageReport]]:
    """Fit every stage's table; returns weights (float discs, ``(STAGES, N_WEIGHTS)``) and
    the held-out report."""
    test_mask = (samples.game % holdout_every) == 0 if holdout_every > 0 else (
        np.zeros(len(samples), dtype=bool))
    train_s = samples.take(~test_mask)
    test_s = samples.take(test_mask)
    train_s = _concat(train_s, mirrored(train_s))
    hand = default_params()
    weights = np.zeros((STAGES, N_WEIGHTS))
    reports: list[StageReport] = []
    for stage in range(STAGES):
        lo, hi = stage_range(stage)
        sel = (train_s.empties >= lo - overlap) & (train_s.empties <= hi + overlap)
        part = train_s.take(sel)
        if progress:
            progress(f"stage {stage + 1}/{STAGES}: empties {lo}-{hi}, {len(part):,} positions",
                     stage, STAGES)
        if len(part):
            weights[stage] = fit_stage(feature_matrix(part), part.label, ridge=ridge,
                                       iterations=iterations)
        tsel = (test_s.empties >= lo) & (test_s.empties <= hi)
        test = test_s.take(tsel)
        reports.append(_report(stage, (lo, hi), len(part), test, weights[stage], hand))
    if progress:
        progress("done", STAGES, STAGES)
    return weights, reports


def _report(stage: int, empties: tuple[int, int], n_train: int, test: Samples,
            w: np.ndarray, hand: np.ndarray) -> StageReport:
    if not len(test):
        return StageReport(stage, empties, n_train, 0, float("nan"), float("nan"))
    pred = np.zeros(len(test))
    sparse_dot(feature_matrix(test), w, pred)
    pred = np.clip(np.rint(pred), -64, 64)
    hand_pred = evaluate_all(test.p, test.o, FULL, hand)
    return StageReport(
        stage, empties, n_train, len(test),
        float(np.sqrt(np.mean((pred - test.label) ** 2))),
        float(np.sqrt(np.mean((hand_pred - test.label) ** 2))),
    )


def _concat(a: Samples, b: Samples) -> Samples:
    return Samples(*(np.concatenate((x, y)) for x, y in (
        (a.p, b.p), (a.o, b.o), (a.empties, b.empties), (a.label, b.label),
        (a.game, b.game))))


def quantize(weights: np.ndarray) -> np.ndarray:
    """Weights in discs as int16 in 1/SCALE disc (clipped to the int16 range)."""
    out: np.ndarray = np.clip(np.rint(weights * SCALE), -32767, 32767).astype(np.int16)
    return out


__all__ = [
    "Samples",
    "StageReport",
    "feature_matrix",
    "fit_stage",
    "mirrored",
    "quantize",
    "read_archives",
    "samples_from_records",
    "stage_of",
    "train",
]
