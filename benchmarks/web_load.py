"""Load on the web app: many concurrent games against the engine, over loopback.

Starts ``hasamigo`` under uvicorn in a subprocess on a free loopback port with a fresh
SQLite file (this script re-run as ``web_load.py --serve PORT DB_URL``, which builds the
app with ``Settings(games_per_minute=...)`` raised: one address creates every game), then
plays ``--games`` games at once (default 50) against ``engine:N`` at the new-game form's
default level. Each simulated person holds the seat token ``POST /api/games`` answered
and sends it as ``Authorization: Bearer``; it thinks ``--think`` seconds on average
(exponential), then posts a random legal move with ``?wait=true``: the latency measured is
the whole round trip (the person's move validated and committed, the program's reply
searched on the search pool and committed). Bounded: ``--moves`` person moves per game at
most and ``--seconds`` in all.

At the end every game is checked against the database (``GameRepository.load``): it
loads; its stored events replay, square by square on a fresh board, to the moves and the
position the server holds; the moves of the server's last answer are all stored; every
move the server acknowledged to the person is stored, in order; a game seen finished has
a result. The figures are printed as JSON: p50/p95/max move latency and errors by status.

    .venv/bin/python benchmarks/web_load.py [--games 50] [--level 5] [--think 1.0]

``benchmarks/soak.py`` reuses the server, the player and the check from here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from sqlalchemy import select

from hasamigo.errors import HasamigoError
from hasamigo.game.events import MovePlayed, Pass, Undo
from hasamigo.game.state import Phase
from hasamigo.move import PASS, Move
from hasamigo.storage import Database, GameRepository
from hasamigo.storage.models import ServerRunRow

#: how long the server may take to answer at first (a cold numba cache compiles for ~2 min)
START_TIMEOUT = 600.0
PLAYING = ("playing", "playout")


# ---- the server ---------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(port: int, db_url: str, **settings: Any) -> None:
    """Run the app on ``127.0.0.1:port`` with ``Settings(**settings)`` (in the child)."""
    import uvicorn

    from hasamigo.web import Settings, create_app

    app = create_app(Settings(**settings), db_url=db_url)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


@dataclass
class Server:
    """The server subprocess: its address, database and log (its stderr)."""

    process: subprocess.Popen[bytes]
    base: str
    db_url: str
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    async def ready(self, timeout: float = START_TIMEOUT) -> bool:
        """Wait until the app answers (it warms the engine kernels before serving)."""
        deadline = time.monotonic() + timeout
        async with httpx2.AsyncClient(base_url=self.base, timeout=10) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    return False
                with contextlib.suppress(httpx2.TransportError):
                    if (await client.get("/api/games?limit=1")).status_code == 200:
                        return True
                await asyncio.sleep(0.2)
        return False

    def stop(self) -> int | None:
        """SIGTERM (an orderly shutdown), then SIGKILL after 30 s; the exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return self.process.returncode

    def log_errors(self) -> list[str]:
        """Lines of the server's stderr that report an error (tracebacks, ERROR logs)."""
        try:
            lines = self.log.read_text(errors="replace").splitlines()
        except OSError:
            return []
        return [line for line in lines
                if line.startswith(("Traceback", "ERROR")) or " ERROR " in line]


def start_server(script: Path, serve_args: Sequence[str], prefix: str) -> Server:
    """``python script --serve PORT DB_URL *serve_args`` on a fresh SQLite file."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    db_url = f"sqlite:///{workdir / 'games.db'}"
    port = free_port()
    log = workdir / "server.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, str(script), "--serve", str(port), db_url, *serve_args],
            stdout=subprocess.DEVNULL, stderr=stderr, env=dict(os.environ),
        )
    return Server(process, f"http://127.0.0.1:{port}", db_url, log)


# ---- measuring -----------------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def latency_ms(values: Sequence[float]) -> dict[str, float | None]:
    def ms(x: float) -> float | None:
        return None if x != x else round(1000 * x, 1)  # NaN: no sample

    return {
        "p50": ms(percentile(values, 50)),
        "p95": ms(percentile(values, 95)),
        "max": ms(max(values, default=float("nan"))),
        "mean": ms(statistics.fmean(values)) if values else None,
    }


@dataclass
class Errors:
    """Unexpected answers, counted by status code (``transport`` for no answer)."""

    by_status: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)

    def add(self, status: int | str, what: str) -> None:
        self.by_status[str(status)] += 1
        if len(self.samples) < 20:
            self.samples.append(f"{status} {what}"[:300])

    @property
    def server_errors(self) -> int:
        return sum(n for code, n in self.by_status.items() if code.startswith("5"))


@dataclass
class Tracked:
    """What a client knows of one game: what it must find in the database afterwards."""

    game_id: str
    token: str
    persons: list[str]  # the colours the token plays
    seen: list[str] = field(default_factory=list)  # the moves of the last answer
    acknowledged: list[str] = field(default_factory=list)  # person moves answered 200
    over: bool = False  # seen finished

    def update(self, view: dict[str, Any]) -> None:
        self.seen = list(view["moves"])
        self.persons = list(view["your_colours"]) or self.persons
        self.over = self.over or view["phase"] == "over"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def request(client: httpx2.AsyncClient, method: str, url: str, errors: Errors,
                  expect: int, **kwargs: Any) -> httpx2.Response | None:
    """The answer if it has the expected status; otherwise counted and ``None``."""
    try:
        response = await client.request(method, url, **kwargs)
    except httpx2.TransportError as exc:
        errors.add("transport", f"{method} {url}: {type(exc).__name__} {exc}")
        return None
    if response.status_code != expect:
        errors.add(response.status_code, f"{method} {url}: {response.text[:200]}")
        return None
    return response


async def create(client: httpx2.AsyncClient, body: dict[str, Any], errors: Errors
                 ) -> tuple[Tracked, dict[str, Any]] | None:
    response = await request(client, "POST", "/api/games", errors, 201, json=body)
    if response is None:
        return None
    view: dict[str, Any] = response.json()
    tracked = Tracked(view["id"], view["seat_token"], list(view["your_colours"]))
    tracked.update(view)
    return tracked, view


def my_turn(view: dict[str, Any]) -> bool:
    """The caller may move (a suspended game, such as one waiting for its second person
    to join before their clock runs, lists legal moves but refuses them)."""
    return (view["phase"] in PLAYING and view["turn"] in view["your_colours"]
            and bool(view["legal"]) and not view["suspended"])


async def move(client: httpx2.AsyncClient, tracked: Tracked, view: dict[str, Any],
               square: str, errors: Errors, *, wait: bool) -> dict[str, Any] | None:
    """Post ``square``; the new view, or ``None`` (counted) if it was refused."""
    response = await request(
        client, "POST", f"/api/games/{tracked.game_id}/moves?wait={str(wait).lower()}",
        errors, 200, json={"move": square, "revision": view["revision"]},
        headers=tracked.headers)
    if response is None:
        return None
    tracked.acknowledged.append(square)
    new: dict[str, Any] = response.json()
    tracked.update(new)
    return new


async def refresh(client: httpx2.AsyncClient, tracked: Tracked, errors: Errors
                  ) -> dict[str, Any] | None:
    response = await request(client, "GET", f"/api/games/{tracked.game_id}", errors, 200,
                             headers=tracked.headers)
    if response is None:
        return None
    view: dict[str, Any] = response.json()
    tracked.update(view)
    return view


async def play_game(client: httpx2.AsyncClient, body: dict[str, Any], *,
                    think: Callable[[random.Random], float], max_moves: int, deadline: float,
                    rng: random.Random, latencies: list[float], errors: Errors
                    ) -> Tracked | None:
    """Create a game and play it, as its creator, to the end (or the bounds): think, then
    a random legal move with ``?wait=true``, timed round trip."""
    created = await create(client, body, errors)
    if created is None:
        return None
    tracked, view = created
    played = 0
    while view["phase"] != "over" and played < max_moves and time.monotonic() < deadline:
        if not my_turn(view):
            await asyncio.sleep(0.1)  # the program's first move (we are White), or late
            fresh = await refresh(client, tracked, errors)
            if fresh is None:
                return tracked
            view = fresh
            continue
        await asyncio.sleep(think(rng))
        started = time.perf_counter()
        answer = await move(client, tracked, view, rng.choice(view["legal"]), errors,
                            wait=True)
        latencies.append(time.perf_counter() - started)
        if answer is None:
            return tracked
        view = answer
        played += 1
    return tracked


# ---- checking against the database -------------------------------------------------------
def check_game(repo: GameRepository, tracked: Tracked) -> list[str]:
    """What is wrong with the stored game, given what the client was told (see the
    module docstring); empty when nothing is."""
    gid = tracked.game_id
    try:
        stored = repo.load(gid)
    except Exception as exc:
        return [f"{gid}: does not load: {type(exc).__name__}: {exc}"]
    if stored is None:
        return [f"{gid}: lost"]
    game = stored.game
    problems = []
    # the events, replayed square by square on a fresh board (no take-backs were asked)
    board = game.board.root()
    try:
        for event in game.events:
            if isinstance(event, MovePlayed):
                board.push(Move(event.square))
            elif isinstance(event, Pass):
                board.push(PASS)
            elif isinstance(event, Undo):
                problems.append(f"{gid}: a take-back nobody asked for")
                break
    except (HasamigoError, ValueError) as exc:
        problems.append(f"{gid}: the events do not replay: {exc}")
    names = [game.board.move_name(m) for m in game.board.move_stack]
    if [board.move_name(m) for m in board.move_stack] != names or board != game.board:
        problems.append(f"{gid}: the events replay to other moves than the game's")
    if [game.board.move_name(m.move) for m in game.history] != names:
        problems.append(f"{gid}: the record differs from the board's moves")
    if names[:len(tracked.seen)] != tracked.seen:
        problems.append(f"{gid}: moves answered are not stored: {len(tracked.seen)} seen, "
                        f"{len(names)} stored")
    mine = [game.board.move_name(m.move) for m in game.history
            if m.colour.value in tracked.persons and not m.move.is_pass]
    if mine != tracked.acknowledged:
        problems.append(f"{gid}: {len(tracked.acknowledged)} person moves acknowledged, "
                        f"{len(mine)} stored")
    if (tracked.over or game.phase is Phase.OVER) and \
            (game.phase is not Phase.OVER or game.result is None):
        problems.append(f"{gid}: finished without a stored result (phase {game.phase.value})")
    return problems


@dataclass(frozen=True, slots=True)
class Checked:
    problems: list[str]
    stored: int  # games in the database
    clean_stop: bool  # every run of the server recorded its orderly end

    def all_problems(self, created: int) -> list[str]:
        extra = [] if self.stored == created else \
            [f"{created} games created, {self.stored} in the database"]
        return self.problems + extra


def check_games(db_url: str, games: Sequence[Tracked]) -> Checked:
    """Every game checked (after the server has stopped), and what the database holds."""
    db = Database(db_url)
    db.open()
    try:
        repo = GameRepository(db)
        problems = [p for tracked in games for p in check_game(repo, tracked)]
        with db.session() as session:
            stops = list(session.scalars(select(ServerRunRow.stopped_at)))
        return Checked(problems, repo.count(), bool(stops) and None not in stops)
    finally:
        db.close()


# ---- the run -------------------------------------------------------------------------------
async def main_async(args: argparse.Namespace) -> int:
    server = start_server(Path(__file__).resolve(), [], "hasamigo-load-")
    latencies: list[float] = []
    errors = Errors()
    games: list[Tracked] = []
    elapsed = 0.0
    try:
        if not await server.ready():
            print(f"the server did not start; its log: {server.log}", file=sys.stderr)
            return 2
        started = time.monotonic()
        deadline = started + args.seconds
        limits = httpx2.Limits(max_connections=args.games + 10)
        mean = args.think

        def think(rng: random.Random) -> float:
            return rng.expovariate(1 / mean) if mean > 0 else 0.0

        async with httpx2.AsyncClient(base_url=server.base, timeout=60, limits=limits) as pool:
            results = await asyncio.gather(*[
                play_game(pool, {"opponent": "engine", "level": args.level,
                                 "colour": random.Random(i).choice(["black", "white"]),
                                 "clock_minutes": None},
                          think=think, max_moves=args.moves, deadline=deadline,
                          rng=random.Random(i), latencies=latencies, errors=errors)
                for i in range(args.games)
            ])
            elapsed = time.monotonic() - started
            games = [g for g in results if g is not None]
            for tracked in games:  # the last word: the program may have moved since
                await refresh(pool, tracked, errors)
    finally:
        status = server.stop()
    checked = check_games(server.db_url, games)
    problems = checked.all_problems(len(games))
    report = {
        "games": args.games,
        "level": args.level,
        "think_seconds": args.think,
        "person_moves": len(latencies),
        "seconds": round(elapsed, 1),
        "finished_games": sum(g.over for g in games),
        "latency_ms": latency_ms(latencies),
        "errors_by_status": dict(errors.by_status),
        "errors": errors.samples[:10],
        "integrity_problems": problems[:10],
        "games_checked": len(games),
        "server_exit": status,  # -15: uvicorn re-raises SIGTERM after its orderly shutdown
        "server_stopped_cleanly": checked.clean_stop,
        "server_log_errors": server.log_errors()[:10],
    }
    print(json.dumps(report, indent=2))
    failed = errors.by_status or problems or not checked.clean_stop
    return 1 if failed or len(games) != args.games else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--level", type=int, default=5, help="engine level (form default 5)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a simulated person thinks (0: none)")
    parser.add_argument("--moves", type=int, default=40, help="person moves per game, at most")
    parser.add_argument("--seconds", type=float, default=180.0, help="time limit in all")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DB_URL"),
                        help=argparse.SUPPRESS)  # the server subprocess
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1], games_per_minute=100_000)
        return
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
