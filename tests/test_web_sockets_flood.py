"""200 websockets opened and closed at once on one game, on a live uvicorn server (issue
50): past ``max_watchers_per_game`` (64) each is refused, and a refused socket whose
client has gone already is no error: nothing is logged as "Exception in ASGI
application", and the game is watched again normally afterwards."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from websockets.asyncio.client import connect

from hasamigo.web import Settings, create_app
from hasamigo.web.app import UVICORN_WS

SOCKETS = 200


class Records(logging.Handler):
    """Every record of level WARNING and above, from any logger."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Records]]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(Settings(warm_engine=False), db_url=f"sqlite:///{tmp_path / 'ws.db'}")
    # log_config=None: uvicorn leaves logging alone, so its records reach the root logger
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws=UVICORN_WS,
                                           log_config=None))
    records = Records()
    root = logging.getLogger()
    root.addHandler(records)
    # another test of this process may have run uvicorn with its own logging config, which
    # stops its loggers' records at "uvicorn" (propagate False): let them reach the root
    uvicorn_logger = logging.getLogger("uvicorn")
    propagated = uvicorn_logger.propagate
    uvicorn_logger.propagate = True
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "no server"
            time.sleep(0.02)
        yield f"127.0.0.1:{port}", records
    finally:
        server.should_exit = True
        thread.join(20)
        root.removeHandler(records)
        uvicorn_logger.propagate = propagated


async def open_and_close(address: str, game: str) -> None:
    """Connect, say hello, and leave at once (without reading the answer)."""
    async with connect(f"ws://{address}/ws/games/{game}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))


async def watch(address: str, game: str) -> str:
    async with connect(f"ws://{address}/ws/games/{game}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        kind: str = json.loads(await ws.recv())["type"]
        return kind


def test_200_sockets_opened_and_closed_at_once_log_no_error(
        live: tuple[str, Records]) -> None:
    address, records = live
    created = httpx2.post(f"http://{address}/api/games",
                          json={"opponent": "person", "public": True})
    game = created.json()["id"]

    async def flood() -> list[BaseException | None]:
        return await asyncio.gather(*(open_and_close(address, game) for _ in range(SOCKETS)),
                                    return_exceptions=True)

    failures = [r for r in asyncio.run(flood()) if r is not None]
    assert not failures, failures[:3]
    time.sleep(1)  # the server finishes with the sockets the clients have left
    assert asyncio.run(watch(address, game)) == "state"  # every watcher's place is free
    errors = [f"{r.name}: {r.getMessage()}" for r in records.records
              if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]
