"""The director's and the arbiter's tools in the browser: a child refused from the master
division and let in with a reason (eligibility); a loss by penalty declared on a board and
shown on the standings (rule 21); the pairing sheet naming who chooses the seat (rule 4);
and on the clock page, the last move claimed illegal after the game ended (rule 10) and
time taken off a clock."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.arbiter_lines import game_to_the_last_square
from tests.browser.checks import no_sideways_scroll
from tests.browser.seats import keep_seat

pytestmark = pytest.mark.browser

WAIT = 8000  # ms
PASSWORD = "director secret"


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _create(page: Any, base: str, name: str, fmt: str, day: str | None = None) -> str:
    """A tournament made on /tournaments; the page is then in its director's area."""
    page.goto(base + "/tournaments")
    page.fill("#new-name", name)
    page.select_option("#new-format", fmt)
    if day is not None:
        page.fill("#new-date", day)
    page.fill("#new-password", PASSWORD)
    page.fill("#new-director", "Mori")
    page.click("#new-create")
    page.wait_for_url("**/director")
    tournament_id: str = page.url.rstrip("/").split("/")[-2]
    return tournament_id


def test_a_child_is_refused_from_the_master_division_then_let_in_with_a_reason(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    page = new_page(lang="en")
    _create(page, live_server, "Meijin master", "master", "2023-03-18")
    page.fill("#reg-name", "Kid")
    page.fill("#reg-born", "2015-04-02")
    page.click("#reg-add")
    expect(page.locator("#director-error")).to_contain_text("40 or older on 2023-03-18",
                                                           timeout=WAIT)
    expect(page.locator("#reg-override-field")).to_be_visible()
    expect(page.locator("#director-entrants tbody tr")).to_have_count(0)
    page.screenshot(path=str(screenshots / "tournament-eligibility-refused.png"))
    page.fill("#reg-override", "invited by the organisers")
    page.click("#reg-add")
    expect(page.locator("#director-entrants tbody tr")).to_contain_text(["Kid"], timeout=WAIT)
    expect(page.locator("#reg-override-field")).to_be_hidden()
    page.click("#audit-load")
    expect(page.locator("#audit tbody tr").first.locator(".reason")).to_contain_text(
        "invited by the organisers", timeout=WAIT)


def test_a_loss_by_penalty_and_the_seat_on_the_pairing_sheet(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    page = new_page(lang="en")
    tournament_id = _create(page, live_server, "Penalty night", "swiss")
    for name in ("Aoki", "Baba", "Chiba", "Doi"):
        page.fill("#reg-name", name)
        page.click("#reg-add")
        expect(page.locator("#reg-name")).to_have_value("", timeout=WAIT)
    page.click("#pair-button")
    expect(page.locator("#round-heading")).to_contain_text("Round 1", timeout=WAIT)
    row = page.locator("#boards .board-row").first
    board = row.get_attribute("data-board")
    row.locator("[data-penalty]").click()
    form = row.locator("form.penalty-entry")
    loser = form.locator("select[name=loser] option").first.inner_text()
    form.locator("input[name=reason]").fill("advice from a spectator (rule 24)")
    form.locator("button[type=submit]").click()
    row = page.locator(f"#boards .board-row[data-board='{board}']")
    expect(row.locator(".tag.penalty")).to_have_text("loss by penalty 反則負け", timeout=WAIT)
    expect(row.locator(".penalty-reason")).to_have_text("advice from a spectator (rule 24)")
    no_sideways_scroll(page, "director's area, a penalty")
    page.screenshot(path=str(screenshots / "tournament-penalty.png"), full_page=True)

    public = new_page(lang="en")
    public.goto(f"{live_server}/tournaments/{tournament_id}/standings")
    penalised = public.locator("#standings tr", has_text=loser)
    expect(penalised.locator(".tag.penalty")).to_be_visible()

    public.goto(f"{live_server}/tournaments/{tournament_id}/print/pairings?round=1")
    expect(public.locator("#seat-rule")).to_contain_text("the player of Black chooses the seat")
    rows = public.locator("#print-pairings tbody tr")
    for i in range(rows.count()):
        black = rows.nth(i).locator("td").nth(1).inner_text().strip()
        expect(rows.nth(i).locator("td.seat")).to_have_text(black)


def test_the_last_move_is_claimed_from_the_clock_page_after_the_clock_stopped(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    page = new_page(width=1024, height=768, lang="en")
    response = page.request.post(f"{live_server}/api/record/games",
                                 data={"names": ["Ann", "Bob"], "clock_minutes": 10})
    assert response.status == 201, response.text()
    created = response.json()
    game_id, token = created["game"]["game"]["id"], created["seat_token"]
    keep_seat(page, live_server, game_id, token)
    headers = {"Authorization": f"Bearer {token}"}

    def post(path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = page.request.post(f"{live_server}/api/record/games/{game_id}{path}",
                                   data=body or {}, headers=headers)
        assert answer.ok, answer.text()
        data: dict[str, Any] = answer.json()
        return data

    moves = game_to_the_last_square()
    post("/press", {"colour": "white"})
    colour = "black"
    for name in moves[:-1]:
        post("/entries", {"square": name})
        post("/press", {"colour": colour})
        colour = "white" if colour == "black" else "black"
    post("/entries", {"square": moves[-1], "turned": []})  # nobody claims it at once
    view = post("/entries/keep")
    claimant = view["last_move_claimant"]
    assert view["game"]["phase"] == "over" and claimant is not None

    page.goto(f"{live_server}/record/{game_id}/clock")
    expect(page.locator("#illegal")).to_be_visible(timeout=WAIT)
    page.click("#illegal")
    expect(page.locator("#notice")).to_contain_text("last move illegal (rule 10)",
                                                    timeout=WAIT)
    expect(page.locator("#illegal")).to_be_hidden(timeout=WAIT)
    page.screenshot(path=str(screenshots / "clock-last-move-claimed.png"))
    after = page.request.get(f"{live_server}/api/record/games/{game_id}", headers=headers)
    assert after.json()["faults"][-1]["decision"] == "claimed"


def test_the_arbiter_takes_time_off_a_clock_on_the_clock_page(
        new_page: Callable[..., Any], live_server: str) -> None:
    expect = _expect()
    page = new_page(width=1024, height=768, lang="en")
    response = page.request.post(f"{live_server}/api/record/games",
                                 data={"names": ["Ann", "Bob"], "clock_minutes": 10})
    created = response.json()
    game_id = created["game"]["game"]["id"]
    keep_seat(page, live_server, game_id, created["seat_token"])
    page.goto(f"{live_server}/record/{game_id}/clock")
    expect(page.locator("#time-black")).to_have_text("10:00", timeout=WAIT)
    page.locator("#arbiter summary").click()
    page.select_option("#penalty-colour", "black")
    page.fill("#penalty-reason", "touched the board (rule 8)")
    page.fill("#penalty-minutes", "2")
    page.click("#penalty-time")
    expect(page.locator("#time-black")).to_have_text("8:00", timeout=WAIT)
    expect(page.locator("#penalties li")).to_contain_text("touched the board (rule 8)")
