"""Depth per move on a budget: how deep the top level gets in the same wall time on 1 and T threads.

What a clocked game gives the engine is a budget per move, so what more threads buy is
depth (and earlier solves). For positions of random games (more than 24 empties, so the
midgame), each searched as the top level searches on a clock (its selectivity, bounded by
the budget alone: :func:`hasamigo.engine.limits.on_clock`) with the same budget, this prints
the depth reached per position and on average, and the wall time used, for each thread count.

    .venv/bin/python benchmarks/timed_depth.py [--target 0.3] [--positions 30]
        [--threads 1,2] [--parallel abdada|split|lazy|root] [--seed 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from probcut_fit import random_positions  # this directory: run as a script

from hasamigo import Board
from hasamigo.engine import MAX_LEVEL, Engine, Limit
from hasamigo.engine.core import PARALLEL
from hasamigo.engine.limits import MAX_THREADS, level, on_clock
from hasamigo.engine.parallel import WAYS
from hasamigo.engine.timing import Budget


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=0.3,
                        help="seconds a move should use (the hard limit is three times it)")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    parser.add_argument("--parallel", default=PARALLEL, choices=WAYS)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    try:
        counts = [int(t) for t in args.threads.split(",")]
    except ValueError:
        parser.error(f"--threads: whole numbers separated by commas, not {args.threads!r}")
    if not all(1 <= t <= MAX_THREADS for t in counts):
        parser.error(f"--threads: each from 1 to {MAX_THREADS}, not {args.threads!r}")
    if args.target <= 0 or args.positions < 1:
        parser.error("--target and --positions must be positive")
    boards = [b for b in random_positions(args.positions * 3, random.Random(args.seed))
              if b.empties.bit_count() > 24][:args.positions]
    bounds = on_clock(level(MAX_LEVEL))
    for threads in counts:
        engine = Engine(threads=threads)
        engine.parallel = args.parallel
        engine.analyse(Board(), Limit(depth=2))  # load the compiled kernels
        depths = []
        wall = 0.0
        for board in boards:
            engine.clear()
            w0 = time.perf_counter()
            result = engine.play_timed(board, Budget(args.target, 3 * args.target),
                                       depth=bounds.depth, exact_from=bounds.exact_from,
                                       wld_from=bounds.wld_from,
                                       selectivity=bounds.selectivity)
            wall += time.perf_counter() - w0
            depths.append(result.analysis.depth)
        print(f"{threads} thread(s), {args.parallel}: mean depth "
              f"{statistics.mean(depths):.2f}, wall {wall:.1f} s for {len(boards)} positions "
              f"at {args.target} s: {' '.join(map(str, depths))}")


if __name__ == "__main__":
    main()
