"""Swiss pairing speed: a 200-player tournament, every round paired and timed.

    .venv/bin/python benchmarks/tournament_pairing.py [PLAYERS] [ROUNDS] [SEED]

(defaults 200, 7, 1). Results are random cards (about 3% draws), so every round has the
score groups, floats, colour histories and rematch constraints of a real one. Each
round's time is the whole of ``Tournament.pair_next_round``: the standings with
Brightwell points, the candidates, the weighted matching and the explanations. CPU time
(``time.process_time``), not wall time: the machine is shared. The target is under 2 s
a round for 200 players.
"""

from __future__ import annotations

import platform
import random
import sys
import time

from hasamigo.tournament import Settings, Tournament
from hasamigo.tournament.model import PairingKind


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed)
    t = Tournament(Settings("swiss", rounds=rounds, seed=seed))
    for i in range(players):
        t.register(f"P{i:03d}", rank=rng.choice([None, "1k", "1d", "3d", "5d"]),
                   seed=i < 2)
    print(f"Swiss pairing, {players} players, {rounds} rounds — "
          f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{'round':>5} {'cpu s':>8} {'floats':>16} {'rematches':>9} {'colour breaks':>13}")
    worst = 0.0
    for number in range(1, rounds + 1):
        start = time.process_time()
        pairings = t.pair_next_round()
        seconds = time.process_time() - start
        worst = max(worst, seconds)
        matching = next((d.text for p in pairings for d in p.why if d.rule == "matching"), "")
        floats = matching.split("floats: ")[1].split(" win")[0] if "floats: " in matching \
            else "none"
        rematches = 0 if "no rematch" in matching else matching.count("rematch")
        breaks = matching.split("colour rule breaks: ")[1].split(",")[0] \
            if "breaks: " in matching else "0"
        print(f"{number:>5} {seconds:>8.3f} {floats:>16} {rematches:>9} {breaks:>13}")
        for p in pairings:
            if p.kind is PairingKind.GAME:
                black = rng.randint(0, 64)
                if rng.random() < 0.03:
                    black = 32
                t.enter_result(number, p.board, black_discs=black, white_discs=64 - black)
    print(f"slowest round: {worst:.3f} s (target: under 2 s)")


if __name__ == "__main__":
    main()
