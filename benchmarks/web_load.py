"""Load on the web app: many concurrent games against the engine, over loopback.

Starts ``hasamigo`` under uvicorn in a subprocess on a free loopback port with a fresh
SQLite file, then plays ``--games`` games at once (default 50) against ``engine:N`` at the
new-game form's default level. Each simulated person thinks ``--think`` seconds on average
(exponential), then posts a random legal move with ``?wait=true``: the latency measured is
the whole round trip (the person's move validated and committed, the program's reply
searched in a worker thread and committed). Bounded: ``--moves`` person moves per game at
most and ``--seconds`` in all.

At the end every game is checked against the database: the stored move rows equal the
state's moves, the moves replay legally from the start, and nothing was lost.

    .venv/bin/python benchmarks/web_load.py [--games 50] [--level 5] [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from hasamigo.game.controller import GameController
from hasamigo.storage import Database, GameRepository


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def play_game(client: httpx.AsyncClient, level: int, think: float, max_moves: int,
                    deadline: float, rng: random.Random, latencies: list[float],
                    errors: list[str]) -> str | None:
    response = await client.post("/api/games", json={
        "opponent": "engine", "level": level, "colour": rng.choice(["black", "white"]),
        "clock_minutes": None,
    })
    if response.status_code != 201:
        errors.append(f"create: {response.status_code} {response.text}")
        return None
    state = response.json()
    game_id: str = state["id"]
    moves = 0
    while state["phase"] != "over" and moves < max_moves and time.monotonic() < deadline:
        if state["turn"] not in state["persons"] or not state["legal"]:
            await asyncio.sleep(0.05)  # the program's first move (we are White)
            state = (await client.get(f"/api/games/{game_id}")).json()
            continue
        await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
        square = rng.choice(state["legal"])
        started = time.perf_counter()
        response = await client.post(f"/api/games/{game_id}/moves?wait=true",
                                     json={"move": square, "revision": state["revision"]})
        latencies.append(time.perf_counter() - started)
        if response.status_code != 200:
            errors.append(f"{game_id} {square}: {response.status_code} {response.text}")
            return game_id
        state = response.json()
        moves += 1
    return game_id


def check_games(db_url: str, ids: list[str]) -> list[str]:
    """Every game in the database: rows match the state and replay legally."""
    problems = []
    repo = GameRepository(Database(db_url))
    for game_id in ids:
        stored = repo.load(game_id)
        if stored is None:
            problems.append(f"{game_id}: lost")
            continue
        game = GameController.from_dict(stored.state)
        names = [game.board.move_name(m.move) for m in game.history]
        if [m.move for m in stored.moves] != names:
            problems.append(f"{game_id}: move rows differ from the state")
        board = game.board.root()
        try:
            for played in game.history:
                board.push(played.move)
        except ValueError as exc:
            problems.append(f"{game_id}: does not replay: {exc}")
        if board != game.board:
            problems.append(f"{game_id}: replayed position differs")
    return problems


async def main_async(args: argparse.Namespace) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="hasamigo-load-"))
    db_url = f"sqlite:///{workdir / 'load.db'}"
    port = free_port()
    env = dict(os.environ, HASAMIGO_DB=db_url)
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "hasamigo.web:create_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    errors: list[str] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            for _ in range(300):
                try:
                    if (await client.get("/api/games?limit=1")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
            else:
                print("the server did not start", file=sys.stderr)
                return 2
            await asyncio.sleep(args.warmup)  # the engine kernels load in the background
            started = time.monotonic()
            deadline = started + args.seconds
            limits = httpx.Limits(max_connections=args.games + 10)
            async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as pool:
                ids = await asyncio.gather(*[
                    play_game(pool, args.level, args.think, args.moves, deadline,
                              random.Random(i), latencies, errors)
                    for i in range(args.games)
                ])
            elapsed = time.monotonic() - started
            finished = 0
            for g in ids:
                if g and (await client.get(f"/api/games/{g}")).json()["phase"] == "over":
                    finished += 1
    finally:
        server.terminate()
        server.wait(30)
    game_ids = [g for g in ids if g]
    problems = check_games(db_url, game_ids)
    report = {
        "games": args.games,
        "level": args.level,
        "think_seconds": args.think,
        "person_moves": len(latencies),
        "seconds": round(elapsed, 1),
        "finished_games": finished,
        "latency_ms": {
            "p50": round(1000 * percentile(latencies, 50), 1),
            "p95": round(1000 * percentile(latencies, 95), 1),
            "max": round(1000 * max(latencies, default=float("nan")), 1),
            "mean": round(1000 * statistics.fmean(latencies), 1) if latencies else None,
        },
        "errors": errors[:10],
        "integrity_problems": problems[:10],
        "games_checked": len(game_ids),
    }
    print(json.dumps(report, indent=2))
    return 1 if errors or problems or len(game_ids) != args.games else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--level", type=int, default=5, help="engine level (form default 5)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a simulated person thinks (0: none)")
    parser.add_argument("--moves", type=int, default=40, help="person moves per game, at most")
    parser.add_argument("--seconds", type=float, default=180.0, help="time limit in all")
    parser.add_argument("--warmup", type=float, default=3.0)
    sys.exit(asyncio.run(main_async(parser.parse_args())))


if __name__ == "__main__":
    main()
