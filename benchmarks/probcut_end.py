"""Fit the exact-solve probable cut's error model: how far a shallow midgame search's
score lies from the exact score, by empties and depth.

Samples positions from a WTHOR archive (``probcut_fit.sample_positions``: one random ply
per game, about ``--per`` positions for each count of empties from ``--lo`` to
``--hi``), scores each with full-width searches of 1 to ``--depth`` plies (an empty
table for each, so that no exact entry answers them), then solves it exactly. Prints per
pair of empties counts the mean and standard deviation of ``shallow - exact`` at each
depth, the spread at the depth a midgame probable cut would use
(``probcut_depth(empties)``) and a line ``sigma = a + b * empties`` (1/100 disc) fitted
to it, beside the model of the one-ply score the exact solve's selective passes use
today (``PROBCUT_SIGMA0``/``PROBCUT_SIGMA1`` of :mod:`hasamigo._kernels.search`).

Measured (330 positions of WTHOR 2005 at 12-22 empties, 2-core AMD EPYC): sd 8.5 discs at
one ply, 8.0 at two, 6.6 at four, 5.8 at six, 5.0 at eight (3-5.5 by empties); odd depths
read about +1.2 discs high, even ones about -1 low. A selective pass that tested exact
nodes from 14 empties with such a search (margin t * (3 + 0.1 * empties) discs) cut FFO
#45, #49, #50 from 2.76 G to 2.04 G nodes, but #40-#55 as a whole searched as many nodes
(21.9 G) in more time (its midgame nodes cost more), so it is not used.

    .venv/bin/python benchmarks/probcut_end.py [--archive WTH_2005.wtb] [--per 30]
        [--lo 12] [--hi 22] [--depth 8] [--seed 7]

About 5 minutes with the defaults on one core (the exact solves at 22 empties dominate).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
from probcut_fit import WTHOR, sample_positions  # this directory: run as a script

from hasamigo._kernels.search import PROBCUT_SIGMA0, PROBCUT_SIGMA1, probcut_depth
from hasamigo.engine import Engine, Limit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", default=str(WTHOR / "WTH_2005.wtb"))
    parser.add_argument("--per", type=int, default=30)
    parser.add_argument("--lo", type=int, default=12)
    parser.add_argument("--hi", type=int, default=22)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    start = time.perf_counter()
    count = args.per * (args.hi - args.lo + 1)  # about --per at each count of empties
    boards = sample_positions(Path(args.archive), count, args.lo, args.hi,
                              random.Random(args.seed))
    engine = Engine(table_size=1 << 21)
    rows = []
    for board in boards:
        shallow = []
        for depth in range(1, args.depth + 1):
            engine.clear()
            shallow.append(engine.analyse(board, Limit(depth=depth)).score)
        engine.clear()
        exact = engine.solve(board, "exact").score
        rows.append([board.empties.bit_count(), exact, *shallow])
    data = np.array(rows, dtype=np.float64)
    print(f"{len(rows)} positions of {Path(args.archive).name}, "
          f"{time.perf_counter() - start:.0f} s; shallow - exact: mean/sd (discs)")
    print("empties " + " ".join(f"{f'depth {d}':>11}" for d in range(1, args.depth + 1))
          + "   at probcut_depth")
    used = []
    for lo in range(args.lo, args.hi + 1, 2):
        group = data[(data[:, 0] >= lo) & (data[:, 0] <= lo + 1)]
        if not len(group):
            continue
        cells = []
        for d in range(1, args.depth + 1):
            err = group[:, 1 + d] - group[:, 1]
            cells.append(f"{err.mean():+5.1f}/{err.std():4.2f}")
        at = [row[1 + probcut_depth(int(row[0]))] - row[1] for row in group
              if probcut_depth(int(row[0])) <= args.depth]
        sd = float(np.std(at)) if at else float("nan")
        if at:
            used.append((lo + 0.5, sd))
        print(f"{lo:>2}-{lo + 1:<4} " + " ".join(f"{c:>11}" for c in cells) + f"   {sd:5.2f}")
    if len(used) >= 2:
        x, y = np.array(used).T
        b, a = np.polyfit(x, y * 100, 1)
        print(f"fit: sigma = {a:.0f} + {b:.1f} * empties (1/100 disc); the one-ply "
              f"test's model: {PROBCUT_SIGMA0} + {PROBCUT_SIGMA1} * empties")


if __name__ == "__main__":
    main()
