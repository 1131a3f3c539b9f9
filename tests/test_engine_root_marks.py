"""ABDADA at the root (:mod:`hasamigo.engine.root`, :class:`~hasamigo.engine.root.RootMarks`):
the root moves a thread searches are marked while it does, the other threads defer them,
and a search unmarks its moves however it ends."""

from __future__ import annotations

import random

import pytest

import hasamigo.engine.parallel as parallel
import hasamigo.engine.root as root
from hasamigo import Board
from hasamigo.engine import Engine, Limit
from hasamigo.engine.grid import GRID8
from hasamigo.engine.root import RootMarks, search_root

FULL = 2**64 - 1  # every square of the 8x8 board


def busy(marks: RootMarks, *moves: int) -> None:
    """``moves`` as another thread's, being searched now."""
    for sq in moves:
        assert marks.take(sq, wait=False)


def test_a_move_another_thread_searches_goes_last() -> None:
    marks = RootMarks()
    busy(marks, 12)
    seen = []
    for sq in root._marked([3, 12, 20, 33], marks):
        seen.append(sq)
        if sq == 33:
            marks.release(12)  # the other thread is done with it
    assert seen == [3, 20, 33, 12]


def test_the_first_move_is_searched_first_even_if_another_thread_has_it() -> None:
    """The eldest brother's right: every thread searches the first move (its score bounds
    the tests of the others)."""
    marks = RootMarks()
    busy(marks, 3)
    assert list(root._marked([3, 12, 20], marks)) == [3, 12, 20]


def test_moves_all_busy_are_searched_anyway_rather_than_waited_for() -> None:
    """With more threads than free moves, a thread does not spin on the marks: once every
    move left is another's, it searches them in order."""
    marks = RootMarks()
    busy(marks, 12, 20)
    assert list(root._marked([3, 12, 20], marks)) == [3, 12, 20]


def test_a_thread_marks_the_move_it_searches_and_only_while_it_does() -> None:
    marks = RootMarks()
    moves = root._marked([3, 12, 20], marks)
    assert next(moves) == 3
    assert not marks.take(3, wait=True)  # another thread would defer it
    assert next(moves) == 12
    assert marks.take(3, wait=True)  # free again
    marks.release(3)
    moves.close()  # the search cut: its last move unmarked too
    assert marks.take(12, wait=True) and marks.take(20, wait=True)


def _toy_kernel(fail_at: int | None = None):  # type: ignore[no-untyped-def]
    """A child "search" that scores a child by a fixed hash of it, whatever the window (so
    every pair is that move's score), raising at the ``fail_at``-th call (a stop)."""
    calls = [0]

    def kernel(p: int, o: int, mask: int, depth: int, alpha: int, beta: int) -> int:
        calls[0] += 1
        if fail_at is not None and calls[0] == fail_at:
            raise RuntimeError("stopped")
        return random.Random(p * 31 + o).randrange(-20, 21)

    return kernel


@pytest.mark.parametrize("taken", [(), (19,), (26, 37), (19, 26, 37, 44)])
def test_deferring_root_moves_changes_no_score(taken: tuple[int, ...]) -> None:
    """Whichever moves another thread holds, the best score and each move's score are one
    thread's; the best move's pair is the first of the highest score."""
    p, o = Board().pair()
    order = [19, 26, 37, 44]
    for every in (False, True):
        plain = search_root(_toy_kernel(), GRID8, 1, p, o, FULL, 3, -64, 64, order, every)
        marks = RootMarks()
        busy(marks, *taken)
        marked = search_root(_toy_kernel(), GRID8, 1, p, o, FULL, 3, -64, 64, order, every,
                             marks)
        assert marked[0] == plain[0]
        assert sorted(marked[1]) == sorted(plain[1])
        best = max(v for v, _ in marked[1])
        assert next(sq for v, sq in marked[1] if v == best) == \
            next(sq for v, sq in plain[1] if v == best)


def test_a_stopped_root_search_leaves_no_mark() -> None:
    p, o = Board().pair()
    marks = RootMarks()
    with pytest.raises(RuntimeError):
        search_root(_toy_kernel(fail_at=2), GRID8, 1, p, o, FULL, 3, -64, 64,
                    [19, 26, 37, 44], False, marks)
    for sq in (19, 26, 37, 44):
        assert marks.take(sq, wait=True)


@pytest.mark.parametrize(("how", "marked"), [("abdada", True), ("lazy", False)])
def test_only_abdadas_threads_share_root_marks(how: str, marked: bool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """ABDADA's threads search the root with one set of marks; lazy SMP's, whose root
    orders differ on purpose, with none."""
    seen: list[RootMarks | None] = []
    real = parallel.search_root

    def spy(*args: object) -> tuple[int, list[tuple[int, int]]]:
        seen.append(args[11] if len(args) > 11 else None)  # type: ignore[arg-type]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel, "search_root", spy)
    monkeypatch.setattr(parallel, "TOGETHER_DEPTH", 2)
    engine = Engine(table_size=1 << 12, threads=2)
    engine.parallel = how
    board = Board()
    rng = random.Random(5)
    for _ in range(12):
        board.push(rng.choice(list(board.legal_moves)))
    engine.analyse(board, Limit(depth=4))
    assert seen
    if marked:
        assert all(isinstance(m, RootMarks) for m in seen)
        assert len({id(m) for m in seen}) < len(seen)  # the threads of a search share one
    else:
        assert all(m is None for m in seen)

