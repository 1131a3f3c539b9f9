"""Accounts in chromium (issue 67): sign up, the name in the navigation, claim a game
played in this browser before, sign out, sign in in another browser (a phone, in
Japanese) where the game page takes the account's seat by itself, and delete the account;
the forms and the profile at 390 px and 1280 px."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_emoji_symbols, no_sideways_scroll
from tests.browser.seats import create_game, token_of

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
WAIT = 10_000  # ms


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def test_sign_up_claim_sign_out_sign_in_elsewhere_and_delete(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    name = "player_" + secrets.token_hex(3)
    desk = new_page()
    # a game played before signing up, in this browser
    created = create_game(desk, live_server, opponent="random", public=True)
    game_id = created["id"]

    desk.goto(live_server + "/signup")
    no_sideways_scroll(desk, "sign-up at 1280 px")
    desk.fill("#acct-name", name)
    desk.fill("#acct-password", "short")
    desk.click("#acct-submit")
    expect(desk.locator("#acct-error")).to_contain_text("8 to 256", timeout=WAIT)
    desk.fill("#acct-password", PASSWORD)
    desk.click("#acct-submit")
    desk.wait_for_url(f"{live_server}/players/{name}", timeout=WAIT)
    expect(desk.locator("#nav-account")).to_have_text(name)
    expect(desk.locator("#claim-note")).to_contain_text("1 game played in this browser")
    desk.click("#claim-button")
    expect(desk.locator("#claim-result")).to_contain_text("1 game is now yours",
                                                          timeout=WAIT)
    desk.wait_for_function("() => document.querySelector('#claim-button').disabled",
                           timeout=WAIT)
    desk.screenshot(path=str(screenshots / "accounts-profile-1280.png"), full_page=True)
    no_sideways_scroll(desk, "profile at 1280 px")
    no_emoji_symbols(desk, "profile")

    desk.click("#nav-logout")
    desk.wait_for_selector("#nav-login", timeout=WAIT)
    assert desk.request.get(f"{live_server}/api/accounts/me").status == 401
    # signed out, the browser stays trusted: its device cookie, which no script sees
    device = [c for c in desk.context.cookies() if c["name"] == "hasamigo_device"]
    assert len(device) == 1 and device[0]["httpOnly"] and device[0]["sameSite"] == "Strict"
    assert device[0]["path"] == "/api/accounts"
    assert "hasamigo_device" not in desk.evaluate("document.cookie")

    # a phone, in Japanese, with no seat token: the account's seat comes by itself
    phone = new_page(width=390, height=844, lang="ja")
    phone.goto(live_server + "/login")
    no_sideways_scroll(phone, "sign-in at 390 px")
    expect(phone.locator("h1")).to_have_text("ログイン")
    phone.fill("#acct-name", name.upper())
    phone.fill("#acct-password", "wrong password")
    phone.click("#acct-submit")
    expect(phone.locator("#acct-error")).to_have_text("名前かパスワードが違います。",
                                                      timeout=WAIT)
    phone.fill("#acct-password", PASSWORD)
    phone.click("#acct-submit")
    phone.wait_for_url(f"{live_server}/players/{name}", timeout=WAIT)
    expect(phone.locator("#by-colour")).to_contain_text("黒")
    no_sideways_scroll(phone, "profile at 390 px")
    phone.screenshot(path=str(screenshots / "accounts-profile-390-ja.png"), full_page=True)
    assert token_of(phone, game_id) is None
    phone.goto(f"{live_server}/games/{game_id}")
    phone.wait_for_selector("#game:not([hidden])", timeout=WAIT)
    phone.wait_for_function(f"() => localStorage.getItem('hasamigo:seat:{game_id}')",
                            timeout=WAIT)
    phone.wait_for_selector(".square.legal", timeout=WAIT)  # Black's seat: its dots

    # the account deleted: its password again, confirmed
    phone.goto(f"{live_server}/players/{name}")
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.fill("#delete-password", "wrong password")
    phone.click("#delete-button")
    expect(phone.locator("#delete-error")).to_contain_text("パスワードが違います",
                                                          timeout=WAIT)
    phone.fill("#delete-password", PASSWORD)
    phone.click("#delete-button")
    phone.wait_for_url(f"{live_server}/", timeout=WAIT)
    phone.wait_for_selector("#nav-login")
    assert phone.request.get(f"{live_server}/players/{name}").status == 404
    assert phone.request.get(f"{live_server}/api/accounts/me").status == 401


def test_a_sign_in_refused_by_a_limit_says_how_long_to_wait(
        new_page: Callable[..., Any], live_server: str) -> None:
    """The address's limit lasts a minute, a name's or a browser's up to an hour: the form
    says which, from the 429's ``Retry-After`` (the server's own limits are tested in
    tests/test_login_limits.py; here its answers are given, to see the page read them)."""
    import json

    def refuse(seconds: int) -> Callable[[Any], None]:
        def handler(route: Any) -> None:  # one parameter: Playwright passes the route
            route.fulfill(status=429, headers={"Retry-After": str(seconds)},
                          content_type="application/json",
                          body=json.dumps({"error": {"code": "rate_limited",
                                                     "message": "too many"}}))
        return handler

    expect = _expect()
    for lang, retry, words in (("en", 3599, "try again in 60 minutes"),
                               ("en", 42, "wait a minute and try again"),
                               ("ja", 1800, "30分後にもう一度")):
        page = new_page(width=390, height=844, lang=lang)
        page.route("**/api/accounts/login", refuse(retry))
        page.goto(live_server + "/login")
        page.fill("#acct-name", "someone")
        page.fill("#acct-password", PASSWORD)
        page.click("#acct-submit")
        expect(page.locator("#acct-error")).to_contain_text(words, timeout=WAIT)
        no_sideways_scroll(page, f"a sign-in refused at 390 px ({lang})")
