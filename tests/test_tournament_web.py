"""The tournaments API and pages through TestClient: a tournament created with the
director's password, its director's session (missing, spoilt, another tournament's, a
wrong password), entrants, rounds, result cards and corrections with the audit log; the
public reads without a password; bounded input; and a restart on the same SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_api import error_of, make_client

from hasamigo.web.services.study import RESEARCHER
from hasamigo.web.services.tournaments import DIRECTOR
from hasamigo.web.sessions import DirectorSession, SessionEnded, SessionKind

PASSWORD = "correct horse"
NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


class Director:
    """A tournament and its director's session token."""

    def __init__(self, client: TestClient, tournament_id: str, token: str) -> None:
        self.client, self.id, self.token = client, tournament_id, token

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
        response = self.client.post(f"/api/tournaments/{self.id}{path}", json=body or {},
                                    headers=self.headers)
        assert response.status_code == status, response.text
        return response.json()

    def get(self, path: str, *, auth: bool = True) -> Any:
        response = self.client.get(f"/api/tournaments/{self.id}{path}",
                                   headers=self.headers if auth else {})
        assert response.status_code == 200, response.text
        return response.json()

    def refused(self, path: str, body: dict[str, Any] | None = None, *, status: int
                ) -> dict[str, Any]:
        response = self.client.post(f"/api/tournaments/{self.id}{path}", json=body or {},
                                    headers=self.headers)
        assert response.status_code == status, response.text
        return error_of(response)


def create(client: TestClient, **fields: Any) -> Director:
    body = {"name": "Spring open", "format": "swiss", "rounds": 3, "password": PASSWORD,
            "director": "Mori", **fields}
    response = client.post("/api/tournaments", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    assert data["session"]["who"] == body["director"]
    return Director(client, data["tournament"]["id"], data["session"]["token"])


def enter_everyone(d: Director, names: list[str] = NAMES) -> None:
    for i, name in enumerate(names):
        entrant = d.post("/entrants", {"name": name, "rank": ["3d", "1d", "2k", None][i % 4],
                                       "birth_year": 1970 + i, "woman": i % 3 == 0},
                         status=201)
        assert entrant["number"] == i + 1 and entrant["name"] == name


def play_round(d: Director, number: int) -> dict[str, Any]:
    """Pair round ``number`` and enter every board: Black wins 40–24."""
    paired = d.post("/rounds", status=201)
    assert paired["number"] == number
    for g in paired["games"]:
        if g["kind"] == "played":
            view = d.post(f"/rounds/{number}/boards/{g['board']}/result",
                          {"black_discs": 40, "white_discs": 24})
            assert view["finished"] and view["winner"] == g["black"]
    result: dict[str, Any] = d.get(f"/rounds/{number}", auth=False)
    assert result["complete"]
    return result


# ---- the director's session -----------------------------------------------------------------
def test_creating_gives_a_session_and_the_password_is_never_stored(
        client: TestClient, db: Path) -> None:
    d = create(client)
    view = d.get("/director")
    assert view["director"] == "Mori" and view["tournament"]["name"] == "Spring open"
    assert view["tournament"]["format"] == "swiss" and view["tournament"]["total_rounds"] == 3
    assert PASSWORD.encode() not in db.read_bytes()
    assert PASSWORD not in d.token
    audit = d.get("/audit")
    assert audit[0]["action"] == "create" and audit[0]["who"] == "Mori"


def test_the_director_area_refuses_without_the_session_in_the_one_error_shape(
        client: TestClient) -> None:
    d = create(client)
    other = create(client, name="Autumn open")
    tid = d.id
    no_token = client.post(f"/api/tournaments/{tid}/entrants", json={"name": "Ann"})
    assert no_token.status_code == 401 and error_of(no_token)["code"] == "unauthorized"
    spoilt = client.post(f"/api/tournaments/{tid}/rounds",
                         headers={"Authorization": f"Bearer {d.token[:-2]}xx"})
    assert spoilt.status_code == 401 and "log in again" in error_of(spoilt)["message"]
    not_bearer = client.get(f"/api/tournaments/{tid}/audit",
                            headers={"Authorization": "Basic abc"})
    assert not_bearer.status_code == 401
    foreign = client.post(f"/api/tournaments/{tid}/entrants", json={"name": "Ann"},
                          headers=other.headers)
    assert foreign.status_code == 403 and error_of(foreign)["code"] == "forbidden"
    assert "another tournament" in error_of(foreign)["message"]
    wrong = client.post(f"/api/tournaments/{tid}/login", json={"password": "not it at all"})
    assert wrong.status_code == 403 and error_of(wrong)["message"] == "wrong password"
    missing = client.post(f"/api/tournaments/{tid}/login", json={})
    assert missing.status_code == 422 and error_of(missing)["code"] == "invalid_request"
    assert client.get(f"/api/tournaments/{tid}/audit").status_code == 401
    assert d.get("/")["entrants"] == []  # nothing was registered
    good = client.post(f"/api/tournaments/{tid}/login",
                       json={"password": PASSWORD, "director": "Sato"})
    assert good.status_code == 200
    again = Director(client, tid, good.json()["token"])
    assert again.get("/director")["director"] == "Sato"
    again.post("/entrants", {"name": "Ann"}, status=201)
    assert again.get("/audit")[-1]["who"] == "Sato"


def test_a_session_ends_and_is_signed_by_the_password_hash() -> None:
    kind = SessionKind(DIRECTOR, seconds=3600)
    token, expires = kind.sign("t1", "Mori", "hash-a", now=1_000.0)
    assert expires == 4_600.0
    session = DirectorSession("t1", "Mori", 4_600.0)
    assert kind.read(token, "hash-a", now=1_000.0) == session  # valid
    assert kind.read(token, "hash-a", now=4_599.0) == session
    with pytest.raises(SessionEnded):
        kind.read(token, "hash-a", now=4_600.0)  # expired
    assert kind.read(token, "hash-b", now=1_000.0) is None  # the password changed
    # tampered: another payload with this token's signature, or a changed signature
    forged, _ = kind.sign("t1", "Root", "guess", now=1_000.0)
    body = forged.rsplit(".", 2)[0]
    assert kind.read(f"{body}.{token.split('.', 1)[1]}", "hash-a", now=1_000.0) is None
    assert kind.read(token[:-2] + ("AA" if token[-2:] != "AA" else "BB"), "hash-a",
                     now=1_000.0) is None
    assert kind.read("garbage", "hash-a", now=1_000.0) is None
    # a researcher's token, same key and id, is no director's: a salt per purpose
    other, _ = RESEARCHER.sign("t1", "Mori", "hash-a", now=1_000.0)
    assert kind.read(other, "hash-a", now=1_000.0) is None
    assert SessionKind.claimed(token) == SessionKind.claimed(forged) == "t1"
    assert SessionKind.claimed("garbage") is None


def test_a_token_of_the_hand_signed_format_asks_to_log_in_again(client: TestClient) -> None:
    """Tokens signed before itsdangerous (``<base64 json>.<mac>``) are not valid."""
    import base64
    import json

    d = create(client)
    body = json.dumps({"t": d.id, "w": "Mori", "e": 9_000_000_000}).encode()
    old = base64.urlsafe_b64encode(body).rstrip(b"=").decode() + "." + "A" * 43
    response = client.get(f"/api/tournaments/{d.id}/director",
                          headers={"Authorization": f"Bearer {old}"})
    assert response.status_code == 401 and "log in again" in error_of(response)["message"]


def test_an_ended_session_is_refused(client: TestClient) -> None:
    d = create(client)
    site = client.app.state.services.tournaments  # type: ignore[attr-defined]
    site.now = lambda: 4e9  # long after the session's 12 hours
    response = client.get(f"/api/tournaments/{d.id}/director", headers=d.headers)
    assert response.status_code == 401 and "ended" in error_of(response)["message"]


def test_a_login_with_an_old_password_hash_upgrades_it_and_its_session_works(
        client: TestClient) -> None:
    from test_passwords import OLD

    d = create(client)
    repo = client.app.state.services.tournaments.service.repo  # type: ignore[attr-defined]
    repo.set_password_hash(d.id, OLD)  # as stored before argon2 (the same PASSWORD)
    good = client.post(f"/api/tournaments/{d.id}/login", json={"password": PASSWORD})
    assert good.status_code == 200, good.text
    assert repo.password_hash(d.id).startswith("$argon2id$")
    again = Director(client, d.id, good.json()["token"])
    assert again.get("/director")["director"] == "director"


def test_logins_are_rate_limited(client: TestClient) -> None:
    d = create(client)
    codes = [client.post(f"/api/tournaments/{d.id}/login", json={"password": "nope"})
             .status_code for _ in range(11)]
    assert codes[:10] == [403] * 10 and codes[10] == 429


# ---- a tournament from entrants to results -------------------------------------------------
def test_register_pair_enter_and_correct_with_the_audit_log(client: TestClient) -> None:
    d = create(client)
    enter_everyone(d)
    first = play_round(d, 1)
    assert len(first["games"]) == 4
    board = first["games"][0]
    before = (board["black_discs"], board["white_discs"])
    refused = d.refused(f"/rounds/1/boards/{board['board']}/result",
                        {"black_discs": 30, "white_discs": 34}, status=409)
    assert refused["code"] == "tournament" and "correct it" in refused["message"]
    no_reason = client.post(f"/api/tournaments/{d.id}/rounds/1/boards/1/correction",
                            json={"black_discs": 30, "white_discs": 34}, headers=d.headers)
    assert no_reason.status_code == 422 and "reason" in error_of(no_reason)["message"]
    fixed = d.post(f"/rounds/1/boards/{board['board']}/correction",
                   {"black_discs": 30, "white_discs": 34, "reason": "card misread"})
    assert fixed["winner"] == board["white"] and (fixed["black_discs"], fixed["white_discs"]) \
        == (30, 34)
    entry = d.get("/audit")[-1]
    assert entry["action"] == "correct" and entry["reason"] == "card misread"
    assert entry["who"] == "Mori" and (entry["round"], entry["board"]) == (1, board["board"])
    assert (entry["before"]["black_discs"], entry["before"]["white_discs"]) == before
    assert (entry["after"]["black_discs"], entry["after"]["white_discs"]) == (30, 34)
    standings = d.get("/standings", auth=False)
    row = {r["name"]: r for r in standings["standings"]}
    assert row[board["white"]]["wins"] == 1 and row[board["white"]]["discs"] == 34
    assert row[board["black"]]["wins"] == 0
    assert standings["c"] == row[board["white"]]["c"]
    for r in standings["standings"]:
        assert r["brightwell"] == r["discs"] + r["c"] * r["opponents_wins"]
    # withdraw at any time; forfeits; the last round taken back while it has no result
    withdrawn = d.post("/entrants/8/withdraw", {"reason": "went home"})
    assert withdrawn["withdrawn_from"] == 2
    second = d.post("/rounds", status=201)
    players = {g["black_number"] for g in second["games"]} | \
        {g["white_number"] for g in second["games"]}
    assert 8 not in players and any(g["kind"] == "bye" for g in second["games"])
    assert d.post("/rounds/2/unpair", {"reason": "wrong list"}) == {"unpaired": 2}
    second = d.post("/rounds", status=201)
    game = next(g for g in second["games"] if g["kind"] == "played")
    forfeit = d.post(f"/rounds/2/boards/{game['board']}/result",
                     {"forfeit_loser": game["black_number"]})
    assert forfeit["kind"] == "forfeit" and forfeit["winner"] == game["white"]
    assert (forfeit["black_discs"], forfeit["white_discs"]) == (0, 64)
    actions = [e["action"] for e in d.get("/audit")]
    assert actions.count("register") == 8 and "withdraw" in actions and "unpair" in actions


def test_finals_are_rounds_with_fuse_ishi_and_draw_win(client: TestClient) -> None:
    d = create(client, format="knockout", rounds=None)
    enter_everyone(d, NAMES[:4])
    semis = d.post("/rounds", status=201)
    assert semis["stages"] == ["knockout"] or "semifinal" in semis["stages"]
    g = semis["games"][0]
    assert g["colours"] == "fuse-ishi"
    no_black = d.refused(f"/rounds/1/boards/{g['board']}/result",
                         {"black_discs": 33, "white_discs": 31}, status=409)
    assert "fuse-ishi" in no_black["message"]
    outsider = next(n for n in range(1, 5) if n not in (g["black_number"], g["white_number"]))
    not_in_game = d.refused(f"/rounds/1/boards/{g['board']}/result",
                            {"black_discs": 33, "white_discs": 31, "black": outsider,
                             "draw_win": outsider}, status=409)
    assert "not in this game" in not_in_game["message"]
    for g in semis["games"]:
        view = d.post(f"/rounds/1/boards/{g['board']}/result",
                      {"black_discs": 32, "white_discs": 32, "black": g["white_number"],
                       "draw_win": g["black_number"]})
        assert view["winner"] == g["black"] and view["draw_win"] == g["black"]
        assert view["black"] == g["white"]  # who played Black, from the card
    final = d.post("/rounds", status=201)
    assert {"final", "third_place"} <= set(final["stages"]) or final["stages"] == ["knockout"]
    bracket = d.get("/bracket", auth=False)
    assert len(bracket["games"]) == len(semis["games"]) + len(final["games"])
    assert bracket["games"][0]["score"] == "32–32"


# ---- public reads ----------------------------------------------------------------------------
def test_everything_public_is_readable_without_a_password(client: TestClient) -> None:
    d = create(client)
    enter_everyone(d)
    play_round(d, 1)
    play_round(d, 2)
    listed = client.get("/api/tournaments").json()
    assert [t["id"] for t in listed] == [d.id] and listed[0]["entrants"] == 8
    info = client.get(f"/api/tournaments/{d.id}").json()
    assert "seed" not in info["tournament"]["settings"]
    assert all("birth_year" not in e for e in info["entrants"])
    assert client.get(f"/api/tournaments/{d.id}/director").status_code == 401
    for path in ("/rounds", "/rounds/1", "/rounds/2/explain", "/standings?after=1",
                 "/ranking", "/bracket"):
        response = client.get(f"/api/tournaments/{d.id}{path}")
        assert response.status_code == 200, (path, response.text)
    assert client.get(f"/api/tournaments/{d.id}/rounds/3").status_code == 404
    assert client.get(f"/api/tournaments/{d.id}/standings?after=9").status_code == 404
    assert client.get("/api/tournaments/nosuch/ranking").status_code == 404
    formats = {f["key"] for f in client.get("/api/tournaments/formats").json()}
    assert {"meijin", "swiss", "round-robin", "knockout"} <= formats
    ranking = client.get(f"/api/tournaments/{d.id}/ranking").json()
    assert not ranking["final"] and len(ranking["ranking"]) == 8
    # the pages
    for path, expected in (("", "Round 2"), ("/standings", "After round 2"),
                           ("/standings?after=1", "After round 1"), ("/ranking", "Ann"),
                           ("/bracket", "No knockout game yet"), ("/director", "Log in"),
                           ("/print/pairings?round=1", "Pairing sheet"),
                           ("/print/standings", "Standings sheet")):
        page = client.get(f"/tournaments/{d.id}{path}", headers={"Accept-Language": "en"})
        assert page.status_code == 200 and expected in page.text, path
        assert "Ann" in page.text or path == "/bracket" or path == "/director"
    standings = client.get(f"/tournaments/{d.id}/standings").text
    row = client.get(f"/api/tournaments/{d.id}/standings").json()["standings"][0]
    assert row["formula"] in standings
    ja = client.get(f"/tournaments/{d.id}/print/standings?lang=ja")
    assert "成績表" in ja.text and "ブライトウェル" in ja.text
    assert client.get("/tournaments").status_code == 200
    assert "Spring open" in client.get("/tournaments").text
    assert client.get("/tournaments/nosuch").status_code == 404
    assert 'href="/tournaments"' in client.get("/").text  # in the site's navigation


# ---- bad input -------------------------------------------------------------------------------
def test_bad_input_is_refused_with_clear_messages(client: TestClient) -> None:
    too_long = client.post("/api/tournaments", json={"name": "x" * 121, "password": PASSWORD})
    assert too_long.status_code == 422 and "name" in error_of(too_long)["message"]
    short = client.post("/api/tournaments", json={"name": "Open", "password": "short"})
    assert short.status_code == 422 and "password" in error_of(short)["message"]
    blank = client.post("/api/tournaments", json={"name": "   ", "password": PASSWORD})
    assert blank.status_code == 422
    control = client.post("/api/tournaments", json={"name": "a\u0000b", "password": PASSWORD})
    assert control.status_code == 422
    unknown = client.post("/api/tournaments", json={"name": "Open", "password": PASSWORD,
                                                    "format": "blitz"})
    assert unknown.status_code == 422
    extra = client.post("/api/tournaments", json={"name": "Open", "password": PASSWORD,
                                                  "admin": True})
    assert extra.status_code == 422
    d = create(client)
    assert d.refused("/entrants", {"name": "y" * 41}, status=422)["code"] == "invalid_request"
    assert "rank" in d.refused("/entrants", {"name": "Ann", "rank": "grandmaster"},
                               status=409)["message"]
    d.refused("/entrants", {"name": "Ann", "birth_year": 1700}, status=422)
    d.refused("/entrants", {}, status=422)
    enter_everyone(d, NAMES[:4])
    assert "registered already" in d.refused("/entrants", {"name": "ann"}, status=409)["message"]
    assert d.refused("/entrants/99/withdraw", status=404)["message"] == "no entrant number 99"
    paired = d.post("/rounds", status=201)
    assert "registration closed" in d.refused("/entrants", {"name": "Late"},
                                              status=409)["message"]
    twice = d.refused("/rounds", status=409)
    assert twice["code"] == "tournament" and "round 1 is not complete" in twice["message"]
    board = paired["games"][0]["board"]
    negative = d.refused(f"/rounds/1/boards/{board}/result",
                         {"black_discs": -1, "white_discs": 30}, status=422)
    assert "black_discs" in negative["message"]
    over = d.refused(f"/rounds/1/boards/{board}/result",
                     {"black_discs": 65, "white_discs": 0}, status=422)
    assert "black_discs" in over["message"] and "64" in over["message"]
    half = d.refused(f"/rounds/1/boards/{board}/result", {"black_discs": 30}, status=409)
    assert "both disc counts" in half["message"]
    stranger = d.refused(f"/rounds/1/boards/{board}/result", {"forfeit_loser": 42},
                         status=422)
    assert stranger["message"] == "no entrant number 42"
    assert "no board 9" in d.refused("/rounds/1/boards/9/result",
                                     {"black_discs": 40, "white_discs": 24},
                                     status=409)["message"]
    nothing = d.refused(f"/rounds/1/boards/{board}/correction",
                        {"black_discs": 40, "white_discs": 24, "reason": "x"}, status=409)
    assert "no result to correct" in nothing["message"]
    assert d.refused("/rounds/0/boards/1/result", {}, status=422)["code"] == "invalid_request"
    long_reason = d.refused("/entrants/1/withdraw", {"reason": "z" * 301}, status=422)
    assert "reason" in long_reason["message"]
    assert d.get("/rounds/1", auth=False)["games"] == paired["games"]  # nothing changed


# ---- a restart ---------------------------------------------------------------------------------
def test_a_restart_on_the_same_database_loses_nothing(db: Path) -> None:
    with make_client(db) as client:
        d = create(client)
        enter_everyone(d)
        play_round(d, 1)
        second = d.post("/rounds", status=201)
        first_board = second["games"][0]
        d.post(f"/rounds/2/boards/{first_board['board']}/result",
               {"black_discs": 20, "white_discs": 44})
        before = {path: client.get(f"/api/tournaments/{d.id}{path}").json()
                  for path in ("", "/rounds", "/standings", "/ranking")}
        audit = d.get("/audit")
        tid, token = d.id, d.token
    with make_client(db) as client:
        for path, data in before.items():
            assert client.get(f"/api/tournaments/{tid}{path}").json() == data, path
        d = Director(client, tid, token)  # the session is signed, not kept in memory
        assert d.get("/audit") == audit
        left = [g for g in d.get("/director")["to_enter"]]
        assert len(left) == len(second["games"]) - 1
        for g in left:
            d.post(f"/rounds/2/boards/{g['board']}/result",
                   {"black_discs": 33, "white_discs": 31})
        assert d.get("/rounds/2", auth=False)["complete"]


def test_a_boards_result_comes_from_a_game_recorded_over_the_board(client: TestClient
                                                                   ) -> None:
    """The director's record link opens /record with the board's players filled in; the
    recorded game's result card is then taken as the board's result, by id or by link."""
    d = create(client)
    enter_everyone(d)
    games = d.post("/rounds", status=201)["games"]
    first, second = games[0], games[1]
    page = client.get("/record", params={"black": first["black"], "white": first["white"],
                                         "colours": "black"})
    assert page.status_code == 200
    assert f'value="{first["black"]}"' in page.text and f'value="{first["white"]}"' in page.text

    def recorded(black: str, white: str, card: tuple[int, int]) -> str:
        made = client.post("/api/record/games", json={"names": [black, white],
                                                      "clock_minutes": 20})
        assert made.status_code == 201, made.text
        game_id, token = made.json()["game"]["game"]["id"], made.json()["seat_token"]
        done = client.post(f"/api/record/games/{game_id}/card",
                           json={"black": card[0], "white": card[1]},
                           headers={"Authorization": f"Bearer {token}"})
        assert done.status_code == 200, done.text
        return str(game_id)

    game_id = recorded(first["black"], first["white"], (30, 34))
    board = d.post(f"/rounds/1/boards/{first['board']}/game",
                   {"game": f"http://testserver/record/{game_id}/clock"})
    assert (board["black_discs"], board["white_discs"], board["winner"], board["game_id"]) \
        == (30, 34, first["white"], game_id)
    assert d.get("/audit")[-1]["after"]["game_id"] == game_id

    wrong = recorded(first["black"], second["white"], (40, 24))
    refusal = d.refused(f"/rounds/1/boards/{second['board']}/game", {"game": wrong},
                        status=409)
    assert refusal["code"] == "tournament"
    assert f"board {second['board']} is {second['black']} v {second['white']}" \
        in refusal["message"]
    assert d.refused(f"/rounds/1/boards/{second['board']}/game", {"game": "no-such-game"},
                     status=404)["code"] == "not_found"
    assert d.refused(f"/rounds/1/boards/{second['board']}/game", {"game": "a b/../c"},
                     status=422)["code"] == "invalid_request"
    # without the director's session nothing happens
    anonymous = client.post(f"/api/tournaments/{d.id}/rounds/1/boards/{first['board']}/game",
                            json={"game": game_id})
    assert anonymous.status_code == 401


def test_standings_and_games_download_as_csv_and_ggf(client: TestClient) -> None:
    """Anyone downloads the standings and the boards as CSV (what the page shows, row for
    row) and the public games with moves as GGF."""
    import csv
    import io

    d = create(client, name="第1回 Spring open")
    enter_everyone(d)
    games = d.post("/rounds", status=201)["games"]
    for g in games:
        d.post(f"/rounds/1/boards/{g['board']}/result",
               {"black_discs": 30 + g["board"], "white_discs": 34 - g["board"]})
    standings = client.get(f"/api/tournaments/{d.id}/standings.csv")
    assert standings.status_code == 200 and standings.headers["content-type"].startswith(
        "text/csv")
    disposition = standings.headers["content-disposition"]
    assert 'filename="1-Spring-open-standings.csv"' in disposition
    assert "filename*=UTF-8''%E7%AC%AC1" in disposition
    rows = list(csv.DictReader(io.StringIO(standings.text)))
    shown = d.get("/standings", auth=False)["standings"]
    assert [(r["name"], float(r["wins"]), float(r["brightwell"])) for r in rows] == \
        [(s["name"], s["wins"], s["brightwell"]) for s in shown]
    boards = list(csv.DictReader(io.StringIO(
        client.get(f"/api/tournaments/{d.id}/games.csv").text)))
    assert [(int(b["board"]), int(b["black_discs"]), b["winner"]) for b in boards] == \
        [(g["board"], 30 + g["board"],
          "" if g["board"] == 2 else g["black"] if g["board"] > 2 else g["white"])
         for g in games]
    assert client.get(f"/api/tournaments/{d.id}/games.ggf").text == ""  # cards, no moves
    page = client.get(f"/tournaments/{d.id}/standings")
    assert f'href="/api/tournaments/{d.id}/games.ggf"' in page.text
    assert client.get("/api/tournaments/nosuch/standings.csv").status_code == 404
