"""The exact solve's root window (aspiration around the presearch score) never changes
the answer: same score as a full-window solve, on FFO positions and random endgames."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import hasamigo.engine.core as core
from hasamigo import Board
from hasamigo._kernels.hashtable import DATA, KEY_O, KEY_P, entry_depth
from hasamigo.engine import Engine
from hasamigo.engine.obf import read_obf

FFO = Path(__file__).parent / "data" / "ffo" / "fforum-1-19.obf"


def random_endgame(rng: random.Random, empties: int) -> Board:
    while True:
        board = Board()
        while board.empties.bit_count() > empties and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over() and board.legal_moves_mask():
            return board


def solve_both(board: Board, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    scores = []
    for flag in (True, False):
        monkeypatch.setattr(core, "EXACT_ASPIRATION", flag)
        scores.append(Engine(table_size=1 << 16).solve(board).score)
    return scores[0], scores[1]


def test_aspiration_root_gives_the_full_window_score_on_ffo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for record in read_obf(FFO)[:6]:
        with_window, full = solve_both(record.board, monkeypatch)
        assert with_window == full == record.best_score


def test_aspiration_root_gives_the_full_window_score_on_random_endgames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(2026)
    for _ in range(12):
        board = random_endgame(rng, rng.randint(13, 16))
        with_window, full = solve_both(board, monkeypatch)
        assert with_window == full


def test_selective_passes_do_not_change_the_exact_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Solves from 14 empties with probable-cut passes first give the same scores as
    without them (FFO answers, then random endgames)."""
    boards = [r.board for r in read_obf(FFO)[:4]]
    rng = random.Random(7)
    boards += [random_endgame(rng, rng.randint(14, 17)) for _ in range(8)]
    for board in boards:
        scores = []
        for threshold in (14, 99):
            monkeypatch.setattr(core, "SELECTIVE_EMPTIES", threshold)
            analysis = Engine(table_size=1 << 16).solve(board)
            assert analysis.exact
            scores.append(analysis.score)
        assert scores[0] == scores[1]


def test_a_selective_pass_leaves_no_bounds_an_exact_search_trusts() -> None:
    """Rows stored by a pass with probable cuts carry its confidence level: an exact
    search on the same table afterwards still finds the exact score."""
    import numpy as np

    from hasamigo._kernels.hashtable import hash_new
    from hasamigo._kernels.search import ALL_FLAGS, CTL_SIZE, PROBCUT, search
    from hasamigo.engine.evaluation import evaluation_params

    params = evaluation_params()
    rng = random.Random(11)
    for _ in range(6):
        board = random_endgame(rng, 16)
        p, o = (board.black, board.white) if board.turn.name == "BLACK" else (
            board.white, board.black)
        mask = board.playable()

        def run(table, alpha, beta, level, p=p, o=o, mask=mask):
            ctl = np.zeros(CTL_SIZE, dtype=np.int64)
            ctl[PROBCUT] = level
            return int(search(np.uint64(p), np.uint64(o), np.uint64(mask), 64, alpha, beta,
                              table, 1, params, np.zeros(1, dtype=np.int64), ctl,
                              ALL_FLAGS))

        fresh = run(hash_new(1 << 14), -64, 64, 0)
        table = hash_new(1 << 14)
        for window in ((fresh - 12, fresh - 10), (fresh + 10, fresh + 12), (-64, 64)):
            run(table, *window, 1)  # the most selective level: many cut nodes
        assert run(table, -64, 64, 0) == fresh


def _rows(table) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    """(empties, depth searched) of each row of a table (its position from its key words)."""
    out = []
    for row in table:
        depth = int(entry_depth(row[DATA]))
        if depth < 0:
            continue
        data = int(row[DATA])
        p, o = int(row[KEY_P]) ^ data, int(row[KEY_O]) ^ data
        out.append((64 - (p | o).bit_count(), depth))
    return out


def test_the_presearch_writes_its_own_table_and_leaves_the_solve_exact() -> None:
    """The short midgame search that orders an exact solve's root stores its rows in a
    table of its own: the engine's table holds only the exact search's (searched to the
    end), so no node of the solve takes a shallow search's move first."""
    for record in read_obf(FFO.with_name("fforum-40-59.obf"))[:2]:  # 20 and 22 empties
        engine = Engine(table_size=1 << 18)
        analysis = engine.solve(record.board)
        assert analysis.exact and analysis.score == record.best_score
        main = _rows(engine._table)
        assert main and all(depth >= empties for empties, depth in main)
        pre = _rows(engine._presearch_table)
        assert any(depth < empties for empties, depth in pre)


def test_clear_forgets_the_presearch_table_too() -> None:
    """After :meth:`Engine.clear` a solve searches the tree a fresh engine does: nothing
    the last solve's presearch stored is left to answer the next one's."""
    board = read_obf(FFO.with_name("fforum-40-59.obf"))[0].board  # 20 empties
    fresh = Engine(table_size=1 << 18).solve(board)
    engine = Engine(table_size=1 << 18)
    engine.solve(board)
    engine.clear()
    again = engine.solve(board)
    assert (again.score, again.nodes) == (fresh.score, fresh.nodes)
