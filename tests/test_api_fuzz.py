"""Schemathesis fuzzes the API from its OpenAPI document against a live server: no request
it can make gets a 5xx, and every refusal has the one error shape.

Half of the cases are pointed at a real game with its real seat token (the rest at random
ids and tokens), so the fuzzer reaches the game logic and not only the 404s. The number
of cases is bounded (``FUZZ_EXAMPLES`` per operation) and derandomised for CI.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import zlib
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from hasamigo import Board, Move
from hasamigo.web import Settings, create_app

FUZZ_EXAMPLES = int(os.environ.get("HASAMIGO_FUZZ_EXAMPLES", "25"))


class FirstLegal:
    def choose(self, board: Board, clock: object = None) -> Move:
        return next(iter(board.legal_moves))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    import uvicorn

    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    # warm_engine: the kernels load (or, on a cold cache, compile) before the first case,
    # as in production; a hint request must not wait for a compile
    app = create_app(Settings(warm_engine=True, games_per_minute=100_000, hint_depth=1,
                              eval_depth=1, review_depth=2, review_exact_empties=4),
                     db_url=f"sqlite:///{db}", player_factory=lambda spec, seed: FirstLegal())
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 600  # a cold kernel cache compiles for a minute or two
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    games = []
    for body in ({"opponent": "random", "clock_minutes": 0.02},
                 {"opponent": "person", "same_screen": False, "colour": "fuse-ishi"},
                 {"opponent": "person", "casual": False}):
        created = httpx2.post(base + "/api/games", json=body).json()
        games.append((created["id"], created["seat_token"]))
    yield {"base": base, "games": games}
    server.should_exit = True
    thread.join(10)


# The document comes from the app object itself (no server needed to collect the tests);
# the cases are sent to the live server of the ``live`` fixture.
schema = schemathesis.openapi.from_dict(
    create_app(Settings(warm_engine=False), db_url="sqlite:///:memory:").openapi())


@schema.parametrize()
@settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_server_error(case: Any, live: dict[str, Any]) -> None:
    key = zlib.crc32(repr((case.method, case.path, case.path_parameters, case.body,
                           case.query)).encode())
    headers = dict(case.headers or {})
    if case.path_parameters and "game_id" in case.path_parameters and key % 2:
        game_id, token = live["games"][key // 2 % len(live["games"])]
        case.path_parameters["game_id"] = game_id
        if key % 3:
            headers["Authorization"] = f"Bearer {token}"
    response = case.call(base_url=live["base"], headers=headers, timeout=120)
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert isinstance(body["error"]["code"], str) and body["error"]["message"]


def test_the_openapi_document_declares_the_seat_token() -> None:
    app = create_app(Settings(warm_engine=False), db_url="sqlite:///:memory:")
    document = app.openapi()
    schemes = document["components"]["securitySchemes"]
    assert any(s.get("scheme") == "bearer" for s in schemes.values())
    errors = document["paths"]["/api/games/{game_id}/moves"]["post"]["responses"]
    assert {"401", "403", "409", "422"} <= set(errors)

