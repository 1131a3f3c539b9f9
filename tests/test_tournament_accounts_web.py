"""Tournaments by account over the web (issue 67): the director opens registration, a
signed-in account enters itself and withdraws from the tournament's page API (401 signed
out, 409 twice, full, after round 1; nothing on another account's entry), the entrants
list shows ratings and the seeding, a result not rated says why on the pairings page in
English and Japanese, and a result between two accounts is rated when the tournament
finishes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from test_storage_migration import BACKENDS, scratch_url
from test_tournament_web import Director, create
from test_web_api import error_of, make_client

from hasamigo.ratings import Pool, RatingStore
from hasamigo.storage import Database
from hasamigo.tournament.rated import game_ref

PASSWORD = "correct horse battery"


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with scratch_url(request.param, tmp_path) as scratch:
        yield scratch


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with make_client(url) as c:
        yield c


def sign_up(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    account: dict[str, str] = r.json()["account"]
    return account


def sign_in(client: TestClient, name: str) -> None:
    r = client.post("/api/accounts/login", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text


def open_registration(d: Director, **settings: Any) -> dict[str, Any]:
    r = d.client.put(f"/api/tournaments/{d.id}/registration/settings",
                     json={"registration": True, **settings}, headers=d.headers)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()["tournament"]
    return data


def enter(client: TestClient, d: Director, status: int = 201, **body: Any) -> Any:
    r = client.post(f"/api/tournaments/{d.id}/registration", json=body)
    assert r.status_code == status, r.text
    return r.json()


def test_an_account_enters_itself_and_only_itself(client: TestClient) -> None:
    d = create(client, rounds=2)
    assert client.post(f"/api/tournaments/{d.id}/registration", json={}).status_code == 401
    assert "does not take registrations" in client.get(
        f"/api/tournaments/{d.id}/registration").json()["refusal"]
    r = client.put(f"/api/tournaments/{d.id}/registration/settings",
                   json={"registration": True})
    assert r.status_code == 401  # the director's session, not anyone's
    settings = open_registration(d, registration_cap=2, seeding="rating")["settings"]
    assert (settings["registration"], settings["registration_cap"]) == (True, 2)
    state = client.get(f"/api/tournaments/{d.id}/registration").json()
    assert (state["open"], state["signed_in"], state["entry"]) == (True, False, None)
    assert client.post(f"/api/tournaments/{d.id}/registration", json={}).status_code == 401

    hanako = sign_up(client, "Hanako")
    entry = enter(client, d, rank="2d")
    assert (entry["number"], entry["name"], entry["rank"], entry["account"]) == (
        1, "Hanako", "2d", True)
    assert "account_id" not in entry and hanako["id"] not in str(entry)
    assert "registered already" in error_of(client.post(
        f"/api/tournaments/{d.id}/registration", json={}))["message"]
    assert client.post(f"/api/tournaments/{d.id}/registration",
                       json={"rank": "x" * 13}).status_code == 422  # bounded
    public = client.get(f"/api/tournaments/{d.id}").json()
    assert public["entrants"][0]["account"] is True
    assert hanako["id"] not in str(public)

    sign_up(client, "Taro")  # another account: nothing to withdraw of Hanako's
    r = client.delete(f"/api/tournaments/{d.id}/registration")
    assert r.status_code == 409 and "no entry" in error_of(r)["message"]
    assert client.get(f"/api/tournaments/{d.id}").json()["entrants"][0]["withdrawn_from"] \
        is None
    enter(client, d)
    sign_up(client, "Jiro")
    assert "full (2 entrants)" in error_of(client.post(
        f"/api/tournaments/{d.id}/registration", json={}))["message"]
    sign_in(client, "Taro")
    withdrawn = client.delete(f"/api/tournaments/{d.id}/registration")
    assert withdrawn.status_code == 200 and withdrawn.json()["withdrawn_from"] == 1
    sign_in(client, "Jiro")
    enter(client, d)  # the place Taro left
    d.post("/rounds", status=201)
    sign_in(client, "Hanako")
    r = client.delete(f"/api/tournaments/{d.id}/registration")
    assert r.status_code == 409 and "ask the director" in error_of(r)["message"]
    r = client.put(f"/api/tournaments/{d.id}/registration/settings",
                   json={"registration": True, "seeding": "rank"}, headers=d.headers)
    assert r.status_code == 409 and "seeding is fixed" in error_of(r)["message"]
    audit = d.get("/audit")
    assert [e["who"] for e in audit if e["action"] == "register"] == [
        "account:Hanako", "account:Taro", "account:Jiro"]


def test_the_page_offers_entry_and_shows_ratings_in_both_languages(client: TestClient
                                                                   ) -> None:
    d = create(client, rounds=1)
    open_registration(d, registration_closes="2099-01-02T03:04:00Z")
    page = client.get(f"/tournaments/{d.id}?lang=en").text
    assert 'id="register-sign-in"' in page and "Sign in to enter" in page
    assert "Closes 2099-01-02 03:04 (UTC)." in page
    sign_up(client, "Hanako")
    page = client.get(f"/tournaments/{d.id}?lang=en").text
    assert 'id="register-self"' in page and "Enter this tournament" in page
    assert "/static/js/tournament_entry.js" in page
    enter(client, d)
    page = client.get(f"/tournaments/{d.id}?lang=ja").text
    assert "あなたは 1 番で参加しています。" in page and "参加を取り消す" in page
    assert "レーティングなし" in page  # an account never rated
    assert "シード順" in page


def test_results_not_rated_say_why_and_account_games_are_rated(client: TestClient,
                                                               url: str) -> None:
    d = create(client, rounds=1)
    open_registration(d)
    for name in ("Hanako", "Taro"):
        sign_up(client, name)
        enter(client, d)
    for name in ("Guest", "Walk-in"):
        d.post("/entrants", {"name": name}, status=201)
    paired = d.post("/rounds", status=201)
    accounts = {"Hanako", "Taro"}
    views = {}
    for g in paired["games"]:
        views[g["board"]] = d.post(f"/rounds/1/boards/{g['board']}/result",
                                   {"black_discs": 40, "white_discs": 24})
    db = Database(url)
    try:
        ratings = RatingStore(db)
        for g in paired["games"]:
            both = {g["black"], g["white"]} == accounts
            changes = ratings.changes_of(game_ref(d.id, 1, g["board"]), Pool.OTHELLO)
            assert len(changes) == (2 if both else 0)
            assert views[g["board"]]["not_rated"] == (None if both else
                                                      "not_entrant_accounts")
    finally:
        db.close()
    # the draw (the tournament's seed) put the two accounts together: one board of each
    mixed = [g for g in paired["games"] if {g["black"], g["white"]} != accounts]
    assert len(mixed) == 1
    en = client.get(f"/tournaments/{d.id}?lang=en").text
    assert "not rated: Not both players entered with an account" in en
    ja = client.get(f"/tournaments/{d.id}?lang=ja").text
    assert "アカウント同士の対局だけがレーティングに算入されます" in ja
    late = d.post("/rounds/1/boards/1/correction",
                  {"forfeit_loser": paired["games"][0]["white_number"], "late": True,
                   "reason": "the late player chose the forfeit"})
    assert late["not_rated"] == "late_forfeit"
    first = paired["games"][0]
    assert {first["black"], first["white"]} == accounts
    assert late["rating_note"] is not None  # rated as first entered, and said


def test_a_deleted_account_leaves_its_entrant_nameless(client: TestClient, url: str) -> None:
    d = create(client, rounds=2)
    open_registration(d)
    sign_up(client, "Taro")
    enter(client, d)
    hanako = sign_up(client, "Hanako")
    enter(client, d, rank="3d")
    d.post("/entrants", {"name": "Guest"}, status=201)
    d.post("/rounds", status=201)
    r = client.post("/api/accounts/delete", json={"password": PASSWORD})
    assert r.status_code == 204, r.text
    entrants = client.get(f"/api/tournaments/{d.id}").json()["entrants"]
    assert (entrants[1]["name"], entrants[1]["rank"], entrants[1]["account"]) == (
        "(deleted) #2", None, False)
    assert entrants[0]["name"] == "Taro"  # the others stay as they were
    pairings = client.get(f"/api/tournaments/{d.id}/rounds/1").json()
    assert "Hanako" not in str(pairings) and "(deleted) #2" in str(pairings)
    db = Database(url)
    try:
        with db.session() as session:
            stored = [str(row) for table in ("tournament_entrants", "tournament_pairings",
                                             "tournament_audit")
                      for row in session.execute(sa.text(f"select * from {table}"))]
    finally:
        db.close()
    assert stored and not [row for row in stored if "Hanako" in row or hanako["id"] in row]
