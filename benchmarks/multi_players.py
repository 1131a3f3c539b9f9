"""The multi-player programs measured against each other (not a timed test).

    PYTHONPATH=src .venv/bin/python benchmarks/multi_players.py [--games 200] [--depth 3]
                                                                [--game rolit] [--seed 0]

Two matches of ``--games`` four-player games each: paranoid against max-n (two seats
each; ``--maxn-depth`` gives max-n another depth), and the search offered by default
(max-n) against three Greedy seats (``--only`` runs one of them). The programs' places go
through every arrangement in turn and the first colour to move turns round the table, so
no program keeps a seat. A seat's share of a game is 1 for a sole first place, 1/k for a
first place shared by k; the table gives each program's share of the games won, its mean
rank and discs, and its time a move.

Measured for issue 53 (seed 0, AMD EPYC, 2 cores shared with four other jobs; the runs
took 684 s, 787 s and 270 s, the first with paranoid:3 against Greedy in place of
max-n):

    rolit: paranoid:3 vs maxn:3 (2 seats each)
      paranoid:3  wins  43.8%  mean rank 2.50  mean discs 15.7    32.7 ms/move
      maxn:3      wins  56.2%  mean rank 2.40  mean discs 16.3    72.7 ms/move
    rolit: paranoid:3 vs greedy (1 seat against 3)
      paranoid:3  wins  68.8%  mean rank 1.50  mean discs 25.1    15.3 ms/move
      greedy      wins  31.2%  mean rank 2.75  mean discs 13.0     0.2 ms/move
    rolit: paranoid:4 vs maxn:3 (2 seats each)         (--depth 4 --maxn-depth 3)
      paranoid:4  wins  56.5%  mean rank 2.34  mean discs 16.8    99.5 ms/move
      maxn:3      wins  43.5%  mean rank 2.54  mean discs 15.2    31.5 ms/move
    rolit: maxn:3 vs greedy (1 seat against 3)          (--only greedy)
      maxn:3      wins  65.8%  mean rank 1.50  mean discs 24.7    87.5 ms/move
      greedy      wins  34.2%  mean rank 2.78  mean discs 13.1     0.5 ms/move

The times depend on the machine's load (max-n:3 took 73 and 32 ms a move in two runs):
compare them within a match only. What the figures decided is in
``hasamigo.engine.multi_players``'s docstring.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import defaultdict
from dataclasses import dataclass, field

from hasamigo.engine.multi_players import make_multi_player
from hasamigo.multi import MultiBoard


@dataclass
class Tally:
    wins: float = 0.0
    seats: int = 0
    ranks: int = 0
    discs: int = 0
    moves: int = 0
    seconds: float = 0.0
    games: set[int] = field(default_factory=set)


def match(game: str, specs: list[str], games: int, seed: int) -> dict[str, Tally]:
    """``games`` four-player games of ``specs`` (one per seat), the arrangement and the
    first colour turned round from game to game."""
    arrangements = sorted(set(itertools.permutations(specs)))
    tallies: dict[str, Tally] = defaultdict(Tally)
    for g in range(games):
        order = arrangements[g % len(arrangements)]
        board = MultiBoard(game, players=4, first=(g // len(arrangements)) % 4)
        players = {colour: make_multi_player(spec, seed=seed * 100_000 + g * 4 + colour)
                   for colour, spec in zip(board.seats, order, strict=True)}
        spent: dict[int, float] = defaultdict(float)
        made: dict[int, int] = defaultdict(int)
        while not board.is_game_over():
            colour = board.turn
            start = time.perf_counter()
            move = players[colour].choose(board)
            spent[colour] += time.perf_counter() - start
            made[colour] += 1
            board.play(move)
        standings = board.standings()
        firsts = [s.colour for s in standings if s.rank == 1]
        for s in standings:
            tally = tallies[order[board.seats.index(s.colour)]]
            tally.seats += 1
            tally.ranks += s.rank
            tally.discs += s.discs
            tally.moves += made[s.colour]
            tally.seconds += spent[s.colour]
            tally.games.add(g)
            if s.colour in firsts:
                tally.wins += 1 / len(firsts)
    return tallies


def report(title: str, tallies: dict[str, Tally], games: int) -> None:
    print(title)
    for spec, t in tallies.items():
        print(f"  {spec:<11} wins {100 * t.wins / games:5.1f}%  mean rank "
              f"{t.ranks / t.seats:4.2f}  mean discs {t.discs / t.seats:4.1f}  "
              f"{1000 * t.seconds / max(t.moves, 1):6.1f} ms/move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--maxn-depth", type=int, help="max-n's depth (default: --depth)")
    parser.add_argument("--only", choices=("versus", "greedy"),
                        help="only paranoid against max-n, or only the search against greedy")
    parser.add_argument("--game", default="rolit")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    paranoid = f"paranoid:{args.depth}"
    maxn = f"maxn:{args.maxn_depth or args.depth}"
    start = time.perf_counter()
    if args.only != "greedy":
        report(f"{args.game}: {paranoid} vs {maxn} (2 seats each)",
               match(args.game, [paranoid, paranoid, maxn, maxn], args.games, args.seed),
               args.games)
    if args.only != "versus":
        report(f"{args.game}: {maxn} vs greedy (1 seat against 3)",
               match(args.game, [maxn, "greedy", "greedy", "greedy"], args.games, args.seed),
               args.games)
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
