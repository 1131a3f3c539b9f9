"""A subject takes the whole study in chromium (consent, the before questionnaire, two
games to the end answering the in-game questions, and the after questionnaire), then the
researcher sees the progress and the report's per-move graph: the paper's protocol on a
phone (390 px: the questions after each of the subject's moves, the paper's five after
items), the extended one on a desktop (1280 px: after each program move, how each game
felt). A screenshot of every step."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_sideways_scroll

pytestmark = pytest.mark.browser


def _shot(page: Any, screenshots: Path, width: int, step: str) -> None:
    page.screenshot(path=str(screenshots / f"study-{width}-{step}.png"), full_page=True)


def _play(page: Any, screenshots: Path, width: int, index: int) -> None:
    """Play the game on the page to its end, answering every question."""
    shot_question = False
    for _ in range(400):
        try:
            page.wait_for_function(
                "() => document.querySelector('[data-step=game]').hidden || "
                "!document.getElementById('questions').hidden || "
                "!document.getElementById('start-row').hidden || "
                "document.querySelector('.study-cell.legal')", timeout=30_000)
        except Exception:
            pytest.fail("stuck: " + page.locator("#subject").inner_text()[:800])
        if not page.locator("[data-step=game]").is_visible() \
                or page.locator("#start-row").is_visible():
            return  # the game is over: how it felt, the next game, or the after questions
        if page.locator("#questions").is_visible():
            if not shot_question and index == 1:
                _shot(page, screenshots, width, "3-question")
                no_sideways_scroll(page, "the question bar")
                shot_question = True
            for question in ("can_win", "move_felt"):
                row = page.locator(f".study-q[data-question={question}]")
                # at Black's first move (the paper's timing) only can_win is asked
                if row.is_visible() and not row.locator("button.chosen").count():
                    with page.expect_response(lambda r: "/answers" in r.url):
                        row.locator("button").nth(1).click()
                    page.wait_for_timeout(30)  # the answer's state is drawn
            continue
        cells = page.locator(".study-cell.legal")
        if cells.count():
            try:  # the board is redrawn when the state changes: look again then
                cells.first.click(timeout=2_000)
            except Exception:
                continue
        page.wait_for_timeout(50)
    pytest.fail("the game did not end: " + page.locator("#subject").inner_text()[:500])


@pytest.mark.parametrize(("width", "protocol"), [(390, "paper"), (1280, "extended")])
def test_a_subject_completes_the_study(new_page: Callable[..., Any], live_server: str,
                                       screenshots: Path, width: int, protocol: str) -> None:
    researcher = new_page(width=width, lang="en")
    researcher.goto(f"{live_server}/studies")
    researcher.fill("#study-name", f"Pilot {width}")
    researcher.fill("#study-password", "research-pw")
    researcher.select_option("#study-protocol", protocol)
    researcher.locator("#new-study button[type=submit]").click()
    researcher.wait_for_url("**/research")
    study = researcher.url.rstrip("/").split("/")[-2]

    page = new_page(width=width, lang="en")
    page.goto(f"{live_server}/studies/{study}")
    _shot(page, screenshots, width, "0-entry")
    page.click("#start")
    page.wait_for_selector("[data-step=consent]:not([hidden])")
    code = page.locator("#code").inner_text()
    _shot(page, screenshots, width, "1-consent")
    page.click("#consent")
    page.wait_for_selector("#before:not([hidden])")
    page.check("input[name=strength][value='2']")
    if protocol == "extended":
        page.check("input[name=play_frequency][value=rarely]")
        page.check("input[name=strategies][value=corners]")
    else:  # the paper asks the strength alone
        assert page.locator("input[name=play_frequency]").count() == 0
    _shot(page, screenshots, width, "2-before")
    page.locator("#before button[type=submit]").click()
    for index in (1, 2):
        page.wait_for_selector("#start-game:visible")
        page.click("#start-game")
        page.wait_for_selector("#play:not([hidden])")
        if index == 1:  # the subject closes the tab and comes back with the code
            page.goto(f"{live_server}/studies/{study}")
            page.fill("#resume-code", code)
            page.locator("#resume button[type=submit]").click()
            page.wait_for_selector("#play:not([hidden])")
        _play(page, screenshots, width, index)
        if protocol == "extended":
            page.wait_for_selector("#felt:not([hidden])")
            assert page.locator("#result").inner_text().split()[0] in ("WIN", "LOSE", "DRAW")
            _shot(page, screenshots, width, f"4-result-{index}")
            page.check("input[name=felt][value='4']")
            page.locator("#felt button[type=submit]").click()
        else:  # no question after a game: its result shows until the next step
            page.wait_for_selector("#last-result:not([hidden])")
            assert page.locator("#last-result").inner_text().split()[2] in (
                "WIN", "LOSE", "DRAW")
            _shot(page, screenshots, width, f"4-result-{index}")
    page.wait_for_selector("#after:not([hidden])")
    if protocol == "paper":  # each game's result as the subject saw it, the strategies
        for index in (1, 2):
            page.locator(f"input[name=reported_outcome-{index}]").first.check()
        page.fill("#q-strategies_text", "corners")
    page.locator("input[name=more-fun]").first.check()
    page.fill("#q-more_fun_why", "it gave me a corner")
    _shot(page, screenshots, width, "5-after")
    page.locator("#after button[type=submit]").click()
    page.wait_for_selector("[data-step=done]:not([hidden])")
    _shot(page, screenshots, width, "6-done")

    researcher.goto(f"{live_server}/studies/{study}/research")
    researcher.wait_for_selector(f"#progress td:has-text('{code}')")
    assert "done" in researcher.locator("#progress").inner_text()
    # the treatment fidelity of the finished games, under the window and whose reading it is
    researcher.wait_for_selector("#fidelity-card:not([hidden]) #fidelity tr")
    assert researcher.locator("#fidelity tr").count() == 2  # one row per program
    assert "moves 30–35" in researcher.locator("#fidelity-window").inner_text()
    frame = researcher.frame_locator("#report")
    frame.locator("svg").first.wait_for(timeout=30_000)
    report = frame.locator("body").inner_text()
    assert "S01" in report and code not in report  # a pseudonym, never the login code
    no_sideways_scroll(researcher, "the researcher's area")
    _shot(researcher, screenshots, width, "7-research")
