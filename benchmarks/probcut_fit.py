"""Fit the midgame probable-cut error model: how far a shallow search's score lies from a
deeper one's, by depth and empties.

Samples positions from a WTHOR archive (one random ply per game, from ``--min-empties``
to ``--max-empties`` empties), scores each with full-width searches at depths 0 (the
static evaluation) to ``--depth``, and fits, for the pairs (deep ``d``, shallow
``probcut_depth(d)``) the search uses, ``sigma = a + b * empties + c * d`` (1/100 disc) to
the standard deviations of ``deep - shallow`` per (depth, stage of 10 empties). Prints the
per-group figures and the fitted constants for :mod:`hasamigo._kernels.search`.
``--random-games`` takes positions of random games after 10-30 plies instead (those of
``search.py``). Their spread is about twice the archive's: 150 positions each, seed 1,
``--min-empties 30 --max-empties 52`` for WTH_2010.wtb, sd of deep - shallow at 40-49
empties, d 8 / 9 / 10 / 11: random games 6.73 / 6.37 / 6.33 / 5.89 discs, WTHOR 3.48 /
3.08 / 3.21 / 2.51 (at 30-39: 7.74 / 7.19 / 7.30 / 6.54 against 4.18 / 3.75 / 3.12 /
3.04). The fitted model is the experts' (what the engine meets in real games); on random
positions its cuts are overconfident, as ``search.py --agree`` shows.

    .venv/bin/python benchmarks/probcut_fit.py [--archive WTH_2010.wtb] [--positions 300]
        [--depth 11] [--seed 1] [--random-games] [--save scores.npz | --load scores.npz]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from hasamigo import Board
from hasamigo._kernels.search import MPC_MIN_DEPTH, probcut_depth
from hasamigo.engine import Engine, Limit
from hasamigo.notation.record import play_move
from hasamigo.notation.wthor import read_wthor

WTHOR = Path(__file__).resolve().parents[2] / "shared" / "data" / "wthor"


def random_board(rng: random.Random, plies: int) -> Board:
    """The position after ``plies`` random moves from the start (or the game's end)."""
    board = Board()
    while board.ply < plies and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


def random_positions(n: int, rng: random.Random) -> list[Board]:
    """``n`` positions of random games after 10-30 plies, as ``search.py`` draws them,
    with a move to play."""
    out: list[Board] = []
    while len(out) < n:
        board = random_board(rng, rng.randint(10, 30))
        if not board.is_game_over() and board.legal_moves_mask():
            out.append(board)
    return out


def sample_positions(path: Path, n: int, lo: int, hi: int, rng: random.Random) -> list[Board]:
    games = [g for g in read_wthor(path) if g.problem is None]
    rng.shuffle(games)
    out: list[Board] = []
    for game in games:
        if len(out) >= n:
            break
        target = rng.randint(lo, hi)
        board = game.board()
        try:
            for number, move in enumerate(game.moves, 1):
                if board.empties.bit_count() <= target:
                    break
                play_move(board, move, number)
        except ValueError:
            continue
        if not board.is_game_over() and board.legal_moves_mask():
            out.append(board)
    return out


def collect(boards: list[Board], max_depth: int) -> np.ndarray:
    """``scores[i, d]``: position ``i`` searched ``d`` plies (full width)."""
    engine = Engine(table_size=1 << 20)
    scores = np.zeros((len(boards), max_depth + 1), dtype=np.int64)
    t0 = time.perf_counter()
    for i, board in enumerate(boards):
        engine.clear()
        scores[i, 0] = engine.evaluate(board)
        for d in range(1, max_depth + 1):
            scores[i, d] = engine.analyse(board, Limit(depth=d)).score
        if i % 25 == 24:
            print(f"  {i + 1} positions, {time.perf_counter() - t0:.0f} s", flush=True)
    return scores


def fit(scores: np.ndarray, empties: np.ndarray, max_depth: int) -> tuple[float, float, float]:
    rows = []
    print(f"{'d':>3} {'ds':>3} {'stage':>6} {'n':>4} {'mean':>6} {'sd':>6}")
    for d in range(MPC_MIN_DEPTH, max_depth + 1):
        ds = probcut_depth(d)
        err = scores[:, d] - scores[:, ds]
        for lo in range(10, 60, 10):
            sel = (empties >= lo) & (empties < lo + 10) & (empties > d)
            if sel.sum() < 15:
                continue
            sd = float(err[sel].std())
            rows.append((d, lo + 5, sd, int(sel.sum())))
            print(f"{d:>3} {ds:>3} {lo:>3}-{lo + 9:<2} {int(sel.sum()):>4} "
                  f"{float(err[sel].mean()):>+6.2f} {sd:>6.2f}")
    a = np.array([[1.0, e, d] for d, e, _, _ in rows])
    y = np.array([sd for _, _, sd, _ in rows])
    wts = np.sqrt(np.array([n for _, _, _, n in rows], dtype=np.float64))
    coef, *_ = np.linalg.lstsq(a * wts[:, None], y * wts, rcond=None)
    return float(coef[0]), float(coef[1]), float(coef[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", default="WTH_2010.wtb")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--depth", type=int, default=11)
    parser.add_argument("--min-empties", type=int, default=14)
    parser.add_argument("--max-empties", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random-games", action="store_true",
                        help="positions of random games (search.py's), not the archive's")
    parser.add_argument("--save", default=None)
    parser.add_argument("--load", default=None)
    args = parser.parse_args()
    if args.load:
        data = np.load(args.load)
        scores, empties = data["scores"], data["empties"]
    else:
        rng = random.Random(args.seed)
        if args.random_games:
            boards = random_positions(args.positions, rng)
        else:
            boards = sample_positions(WTHOR / args.archive, args.positions, args.min_empties,
                                      args.max_empties, rng)
        empties = np.array([b.empties.bit_count() for b in boards], dtype=np.int64)
        source = "random games" if args.random_games else args.archive
        print(f"{len(boards)} positions from {source}, depths 0-{args.depth}")
        scores = collect(boards, args.depth)
        if args.save:
            np.savez(args.save, scores=scores, empties=empties)
    max_depth = scores.shape[1] - 1
    a, b, c = fit(scores, empties, max_depth)
    print(f"sigma (1/100 disc) = {100 * a:.0f} + {100 * b:.1f} * empties + {100 * c:.1f} * depth")


if __name__ == "__main__":
    main()
