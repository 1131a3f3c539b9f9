"""Speed-up of the long jobs from 1 to 2 workers: ``solve``, ``selfplay`` and the exact
labels of ``train-eval`` (wall time).

    .venv/bin/python benchmarks/jobs.py [--suite 20-39] [--positions N] [--level 6]
                                        [--games 32] [--exact 96] [--workers 1 2] [--no-ray]

Solves an FFO suite (exact, a 2^20 table per worker; ``--positions``: its first N),
plays self-play games from the XOT openings and solves ``--exact`` positions of 14-24
empties of WTHOR 1980 (``../shared``; skipped without it) for exact labels, in chunks of
``--exact // (2 * workers)`` or fewer, on local worker processes and, when Ray is
installed (``hasamigo[cluster]``), on a local Ray of the same number of actors. Times are
elapsed times of the whole job,
workers' start-up included (that is what a user waits for); each setting runs once, so
on a shared machine expect noise of 10-20%. The kernels are loaded in this process
first, so that one worker (which runs here) is not charged for them and forked worker
processes start with them loaded. The defaults take about 2 minutes a backend; smaller
jobs (``--suite 1-19``: 0.1 s of solving) measure the workers' start-up, not the
speed-up. Figures: ``docs/cluster.md``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any

from hasamigo.engine.training import Samples, samples_from_records
from hasamigo.jobs import LocalBackend, RayBackend
from hasamigo.jobs.exact import exact_job
from hasamigo.jobs.selfplay import selfplay_job, xot_openings
from hasamigo.jobs.solve import solve_job, warm_solver
from hasamigo.notation.wthor import read_wthor
from hasamigo.tournament.match import warm_up

WTHOR_1980 = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor" / "WTH_1980.wtb"


def timed(backend: Any, args: argparse.Namespace, path: Any,
          samples: Samples | None) -> tuple[float, float, float | None]:
    """Wall seconds of the solve, of the self-play and of the exact labels (``None``
    without ``samples``) on ``backend``."""
    start = time.perf_counter()
    result = solve_job(path, backend=backend, table_size=1 << 20)
    solve_s = time.perf_counter() - start
    assert result["all_ok"], "a position disagrees"
    start = time.perf_counter()
    selfplay_job(args.level, args.games, backend=backend, openings=xot_openings())
    play_s = time.perf_counter() - start
    if samples is None:
        return solve_s, play_s, None
    start = time.perf_counter()
    exact_job(samples, backend=backend, limit=args.exact,
              chunk=max(1, args.exact // (2 * backend.workers)))
    return solve_s, play_s, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="20-39", choices=["1-19", "20-39"])
    parser.add_argument("--positions", type=int, default=None)
    parser.add_argument("--level", type=int, default=6)
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--exact", type=int, default=96)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    try:
        import ray  # noqa: F401
        kinds = ["local"] if args.no_ray else ["local", "ray"]
    except ImportError:
        kinds = ["local"]
    obf = resources.files("hasamigo") / "data" / "ffo" / f"fforum-{args.suite}.obf"
    samples = None
    if args.exact and WTHOR_1980.exists():
        samples, _ = samples_from_records(read_wthor(WTHOR_1980))
    print(f"FFO {args.suite} exact; {args.games} self-play games of engine:{args.level}; "
          + (f"{args.exact} exact labels" if samples is not None else "no exact labels"))
    warm_solver(1 << 20)
    warm_up(f"engine:{args.level}")
    with resources.as_file(obf) as whole, tempfile.TemporaryDirectory() as tmp:
        lines = whole.read_text().splitlines()[:args.positions]
        path = Path(tmp) / f"fforum-{args.suite}.obf"  # keeps the suite's numbering
        path.write_text("\n".join(lines) + "\n")
        print(f"{len(lines)} positions")
        print(f"{'backend':8} {'workers':>7} {'solve s':>8} {'speed-up':>8} "
              f"{'selfplay s':>10} {'speed-up':>8} {'exact s':>8} {'speed-up':>8}")
        for kind in kinds:
            base: tuple[float, float, float | None] | None = None
            for workers in args.workers:
                backend: Any = LocalBackend(workers) if kind == "local" else RayBackend(workers)
                try:
                    solve_s, play_s, exact_s = timed(backend, args, path, samples)
                finally:
                    backend.close()
                base = base or (solve_s, play_s, exact_s)
                exact = "" if exact_s is None or base[2] is None else (
                    f" {exact_s:8.2f} {base[2] / exact_s:7.2f}x")
                print(f"{kind:8} {workers:>7} {solve_s:8.2f} {base[0] / solve_s:7.2f}x "
                      f"{play_s:10.2f} {base[1] / play_s:7.2f}x{exact}", flush=True)


if __name__ == "__main__":
    main()
