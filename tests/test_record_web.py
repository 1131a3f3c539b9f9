"""The over-the-board API and pages through TestClient, with the games' clock driven by
hand: a game over the board is created through the game service (one token for both
seats), pressed, entered move by move with faults, claimed with the games API's own
routes, and closed by the result card; all of it one stored game that reloads the same."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import FakeTime, error_of, make_client


@pytest.fixture
def t() -> FakeTime:
    return FakeTime()


@pytest.fixture
def client(tmp_path: Path, t: FakeTime) -> Iterator[TestClient]:
    with make_client(tmp_path / "games.db", t) as c:
        yield c


class Recorder:
    def __init__(self, client: TestClient, game_id: str, token: str) -> None:
        self.client, self.id, self.token = client, game_id, token

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, body: dict[str, Any] | None = None, *, games: bool = False,
             status: int = 200) -> dict[str, Any]:
        base = "/api/games" if games else "/api/record/games"
        response = self.client.post(f"{base}/{self.id}{path}", json=body or {},
                                    headers=self.headers)
        assert response.status_code == status, response.text
        data: dict[str, Any] = response.json()
        return data

    def view(self) -> dict[str, Any]:
        response = self.client.get(f"/api/record/games/{self.id}", headers=self.headers)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data


def create(client: TestClient, **fields: Any) -> Recorder:
    response = client.post("/api/record/games", json={"names": ["Ann", "Bob"], **fields})
    assert response.status_code == 201, response.text
    data = response.json()
    return Recorder(client, data["game"]["game"]["id"], data["seat_token"])


def test_a_game_over_the_board_from_the_first_press_to_the_card(
        client: TestClient, t: FakeTime, tmp_path: Path) -> None:
    game = create(client, clock_minutes=10)
    view = game.view()
    assert view["over_the_board"] and view["clock"]["running"] is None
    assert view["clock"]["starter"] == "white" and not view["clock"]["started"]
    assert view["names"] == {"black": "Ann", "white": "Bob"}
    refused = client.post(f"/api/record/games/{game.id}/press", json={"colour": "black"},
                          headers=game.headers)
    assert refused.status_code == 409 and "white starts the clock" in error_of(refused)["message"]
    view = game.post("/press", {"colour": "white"})
    assert view["clock"]["running"] == "black" and view["clock"]["started"]
    t.now += 7
    view = game.post("/entries", {"square": "f5", "turned": []})  # e5 left unturned
    assert view["pending"] == [{"move_number": 1, "kind": "not_turned", "squares": ["e5"],
                                "message": "move 1: e5 not turned: bracketed on the line "
                                           "f5–d5", "decision": None}]
    assert view["clock"]["running"] == "black"  # an entry never presses the clock
    view = game.post("/entries/correct")
    assert view["pending"] == [] and view["game"]["moves"] == ["f5"]
    assert view["faults"][0]["decision"] == "corrected"
    view = game.post("/press", {"colour": "black"})
    assert view["clock"]["black"] == pytest.approx(593)
    view = game.post("/entries", {"square": "d6"})  # turned: what it brackets
    assert view["pending"] == [] and view["game"]["moves"] == ["f5", "d6"]
    view = game.post("/card", {"black": 40, "white": 25})
    assert view["game"]["result"]["score"] == "39–25" and view["card"] == [40, 25]
    assert view["game"]["result_final"]
    # one stored game: a new server on the same database reads the same
    with make_client(tmp_path / "games.db", t) as again:
        reread = Recorder(again, game.id, game.token).view()
    assert (reread["faults"], reread["card"], reread["game"]["result"]) == \
        (view["faults"], view["card"], view["game"]["result"])


def test_flags_are_claimed_with_the_games_api(client: TestClient, t: FakeTime) -> None:
    game = create(client, clock_minutes=1)
    game.post("/press", {"colour": "white"})
    t.now += 61
    view = game.view()
    assert view["clock"]["flagged"] == ["black"] and view["game"]["phase"] == "playing"
    game.post("/claim", {"colour": "white", "flagged": "black"}, games=True)
    game.post("/timeout", {"choice": "playout"}, games=True)
    t.now += 10
    game.post("/playout/stop", games=True)
    view = game.post("/card", {"black": 20, "white": 40})
    assert view["game"]["result"]["termination"] == "playout"
    assert view["game"]["result"]["score"] == "24–40"


def test_late_arrival_and_forfeit(client: TestClient, t: FakeTime) -> None:
    game = create(client, clock_minutes=20, scheduled_start=t.now - 300)
    view = game.post("/absent", {"participant": 1})
    assert view["late"]["name"] == "Bob" and view["clock"]["white"] == pytest.approx(900)
    t.now += 60
    view = game.post("/arrive", {"participant": 1})
    assert view["clock"]["white"] == pytest.approx(840) and view["clock"]["running"] is None
    view = game.post("/forfeit", {"participant": 1})
    result = view["game"]["result"]
    assert result["score"] == "64–0" and not result["rated"]
    assert result["termination"] == "forfeit"


def test_an_illegal_move_claimed_in_byo_yomi(client: TestClient, t: FakeTime) -> None:
    game = create(client, clock_minutes=1, byoyomi_seconds=30)
    game.post("/press", {"colour": "white"})
    t.now += 40
    view = game.post("/press", {"colour": "black"})
    assert view["clock"]["in_byoyomi"] == ["black"]
    view = game.post("/illegal", {"colour": "white"})
    assert view["game"]["phase"] == "timeout-choice" and view["game"]["timeout_loser"] == "black"


def test_only_the_recorders_token_acts(client: TestClient) -> None:
    game = create(client)
    response = client.post(f"/api/record/games/{game.id}/press", json={"colour": "white"})
    assert response.status_code == 401
    other = create(client)
    response = client.post(f"/api/record/games/{game.id}/press", json={"colour": "white"},
                           headers=other.headers)
    assert response.status_code == 403
    bad = client.post(f"/api/record/games/{game.id}/entries", json={"square": "z9"},
                      headers=game.headers)
    assert bad.status_code == 400 and error_of(bad)["code"] == "invalid_square"


def test_the_sheet_checker_has_the_clis_shape(client: TestClient) -> None:
    rows = ["- - - - - - - -"] * 8
    rows[4] = "- - - - - 1 - -"
    rows[5] = "- - - 2 - - - -"
    rows[2] = "- - 4 - - - - -"
    rows[3] = "- - 3 - - - - -"  # f5 d6 c4, then White can't take c3
    response = client.post("/api/record/sheets/check", json={"text": "\n".join(rows)})
    assert response.status_code == 200
    assert response.json() == {
        "ok": False, "transcript": "f5d6c4", "suggestion": None, "faults": [{
            "move_number": 4, "kind": "illegal", "squares": ["c3"],
            "message": "move 4: c3 is not a legal move for White; the legal squares are b3, "
                       "d3, f3, f4, g5"}]}
    bad = client.post("/api/record/sheets/check", json={"text": "1 2"})
    assert bad.status_code == 400 and error_of(bad)["code"] == "parse_error"


def test_the_pages(client: TestClient) -> None:
    game = create(client)
    for path in ("/record", "/record/sheet", f"/record/{game.id}",
                 f"/record/{game.id}/clock", f"/record/{game.id}/sheet"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "record." not in response.text.split('<script id="strings"')[0], path
    assert client.get("/record/nosuchgame/clock").status_code == 404
    blank = client.get("/record/sheet/blank?lang=ja")
    assert blank.status_code == 200 and "オセロ棋譜用紙" in blank.text
    sheet = client.get(f"/api/record/games/{game.id}/sheet?lang=en", headers=game.headers)
    assert sheet.status_code == 200 and "Othello record sheet" in sheet.text
    assert client.get(f"/api/record/games/{game.id}/sheet").status_code == 401
    brackets = client.get(f"/api/record/games/{game.id}/bracketed?square=f5",
                          headers=game.headers)
    assert brackets.json() == ["e5"]
