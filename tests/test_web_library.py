"""The library through TestClient: deleting one's own games (``DELETE /api/games/{id}``)
and the filters of ``GET /api/games`` and ``/library`` (moves played, opponent, result
seen from the colour you played, days of the last update), plus the repository's side
on every storage backend."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_storage_migration import BACKENDS, scratch_url
from test_web_api import FakeTime, Seat, create, error_of, eventually, make_client

from hasamigo import BLACK, WHITE
from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.storage import Database, GameRepository, SeatSecret
from hasamigo.web.deps import CLIENT_COOKIE

#: Black to move; g1 ends the game 48–16 for Black
BLACK_WINS_WITH_G1 = "XXXXXX-OOXXXXXOXXOXXXOXXXXOXXXXXXXOOXOXXXOXOXXOXXOOXXOOXXOXXXXXX X"
#: White to move; d1 ends the game 32–32
DRAW_WITH_D1 = "XXX-OOOOXXXXXXXOXOXXOOXOXXOOOXOOXXOOXOOOXOXXOOOOXXXXXXOOXXXXXXXO O"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "library.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


def rows(db: Path, game_id: str) -> dict[str, int]:
    """How many rows of each table belong to the game."""
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as connection:
            return {table: connection.execute(
                sa.text(f"SELECT count(*) FROM {table} WHERE {key} = :id"), {"id": game_id}
            ).scalar_one() for table, key in (("games", "id"), ("game_events", "game_id"),
                                              ("game_seats", "game_id"))}
    finally:
        engine.dispose()


def listed(client: TestClient, query: str = "") -> list[str]:
    response = client.get(f"/api/games{query}")
    assert response.status_code == 200, response.text
    return [g["id"] for g in response.json()]


class Browsers:
    """Two browsers on one server: one TestClient whose anonymous library cookie is
    switched (a second TestClient would be a second server with its own live games)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies: dict[str, str] = {}

    def be(self, who: str) -> TestClient:
        self.client.cookies.clear()
        if who in self.cookies:
            self.client.cookies.set(CLIENT_COOKIE, self.cookies[who])
        else:
            self.client.get("/api/games")
            self.cookies[who] = self.client.cookies[CLIENT_COOKIE]
        return self.client


def two_browsers(browsers: Browsers) -> tuple[Seat, Seat]:
    """A game between two people in two browsers: Alice created it and is Black; Bob
    joined with the link."""
    game, creator = create(browsers.be("alice"), opponent="person", same_screen=False,
                           colour="black", clock_minutes=None)
    code = game["join_url"].split("code=")[1]
    joined = browsers.be("bob").post(f"/api/games/{game['id']}/join", json={"code": code})
    assert joined.status_code == 200, joined.text
    return creator, Seat(browsers.client, game["id"], joined.json()["seat_token"])


# ---- deleting ---------------------------------------------------------------------------
def test_the_creator_deletes_a_finished_game_for_good(client: TestClient, db: Path) -> None:
    game, me = create(client)
    assert me.move("f5").status_code == 200
    assert me.post("/resign").json()["phase"] == "over"
    assert rows(db, me.id) == {"games": 1, "game_events": rows(db, me.id)["game_events"],
                               "game_seats": 1}
    assert client.delete(f"/api/games/{me.id}").status_code == 401  # no token
    _other, stranger = create(client)
    response = client.delete(f"/api/games/{me.id}", headers=stranger.headers())
    assert response.status_code == 403  # another game's token
    response = client.delete(f"/api/games/{me.id}", headers=me.headers())
    assert response.status_code == 204 and response.content == b""
    assert rows(db, me.id) == {"games": 0, "game_events": 0, "game_seats": 0}
    assert me.get().status_code == 404 and error_of(me.get())["code"] == "not_found"
    assert client.delete(f"/api/games/{me.id}", headers=me.headers()).status_code == 404
    assert me.id not in listed(client) and game["id"] not in client.get("/library").text
    assert client.get(f"/games/{me.id}").status_code == 404


def test_an_unfinished_game_against_a_program_is_deleted_and_its_search_stopped(
        db: Path) -> None:
    gate = threading.Event()
    with make_client(db, gate=gate) as client:
        _game, me = create(client, colour="white")  # the program (Black) is thinking
        eventually(lambda: me.view()["thinking"])  # its task starts after the answer
        assert client.delete(f"/api/games/{me.id}", headers=me.headers()).status_code == 204
        gate.set()  # the search that was stopped may finish: nothing comes back
        assert me.get().status_code == 404
        assert rows(db, me.id)["games"] == 0
        _same_screen, both = create(client, opponent="person")
        assert both.move("f5").status_code == 200
        assert client.delete(f"/api/games/{both.id}", headers=both.headers()).status_code \
            == 204


def test_between_two_browsers_only_the_creator_deletes_and_not_mid_game(
        client: TestClient) -> None:
    browsers = Browsers(client)
    creator, joiner = two_browsers(browsers)
    assert creator.move("f5").status_code == 200
    refused = client.delete(f"/api/games/{joiner.id}", headers=joiner.headers())
    assert refused.status_code == 403 and error_of(refused)["code"] == "not_your_seat"
    refused = client.delete(f"/api/games/{creator.id}", headers=creator.headers())
    assert refused.status_code == 409 and error_of(refused)["code"] == "wrong_phase"
    assert joiner.post("/resign").json()["phase"] == "over"
    assert client.delete(f"/api/games/{creator.id}", headers=creator.headers()).status_code \
        == 204
    assert joiner.get().status_code == 404
    # an invitation nobody has taken yet can go at once
    game, waiting = create(client, opponent="person", same_screen=False, clock_minutes=None)
    assert client.delete(f"/api/games/{waiting.id}", headers=waiting.headers()).status_code \
        == 204
    code = game["join_url"].split("code=")[1]
    assert client.post(f"/api/games/{waiting.id}/join", json={"code": code}).status_code \
        == 404


def test_deleting_closes_a_spectators_socket(client: TestClient) -> None:
    game, both = create(client, opponent="person", public=True)
    with client.websocket_connect(f"/ws/games/{game['id']}") as watcher:
        watcher.send_json({"type": "hello", "token": None})
        assert watcher.receive_json()["type"] == "state"
        assert client.delete(f"/api/games/{both.id}", headers=both.headers()).status_code \
            == 204
        # deleted: gone for good (not only private)
        assert watcher.receive_json()["error"]["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect):
            watcher.receive_json()


# ---- the library's filters ------------------------------------------------------------------
def finished_games(client: TestClient) -> dict[str, str]:
    """One game of each kind, by name: won, lost and drawn against programs, one still in
    progress, one without a move, one against the engine, and one on one screen."""
    ids: dict[str, str] = {}
    _g, won = create(client, colour="black", position=BLACK_WINS_WITH_G1)
    assert won.move("g1").json()["result"]["winner"] == "black"
    ids["won"] = won.id
    _g, lost = create(client, colour="black")
    assert lost.move("f5").status_code == 200 and lost.post("/resign").status_code == 200
    ids["lost"] = lost.id
    _g, drawn = create(client, colour="white", position=DRAW_WITH_D1)
    assert drawn.move("d1").json()["result"]["winner"] is None
    ids["drawn"] = drawn.id
    _g, playing = create(client, colour="white")  # the program moves first: one move
    ids["playing"] = playing.id
    _g, empty = create(client, colour="black")
    ids["empty"] = empty.id
    _g, engine = create(client, opponent="engine", level=3)
    assert engine.move("f5").status_code == 200
    ids["engine"] = engine.id
    _g, people_won = create(client, opponent="person", colour="black")
    assert people_won.move("f5").status_code == 200
    assert people_won.post("/resign", {"colour": "white"}).status_code == 200
    ids["people_won"] = people_won.id  # Black won on one screen: nobody's win or loss
    return ids


def test_the_library_filters_by_moves_opponent_and_result(client: TestClient) -> None:
    ids = finished_games(client)
    everything = listed(client)
    assert set(everything) == set(ids.values())
    assert ids["empty"] not in listed(client, "?min_moves=1")
    assert set(listed(client, "?min_moves=1")) == set(ids.values()) - {ids["empty"]}
    assert set(listed(client, "?opponent=random")) == set(ids.values()) - {
        ids["engine"], ids["people_won"]}
    assert listed(client, "?opponent=engine") == [ids["engine"]]  # every level
    assert listed(client, "?opponent=engine:3") == [ids["engine"]]
    assert listed(client, "?opponent=engine:4") == []
    assert listed(client, "?opponent=person") == [ids["people_won"]]
    assert listed(client, "?result=won") == [ids["won"]]
    assert listed(client, "?result=lost") == [ids["lost"]]
    assert listed(client, "?result=drawn") == [ids["drawn"]]
    assert set(listed(client, "?result=in_progress")) == {
        ids["playing"], ids["empty"], ids["engine"]}
    assert listed(client, "?result=won&opponent=person") == []
    by_id = {g["id"]: g for g in client.get("/api/games").json()}
    assert by_id[ids["won"]]["your_colour"] == "black"
    assert by_id[ids["drawn"]]["your_colour"] == "white"
    assert by_id[ids["playing"]]["your_colour"] == "white"
    assert by_id[ids["people_won"]]["your_colour"] is None  # both seats: no "you"
    # newest update first, and every line carries its update time
    stamps = [g["updated_at"] for g in client.get("/api/games").json()]
    assert stamps == sorted(stamps, reverse=True)


def test_won_and_lost_between_two_browsers_are_each_ones_own(client: TestClient) -> None:
    browsers = Browsers(client)
    creator, joiner = two_browsers(browsers)
    assert creator.move("f5").status_code == 200
    assert joiner.post("/resign").status_code == 200
    alice = browsers.be("alice")
    assert listed(alice, "?result=won") == [creator.id]
    assert listed(alice, "?result=lost") == []
    bob = browsers.be("bob")
    assert listed(bob, "?result=lost") == [joiner.id]
    assert listed(bob, "?result=won") == []
    [line] = bob.get("/api/games").json()
    assert line["your_colour"] == "white"


def test_the_library_filters_by_local_days_of_the_last_update(client: TestClient) -> None:
    _game, me = create(client)
    assert me.move("f5").status_code == 200
    for tz in (0, -540, 300, -840, 840):  # UTC, Tokyo, New York, the calendar's ends
        today = (datetime.now(UTC) - timedelta(minutes=tz)).date()
        day = timedelta(days=1)
        assert listed(client, f"?since={today}&until={today}&tz={tz}") == [me.id]
        assert listed(client, f"?since={today + day}&tz={tz}") == []
        assert listed(client, f"?until={today - day}&tz={tz}") == []
    assert listed(client, f"?since={date.min}&until={date.max}&tz=-840") == [me.id]
    assert listed(client, f"?since={date.min}&until={date.max}&tz=840") == [me.id]


def test_the_filters_are_bounded(client: TestClient) -> None:
    for query in ("?tz=841", "?tz=-10000", "?opponent=" + "x" * 60, "?opponent=a%25",
                  "?opponent=Victory", "?result=maybe", "?since=yesterday",
                  "?since=2024-02-30", "?min_moves=-1", "?min_moves=1001"):
        response = client.get(f"/api/games{query}")
        assert response.status_code == 422, query
        assert error_of(response)["code"] == "invalid_request"
        if "min_moves" not in query:  # the page has ?empty=1 instead
            assert client.get(f"/library{query}").status_code == 422, query
    # a filter form's "all" (an empty field) is no filter
    assert client.get("/api/games?opponent=&result=&since=&until=").status_code == 200


def test_the_library_page_lists_games_with_a_move_and_filters_them(client: TestClient
                                                                   ) -> None:
    ids = finished_games(client)
    page = client.get("/library").text
    assert all(ids[k] in page for k in ids if k != "empty") and ids["empty"] not in page
    assert ids["empty"] in client.get("/library?empty=1").text
    won = client.get("/library?result=won").text
    assert ids["won"] in won and ids["lost"] not in won and ids["drawn"] not in won
    assert 'value="won" selected' in won
    japanese = client.get("/library?opponent=person&lang=ja").text
    assert ids["people_won"] in japanese and ids["won"] not in japanese
    assert "勝ち" in japanese


# ---- the repository, on every backend -------------------------------------------------------
@pytest.fixture(params=BACKENDS)
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameRepository]:
    with scratch_url(request.param, tmp_path) as url:
        database = Database(url)
        database.open()
        yield GameRepository(database)
        database.close()


def _game(game_id: str, clock: FakeTime, *, program: bool = True, program_first: bool = False,
          colour: str = "black") -> GameController:
    person = Participant("Kim")
    other = Participant("Bot", program="random") if program else Participant("Lee")
    participants = (other, person) if program_first else (person, other)
    return GameController.new(GameSetup(participants, GameOptions(clock_seconds=None), colour),
                              time_source=clock, game_id=game_id)


def test_the_repository_deletes_and_filters_on_every_backend(repo: GameRepository) -> None:
    clock = FakeTime()
    # the person is the participant without a program, whichever index it has
    first = _game("bot-first", clock, program_first=True, colour="white")  # Kim is Black
    first.play(BLACK, "f5")
    first.resign(WHITE)
    repo.create(first, creator="c1")
    second = _game("bot-second", clock, colour="white")  # Kim is White
    second.play(BLACK, "f5")
    second.resign(BLACK)
    repo.create(second, creator="c1")
    people = _game("people", clock, program=False)  # Kim (the creator) is Black
    people.play(BLACK, "f5")
    people.resign(BLACK)
    repo.create(people, creator="c1", secrets=[
        SeatSecret("token", "a" * 64, (0,), "c1"), SeatSecret("token", "b" * 64, (1,), "c2")])
    repo.create(_game("empty", clock), creator="c1")
    one_screen = _game("one-screen", clock, program=False)  # one token, both seats
    one_screen.play(BLACK, "f5")
    one_screen.resign(BLACK)
    repo.create(one_screen, creator="c1", secrets=[
        SeatSecret("token", "c" * 64, (0, 1), "c1")])

    def ids(**filters: Any) -> set[str]:
        return {s.id for s in repo.summaries(**filters)}

    assert ids(client="c1", result="won") == {"bot-first", "bot-second"}
    assert ids(client="c1", result="lost") == {"people"}
    assert ids(client="c2", result="won") == {"people"}  # c2 holds Lee's seat (White)
    assert ids(client="c1", result="in_progress") == {"empty"}
    assert ids(client="c1", min_moves=1) == {"bot-first", "bot-second", "people",
                                             "one-screen"}
    assert ids(opponent="person") == {"people", "one-screen"} and ids(opponent="rand") == set()
    colours = {s.id: s.your_colour for s in repo.summaries(client="c1")}
    assert colours == {"bot-first": "black", "bot-second": "white", "people": "black",
                       "empty": "black", "one-screen": None}
    now = datetime.now(UTC)
    assert ids(updated_from=now - timedelta(minutes=5)) == ids()
    assert ids(updated_before=now - timedelta(minutes=5)) == set()
    assert ids(updated_from=(now + timedelta(minutes=5)).replace(tzinfo=None)) == set()

    assert repo.delete("people") and not repo.delete("people") and not repo.delete("nothing")
    assert repo.load("people") is None and repo.secret("people", "a" * 64) is None
    assert ids() == {"bot-first", "bot-second", "empty", "one-screen"}
