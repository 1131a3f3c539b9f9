"""Time use on a clock: every program against ``random`` at 1, 5 and 20 minutes a side.

For each program (engine levels 1..10, victory, amusement, entertainer, weakest) and each
clock it plays one game as Black against ``random`` on a real clock over the real time,
charged from the offer of the turn to the move as :func:`hasamigo.tournament.match.play_game`
charges it, and prints the program's seconds per move (mean, max), the total it used, the
least time it had left after a move, and whether its flag fell. ``--moves N`` stops after
the program's N-th move (to sample a long clock's opening); ``--opponent`` replaces
``random`` (against random most games are decided early and the searches get easy; a
stronger opponent keeps the positions balanced); the kernels are loaded first.

    .venv/bin/python benchmarks/time_use.py [--minutes 1,5,20] [--programs engine:10,victory]
        [--opponent random] [--moves N] [--seed S] [--json]
    .venv/bin/python benchmarks/time_use.py --overshoot [--searches 200]

``--overshoot`` measures how late a search stopped by its budget's hard limit returns
(:data:`hasamigo.engine.timing.STOP_SECONDS` is set from it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from hasamigo import BLACK, PASS, Board
from hasamigo.engine import MAX_LEVEL, Engine, Limit
from hasamigo.engine.players import make_player
from hasamigo.engine.timing import Budget
from hasamigo.game.clock import Clock
from hasamigo.notation.wthor import read_wthor
from hasamigo.tournament.match import warm_up

PROGRAMS = [*(f"engine:{n}" for n in range(1, MAX_LEVEL + 1)), "victory", "amusement",
            "entertainer", "weakest"]
WTHOR = Path(__file__).resolve().parent.parent / "tests" / "data" / "wthor"


@dataclass
class Row:
    program: str
    minutes: float
    moves: int
    mean: float
    max: float
    used: float
    min_left: float
    time_loss: bool
    complete: bool  # the game was played to its end (not cut by --moves or a flag)


def play(spec: str, minutes: float, seed: int, max_moves: int | None,
         opponent: str = "random") -> Row:
    """One game of ``spec`` (Black) against ``opponent`` on ``minutes`` a side."""
    me = make_player(spec, seed=seed)
    other = make_player(opponent, seed=seed + 1)
    board = Board()
    clock = Clock(minutes * 60.0)
    clock.start(board.turn)
    used: list[float] = []
    lost = False
    left = minutes * 60.0
    while not board.is_game_over():
        color = board.turn
        player = me if color is BLACK else other
        move = player.choose(board, Clock.from_state(clock.state()))
        seconds = clock.press(color)
        if color is BLACK:
            used.append(seconds)
            left = min(left, clock.remaining(BLACK))
            if clock.remaining(BLACK) <= 0:
                lost = True
                break
        board.push(move)
        if max_moves is not None and len(used) >= max_moves:
            break
    return Row(spec, minutes, len(used), statistics.fmean(used) if used else 0.0,
               max(used, default=0.0), sum(used), left, lost, board.is_game_over())


def overshoot(searches: int, seed: int) -> None:
    """Midgame positions from a WTHOR file, each searched with a hard stop of 10-300 ms."""
    source = next(iter(sorted(WTHOR.glob("*.wtb"))), None)
    if source is None:
        raise SystemExit(f"no WTHOR file in {WTHOR}")
    records = list(read_wthor(source))
    rng = random.Random(seed)
    engine = Engine(table_size=1 << 16)
    engine.analyse(Board(), Limit(depth=3))
    late: list[float] = []
    while len(late) < searches:
        record = rng.choice(records)
        board = record.board()
        for move in record.moves[:rng.randint(10, 40)]:
            if board.is_game_over():
                break
            if not board.legal_moves_mask():
                board.push(PASS)
            board.push(move)
        if board.is_game_over() or not board.legal_moves_mask():
            continue
        hard = rng.choice([0.01, 0.03, 0.1, 0.3])
        started = time.perf_counter()
        engine.analyse(board, Limit(depth=64), budget=Budget(hard, hard))
        late.append(time.perf_counter() - started - hard)
    late.sort()
    print(f"{searches} searches stopped at 10-300 ms: returned late by median "
          f"{1000 * statistics.median(late):.1f} ms, 90% {1000 * late[int(0.9 * len(late))]:.1f}"
          f" ms, max {1000 * late[-1]:.1f} ms (negative: finished early)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", default="1,5,20")
    parser.add_argument("--programs", default=",".join(PROGRAMS))
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--moves", type=int, default=None,
                        help="stop after the program's N-th move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--overshoot", action="store_true")
    parser.add_argument("--searches", type=int, default=200)
    args = parser.parse_args()
    if args.overshoot:
        overshoot(args.searches, args.seed)
        return
    programs = [p.strip() for p in args.programs.split(",") if p.strip()]
    clocks = [float(m) for m in args.minutes.split(",")]
    for spec in [*programs, args.opponent]:
        warm_up(spec)
    rows = []
    if not args.json:
        print(f"{'program':<12} {'min':>4} {'moves':>5} {'mean s':>7} {'max s':>7} "
              f"{'used s':>7} {'min left':>8} {'flag':>4}", flush=True)
    for minutes in clocks:
        for spec in programs:
            row = play(spec, minutes, args.seed, args.moves, args.opponent)
            rows.append(row)
            if not args.json:
                cut = "" if row.complete or row.time_loss else " (sampled)"
                print(f"{row.program:<12} {row.minutes:>4g} {row.moves:>5} {row.mean:>7.3f} "
                      f"{row.max:>7.3f} {row.used:>7.2f} {row.min_left:>8.2f} "
                      f"{'LOST' if row.time_loss else 'ok':>4}{cut}", flush=True)
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))


if __name__ == "__main__":
    main()
