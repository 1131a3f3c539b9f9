"""A rated game of Rolit in chromium (issue 67): an account creates it from the /multi form
(1280 px, English), another takes its seat through the join link on a 390 px phone in
Japanese, a signed-out browser is told to sign in first; the signed-in creator opens the
game on a browser of her own that has no token and gets her seat; at the end each page
shows every player's rating change, by the library's figures (openskill, here)."""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.checks import no_sideways_scroll
from tests.browser.test_multi_in_browser import _api, _game_id, _token

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
WAIT = 15_000


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def signed_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/library")
    r = page.request.post(f"{base}/api/accounts", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()


def test_a_rated_rolit_game_shows_each_players_rating_change(
        new_page: Callable[..., Any], live_server: str) -> None:
    from openskill.models import PlackettLuce

    from hasamigo.ratings import Pool, ranked
    from hasamigo.ratings.system import BETA, START_MU, START_SIGMA, TAU

    expect = _expect()
    tag = secrets.token_hex(3)
    ann = new_page()
    bob = new_page(width=390, height=844, lang="ja")
    signed_up(ann, live_server, f"ann_{tag}")
    signed_up(bob, live_server, f"bob_{tag}")

    ann.goto(f"{live_server}/multi")
    ann.locator("#seat-2-player").select_option("")
    ann.locator("#seat-3-player").select_option("")
    ann.locator("input[name=where][value=online]").check(force=True)
    ann.locator("#multi-rated").check()
    ann.locator("#multi-start").click()
    ann.wait_for_url(re.compile(r"/multi/[A-Za-z0-9_-]+$"), timeout=WAIT)
    game_id = _game_id(ann)
    link = ann.locator("#multi-link-list input").first
    expect(link).to_be_visible(timeout=WAIT)
    join_url = link.input_value()

    stranger = new_page()  # signed out: told to sign in, the link kept for later
    stranger.goto(join_url)
    expect(stranger.locator("#multi-error")).to_have_text(
        re.compile("signed in"), timeout=WAIT)
    assert "/join" in stranger.url

    bob.goto(join_url)
    bob.wait_for_url(re.compile(r"/multi/[A-Za-z0-9_-]+$"), timeout=WAIT)
    tokens = {}
    for page in (ann, bob):
        token = _token(page, game_id)
        view = _api(page, "GET", f"/api/multi/{game_id}", None, token)
        tokens[view["your_colours"][0]] = token
    assert len(tokens) == 2 and view["rated"]
    names = [s["name"] for s in view["seats"]]
    assert sorted(names) == sorted([f"ann_{tag}", f"bob_{tag}"])

    # ann on a second browser, signed in but without the token: the page takes her seat
    desk = new_page()
    r = desk.request.post(f"{live_server}/api/accounts/login",
                          data={"name": f"ann_{tag}", "password": PASSWORD})
    assert r.status == 200, r.text()
    desk.goto(f"{live_server}/multi/{game_id}")
    expect(desk.locator("#multi-seats")).to_contain_text(f"ann_{tag}", timeout=WAIT)
    desk.wait_for_function(f"() => localStorage.getItem('hasamigo:multi:{game_id}')",
                           timeout=WAIT)
    mine = _api(desk, "GET", f"/api/multi/{game_id}", None, _token(desk, game_id))
    assert mine["your_colours"] == _api(ann, "GET", f"/api/multi/{game_id}", None,
                                        _token(ann, game_id))["your_colours"]

    rng = random.Random(5)
    while not view["over"]:
        view = _api(ann, "POST", f"/api/multi/{game_id}/moves",
                    {"move": rng.choice(view["legal"])}, tokens[view["turn"]])

    subjects = [c["subject"] for c in _api(ann, "GET", f"/api/multi/{game_id}/rating")[
        "changes"]]
    placings = ranked(Pool.ROLIT, subjects, [s["discs"] for s in view["seats"]])
    model = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=TAU)
    after = [round(team[0].mu) for team in model.rate(
        [[model.rating()] for _ in subjects], ranks=[float(r) for r in placings.ranks])]

    def delta(n: int) -> str:
        return f"+{n - 1500}" if n > 1500 else str(n - 1500)

    english = " · ".join(
        f"{name} ({seat['colour']}): Rating 1500 → {a} ({delta(a)})"
        for name, seat, a in zip(names, view["seats"], after, strict=True))
    expect(ann.locator("#multi-rating")).to_have_text(english, timeout=WAIT)
    for a in after:
        expect(bob.locator("#multi-rating")).to_contain_text(
            f"レーティング 1500 → {a}（{delta(a)}）", timeout=WAIT)
    no_sideways_scroll(bob, "a rated Rolit game's end at 390 px, in Japanese")
