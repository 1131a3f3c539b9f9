"""Speed of the wide engine (:mod:`hasamigo._kernels.wide_search`) on Grand Othello:
nodes per second at a fixed depth from a few midgame positions, and the depth each
``engine:N`` level's search reaches in a second.

    PYTHONPATH=src python benchmarks/wide.py [--depth 9]
"""

from __future__ import annotations

import argparse
import random
import time

from hasamigo import find_variant
from hasamigo.board import Board
from hasamigo.engine import Engine, Limit


def positions(count: int, empties: int, seed: int = 2024) -> list[Board]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = find_variant("grand")()
        while board.empties.bit_count() > empties and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over():
            out.append(board)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=9)
    args = parser.parse_args()
    boards = positions(5, 70)
    engine = Engine(table_size=1 << 20)
    engine.analyse(boards[0], Limit(depth=2))  # compile / load the kernels
    nodes, cpu = 0, 0.0
    for board in boards:
        engine.clear()
        t0 = time.process_time()
        a = engine.analyse(board, Limit(depth=args.depth))
        cpu += time.process_time() - t0
        nodes += a.nodes
    print(f"grand, depth {args.depth}, {len(boards)} positions at 70 empties: {nodes} nodes, "
          f"{cpu:.2f} cpu s, {nodes / cpu:,.0f} nodes/s")
    depths = []
    for board in boards:
        engine.clear()
        depths.append(engine.analyse(board, Limit(time=1.0)).depth)
    print(f"depth reached in 1 s (Limit(time=1)): {depths}")


if __name__ == "__main__":
    main()
