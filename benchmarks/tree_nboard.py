"""Another tree's engine as an NBoard engine, to play it with ``hasamigo match`` on a clock.

The NBoard engine of :mod:`hasamigo.engine.protocols.nboard` came late: a tree from
before it (the commit before issue 16, ``fe57b88``) cannot be an ``nboard:`` player. This
script needs nothing of the tree it runs in but what older trees have too (``Board``,
``make_player``, ``Clock``, ``parse_ggf``), so, run with the other tree's ``src`` first
on the path, it plays that tree's ``engine:LEVEL`` over NBoard protocol 2 (``set game``,
``ping``, ``go``):

    git worktree add /tmp/old fe57b88 --detach
    hasamigo match engine:8 "nboard:env PYTHONPATH=/tmp/old/src NUMBA_CACHE_DIR=/tmp/old/.nb \\
        .venv/bin/python benchmarks/tree_nboard.py --seconds 3" \\
        --openings xot.txt --games 100 --clock 0.05 --jobs 1

With ``--seconds S`` (the match's ``--clock`` in seconds) it plays on a clock of its own:
S seconds a game less the time it took for each of its moves, from ``go`` to its answer.
The game's ``TI`` is whole seconds, too coarse for a clock of a few seconds. Its own clock
leaves out only the pipe between the processes and the reading of the game (about a
millisecond), which the match's clock charges it, so it can only err towards using more
time than it has (a loss on time, which the match reports). Without ``--seconds`` it
plays at the level's depths, with no clock. A game it cannot read or play gets ``status
error: set game refused: …`` (the match then stops, naming the engine and that line).
It loads its kernels before it reads a line, so the first game's clock does not pay for
that (the match does start the clock before the process has started).

Figures (2-core Zen 5 VM, one core for the match, 100 games: the first 50 openings of
``xot-large.txt``, each with both colours): this tree's ``engine:8`` against
``fe57b88``'s on a clock of 3 s a side: 77.0 % (+74 =6 -20), no loss on time; 6 s a side
(the first 20 openings, 40 games): 65.0 % (+23 =6 -11); 30 s a side (the first 25, 50
games; the levels' depths end most moves before the clock matters; that run read its
clock from ``TI``): 58.0 % (+25 =8 -17).
"""

from __future__ import annotations

import argparse
import sys
import time

from hasamigo import Board
from hasamigo.engine.players import make_player
from hasamigo.errors import HasamigoError
from hasamigo.game.clock import Clock
from hasamigo.move import BLACK, WHITE
from hasamigo.notation import parse_ggf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=8, help="the engine level (engine:N)")
    parser.add_argument("--seconds", type=float, default=0.0,
                        help="seconds a side for a game (the match's --clock x 60)")
    args = parser.parse_args()
    if args.seconds < 0:
        parser.error("--seconds must be 0 (no clock) or more")
    try:
        player = make_player(f"engine:{args.level}")
    except HasamigoError as error:  # a level that tree does not have
        parser.error(str(error))
    player.choose(Board())  # loads the kernels
    board: Board | None = None  # the game last set, played out
    used = 0.0  # this game's seconds so far
    plies = 10**9
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            break
        if words[0] == "ping":
            print(" ".join(["pong", *words[1:2]]), flush=True)
        elif words[:2] == ["set", "game"]:
            try:  # the tree's own GGF reader, as old as the trees it runs in
                (record, *_) = parse_ggf(line.split("game", 1)[1].strip(), source="set game")
                board = record.replay()
            except (HasamigoError, ValueError) as error:  # ValueError: no game in it
                board = None
                print(f"status error: set game refused: {error}", flush=True)
                continue
            if len(record.moves) < plies:  # fewer moves than last time: another game
                used = 0.0
            plies = len(record.moves)
        elif words[0] == "go":
            started = time.perf_counter()
            if board is None:
                print("status error: no game to play: send set game first", flush=True)
                continue
            clock = None
            if args.seconds:
                left = max(0.01, args.seconds - used)
                clock = Clock({BLACK: left, WHITE: left})
                clock.start(board.turn)
            move = player.choose(board, clock)
            print(f"=== {str(move).lower()}", flush=True)
            used += time.perf_counter() - started


if __name__ == "__main__":
    main()
