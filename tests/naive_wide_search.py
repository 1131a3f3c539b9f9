"""Slow, obviously correct searches on the 10-column grid (boards up to 10×10), for the
wide engine's tests: pure Python, no numba, the same contract as ``naive_search.py``.

Positions are ``(player, opponent)`` Python ints relative to the side to move (bit ``i`` is
square ``i = row * 10 + col``) plus the shape's playable mask; moves walk the eight
directions square by square. Scores are official disc differences for the side to move.
"""

from __future__ import annotations

from collections.abc import Callable

N = 10
STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(p: int, o: int, sq: int, mask: int) -> int:
    """Discs flipped by the side to move playing on empty ``sq`` (0: not a move)."""
    if (p | o) >> sq & 1 or not mask >> sq & 1:
        return 0
    row, col = divmod(sq, N)
    total = 0
    for dr, dc in STEPS:
        line = 0
        r, c = row + dr, col + dc
        while 0 <= r < N and 0 <= c < N and o >> (r * N + c) & 1:
            line |= 1 << (r * N + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < N and 0 <= c < N and p >> (r * N + c) & 1:
            total |= line
    return total


def empties(p: int, o: int, mask: int) -> list[int]:
    return [sq for sq in range(N * N) if mask >> sq & 1 and not (p | o) >> sq & 1]


def moves(p: int, o: int, mask: int) -> list[tuple[int, int]]:
    """Legal ``(square, flips)`` pairs."""
    out = []
    for sq in empties(p, o, mask):
        f = flips(p, o, sq, mask)
        if f:
            out.append((sq, f))
    return out


def play(p: int, o: int, sq: int, f: int) -> tuple[int, int]:
    """The position after the move, from the new side to move."""
    return o & ~f, p | f | (1 << sq)


def final_score(p: int, o: int, mask: int) -> int:
    d = bin(p).count("1") - bin(o).count("1")
    e = len(empties(p, o, mask))
    return d + e if d > 0 else d - e if d < 0 else 0


def negamax(p: int, o: int, mask: int) -> int:
    """Perfect-play score: every line searched to the end (no pruning)."""
    ms = moves(p, o, mask)
    if not ms:
        if not moves(o, p, mask):
            return final_score(p, o, mask)
        return -negamax(o, p, mask)
    return max(-negamax(*play(p, o, sq, f), mask) for sq, f in ms)


def minimax(p: int, o: int, depth: int, evaluate: Callable[[int, int], int], mask: int) -> int:
    """Fixed-depth negamax without pruning: a pass costs no depth, a finished game is
    scored exactly, ``evaluate(p, o)`` at depth 0; depth >= empties means to the end."""
    ms = moves(p, o, mask)
    if not ms and not moves(o, p, mask):
        return final_score(p, o, mask)
    if depth == 0:
        return evaluate(p, o)
    if not ms:
        return -minimax(o, p, depth, evaluate, mask)
    return max(-minimax(*play(p, o, sq, f), depth - 1, evaluate, mask) for sq, f in ms)


def random_position(rng, start: tuple[int, int], mask: int,
                    max_empties: int) -> tuple[int, int] | None:  # type: ignore[no-untyped-def]
    """Random moves from ``start`` until at most ``max_empties`` squares are empty;
    ``None`` if the game ended first. ``(player, opponent)`` for the side to move."""
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
