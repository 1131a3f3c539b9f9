"""The exact solve's root window (aspiration around the presearch score) never changes
the answer: same score as a full-window solve, on FFO positions and random endgames."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import hasamigo.engine.core as core
from hasamigo import Board
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
