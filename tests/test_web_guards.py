"""What the server checks before it trusts a request (issue 50): authorisation before the
body on every route that needs a token (an OpenAPI-driven sweep: 401, never 422), and
``X-Forwarded-For`` believed only from the proxies named in
``Settings.forwarded_allow_ips``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import FakeTime, error_of, make_client

from hasamigo.web import Settings, create_app
from hasamigo.web.deps import READER_TOKEN, SEAT_TOKEN, SESSION_TOKEN
from hasamigo.web.limits import TrustedProxies


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "games.db") as c:
        yield c


# ---- authorisation before the body -------------------------------------------------------
#: a value for each path parameter of the API (well formed: the route is reached)
PATH_VALUES = {"tournament_id": "t0", "study_id": "s0", "number": "1", "board": "1",
               "node": "1", "table": "games", "code": "ABC"}
#: what the sweep sends as the body: none, empty, malformed JSON, JSON of the wrong shape
BODIES: list[tuple[bytes | None, dict[str, str]]] = [
    (None, {}),
    (b"", {"content-type": "application/json"}),
    (b"{", {"content-type": "application/json"}),
    (b'{"move": [1, 2], "square": {}, "black_discs": "x"}',
     {"content-type": "application/json"}),
    (b"not json", {"content-type": "text/plain"}),
]
#: headers that hold no usable token
NO_TOKEN: list[dict[str, str]] = [{}, {"Authorization": "Bearer"},
                                  {"Authorization": "Basic dXNlcjpwdw=="},
                                  {"Authorization": "Bearer " + "x" * 2000},
                                  {"Authorization": "Bearer a\tb"}]


def token_routes(document: dict[str, Any]) -> list[tuple[str, str]]:
    """``(method, path)`` of every operation whose security names a required token."""
    out = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            schemes = {name for entry in operation.get("security", []) for name in entry}
            if schemes & {SEAT_TOKEN, SESSION_TOKEN}:
                out.append((method.upper(), path))
    return out


def test_every_route_that_needs_a_token_says_401_whatever_the_body(
        client: TestClient) -> None:
    created = client.post("/api/games", json={"opponent": "person"})
    game = created.json()["id"]
    routes = token_routes(client.app.openapi())  # type: ignore[attr-defined]
    # the sweep covers the areas that act: games, records, tournaments, studies
    assert ("POST", "/api/games/{game_id}/moves") in routes
    assert ("POST", "/api/record/games/{game_id}/entries") in routes
    assert ("POST", "/api/tournaments/{tournament_id}/rounds") in routes
    assert ("GET", "/api/studies/{study_id}/report") in routes
    assert len(routes) >= 30, routes
    for method, template in routes:
        path = re.sub(r"\{(\w+)\}", lambda m: PATH_VALUES.get(m.group(1), game), template)
        for body, headers in BODIES:
            for auth in NO_TOKEN:
                response = client.request(method, path, content=body,
                                          headers={**headers, **auth})
                assert response.status_code == 401, (method, path, body, auth,
                                                     response.text)
                error = error_of(response)
                assert error["code"] == "unauthorized" and error["message"]
                assert set(error) == {"code", "message", "reason"}


def test_reading_routes_declare_the_token_as_optional(client: TestClient) -> None:
    document = client.app.openapi()  # type: ignore[attr-defined]
    schemes = document["components"]["securitySchemes"]
    assert {SEAT_TOKEN, READER_TOKEN, SESSION_TOKEN} <= set(schemes)
    # the tokens are bearer tokens; an account's session is its HttpOnly cookie
    assert all(s.get("scheme") == "bearer" for name, s in schemes.items()
               if name != "accountSession")
    cookie = schemes["accountSession"]
    assert (cookie["type"], cookie["in"], cookie["name"]) == ("apiKey", "cookie",
                                                              "hasamigo_session")
    reading = document["paths"]["/api/games/{game_id}"]["get"]["security"]
    assert reading == [{READER_TOKEN: []}]
    # a public game is read without a token; an action on it still needs one
    created = client.post("/api/games", json={"opponent": "person", "public": True}).json()
    assert client.get(f"/api/games/{created['id']}").status_code == 200
    assert client.post(f"/api/games/{created['id']}/moves",
                       json={"move": "f5"}).status_code == 401


def test_a_token_with_a_bad_body_is_then_validated(client: TestClient) -> None:
    created = client.post("/api/games", json={"opponent": "person"}).json()
    response = client.post(f"/api/games/{created['id']}/moves", content=b"{",
                           headers={"Authorization": f"Bearer {created['seat_token']}",
                                    "content-type": "application/json"})
    assert response.status_code == 422 and error_of(response)["code"] == "invalid_request"


# ---- X-Forwarded-For ---------------------------------------------------------------------
def new_games(client: TestClient, count: int, forwarded: str | None) -> list[int]:
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    return [client.post("/api/games", json={"opponent": "person"}, headers=headers)
            .status_code for _ in range(count)]


def peer_client(tmp_path: Path, peer: str, **settings: Any) -> TestClient:
    """A client whose connections come from ``peer``; 3 new games a minute per address."""
    t = FakeTime()
    app = create_app(Settings(warm_engine=False, tick_seconds=3600, games_per_minute=3,
                              **settings), db_url=f"sqlite:///{tmp_path / 'games.db'}",
                     time_source=t, wall_clock=t)
    return TestClient(app, client=(peer, 40000))


def test_a_forwarded_for_header_from_an_untrusted_peer_is_ignored(tmp_path: Path) -> None:
    with peer_client(tmp_path, "198.51.100.7") as client:
        # a new address in the header each time does not make a new client
        codes = [new_games(client, 1, f"203.0.113.{i}")[0] for i in range(5)]
        assert codes == [201, 201, 201, 429, 429]


def test_a_forwarded_for_header_from_a_trusted_proxy_names_the_client(
        tmp_path: Path) -> None:
    with peer_client(tmp_path, "10.0.0.2", forwarded_allow_ips=("10.0.0.0/8",)) as client:
        assert new_games(client, 4, "203.0.113.1") == [201, 201, 201, 429]
        # another client behind the same proxy has a limit of its own; what a client
        # claims left of the proxy's entry is not believed
        assert new_games(client, 3, "spoofed, 203.0.113.2") == [201, 201, 201]
        assert new_games(client, 1, "203.0.113.1, 203.0.113.2") == [429]
        # the proxy's own requests count for it
        assert new_games(client, 4, None) == [201, 201, 201, 429]


def test_trusted_proxies() -> None:
    nobody = TrustedProxies(())
    assert nobody.client("127.0.0.1", ["203.0.113.9"]) == "127.0.0.1"
    local = TrustedProxies(["127.0.0.1", "::1"])
    assert local.client("127.0.0.1", ["203.0.113.9"]) == "203.0.113.9"
    assert local.client("::1", ["203.0.113.9, 127.0.0.1"]) == "203.0.113.9"
    assert local.client("127.0.0.1", ["127.0.0.1"]) == "127.0.0.1"
    assert local.client("127.0.0.1", []) == "127.0.0.1"
    assert local.client("127.0.0.1", [" , "]) == "127.0.0.1"
    assert TrustedProxies(["*"]).client("198.51.100.1", ["a, b"]) == "a"
    assert len(local.client("127.0.0.1", ["x" * 1000])) == 64
    with pytest.raises(ValueError, match="trusted proxy"):
        TrustedProxies(["proxy.example"])
    from_json: Any = ["10.0.0.1"]  # serve --workers hands the settings over as JSON
    assert Settings(forwarded_allow_ips=from_json).forwarded_allow_ips == ("10.0.0.1",)
    with pytest.raises(ValueError):
        Settings(forwarded_allow_ips=("nonsense",))
