"""Variations on the replay page: from a position of a finished game, a click on a grey
dot tries another move; more clicks extend the line; the bar under the board says which
variation is shown and at which move; prev/next step along it; "Back to the main line"
returns to the position it branched from; the list reopens it; the JSON tree downloads;
a line is deleted. Looked at (and photographed) at 1280 px and, in Japanese, at 390 px."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import box, no_emoji_symbols, no_sideways_scroll, overlap
from tests.browser.seats import auth, keep_seat, token_of
from tests.browser.test_review_in_browser import finished_game

pytestmark = pytest.mark.browser

#: the board as the page draws it, row by row, as /positions' cells
CELLS = """() => [...document.querySelectorAll('#board .square')].map((g) => {
  const disc = g.querySelector('.disc');
  if (disc) return disc.dataset.colour === 'black' ? 'X' : 'O';
  return g.classList.contains('hole') ? '#' : '-';
}).join('')"""


def api_get(page: Any, base: str, game_id: str, path: str) -> Any:
    response = page.request.get(f"{base}/api/games/{game_id}{path}",
                                headers=auth(page, game_id))
    assert response.ok, response.text()
    return response.json()


def at_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f"#replay[data-ply='{ply}']")


def test_a_variation_is_played_left_and_reopened_on_the_replay_page(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    page = new_page(1280, 900)
    page.goto(live_server + "/library")
    game = finished_game(page, live_server)
    game_id, moves = game["id"], game["moves"]
    positions = api_get(page, live_server, game_id, "/positions")
    page.goto(f"{live_server}/games/{game_id}/replay")
    page.wait_for_selector("#var-list .var-empty")
    assert page.locator("#var-bar").is_hidden()

    # position 10 of the main line: its legal squares are grey dots
    branch = 10
    page.locator(f"#moves li[data-ply='{branch}']").click()
    at_ply(page, branch)
    tree = api_get(page, live_server, game_id, "/variations")
    legal = sorted(tree["main"][branch]["legal"])
    shown = sorted(page.locator("#board .square.legal").evaluate_all(
        "els => els.map(e => e.dataset.square)"))
    assert shown == legal and page.locator("#board .square.legal .dot").count() == len(legal)
    first = next(m for m in legal if m != moves[branch])

    # four moves of a variation, each a click on a dot (a pass button if one must pass)
    played = []
    for step in range(4):
        if page.locator("#var-pass").is_visible():
            page.click("#var-pass")
            played.append("pass")
        else:
            square = first if step == 0 else page.locator("#board .square.legal").first \
                .get_attribute("data-square")
            page.locator(f"#board .square[data-square='{square}']").click()
            played.append(square)
        at_ply(page, branch + step + 1)
    assert page.locator("#replay").get_attribute("data-line")
    bar = page.locator("#var-bar")
    assert bar.is_visible()
    crumb = page.locator("#var-crumb")
    assert (crumb.locator("strong").text_content() or "") == f"Variation from move {branch + 1}:"
    assert crumb.locator(".var-move").all_text_contents() == played
    assert crumb.locator(".var-move.current").text_content() == played[-1]
    tree = api_get(page, live_server, game_id, "/variations")
    assert tree["count"] == 4
    [line] = tree["variations"]
    assert line["from_ply"] == branch and line["moves"] == played
    last = next(n for n in tree["nodes"] if n["id"] == line["ids"][-1])
    assert page.evaluate(CELLS) == last["cells"]  # the board is the variation's position
    assert page.locator("#board .disc.black").count() == last["black"]

    # prev and next step along the variation
    page.click("#prev")
    at_ply(page, branch + 3)
    assert crumb.locator(".var-move.current").text_content() == played[2]
    page.click("#next")
    at_ply(page, branch + 4)
    no_sideways_scroll(page, "variation desktop")
    no_emoji_symbols(page, "variation desktop")
    page.screenshot(path=str(screenshots / "variations-desktop.png"), full_page=True)
    assert not overlap(box(page, "#var-bar"), box(page, "#board"))

    # back to the main line: the position it branched from
    page.click("#var-back")
    at_ply(page, branch)
    assert bar.is_hidden() and page.locator("#replay").get_attribute("data-line") == ""
    assert page.evaluate(CELLS) == positions[branch]["cells"]
    assert page.locator("#moves li.current").get_attribute("data-ply") == str(branch)
    page.click("#next")
    at_ply(page, branch + 1)
    assert page.evaluate(CELLS) == positions[branch + 1]["cells"]  # the game's own move

    # reopen the variation from the list, at its third move
    third = line["ids"][2]
    page.locator(f"#var-list .var-move[data-node='{third}']").click()
    at_ply(page, branch + 3)
    assert bar.is_visible()
    assert page.evaluate(CELLS) == next(n for n in tree["nodes"] if n["id"] == third)["cells"]
    assert crumb.locator(".var-move").all_text_contents() == played  # the whole line
    assert page.locator("#var-list .var-move.current").get_attribute("data-node") == str(third)

    # the JSON tree downloads (with the seat token: the game is private)
    with page.expect_download() as info:
        page.click("#var-json")
    data = json.loads(Path(info.value.path()).read_text())
    assert data["game"] == game_id and data["main_line"] == moves
    assert data["variations"] == tree["variations"]
    with page.expect_download() as info:
        page.click("#var-ggf")
    assert f"B[{moves[0]}]" in Path(info.value.path()).read_text()

    # a phone, in Japanese, holding the seat: the stored variation, opened from the list
    token = token_of(page, game_id)
    assert token
    phone = new_page(390, 844, lang="ja")
    keep_seat(phone, live_server, game_id, token)
    phone.goto(f"{live_server}/games/{game_id}/replay")
    phone.wait_for_selector(f"#var-list .var-move[data-node='{line['ids'][-1]}']")
    assert phone.locator("#var-card h3").text_content().startswith("変化図")  # type: ignore[union-attr]
    phone.locator(f"#var-list .var-move[data-node='{line['ids'][-1]}']").click()
    at_ply(phone, branch + 4)
    assert (phone.locator("#var-crumb strong").text_content() or "") == \
        f"{branch + 1}手目からの変化:"
    assert phone.locator("#var-back").is_visible()
    no_sideways_scroll(phone, "variation phone")
    phone.locator("#var-bar").scroll_into_view_if_needed()
    phone.screenshot(path=str(screenshots / "variations-phone.png"), full_page=True)
    phone.locator("#var-card").screenshot(path=str(screenshots / "variations-phone-card.png"))
    phone.click("#var-back")
    at_ply(phone, branch)
    assert phone.evaluate(CELLS) == positions[branch]["cells"]
    no_sideways_scroll(phone, "variation phone, main line")

    # a branch inside the variation: reopened at its second move, another move there
    second = line["ids"][1]
    page.locator(f"#var-list .var-move[data-node='{second}']").click()
    at_ply(page, branch + 2)
    other = next(sq for sq in page.locator("#board .square.legal").evaluate_all(
        "els => els.map(e => e.dataset.square)") if sq != played[2])
    page.locator(f"#board .square[data-square='{other}']").click()
    at_ply(page, branch + 3)
    assert crumb.locator(".var-move").all_text_contents() == [*played[:2], other]
    nested = page.locator("#var-list .var-tree .var-move")
    assert nested.all_text_contents() == [f"{branch + 3}.{other}"]
    page.locator("#var-card").screenshot(path=str(screenshots / "variations-tree-card.png"))
    [line_again] = api_get(page, live_server, game_id, "/variations")["variations"]
    assert line_again["moves"] == played and line_again["children"][0]["moves"] == [other]

    # deleting the line (its first move and all after it, the branch too) empties the list
    page.locator(f"#var-list button[data-delete='{line['ids'][0]}']").click()
    page.wait_for_selector("#var-list .var-empty")
    at_ply(page, branch)
    assert bar.is_hidden()
    assert api_get(page, live_server, game_id, "/variations")["count"] == 0


def test_a_flip_rule_variation_asks_which_disc_to_turn(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    """挟み碁's rule "one": a square that brackets several discs rings them, and the disc
    clicked is the one the variation's move turns (``c4(d4)``)."""
    from hasamigo import find_variant
    from tests.browser.seats import create_game

    page = new_page(1280, 900)
    page.goto(live_server + "/library")
    game = create_game(page, live_server, opponent="person", variant="hasegawa-8x9",
                       flip_rule="one", clock_minutes=None)
    game_id = game["id"]
    board = find_variant("hasegawa-8x9+one")()
    url = f"{live_server}/api/games/{game_id}/variations"
    parent = None
    view = api_get(page, live_server, game_id, "/variations")
    here = view["main"][0]
    while not here["picks"]:  # down a line to a position with a choice, by the API
        move = list(board.move_choices())[-1]
        body: dict[str, Any] = {"move": board.move_name(move)}
        body |= {"parent": parent} if parent else {"ply": 0}
        response = page.request.post(url, data=body, headers=auth(page, game_id))
        assert response.status == 201, response.text()
        board.push(move)
        view = response.json()
        parent = view["node"]
        here = next(n for n in view["nodes"] if n["id"] == parent)["here"]
    square, discs = next(iter(here["picks"].items()))
    page.goto(f"{live_server}/games/{game_id}/replay")
    page.locator(f"#var-list .var-move[data-node='{parent}']").click()
    plies = board.ply
    at_ply(page, plies)
    page.locator(f"#board .square[data-square='{square}']").click()
    page.wait_for_selector("#var-pick:not([hidden])")
    rings = page.locator("#board .square.pickable")
    assert sorted(rings.evaluate_all("els => els.map(e => e.dataset.square)")) == sorted(discs)
    page.screenshot(path=str(screenshots / "variations-flip-rule-choice.png"), full_page=True)
    page.locator(f"#board .square[data-square='{discs[0]}']").click()
    at_ply(page, plies + 1)
    assert page.locator("#var-crumb .var-move.current").text_content() == \
        f"{square}({discs[0]})"
    assert page.locator("#board .square.pickable").count() == 0
    board.push(board.parse_move(f"{square}({discs[0]})"))
    assert page.evaluate(CELLS) == board.to_string().split()[0]
