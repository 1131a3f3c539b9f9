"""Puzzles in the browser: an FFO position answered by a click and judged by the solver
(the right move, then a wrong one with the discs lost), at a desktop's and a phone's
width, in English and Japanese; and a review's mistake opened as a puzzle."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from hasamigo.analysis.puzzles import ffo_puzzle
from tests.browser.checks import board_unobstructed, no_emoji_symbols, no_sideways_scroll

pytestmark = pytest.mark.browser


def test_an_ffo_puzzle_answered_by_clicks(new_page: Callable[..., Any], live_server: str,
                                           screenshots: Path) -> None:
    puzzle = ffo_puzzle(1)
    known = dict(puzzle.known)
    best = max(known, key=lambda name: known[name])
    page = new_page(1280, 900)
    page.goto(live_server + "/puzzles?n=1")
    page.wait_for_selector("#board .square.legal")
    assert page.locator("#board .square.legal").count() == len(puzzle.board.legal_moves)
    page.click(f"#board .square[data-square={best}]")
    page.wait_for_selector("#puzzle[data-verdict=right]")
    assert best in (page.locator("#verdict").text_content() or "")
    page.screenshot(path=str(screenshots / "puzzle-desktop-right.png"), full_page=True)
    page.click("#retry")
    worst = min(known, key=lambda name: known[name])
    page.click(f"#board .square[data-square={worst}]")
    page.wait_for_selector("#puzzle[data-verdict=wrong]")
    loss = known[best] - known[worst]
    assert str(loss) in (page.locator("#verdict").text_content() or "")
    page.click("#next-puzzle")
    page.wait_for_url("**/puzzles?n=2")
    assert "FFO #2" in (page.locator("#puzzle-title").text_content() or "")

    phone = new_page(390, 844, lang="ja")
    phone.goto(live_server + "/puzzles?n=3")
    phone.wait_for_selector("#board .square.legal")
    no_sideways_scroll(phone, "puzzle phone")
    no_emoji_symbols(phone)
    board_unobstructed(phone)
    assert "詰めオセロ" in (phone.locator("h1").text_content() or "")
    phone.screenshot(path=str(screenshots / "puzzle-phone-ja.png"), full_page=True)


def test_a_position_of_ones_own_from_its_link(new_page: Callable[..., Any],
                                              live_server: str) -> None:
    board = ffo_puzzle(1).board
    page = new_page(1280, 900)
    link = "/puzzles?" + urlencode({"variant": "standard", "board": board.to_string()})
    page.goto(live_server + link)
    page.wait_for_selector("#board .square.legal")
    assert page.locator("#puzzle").get_attribute("data-own") == "yes"
    page.click("#board .square[data-square=g8]")
    page.wait_for_selector("#puzzle[data-verdict=right]")
