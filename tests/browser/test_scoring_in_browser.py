"""Scoring as of a date, as a person sees it: a WTHOR game of 1990 that ends with empty
squares, imported, shows its 1990 score (the JOF rule before June 2014: empties split)
with today's count beside it, in the replay's result and in the game page's result card
(in Japanese there)."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hasamigo.notation import write_wthor
from hasamigo.notation.record import GameRecord
from hasamigo.notation.transcript import parse_transcript
from tests.browser.seats import keep_seat

pytestmark = pytest.mark.browser
#: a random game ending with 32 black discs, 27 white and 5 empties (tests/test_scoring.py)
ENDS_WITH_EMPTIES = ("c4c3e6f4g4f6d6h4e3c5g3e7b2h2g6g7d7h6b3d2b5c7d8b4e2a5g5b1c2f5h8h5g2"
                     "c8a2e1a4a3c1h7b8f8g8a1f7d3f2d1h3f1h1g1e8f3c6")


def test_an_imported_1990_game_shows_its_old_score_beside_todays(
        new_page: Callable[..., Any], live_server: str, screenshots: Path,
        tmp_path: Path) -> None:
    archive = tmp_path / "WTH_1990.wtb"
    write_wthor(archive, [GameRecord(moves=parse_transcript(ENDS_WITH_EMPTIES), date="1990")])
    page = new_page(1280, 900)
    page.goto(live_server + "/library")
    response = page.request.post(f"{live_server}/api/games/import", data={
        "format": "wthor", "data": base64.b64encode(archive.read_bytes()).decode()})
    assert response.status == 201, response.text()
    game = response.json()
    keep_seat(page, live_server, game["id"], game["seat_token"])

    page.goto(f"{live_server}/games/{game['id']}/replay")
    result = page.locator("#replay-result")
    result.wait_for(state="visible")
    page.wait_for_function(
        "() => document.getElementById('replay-result').textContent.includes('34.5')")
    text = result.text_content() or ""
    assert "34.5–29.5" in text and "37–27" in text and "before June 2014" in text
    result.screenshot(path=str(screenshots / "scoring-replay.png"))

    japanese = new_page(1280, 900, lang="ja")
    keep_seat(japanese, live_server, game["id"], game["seat_token"])
    japanese.goto(f"{live_server}/games/{game['id']}")
    card = japanese.locator("#result")
    card.wait_for(state="visible")
    score = card.locator("#result-score").text_content() or ""
    assert "34.5" in score and "29.5" in score
    detail = card.locator("#result-detail").text_content() or ""
    assert "2014年5月以前" in detail and "37–27" in detail
    card.screenshot(path=str(screenshots / "scoring-result-card-ja.png"))
