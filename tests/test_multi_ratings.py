"""Rated games of three or four (issue 67): the seats of Rolit and 4-player Othello held
by accounts, a fresh token of one's own seat in any browser (and no other's), a rated
game rated once in its own pool by its placings (the library's figures), what is not
rated saying why, and an account's deletion leaving its multi-player games anonymous."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import select
from test_storage_migration import BACKENDS, scratch_url
from test_web_api import make_client
from test_web_ratings import PASSWORD, browser, signed_up

from hasamigo.ratings import Pool, ranked
from hasamigo.ratings.system import BETA, START_MU, START_SIGMA, TAU
from hasamigo.storage.models import MultiGameRow, MultiGameSeatRow

NAMES = ("hanako", "jiro", "saburo", "shiro")


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A server on SQLite; on PostgreSQL too when ``HASAMIGO_TEST_POSTGRES`` is set."""
    with scratch_url(request.param, tmp_path) as url, make_client(url) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def people(client: TestClient, n: int) -> list[tuple[TestClient, str]]:
    """``n`` browsers, each signed up to an account of its own: (browser, account id)."""
    out = [(client, signed_up(client, NAMES[0]))]
    for name in NAMES[1:n]:
        other = browser(client)
        out.append((other, signed_up(other, name)))
    return out


def rated_game(client: TestClient, browsers: list[TestClient], game: str = "rolit"
               ) -> tuple[dict[str, Any], dict[str, str]]:
    """A rated online game created by ``client``, each other seat taken by the next of
    ``browsers``: the game and each colour's token."""
    r = client.post("/api/multi", json={"game": game, "online": True, "rated": True,
                                        "seats": [{}] * (len(browsers) + 1)})
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["rated"]
    tokens = {created["your_colours"][0]: created["seat_token"]}
    for (colour, url), other in zip(created["join_urls"].items(), browsers, strict=True):
        r = other.post(f"/api/multi/{created['id']}/join",
                       json={"code": url.split("code=")[1]})
        assert r.status_code == 200, r.text
        tokens[colour] = r.json()["seat_token"]
    return created, tokens


def unrated_rolit(client: TestClient, guest: TestClient
                  ) -> tuple[dict[str, Any], dict[str, str]]:
    """An unrated online Rolit game made by ``client``'s account and joined by
    ``guest``'s: the created game's JSON and each colour's seat token."""
    r = client.post("/api/multi", json={"game": "rolit", "online": True, "seats": [{}, {}]})
    created = r.json()
    code = next(iter(created["join_urls"].values())).split("code=")[1]
    joined = guest.post(f"/api/multi/{created['id']}/join", json={"code": code}).json()
    return created, {created["your_colours"][0]: created["seat_token"],
                     joined["your_colours"][0]: joined["seat_token"]}


def play_out(client: TestClient, game_id: str, tokens: dict[str, str], seed: int = 7
             ) -> dict[str, Any]:
    rng = random.Random(seed)
    view = client.get(f"/api/multi/{game_id}").json()
    while not view["over"]:
        r = client.post(f"/api/multi/{game_id}/moves", json={"move": rng.choice(view["legal"])},
                        headers=bearer(tokens[view["turn"]]))
        assert r.status_code == 200, r.text
        view = r.json()
    return view  # type: ignore[no-any-return]


@pytest.mark.parametrize(("game", "pool"), [("rolit", Pool.ROLIT), ("othello4", Pool.MULTI4)])
def test_a_rated_game_of_four_accounts_moves_each_rating_by_the_librarys_figures(
        client: TestClient, game: str, pool: Pool) -> None:
    players = people(client, 4)
    created, tokens = rated_game(client, [b for b, _ in players[1:]], game)
    # each seat carries its account's name, the creator's included
    view = client.get(f"/api/multi/{created['id']}").json()
    assert sorted(s["name"] for s in view["seats"]) == sorted(NAMES)
    over = play_out(client, created["id"], tokens)  # the answer showing the end ...
    r = client.get(f"/api/multi/{created['id']}/rating")  # ... came after the rating
    assert r.status_code == 200, r.text
    verdict = r.json()
    assert verdict["rated"] and verdict["over"] and verdict["excluded"] is None
    assert [c["colour"] for c in verdict["changes"]] == [s["colour"] for s in over["seats"]]
    assert [c["name"] for c in verdict["changes"]] == [s["name"] for s in over["seats"]]
    assert {c["pool"] for c in verdict["changes"]} == {pool.value}

    # the library's own figures for the places by final discs (equal discs share one)
    ids = dict((name, account) for name, (_b, account) in zip(NAMES, players, strict=True))
    subjects = [f"account:{ids[s['name']]}" for s in over["seats"]]
    placings = ranked(pool, subjects, [s["discs"] for s in over["seats"]])
    model = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=TAU)
    after = model.rate([[model.rating()] for _ in subjects],
                       ranks=[float(r) for r in placings.ranks])
    for change, team, subject in zip(verdict["changes"], after, subjects, strict=True):
        assert change["subject"] == subject
        assert change["before"] == 1500 and change["after"] == round(team[0].mu)
    first = next(c for c, r in zip(verdict["changes"], placings.ranks, strict=True) if r == 0)
    last = next(c for c, r in zip(verdict["changes"], placings.ranks, strict=True)
                if r == max(placings.ranks))
    assert first["delta"] > 0 > last["delta"]

    # asked again, by the API and by the service as a second server would: rated once
    assert client.get(f"/api/multi/{created['id']}/rating").json() == verdict
    services = client.app.state.services  # type: ignore[attr-defined]
    stored = services.multi.repo.get(created["id"])
    again = services.ratings.rate_multi_now(stored, {0: 64, 1: 0, 2: 0, 3: 0})
    assert [c.after.display for c in again.changes] == [c["after"] for c in verdict["changes"]]
    for subject in subjects:
        r = client.get(f"/api/ratings/{pool.value}/{subject}", params={"history": 5})
        assert r.json()["games"] == 1, r.text
        assert [h["game_ref"] for h in r.json()["history"]] == [f"multi:{created['id']}"]
        other = Pool.OTHELLO if pool is not Pool.OTHELLO else Pool.ROLIT
        assert client.get(f"/api/ratings/{other.value}/{subject}").json()["games"] == 0


def test_rolit_of_three_is_rated_with_ties_shared(client: TestClient) -> None:
    players = people(client, 3)
    created, tokens = rated_game(client, [b for b, _ in players[1:]])
    over = play_out(client, created["id"], tokens, seed=3)
    verdict = client.get(f"/api/multi/{created['id']}/rating").json()
    assert verdict["rated"] and len(verdict["changes"]) == 3
    scores = [c["score"] for c in verdict["changes"]]
    discs = [s["discs"] for s in over["seats"]]
    expected = ranked(Pool.ROLIT, [c["subject"] for c in verdict["changes"]], discs)
    assert scores == [expected.score(i) for i in range(3)]


def test_an_account_takes_a_fresh_token_of_its_own_seat_and_of_no_other(
        client: TestClient) -> None:
    players = people(client, 2)
    created, tokens = rated_game(client, [players[1][0]])
    game_id = created["id"]
    # hanako on another browser: signed in, she gets a token of her seat ...
    phone = browser(client)
    assert phone.post(f"/api/multi/{game_id}/seat").status_code == 401  # signed out
    r = phone.post("/api/accounts/login", json={"name": "Hanako", "password": PASSWORD})
    assert r.status_code == 200, r.text
    r = phone.post(f"/api/multi/{game_id}/seat")
    assert r.status_code == 200, r.text
    mine = r.json()
    assert mine["your_colours"] == created["your_colours"]
    view = phone.get(f"/api/multi/{game_id}", headers=bearer(mine["seat_token"])).json()
    assert view["your_colours"] == created["your_colours"]
    # ... which moves her seat, not jiro's
    theirs = next(c for c in tokens if c not in created["your_colours"])
    mover = mine["seat_token"] if view["turn"] in mine["your_colours"] else tokens[theirs]
    idle = tokens[theirs] if mover == mine["seat_token"] else mine["seat_token"]
    refused = phone.post(f"/api/multi/{game_id}/moves", json={"move": view["legal"][0]},
                         headers=bearer(idle))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_seat"
    r = phone.post(f"/api/multi/{game_id}/moves", json={"move": view["legal"][0]},
                   headers=bearer(mover))
    assert r.status_code == 200, r.text
    # an account holding no seat of the game gets none
    outsider = browser(client)
    signed_up(outsider, "saburo")
    r = outsider.post(f"/api/multi/{game_id}/seat")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat"
    assert client.post("/api/multi/nosuchgame/seat").status_code == 404
    # the account's older tokens end past eight browsers; the newest still acts
    for _ in range(9):
        newest = phone.post(f"/api/multi/{game_id}/seat").json()["seat_token"]
    assert phone.get(f"/api/multi/{game_id}", headers=bearer(mine["seat_token"])
                     ).status_code == 403
    assert phone.get(f"/api/multi/{game_id}", headers=bearer(newest)).json()[
        "your_colours"] == created["your_colours"]


def test_a_rated_games_seats_are_taken_signed_in_each_by_another_account(
        client: TestClient) -> None:
    signed_up(client, "hanako")
    r = client.post("/api/multi", json={"game": "rolit", "online": True, "rated": True,
                                        "seats": [{}, {}, {}]})
    created = r.json()
    codes = [u.split("code=")[1] for u in created["join_urls"].values()]
    anonymous = browser(client)
    r = anonymous.post(f"/api/multi/{created['id']}/join", json={"code": codes[0]})
    assert r.status_code == 401 and "signed in" in r.json()["error"]["message"]
    r = client.post(f"/api/multi/{created['id']}/join", json={"code": codes[0]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_joined"
    # the link was not used up by the refusals
    friend = browser(client)
    signed_up(friend, "jiro")
    r = friend.post(f"/api/multi/{created['id']}/join", json={"code": codes[0]})
    assert r.status_code == 200, r.text


def test_who_may_create_a_rated_game(client: TestClient) -> None:
    body = {"game": "rolit", "online": True, "rated": True, "seats": [{}, {}, {}]}
    r = client.post("/api/multi", json=body)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    signed_up(client, "hanako")
    for change in ({"online": False}, {"seats": [{}, {"player": "greedy"}, {}]},
                   {"game": "othello4"}):
        r = client.post("/api/multi", json={**body, **change})
        assert r.status_code == 400, (change, r.text)
        assert "rated" in r.json()["error"]["message"]
    r = client.post("/api/multi", json={**body, "game": "othello4", "seats": [{}] * 4})
    assert r.status_code == 201 and r.json()["rated"]


def test_what_is_not_rated_says_why(client: TestClient) -> None:
    players = people(client, 2)
    # an unrated game between two accounts
    created, tokens = unrated_rolit(client, players[1][0])
    assert client.get(f"/api/multi/{created['id']}/rating").json() == {
        "rated": False, "changes": [], "excluded": None, "over": False}
    play_out(client, created["id"], tokens)
    verdict = client.get(f"/api/multi/{created['id']}/rating?lang=ja").json()
    assert not verdict["rated"] and verdict["over"]
    assert verdict["excluded"]["code"] == "not_a_rated_game"
    assert verdict["excluded"]["reason"] != "The game was not created as rated."  # Japanese
    # an anonymous game of one screen
    r = client.post("/api/multi", json={"game": "rolit", "seats": [{}, {}, {}]})
    assert r.status_code == 201 and not r.json()["rated"]


def test_deleting_an_account_leaves_its_multi_player_games_anonymous(
        client: TestClient) -> None:
    players = people(client, 2)
    created, tokens = rated_game(client, [players[1][0]])
    play_out(client, created["id"], tokens)
    assert client.get(f"/api/multi/{created['id']}/rating").json()["rated"]
    jiro_browser, jiro = players[1]
    r = jiro_browser.post("/api/accounts/delete", json={"password": PASSWORD})
    assert r.status_code == 204, r.text
    view = client.get(f"/api/multi/{created['id']}").json()
    assert sorted(s["name"] for s in view["seats"]) == ["(deleted)", "hanako"]
    record = client.get(f"/api/multi/{created['id']}/record.mgf").text
    assert "jiro" not in record and "hanako" in record
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with db.session() as session:
        row = session.get(MultiGameRow, created["id"])
        assert row is not None
        assert jiro not in repr(row.seats) + repr(row.secrets)
        assert "jiro" not in repr(row.seats)
        holders = session.scalars(select(MultiGameSeatRow.account_id).where(
            MultiGameSeatRow.game_id == created["id"])).all()
        assert jiro not in holders and players[0][1] in holders
    # hanako's rating of the game stays; the game's changes now name her alone
    verdict = client.get(f"/api/multi/{created['id']}/rating").json()
    assert [c["subject"] for c in verdict["changes"]] == [f"account:{players[0][1]}"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_servers_on_one_database_rate_a_game_once(backend: str, tmp_path: Path) -> None:
    """One server makes the game, the other serves its joiner and its last moves: both
    answer the same changes, stored once."""
    with scratch_url(backend, tmp_path) as url, make_client(url) as one, \
            make_client(url) as two:
        hanako = signed_up(one, "hanako")
        jiro = signed_up(two, "jiro")
        created, tokens = rated_game(one, [two])
        view = play_out(two, created["id"], tokens, seed=11)
        assert view["over"]
        first = two.get(f"/api/multi/{created['id']}/rating").json()
        second = one.get(f"/api/multi/{created['id']}/rating").json()
        assert first["rated"] and first == second
        assert [c["subject"] for c in first["changes"]] == [
            f"account:{hanako if s['name'] == 'hanako' else jiro}" for s in view["seats"]]
        for account in (hanako, jiro):
            history = one.get(f"/api/ratings/rolit/account:{account}",
                              params={"history": 5}).json()["history"]
            assert [h["game_ref"] for h in history] == [f"multi:{created['id']}"]
