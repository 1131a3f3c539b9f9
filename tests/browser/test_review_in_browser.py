"""The game review on the replay page: a finished game is reviewed from its button, a
progress bar runs, then the graph marks the inaccuracies, mistakes and blunders (with a
legend), the summary and the table follow; a marked point and a row of the table jump
the replay to the position before that move, where the square played and the best one
are tinted. Looked at (and photographed) at 1280 px and 390 px, in both languages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hasamigo.notation import read_wthor, write_transcript
from tests.browser.checks import box, no_emoji_symbols, no_sideways_scroll, overlap
from tests.browser.seats import auth, create_game, keep_seat, play, token_of

WTHOR = Path(__file__).parents[1] / "data" / "wthor" / "WTH_1977.wtb"

pytestmark = pytest.mark.browser


def finished_game(page: Any, base: str) -> dict[str, Any]:
    """A whole game against Random in which this browser plays the last legal square in
    name order: no strategy, so it loses discs on many moves."""
    view = create_game(page, base, opponent="random", clock_minutes=None)
    while view["phase"] == "playing":
        view = play(page, base, view["id"], sorted(view["legal"])[-1], wait=True)
    assert view["phase"] == "over"
    return view


def test_a_finished_game_reviewed_from_the_replay_page(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    page = new_page(1280, 900)
    page.goto(live_server + "/library")
    game = finished_game(page, live_server)
    game_id, plies = game["id"], len(game["moves"])
    page.goto(f"{live_server}/games/{game_id}/replay")
    button = page.locator("#review-button")
    button.wait_for(state="visible")
    assert button.text_content() == "Review this game"
    assert page.locator("#review-result").is_hidden()
    button.click()
    # the POST answers at once: the bar shows until the first poll finds the review done
    page.wait_for_selector("#review-progress:not([hidden]) progress")
    assert page.locator("#review-button").is_hidden()
    page.locator("#review-card").screenshot(path=str(screenshots / "review-progress.png"))
    # the progress bar shows while the server works (a 4-ply review of one game takes
    # a few seconds), then the results replace it
    page.wait_for_selector("#review-card[data-status='done']", timeout=120_000)
    assert page.locator("#review-progress").is_hidden()
    root = page.locator("#replay")

    # the table: one row per move, each with its verdict
    rows = page.locator("#review-table tbody tr")
    assert rows.count() == plies
    labels = [rows.nth(i).get_attribute("data-label") for i in range(plies)]
    marked = [i for i, label in enumerate(labels) if label in ("inaccuracy", "mistake", "blunder")]
    assert marked, f"no move marked: {labels}"
    # the graph: a point per position, a ring per marked move, in the colour of its label
    points = page.locator("#review-graph polyline").get_attribute("points") or ""
    assert 0 < len(points.split()) <= plies + 1
    rings = page.locator("#review-graph .graph-mark")
    ringed = sorted(int(rings.nth(i).get_attribute("data-ply") or -1) for i in range(rings.count()))
    assert set(ringed) <= set(marked) and len(ringed) >= len(marked) - 2  # forced: unscored
    for label in ("inaccuracy", "mistake", "blunder"):
        colours = {rings.nth(i).evaluate("e => getComputedStyle(e).fill")
                   for i in range(rings.count())
                   if f"mark-{label}" in (rings.nth(i).get_attribute("class") or "")}
        assert len(colours) <= 1, colours  # one colour per label
    fills = {page.locator(f"#review-legend .mark-{label}").evaluate(
        "e => getComputedStyle(e).backgroundColor") for label in ("inaccuracy", "mistake",
                                                                  "blunder")}
    assert len(fills) == 3  # the legend tells the three apart
    assert page.locator("#review-legend li").all_text_contents() == [
        "inaccuracy", "mistake", "blunder"]

    # the summary: each player's average loss and counts, and the turning point
    for side in ("black", "white"):
        text = page.locator(f"#review-summary [data-side={side}]").text_content() or ""
        assert "average loss" in text
    turning = page.locator("#review-turning button")
    assert turning.count() == 1 and "Turning point: move" in (turning.text_content() or "")
    no_sideways_scroll(page, "review desktop")
    no_emoji_symbols(page, "review desktop")
    page.screenshot(path=str(screenshots / "review-desktop.png"), full_page=True)

    # a marked point of the graph jumps to the position before its move
    target = rings.nth(rings.count() - 1)
    ply = int(target.get_attribute("data-ply") or -1)
    # a real click at the ring's centre, after Playwright has scrolled it into view and
    # seen it hold still (coordinates read earlier go stale if the page moves under them)
    target.click()
    assert root.get_attribute("data-ply") == str(ply)
    assert page.locator("#review-table tr.current").get_attribute("data-ply") == str(ply)
    row = page.locator(f"#review-table tr[data-ply='{ply}']")
    played = (row.locator("td.mv").text_content() or "").strip()
    best = (row.locator("td.best").text_content() or "").strip()
    assert page.locator(f"#board .square.review-played[data-square='{played}']").count() == 1
    assert page.locator(f"#board .square.review-best[data-square='{best}']").count() == 1
    assert page.locator("#board .disc").count() == 4 + ply - game["moves"][:ply].count("pass")
    page.screenshot(path=str(screenshots / "review-desktop-jump.png"), full_page=True)
    # a row of the table jumps too, and the old tints go
    page.locator("#review-table tr[data-ply='0']").click()
    assert root.get_attribute("data-ply") == "0"
    assert page.locator("#board .review-played").count() == 0  # the first move lost nothing
    # the turning point's link
    turning.click()
    assert root.get_attribute("data-ply") == str(
        page.locator("#review-turning button").get_attribute("data-ply"))

    # the existing replay still works beside it, with the notes of each position
    page.click("#last")
    assert root.get_attribute("data-ply") == str(plies)
    page.wait_for_function("document.querySelectorAll('#notes li[data-kind=mobility]').length > 0")
    kinds = page.locator("#notes li").evaluate_all("els => els.map(e => e.dataset.kind)")
    assert "openness" in kinds and "potential_mobility" in kinds  # the last move and the end
    page.locator("#notes-card").screenshot(path=str(screenshots / "notes-desktop.png"))
    assert page.locator("#board .review-played, #board .review-best").count() == 0

    # a phone, in Japanese, on another browser holding the seat: the review is stored
    token = token_of(page, game_id)
    assert token
    phone = new_page(390, 844, lang="ja")
    keep_seat(phone, live_server, game_id, token)
    phone.goto(f"{live_server}/games/{game_id}/replay")
    phone.wait_for_selector("#review-card[data-status='done']")
    assert phone.locator("#review-card h3").text_content() == "対局の検討"
    assert phone.locator("#review-button").is_hidden()
    assert phone.locator("#review-table tbody tr").count() == plies
    no_sideways_scroll(phone, "review phone")
    phone.wait_for_selector("#review-graph svg", state="visible")  # drawn after the table
    table, graph = box(phone, ".review-table-wrap"), box(phone, "#review-graph svg")
    assert not overlap(table, graph) and graph["width"] <= 390
    phone.locator("#review-table tr[data-ply='5']").click()
    assert phone.locator("#replay").get_attribute("data-ply") == "5"
    phone.wait_for_function("[...document.querySelectorAll('#notes li')]"
                            ".some(li => li.textContent.includes('着手可能数'))")
    no_sideways_scroll(phone, "notes phone")
    phone.screenshot(path=str(screenshots / "review-phone.png"), full_page=True)
    phone.locator("#review-card").screenshot(path=str(screenshots / "review-phone-card.png"))


def test_the_review_button_waits_for_the_end_of_the_game(
        new_page: Callable[..., Any], live_server: str) -> None:
    page = new_page(1280, 900)
    page.goto(live_server + "/library")
    game = create_game(page, live_server, opponent="random", clock_minutes=None)
    play(page, live_server, game["id"], "f5", wait=True)
    page.goto(f"{live_server}/games/{game['id']}/replay")
    page.wait_for_selector("#review-note:not([hidden])")
    assert page.locator("#review-note").text_content() == \
        "The game can be reviewed once it is over."
    assert page.locator("#review-button").is_hidden()


def test_forced_moves_are_drawn_at_their_positions_score(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    """Issue 50: WTHOR 1977's first game ends with forced moves and passes, each at -4
    for the mover (the live server solves its last 10 empties): the graph draws every
    position, a forced move's at its own score and not at 0, and the table tags them."""
    page = new_page(1280, 900)
    page.goto(live_server + "/library")
    text = write_transcript(next(iter(read_wthor(WTHOR))).moves)
    response = page.request.post(f"{live_server}/api/games/import",
                                 data={"format": "transcript", "text": text})
    assert response.status == 201, response.text()
    game = response.json()
    keep_seat(page, live_server, game["id"], game["seat_token"])
    page.goto(f"{live_server}/games/{game['id']}/replay")
    page.locator("#review-button").click()
    page.wait_for_selector("#review-card[data-status='done']", timeout=120_000)
    rows = page.request.get(f"{live_server}/api/games/{game['id']}/review",
                            headers=auth(page, game["id"])).json()["moves"]
    forced = [row for row in rows if row["forced"]]
    assert [row["move"] for row in forced if row["exact"]] == [
        "b2", "pass", "a8", "pass", "g2", "h1"]
    assert all(row["best_score"] == row["played_score"] == -4 for row in forced if row["exact"])
    points = (page.locator("#review-graph polyline").get_attribute("points") or "").split()
    assert len(points) == len(rows) + 1  # every position drawn
    heights = [float(point.split(",")[1]) for point in points]
    axis = 70.0  # the graph is 140 high: a score of 0 is drawn at its middle
    for row in forced:
        black = row["best_score"] if row["colour"] == "black" else -row["best_score"]
        assert (heights[row["ply"]] == axis) is (black == 0), row
        if row["exact"]:  # the same height before and after: no spike
            assert heights[row["ply"]] == heights[row["ply"] + 1], row
    tagged = page.locator("#review-table tr:has(.forced)")
    assert [int(tagged.nth(i).get_attribute("data-ply") or -1)
            for i in range(tagged.count())] == [row["ply"] for row in forced]
    assert tagged.first.locator(".forced").text_content() == "forced"
    tagged.last.click()  # the table scrolls to the forced moves of the end
    page.locator("#review-card").screenshot(path=str(screenshots / "review-forced.png"))

    # a review stored before forced moves were scored serves them unscored (null): the
    # graph takes such a position from the move before it, never as 0
    scores = page.evaluate("""async () => {
      const { reviewScores } = await import("/static/js/review.js");
      const row = (colour, best, played) => ({ colour, best_score: best, played_score: played });
      return reviewScores([row("black", 6, 4), row("white", null, null), row("black", -4, -4)]);
    }""")
    assert scores == [6, 4, -4, -4]
