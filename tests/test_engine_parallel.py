"""The search on several threads (:mod:`hasamigo.engine.parallel`): exact scores whatever
the threads do with the shared table, the same minimax values as one thread, stops and
node budgets that reach every thread, and a table shared without locks that no torn row
can mislead."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import hasamigo.engine.core as core
import hasamigo.engine.parallel as parallel
from hasamigo import Board
from hasamigo._kernels import hashtable
from hasamigo._kernels.memory import data_pointer
from hasamigo._kernels.search import USE_DEFER, USE_HASH
from hasamigo.engine import Engine, Limit, read_obf

FFO = Path(__file__).parent / "data" / "ffo"


#: the ways of sharing the engine plays with: ABDADA (its default) and the split search
SHIPPED = ["abdada", "split"]


@pytest.fixture
def split_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Share out every node down to 8 empties / 2 plies (the defaults keep the small FFO
    positions mostly on one thread): the most splits, cuts and table traffic; and every
    search from 8 empties / 2 plies for the ways that search the whole root together."""
    monkeypatch.setattr(parallel, "TOGETHER_EMPTIES", 8)
    monkeypatch.setattr(parallel, "TOGETHER_DEPTH", 2)
    monkeypatch.setattr(parallel, "SPLIT_EMPTIES", 8)
    monkeypatch.setattr(parallel, "SPLIT_DEPTH", 2)
    monkeypatch.setattr(parallel, "SPLIT_PLIES", 30)
    monkeypatch.setattr(parallel, "SPLIT_MIDGAME_PLIES", 30)
    monkeypatch.setattr(parallel, "SPLIT_SELECTIVE_DEPTH", 2)
    monkeypatch.setattr(parallel, "SPLIT_SELECTIVE_PLIES", 30)


def _engine(how: str, table_size: int) -> Engine:
    engine = Engine(table_size=table_size, threads=2)
    engine.parallel = how
    return engine


def _solve_ffo_1_19(engine: Engine, rounds: int) -> int:
    records = list(read_obf(FFO / "fforum-1-19.obf"))
    splits = 0
    for r in range(rounds):
        for rec in records:
            a = engine.solve(rec.board)
            assert a.exact, (r, rec.index)
            assert a.score == rec.best_score, (r, rec.index, a.score)
            assert a.move in rec.best_moves, (r, rec.index, a.move)
            splits += a.nodes
    return splits


def test_the_engine_shares_by_abdada() -> None:
    assert Engine(threads=2).parallel == core.PARALLEL == "abdada"


@pytest.mark.parametrize(("how", "threads", "defers"),
                         [("abdada", 2, True), ("lazy", 2, False), ("abdada", 1, False)])
def test_only_abdadas_threads_defer_moves(how: str, threads: int, defers: bool,
                                          monkeypatch: pytest.MonkeyPatch,
                                          split_everywhere: None) -> None:
    """ABDADA's threads, and only they, search with the kernel's ``USE_DEFER``; a search
    on one thread never does."""
    flags: list[int] = []
    kernel = core.search

    def spy(*args: object) -> int:
        flags.append(int(args[-1]))  # type: ignore[call-overload]
        return int(kernel(*args))

    monkeypatch.setattr(core, "search", spy)
    engine = Engine(threads=threads)
    engine.parallel = how
    board = next(iter(read_obf(FFO / "fforum-1-19.obf"))).board
    engine.solve(board)
    assert flags and any(f & USE_DEFER for f in flags) == defers
    assert all(f & ~USE_DEFER == core.SEARCH_FLAGS for f in flags)


@pytest.mark.parametrize("how", SHIPPED)
def test_two_threads_solve_ffo_1_19_exactly(how: str, split_everywhere: None) -> None:
    """Every score and best move of FFO #1-#19 as the file gives them, three times over
    with one table shared (small: rows replaced and written by both threads at once)."""
    assert _solve_ffo_1_19(_engine(how, 1 << 12), 3) > 0


@pytest.mark.slow
@pytest.mark.parametrize("how", SHIPPED)
def test_two_threads_solve_ffo_1_19_a_hundred_times(how: str, split_everywhere: None) -> None:
    """The issue's check: the exact solver on two threads over FFO #1-#19 a hundred
    times, the table shared all along: every score exact every time."""
    assert _solve_ffo_1_19(_engine(how, 1 << 14), 100) > 0


@pytest.mark.parametrize("mode", ["abdada", "split", "lazy", "root"])
def test_every_way_of_sharing_solves_exactly(mode: str, split_everywhere: None) -> None:
    engine = Engine(table_size=1 << 14, threads=2)
    engine.parallel = mode
    assert _solve_ffo_1_19(engine, 1) > 0


def _random_board(rng: random.Random, empties: int) -> Board:
    while True:
        board = Board()
        while board.empties.bit_count() > empties and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over():
            return board.copy(stack=False)


@pytest.mark.parametrize("how", SHIPPED)
def test_the_same_values_as_one_thread_without_a_table(
        how: str, split_everywhere: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the table (whose deeper rows may answer a fixed-depth node with a deeper
    score, in whatever order the threads wrote them) a fixed-depth search is a minimax
    value: two threads find the one thread's, for the best move and for every move."""
    monkeypatch.setattr(core, "SEARCH_FLAGS", core.SEARCH_FLAGS & ~USE_HASH)
    one, two = Engine(table_size=1 << 10), _engine(how, 1 << 10)
    rng = random.Random(54)
    for _ in range(4):
        board = _random_board(rng, rng.randint(30, 44))
        assert one.analyse(board, Limit(depth=5)).score == two.analyse(
            board, Limit(depth=5)).score
        h1, h2 = one.hints(board, Limit(depth=4)), two.hints(board, Limit(depth=4))
        assert sorted((h.move.square or -1, h.score) for h in h1) == sorted(
            (h.move.square or -1, h.score) for h in h2)


@pytest.mark.parametrize("how", SHIPPED)
def test_selective_searches_on_two_threads_stay_sound(how: str,
                                                      split_everywhere: None) -> None:
    """Probable cuts at the shared nodes as in the kernel: a selective midgame search on
    two threads answers a legal move and a score in range; exact solves after it (the
    same table, its selective rows kept apart by their confidence) stay exact."""
    two = _engine(how, 1 << 14)
    one = Engine(table_size=1 << 14)
    rng = random.Random(7)
    for _ in range(3):
        board = _random_board(rng, 16)
        a = two.analyse(board, Limit(depth=8), selectivity=2)
        assert a.move in board.legal_moves and -64 <= a.score <= 64
        assert two.solve(board).score == one.solve(board).score


def test_a_selective_midgame_pass_shares_only_its_bigger_nodes() -> None:
    """A selective pass's kernel calls mostly end at once in a probable cut: it shares
    from a greater depth than a full-width one (whose threshold it would lose time at);
    an exact solve shares by its empties whatever its selectivity."""
    full, selective = parallel.SPLIT_DEPTH, parallel.SPLIT_SELECTIVE_DEPTH
    assert full < selective
    assert parallel.worth_sharing(40, full + 1)
    assert not parallel.worth_sharing(40, full + 1, probcut=3)
    assert not parallel.worth_sharing(40, selective, probcut=3)
    assert parallel.worth_sharing(40, selective + 1, probcut=3)
    small, big = parallel.SPLIT_EMPTIES, parallel.SPLIT_EMPTIES + 1
    assert not parallel.worth_sharing(small, 60, probcut=3)
    assert parallel.worth_sharing(big, 60, probcut=3) and parallel.worth_sharing(big, 60)


def test_abdada_shares_every_search_longer_than_starting_its_helpers() -> None:
    """ABDADA has no Python in the tree, so a selective pass shares from the depth a
    full-width one does; an exact solve by its empties."""
    depth, empties = parallel.TOGETHER_DEPTH, parallel.TOGETHER_EMPTIES
    for probcut in (0, 3):
        assert parallel.worth_sharing(40, depth + 1, probcut, "abdada")
        assert not parallel.worth_sharing(40, depth, probcut, "abdada")
        assert parallel.worth_sharing(empties + 1, 60, probcut, "abdada")
        assert not parallel.worth_sharing(empties, 60, probcut, "abdada")


@pytest.mark.parametrize("how", SHIPPED)
def test_a_node_budget_stops_every_thread(how: str, split_everywhere: None) -> None:
    """A node budget on two threads: the solve stops (not exact) having searched about
    the budget, not the whole tree (FFO #45 takes hundreds of millions)."""
    rec = next(r for r in read_obf(FFO / "fforum-40-59.obf") if r.index == 45)
    engine = _engine(how, 1 << 16)
    a = engine.solve(rec.board, limit=Limit(nodes=200_000))
    assert not a.exact
    assert a.nodes < 50_000_000
    assert a.move in rec.board.legal_moves


@pytest.mark.parametrize("how", SHIPPED)
def test_stop_from_another_thread_reaches_every_search(how: str,
                                                       split_everywhere: None) -> None:
    rec = next(r for r in read_obf(FFO / "fforum-40-59.obf") if r.index == 45)
    engine = _engine(how, 1 << 16)
    answer: list[object] = []
    worker = threading.Thread(target=lambda: answer.append(engine.solve(rec.board)))
    worker.start()
    while (engine._split is None and not engine._helper_stops  # its first shared pass
           and worker.is_alive()):
        threading.Event().wait(0.01)
    engine.stop()
    worker.join(timeout=120)
    assert not worker.is_alive(), "a thread of the search did not stop"
    assert answer and not answer[0].exact  # type: ignore[attr-defined]


@njit(nogil=True)
def _hammer(table, p, o, data_of, rounds):  # type: ignore[no-untyped-def]
    """Store ``rounds`` times each of the positions ``p[i], o[i]`` (all in one bucket)
    with its own entry, probing after each store: returns how many probes found an
    entry that is not the one stored for that position."""
    tab = data_pointer(table)
    rows = table.shape[0]
    wrong = 0
    for r in range(rounds):
        for i in range(p.shape[0]):
            lo = data_of[i]
            hashtable.hash_store(tab, rows, p[i], o[i], np.int64(20 + (r & 1)), np.int64(7),
                                 np.int64(r & 0xFFFF), lo - 1, lo + 1, lo, np.int64(i))
            e = hashtable.hash_probe(tab, rows, p[i], o[i])
            if e != 0 and (hashtable.entry_lower(e) != lo or hashtable.entry_move(e) != i):
                wrong += 1
    return wrong


def test_two_threads_writing_one_bucket_never_read_a_wrong_row() -> None:
    """Two threads (the kernel without the GIL) storing different positions into the same
    two-row bucket at once, a million times each: a probe finds its own entry or none,
    never another position's bound (a torn row does not match its key)."""
    table = hashtable.hash_new(2)  # one bucket: every store competes for it
    rng = random.Random(3)

    def positions(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        p = np.array([rng.getrandbits(63) for _ in range(k)], dtype=np.uint64)
        o = np.array([rng.getrandbits(63) for _ in range(k)], dtype=np.uint64) & ~p
        return p, o, np.array([rng.randint(-60, 60) for _ in range(k)], dtype=np.int64)

    work = [positions(3), positions(3)]
    _hammer(table, *work[0], 1)  # compiled before the race
    wrong = [0, 0]

    def run(k: int) -> None:
        wrong[k] = int(_hammer(table, *work[k], 1_000_000))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == [0, 0]
