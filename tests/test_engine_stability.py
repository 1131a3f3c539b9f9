"""Stable discs: the fast kernel finds a subset of the discs no sequence of moves can flip,
checked by exhaustive play-out; the stability cutoff never changes a solved score."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_search import ALL, flips, negamax, random_position

from hasamigo._kernels.stability import full_lines, stable_discs_entry


def reachable_stable(p: int, o: int, mask: int = ALL) -> int:
    """Discs of ``p`` that keep their colour in every position reachable by any sequence of
    legal moves by either side, in any order (more sequences than real games allow, so this
    is a subset of the truly stable discs... and the kernel must find a subset of it)."""
    seen = {(p, o)}
    todo = [(p, o)]
    keep = p
    while todo:
        a, b = todo.pop()
        keep &= a
        if not keep:
            break
        empty = [sq for sq in range(64) if mask >> sq & 1 and not (a | b) >> sq & 1]
        for x, y, mine in ((a, b, True), (b, a, False)):
            for sq in empty:
                f = flips(x, y, sq)
                if f:
                    nx, ny = x | f | 1 << sq, y & ~f
                    nxt = (nx, ny) if mine else (ny, nx)
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
    return keep


def kernel_stable(p: int, o: int, mask: int = ALL) -> int:
    return int(stable_discs_entry(np.uint64(p), np.uint64(o), np.uint64(mask)))


def test_stable_discs_are_never_flipped_by_any_play_out() -> None:
    rng = random.Random(2024)
    checked = found = 0
    while checked < 240:  # the play-out grows fast: about 0.2 s a position at 7 empties
        pos = random_position(rng, 7 if checked % 20 == 0 else rng.randint(0, 6))
        if pos is None:
            continue
        p, o = pos
        for x, y in ((p, o), (o, p)):
            s = kernel_stable(x, y)
            assert s & ~x == 0
            truth = reachable_stable(x, y)
            assert s & ~truth == 0, (hex(x), hex(y), hex(s), hex(truth))
            found += bin(s).count("1")
        checked += 1
    assert found > 800  # the estimate is not trivially empty


def test_known_stable_patterns() -> None:
    # corners and runs from them along the edges
    assert kernel_stable(0x8000000000000081, 0) == 0x8000000000000081
    assert kernel_stable(0x0F, 0x10) == 0x0F
    assert kernel_stable(0x0E, 0x10) == 0  # no corner: c1 can be taken from a1
    # a full board: everything is stable
    assert kernel_stable(0x00FF00FF00FF00FF, 0xFF00FF00FF00FF00) == 0x00FF00FF00FF00FF
    # a disc whose four lines are full is stable even in the middle of the board
    empty = 1 << 0  # a1 empty: no line through d5 (row 5, column d, both diagonals) uses it
    p = 1 << 35
    assert kernel_stable(p, ALL & ~empty & ~p) & p == p
    empty = 1 << 59  # d8 empty: column d of d5 is open
    assert kernel_stable(p, ALL & ~empty & ~p) & p == 0


def test_holes_count_as_edges_on_other_shapes() -> None:
    from hasamigo.variants import find_variant

    cls = find_variant("6x6")
    mask = cls.playable()
    board = cls()
    rng = random.Random(9)
    checked = 0
    while checked < 60:
        pos = random_position(rng, rng.randint(0, 6), start=(board.black, board.white),
                              mask=mask)
        if pos is None:
            continue
        p, o = pos
        s = kernel_stable(p, o, mask)
        assert s & ~reachable_stable(p, o, mask) == 0
        checked += 1
    # the 6×6 corner (b2) is stable
    b2 = 1 << 9
    assert kernel_stable(b2, 0, mask) == b2


def test_stability_bound_caps_the_exact_score() -> None:
    rng = random.Random(31)
    checked = 0
    while checked < 80:
        pos = random_position(rng, rng.randint(1, 8))
        if pos is None:
            continue
        p, o = pos
        bound = 64 - 2 * bin(kernel_stable(o, p)).count("1")
        assert negamax(p, o) <= bound
        checked += 1


def _lines_without(empty: int) -> tuple[int, int, int, int]:
    """The squares whose row, column, a1-h8 and a8-h1 diagonal hold no square of
    ``empty``: one line at a time, by its squares' coordinates."""
    keys = (lambda r, c: r, lambda r, c: c, lambda r, c: r - c, lambda r, c: r + c)
    out = []
    for key in keys:
        blocked = {key(*divmod(sq, 8)) for sq in range(64) if empty >> sq & 1}
        out.append(sum(1 << sq for sq in range(64) if key(*divmod(sq, 8)) not in blocked))
    return out[0], out[1], out[2], out[3]


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 63)))
def test_full_lines_match_a_line_by_line_count(squares: set[int]) -> None:
    empty = sum(1 << sq for sq in squares)
    got = tuple(int(x) for x in full_lines(np.uint64(empty)))
    assert got == _lines_without(empty)
