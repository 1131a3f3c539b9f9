"""Soak the web app over loopback: many games created and abandoned while games are played.

Starts the server in a subprocess on a free loopback port with a fresh SQLite file (this
script re-run as ``soak.py --serve PORT DB_URL --max-live M --idle S``, which builds
``create_app(Settings(games_per_minute=100000, max_live_games=M, idle_seconds=S))`` and
runs it under uvicorn), waits for it to warm the engine, then at the same time:

* **Phase A**: creates ``--abandoned`` games (default 500) at ``--rate`` a second and never
  touches them again: against every kind of program (engine levels 1–10) and person vs
  person (one screen, two browsers), without a clock and with 20, 5 and ¼ minute clocks
  (the last fall within the idle time: the program claims), all four ways of deciding
  colours, some 6×6; every tenth gets one move when the person is to move.
* **Phase B**: plays ``--played`` games (default 50) concurrently to the end against
  ``engine:--level`` (5), half with a 10-minute clock: each simulated person thinks a
  random 0–0.5 s and posts a random legal move with ``?wait=true``; the latency measured
  is the whole round trip.

Then it waits ``--settle`` seconds (default idle + 10) so idle and finished games leave
memory, reads each played game once more (reloading the evicted ones), stops the server
and checks all the games against the database as ``web_load.py`` does (each loads, its
events replay to the moves the server answered, every acknowledged move is stored,
finished games have a result, the database holds exactly the games created). The whole
run is bounded by ``--seconds`` (default 300) and ``--moves`` per played game.

Measured: the server process's RSS (``VmRSS`` of ``/proc/<pid>/status``, sampled every
second: start, peak, end, and after each fifth of the abandoned games), p50/p95/max move
latency, errors by status code, integrity problems, error lines in the server's log.
(The server has no count of its live games to read; its RSS is the measure.) Exit status
1 on any 5xx, lost connection, lost move, integrity problem or unrecorded server stop.

    .venv/bin/python benchmarks/soak.py --quick          # 60 abandoned, 8 played, 60 s
    .venv/bin/python benchmarks/soak.py [--abandoned 500] [--played 50] [--level 5]
        [--max-live 200] [--idle 20] [--seconds 300] [--rate 10] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

# benchmarks/ is on sys.path when this file is run as a script
from web_load import (
    Errors,
    Server,
    Tracked,
    check_games,
    create,
    latency_ms,
    move,
    my_turn,
    play_game,
    refresh,
    serve,
    start_server,
)

KINDS = ("victory", "amusement", "entertainer", "engine", "weakest", "random", "person")
CLOCKS: tuple[float | None, ...] = (None, 20.0, 5.0, 0.25)
COLOURS = ("black", "white", "random", "fuse-ishi")


def abandoned_request(i: int, rng: random.Random) -> dict[str, Any]:
    """The ``i``-th abandoned game: the kinds, clocks and colour ways in turn."""
    kind = KINDS[i % len(KINDS)]
    body: dict[str, Any] = {
        "opponent": kind,
        "clock_minutes": CLOCKS[(i // len(KINDS)) % len(CLOCKS)],
        "colour": COLOURS[(i // (len(KINDS) * len(CLOCKS))) % len(COLOURS)],
    }
    if kind == "engine":
        body["level"] = rng.randint(1, 10)
    if kind == "person":
        body["same_screen"] = i % 2 == 0
    if rng.random() < 0.1:
        body["variant"] = "6x6"
    return body


# ---- memory --------------------------------------------------------------------------------
def rss_mb(pid: int) -> float | None:
    """The resident set of process ``pid`` in MB (``None`` once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


@dataclass
class Memory:
    """RSS samples of the server, one a second."""

    pid: int
    t0: float
    samples: list[tuple[float, float]] = field(default_factory=list)
    by_created: dict[int, float] = field(default_factory=dict)

    def sample(self) -> float | None:
        rss = rss_mb(self.pid)
        if rss is not None:
            self.samples.append((time.monotonic() - self.t0, rss))
        return rss

    async def run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(1.0)

    def mark(self, created: int) -> None:
        rss = self.sample()
        if rss is not None:
            self.by_created[created] = round(rss, 1)

    def figures(self) -> dict[str, Any]:
        values = [rss for _, rss in self.samples]
        timeline: list[tuple[int, float]] = []
        for t, rss in self.samples:  # the first sample in each 10 s
            if not timeline or t >= timeline[-1][0] + 10:
                timeline.append((10 * int(t // 10), round(rss, 1)))
        return {
            "start": round(values[0], 1) if values else None,
            "peak": round(max(values), 1) if values else None,
            "end": round(values[-1], 1) if values else None,
            "by_abandoned_created": self.by_created,
            "every_10s": timeline,
        }


# ---- the phases ----------------------------------------------------------------------------
@dataclass
class Abandoned:
    games: list[Tracked] = field(default_factory=list)
    one_move: int = 0
    move_latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0


async def abandon_one(client: httpx2.AsyncClient, i: int, rng: random.Random,
                      out: Abandoned, errors: Errors, on_created: Callable[[int], None]
                      ) -> None:
    created = await create(client, abandoned_request(i, rng), errors)
    if created is None:
        return
    tracked, view = created
    out.games.append(tracked)
    on_created(len(out.games))
    if i % 10 == 3 and my_turn(view):
        started = time.perf_counter()
        if await move(client, tracked, view, rng.choice(view["legal"]), errors,
                      wait=False) is not None:
            out.one_move += 1
            out.move_latencies.append(time.perf_counter() - started)


async def phase_a(client: httpx2.AsyncClient, count: int, rate: float, deadline: float,
                  memory: Memory, errors: Errors) -> Abandoned:
    """Create ``count`` games at ``rate`` a second, each abandoned at once."""
    out = Abandoned()
    rng = random.Random(1)
    started = time.monotonic()
    tasks: list[asyncio.Task[None]] = []
    gate = asyncio.Semaphore(16)
    step = max(1, count // 5)  # RSS after each fifth of the games

    def on_created(done: int) -> None:
        if done % step == 0:
            memory.mark(done)

    async def one(i: int) -> None:
        async with gate:
            await abandon_one(client, i, rng, out, errors, on_created)

    for i in range(count):
        due = started + i / rate
        now = time.monotonic()
        if now >= deadline:
            break
        if due > now:
            await asyncio.sleep(due - now)
        tasks.append(asyncio.create_task(one(i)))
    await asyncio.gather(*tasks)
    out.seconds = time.monotonic() - started
    return out


@dataclass
class Played:
    games: list[Tracked]
    latencies: list[float]
    seconds: float


async def phase_b(client: httpx2.AsyncClient, count: int, level: int, max_moves: int,
                  deadline: float, errors: Errors) -> Played:
    started = time.monotonic()
    latencies: list[float] = []

    def think(rng: random.Random) -> float:
        return rng.uniform(0.0, 0.5)

    results = await asyncio.gather(*[
        play_game(client, {"opponent": "engine", "level": level,
                           "colour": "black" if i % 4 < 2 else "white",
                           "clock_minutes": 10.0 if i % 2 else None},
                  think=think, max_moves=max_moves, deadline=deadline,
                  rng=random.Random(1000 + i), latencies=latencies, errors=errors)
        for i in range(count)
    ])
    return Played([g for g in results if g is not None], latencies,
                  time.monotonic() - started)


# ---- the run -------------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    model = ""
    try:
        with open("/proc/cpuinfo") as info:
            model = next((line.split(":", 1)[1].strip() for line in info
                          if line.startswith("model name")), "")
    except OSError:
        pass
    return {"cores": os.cpu_count(), "usable_cores": len(os.sched_getaffinity(0)),
            "cpu": model, "python": platform.python_version(),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


async def soak(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    errors = Errors()
    machine_before = machine()  # other work on the machine skews the latencies
    begin = time.monotonic()
    if not await server.ready():
        raise RuntimeError(f"the server did not start; its log: {server.log}")
    warm = time.monotonic() - begin
    started = time.monotonic()
    deadline = started + args.seconds
    memory = Memory(server.pid, started)
    memory.mark(0)
    sampler = asyncio.create_task(memory.run())
    limits = httpx2.Limits(max_connections=args.played + 40)
    try:
        async with httpx2.AsyncClient(base_url=server.base, timeout=90, limits=limits) as client:
            abandoned, played = await asyncio.gather(
                phase_a(client, args.abandoned, args.rate, deadline, memory, errors),
                phase_b(client, args.played, args.level, args.moves, deadline, errors))
            busy_end = time.monotonic() - started
            settle = min(args.settle, max(0.0, deadline - time.monotonic()))
            await asyncio.sleep(settle)
            memory.sample()
            settled_rss = memory.samples[-1][1] if memory.samples else None
            for tracked in played.games:  # the last word (evicted games reload)
                await refresh(client, tracked, errors)
            memory.sample()
    finally:
        sampler.cancel()
    total = time.monotonic() - started
    status = server.stop()
    load_after = [round(x, 2) for x in os.getloadavg()]
    games = abandoned.games + played.games
    checked = check_games(server.db_url, games)
    problems = checked.all_problems(len(games))
    log_errors = server.log_errors()
    return {
        "machine": {**machine_before, "load_average_after": load_after},
        "settings": {"abandoned": args.abandoned, "played": args.played, "level": args.level,
                     "max_live_games": args.max_live, "idle_seconds": args.idle,
                     "rate_per_second": args.rate, "seconds": args.seconds,
                     "max_moves": args.moves, "settle_seconds": args.settle},
        "server_start_seconds": round(warm, 1),
        "abandoned": {"created": len(abandoned.games), "with_one_move": abandoned.one_move,
                      "seconds": round(abandoned.seconds, 1),
                      "one_move_latency_ms": latency_ms(abandoned.move_latencies)},
        "played": {"created": len(played.games),
                   "finished": sum(g.over for g in played.games),
                   "person_moves": len(played.latencies),
                   "seconds": round(played.seconds, 1)},
        "latency_ms": latency_ms(played.latencies),
        "rss_mb": {**memory.figures(), "after_settle": None if settled_rss is None
                   else round(settled_rss, 1)},
        "seconds": {"load": round(busy_end, 1), "settle": round(settle, 1),
                    "total": round(total, 1)},
        "errors_by_status": dict(errors.by_status),
        "errors": errors.samples[:10],
        "games_checked": len(games),
        "games_in_database": checked.stored,
        "integrity_problems": problems[:20],
        "integrity_problem_count": len(problems),
        "server_exit": status,  # -15: uvicorn re-raises SIGTERM after its orderly shutdown
        "server_stopped_cleanly": checked.clean_stop,
        "server_log_error_lines": len(log_errors),
        "server_log_errors": log_errors[:10],
        "server_log": str(server.log),
    }


def print_report(r: dict[str, Any]) -> None:
    m, lat, rss = r["machine"], r["latency_ms"], r["rss_mb"]
    a, p = r["abandoned"], r["played"]
    print(f"machine: {m['usable_cores']} cores ({m['cpu']}), Python {m['python']}, load "
          f"average {m['load_average']} before, {m['load_average_after']} after")
    print(f"settings: {r['settings']}")
    print(f"server ready after {r['server_start_seconds']} s")
    print(f"abandoned: {a['created']} created in {a['seconds']} s, {a['with_one_move']} "
          f"with one move (p95 {a['one_move_latency_ms']['p95']} ms)")
    print(f"played: {p['created']} vs engine, {p['finished']} finished, {p['person_moves']} "
          f"person moves in {p['seconds']} s")
    print(f"move latency (round trip, ms): p50 {lat['p50']}  p95 {lat['p95']}  "
          f"max {lat['max']}  mean {lat['mean']}")
    print(f"server RSS (MB): start {rss['start']}  peak {rss['peak']}  "
          f"after settle {rss['after_settle']}  end {rss['end']}")
    print(f"  after N abandoned games created: {rss['by_abandoned_created']}")
    print(f"  every 10 s (s, MB): {rss['every_10s']}")
    print(f"seconds: {r['seconds']}")
    print(f"errors by status: {r['errors_by_status'] or 'none'}")
    for line in r["errors"]:
        print(f"  {line}")
    print(f"database: {r['games_checked']} games checked, {r['games_in_database']} stored, "
          f"{r['integrity_problem_count']} problems")
    for line in r["integrity_problems"]:
        print(f"  {line}")
    print(f"server exit status {r['server_exit']} (orderly stop recorded: "
          f"{r['server_stopped_cleanly']}), {r['server_log_error_lines']} error lines in its log "
          f"({r['server_log']})")
    for line in r["server_log_errors"]:
        print(f"  {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--abandoned", type=int, default=500)
    parser.add_argument("--played", type=int, default=50)
    parser.add_argument("--level", type=int, default=5, help="engine level of played games")
    parser.add_argument("--moves", type=int, default=64,
                        help="person moves per played game, at most")
    parser.add_argument("--seconds", type=float, default=300.0, help="time limit in all")
    parser.add_argument("--rate", type=float, default=10.0,
                        help="abandoned games created a second")
    parser.add_argument("--max-live", type=int, default=200, help="Settings.max_live_games")
    parser.add_argument("--idle", type=float, default=20.0, help="Settings.idle_seconds")
    parser.add_argument("--settle", type=float, default=None,
                        help="seconds to wait after the load (default idle + 10)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 60 abandoned, 8 played, 60 s")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DB_URL"),
                        help=argparse.SUPPRESS)  # the server subprocess
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1], games_per_minute=100_000,
              max_live_games=args.max_live, idle_seconds=args.idle)
        return
    if args.quick:
        args.abandoned, args.played, args.seconds = 60, 8, 60.0
    if args.settle is None:
        args.settle = args.idle + 10.0
    server = start_server(Path(__file__).resolve(),
                          ["--max-live", str(args.max_live), "--idle", str(args.idle)],
                          "hasamigo-soak-")
    try:
        report = asyncio.run(soak(args, server))
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    finally:
        server.stop()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    failed = (report["integrity_problem_count"] or not report["server_stopped_cleanly"]
              or any(code.startswith("5") or code == "transport"
                     for code in report["errors_by_status"]))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
