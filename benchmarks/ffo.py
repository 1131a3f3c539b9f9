"""FFO endgame benchmark: exact solves of #20-#39 (and #40-#59 with ``--with-40-59``).

Prints per position the move, score (side to move), expected score, CPU seconds
(``time.process_time``: the machine may be shared), nodes and nodes per CPU second.
One engine (one table) per file, as :func:`hasamigo.engine.solve_obf_file` does.

    .venv/bin/python benchmarks/ffo.py [--with-40-59 | --only-40-59] [--wld]
        [--table-bits 22] [--positions 38,40] [--max-seconds 1800] [--without etc,stability]
        [--threads 2 [--parallel abdada|split|lazy|root]] [--weights eval.npz]

With ``--threads N`` the engine shares the search out to N threads (``--parallel``: abdada,
the engine's and the default, split, lazy or root; see :mod:`hasamigo.engine.parallel`):
the CPU seconds are then those of every thread, the wall seconds (``wall s``) show the
speed-up, and ``idle`` is the share of the threads' wall time they waited for work (the
split search's; ABDADA's threads never wait). Compare the nodes with one
thread's for the search overhead.

``--weights`` solves with the pattern weights of a ``train-eval`` file instead of the
shipped ones (the move ordering's evaluation: fewer nodes for a better one).
``--max-seconds`` stops a position after that many wall seconds (reported as ``STOP``;
1800 by default: #55 alone takes over 600 CPU s on a 2-core Zen 3 VM, more with a load
beside it);
``--without`` switches search features off (flags of :mod:`hasamigo._kernels.search`)
to measure what each one brings.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import hasamigo.engine.core as core
from hasamigo import Board
from hasamigo._kernels.warm import warm
from hasamigo.engine import Engine, Limit, read_obf
from hasamigo.engine.core import PARALLEL
from hasamigo.engine.evaluation import load_weights, params_from_weights
from hasamigo.engine.parallel import WAYS
from hasamigo.errors import InvalidOptionError

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "ffo"


def run(path: Path, mode: str, table_bits: int, only: set[int] | None,
        max_seconds: float, evaluation: str = "trained",
        threads: int = 1, weights: str = "", parallel: str = PARALLEL
        ) -> tuple[float, int, bool]:
    params = params_from_weights(load_weights(weights)) if weights else None
    engine = Engine(table_size=1 << table_bits, params=params, evaluation=evaluation,
                    threads=threads)
    engine.parallel = parallel
    idle = 0.0
    print(f"{'#':>3} {'empt':>4} {'move':>4} {'score':>5} {'want':>5} {'ok':>4} {'cpu s':>8} "
          f"{'wall s':>8} {'nodes':>14} {'Mn/s':>6}", flush=True)
    total = 0.0
    total_wall = 0.0
    nodes = 0
    all_ok = True
    for rec in read_obf(path):
        if only is not None and rec.index not in only:
            continue
        t0 = time.process_time()
        w0 = time.perf_counter()
        a = engine.solve(rec.board, mode, Limit(time=max_seconds))
        seconds = time.process_time() - t0
        wall = time.perf_counter() - w0
        total_wall += wall
        idle += engine.idle
        want = rec.best_score
        if not a.exact:
            ok = "STOP"
        elif want is None:
            ok = "ok"
        elif mode == "wld":
            ok = "ok" if a.score == (want > 0) - (want < 0) else "BAD"
        else:
            ok = "ok" if a.score == want and a.move in rec.best_moves else "BAD"
        all_ok &= ok == "ok"
        total += seconds
        nodes += a.nodes
        rate = a.nodes / seconds / 1e6 if seconds > 0 else 0.0
        print(f"{rec.index:>3} {rec.board.empties.bit_count():>4} {a.move!s:>4} "
              f"{a.score:>+5} {want if want is not None else 0:>+5} {ok:>4} {seconds:>8.2f} "
              f"{wall:>8.2f} {a.nodes:>14,} {rate:>6.1f}", flush=True)
    shared = f", idle {idle / threads / total_wall:.1%}" if threads > 1 and total_wall else ""
    print(f"total {path.name}: {total:.2f} cpu s, {total_wall:.2f} wall s ({threads} "
          f"thread{'s' if threads > 1 else ''}{shared}), {nodes:,} nodes, "
          f"{nodes / total / 1e6 if total else 0:.1f} M nodes/s, all ok: {all_ok}", flush=True)
    return total, nodes, all_ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--with-40-59", action="store_true", help="also solve #40-#59")
    parser.add_argument("--only-40-59", action="store_true", help="solve #40-#59 only")
    parser.add_argument("--wld", action="store_true", help="win/loss/draw instead of exact")
    parser.add_argument("--table-bits", type=int, default=22, help="log2 of the table rows")
    parser.add_argument("--positions", default="", help="comma-separated FFO numbers only")
    parser.add_argument("--max-seconds", type=float, default=1800.0,
                        help="stop a position after this many wall seconds")
    parser.add_argument("--eval", default="trained", choices=("trained", "hand"),
                        help="static evaluation (move ordering)")
    parser.add_argument("--without", default="",
                        help=f"features off: {', '.join(core.SEARCH_FEATURES)}")
    parser.add_argument("--threads", type=int, default=1, help="search threads")
    parser.add_argument("--parallel", default=PARALLEL, choices=WAYS,
                        help="how the threads share the search")
    parser.add_argument("--weights", default="", help="pattern weights file (train-eval)")
    args = parser.parse_args()
    try:  # the flags the engine passes to the kernel
        core.SEARCH_FLAGS = core.search_flags_without(args.without)
    except InvalidOptionError as exc:
        parser.error(f"--without: {exc}")
    t0 = time.process_time()
    Engine(table_size=1 << 10).solve(Board(
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"))
    warm("engine")  # the split search's entry points too (hasamigo._kernels.warm)
    print(f"warm-up (load compiled kernels): {time.process_time() - t0:.2f} cpu s; "
          f"flags {core.SEARCH_FLAGS}", flush=True)
    mode = "wld" if args.wld else "exact"
    files = [] if args.only_40_59 else ["fforum-20-39.obf"]
    if args.with_40_59 or args.only_40_59:
        files.append("fforum-40-59.obf")
    only = {int(x) for x in args.positions.split(",")} if args.positions else None
    for name in files:
        run(DATA / name, mode, args.table_bits, only, args.max_seconds, args.eval, args.threads,
            args.weights, args.parallel)


if __name__ == "__main__":
    main()
