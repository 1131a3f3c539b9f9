"""Seats in the browser: two people in two browsers (the join link), a spectator of a
public game, a take-back asked of the opponent, a flag that falls against a program, and
the game page at phone, tablet and desktop width in both languages."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import box, no_emoji_symbols, no_sideways_scroll
from tests.browser.seats import create_game, get_state, keep_seat, play

pytestmark = pytest.mark.browser

LIVE = 5000  # ms for a change to reach another browser over its websocket


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _game_id(page: Any) -> str:
    match = re.search(r"/games/([0-9a-f]+)$", page.url)
    assert match, page.url
    return match.group(1)


def _click_first_dot(page: Any) -> str:
    page.wait_for_selector(".square.legal", timeout=LIVE)
    square: str = page.locator(".square.legal").first.get_attribute("data-square")
    page.locator(f".square.legal[data-square={square}]").click()
    return square


def _two_browsers(new_page: Callable[..., Any], base: str) -> tuple[Any, Any, str]:
    """A casual game without a clock: A (Black) created it, B (White) joined by the link."""
    a = new_page()
    created = create_game(a, base, opponent="person", same_screen=False, colour="black",
                          clock_minutes=None)
    game_id = created["id"]
    a.goto(f"{base}/games/{game_id}")
    b = new_page()
    b.goto(base + created["join_url"])
    b.wait_for_url(f"{base}/games/{game_id}")
    b.wait_for_selector("#game:not([hidden])")
    return a, b, game_id


def test_two_browsers_play_live_and_a_spectator_watches_once_public(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    a = new_page()
    a.goto(live_server + "/")
    a.locator("input[name=opponent][value=person]").check(force=True)
    expect(a.locator("#person-row")).to_be_visible()
    a.locator("input[name=same_screen][value='0']").check(force=True)
    a.locator("input[name=clock][value=none]").check(force=True)
    a.click("#start-game")
    a.wait_for_url("**/games/*")
    game_id = _game_id(a)
    invite = a.locator("#invite-url")
    expect(invite).to_have_value(re.compile(rf"/games/{game_id}/join\?code=."))
    link = invite.input_value()
    a.wait_for_selector(".square.legal")
    a.screenshot(path=str(screenshots / "seats-invite.png"), full_page=True)

    # B takes the second seat with the link; it is White, so it waits with no dots
    b = new_page()
    b.goto(link)
    b.wait_for_url(f"{live_server}/games/{game_id}")
    expect(b.locator("#status")).to_contain_text("waiting for the opponent")
    expect(b.locator(".square.legal")).to_have_count(0)
    expect(b.locator("#invite-panel")).to_be_hidden()
    expect(b.locator("#public-row")).to_be_hidden()  # only the creator decides

    # the link works once; a browser without a seat sees that the game is private
    c = new_page()
    c.goto(link)
    expect(c.locator("#join-error")).to_contain_text("used already")
    c.goto(f"{live_server}/games/{game_id}")
    expect(c.locator("#private-panel")).to_be_visible()
    expect(c.locator("#game")).to_be_hidden()
    c.screenshot(path=str(screenshots / "seats-private.png"), full_page=True)

    # moves reach the other browser live
    first = _click_first_dot(a)
    expect(b.locator("#moves li")).to_have_count(1, timeout=LIVE)
    expect(b.locator(f".square[data-square={first}] .disc")).to_have_count(1)
    _click_first_dot(b)
    expect(a.locator("#moves li")).to_have_count(2, timeout=LIVE)
    expect(a.locator("#invite-panel")).to_be_hidden()  # the opponent is here

    # A makes the game public: C watches read-only and sees the moves live
    with a.expect_response(f"**/api/games/{game_id}/public"):
        a.locator("#public").check()
    c.click("#private-retry")
    expect(c.locator("#watching")).to_be_visible()
    expect(c.locator("#moves li")).to_have_count(2)
    expect(c.locator("#controls")).to_be_hidden()
    expect(c.locator("#hints-row")).to_be_hidden()
    assert c.locator(".square.legal").count() == 0 and c.locator(".dot").count() == 0
    _click_first_dot(a)
    expect(c.locator("#moves li")).to_have_count(3, timeout=LIVE)
    assert c.locator(".dot").count() == 0
    c.screenshot(path=str(screenshots / "seats-watching.png"), full_page=True)
    c.goto(f"{live_server}/library")
    expect(c.locator(f"#public-games tr[data-game-id='{game_id}']")).to_have_count(1)

    # made private again: the spectator's page says so
    c.goto(f"{live_server}/games/{game_id}")
    expect(c.locator("#watching")).to_be_visible()
    with a.expect_response(f"**/api/games/{game_id}/public"):
        a.locator("#public").uncheck()
    c.reload()
    expect(c.locator("#private-panel")).to_be_visible()


def test_a_take_back_is_asked_of_the_other_browser(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    a, b, _game_id = _two_browsers(new_page, live_server)
    _click_first_dot(a)
    expect(b.locator("#moves li")).to_have_count(1, timeout=LIVE)
    expect(a.locator("#undo")).to_be_enabled()

    a.click("#undo")
    expect(a.locator("#undo-waiting")).to_be_visible()
    expect(a.locator("#undo")).to_be_disabled()
    expect(b.locator("#undo-request")).to_be_visible(timeout=LIVE)
    expect(b.locator("#undo-request-text")).to_contain_text("asks to take back")
    b.screenshot(path=str(screenshots / "undo-request.png"), full_page=True)
    b.click("#undo-decline")
    expect(b.locator("#undo-request")).to_be_hidden()
    expect(a.locator("#undo-waiting")).to_be_hidden(timeout=LIVE)
    expect(a.locator("#moves li")).to_have_count(1)

    a.click("#undo")
    expect(b.locator("#undo-request")).to_be_visible(timeout=LIVE)
    b.click("#undo-allow")
    for page in (a, b):
        expect(page.locator("#moves li")).to_have_count(0, timeout=LIVE)
        expect(page.locator(".disc")).to_have_count(4)
    expect(a.locator(".square.legal")).to_have_count(4)  # Black to move again


def test_the_program_claims_a_persons_fallen_flag(
        page: Any, live_server: str, screenshots: Path) -> None:
    expect = _expect()
    game_id = create_game(page, live_server, opponent="random", colour="black",
                          clock_minutes=0.05)["id"]  # three seconds
    page.goto(f"{live_server}/games/{game_id}")
    page.wait_for_selector(".square.legal")
    expect(page.locator("#result")).to_be_visible(timeout=10000)
    assert page.locator("#result-word").text_content() == "You lose"
    assert "on time" in (page.locator("#result-detail").text_content() or "")
    state = get_state(page, live_server, game_id)
    assert state["result"]["termination"] == "timeout" and state["result"]["winner"] == "white"
    expect(page.locator("#accept")).to_be_hidden()  # a time-out result is final
    expect(page.locator(".square.legal")).to_have_count(0)
    page.screenshot(path=str(screenshots / "flag-fell.png"), full_page=True)


def test_the_game_page_at_phone_and_desktop_width_in_both_languages(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    maker = new_page()
    created = create_game(maker, live_server, opponent="random", colour="black",
                          clock_minutes=20)
    game_id, token = created["id"], created["seat_token"]
    state = created
    for _ in range(3):
        state = play(maker, live_server, game_id, state["legal"][0], wait=True)
    for width, height, name in ((390, 844, "phone"), (768, 1024, "tablet"),
                                (1280, 900, "desktop")):
        for lang in ("en", "ja"):
            page = new_page(width, height, lang=lang)
            keep_seat(page, live_server, game_id, token)
            page.evaluate("""() => { for (const k of ["hints", "graph", "opening"])
                                       localStorage.setItem(`panel-${k}`, "1"); }""")
            page.goto(f"{live_server}/games/{game_id}")
            page.wait_for_selector(".square.legal")
            page.wait_for_selector(".hint", timeout=LIVE)
            page.wait_for_selector(".graph-svg", timeout=LIVE)
            word = "あなたの番です" if lang == "ja" else "Your turn"
            assert word in (page.locator("#status").text_content() or "")
            no_sideways_scroll(page, f"game page {name} {lang}")
            no_emoji_symbols(page, f"game page {name} {lang}")
            # the board with its player bars right above and below it, on one screen
            top, board, bottom = box(page, "#bar-top"), box(page, "#board"), \
                box(page, "#bar-bottom")
            assert top["y"] + top["height"] <= board["y"] <= top["y"] + top["height"] + 16
            assert board["y"] + board["height"] <= bottom["y"] \
                <= board["y"] + board["height"] + 16
            assert bottom["y"] + bottom["height"] <= height
            assert board["width"] >= min(width - 24, 600)  # as large as the screen allows
            page.screenshot(path=str(screenshots / f"game-{name}-{lang}.png"), full_page=True)
