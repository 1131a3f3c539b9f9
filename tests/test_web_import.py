"""Importing a game into the library (``POST /api/games/import``) through TestClient: a
transcript, a GGF game of several picked by index, a WTHOR archive's game; every
malformed input refused in the one error shape naming where and the move, with nothing
stored; the body limit; the game private to the importing browser, which replays,
downloads and reviews it."""

from __future__ import annotations

import base64
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import Seat, error_of, make_client
from test_web_library import Browsers
from test_web_review import make_client as review_client
from test_web_review import poll

from hasamigo.notation import parse_ggf, read_wthor, write_transcript
from hasamigo.notation.wthor import GAME_SIZE, HEADER_SIZE
from hasamigo.web import Settings

DATA = Path(__file__).parent / "data"
GGF = (DATA / "ggf" / "nboard-test2.ggf").read_text()
WTHOR = (DATA / "wthor" / "WTH_1977.wtb").read_bytes()
#: a whole game (WTHOR 1977's first), as a transcript
TRANSCRIPT = write_transcript(next(iter(read_wthor(DATA / "wthor" / "WTH_1977.wtb"))).moves)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "import.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


def imported(client: TestClient, **body: Any) -> tuple[dict[str, Any], Seat]:
    response = client.post("/api/games/import", json=body)
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game, Seat(client, game["id"], game["seat_token"])


def refused(client: TestClient, status: int = 400, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games/import", json=body)
    assert response.status_code == status, response.text
    return error_of(response)


def game_count(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        count: int = connection.execute("SELECT count(*) FROM games").fetchone()[0]
        return count


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_a_transcript_becomes_a_finished_game_the_importer_replays_and_downloads(
        client: TestClient) -> None:
    text = "1. F5 d6\n" + TRANSCRIPT[4:]
    game, me = imported(client, format="transcript", text=text)
    assert game["finished"] and game["phase"] == "over" and game["clock"] is None
    assert [p["name"] for p in game["participants"]] == ["Black", "White"]
    assert game["you"] == [0, 1] and not game["public"]
    positions = me.get("/positions").json()
    moves = [p["move"] for p in positions[1:]]
    assert "".join(m for m in moves if m != "pass") == TRANSCRIPT and "pass" in moves
    assert me.get("/transcript").text.strip() == TRANSCRIPT
    assert me.get("/ggf").status_code == 200
    assert game["id"] in [g["id"] for g in client.get("/api/games").json()]


def test_a_ggf_game_is_picked_by_index_with_its_players_start_and_result(
        client: TestClient) -> None:
    records = parse_ggf(GGF)
    game, me = imported(client, format="ggf", text=GGF, index=2)
    record = records[1]
    assert [p["name"] for p in game["participants"]] == [record.black, record.white]
    assert game["finished"] and game["counts"] == {"black": 19, "white": 45, "empty": 0}
    cells = me.get("/positions").json()[0]["cells"]
    assert record.start is not None and cells == record.start.split()[0]
    small, _ = imported(client, format="ggf", text=GGF, index=1)  # a 4×4 game: TY[4]
    assert small["variant"] == "4x4" and small["rows"] == 4


def test_a_wthor_archive_game_is_picked_by_index(client: TestClient) -> None:
    record = list(read_wthor(DATA / "wthor" / "WTH_1977.wtb", players=[]))[4]
    game, me = imported(client, format="wthor", data=b64(WTHOR), index=5)
    names = [p["name"] for p in game["participants"]]
    assert names == [f"WTHOR #{record.metadata['black_id']}",
                     f"WTHOR #{record.metadata['white_id']}"]
    played = [p["move"] for p in me.get("/positions").json()[1:] if p["move"] != "pass"]
    assert played == [str(m) for m in record.moves]


def test_a_wthor_game_takes_its_players_names_from_wthor_jou_sent_with_it(
        client: TestClient) -> None:
    record = list(read_wthor(DATA / "wthor" / "WTH_1977.wtb"))[2]  # WTHOR.JOU beside
    jou = (DATA / "wthor" / "WTHOR.JOU").read_bytes()
    game, _me = imported(client, format="wthor", data=b64(WTHOR), index=3, players=b64(jou))
    assert [p["name"] for p in game["participants"]] == [record.black, record.white]
    assert record.black and record.white
    error = refused(client, format="wthor", data=b64(WTHOR), players=b64(jou[:20]))
    assert "WTHOR.JOU" in error["message"] and "header lists" in error["message"]


@pytest.mark.parametrize(("body", "words"), [
    ({"format": "transcript", "text": "f5 d6\nc3 c3"}, "transcript, line 2, column 4: "
     "move 4 (c3): occupied"),
    ({"format": "transcript", "text": "f5 d6 zz"}, "line 1, column 7: unexpected 'zz'"),
    ({"format": "transcript", "text": "  "}, "the game has no move"),
    ({"format": "ggf", "text": GGF, "index": 4}, "there is no game 4: the text holds 3 games"),
    ({"format": "ggf", "text": "(;GM[Othello]B[f5]W[f5];)"},
     "GGF, line 1, column 21: game 1: move 2 (f5): occupied"),
    ({"format": "ggf", "text": "(;GM[Othello]TY[12]B[f5];)"}, "unsupported game type TY[12]"),
    ({"format": "ggf", "text": "(;GM[Othello]B[f5]"}, "is not closed with ';)'"),
    ({"format": "ggf", "text": "(;GM[Chess]B[e4];)"}, "not an Othello game"),
    ({"format": "wthor", "data": "not base64!"}, "WTHOR: the archive is not base64"),
    ({"format": "wthor", "data": b64(WTHOR), "index": 13},
     "there is no game 13: the archive holds 12 games"),
    ({"format": "wthor", "data": b64(WTHOR[:100])}, "truncated"),
    ({"format": "wthor", "data": b64(WTHOR[:HEADER_SIZE + 9] + bytes([45])
                                     + WTHOR[HEADER_SIZE + 10:])},
     f"WTHOR, offset {HEADER_SIZE + 9}: game 1: move 2 (e4): occupied"),
    ({"format": "wthor", "data": b64(WTHOR[:HEADER_SIZE + GAME_SIZE + 8] + bytes([99])
                                     + WTHOR[HEADER_SIZE + GAME_SIZE + 9:]), "index": 2},
     f"game 2, offset {HEADER_SIZE + GAME_SIZE + 8}: move 1 byte 99 is no square"),
])
def test_malformed_input_is_refused_saying_where_and_nothing_is_stored(
        client: TestClient, db: Path, body: dict[str, Any], words: str) -> None:
    error = refused(client, **body)
    assert error["code"] == "parse_error" and words in error["message"], error
    assert game_count(db) == 0


@pytest.mark.parametrize(("body", "words"), [
    ({"format": "wthor", "text": "f5"}, "a wthor import sends 'data'"),
    ({"format": "ggf", "text": GGF, "data": "AA=="}, "not 'data'"),
    ({"format": "ggf", "text": GGF, "index": 0}, "index"),
    ({"format": "transcript", "text": "f5", "index": 2}, "a transcript holds one game"),
    ({"format": "ggf", "text": GGF, "players": "AA=="}, "goes with a wthor import"),
    ({"format": "obf", "text": "f5"}, "format"),
])
def test_a_request_of_the_wrong_shape_is_refused(client: TestClient, db: Path,
                                                 body: dict[str, Any], words: str) -> None:
    error = refused(client, 422, **body)
    assert error["code"] == "invalid_request" and words in error["message"], error
    assert game_count(db) == 0


def test_the_import_has_its_own_body_limit(client: TestClient, tmp_path: Path) -> None:
    padded = GGF + " " * 20_000  # over the other routes' 16 KB
    assert client.post("/api/games", json={"opponent": "random", "names": [
        padded, "b"]}).status_code == 413
    imported(client, format="ggf", text=padded)
    settings = Settings(warm_engine=False, tick_seconds=3600, max_import_bytes=2000)
    with make_client(tmp_path / "limit.db", settings=settings) as small:
        response = small.post("/api/games/import", json={"format": "ggf",
                                                         "text": GGF + " " * 2000})
        assert response.status_code == 413 and error_of(response)["code"] == "too_large"
        assert len(response.content) < 300
        assert game_count(tmp_path / "limit.db") == 0


def test_nobody_else_reads_a_private_imported_game_until_it_is_made_public(
        client: TestClient) -> None:
    browsers = Browsers(client)
    game, me = imported(browsers.be("alice"), format="ggf", text=GGF, index=3)
    assert me.get("/positions").status_code == 200
    bob = browsers.be("bob")
    for path in ("", "/positions", "/transcript", "/ggf", "/review"):
        response = bob.get(f"/api/games/{game['id']}{path}")
        assert response.status_code == 401, (path, response.text)
        assert error_of(response)["code"] == "unauthorized"
    assert bob.post(f"/api/games/{game['id']}/review").status_code == 401
    assert game["id"] not in [g["id"] for g in bob.get("/api/games").json()]
    alice = browsers.be("alice")
    assert game["id"] in [g["id"] for g in alice.get("/api/games").json()]
    assert me.post("/public", {"public": True}).status_code == 200
    assert browsers.be("bob").get(f"/api/games/{game['id']}/positions").status_code == 200


def test_a_game_that_stops_early_is_kept_in_progress_and_can_be_played_on(
        client: TestClient) -> None:
    game, me = imported(client, format="transcript", text="f5d6c3")
    assert not game["finished"] and game["phase"] == "playing" and game["turn"] == "white"
    assert error_of(me.post("/review"))["code"] == "wrong_phase"
    assert me.move("d3").status_code == 200  # the importer holds both seats


def test_imports_count_as_new_games_for_the_rate_limit(tmp_path: Path) -> None:
    settings = Settings(warm_engine=False, tick_seconds=3600, games_per_minute=2)
    with make_client(tmp_path / "rate.db", settings=settings) as client:
        imported(client, format="transcript", text="f5")
        imported(client, format="transcript", text="f5")
        assert refused(client, 429, format="transcript", text="f5")["code"] == "rate_limited"


def test_an_imported_game_is_reviewed(tmp_path: Path) -> None:
    with review_client(tmp_path / "review.db") as client:
        _game, me = imported(client, format="ggf", text=GGF, index=3)
        assert me.post("/review").status_code == 202
        done = poll(me)
        assert done["reviewed"] == done["total"] == len(me.get("/positions").json()) - 1
