"""The two programs of the amusement paper (SPEC §5): victory-oriented and amusement-oriented.

**Victory** (paper §2.2, §3.2): minimax 5 plies ahead over a weighted-square evaluation (own
discs × square weight minus the opponent's), with three phases decided at the root:

* opening — until a disc (of either colour) reaches an edge: "keep discs inside, flip few",
  the mostly negative :data:`OPENING_WEIGHTS`; the paper's opening book is not reproduced
  (matches vary the openings instead);
* midgame — from the first disc on an edge: :data:`MIDGAME_WEIGHTS` plus
  :data:`MOBILITY_WEIGHT` per move of mobility difference (the paper: make the opponent's
  number of moves small);
* endgame — from :data:`ENDGAME_CORNERS` corners occupied (ours as well: from
  :data:`ENDGAME_EMPTIES` empty squares, so a cornerless game still ends counting discs):
  disc difference ("maximise the final discs").

A finished game scores 1000 × the official disc difference in every phase. The paper's
weight tables (its figures 1 and 2) are not in its text: :data:`MIDGAME_WEIGHTS` is the
classic textbook weighted-square table (corner 100, C −20, X −50), :data:`OPENING_WEIGHTS` a
mostly negative variant of it we wrote (every disc costs, the centre least), as the paper
describes figure 2. A pass does not use up a ply. Ties are broken by the seeded generator.

**Amusement** (paper §3.3) is victory plus two planned moves, each once per game:

* expectation move — from move :data:`EXPECTATION_FROM` on, the first time a star (X-square)
  move is available that hands the opponent its corner (after it, the corner is a legal move
  for the opponent), it is played (the best such move by the search if several);
* surprise move — at the program's first turn with move number in :data:`SURPRISE_WINDOW`
  (and at least two legal moves), the move worst for itself by the same minimax.

Move numbers are :func:`~hasamigo.engine.players.base.move_number`: discs placed so far + 1.

**On a clock** (ours; the paper's programs answer in milliseconds and it does not say) both
search 1, 3, then 5 plies, each only if it is expected to fit the move's budget
(:mod:`hasamigo.engine.timing`), and play by the deepest search done: the same move as
without a clock whenever the 5 plies fit, a shallower one (odd plies, like the paper's 5)
when time is short, never a move after the flag fell.
"""

from __future__ import annotations

import numpy as np

from hasamigo._kernels.weighted import MODE_DISCS, MODE_MOBILITY, MODE_WEIGHTED, search
from hasamigo._kernels.weighted import evaluate_entry as _evaluate_entry
from hasamigo.board import Board
from hasamigo.engine.players.base import (
    CORNERS,
    EDGES,
    EXPECTATION,
    SURPRISE,
    X_SQUARES,
    Player,
    move_number,
    squares_of,
)
from hasamigo.engine.timing import MoveTime
from hasamigo.game.clock import Clock
from hasamigo.move import BLACK, Color, Move
from hasamigo.squares import BB_CORNERS, square_name

SEARCH_PLIES = 5
ENDGAME_CORNERS = 2
ENDGAME_EMPTIES = 10
MOBILITY_WEIGHT = 4
EXPECTATION_FROM = 20
SURPRISE_WINDOW = (30, 35)
#: Under a clock, the expected cost of a search two plies deeper than one that took t
#: seconds: t times this (measured on 300 WTHOR positions, 3 -> 5 plies: median 9,
#: 90th percentile 40, max 111; 5 plies took at most 16 ms). The kernel cannot be stopped,
#: so the guess is a cautious one; DEEPEN_FLOOR seconds is the least cost assumed.
DEEPEN_GROWTH = 40.0
DEEPEN_FLOOR = 0.0002

OPENING = "opening"
MIDGAME = "midgame"
ENDGAME = "endgame"

# fmt: off
MIDGAME_WEIGHTS = np.array([
    100, -20,  10,   5,   5,  10, -20, 100,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
     10,  -2,  -1,  -1,  -1,  -1,  -2,  10,
      5,  -2,  -1,  -1,  -1,  -1,  -2,   5,
      5,  -2,  -1,  -1,  -1,  -1,  -2,   5,
     10,  -2,  -1,  -1,  -1,  -1,  -2,  10,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
    100, -20,  10,   5,   5,  10, -20, 100,
], dtype=np.int64)

OPENING_WEIGHTS = np.array([
     50, -20,  -4,  -4,  -4,  -4, -20,  50,
    -20, -40,  -6,  -6,  -6,  -6, -40, -20,
     -4,  -6,  -3,  -2,  -2,  -3,  -6,  -4,
     -4,  -6,  -2,  -1,  -1,  -2,  -6,  -4,
     -4,  -6,  -2,  -1,  -1,  -2,  -6,  -4,
     -4,  -6,  -3,  -2,  -2,  -3,  -6,  -4,
    -20, -40,  -6,  -6,  -6,  -6, -40, -20,
     50, -20,  -4,  -4,  -4,  -4, -20,  50,
], dtype=np.int64)
# fmt: on

#: phase -> (weights, evaluation mode of :mod:`hasamigo._kernels.weighted`)
PHASES: dict[str, tuple[np.ndarray, int]] = {
    OPENING: (OPENING_WEIGHTS, MODE_WEIGHTED),
    MIDGAME: (MIDGAME_WEIGHTS, MODE_MOBILITY),
    ENDGAME: (MIDGAME_WEIGHTS, MODE_DISCS),
}


_SHIFTS = np.arange(64, dtype=np.uint64)


def square_total(board: Board, color: Color) -> int:
    """The classic table (:data:`MIDGAME_WEIGHTS`) summed over ``color``'s discs minus the
    other side's: a beginner's positional rule of thumb, without search or mobility.

    >>> square_total(Board(), BLACK)
    0
    """
    mine = (np.uint64(board.discs(color)) >> _SHIFTS) & np.uint64(1)
    theirs = (np.uint64(board.discs(color.other)) >> _SHIFTS) & np.uint64(1)
    return int(MIDGAME_WEIGHTS @ (mine.astype(np.int64) - theirs.astype(np.int64)))


def phase(board: Board) -> str:
    """The victory program's phase of ``board``.

    >>> phase(Board())
    'opening'
    """
    occupied = board.occupied
    if (occupied & BB_CORNERS).bit_count() >= ENDGAME_CORNERS or (
        board.empties.bit_count() <= ENDGAME_EMPTIES
    ):
        return ENDGAME
    if occupied & EDGES:
        return MIDGAME
    return OPENING


def _pair(board: Board) -> tuple[int, int, int]:
    if board.turn is BLACK:
        return board.black, board.white, board.playable()
    return board.white, board.black, board.playable()


def weighted_value(board: Board, depth: int, stage: str | None = None) -> int:
    """Minimax value of ``board`` for the side to move, ``depth`` plies, phase ``stage``
    (default: the board's own phase)."""
    weights, mode = PHASES[stage or phase(board)]
    p, o, mask = _pair(board)
    value, _ = search(np.uint64(p), np.uint64(o), np.uint64(mask), depth, weights,
                      MOBILITY_WEIGHT, mode)
    return int(value)


def static_value(board: Board, stage: str | None = None) -> int:
    """The evaluation of ``board`` for the side to move without search."""
    weights, mode = PHASES[stage or phase(board)]
    p, o, mask = _pair(board)
    return int(_evaluate_entry(np.uint64(p), np.uint64(o), np.uint64(mask), weights,
                               MOBILITY_WEIGHT, mode))


def move_values(board: Board, depth: int = SEARCH_PLIES, stage: str | None = None
                ) -> dict[int, int]:
    """Each legal square's minimax value for the side to move: the move, then ``depth`` - 1
    plies searched in the root's phase."""
    stage = stage or phase(board)
    out: dict[int, int] = {}
    for sq in squares_of(board):
        board.push(Move(sq))
        out[sq] = -weighted_value(board, depth - 1, stage)
        board.pop()
    return out


class VictoryPlayer(Player):
    """The paper's victory-oriented program: 5-ply minimax over weighted squares."""

    name = "victory"

    def __init__(self, *, seed: int | None = None, depth: int = SEARCH_PLIES) -> None:
        super().__init__(seed=seed)
        self.depth = depth
        self.searched = depth  # the plies of the last move's search (fewer when hurried)

    def _values(self, board: Board, clock: Clock | None) -> dict[int, int]:
        """Each legal move's minimax value, :attr:`depth` plies deep; on a clock, only as
        deep (1, 3, 5, ... plies) as the move's budget is expected to allow."""
        if clock is None:
            self.searched = self.depth
            return move_values(board, self.depth)
        timer = MoveTime(clock, board.turn, board.empties.bit_count())
        steps = [*range(1, self.depth + 1, 2)]
        if steps[-1] != self.depth:
            steps.append(self.depth)
        values: dict[int, int] = {}
        done = 0
        cost = 0.0
        for depth in steps:
            if values:
                expected = max(cost, DEEPEN_FLOOR) * DEEPEN_GROWTH ** ((depth - done) / 2)
                if expected > timer.left().target:
                    break
            started = timer.elapsed()
            values = move_values(board, depth)
            cost = timer.elapsed() - started
            done = depth
        self.searched = done
        return values

    def _best(self, board: Board, values: dict[int, int]) -> Move:
        top = max(values.values())
        sq = self.rng.choice(sorted(sq for sq, v in values.items() if v == top))
        self.explain(f"{phase(board)}: best by {self.searched}-ply minimax ({top})")
        return Move(sq)

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        return self._best(board, self._values(board, clock))


def hands_corner(board: Board, sq: int) -> int | None:
    """The corner that playing the X-square ``sq`` makes a legal move for the opponent."""
    corner = next((c for c, x in X_SQUARES.items() if x == sq), None)
    if corner is None or board.occupied >> corner & 1:
        return None
    board.push(Move(sq))
    try:
        return corner if board.legal_moves_mask() >> corner & 1 else None
    finally:
        board.pop()


def planned_moves_done(board: Board) -> tuple[bool, bool]:
    """Whether the side to move on ``board`` has already had its expectation move and its
    surprise move in this game, read from the record alone (so a take-back, a reload or a
    server restart can't make either fire twice, nor lose one).

    Each is due at a turn the rules of :class:`AmusementPlayer` name exactly: the
    expectation move at its first turn from move :data:`EXPECTATION_FROM` with a star move
    that hands over a corner; the surprise move at its first other turn in
    :data:`SURPRISE_WINDOW` with at least two moves. So replaying the record with the same
    rules finds them without remembering anything.
    """
    me = board.turn
    work = board.root()
    expectation = surprise = False
    low, high = SURPRISE_WINDOW
    for move in board.move_stack:
        if work.turn is me and not move.is_pass:
            number = move_number(work)
            mask = work.legal_moves_mask()
            offers = not expectation and number >= EXPECTATION_FROM and any(
                mask >> sq & 1 and hands_corner(work, sq) is not None
                for sq in X_SQUARES.values())
            if offers:
                expectation = True
            elif not surprise and low <= number <= high and mask.bit_count() >= 2:
                surprise = True
        work.push(move)
    return expectation, surprise


class AmusementPlayer(VictoryPlayer):
    """The paper's amusement-oriented program: victory plus one expectation move (hand the
    opponent a corner through a star, from move 20) and one surprise move (the minimax-worst
    move, at a move numbered 30-35). Whether each has been played is read from the game's
    record (:func:`planned_moves_done`), never remembered."""

    name = "amusement"

    def __init__(self, *, seed: int | None = None, depth: int = SEARCH_PLIES) -> None:
        super().__init__(seed=seed, depth=depth)
        self.expectation_done = False
        self.surprise_done = False

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        self.expectation_done, self.surprise_done = planned_moves_done(board)
        number = move_number(board)
        values = self._values(board, clock)
        if not self.expectation_done and number >= EXPECTATION_FROM:
            offers = {sq: c for sq in values if (c := hands_corner(board, sq)) is not None}
            if offers:
                sq = max(offers, key=lambda s: (values[s], -s))
                self.expectation_done = True
                self.explain(f"expectation move: offers the corner {square_name(offers[sq])}",
                             EXPECTATION)
                return Move(sq)
        low, high = SURPRISE_WINDOW
        if not self.surprise_done and low <= number <= high and len(values) >= 2:
            worst = min(values.values())
            sq = min(sq for sq, v in values.items() if v == worst)
            self.surprise_done = True
            self.explain(f"surprise move: minimax-worst ({worst})", SURPRISE)
            return Move(sq)
        return self._best(board, values)


__all__ = [
    "CORNERS",
    "ENDGAME_CORNERS",
    "ENDGAME_EMPTIES",
    "EXPECTATION_FROM",
    "MIDGAME_WEIGHTS",
    "MOBILITY_WEIGHT",
    "OPENING_WEIGHTS",
    "SEARCH_PLIES",
    "SURPRISE_WINDOW",
    "AmusementPlayer",
    "VictoryPlayer",
    "hands_corner",
    "move_values",
    "phase",
    "planned_moves_done",
    "square_total",
    "static_value",
    "weighted_value",
]
