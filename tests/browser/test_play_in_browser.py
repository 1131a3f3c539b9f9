"""What a person does in the browser: fill in the new-game form, play whole games by
rapid clicks (no move the page offers is ever refused), see the result beside or below
the board, replay from move 0 with the evaluation graph, find the game in the library,
filter it and delete it. Pages are looked at (and photographed) at 390 px (a phone),
768 px (a tablet) and 1280 px, and checked for sideways scrolling and for symbols that
would need an emoji font. API calls beside the page send the seat token the page keeps."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import (
    board_unobstructed,
    box,
    no_emoji_symbols,
    no_sideways_scroll,
    overlap,
)
from tests.browser.seats import MovePosts, auth, create_game, get_state, play

pytestmark = pytest.mark.browser

# White to move; after e2, Black has no move and must pass (found by a seeded search).
PASS_POSITION = "OXXXOOOOOXXX-XOOXOXXXXXOXXXOOXXOXXXXXXXOXXXXXOOO-XXXXOOO-XOOOOOO O"
PHONE, TABLET, DESKTOP = (390, 844), (768, 1024), (1280, 900)

# every message the page shows in its error box, kept for the test to read
WATCH_ERRORS = """
window.__shownErrors = [];
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("error");
  if (!box) return;
  new MutationObserver(() => {
    if (!box.hidden && box.textContent) window.__shownErrors.push(box.textContent);
  }).observe(box, { childList: true, characterData: true, subtree: true, attributes: true });
});
"""


def start_from_form(page: Any, base: str, opponent: str, clock: str = "none") -> str:
    page.goto(base + "/")
    page.locator(f"input[name=opponent][value={opponent}]").check(force=True)
    page.locator(f"input[name=clock][value={clock}]").check(force=True)
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    game_id: str = page.url.rstrip("/").rsplit("/", 1)[1]
    return game_id


def my_games(page: Any, base: str) -> list[dict[str, Any]]:
    """This browser's games, the empty ones too."""
    response = page.request.get(f"{base}/api/games?min_moves=0")
    assert response.ok, response.text()
    games: list[dict[str, Any]] = response.json()
    return games


def test_the_new_game_form_at_phone_tablet_and_desktop_width(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    for (width, height), name in ((PHONE, "phone"), (TABLET, "tablet"), (DESKTOP, "desktop")):
        for lang in ("en", "ja"):
            page = new_page(width, height, lang=lang)
            page.goto(live_server + "/")
            assert page.locator("input[name=opponent]").count() == 7
            assert ("新しい対局" in page.content()) == (lang == "ja")
            # the usual choices show their defaults; the rest is collapsed
            for field, value in (("opponent", "victory"), ("colour", "black"), ("clock", "20"),
                                 ("casual", "1")):
                checked = page.locator(f"input[name={field}]:checked")
                assert checked.get_attribute("value") == value
                assert checked.locator("xpath=..").is_visible()
            assert page.locator("#more-options").get_attribute("open") is None
            assert page.locator("input[name=variant][value='8x8']").locator("xpath=..") \
                .is_hidden()
            no_sideways_scroll(page, f"new game {name} {lang}")
            no_emoji_symbols(page, f"new game {name} {lang}")
            page.screenshot(path=str(screenshots / f"new-game-{width}-{lang}.png"),
                            full_page=True)
            if width != PHONE[0] or lang != "en":
                continue
            # a whole phone screen holds the form up to its start button
            assert box(page, "#start-game")["y"] + 60 < 1300
            # the choices that appear with a person in another browser, and fuse-ishi
            assert page.locator("#person-row").is_hidden()
            assert page.locator("#fuse-details").is_hidden()
            page.locator("input[name=opponent][value=person]").check(force=True)
            page.locator("input[name=same_screen][value='0']").check(force=True)
            page.locator("input[name=colour][value=fuse-ishi]").check(force=True)
            page.click("#fuse-details summary")
            page.click("#more-options summary")
            assert page.locator("#rank-0").is_visible()
            assert page.locator("#claims-row").is_hidden()  # no program to claim
            assert page.locator("input[name=variant][value='8x8']").locator("xpath=..") \
                .is_visible()
            no_sideways_scroll(page, "the new-game form opened up")
            page.screenshot(path=str(screenshots / "new-game-phone-open.png"), full_page=True)


def _play_by_rapid_clicks(pages: list[Any], ids: list[str], timeout: float = 150.0
                          ) -> dict[str, int]:
    """Click the first dot of every page as soon as it shows one (no waiting for
    animations), round robin, until every game shows its result. Returns the clicks."""
    clicks = dict.fromkeys(ids, 0)
    done: set[str] = set()
    deadline = time.monotonic() + timeout
    while len(done) < len(ids):
        assert time.monotonic() < deadline, f"games not over in time: {set(ids) - done}"
        for page, game_id in zip(pages, ids, strict=True):
            if game_id in done:
                continue
            if page.locator("#result:not([hidden])").count():
                done.add(game_id)
                continue
            dots = page.locator(".square.legal")
            if not dots.count():
                continue
            try:
                dots.first.click(force=True, timeout=1000)
                clicks[game_id] += 1
            except Exception:  # the dot went between finding it and clicking: fine
                pass
        pages[0].wait_for_timeout(5)
    return clicks


@pytest.mark.parametrize("variant,size,squares,holes", [
    ("grand", PHONE, 100, 0), ("eight-stars", DESKTOP, 100, 12)], ids=["grand", "eight-stars"])
def test_a_wide_board_played_to_the_end_by_clicks(
        new_page: Callable[..., Any], live_server: str, screenshots: Path, variant: str,
        size: tuple[int, int], squares: int, holes: int) -> None:
    """Grand Othello and Eight Stars from the form (Random is their program so far): the
    board in its shape, every move by a click on a dot, the result shown."""
    page = new_page(*size)
    page.goto(live_server + "/")
    page.click("#more-options summary")
    page.locator(f"input[name=variant][value={variant}]").check(force=True)
    page.locator("input[name=opponent][value=random]").check(force=True)
    page.locator("input[name=clock][value=none]").check(force=True)
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_selector(".square.legal")
    assert page.locator(".square").count() == squares
    assert page.locator(".square.hole").count() == holes
    assert page.locator(".square[data-square=j10]").count() == 1
    # the engine analyses these boards too: hints and the graph are offered
    assert page.locator("#no-analysis").is_hidden()
    assert page.locator("#hints-row").is_visible() and page.locator("#graph-row").is_visible()
    board_unobstructed(page)
    no_sideways_scroll(page, f"{variant} at {size[0]} px")
    page.screenshot(path=str(screenshots / f"{variant}-{size[0]}-start.png"), full_page=True)
    clicks = _play_by_rapid_clicks([page], [game_id], timeout=240.0)
    assert clicks[game_id] >= 20
    state = get_state(page, live_server, game_id)
    assert state["result"] is not None and state["variant"] == variant
    page.screenshot(path=str(screenshots / f"{variant}-{size[0]}-end.png"), full_page=True)


def test_the_circular_nip_board_drawn_with_its_ring_and_played_to_the_end(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    """nip-circle from the form against Random: the octagon's squares, the circle drawn
    through every one of the ring's 20 points (within a disc's radius of each centre, the
    line stopping at the discs on it), no analysis offered, and the game clicked to the
    full board."""
    page = new_page(*DESKTOP)
    page.goto(live_server + "/")
    page.click("#more-options summary")
    page.locator("input[name=variant][value=nip-circle]").check(force=True)
    page.locator("input[name=opponent][value=random]").check(force=True)
    page.locator("input[name=clock][value=none]").check(force=True)
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_selector(".square.legal")
    assert page.locator(".square").count() == 64
    assert page.locator(".square.hole").count() == 12
    ring = page.locator(".ring-line")
    assert ring.count() == 1
    names = (ring.get_attribute("data-ring") or "").split()
    assert names[:2] == ["c1", "d1"] and len(names) == 20
    # every ring point's centre lies on the drawn circle, give or take a disc's radius
    off = page.evaluate("""(names) => {
      const circle = document.querySelector(".ring-line");
      const c = circle.getBoundingClientRect();
      const cx = c.x + c.width / 2, cy = c.y + c.height / 2, r = c.width / 2;
      return names.map((name) => {
        const sq = document.querySelector(`.square[data-square=${name}] .cell`)
          .getBoundingClientRect();
        const d = Math.hypot(sq.x + sq.width / 2 - cx, sq.y + sq.height / 2 - cy);
        return Math.abs(d - r) / sq.width;
      });
    }""", names)
    assert len(off) == 20 and max(off) < 0.41, off
    assert page.locator("#no-analysis").is_hidden()  # hints by the Board API search
    board_unobstructed(page)
    page.screenshot(path=str(screenshots / "nip-circle-start.png"), full_page=True)
    clicks = _play_by_rapid_clicks([page], [game_id], timeout=240.0)
    assert clicks[game_id] >= 10
    state = get_state(page, live_server, game_id)
    assert state["result"] is not None and state["variant"] == "nip-circle"
    assert state["counts"]["empty"] == 0  # Nip: only a full board ends the game
    # the board is full: the line stops at each of the 20 discs on it
    assert page.locator("mask circle[visibility=visible]").count() == 20
    page.screenshot(path=str(screenshots / "nip-circle-end.png"), full_page=True)
    # the replay draws the ring too
    page.goto(f"{live_server}/games/{game_id}/replay")
    page.wait_for_selector("#replay .square")
    assert page.locator("#replay .ring-line").count() == 1


def test_the_solved_boards_page_replays_the_perfect_lines(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    """From the new-game page to the solved boards; the 6×6 slider at its end shows the
    final position of the perfect line: 16 black and 20 white discs."""
    page = new_page(*PHONE)
    page.goto(live_server + "/")
    page.click("#more-options summary")
    page.click("a[href='/solved']")
    page.wait_for_url("**/solved")
    six = page.locator("#solved-6x6")
    assert six.locator(".square").count() == 36
    slider = six.locator(".solved-ply")
    slider.fill(slider.get_attribute("max"))
    assert six.locator(".disc.black").count() == 16
    assert six.locator(".disc.white").count() == 20
    assert page.locator("#solved-4x4 .square").count() == 16
    no_sideways_scroll(page, "solved boards at phone width")
    page.screenshot(path=str(screenshots / "solved-390.png"), full_page=True)


def test_five_games_by_rapid_clicks_and_no_move_the_page_offers_is_refused(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    sizes = [PHONE, PHONE, TABLET, DESKTOP, DESKTOP]
    pages: list[Any] = []
    posts = MovePosts()
    ids: list[str] = []
    for width, height in sizes:
        page = new_page(width, height)
        page.add_init_script(WATCH_ERRORS)
        posts.watch(page)
        pages.append(page)
        ids.append(start_from_form(page, live_server, "random"))
        page.wait_for_selector(".square.legal")
    clicks = _play_by_rapid_clicks(pages, ids)
    assert not posts.refusals, f"moves the page offered were refused: {posts.refusals}"
    assert len(posts.statuses) >= 5 * 10 and all(s == 200 for s in posts.statuses)
    for page, game_id, (width, _height) in zip(pages, ids, sizes, strict=True):
        shown = page.evaluate("window.__shownErrors")
        assert shown == [], f"{game_id}: the page showed errors {shown}"
        state = get_state(page, live_server, game_id)
        assert state["phase"] == "over", game_id
        assert clicks[game_id] >= 2
        assert page.locator("#engine-note").is_hidden()
        # the result beside (or below) the board, the final position in full view
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(450)  # the last flips
        assert not overlap(box(page, "#result"), box(page, "#board"))
        board_unobstructed(page)
        result, board = box(page, "#result"), box(page, "#board")
        if width >= 900:
            assert result["x"] >= board["x"] + board["width"]  # beside it
        else:
            assert result["y"] >= board["y"] + board["height"]  # below it
        word = page.locator("#result-word").text_content()
        assert word in ("You win", "You lose", "Draw")
        score = (page.locator("#result-score").text_content() or "").replace(" ", "")
        assert score.startswith(f"{state['result']['black']}–{state['result']['white']}")
        no_sideways_scroll(page, f"finished game at {width} px")
        no_emoji_symbols(page, f"finished game at {width} px")
        assert all(not card.is_visible() or (card.text_content() or "").strip()
                   for card in page.locator(".side-column > .card").all()), "an empty card"
    for page, name in ((pages[0], "phone"), (pages[2], "tablet"), (pages[3], "desktop")):
        page.screenshot(path=str(screenshots / f"game-finished-{name}.png"), full_page=True)
        page.screenshot(path=str(screenshots / f"game-finished-{name}-screen.png"))
    # replay opens at move 0 with the graph; moves, graph points and keys go anywhere
    replay(pages[3], live_server, ids[3], screenshots, "desktop")
    replay(pages[0], live_server, ids[0], screenshots, "phone")


def replay(page: Any, base: str, game_id: str, screenshots: Path, name: str) -> None:
    page.goto(f"{base}/games/{game_id}/replay")
    page.wait_for_selector("#moves li")
    page.wait_for_selector("#graph svg polyline")
    root = page.locator("#replay")
    assert root.get_attribute("data-ply") == "0"
    assert page.locator(".disc").count() == 4 and page.locator("#ply").input_value() == "0"
    assert page.locator("#moves li.current").count() == 0
    assert "0 /" in (page.locator("#replay-status").text_content() or "")
    points = page.locator("#graph polyline").get_attribute("points") or ""
    plies = page.locator("#moves li").count()
    assert len(points.split()) == plies + 1  # one point per position
    assert page.locator("#moves li .n").first.text_content() == "1"
    assert page.locator("#moves li .disc-icon").count() == plies
    no_sideways_scroll(page, f"replay {name}")
    no_emoji_symbols(page, f"replay {name}")
    page.screenshot(path=str(screenshots / f"replay-start-{name}.png"), full_page=True)
    page.locator("#moves li[data-ply='10']").click()
    assert root.get_attribute("data-ply") == "10"
    assert page.locator("#moves li.current").get_attribute("data-ply") == "10"
    page.keyboard.press("ArrowRight")
    assert root.get_attribute("data-ply") == "11"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert root.get_attribute("data-ply") == "9"
    page.locator("#graph svg").scroll_into_view_if_needed()  # clicks by coordinates below
    graph = box(page, "#graph svg")
    page.mouse.click(graph["x"] + graph["width"] - 9, graph["y"] + graph["height"] / 2)
    assert root.get_attribute("data-ply") == str(plies)  # the last point: the end
    page.mouse.click(graph["x"] + 2, graph["y"] + graph["height"] / 2)
    assert root.get_attribute("data-ply") == "0"
    page.keyboard.press("End")
    assert root.get_attribute("data-ply") == str(plies)
    page.click("#first")
    assert page.locator(".disc").count() == 4
    page.click("#next")
    assert page.locator(".disc").count() == 5


def test_the_library_lists_games_with_moves_filters_and_deletes_them(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    page = new_page(*PHONE)
    page.goto(live_server + "/library")
    assert page.locator("#library-empty").is_visible()
    # visiting the new-game page (and going back and forth) makes no game
    for _ in range(3):
        page.goto(live_server + "/")
        page.wait_for_load_state("networkidle")
    page.go_back()
    page.go_forward()
    assert my_games(page, live_server) == []
    lost = create_game(page, live_server, opponent="random", colour="black",
                       clock_minutes=None)
    state = lost
    for _ in range(3):
        state = play(page, live_server, lost["id"], state["legal"][0], wait=True)
    resign = page.request.post(f"{live_server}/api/games/{lost['id']}/resign", data={},
                               headers=auth(page, lost["id"]))
    assert resign.ok
    playing = create_game(page, live_server, opponent="victory", colour="black",
                          clock_minutes=20)
    play(page, live_server, playing["id"], "f5", wait=True)
    empty = create_game(page, live_server, opponent="person", clock_minutes=None)

    page.goto(live_server + "/library")
    listed = page.locator("#library tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.gameId)")
    assert listed == [playing["id"], lost["id"]]  # newest update first, no empty game
    assert empty["id"] not in page.content()
    stamps = page.locator("#library time").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('datetime'))")
    assert stamps == sorted(stamps, reverse=True)
    lost_row = page.locator(f"#library tr[data-game-id='{lost['id']}']")
    assert "Lost" in (lost_row.text_content() or "")
    no_sideways_scroll(page, "library phone")
    no_emoji_symbols(page, "library phone")
    page.screenshot(path=str(screenshots / "library-390.png"), full_page=True)

    # filters: result, opponent, dates (this browser's days), games without moves
    page.select_option("select[name=result]", "lost")
    page.wait_for_url("**/library?result=lost")
    assert page.locator("#library tbody tr").count() == 1
    assert page.locator(f"#library tr[data-game-id='{lost['id']}']").count() == 1
    page.select_option("select[name=opponent]", "victory")
    page.wait_for_url("**/library?opponent=victory&result=lost")
    assert page.locator("#library-empty").is_visible()
    assert page.locator("#library tbody tr").count() == 0
    page.click("#filter-reset")
    today = page.evaluate("""() => { const d = new Date(), two = (n) => String(n).padStart(2, "0");
        return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`; }""")
    page.fill("input[name=since]", today)
    page.fill("input[name=until]", today)
    page.click("#filter-apply")
    page.wait_for_url("**/library?since=*")
    assert "tz=" in page.url and page.locator("#library tbody tr").count() == 2
    page.goto(live_server + "/library?since=2000-01-01&until=2000-01-02")
    assert page.locator("#library tbody tr").count() == 0
    page.goto(live_server + "/library")
    page.check("input[name=empty]")
    page.wait_for_url("**/library?empty=1")
    assert page.locator(f"#library tr[data-game-id='{empty['id']}']").count() == 1

    # deleting one's own game, from the library
    page.goto(live_server + "/library")
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_response(f"**/api/games/{lost['id']}") as deleted:
        page.locator(f"#library tr[data-game-id='{lost['id']}'] button[data-delete]").click()
    assert deleted.value.status == 204
    page.locator(f"#library tr[data-game-id='{lost['id']}']").wait_for(state="detached")
    assert [g["id"] for g in my_games(page, live_server)] == [playing["id"], empty["id"]] \
        or {g["id"] for g in my_games(page, live_server)} == {playing["id"], empty["id"]}
    assert page.request.get(f"{live_server}/api/games/{lost['id']}",
                            headers=auth(page, lost["id"])).status == 404
    for width, height in (TABLET, DESKTOP):
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        no_sideways_scroll(page, f"library {width}")
        page.screenshot(path=str(screenshots / f"library-{width}.png"), full_page=True)


def test_the_game_page_says_when_the_engine_is_starting(
        new_page: Callable[..., Any], live_server: str) -> None:
    """While /api/status says "warming", hints wait (503 busy) and the page says the
    engine is starting; once it is ready the hints come. (The server's own /api/status
    is stood in for here, so the test does not depend on a cold machine.)"""
    page = new_page(*PHONE)
    ready = {"now": False}

    def status(route: Any) -> None:
        route.fulfill(json={"engine": "ready" if ready["now"] else "warming", "seconds": 5})

    def hints(route: Any) -> None:
        if ready["now"]:
            route.continue_()
        else:
            route.fulfill(status=503, json={"error": {
                "code": "busy", "message": "the engine is starting", "reason": None}})

    page.route("**/api/status", status)
    page.route("**/hints", hints)
    created = create_game(page, live_server, opponent="random", colour="black",
                          clock_minutes=None)
    page.evaluate("localStorage.setItem('panel-hints', '1')")
    page.goto(f"{live_server}/games/{created['id']}")
    page.wait_for_selector(".square.legal")
    page.locator("#engine-note").wait_for(state="visible")
    assert page.locator(".hint").count() == 0 and page.locator("#error").is_hidden()
    ready["now"] = True
    page.locator("#engine-note").wait_for(state="hidden", timeout=5000)
    page.wait_for_selector(".hint", timeout=5000)


def test_the_opening_panel_shows_the_books_moves_with_the_hints(
        new_page: Callable[..., Any], live_server: str, screenshots: Path) -> None:
    """With hints on, the opening panel lists the book's moves (value and games) beside the
    opening's name; a phone width keeps it inside the page."""
    page = new_page(*PHONE)
    created = create_game(page, live_server, opponent="random", colour="black",
                          clock_minutes=None)
    page.evaluate("""() => { localStorage.setItem('panel-hints', '1');
                            localStorage.setItem('panel-opening', '1'); }""")
    page.goto(f"{live_server}/games/{created['id']}")
    line = page.locator("#book-line")
    line.wait_for(state="visible", timeout=15000)
    text = line.text_content() or ""
    assert all(m in text for m in ("f5", "d3", "c4", "e6")), text  # Black's four first moves
    no_sideways_scroll(page, "book line on a phone")
    page.screenshot(path=str(screenshots / "book-line-phone.png"), full_page=True)


def test_a_pass_notice_appears_when_a_side_must_pass(page: Any, live_server: str,
                                                     screenshots: Path) -> None:
    game_id = create_game(page, live_server, opponent="person", colour="white",
                          position=PASS_POSITION, clock_minutes=None)["id"]
    page.goto(f"{live_server}/games/{game_id}")
    page.wait_for_selector(".square.legal[data-square=e2]")
    assert page.locator("#notice").is_hidden()
    page.locator(".square.legal[data-square=e2]").click()
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert "pass" in (notice.text_content() or "").lower()
    assert "パス" in (notice.text_content() or "")
    page.screenshot(path=str(screenshots / "pass-notice.png"), full_page=True)


def test_an_illegal_request_shows_the_reason(page: Any, live_server: str) -> None:
    game_id = start_from_form(page, live_server, "person")
    page.wait_for_selector(".square.legal")
    result = page.evaluate(
        """async ([id, auth]) => {
            const r = await fetch(`/api/games/${id}/moves`, {method: "POST",
              headers: {"Content-Type": "application/json", ...auth},
              body: JSON.stringify({move: "a1"})});
            return [r.status, (await r.json()).error.reason];
        }""",
        [game_id, auth(page, game_id)],
    )
    assert result == [422, "flips_nothing"]
    page.locator(".square[data-square=a1] .cell").click(force=True)  # no dot: nothing sent
    assert page.locator("#error").is_hidden()


def test_a_move_made_stale_elsewhere_resyncs_quietly_or_says_why(
        new_page: Callable[..., Any], live_server: str) -> None:
    """Two people on one screen, and the same seat plays from elsewhere (another tab, here
    the API) while this page hears nothing (its socket is stubbed). A click on the old
    position is refused as stale: if its square is still playable in the position now, the
    page only catches up; if not, it says so."""
    page = new_page()
    created = create_game(page, live_server, opponent="person", clock_minutes=None)
    game_id = created["id"]
    page.route_web_socket("**/ws/**", lambda socket: None)  # no live updates
    page.goto(f"{live_server}/games/{game_id}")
    page.wait_for_selector(".square.legal[data-square=f5]")
    play(page, live_server, game_id, "f5")  # elsewhere: Black f5
    page.locator(".square.legal[data-square=f5]").click()  # f5 is taken now
    page.locator("#error").wait_for(state="visible")
    assert "f5" in (page.locator("#error").text_content() or "")
    assert page.locator("#moves li").count() == 1  # caught up with the game
    page.wait_for_selector(".square.legal[data-square=d6]")
    play(page, live_server, game_id, "f4")  # elsewhere: White f4, Black e3
    play(page, live_server, game_id, "e3")
    with page.expect_response(f"**/api/games/{game_id}/moves") as refused:
        page.locator(".square.legal[data-square=d6]").click()  # still White's, still legal
    assert refused.value.status == 409
    page.wait_for_function("document.querySelectorAll('#moves li').length === 3")
    assert page.locator("#error").is_hidden()  # nothing to tell: d6 can be played
    page.locator(".square.legal[data-square=d6]").click()
    page.wait_for_function("document.querySelectorAll('#moves li').length === 4")
    assert page.locator("#error").is_hidden()
