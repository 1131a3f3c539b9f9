"""What a person meets first, in chromium at phone (390 px) and desktop (1280 px) width:
the site's own 404 page (in their language, with the site's layout and a way home) while
the API keeps its JSON; a game on one screen listed and headed with its winner, not as a
loss; the library's filter in one case style; the home page's way to the studies; the
study pages (no subjects yet, a singular count, the phone layout of the other pages); the
clock's answer to an illegal-move claim; a replay without a review that asks for none.
A screenshot of each, in ``test-output/screenshots/first-contact-*.png``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_emoji_symbols, no_sideways_scroll
from tests.browser.seats import auth, create_game, keep_seat, play

pytestmark = pytest.mark.browser

WIDTHS = [390, 1280]
WAIT = 10_000  # ms: a page's script reads its state, a press reaches the server


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _shot(page: Any, screenshots: Path, name: str, width: int) -> None:
    page.screenshot(path=str(screenshots / f"first-contact-{name}-{width}.png"),
                    full_page=True)


def _watch(page: Any) -> list[str]:
    """The page's failed requests (4xx, 5xx) and console errors, as they come."""
    seen: list[str] = []
    page.on("response", lambda r: seen.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    page.on("console", lambda m: seen.append(f"console: {m.text}") if m.type == "error"
            else None)
    return seen


# ---- the 404 page ---------------------------------------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
def test_an_unknown_page_is_the_sites_own_404_page_with_a_way_home(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, width: int) -> None:
    expect = _expect()
    page = new_page(width=width)
    for path, heading in (("/foo", "Page not found"), ("/games/nope", "Game not found"),
                          ("/studies/nope", "Page not found"),
                          ("/tournaments/nope", "No such tournament")):
        response = page.goto(live_server + path)
        assert response is not None and response.status == 404, path
        assert response.headers["content-type"].startswith("text/html")
        expect(page.locator("#error-heading")).to_have_text(heading)
        assert page.locator(".topbar .brand").is_visible()  # the site's header …
        radius = page.locator("#error-page").evaluate("e => getComputedStyle(e).borderRadius")
        assert radius == "14px"  # … and its stylesheet
        no_sideways_scroll(page, f"{path} at {width} px")
        no_emoji_symbols(page, path)
    _shot(page, screenshots, "404", width)
    # the API keeps its JSON error, asked from the same browser
    answer = page.evaluate("""async () => {
        const r = await fetch('/api/nowhere');
        return [r.status, r.headers.get('content-type'), await r.json()];
    }""")
    assert answer[0] == 404 and answer[1].startswith("application/json")
    assert answer[2]["error"]["code"] == "not_found"
    # a way home
    page.goto(live_server + "/foo")
    page.click("#error-home")
    page.wait_for_url(live_server + "/")
    expect(page.locator("#start-game")).to_be_visible()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_404_page_speaks_japanese_to_a_japanese_reader(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, width: int) -> None:
    expect = _expect()
    page = new_page(width=width, lang="ja")
    response = page.goto(live_server + "/foo")
    assert response is not None and response.status == 404
    expect(page.locator("#error-heading")).to_have_text("ページが見つかりません")
    expect(page.locator("#error-home")).to_have_text("ホームへ")
    assert page.evaluate("document.documentElement.lang") == "ja"
    no_sideways_scroll(page, f"the Japanese 404 page at {width} px")
    _shot(page, screenshots, "404-ja", width)
    response = page.goto(live_server + "/puzzles?n=0")  # a bad page parameter: a page too
    assert response is not None and response.status == 422
    expect(page.locator("#error-heading")).to_have_text("このページは表示できません")


# ---- a game on one screen -------------------------------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
def test_a_game_on_one_screen_is_nobodys_loss(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, width: int) -> None:
    expect = _expect()
    page = new_page(width=width)
    page.goto(live_server + "/library")
    game = create_game(page, live_server, opponent="person")  # both seats here
    play(page, live_server, game["id"], "f5")
    resigned = page.request.post(f"{live_server}/api/games/{game['id']}/resign",
                                 data={"colour": "black"}, headers=auth(page, game["id"]))
    assert resigned.ok, resigned.text()
    page.goto(f"{live_server}/games/{game['id']}")
    expect(page.locator("#result-word")).to_have_text("White wins", timeout=WAIT)
    _shot(page, screenshots, "one-screen-result", width)
    page.goto(live_server + "/library")
    outcome = page.locator(f"tr[data-game-id='{game['id']}'] td.outcome")
    expect(outcome).to_contain_text("White won")
    expect(outcome).not_to_contain_text("Lost")
    expect(outcome.locator(".tag.lost")).to_have_count(0)
    no_sideways_scroll(page, f"the library at {width} px")
    _shot(page, screenshots, "library", width)
    # in Japanese, the winner's colour without a stray space
    page.goto(f"{live_server}/games/{game['id']}?lang=ja")
    expect(page.locator("#result-word")).to_have_text("白の勝ち", timeout=WAIT)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_person_against_a_program_reads_you_lose_in_words(
        new_page: Callable[..., Any], live_server: str, width: int) -> None:
    expect = _expect()
    page = new_page(width=width)
    page.goto(live_server + "/library")
    game = create_game(page, live_server, opponent="random", colour="black")
    play(page, live_server, game["id"], "f5", wait=True)
    resigned = page.request.post(f"{live_server}/api/games/{game['id']}/resign", data={},
                                 headers=auth(page, game["id"]))
    assert resigned.ok, resigned.text()
    page.goto(f"{live_server}/games/{game['id']}")
    expect(page.locator("#result-word")).to_have_text("You lose", timeout=WAIT)
    page.goto(live_server + "/library")
    expect(page.locator(f"tr[data-game-id='{game['id']}'] .tag.lost")).to_have_text("Lost")


def test_the_library_filter_reads_in_one_case_style(new_page: Callable[..., Any],
                                                    live_server: str) -> None:
    page = new_page(width=390)
    page.goto(live_server + "/library")
    words = [w.strip() for w in page.locator(
        "#library-filters option, #library-filters .field > span").all_text_contents()]
    assert "In progress" in words
    assert all(w[:1].isupper() for w in words if w[:1].isalpha()), words


# ---- the way to the studies, and the study pages ---------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
def test_the_home_page_leads_to_the_studies(new_page: Callable[..., Any], live_server: str,
                                            width: int) -> None:
    page = new_page(width=width)
    page.goto(live_server + "/")
    link = page.locator("a[href='/studies']")
    assert link.is_visible()
    link.click()
    page.wait_for_url(live_server + "/studies")
    assert page.locator("#new-study").is_visible()


def _study(page: Any, base: str, name: str) -> tuple[str, str]:
    made = page.request.post(f"{base}/api/studies",
                             data={"name": name, "password": "research-pw"})
    assert made.status == 201, made.text()
    body = made.json()
    return body["study"]["id"], body["session"]["token"]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_study_without_subjects_says_so_and_one_subject_is_singular(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, width: int) -> None:
    expect = _expect()
    page = new_page(width=width)
    page.goto(live_server + "/studies")
    study, token = _study(page, live_server, f"Empty {width}")
    page.evaluate("([k, v]) => sessionStorage.setItem(k, v)", [f"study-token:{study}", token])
    page.goto(f"{live_server}/studies/{study}/research")
    expect(page.locator("#no-subjects")).to_be_visible(timeout=WAIT)
    expect(page.locator("#no-subjects")).to_contain_text("No subjects yet")
    expect(page.locator("#report-note")).to_contain_text("No subjects yet")
    assert page.locator("#report").is_hidden()  # no blank frame
    assert page.locator("#progress-table").is_hidden()
    no_sideways_scroll(page, f"an empty study at {width} px")
    _shot(page, screenshots, "study-empty", width)
    joined = page.request.post(f"{live_server}/api/studies/{study}/subjects", data={})
    assert joined.status == 201, joined.text()
    page.reload()
    expect(page.locator("#progress tr")).to_have_count(1, timeout=WAIT)
    frame = page.frame_locator("#report")
    expect(frame.locator("p.meta", has_text=" games, ").first).to_contain_text(
        "1 subject, 0 games, 0 answers", timeout=60_000)  # the first report imports matplotlib
    assert page.locator("#report-note").is_hidden()
    no_sideways_scroll(page, f"a study with one subject at {width} px")
    _shot(page, screenshots, "study-one", width)


def _card(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] | None = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def test_the_study_pages_at_phone_width_match_the_other_pages(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    page = new_page(width=390, height=844)
    page.goto(live_server + "/record")  # a page of forms, as the study's are
    other = _card(page, ".card")
    page.goto(live_server + "/tournaments")
    field_font = page.locator(".t-field input").first.evaluate(
        "e => getComputedStyle(e).fontSize")
    page.goto(live_server + "/studies")
    for selector in ("#new-study", "#login-study"):  # the page's width, not their text's
        card = _card(page, selector)
        assert abs(card["x"] - other["x"]) <= 1 and abs(card["width"] - other["width"]) <= 1
    for field in ("#study-name", "#login-id", "#login-password"):
        assert page.locator(field).evaluate("e => getComputedStyle(e).fontSize") == field_font
        assert _card(page, field)["width"] > 0.8 * other["width"]
    no_sideways_scroll(page, "/studies at 390 px")
    _shot(page, screenshots, "studies", 390)
    study, _token = _study(page, live_server, "Phone")
    page.goto(f"{live_server}/studies/{study}")
    card = _card(page, "#study-entry")
    assert abs(card["x"] - other["x"]) <= 1 and abs(card["width"] - other["width"]) <= 1
    assert page.locator("#resume-code").evaluate(
        "e => getComputedStyle(e).fontSize") == field_font
    no_sideways_scroll(page, "a study's entry at 390 px")
    _shot(page, screenshots, "study-entry", 390)
    # the subject's game: discs drawn as on the game pages, no emoji-font symbols
    page.click("#start")
    page.wait_for_selector("[data-step=consent]:not([hidden])")
    page.click("#consent")
    page.wait_for_selector("#before:not([hidden])")
    page.check("input[name=strength][value='3']")
    page.locator("#before button[type=submit]").click()
    page.click("#start-game")
    page.wait_for_selector("#play:not([hidden]) .study-cell")
    assert page.locator("#counts .disc-icon").count() == 2
    no_emoji_symbols(page, "the subject's game")
    no_sideways_scroll(page, "the subject's game at 390 px")
    _shot(page, screenshots, "study-game", 390)


# ---- the clock -------------------------------------------------------------------------------
@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_an_illegal_move_claim_on_the_clock_says_what_it_did(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, width: int,
        height: int) -> None:
    expect = _expect()
    page = new_page(width=width, height=height)
    page.goto(live_server + "/library")
    made = page.request.post(f"{live_server}/api/record/games", data={"names": ["Ann", "Bob"]})
    assert made.status == 201, made.text()
    game_id = made.json()["game"]["game"]["id"]
    keep_seat(page, live_server, game_id, made.json()["seat_token"])
    page.goto(f"{live_server}/record/{game_id}/clock")
    expect(page.locator("#half-white.starter")).to_be_visible(timeout=WAIT)
    page.keyboard.press("Space")  # White starts: Black (Ann) moves
    expect(page.locator("#half-black.running")).to_be_visible(timeout=WAIT)
    page.locator("#half-black").click()  # Ann pressed: Bob's clock runs
    expect(page.locator("#half-white.running")).to_be_visible(timeout=WAIT)
    assert page.locator("#notice").is_hidden()
    page.click("#illegal")  # Bob claims Ann's move was illegal
    notice = page.locator("#notice")
    expect(notice).to_be_visible(timeout=WAIT)
    expect(notice).to_have_text("Bob claimed an illegal move: Ann's clock runs again. Ann "
                                "puts the move right, then presses.")
    expect(page.locator("#half-black.running")).to_be_visible()
    no_sideways_scroll(page, f"the clock at {width} px")
    _shot(page, screenshots, "clock-illegal", width)
    page.locator("#half-black").click()  # the move put right, Ann presses: the notice goes
    expect(notice).to_be_hidden(timeout=WAIT)


# ---- the replay of a game not reviewed -------------------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
def test_the_replay_of_an_unreviewed_game_asks_for_no_review(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, width: int) -> None:
    expect = _expect()
    page = new_page(width=width)
    page.goto(live_server + "/library")
    game = create_game(page, live_server, opponent="random", colour="black",
                       clock_minutes=None)
    play(page, live_server, game["id"], "f5", wait=True)
    resigned = page.request.post(f"{live_server}/api/games/{game['id']}/resign", data={},
                                 headers=auth(page, game["id"]))
    assert resigned.ok, resigned.text()
    seen = _watch(page)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/review") else None)
    page.goto(f"{live_server}/games/{game['id']}/replay")
    expect(page.locator("#review-button")).to_be_visible(timeout=WAIT)
    page.wait_for_load_state("networkidle")
    assert seen == [] and asked == []
    _shot(page, screenshots, "replay-unreviewed", width)
    # once reviewed, the page reads the review (and finds it)
    started = page.request.post(f"{live_server}/api/games/{game['id']}/review",
                                headers=auth(page, game["id"]))
    assert started.status in (200, 202), started.text()
    page.reload()
    page.wait_for_selector("#review-card[data-status]", timeout=120_000)
    assert seen == [] and any(url.endswith("/review") for url in asked)
