"""Games of three and four players in the browser: four people online, each in a browser
of their own through their seat's join link, to the end; and three people sharing one
phone-sized screen with a program on the fourth seat, to the end and back through the
replay."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.checks import no_emoji_symbols, no_sideways_scroll

pytestmark = pytest.mark.browser

LIVE = 10_000  # ms for a move to reach the other pages (they poll)


def _api(page: Any, method: str, url: str, body: Any = None, token: str | None = None
         ) -> Any:
    """A request from the page (same origin), its JSON; a refusal fails the test."""
    result = page.evaluate(
        """async ([method, url, body, token]) => {
            const headers = {Accept: "application/json"};
            if (token) headers.Authorization = `Bearer ${token}`;
            if (body !== null) headers["Content-Type"] = "application/json";
            const r = await fetch(url, {method, headers,
                                        body: body === null ? undefined : JSON.stringify(body)});
            return [r.status, await r.json()];
        }""", [method, url, body, token])
    assert result[0] < 300, result
    return result[1]


def _token(page: Any, game_id: str) -> str:
    token: str = page.evaluate(f"localStorage.getItem('hasamigo:multi:{game_id}')")
    assert token, "the page kept no seat token"
    return token


def _game_id(page: Any) -> str:
    match = re.search(r"/multi/([A-Za-z0-9_-]+)$", page.url)
    assert match, page.url
    return match.group(1)


def _moves_shown(page: Any) -> int:
    return int(page.locator("#multi-ply").inner_text().split("/")[1])


def _click_a_legal_square(page: Any) -> None:
    page.wait_for_selector("#multi-board .msq.legal", timeout=LIVE)
    before = _moves_shown(page)
    page.locator("#multi-board .msq.legal").first.click()
    page.wait_for_function(
        f"() => Number(document.getElementById('multi-ply').textContent.split('/')[1]) "
        f"> {before}", timeout=LIVE)


def _counts(page: Any) -> list[int]:
    return [int(t) for t in page.locator("#multi-seats .multi-count").all_inner_texts()]


def test_four_people_online_each_in_their_own_browser_to_the_end(
        new_page: Callable[..., Any], live_server: str) -> None:
    from playwright.sync_api import expect

    a = new_page()
    a.goto(live_server + "/")
    a.locator("a[href='/multi']").click()
    a.wait_for_selector("#multi-new")
    for i, name in enumerate(("Ann", "Bo", "Cy", "Di")):
        a.fill(f"#seat-{i}-name", name)
    a.select_option("#multi-first", "red")
    a.locator("input[name=where][value=online]").check(force=True)
    a.click("#multi-start")
    a.wait_for_url(re.compile(r"/multi/[A-Za-z0-9_-]+$"))
    game_id = _game_id(a)
    a.wait_for_selector("#multi-links:not([hidden])")
    links = {c: a.locator(f".multi-link[data-colour={c}]").input_value()
             for c in ("yellow", "green", "blue")}
    pages = {"red": a}
    for colour, link in links.items():
        # the last one on a phone's width
        page = new_page(width=390, height=844) if colour == "blue" else new_page()
        page.goto(link)
        page.wait_for_url(f"{live_server}/multi/{game_id}")
        expect(page.locator(f"#multi-seats [data-colour={colour}]")).to_contain_text("You")
        pages[colour] = page
    tokens = {c: _token(p, game_id) for c, p in pages.items()}
    assert len(set(tokens.values())) == 4
    expect(a.locator("#multi-links")).to_be_hidden(timeout=LIVE)  # every link used
    # most of the game through the API, each seat with its own token; the last round and
    # one move of each seat's early on by clicks in its own page
    for colour in ("red", "yellow", "green", "blue"):
        _click_a_legal_square(pages[colour])
    rng = random.Random(7)
    view = _api(a, "GET", f"/api/multi/{game_id}", None, tokens["red"])
    while len(view["moves"]) < 56:
        view = _api(a, "POST", f"/api/multi/{game_id}/moves",
                    {"move": rng.choice(view["legal"])}, tokens[view["turn"]])
    for colour in ("red", "yellow", "green", "blue"):
        page = pages[colour]
        expect(page.locator("#multi-status")).to_contain_text("Your turn", timeout=LIVE)
        _click_a_legal_square(page)
    for colour, page in pages.items():
        expect(page.locator("#multi-status")).to_contain_text("Game over", timeout=LIVE)
        expect(page.locator("#multi-ply")).to_have_text("60 / 60")
        assert sum(_counts(page)) == 64, colour
    final = _api(a, "GET", f"/api/multi/{game_id}", None, tokens["red"])
    assert final["over"] and sum(s["discs"] for s in final["standings"]) == 64
    no_sideways_scroll(pages["blue"], "the game at 390 px")
    no_emoji_symbols(pages["blue"])
    # each disc shows its colour's letter: the legend needs no colour vision
    assert pages["blue"].locator("#multi-board .mdisc").first.inner_text() in "RYGB"


def test_three_people_and_a_program_on_one_phone_screen(
        new_page: Callable[..., Any], live_server: str) -> None:
    from playwright.sync_api import expect

    page = new_page(width=390, height=844, lang="ja")
    page.goto(live_server + "/multi")
    no_sideways_scroll(page, "the new game at 390 px")
    for i, name in enumerate(("Ann", "Bo", "Cy")):
        page.fill(f"#seat-{i}-name", name)
    page.select_option("#seat-3-player", "greedy")
    page.click("#multi-start")
    page.wait_for_url(re.compile(r"/multi/[A-Za-z0-9_-]+$"))
    game_id = _game_id(page)
    expect(page.locator("#multi-links")).to_be_hidden()
    clicks = 0
    while True:
        page.wait_for_function(
            "() => document.querySelector('#multi-board .msq.legal') || "
            "document.getElementById('multi-status').textContent.includes('対局終了')",
            timeout=LIVE)
        if page.locator("#multi-board .msq.legal").count() == 0:
            break
        _click_a_legal_square(page)
        clicks += 1
    assert clicks == 45  # Rolit: 60 squares, nobody passes, a quarter the program's
    expect(page.locator("#multi-ply")).to_have_text("60 / 60")
    assert sum(_counts(page)) == 64
    view = _api(page, "GET", f"/api/multi/{game_id}")
    assert view["over"] and [s["program"] for s in view["seats"]].count("greedy") == 1
    no_sideways_scroll(page, "the finished game at 390 px")
    # the replay: back to the start and one move on
    page.click("#multi-start-ply")
    expect(page.locator("#multi-ply")).to_have_text("0 / 60")
    assert sum(_counts(page)) == 4  # one disc of each colour in the centre
    assert page.locator("#multi-board .mdisc").count() == 4
    page.click("#multi-next")
    expect(page.locator("#multi-ply")).to_have_text("1 / 60")
    assert page.locator("#multi-board .mdisc").count() == 5
    download = page.locator("#multi-download").get_attribute("href")
    assert download == f"/api/multi/{game_id}/record.mgf"
