"""Published results (:mod:`hasamigo.engine.known`): ``solve-board 8x8`` quotes the draw
of Takizawa (2023) with its line and source and says it is quoted, not proven here;
beside it the small boards this project proves from scratch; ``--verify`` solves the
line's end (a few empties in the default run, minutes of it marked slow)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.engine.core import Engine
from hasamigo.engine.known import (
    PUBLISHED,
    TAKIZAWA_LINE,
    PublishedResult,
    line_positions,
    published,
    small_board_results,
    verify_line,
)
from hasamigo.errors import InvalidOptionError

runner = CliRunner()
#: a random game (seed 1) that ends 37–27 with five empties: no perfect line
RANDOM_GAME = ("c4c3e6f4g4f6d6h4e3c5g3e7b2h2g6g7d7h6b3d2b5c7d8b4e2a5g5b1c2f5h8h5g2"
               "c8a2e1a4a3c1h7b8f8g8a1f7d3f2d1h3f1h1g1e8f3c6")


def test_the_published_line_is_legal_and_ends_32_32() -> None:
    """The paper's Figure 1 record: 60 moves, no pass, a full board of 32 and 32."""
    result = PUBLISHED["8x8"]
    assert len(TAKIZAWA_LINE) == 120 and published("standard") is result
    positions = line_positions(result)
    assert len(positions) == 61 and all(p.move_stack == [] for p in positions)
    end = positions[-1].outcome()
    assert end is not None and (end.black_discs, end.white_discs) == (32, 32)
    assert published("6x6") is None and published("no-such-board") is None


def test_solve_board_8x8_quotes_the_result_says_so_and_names_the_small_boards() -> None:
    shown = runner.invoke(app, ["solve-board", "8x8"])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.stdout.split())
    assert "8x8: a draw 32–32 with perfect play" in text
    assert f"published line: {TAKIZAWA_LINE}" in text
    assert "Hiroki Takizawa" in text and "arXiv:2310.19387" in text
    assert "quoted, not proven here" in text
    assert "6x6 (White wins 16–20): proven here from scratch by `hasamigo solve-board 6x6`" \
        in text
    data = json.loads(runner.invoke(app, ["solve-board", "8x8", "--json"]).stdout)
    assert data["quoted"] is True and data["proven_here"] is False
    assert (data["black"], data["white"], data["line"]) == (32, 32, TAKIZAWA_LINE)
    assert data["small_boards"]["6x6"] == {"black": 16, "white": 20,
                                           "proven_by": "hasamigo solve-board 6x6"}
    assert small_board_results() == {"4x4": (3, 13), "6x6": (16, 20)}


def test_the_lines_end_is_a_draw_for_its_last_ten_empties() -> None:
    checks = verify_line(PUBLISHED["8x8"], seconds=120, deepest=10,
                         engine=Engine(table_size=1 << 16))
    assert [c.empties for c in checks] == list(range(1, 11))
    assert all(c.agrees and c.score == 0 and c.expected == 0 for c in checks)


def test_a_line_that_is_not_perfect_play_is_caught() -> None:
    """A random game's end claimed as a perfect line: some position on it is not won by
    the side the final count favours (or the check stops there)."""
    claim = PublishedResult("8x8", 37, 27, RANDOM_GAME, "test", "-", "a claim")
    checks = verify_line(claim, seconds=120, deepest=12, engine=Engine(table_size=1 << 16))
    assert checks and not checks[-1].agrees and checks[-1].proven
    wrong = PublishedResult("8x8", 32, 32, RANDOM_GAME, "test", "-", "a claim")
    with pytest.raises(InvalidOptionError, match="ends at 37–27, not 32–32"):
        verify_line(wrong, seconds=1)
    with pytest.raises(InvalidOptionError, match="more than 0 seconds"):
        verify_line(PUBLISHED["8x8"], seconds=0)


@pytest.mark.slow
def test_verify_proves_the_line_from_twenty_empties_or_more_in_two_minutes() -> None:
    shown = runner.invoke(app, ["solve-board", "8x8", "--verify", "--minutes", "2", "--json"])
    assert shown.exit_code == 0, shown.output
    verified = json.loads(shown.stdout)["verified"]
    assert verified["agrees"] and verified["deepest_empties"] >= 20
