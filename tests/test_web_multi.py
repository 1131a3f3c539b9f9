"""Multi-player games in the web app (``/api/multi``): creating, joining each seat with its
own token, moves refused for the wrong seat (403) or against the rules (422, saying why),
programs moving by themselves, the game to its end (scores summing to the 64 squares),
a restart keeping every move, and the ``.mgf`` download read back."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import make_client

from hasamigo.multi import MultiBoard
from hasamigo.notation import parse_multi_record
from hasamigo.storage import Database
from hasamigo.storage.multi_games import MultiGameRepository
from hasamigo.storage.secrets import secret_hash


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "multi.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/multi", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def join_all(client: TestClient, game: dict[str, Any]) -> dict[str, str]:
    """Every seat's token by colour: the creator's and each join link's."""
    tokens = {c: game["seat_token"] for c in game["your_colours"]}
    for colour, url in game["join_urls"].items():
        code = url.split("code=")[1]
        response = client.post(f"/api/multi/{game['id']}/join", json={"code": code})
        assert response.status_code == 200, response.text
        assert response.json()["your_colours"] == [colour]
        tokens[colour] = response.json()["seat_token"]
    return tokens


def wait_for_person(client: TestClient, game_id: str, token: str | None = None
                    ) -> dict[str, Any]:
    """The game once no program is to move (the programs move on the search threads)."""
    deadline = time.monotonic() + 30
    while True:
        view = client.get(f"/api/multi/{game_id}",
                          headers=bearer(token) if token else {}).json()
        seat = next((s for s in view["seats"] if s["colour"] == view["turn"]), None)
        if view["over"] or (seat is not None and seat["program"] is None):
            return view  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, view
        time.sleep(0.02)


def play_out(client: TestClient, game_id: str, tokens: dict[str, str], seed: int = 1
             ) -> dict[str, Any]:
    """Random legal moves for the people's seats, each with its own token, to the end."""
    rng = random.Random(seed)
    view = wait_for_person(client, game_id)
    while not view["over"]:
        response = client.post(f"/api/multi/{game_id}/moves",
                               json={"move": rng.choice(view["legal"])},
                               headers=bearer(tokens[view["turn"]]))
        assert response.status_code == 200, response.text
        view = wait_for_person(client, game_id)
    return view


def test_four_seats_online_each_with_its_own_token_to_the_end(client: TestClient) -> None:
    game = create(client, game="rolit", online=True, first="red",
                  seats=[{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}, {"name": "Di"}])
    assert [s["colour"] for s in game["seats"]] == ["red", "yellow", "green", "blue"]
    assert [s["waiting"] for s in game["seats"]] == [False, True, True, True]
    assert game["your_colours"] == ["red"] and set(game["join_urls"]) == \
        {"yellow", "green", "blue"}
    tokens = join_all(client, game)
    assert len(set(tokens.values())) == 4
    # a join link works once
    used = game["join_urls"]["blue"].split("code=")[1]
    again = client.post(f"/api/multi/{game['id']}/join", json={"code": used})
    assert again.status_code == 403 and again.json()["error"]["code"] == "forbidden"
    view = client.get(f"/api/multi/{game['id']}", headers=bearer(tokens["green"])).json()
    assert view["your_colours"] == ["green"] and not any(s["waiting"] for s in view["seats"])
    # yellow's token cannot move for red
    wrong = client.post(f"/api/multi/{game['id']}/moves", json={"move": "f4"},
                        headers=bearer(tokens["yellow"]))
    assert wrong.status_code == 403, wrong.text
    assert wrong.json()["error"]["code"] == "not_your_seat"
    assert "red's turn" in wrong.json()["error"]["message"]
    # an illegal move says why
    illegal = client.post(f"/api/multi/{game['id']}/moves", json={"move": "a1"},
                          headers=bearer(tokens["red"]))
    assert illegal.status_code == 422
    assert illegal.json()["error"]["code"] == "illegal_move"
    assert "a capture is possible, so one must be made" in illegal.json()["error"]["message"]
    occupied = client.post(f"/api/multi/{game['id']}/moves", json={"move": "d4"},
                           headers=bearer(tokens["red"]))
    assert occupied.status_code == 422 and occupied.json()["error"]["reason"] == "occupied"
    # no token: 401; another game's token: 403
    assert client.post(f"/api/multi/{game['id']}/moves", json={"move": "f4"}).status_code \
        == 401
    view = play_out(client, game["id"], tokens)
    assert view["over"] and view["turn"] is None and view["legal"] == []
    assert sum(s["discs"] for s in view["standings"]) == 64
    assert len(view["moves"]) == 60 and len(view["boards"]) == 61
    assert view["boards"][-1].count(".") == 0
    assert view["standings"][0]["rank"] == 1
    after = client.post(f"/api/multi/{game['id']}/moves", json={"move": "pass"},
                        headers=bearer(tokens["red"]))
    assert after.status_code == 422 and after.json()["error"]["reason"] == "game_over"


def test_one_screen_three_people_and_a_program(client: TestClient) -> None:
    game = create(client, game="othello4", first="black",
                  seats=[{"name": "Ann"}, {"name": "Bo"}, {"player": "greedy"},
                         {"name": "Di"}])
    assert game["join_urls"] == {}
    assert game["your_colours"] == ["black", "red", "blue"]  # every person's seat
    token = game["seat_token"]
    assert [s["program"] for s in game["seats"]] == [None, None, "greedy", None]
    assert game["seats"][2]["name"] == "Greedy"
    first = client.post(f"/api/multi/{game['id']}/moves", json={"move": game["legal"][0]},
                        headers=bearer(token))
    assert first.status_code == 200, first.text
    assert first.json()["moves"][0] == game["legal"][0]
    # red (a person, or a forced pass) moves second; white's third move is the program's,
    # made by itself
    view = wait_for_person(client, game["id"], token)
    while len(view["moves"]) < 3:
        moved = client.post(f"/api/multi/{game['id']}/moves", json={"move": view["legal"][0]},
                            headers=bearer(token))
        assert moved.status_code == 200, moved.text
        view = wait_for_person(client, game["id"], token)
    assert view["turn"] != "white" and len(view["moves"]) >= 3
    assert view["your_colours"] == ["black", "red", "blue"]  # never the program's
    view = play_out(client, game["id"], {c: token for c in ("black", "red", "blue")})
    board = MultiBoard("othello4", seats=["black", "red", "white", "blue"], first="black")
    for move in view["moves"]:
        board.play("pass" if move == "PA" else move)
    assert board.is_game_over()
    assert [s["discs"] for s in view["standings"]] == \
        [s.discs for s in board.standings()]
    # 4人対戦オセロ's empties count for nobody: the seats' discs and the empties make 64
    assert sum(s["discs"] for s in view["standings"]) + view["boards"][-1].count(".") == 64


def test_a_game_of_programs_but_one_person_moves_first_by_itself(client: TestClient) -> None:
    game = create(client, game="rolit", first="yellow",
                  seats=[{"name": "Ann"}, {"player": "random"}, {"player": "search"}])
    # red, yellow, green; yellow (random) and green (search) move before red's first turn
    view = wait_for_person(client, game["id"])
    assert [m for m in view["moves"]][:2] and len(view["moves"]) == 2
    assert view["turn"] == "red" and view["your_colours"] == []


def test_bad_requests_are_refused_with_clear_messages(client: TestClient) -> None:
    bad = client.post("/api/multi", json={"seats": [{"player": "person"}]})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"
    programs = client.post("/api/multi", json={"seats": [{"player": "greedy"},
                                                         {"player": "random"}]})
    assert programs.status_code == 400
    assert "at least one person" in programs.json()["error"]["message"]
    colour = client.post("/api/multi", json={"seats": [{}, {}], "first": "yellow"})
    assert colour.status_code == 400
    assert "yellow does not play with 2 seats" in colour.json()["error"]["message"]
    unknown = client.post("/api/multi", json={"seats": [{}, {}], "first": "purple"})
    assert unknown.status_code == 400 and "no colour" in unknown.json()["error"]["message"]
    deep = client.post("/api/multi", json={"seats": [{}, {"player": "maxn:8"}]})
    assert deep.status_code == 422
    assert client.get("/api/multi/nosuchgame").status_code == 404
    game = create(client, seats=[{}, {}], first="red")
    other = create(client, seats=[{}, {}], first="red")
    stranger = client.post(f"/api/multi/{game['id']}/moves", json={"move": "f4"},
                           headers=bearer(other["seat_token"]))
    assert stranger.status_code == 403
    assert "does not belong to this game" in stranger.json()["error"]["message"]
    square = client.post(f"/api/multi/{game['id']}/moves", json={"move": "z9"},
                         headers=bearer(game["seat_token"]))
    assert square.status_code == 422


def test_a_restart_keeps_every_move_and_the_record_reads_back(db: Path) -> None:
    with make_client(db) as client:
        game = create(client, game="rolit", online=True, first="green",
                      seats=[{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"},
                             {"player": "greedy"}])
        tokens = join_all(client, game)
        view = wait_for_person(client, game["id"])
        rng = random.Random(3)
        for _ in range(9):
            response = client.post(f"/api/multi/{game['id']}/moves",
                                   json={"move": rng.choice(view["legal"])},
                                   headers=bearer(tokens[view["turn"]]))
            assert response.status_code == 200, response.text
            view = wait_for_person(client, game["id"])
        before = view
    # what is stored is the hash of each secret, never the secret
    stored = MultiGameRepository(Database(f"sqlite:///{db}")).get(game["id"])
    assert stored is not None and list(stored.moves) == before["moves"]
    hashes = {s.hash for s in stored.secrets}
    assert {secret_hash(t) for t in tokens.values()} <= hashes
    assert not set(tokens.values()) & hashes
    with make_client(db) as client:
        after = client.get(f"/api/multi/{game['id']}", headers=bearer(tokens["red"])).json()
        assert after["moves"] == before["moves"] and after["boards"] == before["boards"]
        assert after["your_colours"] == ["red"]
        view = play_out(client, game["id"], tokens, seed=5)
        download = client.get(f"/api/multi/{game['id']}/record.mgf")
        assert download.status_code == 200
        assert "attachment" in download.headers["content-disposition"]
    record = parse_multi_record(download.text)
    assert [("PA" if m.is_pass else str(m)) for m in record.moves] == view["moves"]
    assert record.names == ("Cy", "Greedy", "Ann", "Bo")  # turn order from green
    assert record.result is not None and sum(record.result) == 64
    assert list(record.result) == [next(s["discs"] for s in view["seats"]
                                        if s["colour"] == c) for c in
                                   ("green", "blue", "red", "yellow")]


def test_the_pages_are_served(client: TestClient) -> None:
    page = client.get("/multi")
    assert page.status_code == 200 and 'id="multi-new"' in page.text
    game = create(client, seats=[{}, {}], first="red")
    assert client.get(f"/multi/{game['id']}").status_code == 200
    # the pages poll the state, whose your_colours follow the token: never from a cache
    assert client.get(f"/api/multi/{game['id']}").headers["cache-control"] == "no-store"
    assert client.get(f"/multi/{game['id']}/join?code=x").status_code == 200
    missing = client.get("/multi/nosuchgame", headers={"Accept": "text/html"})
    assert missing.status_code == 404
    assert 'href="/multi"' in client.get("/").text


def test_a_program_to_move_when_the_server_stopped_moves_when_the_game_is_read(
        db: Path) -> None:
    with make_client(db) as client:
        game = create(client, game="rolit", first="red",
                      seats=[{"name": "Ann"}, {"player": "greedy"}])
    # as a server stopping between the person's move and the program's would leave it
    repo = MultiGameRepository(Database(f"sqlite:///{db}"))
    stored = repo.get(game["id"])
    assert stored is not None
    repo.save(stored, moves=("f4",))
    with make_client(db) as client:
        view = wait_for_person(client, game["id"], game["seat_token"])
        assert view["moves"][0] == "f4" and len(view["moves"]) == 2
        assert view["turn"] == "red" and view["your_colours"] == ["red"]


def test_new_games_are_limited_per_address(tmp_path: Path) -> None:
    from test_web_api import SETTINGS

    with make_client(tmp_path / "limit.db",
                     settings=SETTINGS.model_copy(update={"games_per_minute": 2})) as client:
        assert [client.post("/api/multi", json={"seats": [{}, {}]}).status_code
                for _ in range(3)] == [201, 201, 429]
