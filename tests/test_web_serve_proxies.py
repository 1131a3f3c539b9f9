"""``hasamigo serve`` and ``X-Forwarded-For`` (issue 50): by default the header is ignored,
even from loopback (which uvicorn's own proxy handling trusts unless told otherwise), so a
client cannot dodge the limit of 20 new games a minute by sending one; with
``--forwarded-allow-ips`` the named proxies' header names the client, in each process of
``--workers N`` too (their settings travel in ``HASAMIGO_SERVE_SETTINGS``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_web_servers import Server

pytestmark = pytest.mark.slow
LIMIT = 20  # Settings.games_per_minute


def statuses(server: Server, forwarded: list[str]) -> list[int]:
    return [server.http.post("/api/games", json={"opponent": "person"},
                             headers={"X-Forwarded-For": f}).status_code
            for f in forwarded]


def test_serve_ignores_the_header_by_default(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        # every request a "new client" by its header: still one address, one limit
        codes = statuses(server, [f"203.0.113.{i}" for i in range(LIMIT + 2)])
    finally:
        server.stop()
    assert codes == [201] * LIMIT + [429, 429]


def test_serve_believes_the_named_proxies_in_every_worker(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", "--workers", "2",
                    "--forwarded-allow-ips", "127.0.0.1,::1")
    try:
        one = statuses(server, ["203.0.113.1"] * (LIMIT + 2))
        other = statuses(server, ["203.0.113.2"] * 3)
    finally:
        server.stop()
    # the client named by the proxy has its limit (each process counts in memory: the
    # client's connection is kept, so one process counts it), another client has its own
    assert one[:LIMIT] == [201] * LIMIT and 429 in one[LIMIT:]
    assert other == [201] * 3
