"""What a newcomer sees in chromium (issue 65, items 6, 10, 12, 13): a server that cannot be
reached is said so, with the page trying again (not "Failed to fetch"); /multi's move
numbers stand beside their moves; the game page counts plies as the library does; the
evaluation graph's scale stays readable at a wipe-out; the record sheet is whole in its
frame; the Notes card is as tall as its notes; a fresh server's new-game form says which
programs are getting ready while it already works. At 390 px and 1280 px, in English and
Japanese, photographed into test-output/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import box, no_sideways_scroll, overlap
from tests.browser.seats import create_game, keep_seat, play
from tests.browser.test_warmup_in_browser import fresh_server  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser
WIDTHS = (390, 1280)
LIVE = 15_000  # ms


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_outage_says_the_server_cannot_be_reached_and_that_the_page_retries(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, lang: str) -> None:
    expect = _expect()
    for width in WIDTHS:
        page = new_page(width=width, height=844 if width < 500 else 900, lang=lang)
        page.goto(live_server + "/library")
        game = create_game(page, live_server, opponent="person", clock_minutes=None)
        page.goto(f"{live_server}/games/{game['id']}")
        page.wait_for_selector(".square.legal")
        page.route("**/api/**", lambda route: route.abort("connectionrefused"))
        page.locator(".square.legal").first.click()
        banner = page.locator("#offline")
        expect(banner).to_be_visible(timeout=LIVE)
        said = {"en": ("cannot be reached", "Trying again"),
                "ja": ("接続できません", "再接続")}[lang]
        assert all(words in (banner.text_content() or "") for words in said)
        expect(page.locator("#error")).to_contain_text(
            {"en": "cannot be reached", "ja": "接続できない"}[lang])
        text = page.evaluate("document.body.innerText")
        assert "Failed to fetch" not in text and "TypeError" not in text
        no_sideways_scroll(page, f"an outage at {width} px")
        page.screenshot(path=str(screenshots / f"outage-{lang}-{width}.png"))
        # the server is back: the banner goes and the game carries on
        page.unroute("**/api/**")
        expect(banner).to_be_hidden(timeout=LIVE)
        page.locator(".square.legal").first.click()
        expect(page.locator("#moves li")).to_have_count(1, timeout=LIVE)


def test_the_game_page_counts_plies_as_the_library_does(
        new_page: Callable[..., Any], live_server: str) -> None:
    expect = _expect()
    for lang, shown in (("en", "(3 plies)"), ("ja", "(3手)")):
        page = new_page(lang=lang)
        page.goto(live_server + "/library")
        game = create_game(page, live_server, opponent="person", clock_minutes=None)
        for move in ("f5", "d6", "c3"):
            play(page, live_server, game["id"], move)
        page.goto(f"{live_server}/games/{game['id']}")
        expect(page.locator("#move-count")).to_have_text(shown, timeout=LIVE)
        page.goto(f"{live_server}/library")
        row = page.locator(f"tr[data-game-id='{game['id']}'] td.moves")
        assert (row.text_content() or "").strip().endswith("3")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_multi_move_numbers_stand_beside_their_moves(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, lang: str) -> None:
    expect = _expect()
    for width in WIDTHS:
        page = new_page(width=width, height=844 if width < 500 else 900, lang=lang)
        page.goto(live_server + "/multi")
        for i, name in enumerate(("Ann", "Bo", "Cy", "Di")):
            page.fill(f"#seat-{i}-name", name)
        page.click("#multi-start")
        page.wait_for_url(re.compile(r"/multi/[A-Za-z0-9_-]+$"))
        for n in range(1, 13):
            page.wait_for_selector("#multi-board .msq.legal", timeout=LIVE)
            page.locator("#multi-board .msq.legal").first.click()
            expect(page.locator("#multi-moves li")).to_have_count(n, timeout=LIVE)
        items = page.locator("#multi-moves li")
        style = page.evaluate(
            "getComputedStyle(document.querySelector('#multi-moves li')).listStyleType")
        assert style == "none", "a list marker sits outside its item, over the move before"
        boxes = [items.nth(i).bounding_box() for i in range(items.count())]
        for i in range(items.count()):
            number = items.nth(i).locator(".move-number")
            assert (number.text_content() or "") == f"{i + 1}."
            assert all(not overlap(boxes[i], other) for other in boxes[:i]), i
        no_sideways_scroll(page, f"/multi at {width} px")
        page.locator("#multi-moves").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"multi-moves-{lang}-{width}.png"))


def test_the_graph_scale_is_not_drawn_over_at_a_wipe_out(
        page: Any, live_server: str) -> None:
    page.goto(live_server + "/library")
    page.evaluate("""async () => {
        const { drawGraph } = await import("/static/js/graph.js");
        const div = document.createElement("div");
        div.id = "probe-graph";
        div.style.width = "320px";
        document.querySelector("main").prepend(div);
        drawGraph(div, [0, -4, -12, -30, -50, -64], { current: 5 });
    }""")
    line = box(page, "#probe-graph .graph-line")
    labels = page.locator("#probe-graph .graph-label")
    assert labels.count() >= 2
    for i in range(labels.count()):
        label = labels.nth(i).bounding_box()
        assert label is not None and not overlap(label, line), labels.nth(i).text_content()
    assert "−64" in (labels.nth(labels.count() - 1).text_content() or "")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_record_sheet_is_whole_in_its_frame(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, lang: str) -> None:
    page = new_page(width=1280, height=900, lang=lang)
    response = page.request.post(f"{live_server}/api/record/games",
                                 data={"names": ["Ann", "Bob"]})
    assert response.status == 201, response.text()
    created = response.json()
    game_id, token = created["game"]["game"]["id"], created["seat_token"]
    keep_seat(page, live_server, game_id, token)
    for name in ("f5", "d6", "c3", "d3", "c4"):
        answer = page.request.post(f"{live_server}/api/record/games/{game_id}/entries",
                                   data={"square": name},
                                   headers={"Authorization": f"Bearer {token}"})
        assert answer.ok, answer.text()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 500 else 900})
        page.goto(f"{live_server}/record/{game_id}/sheet")
        page.wait_for_function("""() => {
            const f = document.getElementById("sheet-frame");
            const d = f.contentDocument;
            return d && d.body && d.body.innerText.length > 50
                && f.clientHeight >= d.documentElement.scrollHeight;
        }""", timeout=LIVE)
        inner, outer = page.evaluate("""() => {
            const f = document.getElementById("sheet-frame");
            return [f.contentDocument.documentElement.scrollHeight, f.clientHeight];
        }""")
        assert outer >= inner, f"the sheet ({inner} px) is cut off in its frame ({outer} px)"
        page.screenshot(path=str(screenshots / f"record-sheet-{lang}-{width}.png"),
                        full_page=True)


def test_the_notes_card_is_as_tall_as_its_notes(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    page = new_page(width=1280, height=900, lang="en")
    page.goto(live_server + "/library")
    game = create_game(page, live_server, opponent="person", clock_minutes=None)
    for move in ("f5", "d6", "c3"):
        play(page, live_server, game["id"], move)
    page.goto(f"{live_server}/games/{game['id']}/replay")
    page.wait_for_selector("#notes .notes-list, #notes p:not(.muted)", timeout=LIVE)
    gap, tall = page.evaluate("""() => {
        const notes = document.getElementById("notes");
        const last = notes.lastElementChild;
        const style = getComputedStyle(notes);
        return [notes.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom,
                notes.scrollHeight > notes.clientHeight + 1];
    }""")
    assert tall or gap < 24, f"{gap:.0f} px of empty space under the notes"
    page.screenshot(path=str(screenshots / "notes-card-1280.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_fresh_servers_form_works_at_once_and_says_which_programs_get_ready(
        fresh_server: tuple[str, Any],  # noqa: F811
        new_page: Callable[..., Any], screenshots: Path, lang: str) -> None:
    expect = _expect()
    base, compile_ = fresh_server
    compile_.release("rules")
    pages = [new_page(width=w, height=844 if w < 500 else 900, lang=lang) for w in WIDTHS]
    for page, width in zip(pages, WIDTHS, strict=True):
        page.goto(base + "/")
        notice = page.locator("#form-warmup")
        expect(notice).to_be_visible(timeout=LIVE)
        expect(notice).to_contain_text({"en": "You can start a game now",
                                        "ja": "今すぐ対局を始められます"}[lang])
        random_tile = page.locator(".tile:has(input[value=random]) .tile-warming")
        engine_tile = page.locator(".tile:has(input[value=engine]) .tile-warming")
        expect(engine_tile).to_be_visible(timeout=LIVE)
        expect(random_tile).to_be_hidden()
        no_sideways_scroll(page, f"the fresh form at {width} px")
        page.screenshot(path=str(screenshots / f"fresh-form-{lang}-{width}.png"))
    # meanwhile a game against Random starts and is played
    page = pages[1]
    page.locator("input[name=opponent][value=random]").check(force=True)
    page.locator("input[name=clock][value=none]").check(force=True)
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    page.wait_for_selector(".square.legal", timeout=LIVE)
    # the kernels are in: the form says nothing more
    compile_.release("players", "engine")
    page = pages[0]
    expect(page.locator("#form-warmup")).to_be_hidden(timeout=30_000)
    expect(page.locator(".tile-warming:visible")).to_have_count(0, timeout=LIVE)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_board_has_one_name_on_the_form_the_editor_and_the_library(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, lang: str) -> None:
    names = {"en": ("8×8", "Nip (circle)"), "ja": ("8×8", "ニップ（円形）")}[lang]
    for width in WIDTHS:
        page = new_page(width=width, height=844 if width < 500 else 900, lang=lang)
        page.goto(live_server + "/library")
        game = create_game(page, live_server, opponent="person", clock_minutes=None)
        play(page, live_server, game["id"], "f5")
        page.goto(live_server + "/library")
        cell = page.locator(f"tr[data-game-id='{game['id']}'] td.variant")
        assert (cell.text_content() or "").strip() == names[0]
        no_sideways_scroll(page, f"the library at {width} px")
        page.screenshot(path=str(screenshots / f"library-boards-{lang}-{width}.png"))
        page.goto(live_server + "/editor")
        options = page.locator("#variant option").all_text_contents()
        assert options[0] == names[0] and names[1] in options
        if lang == "ja":
            assert not [o for o in options if re.search("[A-Za-z]", o)], options
        no_sideways_scroll(page, f"the editor at {width} px")
        page.screenshot(path=str(screenshots / f"editor-boards-{lang}-{width}.png"))
