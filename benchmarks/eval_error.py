"""Held-out error of evaluations, stage by stage: weights files side by side.

For each stage of :mod:`hasamigo._kernels.patterns` (4 empties each) prints the
root-mean-square error in discs of each weights file (and of the hand-set features) on the
positions of the held-out games (every ``--holdout-every``-th game, as ``train-eval``
holds them out) against their labels: the games' results, or WTHOR's perfect-play score
where it has one. With ``--exact-cache`` (a ``train-eval --label exact`` cache) it also
prints the error against the exact scores of the held-out positions the cache solved.

    .venv/bin/python benchmarks/eval_error.py OLD.npz NEW.npz [--exact-cache F.exact.npz]
        [--archives '../shared/data/wthor/*.wtb'] [--holdout-every 20]
"""

from __future__ import annotations

import argparse
import glob
from pathlib import Path

import numpy as np

from hasamigo._kernels.bits import FULL
from hasamigo._kernels.fitting import evaluate_all
from hasamigo._kernels.patterns import STAGES
from hasamigo.engine.evaluation import evaluation_params, load_weights, params_from_weights
from hasamigo.engine.training import (
    load_exact_cache,
    read_archives,
    samples_from_records,
    stage_range,
)

WTHOR = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"


def rmse(pred: np.ndarray, label: np.ndarray) -> float:
    return float(np.sqrt(np.mean((pred.astype(np.float64) - label) ** 2)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", nargs="+", help="weights files (train-eval's .npz)")
    parser.add_argument("--archives", default=str(WTHOR / "*.wtb"), help="WTHOR files (glob)")
    parser.add_argument("--holdout-every", type=int, default=20)
    parser.add_argument("--exact-cache", default="", help="exact scores (train-eval cache)")
    args = parser.parse_args()
    samples, _ = samples_from_records(read_archives(sorted(glob.glob(args.archives))))
    held = samples.take(samples.game % args.holdout_every == 0)
    evaluations = {"hand": evaluation_params("hand")}
    for path in args.weights:
        evaluations[Path(path).stem] = params_from_weights(load_weights(path))
    preds = {name: evaluate_all(held.p, held.o, FULL, params)
             for name, params in evaluations.items()}
    exact = np.full(len(held), np.nan)
    if args.exact_cache:
        solved = load_exact_cache(args.exact_cache)
        exact = np.array([solved.get((int(p), int(o)), np.nan)
                          for p, o in zip(held.p, held.o, strict=True)])
    names = list(evaluations)
    print(f"{len(held):,} held-out positions from {len(set(held.game.tolist())):,} games")
    print(f"{'stage':>5} {'empties':>7} {'positions':>9}  "
          + "  ".join(f"{n[:14]:>14}" for n in names) + "   (against the games' labels)")
    for stage in range(STAGES):
        lo, hi = stage_range(stage)
        sel = (held.empties >= lo) & (held.empties <= hi)
        print(f"{stage:>5} {lo:>3}-{hi:<3} {int(sel.sum()):>9}  "
              + "  ".join(f"{rmse(preds[n][sel], held.label[sel]):>14.3f}" for n in names))
    if args.exact_cache:
        print("against the exact scores:")
        for stage in range(STAGES):
            lo, hi = stage_range(stage)
            sel = (held.empties >= lo) & (held.empties <= hi) & ~np.isnan(exact)
            if sel.any():
                print(f"{stage:>5} {lo:>3}-{hi:<3} {int(sel.sum()):>9}  "
                      + "  ".join(f"{rmse(preds[n][sel], exact[sel]):>14.3f}" for n in names))


if __name__ == "__main__":
    main()
