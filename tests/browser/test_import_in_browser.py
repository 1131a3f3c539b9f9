"""Importing a game on the library page: a GGF text of two games pasted, the second
picked, the replay opens and the review runs there to the end; on a phone, a GGF file
chosen and a game number the file lacks refused in place. Photographed at 1280 px and
390 px, without sideways scrolling."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_emoji_symbols, no_sideways_scroll

pytestmark = pytest.mark.browser

DATA = Path(__file__).parent.parent / "data" / "ggf"
#: two 8×8 games: the second (a random-start 8×8 game, 19–45) is the one imported
GGF = "\n".join([
    (DATA / "nboard-test.ggf").read_text().strip(),
    (DATA / "nboard-test2.ggf").read_text().strip().splitlines()[1],
])


def open_form(page: Any, base: str) -> None:
    page.goto(base + "/library")
    page.locator("#import-card summary").click()
    page.locator("#import-text").wait_for(state="visible")


def test_a_pasted_ggf_game_is_imported_replayed_and_reviewed(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    page = new_page(1280, 900)
    open_form(page, live_server)
    page.fill("#import-text", GGF)
    page.fill("#import-index", "2")
    no_sideways_scroll(page, "import desktop")
    no_emoji_symbols(page, "import desktop")
    page.locator("#import-card").screenshot(path=str(screenshots / "import-desktop-form.png"))
    page.click("#import-submit")
    page.wait_for_url("**/games/*/replay")
    game_id = page.url.rstrip("/").split("/")[-2]
    button = page.locator("#review-button")
    button.wait_for(state="visible")
    assert page.locator("#replay").get_attribute("data-ply") is not None
    button.click()
    page.wait_for_selector("#review-card[data-status='done']", timeout=120_000)
    rows = page.locator("#review-table tbody tr")
    assert rows.count() >= 40  # the game from its random start: every move reviewed
    no_sideways_scroll(page, "imported replay desktop")
    page.screenshot(path=str(screenshots / "import-desktop-reviewed.png"), full_page=True)

    # the library lists it among this browser's games, with the file's players
    page.goto(live_server + "/library")
    row = page.locator(f"#library tr[data-game-id='{game_id}']")
    assert "igor" in (row.locator("td.players").text_content() or "")


def test_a_ggf_file_on_a_phone_and_a_missing_game_number(
        new_page: Callable[..., Any], live_server: str, screenshots: Path,
        tmp_path: Path) -> None:
    page = new_page(390, 844, lang="ja")
    open_form(page, live_server)
    path = tmp_path / "two.ggf"
    path.write_text(GGF)
    page.set_input_files("#import-file", str(path))
    page.fill("#import-index", "9")
    page.click("#import-submit")
    error = page.locator("#import-error")
    error.wait_for(state="visible")
    assert "there is no game 9: the text holds 2 games" in (error.text_content() or "")
    no_sideways_scroll(page, "import phone")
    page.screenshot(path=str(screenshots / "import-phone-form.png"), full_page=True)
    page.fill("#import-index", "1")
    page.click("#import-submit")
    page.wait_for_url("**/games/*/replay")
    page.locator("#review-button").wait_for(state="visible")
    assert page.locator("#review-button").text_content() == "この対局を検討する"
    no_sideways_scroll(page, "imported replay phone")
    page.screenshot(path=str(screenshots / "import-phone-replay.png"), full_page=True)
