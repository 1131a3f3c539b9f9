"""Fitting the pattern evaluation (:mod:`hasamigo._kernels.patterns`) to game records.

``hasamigo train-eval`` runs :func:`train` on WTHOR archives:

1. **Samples.** Every position before a move of every finished game, from the side to
   move, labelled with the game's official disc difference from that side. Where the
   archive records a *theoretical* score (perfect play from the position with ``depth``
   empties, as WTHOR stores it), positions with at least that many empties take it
   instead: it is the value of the game at that point, free of the players' later
   mistakes.
2. **Mirror images tied.** The shapes read under the four rotations only (all but the
   corner 2×5) see a mirrored board's configuration in reverse order (or transposed, for
   the 3×3 corner): each such pair of table entries is one weight in the fit
   (:func:`mirror_classes`), so a position and its mirror image score exactly alike and
   the fit needs no mirrored copies of the positions.
3. **Fit.** Per stage, a ridge least-squares fit of the weights (in discs) by conjugate
   gradients on the normal equations (CGLS); ``ridge`` shrinks weights seen in few
   positions towards 0. Positions of the neighbouring stage within ``overlap`` empties
   join each stage's fit so that consecutive tables do not jump.
4. **Held out.** Games whose number is a multiple of ``holdout_every`` are kept out of the
   fit; the report gives the root-mean-square error of the fitted and the hand-set
   evaluation on them, per stage (and of a third, e.g. the shipped weights, when given).

**Exact labels** (``train-eval --label exact``, :func:`exact_labels`): the players'
endgame mistakes after WTHOR's theoretical point are noise in the final-result labels.
Positions with ``EXACT_EMPTIES`` empties are solved exactly instead (all of them, or an
evenly spread ``limit`` of them) and labelled with their perfect-play score; the solved
scores are kept in a cache file, written as the solving goes, so a stopped run resumes
and a second fit solves nothing again.

**A corpus** (``hasamigo corpus train DIR``, :func:`corpus_samples`): positions labelled by
``hasamigo corpus build`` (:mod:`hasamigo.engine.corpus`), held out by a hash of their
canonical key (so a position and its symmetric images fall on one side), every label
exact or a deep search's; :func:`heldout_figures` gives the held-out mean absolute error
and correlation of the fitted and another evaluation against those labels, and the stages
the corpus does not reach keep the other evaluation's weights (:func:`fill_stages`).

Weights are saved in 1/``SCALE`` disc as int16 with a small header
(:func:`hasamigo.engine.evaluation.save_weights`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

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
from hasamigo._kernels.patterns import (
    N_FEATURES,
    N_WEIGHTS,
    SCALE,
    SHAPE_OF_FEATURE,
    SHAPE_OFFSETS,
    SHAPES,
    STAGES,
    features,
    stage_of,
)
from hasamigo.board import Board
from hasamigo.engine.book import save_npz
from hasamigo.engine.core import Engine
from hasamigo.errors import ParseError
from hasamigo.notation.record import GameRecord
from hasamigo.notation.wthor import read_wthor

#: empties of the positions :func:`exact_labels` solves (inclusive)
EXACT_EMPTIES = (14, 24)
#: the hash table of the engine that solves them (rows)
EXACT_TABLE_SIZE = 1 << 20

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
    rmse_other: float | None = None


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


def _instance_squares() -> tuple[list[tuple[int, ...]], list[int]]:
    """The squares each of the 48 pattern instances of :func:`features` reads, digit by
    digit, found by asking it about boards of one disc (so they follow the kernel, whatever
    its gather order); and each square's image in the a1-h8 mirror of :func:`mirrored`."""
    n_instances = len(SHAPE_OF_FEATURE) - 3
    digits: list[dict[int, int]] = [{} for _ in range(n_instances)]
    ps = np.array([1 << sq for sq in range(64)], dtype=np.uint64)
    out = np.zeros((64, N_FEATURES), dtype=np.int32)
    features(ps, np.zeros(64, dtype=np.uint64), out)
    digit_of = {3**i: i for i in range(max(n for _, n in SHAPES))}  # one own disc: 3**digit
    for sq in range(64):
        for k in range(n_instances):
            index = int(out[sq, k]) - SHAPE_OFFSETS[SHAPE_OF_FEATURE[k]]
            if index:
                digits[k][digit_of[index]] = sq
    squares = [tuple(d[i] for i in range(SHAPES[SHAPE_OF_FEATURE[k]][1]))
               for k, d in enumerate(digits)]
    return squares, [int(x).bit_length() - 1 for x in transpose_all(ps)]


@cache
def mirror_classes() -> np.ndarray:
    """``classes[i]``: the table entry (within a stage) that entry ``i`` is tied to, the
    lower of ``i`` and its mirror image's entry. Mirroring the board in the a1-h8 diagonal
    maps every instance of a shape onto an instance of the same shape, its digits permuted;
    where that permutation is not the identity for every instance (all shapes read under
    rotations only, but the long diagonal, which is read both ways), a configuration and its
    permuted one must share a weight for the evaluation to be mirror-symmetric."""
    squares, image_of = _instance_squares()
    classes = np.arange(N_WEIGHTS, dtype=np.int64)
    for shape, (name, n) in enumerate(SHAPES):
        mine = [k for k in range(len(squares)) if SHAPE_OF_FEATURE[k] == shape]
        identity = tuple(range(n))
        perms = set()
        for k in mine:
            mirrored_squares = [image_of[sq] for sq in squares[k]]
            found = [tuple(squares[j].index(sq) for sq in mirrored_squares)
                     for j in mine if set(squares[j]) == set(mirrored_squares)]
            if not found:
                raise AssertionError(f"{name}: a mirrored instance is no instance")
            perms.add(identity if identity in found else found[0])
        if len(perms) != 1:
            raise AssertionError(f"{name}: the instances mirror differently: {perms}")
        perm = perms.pop()
        if perm != identity:
            index = np.arange(3**n, dtype=np.int64)
            image = np.zeros(3**n, dtype=np.int64)
            for digit, to in enumerate(perm):
                image += (index // 3**digit % 3) * 3**to
            offset = SHAPE_OFFSETS[shape]
            classes[offset:offset + 3**n] = offset + np.minimum(index, image)
    classes.setflags(write=False)
    return classes


def tied(weights: np.ndarray) -> np.ndarray:
    """``weights`` (float, ``(STAGES, N_WEIGHTS)``) with each entry tied to its mirror
    image's (:func:`mirror_classes`): both become their mean, so the evaluation scores a
    position and its 8 images alike. Fits are tied by construction; a base to correct
    (eval-v2, whose saved tables differ from their mirror images' by 1/``SCALE`` disc in a
    few hundred entries) is tied first, or the correction would inherit the difference."""
    classes = mirror_classes()
    out = np.empty(weights.shape, dtype=np.float64)
    counts = np.bincount(classes, minlength=N_WEIGHTS)
    for stage in range(weights.shape[0]):
        sums = np.bincount(classes, weights=weights[stage], minlength=N_WEIGHTS)
        out[stage] = (sums / np.maximum(counts, 1))[classes]
    return out


def feature_matrix(samples: Samples) -> np.ndarray:
    """The table indices (within a stage) of every sample, shape ``(n, N_FEATURES)``."""
    out = np.zeros((len(samples), N_FEATURES), dtype=np.int32)
    features(samples.p, samples.o, out)
    return out


def fit_stage(idx: np.ndarray, y: np.ndarray, *, ridge: float = 2.0,
              iterations: int = 150, row_weight: np.ndarray | None = None) -> np.ndarray:
    """Ridge least squares ``min sum_i c_i (A_i w - y_i)^2 + ridge |w|^2`` by CGLS, where
    row ``i`` of ``A`` has a 1 at each ``idx[i]`` and ``c_i`` is ``row_weight[i]`` (1 when
    not given); returns ``w`` (float64, ``N_WEIGHTS``)."""
    c = None if row_weight is None else row_weight.astype(np.float64)
    w = np.zeros(N_WEIGHTS)
    r = y.astype(np.float64).copy()
    s = np.zeros(N_WEIGHTS)
    sparse_dot_t(idx, r if c is None else c * r, s)
    d = s.copy()
    gamma = float(s @ s)
    q = np.zeros(idx.shape[0])
    for _ in range(iterations):
        if gamma <= 1e-12:
            break
        sparse_dot(idx, d, q)
        delta = float(q @ q if c is None else q @ (c * q)) + ridge * float(d @ d)
        alpha = gamma / delta
        w += alpha * d
        r -= alpha * q
        sparse_dot_t(idx, r if c is None else c * r, s)
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
          iterations: int = 150, overlap: int = 2, other: np.ndarray | None = None,
          test_among: np.ndarray | None = None, weighted: np.ndarray | None = None,
          weight: float = 1.0, base: np.ndarray | None = None,
          held: np.ndarray | None = None,
          progress: Progress | None = None) -> tuple[np.ndarray, list[StageReport]]:
    """Fit every stage's table; returns weights (float discs, ``(STAGES, N_WEIGHTS)``) and
    the held-out report (with ``other``, an evaluation's parameters, measured too). With
    ``test_among`` (a mask of the samples) the report reads only the held-out positions
    it marks, e.g. those with exact labels; with ``weighted`` (a mask) the positions it
    marks count ``weight`` times in the fit (exact labels are worth more than results).
    With ``base`` (weights in discs, e.g. the shipped ones) each stage is fitted as a
    correction to it: the ridge pulls towards ``base`` instead of towards 0, so a few
    thousand positions refine an evaluation instead of replacing it. ``held`` (a mask of
    the samples) says which are held out, instead of ``holdout_every``
    (:func:`heldout_mask`)."""
    held = heldout_mask(samples, holdout_every) if held is None else held
    row_weight = None
    if weighted is not None and weight != 1.0:
        row_weight = np.where(weighted[~held], weight, 1.0)
    train_s = samples.take(~held)
    test_s = samples.take(held if test_among is None else held & test_among)
    tie = mirror_classes()
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
            idx = feature_matrix(part)
            y = part.label
            if base is not None:
                start = np.zeros(len(part))
                sparse_dot(idx, base[stage], start)
                y = y - start
            tied = tie[idx].astype(np.int32)
            weights[stage] = fit_stage(
                tied, y, ridge=ridge, iterations=iterations,
                row_weight=None if row_weight is None else row_weight[sel])[tie]
            if base is not None:
                weights[stage] += base[stage]
        elif base is not None:
            weights[stage] = base[stage]
        tsel = (test_s.empties >= lo) & (test_s.empties <= hi)
        test = test_s.take(tsel)
        reports.append(_report(stage, (lo, hi), len(part), test, weights[stage], hand, other))
    if progress:
        progress("done", STAGES, STAGES)
    return weights, reports


def _report(stage: int, empties: tuple[int, int], n_train: int, test: Samples,
            w: np.ndarray, hand: np.ndarray, other: np.ndarray | None) -> StageReport:
    if not len(test):
        return StageReport(stage, empties, n_train, 0, float("nan"), float("nan"),
                           None if other is None else float("nan"))
    pred = np.zeros(len(test))
    sparse_dot(feature_matrix(test), w, pred)
    pred = np.clip(np.rint(pred), -64, 64)

    def rmse(values: np.ndarray) -> float:
        return float(np.sqrt(np.mean((values - test.label) ** 2)))

    return StageReport(
        stage, empties, n_train, len(test), rmse(pred),
        rmse(evaluate_all(test.p, test.o, FULL, hand)),
        None if other is None else rmse(evaluate_all(test.p, test.o, FULL, other)),
    )


def exact_candidates(samples: Samples, limit: int | None = None,
                     empties: tuple[int, int] = EXACT_EMPTIES) -> np.ndarray:
    """Indices of the samples :func:`exact_labels` solves: every position with ``empties``
    empties, or ``limit`` of them spread evenly over the archive's order."""
    lo, hi = empties
    found: np.ndarray = np.flatnonzero((samples.empties >= lo) & (samples.empties <= hi))
    if limit is not None and limit < len(found):
        found = found[np.linspace(0, len(found) - 1, limit).round().astype(np.int64)]
    return found


def load_exact_cache(path: str | os.PathLike[str]) -> dict[tuple[int, int], int]:
    """Solved scores by ``(p, o)`` from a cache file (empty when there is none yet)."""
    path = Path(path)
    if not path.exists():
        return {}
    try:
        with np.load(path, allow_pickle=False) as data:
            ps, os_, scores = data["p"], data["o"], data["score"]
    except (OSError, ValueError, KeyError) as exc:
        raise ParseError(f"not an exact-label cache: {exc}", source=str(path)) from exc
    if not (len(ps) == len(os_) == len(scores)):
        raise ParseError("the cache's arrays differ in length", source=str(path))
    return {(int(p), int(o)): int(v) for p, o, v in zip(ps, os_, scores, strict=True)}


def save_exact_cache(path: str | os.PathLike[str], solved: dict[tuple[int, int], int]) -> None:
    """Write the solved scores (by ``(p, o)``) to a cache file, all of them at once."""
    keys = list(solved)
    save_npz(path, p=np.array([k[0] for k in keys], dtype=np.uint64),
             o=np.array([k[1] for k in keys], dtype=np.uint64),
             score=np.array([solved[k] for k in keys], dtype=np.int8))


def position_board(p: int, o: int) -> Board:
    """The board of the position ``(p, o)`` (discs of the side to move, of the other),
    the side to move as Black."""
    cells = "".join("X" if p >> sq & 1 else "O" if o >> sq & 1 else "-" for sq in range(64))
    return Board.from_string(cells + " X")


def exact_keys(samples: Samples, chosen: np.ndarray) -> list[tuple[int, int]]:
    """The positions ``(p, o)`` of the samples ``chosen`` (the keys of the cache)."""
    return [(int(samples.p[i]), int(samples.o[i])) for i in chosen]


def exact_score(engine: Engine, p: int, o: int) -> int:
    """The exact score of the position ``(p, o)`` (discs, side to move)."""
    return engine.solve(position_board(p, o)).score


def with_exact_labels(samples: Samples, chosen: np.ndarray,
                      solved: dict[tuple[int, int], int]) -> tuple[Samples, np.ndarray]:
    """``samples`` with those ``chosen`` labelled by their scores in ``solved``, and the
    mask of the samples so labelled."""
    label = samples.label.copy()
    label[chosen] = [solved[key] for key in exact_keys(samples, chosen)]
    labelled = np.zeros(len(samples), dtype=bool)
    labelled[chosen] = True
    return Samples(samples.p, samples.o, samples.empties, label, samples.game), labelled


def exact_labels(samples: Samples, *, limit: int | None = None,
                 cache: str | os.PathLike[str] | None = None, save_every: float = 30.0,
                 empties: tuple[int, int] = EXACT_EMPTIES,
                 progress: Progress | None = None) -> tuple[Samples, np.ndarray]:
    """``samples`` with the positions of :func:`exact_candidates` labelled by their exact
    score (side to move), and a mask of the samples so labelled. Scores already in ``cache`` are
    not solved again; new ones are added to it every ``save_every`` seconds and at the
    end (also when interrupted). On several workers: :func:`hasamigo.jobs.exact.exact_job`."""
    chosen = exact_candidates(samples, limit, empties)
    solved = load_exact_cache(cache) if cache is not None else {}
    engine = Engine(table_size=EXACT_TABLE_SIZE)
    saved_at = time.monotonic()
    fresh = 0
    try:
        for done, key in enumerate(exact_keys(samples, chosen)):
            if key not in solved:
                solved[key] = exact_score(engine, *key)
                fresh += 1
                if cache is not None and time.monotonic() - saved_at >= save_every:
                    save_exact_cache(cache, solved)
                    saved_at = time.monotonic()
            if progress and (done % 64 == 0 or done == len(chosen) - 1):
                progress(f"exact labels: {done + 1:,}/{len(chosen):,}", done + 1, len(chosen))
    finally:
        if cache is not None and fresh:
            save_exact_cache(cache, solved)
    return with_exact_labels(samples, chosen, solved)


def corpus_samples(p: np.ndarray, o: np.ndarray, empties: np.ndarray, score: np.ndarray,
                   bucket: np.ndarray) -> Samples:
    """A corpus's positions as samples: labelled by their scores, the ``game`` of each
    its hash ``bucket`` (:func:`hasamigo.engine.corpus.holdout_bucket`), so that
    :func:`train`'s ``holdout_every`` holds positions out by key."""
    return Samples(np.asarray(p, dtype=np.uint64), np.asarray(o, dtype=np.uint64),
                   np.asarray(empties, dtype=np.int64), np.asarray(score, dtype=np.float64),
                   np.asarray(bucket, dtype=np.int64))


@dataclass(frozen=True, slots=True)
class Figures:
    """An evaluation against labels: positions, mean absolute error (discs) and Pearson
    correlation (nan for fewer than 2 positions or constant values)."""

    positions: int
    mae: float
    correlation: float


def _figures(pred: np.ndarray, label: np.ndarray) -> Figures:
    if not len(label):
        return Figures(0, float("nan"), float("nan"))
    mae = float(np.mean(np.abs(pred - label)))
    if len(label) < 2 or np.std(pred) == 0 or np.std(label) == 0:
        return Figures(len(label), mae, float("nan"))
    return Figures(len(label), mae, float(np.corrcoef(pred, label)[0, 1]))


def heldout_mask(samples: Samples, holdout_every: int,
                 train_empties: tuple[int, int] | None = None) -> np.ndarray:
    """The samples :func:`train` holds out: those whose ``game`` is a multiple of
    ``holdout_every`` (none for 0), and with ``train_empties`` (inclusive) every sample
    outside that range too, so a fit on some empties is measured on the others."""
    held = (samples.game % holdout_every == 0 if holdout_every > 0
            else np.zeros(len(samples), dtype=bool))
    if train_empties is not None:
        held = held | (samples.empties < train_empties[0]) | (samples.empties > train_empties[1])
    out: np.ndarray = held
    return out


def heldout_figures(samples: Samples, params: np.ndarray, other: np.ndarray, *,
                    held: np.ndarray,
                    empties: tuple[int, int] | None = None) -> tuple[Figures, Figures]:
    """The held-out samples of :func:`train` (the mask ``held``, :func:`heldout_mask`),
    with ``empties`` (inclusive) only those with that many empties, scored by two
    evaluations (their kernel parameters: the fitted weights as saved, through
    :func:`hasamigo.engine.evaluation.params_from_weights`, and e.g. the shipped eval-v2),
    each against the labels, as the engine's static evaluation scores them: what each
    says of positions the fit never saw."""
    if empties is not None:
        held = held & (samples.empties >= empties[0]) & (samples.empties <= empties[1])
    test = samples.take(held)
    mine = evaluate_all(test.p, test.o, FULL, params).astype(np.float64)
    theirs = evaluate_all(test.p, test.o, FULL, other).astype(np.float64)
    return _figures(mine, test.label), _figures(theirs, test.label)


def fill_stages(weights: np.ndarray, reports: Sequence[StageReport],
                base: np.ndarray) -> np.ndarray:
    """``weights`` with the stages that had no training positions taken from ``base``
    (weights in discs, e.g. the shipped ones): a corpus of a few empties makes a whole
    evaluation, trained where it has data."""
    out = weights.copy()
    for r in reports:
        if r.train_positions == 0:
            out[r.stage] = base[r.stage]
    return out


def in_discs(weights: np.ndarray) -> np.ndarray:
    """Saved weights (int16, 1/SCALE disc) in discs: :func:`quantize` undone."""
    out: np.ndarray = weights.astype(np.float64) / SCALE
    return out


def quantize(weights: np.ndarray) -> np.ndarray:
    """Weights in discs as int16 in 1/SCALE disc (clipped to the int16 range)."""
    out: np.ndarray = np.clip(np.rint(weights * SCALE), -32767, 32767).astype(np.int16)
    return out


__all__ = [
    "EXACT_EMPTIES",
    "EXACT_TABLE_SIZE",
    "Figures",
    "Samples",
    "StageReport",
    "corpus_samples",
    "exact_candidates",
    "exact_keys",
    "exact_labels",
    "exact_score",
    "feature_matrix",
    "fill_stages",
    "fit_stage",
    "heldout_figures",
    "heldout_mask",
    "in_discs",
    "load_exact_cache",
    "mirrored",
    "position_board",
    "quantize",
    "read_archives",
    "samples_from_records",
    "save_exact_cache",
    "stage_of",
    "tied",
    "train",
    "with_exact_labels",
]
