"""First contact on a fresh machine (issue 50): ``hasamigo serve`` on an empty kernel cache.

The server compiles its kernels in tiers (``rules``, ``players``, ``engine``: minutes for
the last one): Random and the paper's Victory program must reply within 10 s of the
address being printed, while an engine game waits, its clock untouched, and hints answer
503 with an estimate. The engine's compile runs in a subprocess of the server for minutes:
the test stops the server (which ends it) as soon as it has seen what it came for.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.test_startup import Server

#: the issue's bound: a program that needs no engine replies within this many seconds of
#: the address line
REPLY_SECONDS = 10.0


def call(method: str, url: str, body: dict[str, Any] | None = None,
         token: str | None = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc; none elsewhere)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
        except (OSError, IndexError):
            return True
        if state == "Z":  # ended, not yet reaped by its parent
            return True
        time.sleep(0.1)
    return False


def test_a_cold_serve_plays_random_and_victory_at_once_while_the_engine_waits_unclocked(
        tmp_path: Path) -> None:
    server = Server(tmp_path, {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")})
    compilers: list[int] = []
    try:
        base = server.address(timeout=300)
        # What is measured: from the address line (the server accepts connections) to each
        # program's first reply showing in its game, the games' creation included. On a
        # machine busier than its cores (CI running other jobs) the bound grows with the
        # load average per core, at most threefold.
        start = time.monotonic()
        load = os.getloadavg()[0] / max(1, os.cpu_count() or 1)
        bound = REPLY_SECONDS * min(3.0, max(1.0, load))
        games = {}
        for opponent in ("random", "victory", "engine"):
            body = {"opponent": opponent, "colour": "white", "clock_minutes": 10, "level": 3}
            code, game = call("POST", base + "/api/games", body)
            assert code == 201, game
            games[opponent] = (f"{base}/api/games/{game['id']}", game["seat_token"])
        replied: dict[str, float] = {}
        while len(replied) < 2 and time.monotonic() - start < 3 * bound:
            for opponent in ("random", "victory"):
                url, token = games[opponent]
                if opponent not in replied and call("GET", url, token=token)[1]["moves"]:
                    replied[opponent] = time.monotonic() - start
            time.sleep(0.05)
        assert set(replied) == {"random", "victory"}, f"no reply in {3 * bound:.0f} s"
        assert max(replied.values()) <= bound, (replied, f"load {load:.2f}")

        # the engine's game waits for its kernels, and its clock with it
        url, token = games["engine"]
        code, view = call("GET", url, token=token)
        assert view["moves"] == [] and view["programs_waiting"] == ["black"]
        assert "engine" in view["waiting_for"]
        assert (view["clock"]["black"], view["clock"]["running"]) == (600.0, None)
        code, status = call("GET", base + "/api/status")
        engine = status["groups"]["engine"]
        assert status["engine"] == "warming" and engine["state"] in ("compiling", "waiting")
        assert engine["seconds_left"] > 0
        assert status["groups"]["wide"]["state"] == "idle"  # not at start-up
        code, refused = call("GET", url + "/hints", token=token)
        assert code == 503 and refused["error"]["code"] == "busy"
        assert "about" in refused["error"]["message"]
        time.sleep(2)
        code, view = call("GET", url, token=token)
        assert view["clock"]["black"] == 600.0 and view["moves"] == []
        compilers = children(server.proc.pid)
    finally:
        server.stop()
    # the compile of the engine (minutes of CPU) ended with the server
    assert all(gone(pid, 30) for pid in compilers), compilers
