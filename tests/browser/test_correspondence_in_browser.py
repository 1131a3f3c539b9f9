"""A correspondence game in chromium (issue 67): two people in two browsers, days per
move chosen on the new-game form; each page says whose move it is, the days left and the
deadline in the viewer's time, and marks the tab title while it is theirs; a move reaches
the other browser live; the server is stopped and a new one started on the same database
(the same address): the game is still there, and the other side plays on. At phone
width in Japanese, at desktop width in English.

The test runs its own server (the session's live server cannot be restarted)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_emoji_symbols, no_sideways_scroll
from tests.browser.conftest import _free_port

pytestmark = pytest.mark.browser
LIVE = 10_000  # ms for a change to reach the other browser (a restart: its socket reconnects)


class Restartable:
    """A uvicorn server on one port and one SQLite file, stopped and started again."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        import uvicorn

        from hasamigo.web import Settings, create_app
        from hasamigo.web.app import UVICORN_WS

        app = create_app(Settings(warm_engine=False, games_per_minute=500),
                         db_url=f"sqlite:///{self.db}")
        self._server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                     log_level="warning", ws=UVICORN_WS))
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 60
        while not self._server.started:
            assert time.monotonic() < deadline and self._thread.is_alive(), \
                "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(20)
            assert not self._thread.is_alive(), "the server did not stop"
            self._server = self._thread = None


@pytest.fixture
def server(tmp_path: Path, browser: Any) -> Iterator[Restartable]:
    running = Restartable(tmp_path / "correspondence.db")
    running.start()
    yield running
    running.stop()


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _page(browser: Any, base: str, width: int, height: int, lang: str,
          errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  locale="en-GB" if lang == "en" else "ja-JP",
                                  timezone_id="Asia/Tokyo" if lang == "ja" else "Europe/London")
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    return page


def _click(page: Any, square: str) -> None:
    page.wait_for_selector(f".square.legal[data-square={square}]", timeout=LIVE)
    page.locator(f".square.legal[data-square={square}]").click()


def test_a_correspondence_game_survives_a_server_restart(
        server: Restartable, browser: Any, screenshots: Path) -> None:
    expect = _expect()
    errors: list[str] = []
    base = server.base
    # Black, at a desktop, in English, makes the game on the form: two browsers, 2 days
    black = _page(browser, base, 1280, 900, "en", errors)
    black.goto(base + "/")
    black.locator("input[name=opponent][value=person]").check(force=True)
    expect(black.locator("#clock-days")).to_be_hidden()  # one screen: no days per move
    black.locator("input[name=same_screen][value='0']").check(force=True)
    expect(black.locator("#clock-days")).to_be_visible()
    black.locator("input[name=clock][value=days]").check(force=True)
    black.fill("#days-per-move", "2")
    black.click("#start-game")
    black.wait_for_url("**/games/*")
    game_id = re.search(r"/games/([0-9a-f]+)$", black.url).group(1)  # type: ignore[union-attr]
    invite = black.locator("#invite-url")
    expect(invite).to_have_value(re.compile(rf"/games/{game_id}/join\?code=."))
    expect(black.locator("#deadline")).to_be_hidden()  # no turn runs until White is here
    link = invite.input_value()

    # White, on a phone, in Japanese, joins by the link: Black's turn begins
    white = _page(browser, base, 390, 844, "ja", errors)
    white.goto(link)
    white.wait_for_url(f"{base}/games/{game_id}")
    expect(white.locator("#deadline")).to_contain_text("の手番 — 残り2日", timeout=LIVE)
    expect(white.locator("#deadline")).to_contain_text("通信対局：1手2日")
    expect(black.locator("#deadline")).to_contain_text("Your move — 2 days left",
                                                         timeout=LIVE)
    expect(black.locator("#deadline")).to_contain_text("deadline ")
    expect(black).to_have_title(re.compile(r"^» Your move · "))
    assert not white.title().startswith("»")
    # the deadline in each viewer's own time: two days after the join, in London and Tokyo
    state = black.request.get(f"{base}/api/games/{game_id}",
                              headers={"Authorization": "Bearer " + black.evaluate(
                                  f"localStorage.getItem('hasamigo:seat:{game_id}')")}).json()
    assert state["clock"] is None and state["days_per_move"] == 2
    assert abs(state["deadline"] - (time.time() + 2 * 86400)) < 120
    shown = black.locator("#deadline .deadline-when").get_attribute("title")
    assert shown is not None and abs(
        time.mktime(time.strptime(shown[:19], "%Y-%m-%dT%H:%M:%S")) - time.mktime(
            time.gmtime(state["deadline"]))) < 2
    black.screenshot(path=str(screenshots / "correspondence-desktop.png"), full_page=True)

    # Black moves: White's page hears it live, its title is marked
    _click(black, "f5")
    expect(white.locator("#deadline")).to_contain_text("あなたの手番です — 残り2日",
                                                         timeout=LIVE)
    expect(white).to_have_title(re.compile(r"^» あなたの番です · "))
    expect(black).not_to_have_title(re.compile(r"^»"))
    expect(black.locator("#deadline")).to_contain_text("to move — 2 days left")
    no_sideways_scroll(white, "correspondence game at 390 px")
    no_sideways_scroll(black, "correspondence game at 1280 px")
    no_emoji_symbols(white)
    white.screenshot(path=str(screenshots / "correspondence-phone-ja.png"), full_page=True)

    # the server goes down and a new one starts on the same database
    server.stop()
    server.start()
    white.reload()
    expect(white.locator("#moves li")).to_have_count(1, timeout=LIVE)
    expect(white.locator("#deadline")).to_contain_text("あなたの手番です — 残り", timeout=LIVE)
    _click(white, "d6")
    expect(black.locator("#moves li")).to_have_count(2, timeout=LIVE)  # reconnected, live
    expect(black.locator("#deadline")).to_contain_text("Your move — 2 days left",
                                                         timeout=LIVE)
    expect(black).to_have_title(re.compile(r"^» Your move · "))
    for page in (black, white):
        page.context.close()
    assert not errors, f"JavaScript errors: {errors}"
