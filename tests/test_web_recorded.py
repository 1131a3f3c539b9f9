"""A game recorded over the board takes its moves, take-backs and result only through the
record entry (issue 50): the ordinary move, take-back and resign routes, and a move over
the websocket, answer 409 pointing to ``/record/…``, so a rated result cannot bypass the
as-played record; an ordinary game is not affected."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import error_of, make_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "games.db") as c:
        yield c


@pytest.fixture
def recorded(client: TestClient) -> tuple[str, dict[str, str]]:
    response = client.post("/api/record/games", json={"names": ["Ann", "Bob"],
                                                      "clock_minutes": 10})
    assert response.status_code == 201, response.text
    data = response.json()
    game = data["game"]["game"]["id"]
    headers = {"Authorization": f"Bearer {data['seat_token']}"}
    assert client.post(f"/api/record/games/{game}/press", json={"colour": "white"},
                       headers=headers).status_code == 200
    return game, headers


@pytest.mark.parametrize(("route", "body", "points_to"), [
    ("moves", {"move": "f5"}, "entries"),
    ("undo", {}, "entries/undo"),
    ("resign", {"colour": "black"}, "card"),
])
def test_a_recorded_game_refuses_the_ordinary_routes(
        client: TestClient, recorded: tuple[str, dict[str, str]], route: str,
        body: dict[str, Any], points_to: str) -> None:
    game, headers = recorded
    entered = client.post(f"/api/record/games/{game}/entries", json={"square": "f5"},
                          headers=headers)
    assert entered.status_code == 200, entered.text
    response = client.post(f"/api/games/{game}/{route}", json=body, headers=headers)
    assert response.status_code == 409, response.text
    error = error_of(response)
    assert error["code"] == "wrong_phase"
    assert f"/api/record/games/{game}/{points_to}" in error["message"]
    assert f"/record/{game}" in error["message"]
    after = client.get(f"/api/record/games/{game}", headers=headers).json()["game"]
    assert after["moves"] == ["f5"] and after["result"] is None  # nothing changed


def test_a_recorded_game_refuses_a_move_over_the_websocket(
        client: TestClient, recorded: tuple[str, dict[str, str]]) -> None:
    game, headers = recorded
    token = headers["Authorization"].removeprefix("Bearer ")
    with client.websocket_connect(f"/ws/games/{game}") as socket:
        socket.send_json({"type": "hello", "token": token})
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "move", "move": "f5"})
        message = socket.receive_json()
        assert message["type"] == "error" and message["error"]["code"] == "wrong_phase"
        assert f"/record/{game}" in message["error"]["message"]


def test_an_ordinary_game_still_moves(client: TestClient) -> None:
    created = client.post("/api/games", json={"opponent": "person"}).json()
    headers = {"Authorization": f"Bearer {created['seat_token']}"}
    moved = client.post(f"/api/games/{created['id']}/moves", json={"move": "f5"},
                        headers=headers)
    assert moved.status_code == 200 and moved.json()["moves"] == ["f5"]
