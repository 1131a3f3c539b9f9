"""``hasamigo serve --workers 2`` in the browser: a person plays a whole game by clicks,
at phone and desktop widths, whichever process answers each request and holds each
socket. (A spectator on another process: ``tests/test_web_servers.py``.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_servers import Server

from tests.browser.seats import MovePosts, get_state
from tests.browser.test_play_in_browser import (
    DESKTOP,
    PHONE,
    _play_by_rapid_clicks,
    start_from_form,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = Server(f"sqlite:///{tmp_path_factory.mktemp('workers') / 'games.db'}",
                    "--workers", "2")
    try:
        yield server.base
    finally:
        server.stop()


def test_a_game_by_clicks_on_two_server_processes(
        browser: Any, workers: str, screenshots: Path) -> None:
    pages, ids, contexts = [], [], []
    errors: list[str] = []
    posts = MovePosts()
    for width, height in (PHONE, DESKTOP):
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale="en-GB")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        posts.watch(page)
        ids.append(start_from_form(page, workers, "random"))
        pages.append(page)
    try:
        _play_by_rapid_clicks(pages, ids)
        assert not posts.refusals, f"moves the page offered were refused: {posts.refusals}"
        for page, game_id in zip(pages, ids, strict=True):
            assert page.locator("#result:not([hidden])").count() == 1
            # a whole game by clicks: the server's record is over, and each of Black's
            # moves in it is one click the server took. No fixed count of clicks: a game
            # against Random may end early, and a click that raised after it went in
            # was not counted (a CI run failed a fixed "at least 20" on 19)
            state = get_state(page, workers, game_id)
            assert state["phase"] == "over", game_id
            assert state["first_colour"] == "black"
            black = [m for i, m in enumerate(state["moves"]) if i % 2 == 0 and m != "pass"]
            assert len(black) >= 2
            assert posts.accepted.get(game_id, 0) == len(black), (game_id, state["moves"])
        assert not errors, f"JavaScript errors: {errors}"
        pages[0].screenshot(path=str(screenshots / "workers-phone.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
