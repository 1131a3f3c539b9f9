"""Replaying a game through the fold: microseconds per event, for games cut at 10, 20, 40
and 60 moves, so that growth with the game's length shows.

    PYTHONPATH=src .venv/bin/python benchmarks/replay.py [REPEAT]    (default 1000)

Two games of 60 disc moves, played by a seeded random player (passes as they fall):

* **online**: a clock, the colours drawn by the server, both programs waiting for their
  kernels until ready, a server outage (suspend and resume) in the middle, and the results
  accepted at the end;
* **over the board**: two people at a board and a clock; every move (or pass) is entered
  in the record and ends with the mover's clock press, White starting the clock.

Each prefix (up to and including the Nth disc move, with the events around it) is folded
by :func:`hasamigo.game.state.replay` REPEAT times, in five rounds; the best round's CPU
time (``time.process_time``) is reported, the machine being shared. A fold linear in the
number of events gives the same figure at every length.
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections.abc import Sequence

from hasamigo.game.controller import GameController
from hasamigo.game.events import EnteredMove, Event, MovePlayed
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.game.state import replay

CUTS = (10, 20, 40, 60)
ROUNDS = 5


class Ticks:
    """A time source that moves on by a few seconds at each reading."""

    def __init__(self, rng: random.Random) -> None:
        self.now, self._rng = 1_000_000.0, rng

    def __call__(self) -> float:
        return self.now

    def wait(self) -> None:
        self.now += self._rng.uniform(0.5, 8.0)


def online_game(seed: int = 7) -> GameController:
    rng = random.Random(seed)
    ticks = Ticks(rng)
    setup = GameSetup((Participant("Ann", program="random"), Participant("Bob", program="random")),
                      GameOptions(clock_seconds=1200.0, casual=False), "random")
    game = GameController.new(setup, time_source=ticks, rng=random.Random(seed))
    game.program_waiting(0)
    game.program_waiting(1)
    ticks.wait()
    game.program_ready(0)
    game.program_ready(1)
    while game.state.result is None:
        ticks.wait()
        board = game.board
        game.play(board.turn, rng.choice(list(board.legal_moves)))
        if game.board.ply == 30:
            game.suspend()
            ticks.wait()
            game.resume()
    return game


def otb_game(seed: int = 7) -> GameController:
    rng = random.Random(seed)
    ticks = Ticks(rng)
    setup = GameSetup((Participant("Ann"), Participant("Bob")),
                      GameOptions(clock_seconds=1200.0, casual=False), "black")
    game = GameController.new(setup, time_source=ticks, rng=random.Random(seed))
    game.declare_over_the_board()
    game.press(game.board.turn.other)  # rule 5: the side that does not move first
    while game.state.result is None:
        ticks.wait()
        board = game.board
        mover = board.turn
        moves = list(board.legal_moves)
        move = rng.choice(moves)
        game.enter_move(None if move.is_pass else move.square)
        if game.state.result is None:
            game.press(mover, passed=move.is_pass)
    return game


def _disc_move(event: Event) -> bool:
    return isinstance(event, MovePlayed) or (isinstance(event, EnteredMove)
                                              and event.placed is not None)


def cut(events: Sequence[Event], moves: int) -> tuple[Event, ...]:
    """The events up to the ``moves``-th disc move and the clock press after it (the whole
    game when no disc move follows: its passes and acceptances too)."""
    numbers = [i for i, event in enumerate(events) if _disc_move(event)]
    if moves >= len(numbers):
        return tuple(events)
    end = numbers[moves - 1] + 1
    if events[end].kind == "press":
        end += 1
    return tuple(events[:end])


def per_event(setup: GameSetup, events: tuple[Event, ...], repeat: int) -> float:
    """The best of :data:`ROUNDS` rounds of ``repeat // ROUNDS`` replays, in µs per event
    (the best: what the fold costs when the shared machine lets it run)."""
    replay(setup, events)  # warm up (kernels loaded)
    each = max(1, repeat // ROUNDS)
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(each):
            replay(setup, events)
        best = min(best, time.process_time() - start)
    return best / (each * len(events)) * 1e6


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"replay through the fold, {repeat} times — {platform.machine()}, "
          f"Python {platform.python_version()}")
    print(f"{'game':<14} {'moves':>5} {'events':>6} {'µs/event':>9}")
    for name, game in (("online", online_game()), ("over the board", otb_game())):
        events = game.events
        for moves in CUTS:
            prefix = cut(events, moves)
            figure = per_event(game.setup, prefix, repeat)
            print(f"{name:<14} {moves:>5} {len(prefix):>6} {figure:>9.1f}")


if __name__ == "__main__":
    main()
