"""The lobby in chromium (issue 67): two accounts sign up in two browsers (a desk in
English at 1280 px, a phone in Japanese at 390 px); one posts a rated challenge from the
lobby page, the other accepts it, and both land on the game page holding their seats;
they play a game to its end by clicking the board (the shortest Othello game: nine
moves, a wipe-out); a third browser watches it live from the lobby's list; both ratings
then change by the rating library's own figures (computed here by openskill, not
written down)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_sideways_scroll
from tests.browser.seats import token_of

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
WAIT = 15_000  # ms: the lobby page polls every 4 s
#: the shortest game of Othello: Black wipes White out in nine moves (13–0)
WIPE_OUT = ("d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4")


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def expected_after_one_win() -> tuple[int, int]:
    """The displayed ratings of a winner and a loser, both new, after one game: the
    library's Plackett-Luce on the 1500 scale (μ 1500, σ 400, β 200, τ 4, as
    docs/ratings.md states it)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=1500, sigma=400, beta=200, tau=4)
    winner, loser = model.rating(), model.rating()
    [won], [lost] = model.rate([[winner], [loser]], ranks=[0, 1])
    return round(won.mu), round(lost.mu)


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/signup?next=/lobby")
    page.fill("#acct-name", name)
    page.fill("#acct-password", PASSWORD)
    page.click("#acct-submit")
    page.wait_for_url(f"{base}/lobby", timeout=WAIT)
    page.wait_for_selector("#lobby[data-ready='1']", timeout=WAIT)


def moves_shown(page: Any, count: int) -> None:
    _expect()(page.locator("#moves li")).to_have_count(count, timeout=WAIT)


def test_a_rated_challenge_posted_accepted_played_and_watched(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    expect = _expect()
    tag = secrets.token_hex(3)
    ann_name, bob_name = f"ann_{tag}", f"bob_{tag}"
    ann = new_page()
    bob = new_page(width=390, height=844, lang="ja")
    watcher = new_page()

    sign_up(ann, live_server, ann_name)
    sign_up(bob, live_server, bob_name)
    expect(bob.locator("h1")).to_have_text("ロビー")
    expect(ann.locator("#lobby-rating")).to_have_text(re.compile(r"^1500\??$"))
    no_sideways_scroll(bob, "the lobby at 390 px, in Japanese")

    # ann posts a rated challenge: 8×8, 20 minutes a side, she plays Black
    ann.click("#lobby-post-panel summary")
    ann.select_option("#post-colour", "black")
    ann.check("#post-rated")
    ann.click("#post-submit")
    mine = ann.locator("#lobby-challenges .lobby-item").filter(has_text=ann_name)
    expect(mine.locator(".lobby-cancel")).to_be_visible(timeout=WAIT)
    ann.screenshot(path=str(screenshots / "lobby-1280.png"), full_page=True)
    no_sideways_scroll(ann, "the lobby at 1280 px")

    # bob sees it (in Japanese) and accepts: he lands on the game with his seat
    offer = bob.locator("#lobby-challenges .lobby-item").filter(has_text=ann_name)
    expect(offer).to_contain_text("レーティング対局", timeout=WAIT)
    bob.screenshot(path=str(screenshots / "lobby-390-ja.png"), full_page=True)
    offer.locator(".lobby-accept").click()
    bob.wait_for_url(re.compile(r"/games/[0-9a-f]+$"), timeout=WAIT)
    game_id = bob.url.rsplit("/", 1)[1]
    # ann's lobby page follows her challenge to its game
    ann.wait_for_url(f"{live_server}/games/{game_id}", timeout=WAIT)
    ann.wait_for_function(
        "id => !!localStorage.getItem('hasamigo:seat:' + id)", arg=game_id, timeout=WAIT)
    bob.wait_for_function(
        "id => !!localStorage.getItem('hasamigo:seat:' + id)", arg=game_id, timeout=WAIT)
    assert token_of(ann, game_id) != token_of(bob, game_id)

    # a third browser, signed in to nobody, finds the game among those to watch
    watcher.goto(f"{live_server}/lobby")
    live = watcher.locator("#lobby-live .lobby-item").filter(has_text=ann_name)
    expect(live).to_contain_text(bob_name, timeout=WAIT)
    live.locator(".lobby-watch").click()
    watcher.wait_for_url(f"{live_server}/games/{game_id}", timeout=WAIT)
    assert token_of(watcher, game_id) is None
    expect(watcher.locator(".square.legal")).to_have_count(0)

    # the game, clicked on the board: Black (ann) wipes White (bob) out
    for ply, square in enumerate(WIPE_OUT):
        mover = ann if ply % 2 == 0 else bob
        mover.wait_for_selector(f".square.legal[data-square={square}]", timeout=WAIT)
        mover.locator(f".square.legal[data-square={square}]").click()
        moves_shown(watcher, ply + 1)  # the watcher sees each move as it is played
    for page in (ann, bob, watcher):
        moves_shown(page, len(WIPE_OUT))
    expect(ann.locator("body")).to_contain_text("You win", timeout=WAIT)

    # both ratings changed by the library's figures
    won, lost = expected_after_one_win()
    assert won > 1500 > lost
    for page, figure in ((ann, won), (bob, lost)):
        page.goto(f"{live_server}/lobby")
        expect(page.locator("#lobby-rating")).to_have_text(
            re.compile(rf"^{figure}\??$"), timeout=WAIT)
        you = page.request.get(f"{live_server}/api/lobby").json()["you"]
        assert you["rating"] == figure and you["games"] == []
    # the finished game is no longer among those to watch
    watcher.goto(f"{live_server}/lobby")
    watcher.wait_for_selector("#lobby[data-ready='1']", timeout=WAIT)
    expect(watcher.locator("#lobby-live .lobby-item").filter(has_text=ann_name)) \
        .to_have_count(0)


def test_hostile_names_in_the_games_to_watch_are_text(
        new_page: Callable[..., Any], live_server: str) -> None:
    """A public game between two browsers whose players named themselves with markup is
    listed with those names as text: no element made, no script run."""
    expect = _expect()
    host, guest, watcher = new_page(), new_page(), new_page(width=390, height=844)
    hostile = "<img src=x onerror=window.__owned=1>"
    host.goto(f"{live_server}/library")
    created = host.request.post(f"{live_server}/api/games", data={
        "opponent": "person", "same_screen": False, "public": True,
        "names": [hostile, "<b>bold</b>"]})
    assert created.status == 201, created.text()
    game = created.json()
    code = game["join_url"].rsplit("code=", 1)[1]
    joined = guest.request.post(f"{live_server}/api/games/{game['id']}/join",
                                data={"code": code})
    assert joined.ok, joined.text()
    watcher.goto(f"{live_server}/lobby")
    item = watcher.locator("#lobby-live .lobby-item").filter(has_text=hostile)
    expect(item).to_contain_text("<b>bold</b>", timeout=WAIT)
    assert item.locator("img, b").count() == 0
    assert watcher.evaluate("() => window.__owned") is None
    no_sideways_scroll(watcher, "the games to watch at 390 px")


def test_two_players_waiting_are_paired_into_one_game(
        new_page: Callable[..., Any], live_server: str) -> None:
    """"Play someone near my rating", pressed in two browsers: both land on one rated
    game, each holding a seat of its own colour."""
    expect = _expect()
    tag = secrets.token_hex(3)
    one, two = new_page(), new_page(width=390, height=844, lang="ja")
    sign_up(one, live_server, f"wait1_{tag}")
    sign_up(two, live_server, f"wait2_{tag}")
    one.click("#lobby-wait")
    expect(one.locator("#lobby-stop")).to_be_visible()
    expect(one.locator("#lobby-waiting")).to_contain_text("±100", timeout=WAIT)
    two.click("#lobby-wait")
    for page in (one, two):
        page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"), timeout=WAIT)
    game_id = one.url.rsplit("/", 1)[1]
    assert two.url.endswith(f"/games/{game_id}")
    for page in (one, two):
        page.wait_for_function(
            "id => !!localStorage.getItem('hasamigo:seat:' + id)", arg=game_id,
            timeout=WAIT)
    colours = []
    for page in (one, two):
        state = page.request.get(
            f"{live_server}/api/games/{game_id}",
            headers={"Authorization": f"Bearer {token_of(page, game_id)}"}).json()
        assert state["rated"] and state["clock"] is not None
        colours += state["your_colours"]
    assert sorted(colours) == ["black", "white"]
