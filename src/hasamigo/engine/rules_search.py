"""The engine on rules its kernels do not know (:meth:`Board.rules_beyond_kernels`):
Nip's placing anywhere when both sides are blocked, the circular Nip board's ring,
挟み碁's flip rules and capture, and Fairy Othello's words.

The bitboard kernels cannot play these rules (a ring is no shift of the grid, Nip turns a
blocked position into a move anywhere, and a flip rule makes each square several moves),
so ``engine:N`` searches them through the :class:`Board` API, which knows every rule: a
fail-soft alpha-beta (negamax) with a table of the positions searched, iterative deepening
within a time budget, the hand-set evaluation of the board's shape, and exact to the end
from :attr:`RulesLevel.exact_from` empties. It is some hundred times slower than the
kernels, so its depths are small (:data:`RULES_LEVELS`).

The evaluation (discs, side to move): the squares that can never be flipped (a playable
square each of whose four lines ends at it on one side; never on a ring) weigh
:data:`CORNER`; their diagonal and orthogonal neighbours, while the corner is empty,
:data:`X_SQUARE` and :data:`C_SQUARE`; the other squares at the board's edge :data:`EDGE`;
plus :data:`MOBILITY` per legal move more than the opponent.

The moves searched: every legal move under Nip and the ring; under 挟み碁's ``"one"``,
every square with each disc it may turn; under ``"choose"`` a square bracketing ``k`` discs
has ``2**k - 1`` choices (1,023 for ten), so the search weighs turning all of them or
exactly one of them (any one), the two ends of the choice: "exact" under ``"choose"`` means
best among those.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from hasamigo.board import Board
from hasamigo.engine.limits import DEFAULT_DEPTH, Limit
from hasamigo.engine.results import Analysis, MoveScore
from hasamigo.engine.timing import Budget
from hasamigo.errors import InvalidOptionError, InvalidPositionError
from hasamigo.move import BLACK, WHITE, Move
from hasamigo.squares import bits

CORNER, X_SQUARE, C_SQUARE, EDGE, MOBILITY = 20, -8, -4, 2, 2
WIN = 10_000  # beyond any evaluation: scores of finished games are kept below it


@dataclass(frozen=True, slots=True)
class RulesLevel:
    """A level on these rules: search ``depth`` plies, exact from ``exact_from`` empties,
    within ``seconds`` (without a clock)."""

    depth: int
    exact_from: int
    seconds: float


#: the deepest the engine's analysis (hints, the graph, ``analyse``) searches on these
#: rules, and the seconds it may take when its limit gives none
ANALYSIS_DEPTH = 3
ANALYSIS_SECONDS = 5.0

#: by engine level 1..10
RULES_LEVELS = tuple(RulesLevel(d, e, s) for d, e, s in (
    (1, 0, 0.5), (1, 2, 0.5), (2, 4, 1.0), (2, 4, 1.0), (3, 6, 1.5), (3, 6, 1.5),
    (4, 8, 2.0), (4, 8, 2.0), (5, 9, 3.0), (5, 10, 4.0)))


@dataclass(frozen=True, slots=True)
class _Shape:
    weights: dict[int, int]
    corners: tuple[int, ...]
    x_of: dict[int, int]  # X- and C-square -> its corner
    c_of: dict[int, int]


def _near(cls: type[Board], sq: int, dr: int, dc: int) -> int | None:
    """The playable square ``dr`` rows and ``dc`` columns from ``sq``, or ``None``."""
    near = cls.step(sq, dr, dc)
    return near if near is not None and cls.playable() >> near & 1 else None


_SHAPES: dict[type[Board], _Shape] = {}


def shape(cls: type[Board]) -> _Shape:
    """The evaluation's squares of a board's shape (see the module docstring)."""
    known = _SHAPES.get(cls)
    if known is None:
        known = _SHAPES[cls] = _shape(cls)
    return known


def _shape(cls: type[Board]) -> _Shape:
    on_ring = cls.rules.ring_squares
    weights, corners = {}, []
    for sq in bits(cls.playable()):
        axes = ((0, 1), (1, 0), (1, 1), (1, -1))
        ends = all(_near(cls, sq, dr, dc) is None or _near(cls, sq, -dr, -dc) is None
                   for dr, dc in axes)
        if ends and sq not in on_ring:
            corners.append(sq)
        edge = any(_near(cls, sq, dr, dc) is None for dr, dc in ((0, 1), (1, 0), (0, -1),
                                                                 (-1, 0)))
        weights[sq] = EDGE if edge else 0
    x_of: dict[int, int] = {}
    c_of: dict[int, int] = {}
    for corner in corners:
        weights[corner] = CORNER
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                near = _near(cls, corner, dr, dc) if dr or dc else None
                if near is not None and near not in corners:
                    (x_of if dr and dc else c_of)[near] = corner
    return _Shape(weights, tuple(corners), x_of, c_of)


def evaluate(board: Board) -> int:
    """The hand-set evaluation of ``board`` for the side to move (see the module)."""
    s = shape(type(board))
    me, other = board.turn, board.turn.other
    mine, theirs = board.discs(me), board.discs(other)
    empty = board.empties
    score = 0
    for sq in bits(mine | theirs):
        w = s.weights[sq]
        corner = s.x_of.get(sq, s.c_of.get(sq))
        if corner is not None:
            w = (X_SQUARE if sq in s.x_of else C_SQUARE) if empty >> corner & 1 else EDGE
        score += w if mine >> sq & 1 else -w
    mobility = board.moves_mask(me).bit_count() - board.moves_mask(other).bit_count()
    return score + MOBILITY * mobility


def candidate_moves(board: Board) -> list[Move]:
    """The moves the search weighs (see the module docstring), a pass when forced."""
    if not board.rules.supports("choose_turned"):
        return list(board.legal_moves)
    if board.rules.supports("one_turned"):
        return list(board.move_choices())
    out = []
    for move in list(board.legal_moves):
        out.append(move)
        bracketed = 0 if move.square is None else board.flips(move)
        if bracketed.bit_count() > 1:
            out.extend(Move(move.square, 1 << d) for d in bits(bracketed))
    return out


def _final(board: Board) -> int:
    outcome = board.outcome()
    assert outcome is not None
    diff = outcome.disc_difference
    return diff if board.turn is BLACK else -diff


class _Timeout(Exception):
    pass


@dataclass(frozen=True, slots=True)
class RulesResult:
    move: Move
    score: int
    depth: int
    exact: bool
    nodes: int


class RulesSearch:
    """One search: :meth:`best` with a depth, an exact-from and a time budget."""

    def __init__(self) -> None:
        self.nodes = 0
        self._table: dict[tuple[object, ...], tuple[int, int]] = {}
        self._deadline = float("inf")

    def best(self, board: Board, *, depth: int, exact_from: int, seconds: float) -> RulesResult:
        """The move to play: exact when the empties allow, else iterative deepening to
        ``depth`` (the last finished iteration's move when time runs out)."""
        moves = candidate_moves(board)
        if len(moves) == 1:
            return RulesResult(moves[0], 0, 0, False, 0)
        self._deadline = time.perf_counter() + seconds
        work = board.copy()
        empties = board.empties.bit_count()
        exact = empties <= exact_from
        depths = [2 * empties + 2] if exact else list(range(1, depth + 1))
        best = RulesResult(moves[0], 0, 0, False, 0)
        for d in depths:
            try:
                score, move = self._root(work, moves, d)
            except _Timeout:
                if exact:  # not finished: fall back to the best shallow move
                    return self.best(board, depth=min(depth, 2), exact_from=0,
                                     seconds=max(0.2, seconds / 4))
                break
            best = RulesResult(move, score, d, exact, self.nodes)
            moves.sort(key=lambda m: m != move)  # the best first next time
        return best

    def scores(self, board: Board, moves: list[Move], *, depth: int, exact: bool,
               seconds: float) -> tuple[list[tuple[Move, int]], int, bool]:
        """Every move of ``moves`` with its score (full window each), best first, by
        iterative deepening to ``depth`` (to the end when ``exact``) within ``seconds``:
        ``(lines, depth reached, exact)``; with no iteration finished, each move's child
        evaluated (depth 1)."""
        self._deadline = time.perf_counter() + seconds
        work = board.copy()
        depths = [2 * board.empties.bit_count() + 2] if exact else list(range(1, depth + 1))
        done: list[tuple[Move, int]] = []
        reached = 0
        for d in depths:
            lines = []
            try:
                for move in moves:
                    work.push(move)
                    try:
                        lines.append((move, -self._search(work, d - 1, -WIN - 1, WIN + 1)))
                    finally:
                        work.pop()
            except _Timeout:
                break
            done, reached = sorted(lines, key=lambda line: -line[1]), d
        if not done:
            for move in moves:
                work.push(move)
                done.append((move, -_final(work) if work.is_game_over() else -evaluate(work)))
                work.pop()
            done.sort(key=lambda line: -line[1])
            reached = 1
        return done, reached, exact and reached == depths[-1]

    def _root(self, board: Board, moves: list[Move], depth: int) -> tuple[int, Move]:
        alpha, chosen = -WIN - 1, moves[0]
        for move in moves:
            board.push(move)
            v = -self._search(board, depth - 1, -WIN - 1, -alpha)
            board.pop()
            if v > alpha:
                alpha, chosen = v, move
        return alpha, chosen

    def _search(self, board: Board, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes & 255 == 0 and time.perf_counter() > self._deadline:
            raise _Timeout
        if board.is_game_over():
            return _final(board)
        if depth <= 0:
            return evaluate(board)
        # the stones in hand too: under 挟み碁's capture the same discs come back with
        # fewer stones to place (a different game from there)
        key = (board.black, board.white, board.turn, depth, board.in_hand(BLACK),
               board.in_hand(WHITE))
        known = self._table.get(key)
        if known is not None:
            lower, upper = known
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        moves = candidate_moves(board)
        weights = shape(type(board)).weights
        moves.sort(key=lambda m: -weights.get(m.square, 0) if m.square is not None else 0)
        start_alpha, best = alpha, -WIN - 1
        for move in moves:
            board.push(move)
            v = -self._search(board, depth - 1, -beta, -max(alpha, best))
            board.pop()
            if v > best:
                best = v
                if best >= beta:
                    break
        lower, upper = self._table.get(key, (-WIN - 1, WIN + 1))
        if best <= start_alpha:
            upper = best
        elif best >= beta:
            lower = best
        else:
            lower = upper = best
        self._table[key] = (lower, upper)
        return best


def analyse_by_rules(board: Board, limit: Limit, multipv: int, mode: str,
                     budget: Budget | None, among: Iterable[Move] | None) -> Analysis:
    """The engine's analysis of a board whose rules the kernels do not know
    (:meth:`Board.rules_beyond_kernels`), by :class:`RulesSearch`: at most
    :data:`ANALYSIS_DEPTH` plies (the Board API is slow), to the end when solving, within
    the limit's time (else :data:`ANALYSIS_SECONDS`); a solve that does not finish in time
    answers its deepest search (``exact`` False)."""
    t0 = time.perf_counter()
    moves = candidate_moves(board)
    if not moves:
        raise InvalidPositionError("the game is over: there is nothing to search")
    if among is not None:
        wanted = set(among)
        squares = {m.square for m in wanted}
        moves = [m for m in moves if m in wanted or (m.square in squares
                                                      and m.turned is None)]
        if not moves:
            raise InvalidOptionError("none of the moves to search is legal here")
    seconds = limit.time if limit.time is not None else ANALYSIS_SECONDS
    if budget is not None:
        seconds = min(seconds, budget.hard)
    empties = board.empties.bit_count()
    exact = mode != "midgame" or (limit.depth is not None and limit.depth >= empties)
    search = RulesSearch()
    lines, depth, solved = search.scores(
        board, moves, depth=min(limit.depth or DEFAULT_DEPTH, ANALYSIS_DEPTH),
        exact=exact, seconds=max(0.01, seconds))
    if mode == "wld" and solved:
        lines = [(m, (v > 0) - (v < 0)) for m, v in lines]
    # hints ask for a line per legal square: under a flip rule a square has several
    count = len(lines) if multipv >= len(board.legal_moves) else max(1, multipv)
    shown_lines = tuple(MoveScore(m, v, (m,)) for m, v in lines[:count])
    best, score = lines[0]
    return Analysis(best, score, (best,), depth, search.nodes,
                    time.perf_counter() - t0, solved, mode, shown_lines)
