"""``hasamigo serve --workers 2`` in the browser: a person plays a whole game by clicks,
at phone and desktop widths, whichever process answers each request and holds each
socket. (A spectator on another process: ``tests/test_web_servers.py``.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_servers import Server

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
    for width, height in (PHONE, DESKTOP):
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale="en-GB")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        ids.append(start_from_form(page, workers, "random"))
        pages.append(page)
    try:
        clicks = _play_by_rapid_clicks(pages, ids)
        for page, game_id in zip(pages, ids, strict=True):
            assert clicks[game_id] >= 20  # a whole game: every move the page offered went in
            assert page.locator("#result:not([hidden])").count() == 1
        assert not errors, f"JavaScript errors: {errors}"
        pages[0].screenshot(path=str(screenshots / "workers-phone.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
