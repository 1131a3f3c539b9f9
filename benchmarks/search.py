"""Midgame search speed: fixed-depth searches of positions from seeded random games.

Prints per position the depth, score, CPU seconds (``time.process_time``), nodes and
nodes per CPU second, then totals.

    .venv/bin/python benchmarks/search.py [--depth 10] [--positions 10] [--seed 1]
        [--eval trained|hand] [--without etc] [--selectivity K [--agree]]

``--without`` switches search features off (flags of :mod:`hasamigo._kernels.search`).
``--selectivity`` turns the midgame's probable cuts on (1-4, see ``Engine.analyse``);
``--agree`` then also searches each position full width (not timed) and counts the
positions where the two agree on the score and on the move.
"""

from __future__ import annotations

import argparse
import random
import time

import hasamigo.engine.core as core
from hasamigo import Board
from hasamigo.engine import Engine, Limit
from hasamigo.errors import InvalidOptionError

POSITIONS = 10
SEED = 1


def random_board(rng: random.Random, plies: int) -> Board:
    board = Board()
    while board.ply < plies and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


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
    args = parser.parse_args()
    try:  # the flags the engine passes to the kernel
        core.SEARCH_FLAGS = core.search_flags_without(args.without)
    except InvalidOptionError as exc:
        parser.error(f"--without: {exc}")
    rng = random.Random(args.seed)
    engine = Engine(table_size=1 << 20, evaluation=args.eval)
    engine.analyse(Board(), Limit(depth=2))  # load the compiled kernels
    total_t = 0.0
    total_n = 0
    same_score = same_move = compared = 0
    diffs: list[int] = []
    for i in range(args.positions):
        board = random_board(rng, rng.randint(10, 30))
        if board.is_game_over():
            continue
        engine.clear()
        t0 = time.process_time()
        a = engine.analyse(board, Limit(depth=args.depth), selectivity=args.selectivity)
        t = time.process_time() - t0
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
    print(f"total: {total_t:.2f} cpu s, {total_n:,} nodes, "
          f"{total_n / total_t / 1e6 if total_t else 0:.1f} M nodes/s")
    if compared:
        near = sum(x <= 2 for x in diffs)
        print(f"agrees with full width: score {same_score}/{compared} (within 2 discs "
              f"{near}/{compared}, mean difference {sum(diffs) / compared:.2f}), "
              f"move {same_move}/{compared}")


if __name__ == "__main__":
    main()
