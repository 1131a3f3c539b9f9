"""Load of issue 67: signed-in players in the lobby and live games between people, on one server.

Starts ``hasamigo serve`` (one process, as a person starts it) on a free loopback port
with a fresh SQLite file, trusting ``X-Forwarded-For`` from loopback
(``--forwarded-allow-ips 127.0.0.1``): each simulated player sends its own address, as
players behind a proxy would, so the per-address limits (sign-ups, new games) count each
player apart. It waits until the server's engine is warm (``GET /api/status``) and its
compute workers are idle, so that their start-up is not measured. Then, people only (no
program plays):

1. **Set-up** (timed apart): ``--players`` accounts sign up (``POST /api/accounts``, each
   from its own client with its own cookies; argon2id hashes each password, about a tenth
   of a second of CPU each), at most ``--signup-concurrency`` at once.
2. **The lobby**: every player keeps the lobby open for the whole run, as a second tab
   would, and polls its endpoint every ``--lobby-interval`` seconds: the lobby's own
   (``GET /api/lobby`` with the page's ``If-None-Match``, every 4 s as the page does),
   else the live games' list (``GET /api/games?scope=public``, on a server without the
   lobby). Each poll's latency is measured.
3. **The games**: ``--games`` pairs of players each play a game, two browsers: the lobby's
   challenge posted by one and accepted by the other when the server has the lobby's
   routes (each player then asks ``POST /api/games/{id}/seat`` for its seat token, as the
   game page does), else ``POST /api/games`` (a person in another browser, public, signed
   in) and the join code. Each player holds its game's socket (``/ws/games/{id}``, as the game
   page does) and, on its turn, thinks ``--think`` seconds on average (exponential, at
   least 0.2 s), then posts a legal move (``POST /api/games/{id}/moves`` with the
   revision): the move is chosen among the legal moves of ``hasamigo.board`` replaying the
   game's moves, and checked against those the server lists. A game over, the pair plays
   another, so that ``--games`` games are live for the whole ``--duration``.
4. **Watchers**: ``--watchers`` anonymous sockets each watch a live public game to its
   end, then another.

Measured: each move request's latency (client side, from send to answer: p50, p95, p99,
max), moves a second, how long the opponent's socket took to show the move, the lobby
poll's latency, errors by kind (HTTP status, ``transport``, ``socket``, ``illegal`` when
the server's legal moves differ from the board's), the server's CPU (its process and its
children, from ``/proc``: CPU seconds over the run and cores used; the CPU per request
answered of the processes serving them (with ``--server-workers N``, the N workers),
which says how many requests a second one core would serve, whatever else the machine
runs) and RSS (start, peak, end), this client's own CPU (it
shares the machine), and the load average before and after. Nothing is asserted about
speed. Exit status 1 when anything went wrong (an error, a server error in its log), 2
when the server did not start.

    .venv/bin/python benchmarks/lobby_load.py                       # 200 players, 100 games
    .venv/bin/python benchmarks/lobby_load.py --players 6 --games 3 --duration 5 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from web_load import START_TIMEOUT, Server, free_port, percentile
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from hasamigo.board import Board
from hasamigo.move import PASS

PLAYING = ("playing", "playout")
#: shortest think (a person's click after the board is drawn)
MIN_THINK = 0.2
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# ---- the server and /proc --------------------------------------------------------------
def start_server(workdir: Path, workers: int = 1) -> Server:
    """``hasamigo serve`` on a free port and a fresh SQLite file in ``workdir``
    (``workers`` server processes sharing them, ``serve --workers``)."""
    db_url = f"sqlite:///{workdir / 'lobby.db'}"
    port = free_port()
    log = workdir / "server.log"
    env = dict(os.environ, HASAMIGO_GAMES_PER_MINUTE="100000")
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "hasamigo", "serve", "--port", str(port), "--db", db_url,
             "--forwarded-allow-ips", "127.0.0.1", "--workers", str(workers)],
            stdout=subprocess.DEVNULL, stderr=stderr, env=env)
    return Server(process, f"http://127.0.0.1:{port}", db_url, log)


def _stat(pid: int) -> tuple[int, float, int] | None:
    """(parent pid, CPU seconds, RSS bytes) of a process from ``/proc``."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # after the command's name
    ppid, utime, stime, rss = int(fields[1]), int(fields[11]), int(fields[12]), int(fields[21])
    return ppid, (utime + stime) / TICKS, rss * PAGE


def tree(pid: int) -> tuple[dict[int, tuple[float, int]], set[int]]:
    """CPU seconds and RSS of ``pid`` and its descendants (the compute workers), and
    ``pid``'s own children."""
    stats: dict[int, tuple[int, float, int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (found := _stat(int(entry))) is not None:
            stats[int(entry)] = found
    family, todo = {pid}, [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, _, _) in stats.items():
            if ppid == parent and child not in family:
                family.add(child)
                todo.append(child)
    children = {c for c, (ppid, _, _) in stats.items() if ppid == pid}
    return {p: stats[p][1:] for p in family if p in stats}, children


@dataclass
class Usage:
    """The server's CPU and memory over the measured run, sampled every second."""

    pid: int
    #: ``serve --workers N`` (N > 1): the requests are served by the main process's
    #: children, which it only supervises
    workers: int = 1
    cpu_start: float = 0.0
    cpu_end: float = 0.0
    main_start: float = 0.0  # the processes serving requests (their compute workers apart)
    main_end: float = 0.0
    rss: list[int] = field(default_factory=list)  # the whole tree's
    rss_main: list[int] = field(default_factory=list)

    def cpu(self) -> tuple[float, float]:
        """CPU seconds the tree and the serving processes have used so far (children
        that ended are not counted)."""
        family, children = tree(self.pid)
        serving = {self.pid} | (children if self.workers > 1 else set())
        return (sum(c for c, _ in family.values()),
                sum(family[p][0] for p in serving if p in family))

    def sample(self) -> None:
        family, _ = tree(self.pid)
        self.rss.append(sum(r for _, r in family.values()))
        self.rss_main.append(family.get(self.pid, (0.0, 0))[1])

    async def run(self, stop: asyncio.Event) -> None:
        self.cpu_start, self.main_start = self.cpu()
        while not stop.is_set():
            self.sample()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)
        self.sample()
        self.cpu_end, self.main_end = self.cpu()

    def report(self, seconds: float) -> dict[str, Any]:
        mb = 1 << 20
        used = self.cpu_end - self.cpu_start
        return {
            "cpu_seconds": round(used, 1),
            "cores_used": round(used / seconds, 2) if seconds > 0 else None,
            "serving_processes_cpu_seconds": round(self.main_end - self.main_start, 1),
            "rss_mb_start": round(self.rss[0] / mb) if self.rss else None,
            "rss_mb_peak": round(max(self.rss) / mb) if self.rss else None,
            "rss_mb_end": round(self.rss[-1] / mb) if self.rss else None,
            "main_process_rss_mb_peak": round(max(self.rss_main) / mb) if self.rss_main
            else None,
        }


# ---- figures ---------------------------------------------------------------------------
def ms_figures(values: Sequence[float]) -> dict[str, float | int | None]:
    def ms(q: float) -> float | None:
        x = percentile(values, q)
        return None if x != x else round(1000 * x, 1)  # NaN: no sample

    return {"count": len(values), "p50": ms(50), "p95": ms(95), "p99": ms(99),
            "max": round(1000 * max(values), 1) if values else None}


@dataclass
class Errors:
    """What went wrong, counted by kind (an HTTP status, ``transport``, ``socket``,
    ``illegal``), with a few samples."""

    by_kind: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)

    def add(self, kind: int | str, what: str) -> None:
        self.by_kind[str(kind)] += 1
        if len(self.samples) < 20:
            self.samples.append(f"{kind} {what}"[:300])


@dataclass
class Figures:
    errors: Errors = field(default_factory=Errors)
    moves: list[float] = field(default_factory=list)
    seen_by_opponent: list[float] = field(default_factory=list)
    lobby: list[float] = field(default_factory=list)
    lobby_unchanged: int = 0  # polls answered 304 (the page's If-None-Match)
    signups: list[float] = field(default_factory=list)
    pairings: list[float] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    watcher_states: int = 0


async def call(client: httpx2.AsyncClient, method: str, url: str, errors: Errors,
               expect: int | tuple[int, ...], **kwargs: Any) -> httpx2.Response | None:
    """The answer if it has the expected status; otherwise counted and ``None``."""
    try:
        response = await client.request(method, url, **kwargs)
    except httpx2.TransportError as exc:
        errors.add("transport", f"{method} {url}: {type(exc).__name__} {exc}")
        return None
    if response.status_code not in (expect if isinstance(expect, tuple) else (expect,)):
        errors.add(response.status_code, f"{method} {url}: {response.text[:200]}")
        return None
    return response


# ---- the people --------------------------------------------------------------------------
@dataclass
class Player:
    index: int
    name: str
    client: httpx2.AsyncClient

    @staticmethod
    def address(index: int) -> str:
        """A private address of its own (10.67.0.0 onwards), sent as X-Forwarded-For."""
        return f"10.{67 + index // 65536}.{index // 256 % 256}.{index % 256}"


def legal_from_board(moves: Sequence[str]) -> list[str]:
    """The legal squares after ``moves`` on the standard board, by :mod:`hasamigo.board`."""
    board = Board()
    for name in moves:
        board.push(PASS if name == "pass" else board.parse_move(name))
    return [board.move_name(m) for m in board.legal_moves if not m.is_pass]


class Seat:
    """One player's side of one game: its socket (the game page's) and its moves."""

    def __init__(self, player: Player, game_id: str, token: str, base: str) -> None:
        self.player, self.game_id, self.token = player, game_id, token
        self.ws_url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}"
        self.view: dict[str, Any] | None = None
        self.changed = asyncio.Event()

    def take(self, view: dict[str, Any]) -> None:
        if self.view is None or view["revision"] >= self.view["revision"]:
            self.view = view
            self.changed.set()

    def my_turn(self) -> bool:
        v = self.view
        return v is not None and v["phase"] in PLAYING and v["turn"] in v["your_colours"] \
            and bool(v["legal"]) and not v["suspended"]

    def over(self) -> bool:
        return self.view is not None and self.view["phase"] == "over"


@dataclass
class Game:
    """A live game between two players, what its watchers find."""

    id: str
    #: the move on its way: who sent it, the plies before it, when it was sent
    pending: tuple[Seat, int, float] | None = None
    over: asyncio.Event = field(default_factory=asyncio.Event)


class Run:
    def __init__(self, args: argparse.Namespace, base: str) -> None:
        self.args, self.base = args, base
        self.figures = Figures()
        self.rng = random.Random(args.seed)
        self.stop = asyncio.Event()
        self.deadline = 0.0
        self.live: list[Game] = []
        self.lobby_get = "/api/games?scope=public&limit=50"
        self.lobby_routes: dict[str, str] = {}

    @property
    def errors(self) -> Errors:
        return self.figures.errors

    def think(self, rng: random.Random) -> float:
        mean = self.args.think
        return max(MIN_THINK, rng.expovariate(1 / mean)) if mean > 0 else 0.0

    def client(self, index: int) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(base_url=self.base, timeout=60,
                                  headers={"X-Forwarded-For": Player.address(index)},
                                  # a browser retries a request on a kept-alive
                                  # connection the server has just closed (uvicorn
                                  # closes them after 5 idle seconds, the lobby's
                                  # interval): this client gives them up sooner instead
                                  limits=httpx2.Limits(max_connections=4,
                                                       keepalive_expiry=4.0))

    # ---- the lobby's routes, if the server has them ----------------------------------
    async def find_lobby(self, client: httpx2.AsyncClient) -> None:
        """The lobby's routes from the server's OpenAPI schema (none: the live games'
        list stands for the lobby, and games are made with a join code)."""
        response = await call(client, "GET", "/openapi.json", self.errors, 200)
        paths: dict[str, Any] = {} if response is None else response.json().get("paths", {})
        lobby = sorted(p for p in paths if p.startswith("/api/lobby"))
        for path in lobby:
            methods = paths[path]
            if "get" in methods and "{" not in path and "get" not in self.lobby_routes:
                self.lobby_routes["get"] = path
            if "post" in methods and path.rstrip("/").endswith("challenges"):
                self.lobby_routes["challenge"] = path
            if "post" in methods and path.rstrip("/").endswith("/accept"):
                self.lobby_routes["accept"] = path
        if "get" in self.lobby_routes:
            self.lobby_get = self.lobby_routes["get"]

    # ---- set-up ------------------------------------------------------------------------
    async def sign_up(self, index: int, gate: asyncio.Semaphore) -> Player | None:
        name = f"p{self.args.seed % 1000}_{index}"
        client = self.client(index)
        async with gate:
            started = time.perf_counter()
            response = await call(client, "POST", "/api/accounts", self.errors, 201,
                                  json={"name": name, "password": f"load-{index}-secret"})
            self.figures.signups.append(time.perf_counter() - started)
        if response is None:
            await client.aclose()
            return None
        return Player(index, name, client)

    # ---- the lobby tab ---------------------------------------------------------------
    async def poll_lobby(self, player: Player) -> None:
        rng = random.Random(self.args.seed * 7919 + player.index)
        await asyncio.sleep(rng.uniform(0, self.args.lobby_interval))  # tabs opened apart
        etag: str | None = None
        while not self.stop.is_set():
            started = time.perf_counter()
            response = await call(player.client, "GET", self.lobby_get, self.errors,
                                  (200, 304), headers={"If-None-Match": etag} if etag else {})
            if response is not None:
                self.figures.lobby.append(time.perf_counter() - started)
                self.figures.lobby_unchanged += response.status_code == 304
                etag = response.headers.get("etag", etag)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), self.args.lobby_interval)

    # ---- pairing -------------------------------------------------------------------------
    async def pair(self, host: Player, guest: Player, rng: random.Random
                   ) -> tuple[Seat, Seat] | None:
        """A new game between ``host`` and ``guest``: both seats, or ``None`` (counted)."""
        started = time.perf_counter()
        seats = await (self.pair_by_lobby(host, guest, rng) if "accept" in self.lobby_routes
                       else self.pair_by_code(host, guest, rng))
        if seats is not None:
            self.figures.pairings.append(time.perf_counter() - started)
        return seats

    def options(self, rng: random.Random) -> dict[str, Any]:
        body: dict[str, Any] = {"colour": rng.choice(["black", "white"]),
                                "clock_minutes": self.args.clock or None}
        if self.args.rated:
            body["rated"] = True
        return body

    async def pair_by_code(self, host: Player, guest: Player, rng: random.Random
                           ) -> tuple[Seat, Seat] | None:
        body = {"opponent": "person", "same_screen": False, "public": True,
                **self.options(rng)}
        created = await call(host.client, "POST", "/api/games", self.errors, 201, json=body)
        if created is None:
            return None
        view = created.json()
        code = view["join_url"].rsplit("code=", 1)[1]
        joined = await call(guest.client, "POST", f"/api/games/{view['id']}/join",
                            self.errors, 200, json={"code": code})
        if joined is None:
            return None
        return (Seat(host, view["id"], view["seat_token"], self.base),
                Seat(guest, view["id"], joined.json()["seat_token"], self.base))

    async def pair_by_lobby(self, host: Player, guest: Player, rng: random.Random
                            ) -> tuple[Seat, Seat] | None:
        """The lobby's way: a challenge posted, accepted, each seat's token asked by its
        account (``POST /api/games/{id}/seat``)."""
        body = {"variant": "8x8", **self.options(rng)}
        posted = await call(host.client, "POST", self.lobby_routes["challenge"], self.errors,
                            201, json=body)
        if posted is None:
            return None
        challenge = posted.json()
        cid = challenge.get("id") or challenge.get("challenge", {}).get("id")
        accept = self.lobby_routes["accept"].replace("{challenge_id}", str(cid)) \
            .replace("{id}", str(cid))
        accepted = await call(guest.client, "POST", accept, self.errors, 200)
        if accepted is None:
            return None
        answer = accepted.json()
        game_id = answer.get("game_id") or answer.get("game", {}).get("id")
        tokens = []
        for player in (host, guest):
            seat = await call(player.client, "POST", f"/api/games/{game_id}/seat",
                              self.errors, 200)
            if seat is None:
                return None
            tokens.append(seat.json()["seat_token"])
        return (Seat(host, game_id, tokens[0], self.base),
                Seat(guest, game_id, tokens[1], self.base))

    # ---- playing -------------------------------------------------------------------------
    async def listen(self, seat: Seat, ws: ClientConnection, game: Game) -> None:
        """The game page's socket: each state taken; when it shows the opponent's move,
        how long after the move was sent."""
        async for raw in ws:
            message = json.loads(raw)
            if message.get("type") == "error":
                self.errors.add("socket", f"{seat.game_id}: {message['error']}")
                continue
            if message.get("type") != "state":
                continue
            view = message["game"]
            pending = game.pending
            if pending is not None and pending[0] is not seat and len(view["moves"]) > pending[1]:
                game.pending = None  # the opponent's move shown (its push may come before
                self.figures.seen_by_opponent.append(time.perf_counter() - pending[2])  # its
                # answer reaches the mover: timed from the move's sending)
            seat.take(view)

    async def play_side(self, seat: Seat, game: Game, rng: random.Random) -> None:
        """One player's side of a game: its socket open, a move on each turn."""
        try:
            async with connect(seat.ws_url, open_timeout=60) as ws:
                await ws.send(json.dumps({"type": "hello", "token": seat.token}))
                listener = asyncio.create_task(self.listen(seat, ws, game))
                try:
                    await self.moves(seat, game, rng, listener)
                finally:
                    listener.cancel()
                    with contextlib.suppress(asyncio.CancelledError, WebSocketException):
                        await listener
        except (OSError, TimeoutError, WebSocketException) as exc:
            self.errors.add("socket", f"{seat.game_id}: {type(exc).__name__} {exc}")

    async def moves(self, seat: Seat, game: Game, rng: random.Random,
                    listener: asyncio.Task[None]) -> None:
        while not self.stop.is_set() and not seat.over():
            if listener.done():
                if listener.exception() is not None:
                    raise listener.exception()  # type: ignore[misc]
                self.errors.add("socket", f"{seat.game_id}: closed by the server")
                return
            if not seat.my_turn():
                seat.changed.clear()
                if not seat.my_turn() and not seat.over():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(seat.changed.wait(), 1.0)
                continue
            view = seat.view
            assert view is not None
            pause = self.think(rng)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), pause)
            if self.stop.is_set():
                return
            legal = legal_from_board(view["moves"])
            if sorted(legal) != sorted(view["legal"]):
                self.errors.add("illegal", f"{seat.game_id}: board {legal}, server "
                                f"{view['legal']}")
                return
            square = rng.choice(legal)
            started = time.perf_counter()
            game.pending = (seat, len(view["moves"]), started)
            response = await call(
                seat.player.client, "POST", f"/api/games/{seat.game_id}/moves", self.errors,
                200, json={"move": square, "revision": view["revision"]},
                headers={"Authorization": f"Bearer {seat.token}"})
            answered = time.perf_counter()
            if response is None:
                return
            self.figures.moves.append(answered - started)
            seat.take(response.json())

    async def play_pair(self, host: Player, guest: Player) -> None:
        """Game after game between two players until the run's end."""
        rng = random.Random(self.args.seed * 104729 + host.index)
        while not self.stop.is_set():
            seats = await self.pair(host, guest, rng)
            if seats is None:
                return
            game = Game(seats[0].game_id)
            self.figures.games_started += 1
            self.live.append(game)
            try:
                await asyncio.gather(*(self.play_side(s, game, rng) for s in seats))
            finally:
                game.over.set()
                self.live.remove(game)
            if any(s.over() for s in seats):
                self.figures.games_finished += 1
            else:
                return  # stopped (or failed, counted): no rematch

    # ---- watching ---------------------------------------------------------------------
    async def watch(self, index: int) -> None:
        rng = random.Random(self.args.seed * 15485863 + index)
        while not self.stop.is_set():
            if not self.live:
                await asyncio.sleep(0.5)
                continue
            game = rng.choice(self.live)
            url = self.base.replace("http", "ws", 1) + f"/ws/games/{game.id}"
            try:
                async with connect(url, open_timeout=60) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": None}))
                    while not self.stop.is_set() and not game.over.is_set():
                        with contextlib.suppress(TimeoutError):
                            raw = await asyncio.wait_for(ws.recv(), 1.0)
                            message = json.loads(raw)
                            if message.get("type") == "state":
                                self.figures.watcher_states += 1
                            elif message.get("type") == "error":
                                self.errors.add("socket", f"watcher: {message['error']}")
            except (OSError, WebSocketException) as exc:
                if not game.over.is_set() and not self.stop.is_set():
                    self.errors.add("socket", f"watcher {game.id}: {type(exc).__name__}")
                    await asyncio.sleep(1.0)


# ---- the whole run -------------------------------------------------------------------------
def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


async def engine_ready(server: Server, timeout: float = START_TIMEOUT) -> bool:
    """Wait until the server has warmed its engine (``GET /api/status``): people play
    here, but a warming engine would take the CPU the measure is about."""
    deadline = time.monotonic() + timeout
    async with httpx2.AsyncClient(base_url=server.base, timeout=30) as client:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx2.TransportError):
                response = await client.get("/api/status")
                if response.status_code == 200 and response.json().get("engine") == "ready":
                    return True
            await asyncio.sleep(0.5)
    return False


async def settled(pid: int, timeout: float = 180.0) -> bool:
    """Wait until the server's children (the compute workers, started and prepared once
    the engine is ready, at a low priority) are idle: under 5% of a core over 2 s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = sum(c for p, (c, _) in tree(pid)[0].items() if p != pid)
        await asyncio.sleep(2.0)
        if sum(c for p, (c, _) in tree(pid)[0].items() if p != pid) - before < 0.1:
            return True
    return False


async def measure(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    run = Run(args, server.base)
    report: dict[str, Any] = {"players": args.players, "games": args.games,
                              "duration_seconds": args.duration, "think_seconds": args.think,
                              "lobby_interval_seconds": args.lobby_interval,
                              "watchers": args.watchers, "clock_minutes": args.clock,
                              "rated": args.rated, "seed": args.seed,
                              "cores": os.cpu_count(), "load_average_before": load_average()}
    async with httpx2.AsyncClient(base_url=server.base, timeout=60) as probe:
        await run.find_lobby(probe)
    report["lobby_endpoint"] = run.lobby_get
    report["pairing"] = "lobby challenges" if "accept" in run.lobby_routes else "join codes"

    # set-up: the sign-ups, timed apart
    started = time.monotonic()
    gate = asyncio.Semaphore(args.signup_concurrency)
    signed = await asyncio.gather(*(run.sign_up(i, gate) for i in range(args.players)))
    players = [p for p in signed if p is not None]
    report["setup"] = {"signup_seconds": round(time.monotonic() - started, 1),
                       "signed_up": len(players),
                       "signup_latency_ms": ms_figures(run.figures.signups)}

    usage = Usage(server.pid, args.server_workers)
    sampler = asyncio.create_task(usage.run(run.stop))
    client_cpu = time.process_time()
    started = time.monotonic()
    run.deadline = started + args.duration
    tasks = [asyncio.create_task(run.poll_lobby(p)) for p in players]
    pairs = [(players[2 * i], players[2 * i + 1]) for i in range(min(args.games,
                                                                      len(players) // 2))]
    tasks += [asyncio.create_task(run.play_pair(a, b)) for a, b in pairs]
    tasks += [asyncio.create_task(run.watch(i)) for i in range(args.watchers)]
    await asyncio.sleep(args.duration)
    run.stop.set()
    elapsed = time.monotonic() - started
    await asyncio.wait(tasks, timeout=120)
    for task in tasks:
        task.cancel()
    await sampler
    client_cpu = time.process_time() - client_cpu
    for player in players:
        await player.client.aclose()

    f = run.figures
    report.update({
        "seconds": round(elapsed, 1),
        "games_started": f.games_started,
        "games_finished": f.games_finished,
        "moves": len(f.moves),
        "moves_per_second": round(len(f.moves) / elapsed, 1) if elapsed > 0 else None,
        "move_latency_ms": ms_figures(f.moves),
        "opponent_sees_move_ms": ms_figures(f.seen_by_opponent),
        "lobby_poll_latency_ms": ms_figures(f.lobby),
        "lobby_polls_unchanged": f.lobby_unchanged,
        "pairing_latency_ms": ms_figures(f.pairings),
        "watcher_states": f.watcher_states,
        "errors_by_kind": dict(f.errors.by_kind),
        "errors": f.errors.samples[:10],
        "server": usage.report(elapsed),
        # the serving processes' CPU per request answered (moves, polls, pairings; their
        # pushes and the ticker included): on one core, about 1000 / this requests a
        # second
        "server_cpu_ms_per_request": round(1000 * (usage.main_end - usage.main_start)
                                           / max(1, len(f.moves) + len(f.lobby)
                                                 + len(f.pairings)), 1),
        "client_cpu_seconds": round(client_cpu, 1),
        "load_average_after": load_average(),
    })
    return report


def print_text(report: dict[str, Any]) -> None:
    def line(label: str, figures: dict[str, Any]) -> str:
        return (f"{label:<22} n={figures['count']:<6} p50 {figures['p50']} ms, "
                f"p95 {figures['p95']} ms, p99 {figures['p99']} ms, max {figures['max']} ms")

    setup = report["setup"]
    server = report["server"]
    print(f"{report['players']} players, {report['games']} games, {report['watchers']} "
          f"watchers for {report['seconds']} s (think {report['think_seconds']} s, lobby "
          f"every {report['lobby_interval_seconds']} s at {report['lobby_endpoint']}, "
          f"pairs by {report['pairing']})")
    print(f"set-up: {setup['signed_up']} sign-ups in {setup['signup_seconds']} s "
          f"(each p50 {setup['signup_latency_ms']['p50']} ms)")
    print(f"games started {report['games_started']}, finished {report['games_finished']}, "
          f"moves {report['moves']} ({report['moves_per_second']}/s)")
    print(line("move", report["move_latency_ms"]))
    print(line("opponent sees move", report["opponent_sees_move_ms"]))
    print(line("lobby poll", report["lobby_poll_latency_ms"])
          + f" ({report['lobby_polls_unchanged']} unchanged: 304)")
    print(line("pairing", report["pairing_latency_ms"]))
    print(f"server: {server['cpu_seconds']} CPU s ({server['cores_used']} cores; serving "
          f"processes {server['serving_processes_cpu_seconds']} s), RSS "
          f"{server['rss_mb_start']} → peak {server['rss_mb_peak']} MB; this client "
          f"{report['client_cpu_seconds']} CPU s; {report['server_cpu_ms_per_request']} ms "
          f"of server CPU a request; load average {report['load_average_before']}"
          f" → {report['load_average_after']} on {report['cores']} cores")
    print(f"errors: {report['errors_by_kind'] or 'none'}")
    for sample in report["errors"]:
        print(f"  {sample}")
    for line_ in report["server_log_errors"]:
        print(f"  server log: {line_}")


async def main_async(args: argparse.Namespace) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="hasamigo-lobby-load-"))
    server = start_server(workdir, args.server_workers)
    try:
        if not await server.ready(START_TIMEOUT) or not await engine_ready(server):
            print(f"the server did not start; its log: {server.log}", file=sys.stderr)
            return 2
        await settled(server.pid)
        report = await measure(args, server)
    finally:
        status = server.stop()
    report["server_exit"] = status
    report["server_log_errors"] = server.log_errors()[:10]
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print_text(report)
    failed = report["errors_by_kind"] or report["server_log_errors"] \
        or report["setup"]["signed_up"] != args.players
    return 1 if failed else 0


def positive(kind: type[int] | type[float]) -> Any:
    def parse(text: str) -> int | float:
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, not {text}")
        return value
    return parse


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=positive(int), default=200,
                        help="accounts signed up, all in the lobby")
    parser.add_argument("--games", type=int, default=100,
                        help="live games at once, each between two of the players")
    parser.add_argument("--duration", type=positive(float), default=120.0,
                        help="seconds of play measured (after the sign-ups)")
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean seconds a player thinks before a move (exponential, "
                        f"at least {MIN_THINK}; 0: none)")
    parser.add_argument("--lobby-interval", type=positive(float), default=4.0,
                        help="seconds between a player's lobby polls (the page's 4)")
    parser.add_argument("--watchers", type=int, default=50,
                        help="anonymous sockets watching live games")
    parser.add_argument("--clock", type=float, default=10.0,
                        help="minutes on each player's clock (0: no clock)")
    parser.add_argument("--rated", action="store_true", help="rated games")
    parser.add_argument("--signup-concurrency", type=positive(int), default=8)
    parser.add_argument("--server-workers", type=positive(int), default=1,
                        help="server processes (hasamigo serve --workers N)")
    parser.add_argument("--seed", type=int, default=67)
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args()
    if args.games < 0 or args.watchers < 0 or args.think < 0 or args.clock < 0:
        parser.error("--games, --watchers, --think and --clock must not be negative")
    if 2 * args.games > args.players:
        parser.error(f"--games {args.games} needs at least {2 * args.games} players")
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
