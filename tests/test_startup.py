"""Start-up: the server answers as soon as it prints its address, and only the engine waits.

``hasamigo serve`` runs as a subprocess on a free port; after the address line every
request must connect (none refused), pages answer at once and ``/api/status`` goes from
``warming`` to ``ready``. With a fresh numba cache directory the engine compiles first
(slow: marked so); the default run starts on the warm cache. In-process, an injected
slow compile of the engine shows what waits: hints answer 503 ``busy`` and the engine's
programs hold their moves, while Random plays (``test_first_contact.py`` has the rest).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hasamigo import Board, Move
from hasamigo.game.clock import Clock
from hasamigo.web import Settings, create_app
from hasamigo.web.services.analysis import WARMING, compile_kernels


# ---- the live server ------------------------------------------------------------------------
class Server:
    """``hasamigo serve --port 0`` in a subprocess; its output lines collected as they come."""

    def __init__(self, tmp_path: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hasamigo", "serve", "--port", "0",
             "--db", f"sqlite:///{tmp_path / 'games.db'}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**env, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"})
        self.out: queue.Queue[str] = queue.Queue()
        self.err: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.out.put),
                         daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.err.append),
                         daemon=True).start()

    @staticmethod
    def _pump(stream: Any, sink: Any) -> None:
        for line in stream:
            sink(line.rstrip("\n"))

    def address(self, timeout: float = 120.0) -> str:
        """The printed address, as soon as its line appears."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.out.get(timeout=0.05)
            except queue.Empty:
                assert self.proc.poll() is None, f"the server exited: {self.err}"
                continue
            if "open http://" in line:
                return line.split("open ", 1)[1].split()[0].rstrip("/")
        raise AssertionError(f"no address printed in {timeout} s: {self.err}")

    def stderr_has(self, text: str, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in self.err):
                return True
            time.sleep(0.05)
        return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def fetch(url: str) -> tuple[int, bytes]:
    """Status and body; a refused connection fails the test with its URL."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, ConnectionRefusedError):
            raise AssertionError(f"connection refused after the address was printed: {url}"
                                 ) from exc
        raise


def engine_state(base: str) -> dict[str, Any]:
    code, body = fetch(base + "/api/status")
    assert code == 200, body
    state: dict[str, Any] = json.loads(body)
    assert set(state) == {"engine", "seconds", "groups", "engine_threads"}
    assert state["engine"] in ("ready", "warming")
    return state


def follow_until_ready(base: str, timeout: float) -> int:
    """Poll the status (and a page) until the engine is ready; returns the requests made.
    Every one must connect and answer."""
    deadline = time.monotonic() + timeout
    requests = 0
    while time.monotonic() < deadline:
        state = engine_state(base)
        requests += 1
        if state["engine"] == "ready":
            return requests
        if requests % 4 == 0:
            assert fetch(base + "/")[0] == 200
            requests += 1
        time.sleep(0.25)
    raise AssertionError(f"the engine was not ready after {timeout} s")


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Any]:
    servers: list[Server] = []

    def start(env: dict[str, str]) -> Server:
        server = Server(tmp_path, env)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.mark.slow
def test_serve_on_a_cold_cache_answers_at_once_and_compiles_behind(
        tmp_path: Path, server_factory: Any) -> None:
    cache = tmp_path / "numba"
    server = server_factory({**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    base = server.address()
    # polled right after the line appears: the page and the status answer at once
    assert fetch(base + "/")[0] == 200
    assert engine_state(base)["engine"] == "warming"
    assert server.stderr_has("compiling the engine, first run only")
    follow_until_ready(base, timeout=900)
    assert server.stderr_has("engine ready: compiled in")
    assert engine_state(base)["seconds"] > 0
    assert any(cache.rglob("*.nbi")), "the compile did not fill the cache"
    assert fetch(base + "/")[0] == 200


def test_serve_on_a_warm_cache_is_ready_and_quiet(tmp_path: Path, server_factory: Any) -> None:
    compile_kernels()  # the default cache (compiles only on a machine's very first run)
    server = server_factory(dict(os.environ))
    base = server.address()
    assert fetch(base + "/")[0] == 200
    follow_until_ready(base, timeout=300)
    assert not any("compiling" in line for line in server.err), server.err


# ---- what waits for the engine (in-process, a slow warm-up injected) -------------------
class FirstLegal:
    def choose(self, board: Board, clock: Clock | None = None) -> Move:
        return next(iter(board.legal_moves))


def test_hints_are_busy_and_programs_wait_while_the_engine_warms(tmp_path: Path) -> None:
    release = threading.Event()

    def slow_compile(groups: list[str], emit: Any) -> None:  # as long as the test wants
        for group in groups:
            if group == "engine":
                release.wait(60)
            emit({"event": "done", "group": group, "seconds": 0.1, "cpu": 0.1})

    app = create_app(Settings(warm_engine=True, warm_in_background=True, tick_seconds=3600),
                     db_url=f"sqlite:///{tmp_path / 'games.db'}",
                     player_factory=lambda spec, seed: FirstLegal(),
                     engine_warmup=slow_compile)
    with TestClient(app) as client:
        assert client.get("/api/status").json()["engine"] == "warming"
        assert client.get("/").status_code == 200  # pages do not wait
        created = client.post("/api/games", json={"opponent": "engine", "level": 2,
                                                  "colour": "white"})
        assert created.status_code == 201
        game = created.json()
        auth = {"Authorization": f"Bearer {game['seat_token']}"}
        url = f"/api/games/{game['id']}"
        hints = client.get(url + "/hints", headers=auth)
        assert hints.status_code == 503
        assert hints.json()["error"]["code"] == "busy"
        assert hints.json()["error"]["message"].startswith(WARMING)
        assert client.get(url + "/evaluations", headers=auth).status_code == 503
        time.sleep(0.3)
        view = client.get(url, headers=auth).json()
        assert view["moves"] == [] and view["programs_waiting"] == ["black"]  # it waits

        release.set()
        deadline = time.monotonic() + 30
        while client.get("/api/status").json()["engine"] != "ready":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        while not client.get(url, headers=auth).json()["moves"]:
            assert time.monotonic() < deadline, "the program did not move once ready"
            time.sleep(0.02)
        assert client.get(url + "/hints", headers=auth).status_code == 200
        state = client.get("/api/status").json()
        assert state["engine"] == "ready" and state["seconds"] >= 0.3


def test_without_warm_up_the_engine_is_ready_at_once(tmp_path: Path) -> None:
    app = create_app(Settings(warm_engine=False), db_url=f"sqlite:///{tmp_path / 'g.db'}")
    with TestClient(app) as client:
        state = client.get("/api/status").json()
        assert (state["engine"], state["seconds"]) == ("ready", 0.0)
        assert {g["state"] for g in state["groups"].values()} == {"ready"}
