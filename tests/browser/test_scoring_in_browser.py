"""How a game that ends with empty squares is counted, as a person sees it: a WTHOR game of
1990, imported from the library's form **as a JOF event**, shows its 1990 score (the JOF
rule before June 2014: empties split) with today's count beside it, in the replay's result
and in the game page's result card (in Japanese there); its creator then changes the count
on the replay page to the empties to the winner (what WTHOR and GGS records keep by
default: tests/test_scoring.py), and the page shows 37–27 alone. Photographed at 1280 px
and 390 px."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hasamigo.notation import write_wthor
from hasamigo.notation.record import GameRecord
from hasamigo.notation.transcript import parse_transcript
from tests.browser.checks import no_sideways_scroll
from tests.browser.seats import SEAT_KEY, keep_seat

pytestmark = pytest.mark.browser
#: a random game ending with 32 black discs, 27 white and 5 empties (tests/test_scoring.py)
ENDS_WITH_EMPTIES = ("c4c3e6f4g4f6d6h4e3c5g3e7b2h2g6g7d7h6b3d2b5c7d8b4e2a5g5b1c2f5h8h5g2"
                     "c8a2e1a4a3c1h7b8f8g8a1f7d3f2d1h3f1h1g1e8f3c6")


def _result_text(page: Any, contains: str) -> str:
    page.wait_for_function(
        "(t) => document.getElementById('replay-result').textContent.includes(t)", arg=contains)
    return page.locator("#replay-result").text_content() or ""


def test_a_1990_jof_event_shows_its_old_score_and_its_creator_changes_the_count(
        new_page: Callable[..., Any], live_server: str, screenshots: Path,
        tmp_path: Path) -> None:
    archive = tmp_path / "WTH_1990.wtb"
    write_wthor(archive, [GameRecord(moves=parse_transcript(ENDS_WITH_EMPTIES), date="1990")])
    page = new_page(1280, 900)
    page.goto(live_server + "/library")
    page.locator("#import-card summary").click()
    page.set_input_files("#import-file", str(archive))
    page.check("#import-jof-event")
    page.locator("#import-card").screenshot(path=str(screenshots / "scoring-import-form.png"))
    page.click("#import-submit")
    page.wait_for_url("**/games/*/replay")
    game_id = page.url.rstrip("/").split("/")[-2]

    text = _result_text(page, "34.5")
    assert "34.5–29.5" in text and "37–27" in text and "before June 2014" in text
    form = page.locator("#scoring-form")
    form.wait_for(state="visible")
    assert page.locator("#scoring-select").input_value() == "jof-pre-2014"
    page.locator(".side-column .card").first.screenshot(
        path=str(screenshots / "scoring-replay.png"))

    # the game page's result card, in Japanese, for the same browser's seat
    token = page.evaluate("(k) => localStorage.getItem(k)", SEAT_KEY + game_id)
    assert token
    japanese = new_page(1280, 900, lang="ja")
    keep_seat(japanese, live_server, game_id, token)
    japanese.goto(f"{live_server}/games/{game_id}")
    card = japanese.locator("#result")
    card.wait_for(state="visible")
    score = card.locator("#result-score").text_content() or ""
    assert "34.5" in score and "29.5" in score
    detail = card.locator("#result-detail").text_content() or ""
    assert "2014年5月以前" in detail and "37–27" in detail
    card.screenshot(path=str(screenshots / "scoring-result-card-ja.png"))

    # its creator changes the count: the page shows the empties to the winner alone
    page.select_option("#scoring-select", "jof-2014")
    with page.expect_navigation():  # saved, the page reloads
        page.click("#scoring-save")
    page.wait_for_function(
        "() => document.getElementById('replay-result').textContent.startsWith('37–27')")
    text = page.locator("#replay-result").text_content() or ""
    assert "34.5" not in text and "before June 2014" not in text
    assert page.locator("#scoring-select").input_value() == "jof-2014"


def test_the_count_on_a_phone_and_for_a_spectator(
        new_page: Callable[..., Any], live_server: str, screenshots: Path,
        tmp_path: Path) -> None:
    """At 390 px in Japanese the count's form fits the screen; a browser without the
    game's seat sees the count of a public game but cannot change it."""
    archive = tmp_path / "WTH_1990.wtb"
    write_wthor(archive, [GameRecord(moves=parse_transcript(ENDS_WITH_EMPTIES), date="1990")])
    owner = new_page(390, 844, lang="ja")
    owner.goto(live_server + "/library")
    response = owner.request.post(f"{live_server}/api/games/import", data={
        "format": "wthor", "data": base64.b64encode(archive.read_bytes()).decode(),
        "public": True})
    assert response.status == 201, response.text()
    game = response.json()
    assert game["scoring"] == "jof-2014"  # a WTHOR record keeps the empties to the winner
    keep_seat(owner, live_server, game["id"], game["seat_token"])
    owner.goto(f"{live_server}/games/{game['id']}/replay")
    assert "37–27" in _result_text(owner, "37–27")
    owner.locator("#scoring-form").wait_for(state="visible")
    assert owner.locator("#scoring-save").is_visible()
    # the count's form stays inside its card (the long options shrink to fit)
    form, card = owner.evaluate("""() => {
        const f = document.getElementById('scoring-form');
        return [f.getBoundingClientRect().right, f.closest('.card').getBoundingClientRect().right];
    }""")
    assert form <= card + 0.5, f"the count's form ends at {form} px, its card at {card} px"
    no_sideways_scroll(owner, "scoring replay phone ja")
    owner.locator(".side-column .card").first.screenshot(
        path=str(screenshots / "scoring-replay-phone-ja.png"))

    watcher = new_page(1280, 900)
    watcher.goto(f"{live_server}/games/{game['id']}/replay")
    watcher.locator("#scoring-form").wait_for(state="visible")
    assert watcher.locator("#scoring-select").is_disabled()
    assert not watcher.locator("#scoring-save").is_visible()
