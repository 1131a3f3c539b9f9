"""Cold and warm start of each command: wall and CPU seconds, and the kernels it compiles.

    .venv/bin/python benchmarks/compile_time.py [--commands serve,analyse,play,perft] [--json]

Each command runs as a subprocess twice on a fresh numba cache directory
(``NUMBA_CACHE_DIR``): *cold* (an empty cache: it compiles what it uses) and *warm* (the
cache the cold run filled). CPU is the children's user + system time, which a shared
machine disturbs less than wall time. For ``serve``, the times run to the engine being
ready (``/api/status``; a server without that endpoint: to the first page it answers),
and ``address`` is when it printed its address. The kernels are the cache's index files
after the cold run (``module.kernel``).

Run it against other sources (say, an older checkout) with ``PYTHONPATH=that/src``: the
subprocesses inherit it.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

COMMANDS = ("serve", "analyse", "play", "perft")


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _hasamigo(*args: str) -> list[str]:
    return [sys.executable, "-m", "hasamigo", *args]


def run_batch(command: str, env: dict[str, str]) -> dict[str, Any]:
    """analyse, play, perft: run to the end."""
    args = {
        "analyse": ("analyse", "f5d6c3", "--depth", "10", "--json"),
        "play": ("play",),
        "perft": ("perft", "8", "--only", "--json"),
    }[command]
    stdin = "f5\nquit\n" if command == "play" else ""
    cpu, start = _cpu(), time.perf_counter()
    proc = subprocess.run(_hasamigo(*args), input=stdin, env=env, capture_output=True,
                          text=True, timeout=1800, check=False)
    row: dict[str, Any] = {"wall": time.perf_counter() - start, "cpu": _cpu() - cpu}
    if command == "analyse":
        try:
            row["search_seconds"] = json.loads(proc.stdout)["seconds"]
        except (ValueError, KeyError):
            row["error"] = proc.stderr[-500:]
    return row


def _get(url: str) -> tuple[int, bytes] | None:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def run_serve(env: dict[str, str], db: Path) -> dict[str, Any]:
    """Start the server on a free port, wait for the engine, stop it."""
    with socket.socket() as probe:  # a free port (older servers printed --port 0 as is)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    cpu, start = _cpu(), time.perf_counter()
    proc = subprocess.Popen(_hasamigo("serve", "--port", str(port), "--db", f"sqlite:///{db}"),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env={**env, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"})
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    stdout = proc.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    row: dict[str, Any] = {}
    try:
        while "open http://" not in lines.get(timeout=1800):
            pass
        row["address"] = time.perf_counter() - start
        refused = 0
        while True:
            status = _get(base + "/api/status")
            if status is None:
                refused += 1
            elif status[0] == 200 and json.loads(status[1])["engine"] == "ready":
                break
            elif status[0] == 404 and _get(base + "/") is not None:
                break  # an older server: ready once it answers at all
            time.sleep(0.1)
        row["wall"] = time.perf_counter() - start
        row["refused_after_address"] = refused
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    row["cpu"] = _cpu() - cpu
    return row


def kernels_in(cache: Path) -> list[str]:
    names = {re.sub(r"-\d+\.py\d+\.nbi$", "", p.name) for p in cache.rglob("*.nbi")}
    return sorted(names)


def measure(command: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hasamigo-compile-") as tmp:
        cache = Path(tmp) / "numba"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
        result: dict[str, Any] = {"command": command}
        for phase in ("cold", "warm"):
            if command == "serve":
                result[phase] = run_serve(env, Path(tmp) / f"{phase}.db")
            else:
                result[phase] = run_batch(command, env)
            if phase == "cold":
                result["kernels"] = kernels_in(cache)
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", default=",".join(COMMANDS),
                        help="comma-separated, from: " + ", ".join(COMMANDS))
    parser.add_argument("--json", action="store_true", help="print JSON rows")
    options = parser.parse_args()
    commands = [c.strip() for c in options.commands.split(",") if c.strip()]
    unknown = set(commands) - set(COMMANDS)
    if unknown:
        parser.error(f"unknown command(s): {', '.join(sorted(unknown))}")
    rows = []
    if not options.json:
        print(f"{'command':8} {'cold wall':>10} {'cold CPU':>9} {'warm wall':>10} "
              f"{'warm CPU':>9}  notes", flush=True)
    for command in commands:
        row = measure(command)
        rows.append(row)
        if options.json:
            continue
        cold, warm = row["cold"], row["warm"]
        notes = []
        if "address" in cold:
            notes.append(f"address printed at {cold['address']:.1f} s cold, "
                         f"{warm['address']:.1f} s warm; "
                         f"{cold['refused_after_address']} refused after it")
        if "search_seconds" in cold:
            notes.append(f"reported search time {cold['search_seconds']:.2f} s cold, "
                         f"{warm['search_seconds']:.2f} s warm")
        notes.append(f"{len(row['kernels'])} kernels: {', '.join(row['kernels'])}")
        print(f"{command:8} {cold['wall']:9.1f}s {cold['cpu']:8.1f}s {warm['wall']:9.1f}s "
              f"{warm['cpu']:8.1f}s  " + "; ".join(notes), flush=True)
    if options.json:
        print(json.dumps(rows, indent=2))
    print(f"({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
