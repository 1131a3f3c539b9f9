"""The kernels' warm-up in tiers (issue 50), in-process with an injected compile.

A fresh server compiles ``rules``, ``players`` and ``engine`` in that order and loads each
as soon as it is compiled: Random and the paper's programs play while the engine still
compiles; the engine's programs wait (``ProgramWaiting``: their clocks do not run, an
official game does not begin) and hints answer 503 with the estimate; the 10-column
grid's groups load only when a wide board is first played. The compile is stood in for
by a function the test steps through (``create_app(engine_warmup=…)``), emitting the
events of ``python -m hasamigo._kernels.warm --progress``; the loads are real (the
default cache is warm). The games' clock is driven by hand.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hasamigo.web import Settings, create_app
from hasamigo.web.services.warmup import KernelWarmup

Emit = Callable[[dict[str, Any]], None]


class FakeClock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class SlowCompile:
    """The compile, group by group, each released by the test (``finish(group)``); the
    engine's reports a kernel compiling first, as the real one does."""

    def __init__(self) -> None:
        self.released: dict[str, threading.Event] = {}
        self.asked: list[list[str]] = []

    def gate(self, group: str) -> threading.Event:
        return self.released.setdefault(group, threading.Event())

    def finish(self, *groups: str) -> None:
        for group in groups:
            self.gate(group).set()

    def __call__(self, groups: list[str], emit: Emit) -> None:
        self.asked.append(list(groups))
        cpu = 1.0
        for group in groups:
            if group == "engine":
                emit({"event": "compiling", "group": group, "kernel": "search.search",
                      "cpu": cpu})
                emit({"event": "compiling", "group": group, "kernel": "endgame.solve3",
                      "cpu": cpu})
            if not self.gate(group).wait(60):
                return
            cpu += 1.0
            emit({"event": "done", "group": group, "seconds": 1.0, "cpu": cpu})


@pytest.fixture
def compile_() -> Iterator[SlowCompile]:
    slow = SlowCompile()
    yield slow
    slow.finish(*("rules", "players", "engine", "wide-rules", "wide", "smallboard"))


def app_with(tmp_path: Path, compile_: SlowCompile, clock: FakeClock) -> Any:
    return create_app(Settings(warm_engine=True, warm_in_background=True, tick_seconds=3600),
                      db_url=f"sqlite:///{tmp_path / 'games.db'}", wall_clock=clock,
                      engine_warmup=compile_)


def until(check: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def new_game(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/api/games", json={"colour": "white", "clock_minutes": 10,
                                              **body})
    assert created.status_code == 201, created.text
    game = created.json()
    return f"/api/games/{game['id']}", {"Authorization": f"Bearer {game['seat_token']}"}


def groups(client: TestClient) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = client.get("/api/status").json()["groups"]
    return found


# ---- the tiers through the API -----------------------------------------------------------------
def test_each_program_plays_once_its_own_kernels_are_loaded(
        tmp_path: Path, compile_: SlowCompile) -> None:
    clock = FakeClock()
    with TestClient(app_with(tmp_path, compile_, clock)) as client:
        compile_.finish("rules")
        until(lambda: groups(client)["rules"]["state"] == "ready", "rules ready")
        assert compile_.asked == [["rules", "players", "engine"]]  # wide: not at start-up
        status = groups(client)
        assert status["players"]["state"] == "compiling"
        assert status["engine"]["state"] == "waiting"
        assert status["wide"]["state"] == status["wide-rules"]["state"] == "idle"
        assert status["wide"]["seconds_left"] is None

        # Random plays at once; Victory and the engine wait, their clocks stopped
        random_url, random_auth = new_game(client, opponent="random")
        victory_url, victory_auth = new_game(client, opponent="victory")
        engine_url, engine_auth = new_game(client, opponent="engine", level=2)
        until(lambda: client.get(random_url, headers=random_auth).json()["moves"] != [],
              "Random's reply")
        victory = client.get(victory_url, headers=victory_auth).json()
        assert victory["moves"] == [] and victory["programs_waiting"] == ["black"]
        assert victory["waiting_for"] == ["players"] and not victory["paused"]
        clock.now += 30  # thirty seconds of waiting: charged to nobody
        compile_.finish("players")
        until(lambda: client.get(victory_url, headers=victory_auth).json()["moves"] != [],
              "Victory's reply")
        victory = client.get(victory_url, headers=victory_auth).json()
        assert victory["programs_waiting"] == [] and victory["clock"]["black"] == 600.0

        engine = client.get(engine_url, headers=engine_auth).json()
        assert engine["moves"] == [] and engine["programs_waiting"] == ["black"]
        assert engine["waiting_for"] == ["engine"] and engine["clock"]["black"] == 600.0
        hints = client.get(engine_url + "/hints", headers=engine_auth)
        assert hints.status_code == 503 and hints.json()["error"]["code"] == "busy"
        assert "about" in hints.json()["error"]["message"]
        status = groups(client)
        assert status["engine"]["state"] == "compiling"
        assert status["engine"]["kernel"] == "endgame.solve3"
        assert status["engine"]["seconds_left"] > 0

        clock.now += 100
        compile_.finish("engine")
        until(lambda: client.get(engine_url, headers=engine_auth).json()["moves"] != [],
              "the engine's reply")
        engine = client.get(engine_url, headers=engine_auth).json()
        assert engine["clock"]["black"] == 600.0  # its move took no time on this clock
        assert client.get(engine_url + "/hints", headers=engine_auth).status_code == 200
        app: Any = client.app
        live = app.state.services.games.games[engine_url.rsplit("/", 1)[1]]
        kinds = [e.kind for e in live.game.events]
        assert kinds.index("program-waiting") < kinds.index("program-ready") \
            < kinds.index("move")
        assert client.get("/api/status").json()["engine"] == "ready"


def test_an_official_game_begins_once_its_program_can_move(
        tmp_path: Path, compile_: SlowCompile) -> None:
    clock = FakeClock()
    with TestClient(app_with(tmp_path, compile_, clock)) as client:
        compile_.finish("rules", "players")
        url, auth = new_game(client, opponent="engine", level=2, colour="black",
                             casual=False)
        game = client.get(url, headers=auth).json()
        assert game["paused"] and game["programs_waiting"] == ["white"]
        assert game["legal"] == [] and game["clock"]["running"] is None
        refused = client.post(url + "/moves", headers=auth, json={"move": "f5"})
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "program_waiting"
        clock.now += 45
        compile_.finish("engine")
        until(lambda: not client.get(url, headers=auth).json()["paused"], "the start")
        game = client.get(url, headers=auth).json()
        assert game["clock"]["running"] == "black" and game["clock"]["black"] == 600.0
        assert game["legal"]
        clock.now += 5
        moved = client.post(url + "/moves", headers=auth, json={"move": "f5"})
        assert moved.status_code == 200, moved.text
        assert moved.json()["clock"]["black"] == 595.0


def test_a_restart_mid_wait_keeps_the_clock_and_the_program_then_moves(
        tmp_path: Path, compile_: SlowCompile) -> None:
    clock = FakeClock()
    with TestClient(app_with(tmp_path, compile_, clock)) as client:
        compile_.finish("rules", "players")
        url, auth = new_game(client, opponent="engine", level=2)
        assert client.get(url, headers=auth).json()["programs_waiting"] == ["black"]
        clock.now += 20
    clock.now += 200  # the server is down; then it starts with the kernels on disk
    again = create_app(Settings(warm_engine=True, warm_in_background=True, tick_seconds=3600),
                       db_url=f"sqlite:///{tmp_path / 'games.db'}", wall_clock=clock)
    with TestClient(again) as client:
        until(lambda: client.get(url, headers=auth).json()["moves"] != [],
              "the engine's reply after the restart")
        game = client.get(url, headers=auth).json()
        assert game["programs_waiting"] == [] and game["clock"]["black"] == 600.0


def test_the_wide_kernels_load_only_when_a_wide_board_is_played(
        tmp_path: Path, compile_: SlowCompile) -> None:
    clock = FakeClock()
    with TestClient(app_with(tmp_path, compile_, clock)) as client:
        compile_.finish("rules", "players", "engine")
        until(lambda: client.get("/api/status").json()["engine"] == "ready", "the engine")
        assert {g: v["state"] for g, v in groups(client).items()
                if g.startswith("wide")} == {"wide-rules": "idle", "wide": "idle"}
        compile_.finish("wide-rules")  # the board's own, compiled when first asked for
        url, auth = new_game(client, opponent="random", variant="grand")
        until(lambda: client.get(url, headers=auth).json()["moves"] != [], "Random on Grand")
        status = groups(client)
        assert status["wide-rules"]["state"] == "ready" and status["wide"]["state"] == "idle"
        assert compile_.asked[1:] == [["wide-rules"]]

        url, auth = new_game(client, opponent="engine", level=1, variant="grand")
        game = client.get(url, headers=auth).json()
        assert game["programs_waiting"] == ["black"] and game["waiting_for"] == ["wide"]
        assert groups(client)["wide"]["state"] == "compiling"
        compile_.finish("wide")
        until(lambda: client.get(url, headers=auth).json()["moves"] != [], "the wide engine")


# ---- the estimate -----------------------------------------------------------------------------
@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expected cold CPU of the groups as these tests reckon with it (rules 1,
    players 2.5, engine 240), whatever the measured table says today."""
    from hasamigo._kernels import warm

    for group, seconds in (("rules", 1.0), ("players", 2.5), ("engine", 240.0)):
        monkeypatch.setitem(warm.EXPECTED_CPU, group, seconds)


@pytest.mark.usefixtures("table")
def test_the_estimate_scales_the_table_by_the_run() -> None:
    """Per group: state, fraction, seconds left (those before it included), the kernel
    compiling now; scaled by the CPU the compile gets a second (a busy machine) and by
    how the groups done compared with the table."""

    async def run() -> None:
        clock = FakeClock(0.0)
        emitted: list[Emit] = []
        go = threading.Event()

        def compiler(groups: list[str], emit: Emit) -> None:
            emitted.append(emit)
            go.wait(30)

        warmup = KernelWarmup(lambda group: None, compiler=compiler, clock=clock)
        warmup.start()
        while not emitted:
            await asyncio.sleep(0.01)
        emit = emitted[0]

        async def say(**event: Any) -> None:
            emit(event)
            await asyncio.sleep(0.05)

        assert warmup.group_state("rules") == "compiling"
        assert warmup.group_state("engine") == "waiting"
        assert warmup.group_state("wide") == "idle" and warmup.progress("wide")[1] is None
        # a quiet machine: a CPU second a second; the table's figures (1, 2.5, 240)
        fraction, left, _ = warmup.progress("engine")
        assert fraction == 0.0 and left == pytest.approx(1 + 2.5 + 240 + 1.0)
        clock.now = 2.0
        await say(event="done", group="rules", seconds=1.0, cpu=2.0)
        await say(event="done", group="players", seconds=2.5, cpu=4.5)
        assert warmup.is_ready("rules", "players") and not warmup.is_ready("engine")
        clock.now = 64.5
        await say(event="compiling", group="engine", kernel="endgame.solve3", cpu=64.5)
        fraction, left, kernel = warmup.progress("engine")
        assert kernel == "endgame.solve3"
        assert fraction == pytest.approx(60 / 240, abs=0.01)
        assert left == pytest.approx(180 + 1.0, abs=1)
        # busy: only 30 more CPU seconds in the next 60 (half a core): twice the wall time
        clock.now = 124.5
        await say(event="tick", cpu=94.5)
        _, left, _ = warmup.progress("engine")
        share = 94.5 / 124.5
        assert left == pytest.approx(150 / share + 1.0, abs=1)
        # the table said 240 but the group runs on: a share of it is always left
        clock.now = 400.0
        await say(event="tick", cpu=300.0)
        fraction, left, _ = warmup.progress("engine")
        assert fraction < 1 and left is not None and left > 1.0
        go.set()
        await say(event="done", group="engine", seconds=296.0, cpu=300.5)
        for _ in range(100):
            if warmup.is_ready("engine"):
                break
            await asyncio.sleep(0.02)
        assert warmup.state == "ready" and warmup.progress("engine") == (1.0, 0.0, None)
        await warmup.stop()

    asyncio.run(run())


@pytest.mark.usefixtures("table")
def test_groups_done_slower_than_the_table_lengthen_the_estimate() -> None:
    async def run() -> None:
        clock = FakeClock(0.0)
        emitted: list[Emit] = []
        go = threading.Event()

        def compiler(groups: list[str], emit: Emit) -> None:
            emitted.append(emit)
            go.wait(30)

        warmup = KernelWarmup(lambda group: None, compiler=compiler, clock=clock)
        warmup.start()
        while not emitted:
            await asyncio.sleep(0.01)
        clock.now = 12.0
        emitted[0]({"event": "done", "group": "rules", "seconds": 3.0, "cpu": 3.5})
        emitted[0]({"event": "done", "group": "players", "seconds": 8.0, "cpu": 12.0})
        await asyncio.sleep(0.1)
        _, left, _ = warmup.progress("engine")
        speed = (3.0 + 8.0 + 5.0) / (1.0 + 2.5 + 5.0)  # the groups done took longer
        assert left == pytest.approx(240 * speed + 1.0, rel=0.02)
        go.set()
        await warmup.stop()

    asyncio.run(run())
