"""Slow, obviously correct searches for the engine tests: pure Python, no numba.

Positions are ``(player, opponent)`` Python ints relative to the side to move (bit ``i``
is square ``i``, a1 = 0) plus a geometry mask; moves are found by walking the eight
directions square by square. Scores are official disc differences for the side to move
(empties to the winner, a draw 0).
"""

from __future__ import annotations

from collections.abc import Callable

STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
ALL = (1 << 64) - 1


def flips(p: int, o: int, sq: int) -> int:
    """Discs flipped by the side to move playing on empty ``sq`` (0: not a move)."""
    if (p | o) >> sq & 1:
        return 0
    row, col = divmod(sq, 8)
    total = 0
    for dr, dc in STEPS:
        line = 0
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and o >> (r * 8 + c) & 1:
            line |= 1 << (r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and p >> (r * 8 + c) & 1:
            total |= line
    return total


def empties(p: int, o: int, mask: int = ALL) -> list[int]:
    return [sq for sq in range(64) if mask >> sq & 1 and not (p | o) >> sq & 1]


def moves(p: int, o: int, mask: int = ALL) -> list[tuple[int, int]]:
    """Legal ``(square, flips)`` pairs."""
    out = []
    for sq in empties(p, o, mask):
        f = flips(p, o, sq)
        if f:
            out.append((sq, f))
    return out


def play(p: int, o: int, sq: int, f: int) -> tuple[int, int]:
    """The position after the move, from the new side to move: ``(opponent', player')``."""
    return o & ~f, p | f | (1 << sq)


def final_score(p: int, o: int, mask: int = ALL) -> int:
    d = bin(p).count("1") - bin(o).count("1")
    e = len(empties(p, o, mask))
    return d + e if d > 0 else d - e if d < 0 else 0


def negamax(p: int, o: int, mask: int = ALL, alpha: int = -65, beta: int = 65) -> int:
    """Perfect-play score with plain alpha-beta (exact inside the window, bounds outside)."""
    ms = moves(p, o, mask)
    if not ms:
        if not moves(o, p, mask):
            return final_score(p, o, mask)
        return -negamax(o, p, mask, -beta, -alpha)
    best = -65
    for sq, f in ms:
        v = -negamax(*play(p, o, sq, f), mask, -beta, -max(alpha, best))
        if v > best:
            best = v
            if best >= beta:
                break
    return best


def move_scores(p: int, o: int, mask: int = ALL) -> dict[int, int]:
    """Exact score of every legal move."""
    return {sq: -negamax(*play(p, o, sq, f), mask) for sq, f in moves(p, o, mask)}


def minimax(p: int, o: int, depth: int, evaluate: Callable[[int, int], int],
            mask: int = ALL) -> int:
    """Fixed-depth negamax without pruning: a pass costs no depth, a finished game is
    scored exactly, ``evaluate(p, o)`` at depth 0; depth >= empties means to the end."""
    ms = moves(p, o, mask)
    if not ms and not moves(o, p, mask):
        return final_score(p, o, mask)
    if depth == 0 and len(empties(p, o, mask)) > 0:
        return evaluate(p, o)
    if not ms:
        return -minimax(o, p, depth, evaluate, mask)
    return max(-minimax(*play(p, o, sq, f), depth - 1, evaluate, mask) for sq, f in ms)


START = ((1 << 28) | (1 << 35), (1 << 27) | (1 << 36))  # black e4 d5, white d4 e5; black moves


def random_position(rng, max_empties: int, start: tuple[int, int] = START,
                    mask: int = ALL) -> tuple[int, int] | None:  # type: ignore[no-untyped-def]
    """Play random moves from ``start`` until at most ``max_empties`` squares are empty;
    ``None`` if the game ended first. Returns ``(player, opponent)`` for the side to move."""
    p, o = start
    while len(empties(p, o, mask)) > max_empties:
        ms = moves(p, o, mask)
        if not ms:
            if not moves(o, p, mask):
                return None
            p, o = o, p
            continue
        sq, f = rng.choice(ms)
        p, o = play(p, o, sq, f)
    return p, o


def selective_fails_high(p: int, o: int, depth: int, beta: int,
                         evaluate: Callable[[int, int], int], margin: Callable[[int, int], int],
                         shallow: Callable[[int], int], min_depth: int, ply: int = 0,
                         mask: int = ALL) -> bool:
    """Whether a null-window search (``beta - 1``, ``beta``) with midgame probable cuts
    finds a score >= ``beta``: a yes-or-no answer, the same in whatever order the moves are
    searched. Below the root, a node ``d >= min_depth`` plies from the horizon (and not at
    the end) whose static evaluation is at or above ``beta`` answers yes when a full-width
    search of ``shallow(d)`` plies scores at least ``beta + margin(empties, d)``; one at or
    below ``beta - 1`` answers no when it scores at most ``beta - 1 - margin``. Margins
    beyond ±64 skip the test. Otherwise the node is searched: fixed depth, a pass free."""
    ms = moves(p, o, mask)
    ne = len(empties(p, o, mask))
    if not ms and not moves(o, p, mask):
        return final_score(p, o, mask) >= beta
    if depth <= 0:
        return evaluate(p, o) >= beta
    if depth >= ne:
        return minimax(p, o, depth, evaluate, mask) >= beta
    if not ms:
        return not selective_fails_high(o, p, depth, 1 - beta, evaluate, margin, shallow,
                                        min_depth, ply + 1, mask)
    if ply > 0 and depth >= min_depth:
        m = margin(ne, depth)
        e = evaluate(p, o)
        if e >= beta and beta + m <= 64:
            if minimax(p, o, shallow(depth), evaluate, mask) >= beta + m:
                return True
        elif (e <= beta - 1 and beta - 1 - m >= -64
              and minimax(p, o, shallow(depth), evaluate, mask) <= beta - 1 - m):
            return False
    return any(not selective_fails_high(*play(p, o, sq, f), depth - 1, 1 - beta, evaluate,
                                        margin, shallow, min_depth, ply + 1, mask)
               for sq, f in ms)
