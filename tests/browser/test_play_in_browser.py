"""What a person does in the browser: start a game, click dotted squares to the end, see
pass notices and the result. API calls beside the page send the seat token the page keeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.seats import auth, create_game, get_state

pytestmark = pytest.mark.browser

# White to move; after e2, Black has no move and must pass (found by a seeded search).
PASS_POSITION = "OXXXOOOOOXXX-XOOXOXXXXXOXXXOOXXOXXXXXXXOXXXXXOOO-XXXXOOO-XOOOOOO O"


def start_from_form(page: Any, base: str, opponent: str, clock: str = "none") -> str:
    page.goto(base + "/")
    page.locator(f"input[name=opponent][value={opponent}]").check(force=True)
    page.locator(f"input[name=clock][value={clock}]").check(force=True)
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    game_id: str = page.url.rstrip("/").rsplit("/", 1)[1]
    return game_id


def test_new_game_page_in_both_languages(page: Any, live_server: str, screenshots: Path
                                         ) -> None:
    page.goto(live_server + "/")
    assert page.locator("input[name=opponent]").count() == 7
    page.screenshot(path=str(screenshots / "new-game.png"), full_page=True)
    page.click("#lang-toggle")
    page.wait_for_load_state()
    assert "新しい対局" in page.content()
    page.screenshot(path=str(screenshots / "new-game-ja.png"), full_page=True)
    page.click("#lang-toggle")  # back to English for the other tests (cookie)
    page.wait_for_load_state()
    # the choices that appear with a person in another browser and fuse-ishi, at phone width
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.locator("#person-row").is_hidden() and page.locator("#fuse-details").is_hidden()
    page.locator("input[name=opponent][value=person]").check(force=True)
    page.locator("input[name=same_screen][value='0']").check(force=True)
    page.locator("input[name=colour][value=fuse-ishi]").check(force=True)
    page.click("#fuse-details summary")
    assert page.locator("#rank-0").is_visible() and page.locator("#claims-row").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screenshots / "new-game-phone.png"), full_page=True)


def test_a_person_plays_a_whole_game_against_random(page: Any, live_server: str,
                                                    screenshots: Path) -> None:
    game_id = start_from_form(page, live_server, "random")
    moves = 0
    while True:
        page.wait_for_selector(".square.legal, #result:not([hidden])", timeout=15000)
        if page.locator("#result:not([hidden])").count():
            break
        state = get_state(page, live_server, game_id)
        if state["phase"] == "over":
            continue
        if state["turn"] not in state["persons"] or state["thinking"]:
            page.wait_for_timeout(100)
            continue
        dots = sorted(page.locator(".square.legal").evaluate_all(
            "nodes => nodes.map(n => n.dataset.square)"))
        if dots != sorted(state["legal"]):  # a newer state may be on its way
            page.wait_for_timeout(200)
            continue
        assert page.locator(".square.legal .dot").count() == len(dots)
        page.locator(f".square.legal[data-square={dots[0]}]").click()
        moves += 1
        if moves == 8:
            page.wait_for_timeout(700)
            page.screenshot(path=str(screenshots / "game-in-progress.png"), full_page=True)
        assert moves < 70
    final = get_state(page, live_server, game_id)
    word = page.locator("#result-word").text_content()
    assert final["phase"] == "over" and word in ("WIN", "LOSE", "DRAW")
    assert page.locator("#result-score").text_content().replace(" ", "").startswith(
        f"{final['result']['black']}–{final['result']['white']}")
    page.wait_for_timeout(500)
    page.screenshot(path=str(screenshots / "game-finished.png"), full_page=True)
    page.goto(f"{live_server}/games/{game_id}/replay")
    page.wait_for_selector("#moves li")
    page.click("#first")
    assert page.locator(".disc").count() == 4
    page.click("#next")
    assert page.locator(".disc").count() == 5
    page.goto(f"{live_server}/library")
    assert page.locator(f"#library tr[data-game-id='{game_id}']").count() == 1
    page.screenshot(path=str(screenshots / "library.png"), full_page=True)


def test_a_pass_notice_appears_when_a_side_must_pass(page: Any, live_server: str,
                                                     screenshots: Path) -> None:
    game_id = create_game(page, live_server, opponent="person", colour="white",
                          position=PASS_POSITION, clock_minutes=None)["id"]
    page.goto(f"{live_server}/games/{game_id}")
    page.wait_for_selector(".square.legal[data-square=e2]")
    assert page.locator("#notice").is_hidden()
    page.locator(".square.legal[data-square=e2]").click()
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert "pass" in (notice.text_content() or "").lower()
    assert "パス" in (notice.text_content() or "")
    page.screenshot(path=str(screenshots / "pass-notice.png"), full_page=True)


def test_an_illegal_request_shows_the_reason(page: Any, live_server: str) -> None:
    game_id = start_from_form(page, live_server, "person")
    page.wait_for_selector(".square.legal")
    result = page.evaluate(
        """async ([id, auth]) => {
            const r = await fetch(`/api/games/${id}/moves`, {method: "POST",
              headers: {"Content-Type": "application/json", ...auth},
              body: JSON.stringify({move: "a1"})});
            return [r.status, (await r.json()).error.reason];
        }""",
        [game_id, auth(page, game_id)],
    )
    assert result == [422, "flips_nothing"]
    page.locator(".square[data-square=a1] .cell").click(force=True)  # no dot: nothing sent
    assert page.locator("#error").is_hidden()
