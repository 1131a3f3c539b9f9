"""Speed-up of the long jobs from 1 to 2 workers: ``solve`` and ``selfplay`` wall time.

    .venv/bin/python benchmarks/jobs.py [--suite 1-19] [--positions N] [--level 4]
                                        [--games 16] [--workers 1 2] [--no-ray]

Solves an FFO suite (exact, a 2^20 table per worker; ``--positions``: its first N) and
plays self-play games from the XOT openings, on local worker processes and, when Ray is
installed (``hasamigo[cluster]``), on a local Ray of the same number of actors. Times are
elapsed times of the whole job,
workers' start-up included (that is what a user waits for); each setting runs once, so
on a shared machine expect noise of 10-20%. The kernels are loaded in this process
first, so that one worker (which runs here) is not charged for them and forked worker
processes start with them loaded. Figures are in the report of issue 20.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any

from hasamigo.jobs import LocalBackend, RayBackend
from hasamigo.jobs.selfplay import selfplay_job, xot_openings
from hasamigo.jobs.solve import solve_job, warm_solver
from hasamigo.tournament.match import warm_up


def timed(backend: Any, args: argparse.Namespace, path: Any) -> tuple[float, float]:
    """Wall seconds of the solve and of the self-play on ``backend``."""
    start = time.perf_counter()
    result = solve_job(path, backend=backend, table_size=1 << 20)
    solve_s = time.perf_counter() - start
    assert result["all_ok"], "a position disagrees"
    start = time.perf_counter()
    selfplay_job(args.level, args.games, backend=backend, openings=xot_openings())
    return solve_s, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="1-19", choices=["1-19", "20-39"])
    parser.add_argument("--positions", type=int, default=None)
    parser.add_argument("--level", type=int, default=4)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    try:
        import ray  # noqa: F401
        kinds = ["local"] if args.no_ray else ["local", "ray"]
    except ImportError:
        kinds = ["local"]
    obf = resources.files("hasamigo") / "data" / "ffo" / f"fforum-{args.suite}.obf"
    print(f"FFO {args.suite} exact; {args.games} self-play games of engine:{args.level}")
    warm_solver(1 << 20)
    warm_up(f"engine:{args.level}")
    with resources.as_file(obf) as whole, tempfile.TemporaryDirectory() as tmp:
        lines = whole.read_text().splitlines()[:args.positions]
        path = Path(tmp) / f"fforum-{args.suite}.obf"  # keeps the suite's numbering
        path.write_text("\n".join(lines) + "\n")
        print(f"{len(lines)} positions")
        print(f"{'backend':8} {'workers':>7} {'solve s':>8} {'speed-up':>8} "
              f"{'selfplay s':>10} {'speed-up':>8}")
        for kind in kinds:
            base: tuple[float, float] | None = None
            for workers in args.workers:
                backend: Any = LocalBackend(workers) if kind == "local" else RayBackend(workers)
                try:
                    solve_s, play_s = timed(backend, args, path)
                finally:
                    backend.close()
                base = base or (solve_s, play_s)
                print(f"{kind:8} {workers:>7} {solve_s:8.2f} {base[0] / solve_s:7.2f}x "
                      f"{play_s:10.2f} {base[1] / play_s:7.2f}x", flush=True)


if __name__ == "__main__":
    main()
