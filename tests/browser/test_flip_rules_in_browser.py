"""挟み碁's flip rules in the browser: the new-game form's flip-rule select names the game's
variant, and a person chooses the discs a move turns by clicks — one disc under ``one``,
several toggled and confirmed under ``choose`` (with a cancel)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from hasamigo import find_variant
from hasamigo.squares import bits
from tests.browser.seats import auth, create_game, get_state

pytestmark = pytest.mark.browser


def _to_a_choice(page: Any, base: str, game_id: str, variant: str) -> dict[str, Any]:
    """Play through the API (each position's last choice) until a legal square brackets
    more than one disc; the state then."""
    board = find_variant(variant)()
    state = get_state(page, base, game_id)
    while not state["choices"]:
        move = list(board.move_choices())[-1]
        assert move.square is not None
        body: dict[str, Any] = {"move": board.square_name(move.square)}
        if move.turned is not None:
            body["turned"] = [board.square_name(sq) for sq in bits(move.turned)]
        response = page.request.post(f"{base}/api/games/{game_id}/moves", data=body,
                                     headers=auth(page, game_id))
        assert response.ok, response.text()
        board.push(move)
        state = response.json()
    return state


def _wait_for_moves(page: Any, base: str, game_id: str, count: int) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        state = get_state(page, base, game_id)
        if len(state["moves"]) >= count:
            return state
        time.sleep(0.1)
    raise AssertionError(f"no move {count} in {game_id}")


def test_the_form_offers_the_flip_rule(new_page: Callable[..., Any], live_server: str) -> None:
    page = new_page()
    page.goto(live_server + "/")
    page.click("#more-options summary")
    page.locator("input[name=variant][value=hasegawa-8x9]").check(force=True)
    page.locator("input[name=opponent][value=random]").check(force=True)
    page.locator("input[name=clock][value=none]").check(force=True)
    page.select_option("#flip-rule", "one")
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_selector(".square.legal")
    state = get_state(page, live_server, game_id)
    assert state["variant"] == "hasegawa-8x9+one" and state["flip_rule"] == "one"
    assert page.locator("#no-analysis").is_hidden()  # hints by the Board API search


def test_one_disc_is_chosen_by_a_click(new_page: Callable[..., Any], live_server: str
                                       ) -> None:
    page = new_page()
    page.goto(live_server + "/library")
    created = create_game(page, live_server, opponent="person", variant="hasegawa-8x9",
                          flip_rule="one", clock_minutes=None)
    game_id = created["id"]
    state = _to_a_choice(page, live_server, game_id, "hasegawa-8x9+one")
    square, discs = next(iter(state["choices"].items()))
    page.goto(f"{live_server}/games/{game_id}")
    page.locator(f".square.legal[data-square={square}]").click()
    page.wait_for_selector("#choose-bar:not([hidden])")
    assert page.locator(".square.pickable").count() == len(discs)
    assert page.locator("#choose-confirm").is_hidden()
    # cancel gives the choice up: the rings go, nothing is sent
    page.click("#choose-cancel")
    assert page.locator(".square.pickable").count() == 0
    assert len(get_state(page, live_server, game_id)["moves"]) == len(state["moves"])
    page.locator(f".square.legal[data-square={square}]").click()
    page.locator(f".square.pickable[data-square={discs[-1]}]").click()
    after = _wait_for_moves(page, live_server, game_id, len(state["moves"]) + 1)
    assert after["moves"][-1] == f"{square}({discs[-1]})"
    assert after["flipped"] == [discs[-1]]
    page.wait_for_selector("#choose-bar", state="hidden")


def test_several_discs_are_toggled_and_confirmed(new_page: Callable[..., Any],
                                                 live_server: str) -> None:
    page = new_page()
    page.goto(live_server + "/library")
    created = create_game(page, live_server, opponent="person", flip_rule="choose",
                          clock_minutes=None)
    game_id = created["id"]
    state = _to_a_choice(page, live_server, game_id, "standard+choose")
    square, discs = next(iter(state["choices"].items()))
    page.goto(f"{live_server}/games/{game_id}")
    page.locator(f".square.legal[data-square={square}]").click()
    page.wait_for_selector("#choose-bar:not([hidden])")
    assert page.locator(".square.picked").count() == len(discs)  # all, to begin with
    page.locator(f".square.pickable[data-square={discs[0]}]").click()  # not this one
    assert page.locator(".square.picked").count() == len(discs) - 1
    page.click("#choose-confirm")
    after = _wait_for_moves(page, live_server, game_id, len(state["moves"]) + 1)
    assert after["moves"][-1] == f"{square}({''.join(discs[1:])})"
    assert after["flipped"] == discs[1:]
