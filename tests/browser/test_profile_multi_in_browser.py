"""A profile's Rolit games in chromium (issue 67): two accounts play a rated game of Rolit
to its end; the other player reads the winner's profile on a 390 px phone in Japanese (the
pool's rating with its '?', the chart, the game with both seats' discs and places, whose
link opens the game), the player her own at 1280 px in English. Then a player deletes
their account in the middle of a game of three: the others' game page says the seat was
left, and a program plays its turns so that they can finish."""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.checks import no_sideways_scroll
from tests.browser.test_multi_in_browser import _api
from tests.browser.test_multi_ratings_in_browser import PASSWORD, signed_up

pytestmark = pytest.mark.browser

WAIT = 15_000


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def rated_rolit(creator: Any, others: list[Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """A rated online Rolit game made by ``creator``, each other seat taken by the next
    of ``others`` through its join link: the game and each colour's token."""
    created = _api(creator, "POST", "/api/multi", {
        "game": "rolit", "online": True, "rated": True, "seats": [{}] * (len(others) + 1)})
    tokens = {created["your_colours"][0]: created["seat_token"]}
    for (colour, url), page in zip(created["join_urls"].items(), others, strict=True):
        joined = _api(page, "POST", f"/api/multi/{created['id']}/join",
                      {"code": url.split("code=")[1]})
        tokens[colour] = joined["seat_token"]
    return created, tokens


def test_the_profile_shows_a_rated_rolit_game(new_page: Callable[..., Any],
                                              live_server: str) -> None:
    expect = _expect()
    tag = secrets.token_hex(3)
    ann = new_page()
    bob = new_page(width=390, height=844, lang="ja")
    signed_up(ann, live_server, f"ann_{tag}")
    signed_up(bob, live_server, f"bob_{tag}")
    created, tokens = rated_rolit(ann, [bob])
    game_id = created["id"]
    rng = random.Random(3)
    view = _api(ann, "GET", f"/api/multi/{game_id}")
    while not view["over"]:
        view = _api(ann, "POST", f"/api/multi/{game_id}/moves",
                    {"move": rng.choice(view["legal"])}, tokens[view["turn"]])
    changes = {c["name"]: c for c in _api(ann, "GET", f"/api/multi/{game_id}/rating")[
        "changes"]}
    places = {s["name"]: s["rank"] for s in view["standings"]}
    discs = {s["name"]: s["discs"] for s in view["seats"]}

    # bob, on a phone in Japanese, reads ann's profile
    bob.goto(f"{live_server}/players/ann_{tag}")
    after = changes[f"ann_{tag}"]["after"]
    expect(bob.locator("#rating-rolit .acct-rating")).to_have_text(f"{after}?")
    expect(bob.locator("#rating-rolit polyline")).to_have_count(1)
    expect(bob.locator("#rating-provisional")).to_contain_text("暫定")
    row = bob.locator(f"#multi-games tr[data-game='{game_id}']")
    expect(row).to_contain_text("ローリット")
    expect(row.locator(".acct-place")).to_have_text(f"2人中{places[f'ann_{tag}']}位")
    for name in (f"ann_{tag}", f"bob_{tag}"):
        seat = row.locator("li", has_text=name)
        expect(seat).to_contain_text(str(discs[name]))
        expect(seat.locator(".acct-seat-place")).to_have_text(f"{places[name]}位")
    expect(row.locator("li.acct-me")).to_contain_text(f"ann_{tag}")
    no_sideways_scroll(bob, "a profile with a Rolit game at 390 px, in Japanese")
    row.locator("a").click()
    bob.wait_for_url(re.compile(rf"/multi/{game_id}$"), timeout=WAIT)
    expect(bob.locator("#multi-seats")).to_contain_text(f"ann_{tag}", timeout=WAIT)

    # ann, at her desk in English, reads her own
    ann.goto(f"{live_server}/players/ann_{tag}")
    expect(ann.locator("#multi-games h2")).to_have_text("Rolit and 4-player Othello")
    expect(ann.locator(f"#multi-games tr[data-game='{game_id}'] .acct-place")).to_have_text(
        f"{places[f'ann_{tag}']} of 2")
    expect(ann.locator("#rating-provisional")).to_contain_text("? provisional")
    no_sideways_scroll(ann, "a profile with a Rolit game at 1280 px")


def test_a_seat_left_by_a_deleted_account_is_played_for_the_others(
        new_page: Callable[..., Any], live_server: str) -> None:
    expect = _expect()
    tag = secrets.token_hex(3)
    ann = new_page()
    bob = new_page(width=390, height=844, lang="ja")
    cy = new_page()
    for page, name in ((ann, "ann"), (bob, "bob"), (cy, "cy")):
        signed_up(page, live_server, f"{name}_{tag}")
    created, tokens = rated_rolit(ann, [bob, cy])
    game_id = created["id"]
    cy_colour = next(s["colour"] for s in _api(ann, "GET", f"/api/multi/{game_id}")["seats"]
                     if s["name"] == f"cy_{tag}")

    # cy deletes the account from the profile page, mid-game
    cy.goto(f"{live_server}/players/cy_{tag}")
    cy.once("dialog", lambda dialog: dialog.accept())
    cy.fill("#delete-password", PASSWORD)
    cy.click("#delete-button")
    cy.wait_for_url(lambda url: "/players/" not in url, timeout=WAIT)  # sent home
    r = cy.request.get(f"{live_server}/api/accounts/me")
    assert r.status == 401

    bob.goto(f"{live_server}/multi/{game_id}")
    left = bob.locator(f"#multi-seats li[data-colour='{cy_colour}']")
    expect(left).to_contain_text("(deleted)", timeout=WAIT)
    expect(left).to_contain_text("退出（アカウント削除）", timeout=WAIT)
    no_sideways_scroll(bob, "a game with a left seat at 390 px, in Japanese")

    # ann and bob play to the end; the left seat's turns are played for it
    rng = random.Random(4)
    view = _api(ann, "GET", f"/api/multi/{game_id}")
    while not view["over"]:
        if view["turn"] == cy_colour:
            ann.wait_for_timeout(100)
            view = _api(ann, "GET", f"/api/multi/{game_id}")
            continue
        view = _api(ann, "POST", f"/api/multi/{game_id}/moves",
                    {"move": rng.choice(view["legal"])}, tokens[view["turn"]])
    verdict = _api(ann, "GET", f"/api/multi/{game_id}/rating")
    assert not verdict["rated"] and verdict["excluded"]["code"] == "account_deleted"
    ann.goto(f"{live_server}/multi/{game_id}")
    expect(ann.locator(f"#multi-seats li[data-colour='{cy_colour}']")).to_contain_text(
        "left the game (account deleted)", timeout=WAIT)
