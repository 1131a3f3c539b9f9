"""Midgame search speed: fixed-depth searches of positions from random or WTHOR games.

Prints per position the depth, score, CPU seconds (``time.process_time``), wall seconds,
nodes and nodes per CPU second, then totals. ``--threads`` shares each search out (see
:mod:`hasamigo.engine.parallel`): the wall seconds show the speed-up, the nodes against
one thread's the search overhead.

    .venv/bin/python benchmarks/search.py [--depth 10] [--positions 10] [--seed 1]
        [--eval trained|hand] [--without etc] [--selectivity K [--agree]]
        [--archive WTH_2010.wtb] [--threads 2 [--parallel abdada|split|lazy|root]]

``--without`` switches search features off (flags of :mod:`hasamigo._kernels.search`).
``--selectivity`` turns the midgame's probable cuts on (1-4, see ``Engine.analyse``);
``--agree`` then also searches each position full width (not timed) and counts the
positions where the two agree on the score and on the move.

The positions come from seeded random games (10-30 plies), or with ``--archive`` from the
games of a WTHOR archive (a path, or a file name in ``../shared/data/wthor``; one random
ply per game, 30-50 empties, as ``probcut_fit.py`` samples them). The two differ: the
deep - shallow spread the probable cuts are fitted to (``probcut_fit.py``, expert games)
is about half what it is in random games, so the cuts err more often on the random
positions. Depth 12, selectivity 3, 30 positions each (Zen 3 2-core VM): random games
1.41 cpu s, the same score as full width on 18/30 (27/30 within 2 discs, the same move
25/30); WTH_2010.wtb 1.15 cpu s, 29/30 (30/30, 30/30). Selectivity 4: 2.21 s, 23/30;
1.69 s, 30/30. On the default 10 random positions selectivity 3 agrees on 4/10 (8/10
within 2 discs).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from probcut_fit import (  # this directory: run as a script
    WTHOR,
    random_positions,
    sample_positions,
)

import hasamigo.engine.core as core
from hasamigo import Board
from hasamigo.engine import Engine, Limit
from hasamigo.engine.core import PARALLEL
from hasamigo.engine.parallel import WAYS
from hasamigo.errors import HasamigoError, InvalidOptionError

POSITIONS = 10
SEED = 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--positions", type=int, default=POSITIONS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--eval", default="trained", choices=("trained", "hand"),
                        help="static evaluation")
    parser.add_argument("--without", default="",
                        help=f"features off: {', '.join(core.SEARCH_FEATURES)}")
    parser.add_argument("--selectivity", type=int, default=0)
    parser.add_argument("--agree", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--parallel", default=PARALLEL, choices=WAYS)
    parser.add_argument("--archive", default=None,
                        help="positions from this WTHOR archive (a path, or a name in the "
                        "reference data's wthor directory), not random games")
    args = parser.parse_args()
    try:  # the flags the engine passes to the kernel
        core.SEARCH_FLAGS = core.search_flags_without(args.without)
    except InvalidOptionError as exc:
        parser.error(f"--without: {exc}")
    rng = random.Random(args.seed)
    if args.archive is not None:
        path = Path(args.archive)  # a path, else a name in the reference data
        if not path.is_file():
            path = WTHOR / args.archive
        if not path.is_file():
            parser.error(f"--archive: no file {args.archive} here or in {WTHOR}")
        try:
            boards = sample_positions(path, args.positions, 30, 50, rng)
        except HasamigoError as exc:  # not a WTHOR archive
            parser.error(f"--archive: {exc}")
    else:
        boards = random_positions(args.positions, rng)
    engine = Engine(table_size=1 << 20, evaluation=args.eval, threads=args.threads)
    engine.parallel = args.parallel
    engine.analyse(Board(), Limit(depth=2))  # load the compiled kernels
    total_t = 0.0
    total_w = 0.0
    total_n = 0
    same_score = same_move = compared = 0
    diffs: list[int] = []
    for i, board in enumerate(boards):  # each has a move to play
        engine.clear()
        t0 = time.process_time()
        w0 = time.perf_counter()
        a = engine.analyse(board, Limit(depth=args.depth), selectivity=args.selectivity)
        t = time.process_time() - t0
        total_w += time.perf_counter() - w0
        total_t += t
        total_n += a.nodes
        full = ""
        if args.agree:
            engine.clear()
            f = engine.analyse(board, Limit(depth=args.depth))
            compared += 1
            same_score += f.score == a.score
            same_move += f.move == a.move
            diffs.append(abs(f.score - a.score))
            full = f"  full width: {f.move!s:>4} {f.score:>+4}"
        print(f"{i:>3} empties {board.empties.bit_count():>2} depth {a.depth:>2} "
              f"move {a.move!s:>4} score {a.score:>+4} {t:>7.2f} cpu s {a.nodes:>12,} nodes "
              f"{a.nodes / t / 1e6 if t else 0:>6.1f} M/s{full}")
    print(f"total: {total_t:.2f} cpu s, {total_w:.2f} wall s ({args.threads} thread(s)), "
          f"{total_n:,} nodes, "
          f"{total_n / total_t / 1e6 if total_t else 0:.1f} M nodes/s")
    if compared:
        near = sum(x <= 2 for x in diffs)
        print(f"agrees with full width: score {same_score}/{compared} (within 2 discs "
              f"{near}/{compared}, mean difference {sum(diffs) / compared:.2f}), "
              f"move {same_move}/{compared}")


if __name__ == "__main__":
    main()
