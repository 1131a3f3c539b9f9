"""The chess clock of a game over the board, in the browser: started by White from the
space bar, pressed by tapping the halves, a pass, a refused press, a flag that falls and
is only shown until claimed, the claim, play-out and the result card, both flags down,
and the page at tablet sizes in both orientations; then record entry with a fault."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_emoji_symbols, no_sideways_scroll
from tests.browser.seats import keep_seat

pytestmark = pytest.mark.browser

WAIT = 8000  # ms: a flag falls, a press reaches the server


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _otb_game(page: Any, base: str, **body: Any) -> str:
    """A game over the board made through the API; this page's browser keeps its seat."""
    response = page.request.post(f"{base}/api/record/games",
                                 data={"names": ["Ann", "Bob"], **body})
    assert response.status == 201, response.text()
    created: dict[str, Any] = response.json()
    game_id: str = created["game"]["game"]["id"]
    keep_seat(page, base, game_id, created["seat_token"])
    return game_id


def _view(page: Any, base: str, game_id: str) -> dict[str, Any]:
    token = page.evaluate("k => localStorage.getItem(k)", f"hasamigo:seat:{game_id}")
    response = page.request.get(f"{base}/api/record/games/{game_id}",
                                headers={"Authorization": f"Bearer {token}"})
    assert response.ok, response.text()
    data: dict[str, Any] = response.json()
    return data


def test_the_clock_is_started_by_white_and_pressed_by_taps_and_the_space_bar(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    page = new_page(width=1024, height=768)
    page.goto(live_server + "/record")
    page.fill("#name-0", "Ann")
    page.fill("#name-1", "Bob")
    page.click("#open-clock")
    page.wait_for_url("**/clock")
    game_id = page.url.rstrip("/").split("/")[-2]
    expect(page.locator("#name-black")).to_have_text("Ann")
    expect(page.locator("#message")).to_contain_text("White presses to start the clock")
    expect(page.locator("#half-white.starter")).to_be_visible()
    expect(page.locator("#time-black")).to_have_text("20:00")
    page.screenshot(path=str(screenshots / "clock-before-start.png"))
    page.keyboard.press("Space")  # White starts: Black's time runs
    expect(page.locator("#half-black.running")).to_be_visible(timeout=WAIT)
    page.wait_for_timeout(1200)
    assert page.locator("#time-black").inner_text() in ("19:59", "19:58")
    page.locator("#half-black").click()  # Black's turn ends
    expect(page.locator("#half-white.running")).to_be_visible(timeout=WAIT)
    page.locator("#half-black").click()  # not Black's clock: refused, nothing changes
    expect(page.locator("#error")).to_contain_text("black pressed, but white's clock is running")
    expect(page.locator("#half-white.running")).to_be_visible()
    page.click("#pass")  # White passes: a pass ends with a press too
    expect(page.locator("#half-black.running")).to_be_visible(timeout=WAIT)
    expect(page.locator("#state-white")).to_have_text("passed")
    view = _view(page, live_server, game_id)
    assert view["presses"] == 3 and view["last_press"] == {"colour": "white", "passed": True}
    no_sideways_scroll(page, "clock, landscape tablet")
    no_emoji_symbols(page, "clock")
    page.screenshot(path=str(screenshots / "clock-running-landscape.png"))
    page.set_viewport_size({"width": 768, "height": 1024})
    no_sideways_scroll(page, "clock, portrait tablet")
    page.screenshot(path=str(screenshots / "clock-running-portrait.png"))
    boxes = [page.locator(f"#half-{c}").bounding_box() for c in ("black", "white")]
    assert all(b is not None and b["height"] > 300 for b in boxes)  # two big halves


def test_a_fallen_flag_is_claimed_and_the_winner_plays_out(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    page = new_page(width=1280, height=800)
    game_id = _otb_game(page, live_server, clock_minutes=0.05)  # 3 s each
    page.goto(f"{live_server}/record/{game_id}/clock")
    expect(page.locator("#time-white")).to_have_text("0:03.0")  # tenths under 10 s
    page.keyboard.press("Space")
    expect(page.locator("#half-black.flagged")).to_be_visible(timeout=WAIT)
    expect(page.locator("#state-black")).to_have_text("Flag down")
    page.wait_for_timeout(1600)  # a poll of the server: still nothing lost by itself
    assert _view(page, live_server, game_id)["game"]["phase"] == "playing"
    page.screenshot(path=str(screenshots / "clock-flag-down.png"))
    page.locator('#actions-white [data-action="claim"]').click()
    expect(page.locator('#actions-white [data-action="playout"]')).to_be_visible(timeout=WAIT)
    expect(page.locator("#message")).to_contain_text("White wins on time")
    page.locator('#actions-white [data-action="playout"]').click()
    expect(page.locator("#half-white.running")).to_be_visible(timeout=WAIT)
    page.locator('#actions-white [data-action="stop"]').click()
    expect(page.locator("#result")).to_be_visible(timeout=WAIT)
    page.fill("#card-black", "20")
    page.fill("#card-white", "40")
    page.click("#card-submit")
    expect(page.locator("#result-word")).to_have_text("Bob wins 24–40", timeout=WAIT)
    expect(page.locator("#result-detail")).to_contain_text("card 20–40")
    expect(page.locator("#card-form")).to_be_hidden()
    no_emoji_symbols(page, "clock result")
    page.screenshot(path=str(screenshots / "clock-playout-card.png"))


def test_both_flags_down_is_a_draw(new_page: Callable[..., Any], live_server: str,
                                   screenshots: Path) -> None:
    expect = _expect()
    page = new_page(width=1024, height=768, lang="ja")
    game_id = _otb_game(page, live_server, clock_minutes=0.03)  # 1.8 s each
    page.goto(f"{live_server}/record/{game_id}/clock")
    page.locator("#half-white").click()  # White starts
    expect(page.locator("#half-black.flagged")).to_be_visible(timeout=WAIT)
    page.locator("#half-black").click()  # a move after the flag fell stands
    expect(page.locator("#half-white.flagged")).to_be_visible(timeout=WAIT)
    page.locator('#actions-black [data-action="claim"]').click()
    expect(page.locator("#result")).to_be_visible(timeout=WAIT)
    expect(page.locator("#result-word")).to_have_text("引き分け 32–32")
    expect(page.locator("#result-detail")).to_contain_text("両者時間切れ")
    expect(page.locator("#result-detail")).to_contain_text("レーティング対象外")
    result = _view(page, live_server, game_id)["game"]["result"]
    assert result["termination"] == "both-flags" and not result["rated"]
    page.screenshot(path=str(screenshots / "clock-both-flags-ja.png"))


def test_record_entry_names_a_fault_and_corrects_it(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    page = new_page(width=1280, height=900)
    game_id = _otb_game(page, live_server)
    page.goto(f"{live_server}/record/{game_id}")
    expect(page.locator("#record")).to_be_visible(timeout=WAIT)
    page.locator('.square[data-square="f5"]').click()
    expect(page.locator("#turned")).to_have_text("e5")
    page.locator('.square[data-square="e5"]').click()  # e5 was not turned on the board
    expect(page.locator("#turned")).to_have_text("none")
    page.click("#enter")
    expect(page.locator("#pending li")).to_have_text(
        "move 1: e5 not turned: bracketed on the line f5–d5", timeout=WAIT)
    page.screenshot(path=str(screenshots / "record-fault.png"))
    page.click("#correct")
    expect(page.locator("#pending-card")).to_be_hidden(timeout=WAIT)
    expect(page.locator("#faults li")).to_contain_text("corrected")
    expect(page.locator("#moves li")).to_have_count(1)
    no_sideways_scroll(page, "record entry")
    no_emoji_symbols(page, "record entry")
