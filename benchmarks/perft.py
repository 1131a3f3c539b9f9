"""Perft speed from the standard start: leaves per CPU second, one core, bulk counting.

    .venv/bin/python benchmarks/perft.py [MAX_DEPTH]    (default 12; depths 9..MAX_DEPTH)

CPU time (``time.process_time``), not wall time: the machine is shared. The counts are
checked against the reference table, so a fast wrong kernel cannot report a figure.
"""

from __future__ import annotations

import csv
import platform
import sys
import time
from pathlib import Path

from hasamigo import Board

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "data" / "perft.csv"


def expected_counts() -> dict[int, int]:
    with TABLE.open() as f:
        return {int(row["depth"]): int(row[list(row)[1]]) for row in csv.DictReader(f)}


def main() -> None:
    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    expected = expected_counts() if TABLE.exists() else {}
    board = Board()
    board.perft(1)  # load or compile the kernel before timing
    print(
        f"perft from the start — {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}"
    )
    print(f"{'depth':>5} {'leaves':>16} {'cpu s':>9} {'M leaves/s':>11}  check")
    for depth in range(9, max_depth + 1):
        start = time.process_time()
        leaves = board.perft(depth)
        seconds = time.process_time() - start
        check = (
            "ok"
            if expected.get(depth) == leaves
            else ("?" if depth not in expected else f"WRONG (expected {expected[depth]})")
        )
        print(f"{depth:>5} {leaves:>16,} {seconds:>9.3f} {leaves / seconds / 1e6:>11.1f}  {check}")
        if check.startswith("WRONG"):
            sys.exit(1)


if __name__ == "__main__":
    main()
