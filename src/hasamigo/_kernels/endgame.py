"""Exact endgame leaves: final scores, the last 1-4 empties and shallow solvers (5-7).

Scores are official disc differences from the side to move: the empties of a finished
game go to the winner, a draw is 0. Each solver takes a null window ``(alpha, alpha +
1)``, as the search asks at these depths, and is fail-soft (as Edax's are);
``solve_small`` answers any window with null-window tests. None is recursive: ``solve5``
calls ``solve4`` and so on, and a pass is a second attempt with the pair swapped (the
move loop returns ``NO_MOVE`` when the side has no move), so every kernel may be cached
(recursive cached kernels crashed, numba #6061).
The 5 and 6 empties solvers share one move loop, :func:`_shallow_tries`, made once per size
over the size below and inlined into it; the 7 empties solver's, :func:`_fastest_tries`,
orders its moves first.

Move order at 7 empties: *fastest first* (:func:`_fastest_tries`), the move that leaves
the opponent the fewest replies first, parity breaking ties, as the search orders its
exact nodes: FFO #20-#39 130.6 M -> 113.3 M nodes, #40-#48 and #59 750 M -> 637 M, every
position fewer (the table in :mod:`hasamigo._kernels.search`), in 0.99x the CPU time
(#45, #46, #48, farm-bench, 4 pairs, 0.93-1.05, loaded machine). Each move's key costs
its flips and the child's moves, and the solver of 7 empties is the frameless 8 empties
node's child, so the order pays there.
Move order at 5-6 empties: squares in quadrants with an odd number of empties first
(parity), each part by a fixed square preference (corners, edges, inside, C, X). The
empties are tried one by one, skipping those with no opponent disc around (``NEIGHBOUR``),
instead of generating the moves first: FFO #26 #33 #36 #37 #38 in 0.84x the CPU time
(farm-bench, 5 pairs, loaded machine), the same nodes.
Each solver returns its score and the nodes it visited (an array argument to count them
cost two atomic reference counts a call: 12 % of an FFO solve). Every solver tries the
side to move and, if it has no move, the opponent. The 2-4 empties solvers write the two
out (their move loops are short): alone, in one process alternating with a loop of two,
2 empties 10-12 %, 3 empties 16-18 %, 4 empties 7-12 % faster (``benchmarks/leaves.py``'s
positions). The 5-7 empties solvers keep a loop of two, one inlined copy of their move
loop: two copies were most of their compile time, and no faster (5 empties 3 %, 6 and 7
1 % slower).
The 3 empties solver inlines the 2 empties one (a call each child cost): 3 empties 0.77-0.85x
and 5 empties 0.89x the time alone (``benchmarks/leaves.py --against``, medians of 9-15
rounds), FFO #40-#52 subsets 0.95-0.98x (pairs on a noisy 2-core machine), the same nodes.
Inlining the 3 empties solver into the 4 empties one as well would copy ``solve1`` about
200 times: not tried. The 5 empties solver sorts its children's four empties itself and
calls :func:`solve4` (``_solve4_set``): 5 and 6 empties 0.95-0.96x. Its sorting repeats
:func:`solve_le4`'s first lines; an inlined ``solve_le4`` body with ``n`` 4 in its place
measured 0.97-1.11x (unclear on this machine), so the copy stays.
The 3 empties solver takes its empties in the order given: sorting them again by parity
(the one alone in its quadrant first, as the 4 empties solver's order can leave it last)
visited 1.7-2 % fewer nodes but took 1.05x the time at 4 and 5 empties, 1.00x at 6 and 7
(``benchmarks/leaves.py --against``, medians of 11 rounds).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hasamigo._kernels.bits import (
    C_SQUARES,
    CORNERS,
    EDGES,
    FILE_A,
    FILE_GATHER,
    ONE,
    U64,
    X_SQUARES,
    ZERO,
    lowest_square,
    popcount,
)
from hasamigo._kernels.config import NJIT, NJIT_INLINE, NJIT_LLVM_INLINE
from hasamigo._kernels.moves import flips, legal_moves

NO_MOVE = -1000  # below every score: "this side had no move"
SHALLOW_MAX = 7  # the largest empties count solved here (the search hands over below it)
# (no stability cutoff here: below 8 empties it cost more than it cut; the search applies
# it from its own STABILITY_MIN_EMPTIES)

QUADRANTS = np.array(
    [0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000],
    dtype=np.uint64,
)
#: Fixed square preference, best first: corners, other edge squares, inside, C, X.
GROUPS = np.array(
    [
        CORNERS,
        EDGES & ~CORNERS & ~C_SQUARES,
        ~EDGES & ~X_SQUARES,
        C_SQUARES,
        X_SQUARES,
    ],
    dtype=np.uint64,
)
N_GROUPS = 5


def _neighbour_table() -> np.ndarray:
    table = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        r, c = divmod(sq, 8)
        m = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < 8 and 0 <= c + dc < 8:
                    m |= 1 << ((r + dr) * 8 + c + dc)
        table[sq] = m
    return table


#: ``NEIGHBOUR[sq]``: the squares around ``sq``; no opponent disc there means no flip.
NEIGHBOUR = _neighbour_table()

S56 = U64(56)
BYTE = U64(0xFF)


def _count_table() -> np.ndarray:
    """``LAST_COUNT[pos, line]``: twice the discs flipped along one line of eight by a move
    at ``pos`` when the line is full but for ``pos``: ``line``'s bits are the mover's
    discs, every other square the opponent's. A square past the end of a shorter line
    reads as an opponent disc with no mover's disc beyond it, so it never brackets."""
    table = np.zeros((8, 256), dtype=np.uint8)
    for pos in range(8):
        for line in range(256):
            n = 0
            for step in (1, -1):
                i, run = pos + step, 0
                while 0 <= i < 8 and not line >> i & 1:
                    i, run = i + step, run + 1
                if 0 <= i < 8:
                    n += run
            table[pos, line] = 2 * n
    return table


def _diagonal_table(step: int) -> np.ndarray:
    """``table[sq]``: the diagonal through ``sq`` going down-right (``step`` 9) or
    down-left (7), ``sq`` included."""
    table = np.zeros(64, dtype=np.uint64)
    dc = 1 if step == 9 else -1
    for sq in range(64):
        r, c = divmod(sq, 8)
        while r >= 1 and 0 <= c - dc < 8:
            r, c = r - 1, c - dc
        m = 0
        while r < 8 and 0 <= c < 8:
            m |= 1 << (r * 8 + c)
            r, c = r + 1, c + dc
        table[sq] = m
    return table


LAST_COUNT = _count_table()
DIAGONAL9 = _diagonal_table(9)
DIAGONAL7 = _diagonal_table(7)


@njit(**NJIT_INLINE)
def empties_to_winner(d, n_empty):  # type: ignore[no-untyped-def]
    """The official disc difference of a finished game whose discs differ by ``d``: the
    ``n_empty`` empty squares go to the winner, none on a draw. The one definition of the
    count in the kernels; each grid counts its own discs (:func:`final_score`,
    :func:`hasamigo._kernels.wide_search.final_score`)."""
    if d > 0:
        return d + n_empty
    if d < 0:
        return d - n_empty
    return np.int64(0)


@njit(**NJIT_INLINE)
def final_score(p, o, n_empty):  # type: ignore[no-untyped-def]
    """Official disc difference of a finished game: the empties go to the winner."""
    return empties_to_winner(popcount(p) - popcount(o), n_empty)


@njit(**NJIT_INLINE)
def odd_quadrants(empty):  # type: ignore[no-untyped-def]
    """Union of the quadrants holding an odd number of ``empty`` squares."""
    odd = ZERO
    for q in range(4):
        if popcount(empty & QUADRANTS[q]) & 1:
            odd |= QUADRANTS[q]
    return odd


@njit(**NJIT_INLINE)
def move_flips(p, o, sq):  # type: ignore[no-untyped-def]
    """Flips of a move on empty ``sq`` (0: not a move), skipping squares with no neighbour."""
    if NEIGHBOUR[sq] & o:
        return flips(p, o, sq)
    return ZERO


@njit(**NJIT_INLINE)
def last_flip_count(p, x):  # type: ignore[no-untyped-def]
    """Twice the discs flipped by a move of ``p`` at ``x`` on a full 8×8 board but for
    ``x`` (every square not ``p``'s is the opponent's): four line lookups, no flips."""
    r = x >> 3
    c = x & 7
    col = (((p >> U64(c)) & FILE_A) * FILE_GATHER) >> S56
    d9 = ((p & DIAGONAL9[x]) * FILE_A) >> S56
    d7 = ((p & DIAGONAL7[x]) * FILE_A) >> S56
    return (np.int64(LAST_COUNT[c, np.int64((p >> U64(8 * r)) & BYTE)])
            + np.int64(LAST_COUNT[r, np.int64(col)])
            + np.int64(LAST_COUNT[c, np.int64(d9)])
            + np.int64(LAST_COUNT[c, np.int64(d7)]))


@njit(**NJIT_LLVM_INLINE)
def solve1(p, o, x, alpha):  # type: ignore[no-untyped-def]
    """Score with one empty square ``x`` left: exact, or (fail-soft) a bound at or below
    ``alpha`` when the side to move cannot play there: the opponent's move could only
    lower the score below the final one as it stands, so when that is at or below
    ``alpha`` the opponent's flips are not counted (a lazy count, as Edax's). On a full
    8×8 board the flips are only counted (:func:`last_flip_count`)."""
    full = (p | o | (ONE << U64(x))) == ~ZERO
    d = popcount(p) - popcount(o)
    n = last_flip_count(p, x) if full else 2 * popcount(move_flips(p, o, x))
    if n > 0:
        return d + n + 1
    top = final_score(p, o, np.int64(1))  # neither plays
    if top <= alpha:
        return top
    n = last_flip_count(o, x) if full else 2 * popcount(move_flips(o, p, x))
    if n > 0:
        return d - n - 1
    return top


@njit(**NJIT_LLVM_INLINE)
def _try2(p, o, alpha, x1, x2):  # type: ignore[no-untyped-def]
    best = np.int64(NO_MOVE)
    n = np.int64(0)
    f = move_flips(p, o, x1)
    if f != ZERO:
        n += 1
        b = ONE << U64(x1)
        best = -solve1(o ^ f, p ^ f ^ b, x2, -alpha - 1)
        if best > alpha:
            return best, n
    f = move_flips(p, o, x2)
    if f != ZERO:
        n += 1
        b = ONE << U64(x2)
        v = -solve1(o ^ f, p ^ f ^ b, x1, -alpha - 1)
        if v > best:
            best = v
    return best, n


@njit(**NJIT)
def _try2_call(p, o, alpha, x1, x2):  # type: ignore[no-untyped-def]
    """:func:`_try2` as a call, compiled once: for the opponent's tries after a pass,
    which are rare. Inlined there too, they doubled :func:`_solve2` and so the solvers
    of 3 and 4 empties, whose code every solver and search kernel above them links in
    again (solve3 took 7,582 LLVM instructions, and the engine's cold compile carried
    it about ten times); a loop of two rounds over one inlined copy was as small but
    20 % slower at 3 empties (``benchmarks/leaves.py``)."""
    return _try2(p, o, alpha, x1, x2)


@njit(**NJIT_LLVM_INLINE)
def _solve2(p, o, alpha, x1, x2):  # type: ignore[no-untyped-def]
    """:func:`solve2`'s body, inlined into the 3 empties solver's move loop."""
    v, n = _try2(p, o, alpha, x1, x2)
    if v != NO_MOVE:
        return v, n + 1
    v, n = _try2_call(o, p, -alpha - 1, x1, x2)  # a pass: rare, a call (see _try2_call)
    if v != NO_MOVE:
        return -v, n + 1
    return final_score(p, o, np.int64(2)), np.int64(1)


@njit(**NJIT)
def solve2(p, o, alpha, x1, x2):  # type: ignore[no-untyped-def]
    """Score with empties ``x1``, ``x2`` against the null window (``alpha``, ``alpha +
    1``), fail-soft, and the nodes."""
    return _solve2(p, o, alpha, x1, x2)


@njit(**NJIT_LLVM_INLINE)
def _try3(p, o, alpha, x1, x2, x3):  # type: ignore[no-untyped-def]
    best = np.int64(NO_MOVE)
    n = np.int64(0)
    f = move_flips(p, o, x1)
    if f != ZERO:
        b = ONE << U64(x1)
        best, k = _solve2(o ^ f, p ^ f ^ b, -alpha - 1, x2, x3)
        best = -best
        n += k
        if best > alpha:
            return best, n
    f = move_flips(p, o, x2)
    if f != ZERO:
        b = ONE << U64(x2)
        v, k = _solve2(o ^ f, p ^ f ^ b, -alpha - 1, x1, x3)
        v = -v
        n += k
        if v > alpha:
            return v, n
        if v > best:
            best = v
    f = move_flips(p, o, x3)
    if f != ZERO:
        b = ONE << U64(x3)
        v, k = _solve2(o ^ f, p ^ f ^ b, -alpha - 1, x1, x2)
        v = -v
        n += k
        if v > best:
            best = v
    return best, n


@njit(**NJIT)
def _try3_call(p, o, alpha, x1, x2, x3):  # type: ignore[no-untyped-def]
    """:func:`_try3` as a call, for the opponent's tries after a pass (see
    :func:`_try2_call`)."""
    return _try3(p, o, alpha, x1, x2, x3)


@njit(**NJIT)
def solve3(p, o, alpha, x1, x2, x3):  # type: ignore[no-untyped-def]
    """Score with three empties against the null window (``alpha``, ``alpha + 1``),
    fail-soft, and the nodes."""
    v, k = _try3(p, o, alpha, x1, x2, x3)
    if v != NO_MOVE:
        return v, k + 1
    v, j = _try3_call(o, p, -alpha - 1, x1, x2, x3)  # a pass: rare, a call
    if v != NO_MOVE:
        return -v, k + j + 1
    return final_score(p, o, np.int64(3)), k + j + 1


@njit(**NJIT_INLINE)
def _try4(p, o, alpha, x1, x2, x3, x4):  # type: ignore[no-untyped-def]
    best = np.int64(NO_MOVE)
    n = np.int64(0)
    f = move_flips(p, o, x1)
    if f != ZERO:
        b = ONE << U64(x1)
        best, k = solve3(o ^ f, p ^ f ^ b, -alpha - 1, x2, x3, x4)
        best = -best
        n += k
        if best > alpha:
            return best, n
    f = move_flips(p, o, x2)
    if f != ZERO:
        b = ONE << U64(x2)
        v, k = solve3(o ^ f, p ^ f ^ b, -alpha - 1, x1, x3, x4)
        v = -v
        n += k
        if v > alpha:
            return v, n
        if v > best:
            best = v
    f = move_flips(p, o, x3)
    if f != ZERO:
        b = ONE << U64(x3)
        v, k = solve3(o ^ f, p ^ f ^ b, -alpha - 1, x1, x2, x4)
        v = -v
        n += k
        if v > alpha:
            return v, n
        if v > best:
            best = v
    f = move_flips(p, o, x4)
    if f != ZERO:
        b = ONE << U64(x4)
        v, k = solve3(o ^ f, p ^ f ^ b, -alpha - 1, x1, x2, x3)
        v = -v
        n += k
        if v > best:
            best = v
    return best, n


@njit(**NJIT)
def solve4(p, o, alpha, x1, x2, x3, x4):  # type: ignore[no-untyped-def]
    """Score with four empties, tried in the given order, against the null window
    (``alpha``, ``alpha + 1``), fail-soft, and the nodes."""
    v, k = _try4(p, o, alpha, x1, x2, x3, x4)
    if v != NO_MOVE:
        return v, k + 1
    v, j = _try4(o, p, -alpha - 1, x1, x2, x3, x4)
    if v != NO_MOVE:
        return -v, k + j + 1
    return final_score(p, o, np.int64(4)), k + j + 1


@njit(**NJIT_INLINE)
def _take(first, rest):  # type: ignore[no-untyped-def]
    """Lowest square of ``first`` (or of ``rest`` when ``first`` is empty) and both remainders."""
    if first != ZERO:
        sq = lowest_square(first)
        return sq, first & (first - ONE), rest
    sq = lowest_square(rest)
    return sq, first, rest & (rest - ONE)


@njit(**NJIT)
def solve_le4(p, o, alpha, empty, n):  # type: ignore[no-untyped-def]
    """Score with ``n <= 4`` empties given as a bitboard (odd quadrants first) against the
    null window (``alpha``, ``alpha + 1``), fail-soft, and the nodes."""
    if n == 0:
        return final_score(p, o, np.int64(0)), np.int64(1)
    odd = odd_quadrants(empty)
    a = empty & odd
    r = empty & ~odd
    x1, a, r = _take(a, r)
    if n == 1:
        return solve1(p, o, x1, alpha), np.int64(1)
    x2, a, r = _take(a, r)
    if n == 2:
        return solve2(p, o, alpha, x1, x2)
    x3, a, r = _take(a, r)
    if n == 3:
        return solve3(p, o, alpha, x1, x2, x3)
    x4, a, r = _take(a, r)
    return solve4(p, o, alpha, x1, x2, x3, x4)


# ---- 5 to 7 empties: one loop over the empties, made once per size ----------------


def _shallow_tries(child):  # type: ignore[no-untyped-def]
    """The move loop of a solver of ``n`` empties (5, 6) over ``child``, the solver of
    ``n - 1``, against the null window (``alpha``, ``alpha + 1``): the empties in odd
    quadrants first, each part by the fixed square preference, each tried only if it has
    an opponent disc around (``NEIGHBOUR``), no move list made. Returns the best score
    (``NO_MOVE`` if the side has no move) and the nodes. Inlined into each size's
    top-level solver: a kernel that called itself would not cache (numba #6061), and a
    factory's kernels would share one cache name."""

    @njit(**NJIT_INLINE)
    def tries(p, o, alpha, empty):  # type: ignore[no-untyped-def]
        best = np.int64(NO_MOVE)
        n = np.int64(0)
        odd = odd_quadrants(empty)
        for half in range(2):
            part = empty & (odd if half == 0 else ~odd)
            for g in range(N_GROUPS):
                m = part & GROUPS[g]
                while m != ZERO:
                    sq = lowest_square(m)
                    m &= m - ONE
                    f = move_flips(p, o, sq)
                    if f == ZERO:
                        continue
                    b = ONE << U64(sq)
                    v, k = child(o ^ f, p ^ f ^ b, -alpha - 1, empty ^ b)
                    v = -v
                    n += k
                    if v > best:
                        if v > alpha:
                            return v, n
                        best = v
        return best, n

    return tries


@njit(**NJIT_INLINE)
def _shallow_solve(tries, p, o, alpha, empty, n_empty):  # type: ignore[no-untyped-def]
    """A shallow solver's body: ``tries`` for the side to move, then (a pass) for the
    opponent, in a loop of two (one inlined copy of the loop), else the final score."""
    q, r, a, sign = p, o, alpha, np.int64(1)
    n = np.int64(1)
    for _ in range(2):
        v, k = tries(q, r, a, empty)
        n += k
        if v != NO_MOVE:
            return sign * v, n
        q, r, a, sign = r, q, -a - 1, -sign
    return final_score(p, o, np.int64(n_empty)), n


@njit(**NJIT_INLINE)
def _solve4_set(p, o, alpha, empty):  # type: ignore[no-untyped-def]
    """:func:`solve_le4` of four empties given as a bitboard, inlined into the 5 empties
    solver's move loop (one call a child, :func:`solve4`'s, not two)."""
    odd = odd_quadrants(empty)
    a = empty & odd
    r = empty & ~odd
    x1, a, r = _take(a, r)
    x2, a, r = _take(a, r)
    x3, a, r = _take(a, r)
    x4, a, r = _take(a, r)
    return solve4(p, o, alpha, x1, x2, x3, x4)


_tries5 = _shallow_tries(_solve4_set)


@njit(**NJIT)
def solve5(p, o, alpha, empty):  # type: ignore[no-untyped-def]
    """Score with the five empties ``empty`` against the null window (``alpha``, ``alpha +
    1``), fail-soft, and the nodes."""
    return _shallow_solve(_tries5, p, o, alpha, empty, 5)


_tries6 = _shallow_tries(solve5)


@njit(**NJIT)
def solve6(p, o, alpha, empty):  # type: ignore[no-untyped-def]
    """Score with the six empties ``empty`` against a null window (see :func:`solve5`)."""
    return _shallow_solve(_tries6, p, o, alpha, empty, 6)


@njit(**NJIT_INLINE)
def fastest_first_keys(p, o, empty):  # type: ignore[no-untyped-def]
    """The keys of :func:`_fastest_tries`'s order, packed 4 bits a square, the ``i``-th
    empty (in square order) at bits ``4 i``: twice the opponent's replies after the move,
    plus one for a square outside the odd quadrants (parity breaks ties); 15: not a move.
    Also the number of moves. At most 7 empties (28 bits)."""
    odd = odd_quadrants(empty)
    mask = p | o | empty
    packed = ZERO
    count = np.int64(0)
    m = empty
    i = 0
    while m != ZERO:
        sq = lowest_square(m)
        m &= m - ONE
        f = move_flips(p, o, sq)
        key = U64(15)
        if f != ZERO:
            b = ONE << U64(sq)
            key = U64(2 * popcount(legal_moves(o ^ f, p ^ f ^ b, mask)))
            if (odd & b) == ZERO:
                key += ONE
            count += 1
        packed |= key << U64(4 * i)
        i += 1
    return packed, count


def _fastest_tries(child):  # type: ignore[no-untyped-def]
    """The move loop of a solver of ``n`` empties (7) over ``child`` (the solver of ``n -
    1``) in *fastest-first* order: the move leaving the opponent the fewest replies first,
    a square in an odd quadrant first among equals, then the lower square
    (:func:`fastest_first_keys`; the keys packed in one word, each move picked by a scan
    of them, no list made). Returns as :func:`_shallow_tries`'s loop does."""

    @njit(**NJIT_INLINE)
    def tries(p, o, alpha, empty):  # type: ignore[no-untyped-def]
        best = np.int64(NO_MOVE)
        n = np.int64(0)
        packed, count = fastest_first_keys(p, o, empty)
        size = popcount(empty)
        for _ in range(count):
            pick = 0
            low = U64(15)
            for j in range(size):
                key = (packed >> U64(4 * j)) & U64(15)
                if key < low:
                    low = key
                    pick = j
            packed |= U64(15) << U64(4 * pick)  # taken
            m = empty
            for _j in range(pick):
                m &= m - ONE
            sq = lowest_square(m)
            f = move_flips(p, o, sq)
            b = ONE << U64(sq)
            v, k = child(o ^ f, p ^ f ^ b, -alpha - 1, empty ^ b)
            v = -v
            n += k
            if v > best:
                if v > alpha:
                    return v, n
                best = v
        return best, n

    return tries


_tries7 = _fastest_tries(solve6)


@njit(**NJIT)
def solve7(p, o, alpha, empty):  # type: ignore[no-untyped-def]
    """Score with the seven empties ``empty`` against a null window (see :func:`solve5`)."""
    return _shallow_solve(_tries7, p, o, alpha, empty, 7)


@njit(**NJIT_INLINE)
def _null_window(p, o, alpha, empty, n):  # type: ignore[no-untyped-def]
    """The solver of ``n <= 7`` empties against the null window (``alpha``, ``alpha + 1``)."""
    if n <= 4:
        return solve_le4(p, o, alpha, empty, n)
    if n == 5:
        return solve5(p, o, alpha, empty)
    if n == 6:
        return solve6(p, o, alpha, empty)
    return solve7(p, o, alpha, empty)


@njit(**NJIT)
def _solve_window(p, o, alpha, beta, empty, n):  # type: ignore[no-untyped-def]
    """:func:`solve_small` of a window wider than a null one: null-window tests, each
    from the bound the last one proved. A test at ``x`` returning ``v > x`` proves
    ``score >= v``, one returning ``v <= x`` proves ``score <= v``; so a test at a proven
    lower bound that fails low proves the score exactly."""
    v, k = _null_window(p, o, alpha, empty, n)
    while v > alpha and v < beta:  # score >= v: test just above that bound
        lower = v
        v, j = _null_window(p, o, lower, empty, n)
        k += j
        if v <= lower:
            return lower, k
    return v, k


@njit(**NJIT)
def solve_small(p, o, alpha, beta, empty, n):  # type: ignore[no-untyped-def]
    """Score (fail-soft in ``(alpha, beta)``) of a position with ``n <= 7`` empties, and
    the nodes visited (returned, not counted into an array: an array passed to these
    kernels cost an atomic reference count per call, 12 % of an FFO solve's time). The
    solvers take null windows, as the search asks at these depths; a wider window (a
    principal variation's last empties, or a caller's) is :func:`_solve_window`'s."""
    if beta == alpha + 1:
        return _null_window(p, o, alpha, empty, n)
    return _solve_window(p, o, alpha, beta, empty, n)


@njit(**NJIT)
def solve_small_entry(p, o, mask, alpha, beta):  # type: ignore[no-untyped-def]
    """Python entry point: exact score and node count of a position with at most 7 empties."""
    p = U64(p)
    o = U64(o)
    empty = U64(mask) & ~(p | o)
    return solve_small(p, o, np.int64(alpha), np.int64(beta), empty, popcount(empty))
