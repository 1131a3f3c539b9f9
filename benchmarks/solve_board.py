"""6×6 (and 4×4) solved from the start: CPU seconds, wall seconds and nodes, on one thread
and on two (``hasamigo solve-board``; the machine may be shared, so CPU seconds are the
figure to compare, and the wall seconds show the two-thread speed-up).

    .venv/bin/python benchmarks/solve_board.py [--board 6x6] [--threads 1,2]
"""

from __future__ import annotations

import argparse
import os

from hasamigo._kernels.warm import warm
from hasamigo.engine.smallboard import solvable, solve_board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="6x6")
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    args = parser.parse_args()
    variant = solvable(args.board)
    warm("rules", "smallboard")
    print(f"{variant.title}; load average {os.getloadavg()[0]:.2f} before")
    for threads in (int(t) for t in args.threads.split(",")):
        r = solve_board(variant, threads=threads)
        print(f"{threads} thread(s): {r.outcome} ({r.transcript()}), {r.nodes:,} nodes, "
              f"{r.seconds:.1f} CPU s, {r.wall:.1f} wall s, "
              f"{r.nodes / max(r.seconds, 1e-9) / 1e6:.1f} M nodes/CPU s; "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
