"""The simplest players: uniformly random, and greedy (most discs flipped).

Both play every board and rule, 挟み碁's flip rules too (``Board.rules``): random
picks a legal square uniformly, then a random choice of the discs it turns (one disc
under ``"one"``, a non-empty subset under ``"choose"``); greedy turns as many discs as
it can: every disc of the move bracketing most under ``"choose"`` (as under the normal
rule), and under ``"one"``, where every move turns exactly one, a random move and disc.
Under a Fairy Othello word, where a move may place the other side's disc or turn the
mover's own, greedy plays the move that leaves it the largest lead in discs (the same
move as the most flipped under Othello's word); under 挟み碁's capture it takes the most
stones.
"""

from __future__ import annotations

import random

from hasamigo.board import Board
from hasamigo.engine.players.base import Player, squares_of
from hasamigo.game.clock import Clock
from hasamigo.move import BLACK, Move
from hasamigo.squares import bits


def _random_choice(board: Board, sq: int, rng: random.Random) -> Move:
    """A move on ``sq`` with a random choice of turned discs under the board's flip rule
    (the bare square, every disc turned, under the normal rule or with nothing to choose)."""
    bracketed = board.turn_choices(sq)
    if not board.rules.supports("choose_turned") or bracketed.bit_count() <= 1:
        return Move(sq)
    discs = list(bits(bracketed))
    if board.rules.supports("one_turned"):
        return Move(sq, 1 << rng.choice(discs))
    chosen = 0
    while not chosen:  # a uniform non-empty subset
        chosen = sum(1 << d for d in discs if rng.random() < 0.5)
    return Move(sq) if chosen == bracketed else Move(sq, chosen)


class RandomPlayer(Player):
    """A legal move chosen uniformly by the seeded generator."""

    name = "random"
    every_grid = every_rule = True

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        sq = self.rng.choice(squares_of(board))
        self.explain("random move")
        return _random_choice(board, sq, self.rng)


class GreedyPlayer(Player):
    """The move that flips the most discs; ties broken by the seeded generator."""

    name = "greedy"
    every_grid = every_rule = True

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        if board.rules.supports("one_turned"):  # every move turns exactly one disc
            sq = self.rng.choice(squares_of(board))
            self.explain("greedy: turns 1 (one disc per move)")
            return _random_choice(board, sq, self.rng)
        if board.rules.supports("fairy_word"):
            return self._choose_by_lead(board)
        scored = [(board.flips(Move(sq)).bit_count(), sq) for sq in squares_of(board)]
        most = max(n for n, _ in scored)
        sq = self.rng.choice([sq for n, sq in scored if n == most])
        self.explain(f"greedy: flips {most}")
        return Move(sq)

    def _choose_by_lead(self, board: Board) -> Move:
        """The move after which the mover leads by the most discs (a Fairy Othello word:
        the discs turned need not be the mover's gain)."""
        work = board.copy(stack=False)
        me = board.turn
        scored = []
        for sq in squares_of(board):
            work.push(Move(sq))
            black, white = work.counts()
            work.pop()
            scored.append((black - white if me is BLACK else white - black, sq))
        best = max(n for n, _ in scored)
        sq = self.rng.choice([sq for n, sq in scored if n == best])
        self.explain(f"greedy: leads by {best} after it")
        return Move(sq)
