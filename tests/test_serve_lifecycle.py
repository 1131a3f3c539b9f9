"""A real ``hasamigo serve`` and its compute pool's worker processes (issue 65): the workers
start, prepared for the study's report, once the engine is ready; they end with a server
killed by ``kill -9`` (none is left behind); a server stopped by ``SIGTERM`` leaves no
semaphore to the resource tracker; and of two servers racing for one port, the loser says
so in one line.

The server runs on the warm kernel cache (as ``test_startup.py``'s default run); its
processes are read from ``/proc`` (Linux)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hasamigo.web.services.analysis import compile_kernels

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="reads the server's processes from /proc")

#: how long the workers may take to start (once the engine is ready) or to end
BOUND = 120.0


class Serve:
    """``hasamigo serve`` in a subprocess; its standard output and error read as they come
    (the error until every process holding it has closed it: the workers and the resource
    tracker inherit it)."""

    def __init__(self, tmp_path: Path, port: int = 0) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hasamigo", "serve", "--port", str(port),
             "--db", f"sqlite:///{tmp_path / 'games.db'}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"})
        self.out: list[str] = []
        self.err: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers = [threading.Thread(target=self._pump, args=(stream, sink), daemon=True)
                         for stream, sink in ((self.proc.stdout, self.out),
                                              (self.proc.stderr, self.err))]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _pump(stream: Any, sink: list[str]) -> None:
        for line in stream:
            sink.append(line.rstrip("\n"))

    def address(self) -> str | None:
        """The printed address, once it is; ``None`` if the server exits first."""
        deadline = time.monotonic() + BOUND
        while time.monotonic() < deadline:
            for line in list(self.out):
                if "open http://" in line:
                    return line.split("open ", 1)[1].split()[0].rstrip("/")
            if self.proc.poll() is not None and not self._readers[0].is_alive():
                return None
            time.sleep(0.05)
        raise AssertionError(f"no address printed in {BOUND} s: {self.err}")

    def output_ended(self) -> None:
        """Wait until no process writes to the server's output any more."""
        for reader in self._readers:
            reader.join(BOUND)
            assert not reader.is_alive(), "a process of the server still holds its output"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Serve]]:
    compile_kernels()  # the default cache (compiles only on a machine's very first run)
    started: list[Serve] = []

    def start(port: int = 0) -> Serve:
        server = Serve(tmp_path, port)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


# ---- the processes --------------------------------------------------------------------
def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent, or ``None`` if there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def _alive(pid: int) -> bool:
    found = _stat(pid)
    return found is not None and found[0] != "Z"  # a zombie has ended


def _children(pid: int) -> dict[int, str]:
    """The living children of ``pid`` and their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(int(entry.name))
        if stat is None or stat[1] != pid or stat[0] == "Z":
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        found[int(entry.name)] = command
    return found


def _workers(pid: int) -> list[int]:
    """The compute pool's workers of the server ``pid`` (processes started by spawn)."""
    return [child for child, command in _children(pid).items()
            if "spawn_main" in command and "resource_tracker" not in command]


def _eventually(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {BOUND} s")


def _engine_ready(base: str) -> bool:
    with urllib.request.urlopen(base + "/api/status", timeout=30) as response:
        return bool(json.load(response)["engine"] == "ready")


def _started_workers(server: Serve) -> tuple[list[int], list[int]]:
    """The workers the server started once its engine was ready (no request asked for
    them), and every process it started."""
    base = server.address()
    assert base is not None, server.err
    _eventually(lambda: _engine_ready(base), "the engine ready")
    workers = _eventually(lambda: _workers(server.proc.pid), "the compute workers started")
    return workers, list(_children(server.proc.pid))


# ---- the tests ------------------------------------------------------------------------
def test_kill_9_of_the_server_leaves_none_of_its_workers(serve: Callable[..., Serve]) -> None:
    server = serve()
    workers, children = _started_workers(server)
    server.proc.kill()
    server.proc.wait()
    _eventually(lambda: not any(_alive(pid) for pid in children),
                f"the server's processes {children} (workers {workers}) ended")


def test_sigterm_stops_the_workers_and_leaks_no_semaphore(
        serve: Callable[..., Serve]) -> None:
    server = serve()
    base = server.address()
    assert base is not None, server.err
    # a report drawn in the pool: its queues are in use
    request = urllib.request.Request(
        base + "/api/studies", method="POST", headers={"Content-Type": "application/json"},
        data=json.dumps({"name": "Pilot", "password": "research-pw"}).encode())
    with urllib.request.urlopen(request, timeout=60) as response:
        made = json.load(response)
    # the token: at the top of the reply, or in its "session" (the login replies' shape)
    study, token = made["study"]["id"], (made.get("session") or made)["token"]
    report = urllib.request.Request(base + f"/api/studies/{study}/report",
                                    headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(report, timeout=BOUND) as response:
        assert response.status == 200 and b"<html" in response.read().lower()
    workers, children = _started_workers(server)
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(BOUND)
    server.output_ended()  # none of its processes writes any more...
    # ...and each has ended: a process closes its files a moment before it is a zombie
    # (CI once saw one still exiting, the pool's resource tracker most likely)
    _eventually(lambda: not any(_alive(pid) for pid in children),
                f"the server's processes {children} (workers {workers}) ended")
    assert not any("leaked semaphore" in line for line in server.err), server.err
    assert not any("Traceback" in line for line in server.err), server.err


def test_of_two_servers_racing_for_a_port_the_loser_says_so_in_one_line(
        serve: Callable[..., Serve]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    first, second = serve(port), serve(port)  # started at once: both before either listens
    addresses = [first.address(), second.address()]
    assert sorted(a is None for a in addresses) == [False, True], (addresses, first.err,
                                                                   second.err)
    loser = (first, second)[addresses.index(None)]
    assert loser.proc.wait(BOUND) == 2
    loser.output_ended()
    said = [line for line in loser.err + loser.out if line.strip()]
    assert len(said) == 1 and f"port {port} on 127.0.0.1 is already in use" in said[0], said


def test_the_bound_port_is_held_against_a_server_racing_for_it() -> None:
    """Linux lets two sockets with ``SO_REUSEADDR`` bind one port while neither listens:
    ``serve``'s socket listens at once, so the racer's listen fails, not the server's."""
    from hasamigo.cli.web import bind

    with socket.socket() as racer:
        racer.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        racer.bind(("127.0.0.1", 0))
        port = racer.getsockname()[1]
        held = bind("127.0.0.1", port)
        try:
            with pytest.raises(OSError):
                racer.listen()
        finally:
            held.close()
