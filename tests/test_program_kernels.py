"""Which compiled kernels each program needs (issue 50), and Weakest without the engine.

A fresh server compiles the kernel groups in order (``rules``, ``players``, ``engine``;
``wide`` when a wide board is first played) and lets each program move as soon as its own
are loaded: the registry tells them without starting the program. Weakest needs only the
``players`` group: until the engine's kernels are loaded it scores the moves with the
paper's weighted-square search, and it must lose as surely.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

from hasamigo import BLACK, Board
from hasamigo.engine import Engine, Limit
from hasamigo.engine.players import make_player, program_kernels
from hasamigo.engine.players.strong import WeakestPlayer
from hasamigo.variants import find_variant

GRAND = find_variant("grand")
SIX = find_variant("6x6")
NIP = find_variant("nip-octagon")


def groups(spec: str, variant: type[Board] = Board) -> tuple[list[str], list[str]]:
    needed, better = program_kernels(spec, variant)
    return sorted(needed), sorted(better)


def test_each_program_declares_the_kernels_it_needs() -> None:
    assert groups("random") == groups("greedy") == (["rules"], [])
    assert groups("victory") == groups("amusement") == groups("amusement:swing") \
        == (["players", "rules"], [])
    assert groups("entertainer") == groups("engine:1") == groups("engine:top") \
        == (["engine", "rules"], [])
    assert groups("weakest") == (["players", "rules"], ["engine"])
    # an external engine is a process of its own: only the board's kernels here
    assert groups("nboard:/usr/bin/edax -q") == groups("gtp:gnugo") == (["rules"], [])
    # the 10-column grid: the board's own kernels, and the wide engine
    assert groups("random", GRAND) == (["wide-rules"], [])
    assert groups("engine:5", GRAND) == (["wide", "wide-rules"], [])
    assert groups("weakest", GRAND) == (["wide-rules"], ["wide"])
    # rules the kernels do not know: the engine searches through the Board API
    assert groups("engine:5", NIP) == (["rules"], [])
    # the top level plays the small boards perfectly, with their solver
    assert groups("engine:top", SIX) == (["engine", "rules", "smallboard"], [])
    assert groups("engine:9", SIX) == (["engine", "rules"], [])


# ---- Weakest without the engine ---------------------------------------------------------------
def without_engine(seed: int) -> WeakestPlayer:
    player = make_player("weakest", seed=seed)
    assert isinstance(player, WeakestPlayer)
    player.kernels_ready = lambda group: group not in ("engine", "wide")
    return player


def random_position(rng: random.Random, plies: int, variant: type[Board] = Board) -> Board:
    board = variant()
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    return board


def test_without_the_engine_weakest_plays_the_exact_worst_near_the_end() -> None:
    """From 12 empties both ways are exact: the move it picks without the engine is one
    the engine's exact scores put last too."""
    rng = random.Random(11)
    engine = Engine(table_size=1 << 14)
    checked = 0
    while checked < 6:
        board = random_position(rng, 50)
        if board.is_game_over() or board.must_pass():
            continue
        player = without_engine(checked)
        move = player.choose(board)
        lines = engine.hints(board, Limit(depth=board.empties.bit_count()))
        worst = min(line.score for line in lines)
        assert {line.score for line in lines if line.move == move} == {worst}
        assert player.last_reason is not None and "exact" in player.last_reason
        assert "weighted squares while the engine is being prepared" in player.last_reason
        checked += 1


def test_weakest_switches_to_the_engine_once_it_is_loaded() -> None:
    player = without_engine(1)
    loaded = {"engine": False}
    player.kernels_ready = lambda group: group != "engine" or loaded["engine"]
    board = Board()
    player.choose(board)
    assert player.last_reason is not None and "while the engine" in player.last_reason
    loaded["engine"] = True
    player.choose(board)
    assert player.last_reason is not None and "while the engine" not in player.last_reason
    assert player.last_reason.startswith("weakest: worst for itself (depth 4")


def play(black: object, white: object, variant: type[Board] = Board) -> int:
    """The game's disc difference for Black (the official count)."""
    board = variant()
    while not board.is_game_over():
        player = black if board.turn is BLACK else white
        board.push(player.choose(board))  # type: ignore[attr-defined]
    outcome = board.outcome()
    assert outcome is not None
    return outcome.disc_difference


def test_without_the_engine_weakest_loses_to_random_as_surely() -> None:
    """Against Random over 40 games (seeded, so the same every run), the engine's Weakest
    won 4 and lost by 21.7 discs on average; without the engine it won 1 and lost by 22.5.
    Here 16 of those games, with the engine's figure as the bar."""
    margins = []
    for seed in range(16):
        weakest, other = without_engine(seed), make_player("random", seed=seed + 100)
        if seed % 2 == 0:
            margins.append(play(weakest, other))
        else:
            margins.append(-play(other, weakest))
    assert sum(m > 0 for m in margins) <= 2
    assert sum(margins) / len(margins) < -15


def test_without_the_wide_engine_weakest_plays_a_grand_board_by_the_boards_search() -> None:
    rng = random.Random(3)
    player = without_engine(2)
    for plies in (0, 20, 80):
        board = random_position(rng, plies, GRAND)
        if board.is_game_over() or board.must_pass():
            continue
        move = player.choose(board)
        assert board.is_legal(move)
        assert player.last_reason is not None
        assert "by the board's own search while the engine is being prepared" \
            in player.last_reason


COMPILES = textwrap.dedent(
    """
    import json
    from numba.core import event
    compiled = []
    class Count(event.Listener):
        def on_start(self, e):
            d = e.data['dispatcher']
            compiled.append(d.py_func.__module__.rsplit('.', 1)[-1])
        def on_end(self, e):
            pass
    event.register('numba:compile', Count())
    from hasamigo import Board
    from hasamigo.engine.players import make_player
    from hasamigo.variants import find_variant
    for variant in (Board, find_variant('grand')):
        player = make_player('weakest', seed=1)
        player.kernels_ready = lambda group: False
        board = variant()
        for _ in range(4):
            board.push(player.choose(board))
    print(json.dumps(sorted(set(compiled))))
    """
)


def test_weakest_without_the_engine_compiles_none_of_its_kernels(tmp_path: Path) -> None:
    """On an empty cache (a fresh ``NUMBA_CACHE_DIR``): moves and the weighted search on
    the 8×8 grid, the board's own kernels on the 10-column grid; nothing of the engine's
    search, solver, evaluation or wide search."""
    proc = subprocess.run([sys.executable, "-c", COMPILES], capture_output=True, text=True,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    modules = set(json.loads(proc.stdout)) - {"arrayobj", "arraymath", "npydecl"}
    assert modules <= {"moves", "weighted", "wide"}, modules
