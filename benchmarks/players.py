"""Targets report for the players (not a timed test).

    .venv/bin/python benchmarks/players.py [--strong engine:8] [--match-games 100]
                                           [--study-games 30] [--jobs 2] [--seed 0]
                                           [--only match|study]

About 15 minutes on the shared 2-core machine (engine:8 over 100 games ~11 min; the study
at 30 games per pair ~4 min). Measured (2 cores, loaded machine): with the hand-set
evaluation engine:6 won only 85% of 100 games against victory, engine:8 96%; with the
trained evaluation engine:8 won 100-0-0 (1300 s with --jobs 1). The study, seed 11
(``hasamigo study simulate --seed 11``): against entertainer, 200 games per member, random
54.5%, greedy 53.8%, weighted1 49.0%, noisy2 50.2%, no violations (about 1.5 s a game); 50
games per pair against victory 0 / 0 / 6 / 2% and amusement 2 / 9 / 36 / 23% — the panel
mean against amusement, 17.5%, misses the 30-70% target (see issue 4's closing note).

Targets (issue 15 replaced the older 30-70% one): the strong engine beats ``victory`` in at
least 95% of the games; every member of the simulated weak panel scores better against
``amusement`` than against ``victory`` (the paper's claim is a direction; a one-sided
Fisher test per member, ``hasamigo study simulate`` prints it), and 45-55% against
``entertainer``, with no naturalness violations by the entertainer. The figures above
predate that issue's beginner member and its retuned entertainer (its closing note has
the new ones).
The match uses the XOT sample openings of ``tests/data`` (each twice, colours swapped).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from hasamigo.engine.players import player_spec
from hasamigo.jobs import LocalBackend
from hasamigo.jobs.games import match_player, study_player
from hasamigo.study.simulate import simulate
from hasamigo.tournament.match import read_openings, run_match

TARGETS = {"victory": (0.0, 10.0), "amusement": (30.0, 70.0), "entertainer": (45.0, 55.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strong", default="engine:8")
    parser.add_argument("--match-games", type=int, default=100)
    parser.add_argument("--study-games", type=int, default=30)
    parser.add_argument("--only", choices=("match", "study"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    if args.only != "study":
        strong_vs_victory(args)
    if args.only != "match":
        study(args)


def strong_vs_victory(args: argparse.Namespace) -> None:
    openings = read_openings(Path(__file__).parent.parent / "tests/data/xot-sample.txt")
    start = time.perf_counter()
    summary = run_match(player_spec(args.strong), player_spec("victory"), args.match_games,
                        seed=args.seed, openings=openings,
                        play=match_player(LocalBackend(args.jobs)))
    ok = summary.a_score_pct >= 95.0
    print(f"{args.strong} vs victory: {summary.a_wins}-{summary.draws}-{summary.b_wins} "
          f"({summary.a_score_pct:.1f}%, target >= 95%) {'OK' if ok else 'MISSED'} "
          f"[{time.perf_counter() - start:.0f} s]")


def study(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    rows = simulate(args.study_games, seed=args.seed, play=study_player(LocalBackend(args.jobs)))
    print(f"\nstudy, {args.study_games} games per pair [{time.perf_counter() - start:.0f} s]")
    print(f"{'player':<10} {'program':<12} {'games':>5} {'win %':>6} {'violations':>10}  target")
    for r in rows:
        low, high = TARGETS[r.program]
        hit = low <= r.player_win_pct <= high
        if r.program == "entertainer":
            hit = hit and r.naturalness_violations == 0
        print(f"{r.player:<10} {r.program:<12} {r.games:>5} {r.player_win_pct:>6.1f} "
              f"{r.naturalness_violations:>10}  {low:.0f}-{high:.0f}% {'OK' if hit else 'MISSED'}")


if __name__ == "__main__":
    main()
