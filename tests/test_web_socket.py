"""The game websocket: hello with a seat token first, typed messages, live states, and
malformed, oversized, out-of-order and flooding clients refused without harm."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_web_api import Seat, create, make_client

from hasamigo.web import Settings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(warm_engine=False, tick_seconds=3600, ws_hello_seconds=0.5,
                        ws_messages_per_second=30)
    with make_client(tmp_path / "ws.db", settings=settings) as c:
        yield c


def hello(socket: Any, token: str | None) -> dict[str, Any]:
    socket.send_json({"type": "hello", "token": token})
    first: dict[str, Any] = socket.receive_json()
    return first


def test_a_seat_holder_plays_and_every_watcher_gets_the_state(client: TestClient) -> None:
    game, both = create(client, opponent="person", public=True)
    with client.websocket_connect(f"/ws/games/{game['id']}") as player, \
            client.websocket_connect(f"/ws/games/{game['id']}") as watcher:
        first = hello(player, both.token)
        assert first["type"] == "state" and first["game"]["you"] == [0, 1]
        seen = hello(watcher, None)
        assert seen["game"]["you"] == [] and seen["game"]["public"]
        player.send_json({"type": "ping"})
        assert player.receive_json() == {"type": "pong"}
        player.send_json({"type": "move", "move": "f5"})
        assert player.receive_json()["game"]["moves"] == ["f5"]
        assert watcher.receive_json()["game"]["moves"] == ["f5"]
        watcher.send_json({"type": "move", "move": "f4"})  # a watcher can't play
        error = watcher.receive_json()
        assert error["type"] == "error" and error["error"]["code"] == "unauthorized"
        player.send_json({"type": "move", "move": "a1"})
        assert player.receive_json()["error"]["reason"] == "flips_nothing"
        player.send_json({"type": "sync"})
        assert player.receive_json()["game"]["moves"] == ["f5"]


def test_malformed_and_out_of_order_messages_get_typed_errors(client: TestClient) -> None:
    game, me = create(client)
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:
        hello(socket, me.token)
        for raw in ("not json", "{}", '{"type": "nonsense"}', '{"type": "move"}',
                    '{"type": "move", "move": "f5", "extra": 1}', "[1, 2]", "null",
                    '{"type": "move", "move": "' + "f" * 100 + '"}'):
            socket.send_text(raw)
            error = socket.receive_json()
            assert error["type"] == "error" and error["error"]["code"] == "bad_message", raw
        socket.send_bytes(b"\x00\xff binary")
        assert socket.receive_json()["error"]["code"] == "bad_message"
        socket.send_json({"type": "hello", "token": me.token})  # hello twice
        assert socket.receive_json()["type"] == "error"
        socket.send_json({"type": "move", "move": "f5"})  # the socket still works
        assert socket.receive_json()["game"]["moves"][0] == "f5"
    assert Seat(client, game["id"], me.token).view()["moves"][0] == "f5"


def test_the_first_message_must_be_a_hello_with_a_valid_token(client: TestClient) -> None:
    game, me = create(client)
    _other, stranger = create(client)
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:
        socket.send_json({"type": "move", "move": "f5"})
        assert socket.receive_json()["error"]["code"] == "bad_message"
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:
        socket.send_json({"type": "hello", "token": stranger.token})
        assert socket.receive_json()["error"]["code"] == "forbidden"
        with pytest.raises(WebSocketDisconnect) as info:
            socket.receive_json()
        assert info.value.code == 4403
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:
        socket.send_json({"type": "hello", "token": None})  # a private game: no watching
        assert socket.receive_json()["error"]["code"] == "unauthorized"
    with client.websocket_connect("/ws/games/nonexistent") as socket:
        socket.send_json({"type": "hello", "token": me.token})
        assert socket.receive_json()["error"]["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as info:
            socket.receive_json()
        assert info.value.code == 4404
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:  # silent client
        assert socket.receive_json()["error"]["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as info:
            socket.receive_json()
        assert info.value.code == 1008


def test_oversized_messages_and_floods_close_the_socket(client: TestClient) -> None:
    game, me = create(client)
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:
        hello(socket, me.token)
        socket.send_text(json.dumps({"type": "ping", "pad": "x" * 20_000}))
        with pytest.raises(WebSocketDisconnect) as info:
            socket.receive_json()
        assert info.value.code == 1009
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:
        hello(socket, me.token)
        with pytest.raises(WebSocketDisconnect) as info:
            for _ in range(200):
                socket.send_json({"type": "ping"})
                message = socket.receive_json()
                assert message["type"] in ("pong", "error")
        assert info.value.code == 1008
    assert Seat(client, game["id"], me.token).view()["moves"] == []


def test_watchers_are_closed_out_when_the_game_is_made_private(client: TestClient) -> None:
    game, both = create(client, opponent="person", public=True)
    with client.websocket_connect(f"/ws/games/{game['id']}") as watcher:
        hello(watcher, None)
        assert both.post("/public", {"public": False}).status_code == 200
        assert watcher.receive_json()["error"]["code"] == "forbidden"
        with pytest.raises(WebSocketDisconnect) as info:
            watcher.receive_json()
        assert info.value.code == 4403


def test_a_players_socket_closes_when_the_game_is_deleted(client: TestClient) -> None:
    game, both = create(client, opponent="person")
    with client.websocket_connect(f"/ws/games/{game['id']}") as player:
        hello(player, both.token)
        response = client.delete(f"/api/games/{game['id']}", headers=both.headers())
        assert response.status_code == 204
        assert player.receive_json()["error"]["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as info:
            player.receive_json()
        assert info.value.code == 4404
