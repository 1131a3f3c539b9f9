"""Two real ``hasamigo serve`` processes on one database (issue 20): a spectator connected
to one sees, live, the moves sent to the other; killing the process that runs a game hands
it to the other with no event lost and the clock right.

On SQLite (a file's datagrams on Linux, polling elsewhere) and, when
``HASAMIGO_TEST_POSTGRES`` holds a URL, on PostgreSQL (``LISTEN``/``NOTIFY``)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from test_storage_migration import BACKENDS, scratch_url
from test_web_api import eventually
from websockets.sync.client import connect

from hasamigo.storage import Database, GameRepository

TAKEOVER = 2.0  # --takeover-seconds: a dead process's games move on this soon


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with scratch_url(request.param, tmp_path) as found:
        yield found


class Server:
    """``hasamigo serve --port 0`` in a process of its own; its address read from what it
    prints."""

    def __init__(self, url: str, *options: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hasamigo", "serve", "--port", "0", "--db", url,
             "--takeover-seconds", str(TAKEOVER), *options],
            env={**os.environ, "COLUMNS": "200"},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            self._started()
        except BaseException:
            self._end()  # a server that did not start is not left behind
            raise

    def _started(self) -> None:
        self.base = ""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 120
        for line in self.proc.stdout:
            if "open http://" in line:
                self.base = line.split("open ", 1)[1].split()[0].rstrip("/")
                break
            assert time.monotonic() < deadline, "the server did not start"
        assert self.base, "the server stopped before it answered"
        self.http = httpx2.Client(base_url=self.base, timeout=30)
        # the rest of its output is drained, so that it never blocks on a full pipe
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        # the programs wait for the engine (a first run compiles it: minutes on a busy
        # machine): the game's replies must not
        eventually(lambda: self.http.get("/api/status").json()["engine"] == "ready", 600)

    def stop(self) -> None:
        self.http.close()
        self._end()

    def _end(self) -> None:
        """An orderly stop (``serve --workers`` stops its processes), else a kill."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@contextlib.contextmanager
def spectator(server: Server, game_id: str) -> Iterator[list[dict[str, Any]]]:
    """A read-only websocket on a public game: the list of every state pushed to it."""
    states: list[dict[str, Any]] = []
    address = server.base.replace("http", "ws", 1) + f"/ws/games/{game_id}"
    with connect(address, open_timeout=30) as socket:
        socket.send(json.dumps({"type": "hello", "token": None}))

        def listen() -> None:
            with contextlib.suppress(Exception):  # closed
                for message in socket:
                    data = json.loads(message)
                    if data.get("type") == "state":
                        states.append(data["game"])

        thread = threading.Thread(target=listen, daemon=True)
        thread.start()
        yield states
    thread.join(10)


def test_two_servers_share_games_live_and_take_over_a_dead_ones(
        url: str) -> None:
    a = Server(url)
    try:
        b = Server(url)
        try:
            run_the_game(a, b, url)
        finally:
            b.stop()
    finally:
        a.stop()


def run_the_game(a: Server, b: Server, url: str) -> None:
    made = a.http.post("/api/games", json={"opponent": "random", "colour": "black",
                                           "clock_minutes": 10, "public": True})
    assert made.status_code == 201, made.text
    game_id, token = made.json()["id"], made.json()["seat_token"]
    auth = {"Authorization": f"Bearer {token}"}
    with spectator(b, game_id) as watched:
        # the person plays on A, which runs the program: the spectator on B sees it all
        for _ in range(3):
            legal = a.http.get(f"/api/games/{game_id}", headers=auth).json()["legal"]
            answer = a.http.post(f"/api/games/{game_id}/moves?wait=true",
                                 json={"move": legal[0]}, headers=auth)
            assert answer.status_code == 200, answer.text
        before = answer.json()
        assert len(before["moves"]) == 6 and before["turn"] == "black"
        eventually(lambda: any(s["moves"] == before["moves"] for s in watched), 20)
        shown = [len(s["moves"]) for s in watched]
        assert shown == sorted(shown) and 6 in shown  # in order, up to the last

        a.proc.kill()  # no orderly stop: its lease simply stops being renewed
        a.proc.wait()
        legal = b.http.get(f"/api/games/{game_id}", headers=auth).json()["legal"]
        sent = time.monotonic()
        answer = b.http.post(f"/api/games/{game_id}/moves", json={"move": legal[0]},
                             headers=auth)
        assert answer.status_code == 200, answer.text
        after = eventually(lambda: (v := b.http.get(f"/api/games/{game_id}", headers=auth)
                                    .json())["turn"] == "black" and v, 20)
        waited = time.monotonic() - sent
        # the spectator saw the taken-over program's reply live too
        eventually(lambda: any(s["moves"] == after["moves"] for s in watched), 20)
    # no event lost: the six moves before the kill, the person's, the program's
    assert after["moves"][:6] == before["moves"] and len(after["moves"]) == 8
    assert waited >= TAKEOVER * 0.5  # nobody ran the program until the lease expired
    # the clock: the program is not charged the time nobody ran it
    used_by_program = 600.0 - after["clock"]["white"]
    assert used_by_program < waited - 0.5, (used_by_program, waited)
    db = Database(url)
    try:
        stored = GameRepository(db).load(game_id)
        assert stored is not None
        assert [str(m.move) for m in stored.game.state.moves] == after["moves"]
        kinds = [type(e).__name__ for e in stored.game.events]
        assert kinds.count("Suspend") == kinds.count("Resume") == 1
    finally:
        db.close()


def test_serve_with_two_workers_plays_a_game_whichever_answers(url: str) -> None:
    """``serve --workers 2``: one port, two processes; the kernel picks which one answers
    each request, and every move lands, each program reply comes, once."""
    server = Server(url, "--workers", "2")
    try:
        made = server.http.post("/api/games", json={"opponent": "random", "colour": "black"})
        assert made.status_code == 201, made.text
        game_id, token = made.json()["id"], made.json()["seat_token"]
        auth = {"Authorization": f"Bearer {token}"}
        for ply in range(1, 9):
            view = server.http.get(f"/api/games/{game_id}", headers=auth).json()
            if view["phase"] != "playing" or view["turn"] != "black":
                break
            answer = server.http.post(f"/api/games/{game_id}/moves?wait=true",
                                      json={"move": view["legal"][0]}, headers=auth)
            assert answer.status_code == 200, answer.text
            assert len(answer.json()["moves"]) >= 2 * ply, answer.json()["moves"]
        final = server.http.get(f"/api/games/{game_id}", headers=auth).json()
    finally:
        server.stop()
    assert server.proc.returncode == 0  # an orderly stop of both processes
    db = Database(url)
    try:
        stored = GameRepository(db).load(game_id)
        assert stored is not None
        assert [str(m.move) for m in stored.game.state.moves] == final["moves"]
    finally:
        db.close()
