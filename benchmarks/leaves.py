"""The shallow solvers alone: nodes per CPU second at the last empties, no table, no frames.

Positions come from seeded random play out of FFO #40-#59 down to ``--empties`` (1-7),
each with a null window just below a random even score (exact scores are even); one
compiled loop solves them all ``--reps`` times (``solve_small``, as the search calls it),
best of ``--rounds``. The
memory traffic of a whole solve (the table) is left out, so on a shared machine this
varies far less than ``benchmarks/ffo.py``: use it to compare two versions of the
solvers side by side, and the FFO runs for the whole effect.

    .venv/bin/python benchmarks/leaves.py [--empties 7] [--positions 3000] [--reps 100]
        [--rounds 7] [--seed 1] [--against OLD_ENDGAME.py]

With ``--against`` another version of ``hasamigo/_kernels/endgame.py`` (for instance
``git show HEAD~1:src/hasamigo/_kernels/endgame.py > /tmp/old_endgame.py``) is loaded
beside this tree's and the two are timed in the same process, round by round in turns
(the first alternating): on a VM whose speed drifts from second to second this resolves
a few per cent where two processes side by side do not. It prints both (best and median)
and the ratio of the medians.

The checksum (sum of the scores) is printed to show the same work was done; it changes
when a solver returns another fail-soft bound (a different, still correct, value).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from hasamigo._kernels import config as kernel_config
from hasamigo._kernels.bits import popcount
from hasamigo._kernels.endgame import SHALLOW_MAX, solve_small
from hasamigo._kernels.moves import flips_at, legal_moves_mask
from hasamigo.engine import read_obf

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "ffo"
ALL = (1 << 64) - 1


def _moves(p: int, o: int) -> int:
    return int(legal_moves_mask(np.uint64(p), np.uint64(o), np.uint64(ALL)))


def positions(count: int, empties: int, seed: int) -> list[tuple[int, int, int]]:
    """``count`` (player, opponent, alpha) with ``empties`` empty squares and a move for
    one side at least, by random play from FFO #40-#59."""
    rng = random.Random(seed)
    starts = [r.board.pair() for r in read_obf(DATA / "fforum-40-59.obf")]
    found: list[tuple[int, int, int]] = []
    while len(found) < count:
        p, o = rng.choice(starts)
        while True:
            if (ALL & ~(p | o)).bit_count() == empties:
                if _moves(p, o) or _moves(o, p):
                    found.append((p, o, 2 * rng.randrange(-6, 7) - 1))
                break
            m = _moves(p, o)
            if not m:
                if not _moves(o, p):
                    break  # the game ended first
                p, o = o, p
                continue
            sq = rng.choice([i for i in range(64) if m >> i & 1])
            f = int(flips_at(np.uint64(p), np.uint64(o), sq))
            p, o = o ^ f, p ^ f ^ (1 << sq)
    return found


def solve_loop(solver: Callable[..., Any]) -> Any:
    """One compiled loop solving every position ``reps`` times with ``solver`` (a
    ``solve_small``); it returns the sum of the scores and the nodes."""

    @njit
    def solve_all(ps, os, alphas, reps):  # type: ignore[no-untyped-def]
        checksum = 0
        nodes = 0
        for _ in range(reps):
            for i in range(ps.shape[0]):
                p = ps[i]
                o = os[i]
                empty = ~(p | o)
                v, k = solver(p, o, alphas[i], alphas[i] + 1, empty, popcount(empty))
                checksum += v
                nodes += k
        return checksum, nodes

    return solve_all


#: the option sets of :mod:`hasamigo._kernels.config` (each another version may import)
KERNEL_OPTIONS = ("NJIT", "NJIT_INLINE", "NJIT_LLVM_INLINE")


def load_solver(path: Path) -> Callable[..., Any]:
    """``solve_small`` of another version's ``endgame.py`` (its imports from this tree)."""
    if not path.is_file():
        raise ValueError(f"--against: no file {path}")
    spec = importlib.util.spec_from_file_location("leaves_against_endgame", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"--against: {path} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    # compiled afresh, not cached: numba cannot load a module's kernels back from its
    # cache when the module was not imported by name (its factory's kernels are saved
    # under '<dynamic>'), and a stale entry would time another version
    saved = {name: getattr(kernel_config, name) for name in KERNEL_OPTIONS
             if hasattr(kernel_config, name)}
    for name, options in saved.items():
        setattr(kernel_config, name, {**options, "cache": False})
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # any error of the other version's module, named
        raise ValueError(f"--against: {path} failed to load: {exc}") from exc
    finally:
        for name, options in saved.items():
            setattr(kernel_config, name, options)
    solver = getattr(module, "solve_small", None)
    if solver is None:
        raise ValueError(f"--against: {path} has no solve_small")
    return solver  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--empties", type=int, default=7, help=f"1 to {SHALLOW_MAX}")
    parser.add_argument("--positions", type=int, default=3000)
    parser.add_argument("--reps", type=int, default=100, help="solves of each position a round")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (the best is shown)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", type=Path, default=None,
                        help="another version's endgame.py, timed in turns with this tree's")
    args = parser.parse_args()
    if not 1 <= args.empties <= SHALLOW_MAX:
        parser.error(f"--empties must be 1 to {SHALLOW_MAX}")
    if args.positions < 1 or args.reps < 1 or args.rounds < 1:
        parser.error("--positions, --reps and --rounds must be at least 1")
    loops = [solve_loop(solve_small)]
    if args.against is not None:
        try:
            loops.append(solve_loop(load_solver(args.against)))
        except ValueError as exc:
            parser.error(str(exc))
    found = positions(args.positions, args.empties, args.seed)
    ps = np.array([x[0] for x in found], dtype=np.uint64)
    os_ = np.array([x[1] for x in found], dtype=np.uint64)
    alphas = np.array([x[2] for x in found], dtype=np.int64)
    for loop in loops:
        loop(ps, os_, alphas, 1)  # compile (or load) before timing
    times: list[list[float]] = [[] for _ in loops]
    sums = [(0, 0) for _ in loops]
    for r in range(args.rounds):
        turn = range(len(loops)) if r % 2 == 0 else reversed(range(len(loops)))
        for i in turn:
            started = time.process_time()
            sums[i] = loops[i](ps, os_, alphas, args.reps)
            times[i].append(time.process_time() - started)
    checksum, nodes = sums[0]
    best = min(times[0])
    print(f"{args.empties} empties, {len(found)} positions x {args.reps}: {nodes:,} nodes, "
          f"best {best:.3f} cpu s, {nodes / best / 1e6:.1f} M nodes/s, checksum {checksum}")
    if args.against is not None:
        other_sum, other_nodes = sums[1]
        median = statistics.median(times[0])
        other = statistics.median(times[1])
        print(f"against {args.against}: {other_nodes:,} nodes, best {min(times[1]):.3f} cpu s, "
              f"checksum {other_sum}; medians {median:.3f} (this tree) and {other:.3f}: "
              f"ratio {median / other:.3f}")


if __name__ == "__main__":
    main()
