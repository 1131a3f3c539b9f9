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
subprocesses inherit it; or give ``--against that/src`` to measure both trees in one run,
in turn, side by side.

``--kernels rules,players,engine`` (the default) also prints where a cold compile of those
warm-up groups (:mod:`hasamigo._kernels.warm`, in that order, in one process, as the web
app's compiler runs them) spends its CPU time, kernel by kernel: each kernel's own time
(its compile less the kernels compiled inside it), of which in LLVM (optimising and
emitting machine code; the rest is numba's typing, inlining and lowering), and how many
times it was compiled (once per signature). ``--kernels ''`` leaves it out.
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


#: run in a subprocess on an empty cache: compile the warm-up groups named in argv, in
#: order, and print JSON: per group its CPU seconds, per kernel its own CPU seconds, of
#: which in LLVM, and its compiles. Only numba's compile events and its code library
#: (stable for years, and read defensively) are used, so it runs on older trees too.
PROFILER = r"""
import json, sys, time
from numba.core import codegen, event

stack, kernels, groups = [], {}, {}

def _llvm_timed(cls, name):
    original = getattr(cls, name, None)
    if original is None:
        return
    def timed(self, *args, **kwargs):
        start = time.process_time()
        try:
            return original(self, *args, **kwargs)
        finally:
            if stack:
                stack[-1][3] += time.process_time() - start
    setattr(cls, name, timed)

for cls, name in ((codegen.CPUCodeLibrary, "_optimize_final_module"),
                  (codegen.CPUCodeLibrary, "_optimize_functions"),
                  (getattr(codegen, "JITCodeLibrary", codegen.CPUCodeLibrary),
                   "_finalize_specific")):
    _llvm_timed(cls, name)

class Listener(event.Listener):
    def on_start(self, ev):
        func = ev.data["dispatcher"].py_func
        name = func.__module__.rsplit(".", 1)[-1] + "." + func.__qualname__
        stack.append([name, time.process_time(), 0.0, 0.0])

    def on_end(self, ev):
        name, start, inner, llvm = stack.pop()
        total = time.process_time() - start
        row = kernels.setdefault(name, {"self": 0.0, "llvm": 0.0, "compiles": 0,
                                        "group": group})
        row["self"] += total - inner
        row["llvm"] += llvm
        row["compiles"] += 1
        if stack:
            stack[-1][2] += total

event.register("numba:compile", Listener())
from hasamigo._kernels import warm
for group in sys.argv[1:]:
    start = time.process_time()
    warm.warm(group)
    groups[group] = time.process_time() - start
print(json.dumps({"groups": groups, "kernels": kernels}))
"""


def profile_kernels(groups: list[str], env: dict[str, str]) -> dict[str, Any]:
    """The per-kernel cold compile of ``groups`` (see :data:`PROFILER`) on an empty cache."""
    with tempfile.TemporaryDirectory(prefix="hasamigo-kernels-") as tmp:
        run = {**env, "NUMBA_CACHE_DIR": str(Path(tmp) / "numba")}
        proc = subprocess.run([sys.executable, "-c", PROFILER, *groups], env=run,
                              capture_output=True, text=True, timeout=3600, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"the kernel profile failed:\n{proc.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def print_kernels(profiles: dict[str, dict[str, Any]]) -> None:
    """One table: a row per kernel (by the first tree's own time), a column per tree."""
    trees = list(profiles)
    names = sorted({k for p in profiles.values() for k in p["kernels"]},
                   key=lambda k: -max(p["kernels"].get(k, {}).get("self", 0.0)
                                      for p in profiles.values()))
    head = "".join(f" | {tree[-28:]:>28}" for tree in trees)
    print(f"\n{'kernel (own CPU s, of which LLVM; compiles)':46}{head}")
    for name in names:
        cells = []
        for tree in trees:
            row = profiles[tree]["kernels"].get(name)
            cell = (f"{row['self']:8.1f} s {row['llvm']:6.1f} s  x{row['compiles']:<3}    "
                    if row else f"{'-':>28}")
            cells.append(" | " + cell)
        print(f"{name[:46]:46}{''.join(cells)}")
    for group in profiles[trees[0]]["groups"]:
        cells = "".join(f" | {p['groups'].get(group, float('nan')):26.1f} s"
                        for p in profiles.values())
        print(f"{'group ' + group + ' (its whole cold compile)':46}{cells}")
    if len(trees) == 2:
        a, b = (profiles[t]["groups"] for t in trees)
        ratios = ", ".join(f"{g} {a[g] / b[g]:.2f}x" for g in a if g in b and b[g] > 0)
        print(f"{trees[0]} / {trees[1]}: {ratios}")


def kernels_in(cache: Path) -> list[str]:
    names = {re.sub(r"-\d+\.py\d+\.nbi$", "", p.name) for p in cache.rglob("*.nbi")}
    return sorted(names)


def tree_env(src: str | None) -> dict[str, str]:
    """The environment that runs this tree's sources, or those in ``src``."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


def measure(command: str, base_env: dict[str, str] | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hasamigo-compile-") as tmp:
        cache = Path(tmp) / "numba"
        env = {**(base_env or os.environ), "NUMBA_CACHE_DIR": str(cache)}
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
    parser.add_argument("--kernels", default="rules,players,engine",
                        help="warm-up groups whose cold compile is shown kernel by kernel "
                             "('' for none)")
    parser.add_argument("--against", default=None, metavar="SRC",
                        help="another tree's sources (its src directory): measured in the "
                             "same run, in turn with this one")
    parser.add_argument("--json", action="store_true", help="print JSON rows")
    options = parser.parse_args()
    commands = [c.strip() for c in options.commands.split(",") if c.strip()]
    unknown = set(commands) - set(COMMANDS)
    if unknown:
        parser.error(f"unknown command(s): {', '.join(sorted(unknown))}")
    if options.against is not None and not (Path(options.against) / "hasamigo").is_dir():
        parser.error(f"--against: {options.against} holds no hasamigo package")
    trees: dict[str, dict[str, str]] = {"this tree": tree_env(None)}
    if options.against is not None:
        trees[options.against] = tree_env(options.against)
    groups = [g.strip() for g in options.kernels.split(",") if g.strip()]
    rows = []
    if groups:
        profiles = {tree: profile_kernels(groups, env) for tree, env in trees.items()}
        if options.json:
            rows.append({"kernels": profiles})
        else:
            print_kernels(profiles)
    if not options.json and commands:
        print(f"\n{'command':8} {'cold wall':>10} {'cold CPU':>9} {'warm wall':>10} "
              f"{'warm CPU':>9}  notes", flush=True)
    for command, (tree, env) in ((c, t) for c in commands for t in trees.items()):
        row = measure(command, env)
        row["tree"] = tree
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
        if len(trees) > 1:
            notes.insert(0, tree)
        print(f"{command:8} {cold['wall']:9.1f}s {cold['cpu']:8.1f}s {warm['wall']:9.1f}s "
              f"{warm['cpu']:8.1f}s  " + "; ".join(notes), flush=True)
    if options.json:
        print(json.dumps(rows, indent=2))
    print(f"({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
