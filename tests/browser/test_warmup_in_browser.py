"""A fresh server's first minutes in chromium (issue 50): a program whose kernels are still
compiling shows a progress bar saying what compiles and about how long is left, not "is
thinking", at phone and desktop widths, in English and Japanese; Random plays meanwhile;
the engine's move comes once its kernels are in. The same on a study subject's page.

Each test runs its own server whose compile is stood in for (``create_app(engine_warmup=
…)``): a function the test releases group by group, telling the progress as the real one
does (``python -m hasamigo._kernels.warm --progress``); the kernels themselves load from
the warm cache.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.checks import no_sideways_scroll
from tests.browser.conftest import _free_port
from tests.browser.seats import create_game

pytestmark = pytest.mark.browser
PHONE, DESKTOP = (390, 844), (1280, 900)
GROUPS = ("rules", "players", "engine", "wide-rules", "wide", "smallboard")


class Compile:
    """The compile of the groups asked for, each held until the test releases it; while
    the engine's is held it reports its endgame solver compiling, ten CPU seconds a second."""

    def __init__(self) -> None:
        self.gates = {g: threading.Event() for g in GROUPS}

    def release(self, *groups: str) -> None:
        for group in groups:
            self.gates[group].set()

    def __call__(self, groups: list[str], emit: Callable[[dict[str, Any]], None]) -> None:
        cpu = 1.0
        for group in groups:
            if group == "engine":
                emit({"event": "compiling", "group": group, "kernel": "search.search",
                      "cpu": cpu})
                emit({"event": "compiling", "group": group, "kernel": "endgame.solve3",
                      "cpu": cpu})
            began = time.monotonic()
            while not self.gates[group].wait(0.2):
                emit({"event": "tick", "cpu": cpu + 10 * (time.monotonic() - began)})
            cpu += 10 * (time.monotonic() - began) + 0.5
            emit({"event": "done", "group": group, "seconds": 1.0, "cpu": cpu})


@pytest.fixture
def fresh_server(tmp_path: Path, browser: Any) -> Iterator[tuple[str, Compile]]:
    """A server as on its first run: its kernels compile (as slowly as the test wants)."""
    import uvicorn

    from hasamigo.web import Settings, create_app
    from hasamigo.web.app import UVICORN_WS

    compile_ = Compile()
    app = create_app(Settings(warm_engine=True, warm_in_background=True, games_per_minute=500),
                     db_url=f"sqlite:///{tmp_path / 'fresh.db'}", engine_warmup=compile_)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws=UVICORN_WS))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", compile_
    compile_.release(*GROUPS)
    server.should_exit = True
    thread.join(10)


def moves_shown(page: Any) -> int:
    count: int = page.locator("#moves li").count()
    return count


def test_a_program_waiting_for_its_kernels_shows_what_compiles_and_the_time_left(
        fresh_server: tuple[str, Compile], new_page: Callable[..., Any],
        screenshots: Path) -> None:
    base, compile_ = fresh_server
    compile_.release("rules", "players")
    for (width, height), lang in ((PHONE, "en"), (DESKTOP, "en"), (PHONE, "ja")):
        page = new_page(width, height, lang=lang)
        page.goto(base + "/")
        # Random plays at once, the engine is still compiling
        played = create_game(page, base, opponent="random", colour="white", clock_minutes=5)
        page.goto(f"{base}/games/{played['id']}")
        page.wait_for_function("document.querySelectorAll('#moves li').length >= 1")
        assert page.locator("#engine-note").is_hidden()

        waiting = create_game(page, base, opponent="engine", level=3, colour="white",
                              clock_minutes=5)
        assert waiting["programs_waiting"] == ["black"]
        page.goto(f"{base}/games/{waiting['id']}")
        note = page.locator("#engine-note")
        note.wait_for(state="visible")
        page.wait_for_function(
            "Number(document.querySelector('#engine-note progress').value) > 0.02")
        text = note.locator("[data-warmup=text]").inner_text()
        status = page.locator("#status").inner_text()
        if lang == "en":
            assert text.startswith("Getting the engine ready (first run only): compiling "
                                   "the endgame solver…"), text
            assert "left" in text and "is getting ready" in status, status
            assert "does not run until it can move" in note.inner_text()
        else:
            assert "終盤ソルバーをコンパイル中" in text and "あと約" in text, text
            assert "準備中" in status, status
        assert "thinking" not in status and "考えています" not in status
        assert moves_shown(page) == 0
        # the waiting program's clock does not run
        clock = page.locator("[data-clock=black]").inner_text()
        page.wait_for_timeout(1500)
        assert page.locator("[data-clock=black]").inner_text() == clock == "5:00"
        no_sideways_scroll(page, f"waiting {width} {lang}")
        page.screenshot(path=str(screenshots / f"warmup-engine-{width}-{lang}.png"),
                        full_page=True)

    compile_.release("engine")
    page.locator("#engine-note").wait_for(state="hidden", timeout=30_000)
    page.wait_for_function("document.querySelectorAll('#moves li').length >= 1",
                           timeout=30_000)
    assert "準備中" not in page.locator("#status").inner_text()


def test_an_official_game_and_a_study_game_begin_once_the_program_can_move(
        fresh_server: tuple[str, Compile], new_page: Callable[..., Any],
        screenshots: Path) -> None:
    base, compile_ = fresh_server
    compile_.release("rules")  # the paper's programs (the study's) are still compiling
    page = new_page(*DESKTOP, lang="en")
    page.goto(base + "/")
    official = create_game(page, base, opponent="victory", colour="black", casual=False,
                           clock_minutes=5)
    page.goto(f"{base}/games/{official['id']}")
    page.locator("#engine-note").wait_for(state="visible")
    assert page.locator("#status").inner_text().startswith("The game begins once")
    assert "neither clock runs" in page.locator("#engine-note").inner_text()
    assert page.locator(".square.legal").count() == 0  # no move before it begins
    page.wait_for_timeout(500)  # the notice's entrance animation
    page.screenshot(path=str(screenshots / "warmup-official-1280.png"), full_page=True)

    researcher = new_page(*PHONE, lang="en")
    researcher.goto(f"{base}/studies")
    researcher.fill("#study-name", "First run")
    researcher.fill("#study-password", "research-pw")
    researcher.locator("#new-study button[type=submit]").click()
    researcher.wait_for_url("**/research")
    study = researcher.url.rstrip("/").split("/")[-2]
    subject = new_page(*PHONE, lang="en")
    subject.goto(f"{base}/studies/{study}")
    subject.click("#start")
    subject.wait_for_selector("[data-step=consent]:not([hidden])")
    subject.click("#consent")
    subject.wait_for_selector("#before:not([hidden])")
    subject.check("input[name=strength][value='2']")
    subject.locator("#before button[type=submit]").click()
    subject.wait_for_selector("#start-game:visible")
    subject.click("#start-game")
    subject.wait_for_selector("#play:not([hidden])")
    box = subject.locator("#warmup")
    box.wait_for(state="visible")
    text = box.inner_text()
    assert "Getting the program ready (first run only)" in text, text  # not named
    assert "Victory" not in text and "Amusement" not in text
    assert subject.locator(".study-cell.legal").count() == 0
    no_sideways_scroll(subject, "study waiting 390")
    subject.wait_for_timeout(500)  # the notice's entrance animation
    subject.screenshot(path=str(screenshots / "warmup-study-390.png"), full_page=True)

    compile_.release("players")
    box.wait_for(state="hidden", timeout=30_000)
    page.locator("#engine-note").wait_for(state="hidden", timeout=30_000)
    page.wait_for_selector(".square.legal", timeout=30_000)  # the official game began
