"""Seats held by accounts (issue 67): a signed-in person's seat rows carry their account;
``POST /api/games/{id}/seat`` gives the account a fresh seat token in any browser, and no
other account, nor anyone signed out, gets one; a seat the lobby keeps for an account is
taken by it alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from test_storage_migration import BACKENDS, scratch_url
from test_web_api import Seat, browser, create, make_client

from hasamigo.storage.models import GameSeatRow
from hasamigo.web.schemas import NewGame

PASSWORD = "correct horse battery"


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a SQLite file; on a PostgreSQL schema too when
    ``HASAMIGO_TEST_POSTGRES`` is set."""
    with scratch_url(request.param, tmp_path) as url, make_client(url) as c:
        yield c



def signed_up(c: TestClient, name: str) -> str:
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    account_id: str = r.json()["account"]["id"]
    return account_id


def seat_rows(client: TestClient, game_id: str) -> list[tuple[str, str, str | None]]:
    db = client.app.state.services.db
    with db.session() as session:
        return [(r.kind, r.participants, r.account_id) for r in session.scalars(
            select(GameSeatRow).where(GameSeatRow.game_id == game_id)
            .order_by(GameSeatRow.created_at, GameSeatRow.kind))]


def ask_seat(c: TestClient, game_id: str) -> Any:
    return c.post(f"/api/games/{game_id}/seat")


def test_a_signed_in_creator_plays_on_from_another_browser(client: TestClient) -> None:
    hanako = signed_up(client, "hanako")
    game, first = create(client)
    assert seat_rows(client, game["id"]) == [("token", "0", hanako)]
    elsewhere = browser(client)
    r = elsewhere.post("/api/accounts/login", json={"name": "hanako", "password": PASSWORD})
    assert r.status_code == 200
    r = ask_seat(elsewhere, game["id"])
    assert r.status_code == 200, r.text
    token = r.json()["seat_token"]
    assert token != first.token and r.json()["game"]["your_colours"] == ["black"]
    seat = Seat(elsewhere, game["id"], token)
    assert seat.move("f5").status_code == 200
    assert first.view()["moves"][:1] == ["f5"]  # the first browser's token still works
    assert [row[2] for row in seat_rows(client, game["id"])] == [hanako, hanako]


def test_seat_refusals(client: TestClient) -> None:
    signed_up(client, "hanako")
    game, _me = create(client)
    anonymous_game, _anon = create(browser(client))
    stranger = browser(client)
    r = ask_seat(stranger, game["id"])
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    signed_up(stranger, "jiro")
    r = ask_seat(stranger, game["id"])
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat"
    assert ask_seat(client, anonymous_game["id"]).status_code == 403
    assert ask_seat(client, "ffffffffffff").status_code == 404
    assert ask_seat(client, "x" * 500).status_code == 404
    # an ended session asks for nothing
    client.post("/api/accounts/logout")
    assert ask_seat(client, game["id"]).status_code == 401


def test_the_joiner_s_account_holds_the_second_seat(client: TestClient) -> None:
    hanako = signed_up(client, "hanako")
    game, _black = create(client, opponent="person", same_screen=False)
    code = game["join_url"].split("code=")[1]
    friend = browser(client)
    jiro = signed_up(friend, "jiro")
    r = friend.post(f"/api/games/{game['id']}/join", json={"code": code})
    assert r.status_code == 200
    rows = seat_rows(client, game["id"])
    assert ("token", "0", hanako) in rows and ("token", "1", jiro) in rows
    third = browser(client)
    third.post("/api/accounts/login", json={"name": "jiro", "password": PASSWORD})
    r = ask_seat(third, game["id"])
    assert r.status_code == 200 and r.json()["game"]["your_colours"] == ["white"]


def test_an_anonymous_join_holds_no_account(client: TestClient) -> None:
    signed_up(client, "hanako")
    game, _black = create(client, opponent="person", same_screen=False)
    code = game["join_url"].split("code=")[1]
    r = browser(client).post(f"/api/games/{game['id']}/join", json={"code": code})
    assert r.status_code == 200
    assert ("token", "1", None) in seat_rows(client, game["id"])


def test_a_seat_kept_for_an_account(client: TestClient) -> None:
    """The lobby's way: GameService.create with both seats' accounts; no join code is
    handed out, the second account takes its seat with POST …/seat and the clocks
    start; nobody else can take it."""
    hanako = signed_up(client, "hanako")
    friend = browser(client)
    jiro = signed_up(friend, "jiro")
    games = client.app.state.services.games
    req = NewGame(opponent="person", same_screen=False, clock_minutes=5)
    created = client.portal.call(lambda: games.create(
        req, client=None, address="lobby", account=hanako, opponent_account=jiro))
    game_id = created.live.id
    assert created.join_code is None
    assert ("join", "1", jiro) in seat_rows(client, game_id)
    assert client.get(f"/api/games/{game_id}",
                      headers={"Authorization": f"Bearer {created.token}"}
                      ).json()["awaiting_join"]
    stranger = browser(client)
    signed_up(stranger, "saburo")
    assert ask_seat(stranger, game_id).status_code == 403
    r = ask_seat(friend, game_id)
    assert r.status_code == 200, r.text
    view = r.json()["game"]
    assert view["your_colours"] == ["white"] and not view["awaiting_join"]
    # asked again: a fresh token of the same seat
    again = ask_seat(friend, game_id)
    assert again.status_code == 200 and again.json()["seat_token"] != r.json()["seat_token"]
    assert ask_seat(client, game_id).json()["game"]["your_colours"] == ["black"]


def test_an_account_keeps_a_bounded_number_of_tokens(client: TestClient) -> None:
    signed_up(client, "hanako")
    game, _me = create(client)
    tokens = [ask_seat(client, game["id"]).json()["seat_token"] for _ in range(10)]
    assert len(set(tokens)) == 10
    assert len(seat_rows(client, game["id"])) == 8
    newest = Seat(client, game["id"], tokens[-1])
    assert newest.view()["your_colours"] == ["black"]


def test_a_signed_in_creator_plays_under_the_account_s_name(client: TestClient) -> None:
    signed_up(client, "Hanako")
    game, _me = create(client)
    assert game["participants"][0]["name"] == "Hanako"
    named, _ = create(client, names=["Someone", "Else"])
    assert named["participants"][0]["name"] == "Someone"
    shared, _ = create(client, opponent="person", same_screen=True)
    assert [p["name"] for p in shared["participants"]] == ["Player 1", "Player 2"]
    anonymous, _ = create(browser(client))
    assert anonymous["participants"][0]["name"] == "You"
