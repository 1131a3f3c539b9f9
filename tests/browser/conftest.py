"""Browser tests: a live uvicorn server on a free loopback port and Debian's chromium
driven by Python Playwright (``playwright install`` cannot download browsers here).

Skipped, with the reason, when /usr/bin/chromium or Playwright is missing. Screenshots go
to ``test-output/screenshots/`` (gitignored)."""

from __future__ import annotations

import os
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


def _player_factory() -> Any:
    """The engine package's registry when it is there; else a seeded random stand-in."""
    try:
        from hasamigo.engine.players import make_player  # noqa: F401
    except ImportError:
        class RandomStandIn:
            def __init__(self, seed: int) -> None:
                self.rng = random.Random(seed)

            def choose(self, board: Any, clock: Any = None) -> Any:
                return self.rng.choice(list(board.legal_moves))

        return lambda spec, seed: RandomStandIn(seed)
    from hasamigo.web.services.players import registry_factory

    return registry_factory


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # CI sets HASAMIGO_REQUIRE_BROWSER=1: there a missing browser is a failure, not a skip.
    missing = pytest.fail if os.environ.get("HASAMIGO_REQUIRE_BROWSER") else pytest.skip
    if not CHROMIUM.exists():
        missing("browser tests need Debian's chromium at /usr/bin/chromium "
                "(apt-get install chromium)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing("browser tests need the playwright package (pip install -e '.[dev]')")
    import uvicorn

    from hasamigo.web import Settings, create_app
    from hasamigo.web.app import UVICORN_WS

    db = tmp_path_factory.mktemp("web") / "browser.db"
    # one address (loopback) makes every test's games: more than a person's 20 a minute;
    # reviews search 4 plies and solve 10 empties (seconds a game, not minutes)
    app = create_app(Settings(warm_engine=True, games_per_minute=500, review_depth=4,
                              review_exact_empties=10),
                     db_url=f"sqlite:///{db}", player_factory=_player_factory())
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws=UVICORN_WS))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 180  # kernels load (or compile) first
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the live server did not start")
        time.sleep(0.05)
    _settled(app, port)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def _settled(app: Any, port: int) -> None:
    """Wait until the server's start-up work is over: the engine warmed (kernels loaded),
    then the compute pool's workers started and prepared (each imports the report's
    modules). The tests measure pages, not a start-up that takes both cores for seconds
    (the first tests of a worker met 30-second page loads on CI's busy 2 cores)."""
    import httpx2

    from hasamigo.web.state import services_of

    deadline = time.monotonic() + 300
    while httpx2.get(f"http://127.0.0.1:{port}/api/status").json()["engine"] != "ready":
        if time.monotonic() > deadline:
            pytest.fail("the live server's engine did not get ready")
        time.sleep(0.2)
    services = services_of(app)
    assert services is not None
    # as many half-second tasks at once as there are workers: each runs on a worker of
    # its own, once that worker is prepared
    from concurrent.futures import ThreadPoolExecutor

    workers = services.compute.workers
    with ThreadPoolExecutor(workers) as waiting:
        list(waiting.map(lambda _: services.compute.call(time.sleep, 0.5), range(workers)))


@pytest.fixture(scope="session")
def browser(live_server: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def new_page(browser: Any, live_server: str) -> Iterator[Callable[..., Any]]:
    """Pages in separate browser contexts (separate browsers, as far as the app can tell:
    each has its own localStorage and cookies). ``new_page(width=, height=, lang=)``; every
    page must end without a JavaScript error."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 900, lang: str | None = None) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale="en-GB")
        if lang is not None:
            context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
