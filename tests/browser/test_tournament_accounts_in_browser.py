"""Tournaments by account in the browser (issue 67): the director opens registration in
the director's area, a signed-in player enters from the tournament's page and withdraws
again, at phone width in Japanese and at desktop width in English; the entrants list
shows the entry; closing registration closes the page's form."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_emoji_symbols, no_sideways_scroll

pytestmark = pytest.mark.browser
WAIT = 8000  # ms
PASSWORD = "director secret"
PLAYER_PASSWORD = "a long player password"


def _expect() -> Any:
    from playwright.sync_api import expect
    return expect


@pytest.mark.parametrize("width,height,lang", [(1280, 900, "en"), (390, 844, "ja")],
                         ids=["desktop-en", "phone-ja"])
def test_a_player_enters_and_withdraws_from_the_tournament_page(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, width: int,
        height: int, lang: str) -> None:
    expect = _expect()
    size = "desktop" if width > 600 else "phone"
    director = new_page(width=width, height=height, lang=lang)
    created = director.request.post(f"{live_server}/api/tournaments", data={
        "name": f"Open entry ({size})", "format": "swiss", "rounds": 3,
        "password": PASSWORD})
    assert created.status == 201, created.text()
    tid = created.json()["tournament"]["id"]
    director.goto(f"{live_server}/tournaments/{tid}/director")
    director.fill("#login-password", PASSWORD)
    director.click("#login-button")
    expect(director.locator("#registration-settings")).to_be_visible(timeout=WAIT)
    director.check("#rs-open")
    director.fill("#rs-cap", "8")
    director.select_option("#rs-seeding", "rating")
    with director.expect_response(lambda r: r.url.endswith("/registration/settings")) as saved:
        director.click("#rs-save")
    assert saved.value.status == 200
    expect(director.locator("#rs-open")).to_be_checked(timeout=WAIT)
    no_sideways_scroll(director, f"director's area, registration settings ({size})")

    player = new_page(width=width, height=height, lang=lang)
    name = f"Player{size}"
    signed = player.request.post(f"{live_server}/api/accounts",
                                 data={"name": name, "password": PLAYER_PASSWORD})
    assert signed.status == 201, signed.text()
    player.goto(f"{live_server}/tournaments/{tid}")
    expect(player.locator("#registration-card")).to_be_visible()
    player.fill("#self-rank", "2d")
    player.click("#register-self-button")
    mine = player.locator("#my-entry")
    expect(mine).to_have_text("あなたは 1 番で参加しています。" if lang == "ja"
                              else "You are entered as number 1.", timeout=WAIT)
    expect(player.locator("#entrants .t-name")).to_have_text([name])
    no_sideways_scroll(player, f"tournament page, entered ({size})")
    no_emoji_symbols(player, "tournament page")
    player.screenshot(path=str(screenshots / f"tournament-entry-{size}.png"), full_page=True)
    player.click("#withdraw-self")
    expect(player.locator("#register-self")).to_be_visible(timeout=WAIT)

    director.uncheck("#rs-open")
    with director.expect_response(lambda r: r.url.endswith("/registration/settings")) as saved:
        director.click("#rs-save")
    assert saved.value.status == 200
    player.reload()
    expect(player.locator("#register-self")).to_have_count(0)
