"""The kernel's deferred moves (``USE_DEFER``, the ABDADA of :mod:`hasamigo.engine.parallel`):
a move another thread is searching (marked in the table) is searched after the node's other
moves. That may change the order and the nodes, never a score; and a search that ends
leaves no mark of its own behind. The marks are forced here, on one thread, so that the
deferrals happen where the test says."""

from __future__ import annotations

import random

import numpy as np
from naive_search import ALL, moves, play, random_position
from numba import njit

from hasamigo._kernels import hashtable, search
from hasamigo._kernels.hashtable import BUSY, hash_new
from hasamigo._kernels.memory import data_pointer
from hasamigo._kernels.search import ABORTED, ALL_FLAGS, CTL_SIZE, LIMIT, NODES, USE_DEFER
from hasamigo.engine.evaluation import evaluation_params

PARAMS = evaluation_params("trained")


@njit
def _mark_(table, p, o):  # type: ignore[no-untyped-def]
    hashtable.hash_mark(data_pointer(table), table.shape[0], p, o)


def _mark(table: np.ndarray, p: int, o: int) -> None:
    _mark_(table, np.uint64(p), np.uint64(o))


@njit
def _unmark_(table, p, o):  # type: ignore[no-untyped-def]
    hashtable.hash_unmark(data_pointer(table), table.shape[0], p, o)


def _unmark(table: np.ndarray, p: int, o: int) -> None:
    _unmark_(table, np.uint64(p), np.uint64(o))


@njit
def _busy_(table, p, o):  # type: ignore[no-untyped-def]
    return hashtable.hash_busy(data_pointer(table), table.shape[0], p, o)


def _busy(table: np.ndarray, p: int, o: int) -> bool:
    return bool(_busy_(table, np.uint64(p), np.uint64(o)))


def _search(p: int, o: int, depth: int, flags: int, table: np.ndarray,
            alpha: int = -64, beta: int = 64, limit: int = 0) -> tuple[int, int]:
    ctl = np.zeros(CTL_SIZE, dtype=np.int64)
    ctl[LIMIT] = limit
    stop = np.zeros(1, dtype=np.int64)
    v = search.search(np.uint64(p), np.uint64(o), np.uint64(ALL), depth, alpha, beta, table,
                      1, PARAMS, stop, ctl, flags)
    assert bool(ctl[ABORTED]) == (limit > 0 and ctl[NODES] >= limit)
    return int(v), int(ctl[NODES])


def _descendants(p: int, o: int, plies: int) -> list[tuple[int, int]]:
    """The positions 1..``plies`` plies below ``(p, o)`` (a pass: the sides swapped)."""
    out: list[tuple[int, int]] = []
    level = [(p, o)]
    for _ in range(plies):
        nxt = []
        for q, r in level:
            children = [play(q, r, sq, f) for sq, f in moves(q, r)] or (
                [(r, q)] if moves(r, q) else [])
            nxt.extend(children)
        out.extend(nxt)
        level = nxt
    return out


def _positions(seed: int, count: int, lo: int, hi: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = random_position(rng, rng.randint(lo, hi))
        if pos is not None and moves(*pos):
            out.append(pos)
    return out


def test_a_mark_names_its_position() -> None:
    table = hash_new(1 << 6)
    p, o = 0x0000000810000000, 0x0000001008000000
    assert not _busy(table, p, o)
    _mark(table, p, o)
    assert _busy(table, p, o) and not _busy(table, o, p)
    _unmark(table, o, p)  # another position's unmark leaves it
    assert _busy(table, p, o)
    _unmark(table, p, o)
    assert not _busy(table, p, o) and not table[:, BUSY].any()


def test_deferred_moves_keep_every_score() -> None:
    """Midgame searches from the depth that defers and exact solves from the empties that
    do, with a random half of the positions one and two plies down marked as another
    thread's: the scores of a search without deferring, in a full window and as bounds
    in null windows; and the marks do change the order somewhere (other node counts)."""
    rng = random.Random(54)
    changed = 0
    cases = [(p, o, d) for p, o in _positions(1, 6, 26, 40)
             for d in (search.DEFER_MIN_DEPTH, search.DEFER_MIN_DEPTH + 1)]
    cases += [(p, o, 64) for p, o in _positions(2, 8, search.DEFER_MIN_EMPTIES,
                                                 search.DEFER_MIN_EMPTIES + 3)]
    for p, o, depth in cases:
        ref, ref_nodes = _search(p, o, depth, ALL_FLAGS, hash_new(1 << 14))
        table = hash_new(1 << 14)
        for q, r in _descendants(p, o, 2):
            if rng.random() < 0.5:
                _mark(table, q, r)
        v, nodes = _search(p, o, depth, ALL_FLAGS | USE_DEFER, table)
        assert v == ref, (hex(p), hex(o), depth)
        changed += nodes != ref_nodes
        low = _search(p, o, depth, ALL_FLAGS | USE_DEFER, table, ref, ref + 1)[0]
        high = _search(p, o, depth, ALL_FLAGS | USE_DEFER, table, ref - 1, ref)[0]
        assert low <= ref <= high, (hex(p), hex(o), depth)
    assert changed > 0


def test_a_search_that_ends_leaves_no_mark() -> None:
    """Every mark the search made is taken away as its move is answered: a finished
    search leaves the table's spare words as it found them."""
    for p, o, depth in [(p, o, 64) for p, o in _positions(3, 4, 14, 16)] + [
            (p, o, 8) for p, o in _positions(4, 4, 30, 40)]:
        table = hash_new(1 << 14)
        _search(p, o, depth, ALL_FLAGS | USE_DEFER, table)
        assert table[:, hashtable.DATA].any()  # it searched, with the table
        assert not table[:, BUSY].any(), (hex(p), hex(o), depth)


def test_a_stopped_search_leaves_no_mark() -> None:
    """A search stopped deep inside the tree (a node budget, as the engine's clock stops
    its last iteration) takes its marks away as it returns."""
    for p, o in _positions(5, 4, 18, 20):
        table = hash_new(1 << 14)
        _, nodes = _search(p, o, 64, ALL_FLAGS | USE_DEFER, table, limit=20_000)
        assert nodes >= 20_000  # stopped
        assert table[:, hashtable.DATA].any()
        assert not table[:, BUSY].any(), (hex(p), hex(o))
