"""Programs for the multi-player games (:mod:`hasamigo.multi`): Random, Greedy, and two
searches, paranoid and max-n, all in Python over :class:`~hasamigo.multi.MultiBoard`.

The two-player programs (:mod:`hasamigo.engine.players`) search a
:class:`~hasamigo.board.Board` with the compiled kernels and a clock; these play a position
of two to four colours, which the kernels do not know, at a casual game's pace, so they
keep their own small surface: ``choose(board) -> Move``, seeded, with
:func:`make_multi_player` reading a spec (``random``, ``greedy``, ``search``,
``paranoid:3``, ``maxn:3``).

**Which search.** Both are here, measured against each other. *Paranoid* (Sturtevant and
Korf, 2000) takes every other seat to play against the program: the game becomes the
program against one coalition, and alpha-beta prunes. *Max-n* (Luckhardt and Irani, 1986)
lets every seat maximise its own value, and prunes nothing. The program offered as
``search`` is **max-n, 3 plies**, for what the measurement below shows: at the same depth
max-n is the stronger; paranoid's pruning does not buy a whole ply at the same cost here
(one ply deeper it needs about three times max-n's time, and only then wins more); and
max-n's model, every seat playing for itself, is how people and the other programs play a
casual game, where paranoid's coalition makes it play defensively. (Schadd and Winands,
Best-Reply Search for Multi-Player Games, IEEE TCIAIG 2011, report Best-Reply Search ahead
of max-n in Rolit and level with paranoid; we have not written Best-Reply Search.)

Both value a position for a colour as its discs plus :data:`CORNER_BONUS` per corner
(a corner ball cannot be trapped), less the best other seat's value (what decides the
ranking is the lead over the next seat, not the discs alone); a finished game is worth
its disc lead times :data:`WIN_SCALE`.

**Measured** (``benchmarks/multi_players.py``, 200 four-player Rolit games a match, the
programs' places through every arrangement and the first colour turned round; an AMD EPYC
machine of 2 cores shared with four other jobs, so the times are rough and compare only
within a match). "Wins" is the share of the 200 first places (shared ones split; with two
seats each the fair share is 50%, against three Greedy seats 25%):

=============================  ==========  =========  ==========  ==========
match                          program     wins       mean rank   ms a move
=============================  ==========  =========  ==========  ==========
2 seats each, same depth       paranoid:3  43.8%      2.50        33
                               maxn:3      56.2%      2.40        73
2 seats each, paranoid deeper  paranoid:4  56.5%      2.34        100
                               maxn:3      43.5%      2.54        32
1 seat against 3 Greedy        paranoid:3  68.8%      1.50        15
1 seat against 3 Greedy        maxn:3      65.8%      1.50        88
=============================  ==========  =========  ==========  ==========

With 200 games a share's
standard error is about 3.5 points, so each of the first two differences is under two of
them: neither search dominates, and max-n at depth 3 is the default for the reasons above.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hasamigo.errors import InvalidOptionError, shown
from hasamigo.move import Move
from hasamigo.multi import MultiBoard
from hasamigo.squares import BB_CORNERS

#: A corner disc's worth in discs, beside the disc itself.
CORNER_BONUS = 4
#: A finished game's disc lead is worth this much per disc (it outweighs any estimate).
WIN_SCALE = 1000
#: The depth of a search when the spec gives none, and the deepest one allowed.
DEFAULT_DEPTH = 3
MAX_DEPTH = 8


def values(board: MultiBoard) -> dict[int, int]:
    """Each seat's value: its lead (or deficit) over the best of the other seats, counted
    in discs plus corner bonuses, or in final discs × :data:`WIN_SCALE` when the game is
    over."""
    over = board.is_game_over()
    raw = {}
    for colour in board.seats:
        mask = board.discs[colour]
        raw[colour] = (mask.bit_count() * WIN_SCALE if over
                       else mask.bit_count() + CORNER_BONUS * (mask & BB_CORNERS).bit_count())
    result = {}
    for colour in board.seats:
        best_other = max(v for c, v in raw.items() if c != colour)
        result[colour] = raw[colour] - best_other
    return result


def _ordered(board: MultiBoard) -> list[Move]:
    """The legal moves, corners first then the moves turning most (alpha-beta cuts more)."""
    moves = board.legal_moves()
    if len(moves) < 2:
        return moves
    return sorted(moves, key=lambda m: -(
        100 * (BB_CORNERS >> (m.square or 0) & 1) + board.turned_by(m.square or 0).bit_count()))


class MultiPlayer:
    """A program for a multi-player game: ``choose`` a legal move of the side to move."""

    name = "program"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.nodes = 0

    def choose(self, board: MultiBoard) -> Move:
        moves = board.legal_moves()
        if not moves:
            raise InvalidOptionError("the game is over: there is no move to choose")
        if len(moves) == 1:
            return moves[0]
        return self._choose(board, moves)

    def _choose(self, board: MultiBoard, moves: list[Move]) -> Move:
        raise NotImplementedError

    def _best(self, scored: list[tuple[int, Move]]) -> Move:
        top = max(score for score, _ in scored)
        return self.rng.choice([move for score, move in scored if score == top])


class RandomMulti(MultiPlayer):
    """A legal move chosen uniformly by the seeded generator."""

    name = "random"

    def _choose(self, board: MultiBoard, moves: list[Move]) -> Move:
        return self.rng.choice(moves)


class GreedyMulti(MultiPlayer):
    """The move that turns the most discs; ties (Rolit's placements next to a disc turn
    none) broken by the seeded generator."""

    name = "greedy"

    def _choose(self, board: MultiBoard, moves: list[Move]) -> Move:
        return self._best([(board.turned_by(m.square).bit_count() if m.square is not None
                            else 0, m) for m in moves])


class _SearchMulti(MultiPlayer):
    """A search to ``depth`` plies (the two searches below)."""

    def __init__(self, depth: int = DEFAULT_DEPTH, seed: int | None = None) -> None:
        super().__init__(seed)
        self.depth = depth


class ParanoidMulti(_SearchMulti):
    """Alpha-beta to ``depth`` plies, every other seat taken to play against this one."""

    name = "paranoid"

    def _choose(self, board: MultiBoard, moves: list[Move]) -> Move:
        me = board.turn
        scored = []
        alpha = -(1 << 30)
        for move in _ordered(board):
            board.push(move)
            score = self._search(board, me, self.depth - 1, alpha - 1, 1 << 30)
            board.pop()
            scored.append((score, move))
            alpha = max(alpha, score)  # ties within the window stay exact: a fair choice
        return self._best(scored)

    def _search(self, board: MultiBoard, me: int, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if depth == 0 or board.is_game_over():
            return values(board)[me]
        mine = board.turn == me
        for move in _ordered(board):
            board.push(move)
            score = self._search(board, me, depth - 1, alpha, beta)
            board.pop()
            if mine:
                alpha = max(alpha, score)
            else:
                beta = min(beta, score)
            if alpha >= beta:
                break
        return alpha if mine else beta


class MaxNMulti(_SearchMulti):
    """Max-n to ``depth`` plies: every seat picks the move best for itself (the first of
    equals in move order below the root, where ties are drawn by the generator)."""

    name = "maxn"

    def _choose(self, board: MultiBoard, moves: list[Move]) -> Move:
        me = board.turn
        scored = []
        for move in _ordered(board):
            board.push(move)
            scored.append((self._search(board, self.depth - 1)[me], move))
            board.pop()
        return self._best(scored)

    def _search(self, board: MultiBoard, depth: int) -> dict[int, int]:
        self.nodes += 1
        if depth == 0 or board.is_game_over():
            return values(board)
        mover = board.turn
        best: dict[int, int] | None = None
        for move in _ordered(board):
            board.push(move)
            result = self._search(board, depth - 1)
            board.pop()
            if best is None or result[mover] > best[mover]:
                best = result
        assert best is not None  # a position not over has a move (a pass at least)
        return best


_SEARCHES: dict[str, Callable[[int, int | None], MultiPlayer]] = {
    "paranoid": lambda depth, seed: ParanoidMulti(depth, seed),
    "search": lambda depth, seed: MaxNMulti(depth, seed),
    "maxn": lambda depth, seed: MaxNMulti(depth, seed),
}
#: The programs' specs and what each is, for help texts.
MULTI_PROGRAMS: dict[str, str] = {
    "random": "a legal move at random",
    "greedy": "the move turning the most discs",
    "search": f"max-n, depth {DEFAULT_DEPTH} (search:N for depth N)",
    "paranoid": "paranoid alpha-beta (paranoid:N, depth N plies)",
    "maxn": "max-n (maxn:N, depth N plies)",
}


def make_multi_player(spec: str, *, seed: int | None = None) -> MultiPlayer:
    """The program a spec names: ``random``, ``greedy``, ``search``, ``paranoid[:N]`` or
    ``maxn[:N]`` (N plies, 1..8); :class:`InvalidOptionError` naming the specs otherwise.

    >>> make_multi_player("paranoid:2").depth, make_multi_player("greedy").name
    (2, 'greedy')
    """
    text = spec.strip().casefold() if isinstance(spec, str) else ""
    kind, colon, level = text.partition(":")
    if kind == "random" and not colon:
        return RandomMulti(seed)
    if kind == "greedy" and not colon:
        return GreedyMulti(seed)
    if kind in _SEARCHES:
        depth = DEFAULT_DEPTH
        if colon:
            if not (level.isdigit() and 1 <= int(level) <= MAX_DEPTH):
                raise InvalidOptionError(f"a search's depth is 1..{MAX_DEPTH}, not "
                                         f"{shown(level)}")
            depth = int(level)
        return _SEARCHES[kind](depth, seed)
    raise InvalidOptionError(f"no multi-player program {shown(spec)}; known: "
                             f"{', '.join(MULTI_PROGRAMS)}")


def play_out(board: MultiBoard, players: dict[int, MultiPlayer]) -> MultiBoard:
    """Play ``board`` to its end with a program on each seat's colour (the moves are
    checked, so a program's illegal move raises)."""
    while not board.is_game_over():
        board.play(players[board.turn].choose(board))
    return board


__all__ = ["CORNER_BONUS", "MULTI_PROGRAMS", "GreedyMulti", "MaxNMulti", "MultiPlayer",
           "ParanoidMulti", "RandomMulti", "make_multi_player", "play_out", "values"]
