"""Rule 21's caution, warning and removal (注意・警告・退場) in the director's area: the
director gives a warning to an entrant and removes a spectator by name; the list and the
public standings show them; in English and Japanese, at desktop and at phone width."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_sideways_scroll

pytestmark = pytest.mark.browser

WAIT = 8000  # ms
PASSWORD = "director secret"
TITLES = {"en": "Caution, warning, removal (rule 21)", "ja": "注意・警告・退場（第21条）"}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_director_gives_a_warning_and_a_removal(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, lang: str,
        width: int, height: int) -> None:
    from playwright.sync_api import expect

    page = new_page(width=width, height=height, lang=lang)
    created = page.request.post(f"{live_server}/api/tournaments", data={
        "name": "Rule 21", "format": "swiss", "rounds": 2, "password": PASSWORD})
    assert created.status == 201, created.text()
    tournament_id = created.json()["tournament"]["id"]
    auth = {"Authorization": f"Bearer {created.json()['session']['token']}"}
    for name in ("Aoki", "Baba", "Chiba", "Doi"):
        entered = page.request.post(f"{live_server}/api/tournaments/{tournament_id}/entrants",
                                    data={"name": name}, headers=auth)
        assert entered.status == 201, entered.text()
    page.goto(f"{live_server}/tournaments/{tournament_id}/director?lang={lang}")
    page.fill("#login-password", PASSWORD)
    page.click("#login-button")
    card = page.locator("#sanctions-card")
    expect(card.locator("h2")).to_have_text(TITLES[lang], timeout=WAIT)
    page.select_option("#sanction-kind", "warning")
    page.select_option("#sanction-entrant", "2")
    page.fill("#sanction-reason", "advice to a player")
    page.click("#sanction-give")
    items = page.locator("#sanctions-list li[data-sanction]")
    expect(items).to_have_count(1, timeout=WAIT)
    expect(items.first).to_contain_text("警告")
    expect(items.first).to_contain_text("Baba")
    page.select_option("#sanction-kind", "removal")
    page.fill("#sanction-person", "a spectator")
    page.fill("#sanction-reason", "kept talking")
    page.click("#sanction-give")
    expect(items).to_have_count(2, timeout=WAIT)
    expect(items.nth(1)).to_contain_text("退場")
    expect(items.nth(1)).to_contain_text("a spectator")
    no_sideways_scroll(page, f"director's sanctions ({lang}, {width})")
    card.screenshot(path=str(screenshots / f"tournament-sanctions-{lang}-{width}.png"))
    page.goto(f"{live_server}/tournaments/{tournament_id}/standings?lang={lang}")
    expect(page.locator("#standings .tag.sanction")).to_have_text("警告 (warning)")
