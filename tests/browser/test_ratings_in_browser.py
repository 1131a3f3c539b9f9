"""A rated game's result in chromium (issue 67): two accounts (a desk in English at 1280
px, a phone in Japanese at 390 px) finish a rated game, and each game page shows the
player's own rating before and after, by the rating library's figures (computed here by
openskill); a game that is not rated says why, in the page's language."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.checks import no_sideways_scroll
from tests.browser.seats import keep_seat

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
WAIT = 15_000
#: the shortest game of Othello: Black wipes White out in nine moves
WIPE_OUT = ("d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4")


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def signed_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/library")
    r = page.request.post(f"{base}/api/accounts", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()


def rated_game(black: Any, white: Any, base: str, *, rated_white: bool = True
               ) -> tuple[str, str, str]:
    """A rated game: Black's page created it, White's joined (signed in or not)."""
    r = black.request.post(f"{base}/api/games", data={
        "opponent": "person", "same_screen": False, "rated": True, "colour": "black",
        "clock_minutes": 20})
    assert r.status == 201, r.text()
    game = r.json()
    code = game["join_url"].split("code=")[1]
    r = white.request.post(f"{base}/api/games/{game['id']}/join", data={"code": code})
    assert r.status == 200, r.text()
    return game["id"], game["seat_token"], r.json()["seat_token"]


def play(page: Any, base: str, game_id: str, token: str, square: str) -> None:
    r = page.request.post(f"{base}/api/games/{game_id}/moves?wait=true",
                          data={"move": square}, headers={"Authorization": f"Bearer {token}"})
    assert r.status == 200, r.text()


def test_the_game_page_shows_each_players_rating_change(
        new_page: Callable[..., Any], live_server: str) -> None:
    from openskill.models import PlackettLuce

    expect = _expect()
    tag = secrets.token_hex(3)
    ann = new_page()
    bob = new_page(width=390, height=844, lang="ja")
    signed_up(ann, live_server, f"ann_{tag}")
    signed_up(bob, live_server, f"bob_{tag}")
    game_id, black, white = rated_game(ann, bob, live_server)
    for ply, square in enumerate(WIPE_OUT):
        page, token = (ann, black) if ply % 2 == 0 else (bob, white)
        play(page, live_server, game_id, token, square)

    model = PlackettLuce(mu=1500, sigma=400, beta=200, tau=4)
    [[won], [lost]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    won_by, lost_by = round(won.mu) - 1500, round(lost.mu) - 1500
    keep_seat(ann, live_server, game_id, black)
    keep_seat(bob, live_server, game_id, white)
    ann.goto(f"{live_server}/games/{game_id}")
    expect(ann.locator("#result-rating")).to_have_text(
        f"Rating 1500 → {round(won.mu)} (+{won_by})", timeout=WAIT)
    bob.goto(f"{live_server}/games/{game_id}")
    expect(bob.locator("#result-rating")).to_have_text(
        f"レーティング 1500 → {round(lost.mu)}（{lost_by}）", timeout=WAIT)
    no_sideways_scroll(bob, "a rated game's result at 390 px, in Japanese")


def test_an_unrated_result_says_why(new_page: Callable[..., Any], live_server: str) -> None:
    expect = _expect()
    ann = new_page(lang="ja")
    anonymous = new_page()
    signed_up(ann, live_server, f"cat_{secrets.token_hex(3)}")
    game_id, black, white = rated_game(ann, anonymous, live_server)
    play(ann, live_server, game_id, black, "f5")
    play(anonymous, live_server, game_id, white, "d6")
    r = ann.request.post(f"{live_server}/api/games/{game_id}/resign", data={"colour": "black"},
                         headers={"Authorization": f"Bearer {black}"})
    assert r.status == 200, r.text()
    keep_seat(ann, live_server, game_id, black)
    ann.goto(f"{live_server}/games/{game_id}")
    expect(ann.locator("#result-rating")).to_have_text(
        re.compile(r"^レーティング対象外：.*アカウント"), timeout=WAIT)
