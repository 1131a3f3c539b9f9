"""Perft and perfect-play facts: the published 8×8 counts, the reference on small boards,
the solved 4×4 value and the known perfect-play lines of 6×6 and 8×8."""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import naive
import pytest

from hasamigo import BLACK, PASS, Board, find_variant

DATA = Path(__file__).parent / "data"


def published_perft() -> dict[int, int]:
    """Column 2 of perft.csv: a pass is a ply, a finished game is one leaf."""
    with open(DATA / "perft.csv", newline="") as f:
        rows = list(csv.reader(f))
    return {int(row[0]): int(row[1]) for row in rows[1:]}


def small_boards() -> dict[str, dict[str, str]]:
    """``[section]`` → ``key = value`` pairs of small-boards.txt (``;`` separates pairs)."""
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for raw in (DATA / "small-boards.txt").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("["):
            current = sections.setdefault(line[1:].split("]")[0].split(",")[0], {})
        elif "=" in line:
            for pair in line.split(";"):
                key, _, value = pair.partition("=")
                current[key.strip()] = value.strip()
    return sections


PERFT = published_perft()
SMALL = small_boards()


@pytest.mark.parametrize("depth", range(1, 10))
def test_perft_from_the_start(depth: int) -> None:
    assert Board().perft(depth) == PERFT[depth]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [10, 11])
def test_perft_from_the_start_deep(depth: int) -> None:
    assert Board().perft(depth) == PERFT[depth]


def test_perft_depth_zero_and_the_published_table() -> None:
    assert Board().perft(0) == 1
    assert PERFT[10] == 24_571_284  # the file is the one the README describes
    with pytest.raises(ValueError):
        Board().perft(-1)


@pytest.mark.parametrize(
    ("variant", "parallel", "depth"),
    [
        ("4x4", False, 8),
        ("6x6", False, 5),
        ("octagon", False, 4),
        ("standard", True, 4),
        ("4x4", True, 6),
    ],
)
def test_perft_of_variants_against_the_reference(variant: str, parallel: bool, depth: int) -> None:
    playable = naive.FRAMES[variant][2]
    cells = naive.start_cells(playable, parallel=parallel)
    board = find_variant(variant)(start="parallel" if parallel else "cross")
    for d in range(1, depth + 1):
        assert board.perft(d) == naive.perft(cells, "B", d), f"depth {d}"


def test_parallel_variant_is_the_parallel_start() -> None:
    assert find_variant("parallel")().key()[1:] == Board(start="parallel").key()[1:]
    assert [find_variant("parallel")().perft(d) for d in (1, 2)] == [4, 14]


def test_original_start_perft_walks_the_placements() -> None:
    """Original Reversi: four free placements on the centre (4·3·2·1 ways), then play."""
    board = find_variant("original")()
    assert [board.perft(d) for d in range(5)] == [1, 4, 12, 24, 24]
    playable = naive.FRAMES["standard"][2]
    expected = 0
    for black_first in ("d4", "e4", "d5", "e5"):
        for white_first in ("d4", "e4", "d5", "e5"):
            for black_second in ("d4", "e4", "d5", "e5"):
                placed = {black_first, white_first, black_second}
                if len(placed) < 3:
                    continue
                white_second = ({"d4", "e4", "d5", "e5"} - placed).pop()
                black = naive.mask_of([naive.square(black_first), naive.square(black_second)])
                white = naive.mask_of([naive.square(white_first), naive.square(white_second)])
                cells = naive.cells_from_masks(black, white, playable)
                expected += naive.perft(cells, "B", 2)
    assert board.perft(6) == expected


# ---- perfect play on 4×4 -------------------------------------------------------------


def board_negamax(board: Board, *, empties_to_winner: bool) -> int:
    """Perfect-play value for the side to move, by negamax over the public Board API."""
    table: dict[tuple, int] = {}

    def value() -> int:
        key = board.key()
        if key in table:
            return table[key]
        outcome = board.outcome()
        if outcome is not None:
            if empties_to_winner:
                diff = outcome.disc_difference
            else:
                diff = outcome.black_discs - outcome.white_discs
            result = diff if board.turn is BLACK else -diff
        else:
            result = -1000
            for move in list(board.legal_moves):
                board.push(move)
                result = max(result, -value())
                board.pop()
        table[key] = result
        return result

    return value()


@pytest.mark.parametrize(
    ("start", "key_raw", "key_official"),
    [
        ("cross", "black_to_move_value_raw_disc_diff", "black_to_move_value_empties_to_winner"),
        ("parallel", "parallel_start_raw", "parallel_start_empties_to_winner"),
    ],
)
def test_4x4_perfect_play_value(start: str, key_raw: str, key_official: str) -> None:
    facts = SMALL["4x4"]
    raw, official = int(facts[key_raw]), int(facts[key_official])
    board = find_variant("4x4")(start=start)
    assert board_negamax(board, empties_to_winner=False) == raw
    assert board_negamax(board, empties_to_winner=True) == official
    cells = naive.start_cells(naive.FRAMES["4x4"][2], parallel=start == "parallel")
    assert naive.negamax(cells, "B", empties_to_winner=False) == raw
    assert naive.negamax(cells, "B", empties_to_winner=True) == official


def test_4x4_value_matches_the_spec() -> None:
    """The published 4×4 result: White wins 3–13 under the empties-to-winner rule (raw 3 vs 11)."""
    assert int(SMALL["4x4"]["black_to_move_value_empties_to_winner"]) == 3 - 13
    assert int(SMALL["4x4"]["black_to_move_value_raw_disc_diff"]) == 3 - 11


# ---- replays of the known perfect-play lines -----------------------------------------


@cache
def grid_to_local(name: str, left: int, top: int) -> str:
    """An 8×8 grid name (``b2``) in the coordinates of a frame at column ``left``, row ``top``."""
    col = "abcdefgh".index(name[0]) - left
    row = int(name[1:]) - 1 - top
    return "abcdefgh"[col] + str(row + 1)


def replay(board: Board, names: list[str]) -> list[int]:
    """Play ``names``, passing when forced; return the move numbers before which a pass came."""
    passes_before = []
    for number, name in enumerate(names, start=1):
        if board.must_pass():
            board.play("pass")
            passes_before.append(number)
        board.play(name)
    return passes_before


def test_6x6_feinstein_line() -> None:
    facts = SMALL["6x6"]
    grid_moves = facts["pv"].split()
    assert len(grid_moves) == 32
    board = find_variant("6x6")()
    local = [grid_to_local(m, 1, 1) for m in grid_moves]
    assert local[:3] == ["c2", "b4", "c5"]
    passes_before = replay(board, local)
    assert passes_before == [31]  # one Black pass, before move 31
    assert board.is_game_over()
    assert board.counts() == (16, 20)
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.black, outcome.white, str(outcome)) == (16, 20, "16–20")
    assert outcome.winner is not None and outcome.winner.value == "white"
    # The same line on the reference, in grid coordinates.
    cells, colour = naive.start_cells(naive.FRAMES["6x6"][2]), "B"
    for name in grid_moves:
        if naive.must_pass(cells, colour):
            colour = naive.other(colour)
        cells = naive.apply_move(cells, colour, naive.square(name))
        colour = naive.other(colour)
    assert naive.game_over(cells) and naive.official_score(cells) == (16, 20)


def test_8x8_takizawa_line() -> None:
    line = SMALL["8x8"]["optimal_line"]
    names = [line[i : i + 2].lower() for i in range(0, len(line), 2)]
    assert len(names) == 60
    board = Board()
    assert replay(board, names) == []
    assert len(board.move_stack) == 60 and PASS not in board.move_stack
    assert board.is_game_over()
    assert board.counts() == (32, 32)
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.black, outcome.white, outcome.winner) == (32, 32, None)
