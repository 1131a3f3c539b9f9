"""Rated games on the web (issue 67): two accounts play a rated game to its end and both
ratings move by the library's figures, committed before the result is shown; what is not
rated says why; the ratings' API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from test_storage_migration import BACKENDS, scratch_url
from test_web_api import Seat, browser, create, make_client

from hasamigo.game.errors import GameError
from hasamigo.game.setup import GameOptions, GameSetup, Participant

PASSWORD = "correct horse battery"


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A server on SQLite; on PostgreSQL too when ``HASAMIGO_TEST_POSTGRES`` is set."""
    with scratch_url(request.param, tmp_path) as url, make_client(url) as c:
        yield c



def signed_up(c: TestClient, name: str) -> str:
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    account_id: str = r.json()["account"]["id"]
    return account_id


def rated_game(client: TestClient, friend: TestClient | None = None
               ) -> tuple[Seat, Seat]:
    """A rated game between ``client`` (Black) and ``friend`` (White), both seated."""
    game, black = create(client, opponent="person", same_screen=False, rated=True,
                         colour="black")
    assert game["rated"] is True
    code = game["join_url"].split("code=")[1]
    friend = friend or browser(client)
    r = friend.post(f"/api/games/{game['id']}/join", json={"code": code})
    assert r.status_code == 200, r.text
    return black, Seat(friend, game["id"], r.json()["seat_token"])


def resign(seat: Seat, colour: str) -> Any:
    r = seat.post("/resign", {"colour": colour})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_rated_game_moves_both_ratings_by_the_librarys_figures(client: TestClient) -> None:
    hanako = signed_up(client, "hanako")
    friend = browser(client)
    jiro = signed_up(friend, "jiro")
    black, white = rated_game(client, friend)
    assert black.move("f5").status_code == 200
    assert white.move("d6").status_code == 200
    over = resign(white, "white")  # the answer that shows the result ...
    assert over["phase"] == "over"
    r = black.get("/rating")  # ... came after the rating was committed
    assert r.status_code == 200, r.text
    verdict = r.json()
    assert verdict["rated"] and verdict["excluded"] is None
    model = PlackettLuce(mu=1500, sigma=400, beta=200, tau=4)
    [[winner], [loser]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    assert [c["colour"] for c in verdict["changes"]] == ["black", "white"]
    by_subject = {c["subject"]: c for c in verdict["changes"]}
    assert by_subject[f"account:{hanako}"]["after"] == round(winner.mu)
    assert by_subject[f"account:{jiro}"]["after"] == round(loser.mu)
    assert by_subject[f"account:{hanako}"]["delta"] > 0 > by_subject[f"account:{jiro}"]["delta"]

    r = client.get(f"/api/ratings/othello/account:{hanako}", params={"history": 5})
    assert r.status_code == 200
    mine = r.json()
    assert mine["games"] == 1 and mine["rating"] == round(winner.mu) and mine["provisional"]
    assert [h["game_ref"] for h in mine["history"]] == [f"game:{black.id}"]
    profile = client.get("/api/players/JIRO/ratings").json()  # names are case-blind
    assert profile["name"] == "jiro"
    [othello] = profile["ratings"]
    assert othello["pool"] == "othello" and othello["rating"] == round(loser.mu)
    assert othello["history"][0]["before"] == 1500
    # asked again (another look, another server's): rated once
    assert black.get("/rating").json()["changes"] == verdict["changes"]
    assert client.get(f"/api/ratings/othello/account:{jiro}").json()["games"] == 1


def test_what_is_not_rated_says_why(client: TestClient) -> None:
    signed_up(client, "hanako")
    black, white = rated_game(client)  # the second browser is not signed in
    black.move("f5")
    white.move("d6")
    resign(black, "black")
    r = black.get("/rating")
    assert not r.json()["rated"]
    assert r.json()["excluded"]["code"] == "not_accounts"

    friend = browser(client)
    signed_up(friend, "jiro")
    black, white = rated_game(client, friend)
    black.move("f5")
    resign(white, "white")  # White never moved: no contest
    r = client.get(f"/api/games/{black.id}/rating?lang=ja",
                   headers={"Authorization": f"Bearer {black.token}"})
    excluded = r.json()["excluded"]
    assert excluded["code"] == "too_short" and "対局不成立" in excluded["reason"]

    _game, seat = create(client, opponent="random")
    assert seat.get("/rating").json() == {"rated": False, "changes": [], "excluded": None,
                                          "over": False}


def test_who_may_create_a_rated_game(client: TestClient) -> None:
    r = client.post("/api/games", json={"opponent": "person", "same_screen": False,
                                        "rated": True})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    signed_up(client, "hanako")
    for fields in ({"opponent": "random"}, {"opponent": "person"},
                   {"opponent": "person", "same_screen": False, "variant": "6x6"},
                   {"opponent": "person", "same_screen": False, "handicap": 2}):
        r = client.post("/api/games", json={**fields, "rated": True})
        assert r.status_code == 400, (fields, r.text)
        assert "rated" in r.json()["error"]["message"]
    game, _seat = create(client, opponent="person", same_screen=False, rated=True)
    assert game["rated"]


def test_the_ratings_api_refuses_bad_input(client: TestClient) -> None:
    assert client.get("/api/ratings/chess/program:random").status_code == 404
    r = client.get("/api/ratings/othello/someone")
    assert r.status_code == 400 and "subject" in r.json()["error"]["message"]
    assert client.get("/api/ratings/othello/" + "a" * 500).status_code == 422
    assert client.get("/api/players/nobody/ratings").status_code == 404
    fresh = client.get("/api/ratings/rolit/program:engine:5").json()
    assert fresh["rating"] == 1500 and fresh["games"] == 0
    programs = client.get("/api/ratings/programs").json()
    assert programs["anchor"]["program"] == "random"


def test_a_rated_option_is_stored_and_old_setups_read_as_not_rated() -> None:
    people = (Participant("a"), Participant("b"))
    setup = GameSetup(people, GameOptions(casual=False, rated=True))
    data = setup.to_json()
    assert data["options"]["rated"] is True
    assert GameSetup.from_json(data).options.rated
    old = GameSetup(people).to_json()
    assert "rated" not in old["options"]
    assert not GameSetup.from_json(old).options.rated
    with pytest.raises(GameError, match="take-backs"):
        GameOptions(rated=True)
    with pytest.raises(GameError, match="standard"):
        GameOptions(rated=True, casual=False, variant="6x6")
    bad = {**data, "options": {**data["options"], "rated": "yes"}}
    with pytest.raises(GameError, match="wrong type"):
        GameSetup.from_json(bad)


def test_the_new_game_form_shows_the_measured_ratings(client: TestClient) -> None:
    from hasamigo.ratings.calibration import program_ratings

    shipped = program_ratings()
    for lang, word in (("en", "Rating ≈ "), ("ja", "レーティング ≈ ")):
        page = client.get("/", params={"lang": lang}).text
        assert f"{word}{shipped['victory']}<" in page
        assert f'"5": {shipped["engine:5"]}' in page  # the level slider's table
    assert "it aims at a close game" in client.get("/", params={"lang": "en"}).text


def test_the_rating_is_committed_before_the_watchers_are_told(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from hasamigo.game.state import Phase
    from hasamigo.web.services.games.live import LiveGame

    signed_up(client, "hanako")
    friend = browser(client)
    signed_up(friend, "jiro")
    black, white = rated_game(client, friend)
    black.move("f5")
    white.move("d6")
    services = client.app.state.services  # type: ignore[attr-defined]
    games, store = services.games, services.ratings.store
    seen: list[str] = []
    rate = games.on_over

    async def rating(live: LiveGame) -> None:
        await rate(live)
        seen.append(f"rated:{len(store.changes_of(f'game:{live.id}'))}")

    notify = LiveGame.notify

    def told(live: LiveGame) -> None:
        if live.game.phase is Phase.OVER:
            seen.append(f"told:{len(store.changes_of(f'game:{live.id}'))}")
        notify(live)

    monkeypatch.setattr(games, "on_over", rating)
    monkeypatch.setattr(LiveGame, "notify", told)
    resign(white, "white")
    assert seen[:2] == ["rated:2", "told:2"]  # the watchers hear of a rated result


def test_a_game_resigned_by_an_account_deletion_is_not_rated(client: TestClient) -> None:
    """Deleting an account resigns its games still going: nobody won them, so the
    opponent gains nothing (a throwaway account would otherwise feed a friend's rating)."""
    hanako = signed_up(client, "hanako")
    friend = browser(client)
    signed_up(friend, "jiro")
    black, white = rated_game(client, friend)
    assert black.move("f5").status_code == 200
    assert white.move("d6").status_code == 200
    r = friend.post("/api/accounts/delete", json={"password": PASSWORD})
    assert r.status_code == 204, r.text
    over = black.get("").json()
    assert over["phase"] == "over" and over["result"]["winner"] == "black"
    verdict = black.get("/rating").json()
    assert not verdict["rated"] and verdict["changes"] == []
    assert verdict["excluded"]["code"] == "account_deleted"
    mine = client.get(f"/api/ratings/othello/account:{hanako}").json()
    assert mine["games"] == 0 and mine["rating"] == 1500
    ja = client.get(f"/api/games/{black.id}/rating?lang=ja",
                    headers={"Authorization": f"Bearer {black.token}"}).json()
    assert "アカウントを削除" in ja["excluded"]["reason"]
