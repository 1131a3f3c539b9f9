"""Several server processes on one database (issue 20): each keeps games in memory only as
a cache, catches up with what the others stored, and one of them at a time (the lease
holder) runs a game's program and clock.

Here two apps in one test process share a SQLite file, or a PostgreSQL schema when
``HASAMIGO_TEST_POSTGRES`` holds a URL: each app runs its own event loop and its own
database connections, as two processes would. ``test_web_servers.py`` starts real
``hasamigo serve`` processes and kills one.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_storage_migration import BACKENDS, scratch_url
from test_web_api import FirstLegal, eventually

from hasamigo.storage import Database, GameRepository
from hasamigo.web import Settings, create_app

#: fast ticks and leases: a takeover within about a second
SETTINGS = Settings(warm_engine=False, tick_seconds=0.05, lease_seconds=0.6,
                    checkpoint_seconds=0.2, reply_wait_seconds=10.0)


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with scratch_url(request.param, tmp_path) as found:
        yield found


def server(url: str, gate: threading.Event | None = None) -> TestClient:
    app = create_app(SETTINGS, db_url=url,
                     player_factory=lambda spec, seed: FirstLegal(gate))
    return TestClient(app)


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", headers=auth(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def stored_events(url: str, game_id: str) -> int:
    db = Database(url)
    try:
        stored = GameRepository(db).load(game_id)
        assert stored is not None
        return len(stored.game.events)
    finally:
        db.close()


def test_moves_sent_to_either_process_all_land_once(url: str) -> None:
    with server(url) as a, server(url) as b:
        made = a.post("/api/games", json={"opponent": "person", "same_screen": True})
        assert made.status_code == 201, made.text
        game_id, token = made.json()["id"], made.json()["seat_token"]
        for ply in range(12):  # alternately through A and B: each must see the other's
            client = (a, b)[ply % 2]
            legal = view(client, game_id, token)["legal"]
            answer = client.post(f"/api/games/{game_id}/moves", json={"move": legal[0]},
                                 headers=auth(token))
            assert answer.status_code == 200, (ply, answer.text)
        seen_a, seen_b = view(a, game_id, token), view(b, game_id, token)
        assert seen_a["revision"] == seen_b["revision"]
        assert seen_a["cells"] == seen_b["cells"]
        assert len(seen_a["moves"]) == 12
    db = Database(url)  # every move stored once, in order
    try:
        stored = GameRepository(db).load(game_id)
        assert stored is not None
        assert [str(m.move) for m in stored.game.state.moves] == seen_a["moves"]
    finally:
        db.close()


def test_a_move_on_a_stale_copy_is_caught_up_not_refused(url: str) -> None:
    """B loaded the game, then A took moves: B's next move applies to the game as stored,
    not to its old copy (no conflict, no lost move)."""
    with server(url) as a, server(url) as b:
        made = a.post("/api/games", json={"opponent": "person", "same_screen": True})
        game_id, token = made.json()["id"], made.json()["seat_token"]
        assert view(b, game_id, token)["revision"] == view(a, game_id, token)["revision"]
        for _ in range(3):
            legal = view(a, game_id, token)["legal"]
            assert a.post(f"/api/games/{game_id}/moves", json={"move": legal[0]},
                          headers=auth(token)).status_code == 200
        revision = view(a, game_id, token)["revision"]
        legal = view(a, game_id, token)["legal"]
        answer = b.post(f"/api/games/{game_id}/moves",
                        json={"move": legal[0], "revision": revision}, headers=auth(token))
        assert answer.status_code == 200, answer.text
        assert len(answer.json()["moves"]) == 4


def test_the_owner_answers_a_move_sent_to_the_other_process(url: str) -> None:
    """The game was created on A, which runs its program; the person's move goes to B,
    which waits for the reply coming from A."""
    with server(url) as a, server(url, gate=threading.Event()) as b:
        made = a.post("/api/games", json={"opponent": "random", "colour": "black"})
        game_id, token = made.json()["id"], made.json()["seat_token"]
        legal = view(b, game_id, token)["legal"]
        answer = b.post(f"/api/games/{game_id}/moves?wait=true", json={"move": legal[0]},
                        headers=auth(token))
        assert answer.status_code == 200, answer.text
        # B's program is gated shut: only A's could have answered
        assert len(answer.json()["moves"]) == 2, answer.json()["moves"]
        assert answer.json()["turn"] == "black"


def test_watchers_elsewhere_see_deletion_and_visibility(url: str) -> None:
    with server(url) as a, server(url) as b:
        made = a.post("/api/games", json={"opponent": "person", "same_screen": True})
        game_id, token = made.json()["id"], made.json()["seat_token"]
        assert b.get(f"/api/games/{game_id}").status_code == 401  # private
        answer = a.post(f"/api/games/{game_id}/public", json={"public": True},
                        headers=auth(token))
        assert answer.status_code in (200, 204), answer.text
        eventually(lambda: b.get(f"/api/games/{game_id}").status_code == 200)
        assert a.delete(f"/api/games/{game_id}", headers=auth(token)).status_code in (200, 204)
        assert b.get(f"/api/games/{game_id}", headers=auth(token)).status_code == 404


def test_a_stopped_owner_hands_its_program_game_to_the_other(url: str) -> None:
    """A runs the game's program, which is stuck; A stops (its leases given up); B takes
    the game over and its program answers."""
    stuck = threading.Event()
    b = server(url)
    with b:
        a = server(url, gate=stuck)
        with a:
            made = a.post("/api/games", json={"opponent": "random", "colour": "black"})
            game_id, token = made.json()["id"], made.json()["seat_token"]
            legal = view(a, game_id, token)["legal"]
            assert a.post(f"/api/games/{game_id}/moves", json={"move": legal[0]},
                          headers=auth(token)).status_code == 200
            # the program's task starts after the move's answer: wait for it to think
            eventually(lambda: view(a, game_id, token)["thinking"])
        stuck.set()  # let A's search thread end; its move is no longer wanted
        done = eventually(lambda: len(view(b, game_id, token)["moves"]) == 2)
        assert done
    assert stored_events(url, game_id) >= 3
