"""A tournament in the browser: the director creates it on /tournaments, enters eight
players, pairs and enters two rounds of result cards in the director's area, and the
public standings page (another browser, no password) shows the names, wins and
Brightwell points; at desktop and at phone width. Also: the director's session is
refused after logging out, and a wrong password is said so."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_emoji_symbols, no_sideways_scroll

pytestmark = pytest.mark.browser

WAIT = 8000  # ms
PASSWORD = "director secret"
PLAYERS = [("Aoki", "3d", True), ("Baba", "1d", False), ("Chiba", "2k", False),
           ("Doi", "", True), ("Endo", "4d", False), ("Fujii", "", False),
           ("Goto", "1k", True), ("Hara", "2d", False)]


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _enter_round(page: Any, number: int) -> None:
    """Pair round ``number`` and fill in every board's card (Black wins by 2 + board)."""
    expect = _expect()
    page.click("#pair-button")
    expect(page.locator("#round-heading")).to_contain_text(f"Round {number}", timeout=WAIT)
    forms = page.locator("#boards form.card-entry")
    count = forms.count()
    assert count == 4
    for left in range(count, 0, -1):
        form = forms.first
        board = int(form.get_attribute("data-board"))
        form.locator("input[name=black_discs]").fill(str(33 + board))
        form.locator("input[name=white_discs]").fill(str(31 - board))
        form.locator("input[name=white_discs]").press("Enter")
        expect(forms).to_have_count(left - 1, timeout=WAIT)
    expect(page.locator("#round-heading")).to_contain_text("complete")


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_director_runs_two_rounds_and_the_public_standings_show_them(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, width: int,
        height: int) -> None:
    expect = _expect()
    size = "desktop" if width > 600 else "phone"
    page = new_page(width=width, height=height, lang="en")
    page.goto(live_server + "/tournaments")
    expect(page.locator("nav.nav a[href='/tournaments']")).to_have_class("active")
    page.fill("#new-name", f"Club open ({size})")
    page.select_option("#new-format", "swiss")
    page.fill("#new-rounds", "4")
    page.fill("#new-password", PASSWORD)
    page.fill("#new-director", "Mori")
    page.click("#new-create")
    page.wait_for_url("**/director")
    tournament_id = page.url.rstrip("/").split("/")[-2]
    expect(page.locator("#director-name")).to_have_text("Mori")
    stored = page.evaluate("k => sessionStorage.getItem(k)",
                           f"hasamigo:director:{tournament_id}")
    assert stored and PASSWORD not in stored
    assert PASSWORD not in page.evaluate("JSON.stringify(localStorage)")

    for name, rank, woman in PLAYERS:
        page.fill("#reg-name", name)
        page.fill("#reg-rank", rank)
        if woman:
            page.check("#reg-woman")
        page.click("#reg-add")
        expect(page.locator("#director-entrants tbody tr")).to_contain_text(
            [n for n, _, _ in PLAYERS[:PLAYERS.index((name, rank, woman)) + 1]], timeout=WAIT)
        expect(page.locator("#reg-name")).to_have_value("")
    expect(page.locator("#entrant-count")).to_have_text("(8)")
    no_sideways_scroll(page, f"director's area, registration ({size})")

    _enter_round(page, 1)
    page.screenshot(path=str(screenshots / f"tournament-director-round1-{size}.png"),
                    full_page=True)
    _enter_round(page, 2)
    expect(page.locator("#register-form")).to_be_hidden()
    expect(page.locator("#pair-button")).to_have_text("Pair round 3")
    no_sideways_scroll(page, f"director's area, round 2 ({size})")
    no_emoji_symbols(page, "director's area")

    # the public standings: another browser, no password
    public = new_page(width=width, height=height, lang="en")
    public.goto(f"{live_server}/tournaments/{tournament_id}/standings")
    expect(public.locator("#standings-title")).to_have_text("After round 2")
    rows = public.request.get(
        f"{live_server}/api/tournaments/{tournament_id}/standings").json()["standings"]
    assert len(rows) == 8 and sum(r["wins"] for r in rows) == 8  # 4 games a round
    for r in rows:
        row = public.locator(f"#standings tr[data-number='{r['number']}']")
        expect(row.locator(".t-name")).to_have_text(r["name"])
        expect(row.locator(".wins")).to_have_text(_num(r["wins"]))
        expect(row.locator(".brightwell")).to_have_text(_num(r["brightwell"]))
        expect(row.locator(".place")).to_have_text(str(r["place"]))
    leader = public.locator("#standings tbody tr").first
    expect(leader.locator(".wins")).to_have_text("2")
    formula = leader.locator(".formula-inline" if size == "phone" else "td.formula")
    expect(formula).to_be_visible()
    expect(formula).to_have_text(rows[0]["formula"])
    no_sideways_scroll(public, f"standings ({size})")
    no_emoji_symbols(public, "standings")
    public.screenshot(path=str(screenshots / f"tournament-standings-{size}.png"),
                      full_page=True)
    public.goto(f"{live_server}/tournaments/{tournament_id}?round=2")
    expect(public.locator("#pairings tbody tr")).to_have_count(4)
    no_sideways_scroll(public, f"pairings ({size})")
    public.goto(f"{live_server}/tournaments/{tournament_id}/director")
    expect(public.locator("#login-card")).to_be_visible()  # this browser has no session


def test_a_wrong_password_is_said_and_logging_out_ends_the_session(
        new_page: Callable[..., Any], live_server: str) -> None:
    expect = _expect()
    page = new_page(lang="en")
    created = page.request.post(f"{live_server}/api/tournaments", data={
        "name": "Login check", "format": "round-robin", "password": PASSWORD})
    assert created.status == 201, created.text()
    tournament_id = created.json()["tournament"]["id"]
    page.goto(f"{live_server}/tournaments/{tournament_id}/director")
    page.fill("#login-password", "not the password")
    page.click("#login-button")
    expect(page.locator("#login-error")).to_have_text("wrong password", timeout=WAIT)
    page.fill("#login-password", PASSWORD)
    page.fill("#login-name", "Sato")
    page.click("#login-button")
    expect(page.locator("#director-name")).to_have_text("Sato", timeout=WAIT)
    page.click("#logout")
    expect(page.locator("#login-card")).to_be_visible()
    page.reload()
    expect(page.locator("#login-card")).to_be_visible()
    expect(page.locator("#director-area")).to_be_hidden()


def test_a_board_recorded_over_the_board_gives_its_result(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    """The director opens a board's record link (the players filled in), the recorder
    hands in the result card there, and the director takes the result from the game's
    link: the board shows it, linked to the game."""
    expect = _expect()
    page = new_page(width=1280, height=900, lang="en")
    created = page.request.post(f"{live_server}/api/tournaments", data={
        "name": "Recorded boards", "format": "swiss", "rounds": 2, "password": PASSWORD})
    assert created.status == 201, created.text()
    tournament_id = created.json()["tournament"]["id"]
    page.goto(f"{live_server}/tournaments/{tournament_id}/director")
    page.fill("#login-password", PASSWORD)
    page.click("#login-button")
    expect(page.locator("#director-area")).to_be_visible(timeout=WAIT)
    for name, _, _ in PLAYERS[:4]:
        page.fill("#reg-name", name)
        page.click("#reg-add")
        expect(page.locator("#reg-name")).to_have_value("", timeout=WAIT)
    expect(page.locator("#t-entrants")).to_have_text("4 entrants")  # the header follows
    page.click("#pair-button")
    expect(page.locator("#t-round")).to_have_text("round 1 of 2", timeout=WAIT)
    row = page.locator("#boards .board-row").first
    expect(row.locator("form.game-link")).to_be_visible(timeout=WAIT)
    black = row.locator(".t-player").nth(0).inner_text()
    white = row.locator(".t-player").nth(1).inner_text()
    href = row.locator("form.game-link a").get_attribute("href")

    recorder = new_page(width=1024, height=768, lang="en")  # the recorder's tablet
    recorder.goto(live_server + href)
    expect(recorder.locator("#name-0")).to_have_value(black)
    expect(recorder.locator("#name-1")).to_have_value(white)
    recorder.get_by_role("button", name="Enter the record").click()
    recorder.wait_for_url("**/record/*")
    expect(recorder.locator("#card-black")).to_be_visible(timeout=WAIT)
    recorder.fill("#card-black", "27")
    recorder.fill("#card-white", "37")
    recorder.click("#card-submit")
    expect(recorder.locator("#result")).to_contain_text("27", timeout=WAIT)

    row.locator("form.game-link input[name=game]").fill(recorder.url)
    row.locator("form.game-link button[type=submit]").click()
    expect(row.locator(".board-result")).to_contain_text("27", timeout=WAIT)
    expect(row.locator("form.game-link")).to_have_count(0)
    page.screenshot(path=str(screenshots / "tournament-board-from-record.png"),
                    full_page=True)
    game_id = recorder.url.rstrip("/").split("/")[-1]
    games = page.request.get(
        f"{live_server}/api/tournaments/{tournament_id}/rounds/1").json()["games"]
    assert any(g["game_id"] == game_id and g["winner"] == white for g in games)
