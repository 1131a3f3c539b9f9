"""The simplest players: uniformly random, and greedy (most discs flipped)."""

from __future__ import annotations

from hasamigo.board import Board
from hasamigo.engine.players.base import Player, squares_of
from hasamigo.game.clock import Clock
from hasamigo.move import Move


class RandomPlayer(Player):
    """A legal move chosen uniformly by the seeded generator."""

    name = "random"
    every_grid = every_rule = True

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        sq = self.rng.choice(squares_of(board))
        self.explain("random move")
        return Move(sq)


class GreedyPlayer(Player):
    """The move that flips the most discs; ties broken by the seeded generator."""

    name = "greedy"
    every_grid = every_rule = True

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        scored = [(board.flips(Move(sq)).bit_count(), sq) for sq in squares_of(board)]
        most = max(n for n, _ in scored)
        sq = self.rng.choice([sq for n, sq in scored if n == most])
        self.explain(f"greedy: flips {most}")
        return Move(sq)
