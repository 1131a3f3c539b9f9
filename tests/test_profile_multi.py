"""A player's profile shows their games of Rolit and 4-player Othello (issue 67): each pool's
rating with its '?' while provisional and its history chart, the finished games (every
seat's name, discs and place, a link to the game) a page at a time, in English and
Japanese, hostile names escaped; another person sees the rated ones only; a player with
none sees nothing new. And an account deleted in the middle of such a game (no
resignation exists for three or four): its seat is marked left, its token ends, a
program plays its turns so that the others can finish, and the game is not rated."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_multi_ratings import bearer, client, people, play_out, rated_game, unrated_rolit
from test_web_account_pages import everything_stored
from test_web_api import browser
from test_web_ratings import PASSWORD, signed_up

from hasamigo.accounts.profile import MULTI_PER_PAGE
from hasamigo.ratings import Pool
from hasamigo.storage.multi_games import (
    LEFT_SEAT_PROGRAM,
    MultiGameRepository,
    MultiSeat,
    StoredMultiGame,
)

__all__ = ["client"]  # the fixture (SQLite; PostgreSQL too with HASAMIGO_TEST_POSTGRES)


def services(c: TestClient) -> Any:
    return c.app.state.services  # type: ignore[attr-defined]


def stored_game(c: TestClient, account: str, *, n: int, names: tuple[str, ...] = (
        "hanako", "jiro", "saburo"), discs: tuple[int, ...] = (30, 20, 14),
        rated: bool = False, held: tuple[int, ...] = (0,)) -> str:
    """A finished Rolit game of three written straight to the store: ``account`` holds
    the seats ``held``; ``n`` orders the games in time (a larger ``n`` newer)."""
    at = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=n)
    colours = ("red", "yellow", "green")
    game = StoredMultiGame(
        f"g{n:04d}x{random.randrange(10**6):06d}", "rolit",
        tuple(MultiSeat(i, name) for i, name in enumerate(names)), (),
        result=" ".join(f"{c} {d}" for c, d in zip(colours, discs, strict=True)),
        created_at=at, updated_at=at, rated=rated,
        accounts=tuple((colour, account) for colour in held))
    MultiGameRepository(services(c).db).create(game)
    return game.id


# ---- the profile ----------------------------------------------------------------------
def test_a_player_without_multi_player_games_sees_nothing_new(client: TestClient) -> None:
    signed_up(client, "hanako")
    page = client.get("/players/hanako?lang=en")
    assert page.status_code == 200
    assert 'id="multi-games"' not in page.text and 'id="rating-rolit"' not in page.text
    assert 'id="rating-provisional"' not in page.text
    profile = client.get("/api/players/hanako").json()
    assert profile["multi_games"] == {"page": 1, "pages": 1, "total": 0, "games": []}
    assert profile["current"] == {}


@pytest.mark.parametrize(("game", "pool", "seats"), [("rolit", Pool.ROLIT, 3),
                                                    ("othello4", Pool.MULTI4, 4)])
def test_a_rated_game_shows_its_pools_rating_chart_and_line(
        client: TestClient, game: str, pool: Pool, seats: int) -> None:
    players = people(client, seats)
    created, tokens = rated_game(client, [b for b, _ in players[1:]], game)
    over = play_out(client, created["id"], tokens, seed=5)
    verdict = client.get(f"/api/multi/{created['id']}/rating").json()
    assert verdict["rated"]
    mine = next(c for c in verdict["changes"] if c["subject"] == f"account:{players[0][1]}")

    for reader in (client, browser(client)):  # the player, and anyone: a rated game
        profile = reader.get("/api/players/hanako").json()
        now = profile["current"][pool.value]
        assert now == {"rating": mine["after"], "uncertainty": now["uncertainty"],
                       "provisional": True, "games": 1}
        assert [h["game"] for h in profile["ratings"][pool.value]] == [
            f"multi:{created['id']}"]
        listed = profile["multi_games"]
        assert (listed["total"], listed["pages"]) == (1, 1)
        [line] = listed["games"]
        assert line["id"] == created["id"] and line["game"] == game and line["rated"]
        assert [(s["name"], s["colour"], s["discs"]) for s in line["seats"]] == [
            (s["name"], s["colour"], s["discs"]) for s in over["seats"]]
        ranks = {s["colour"]: s["rank"] for s in over["standings"]}
        assert [s["place"] for s in line["seats"]] == [ranks[s["colour"]]
                                                       for s in over["seats"]]
        assert [s["me"] for s in line["seats"]] == [s["name"] == "hanako"
                                                    for s in over["seats"]]
        assert line["place"] == next(s["place"] for s in line["seats"] if s["me"])

    en = client.get("/players/hanako?lang=en").text
    figure = re.search(rf'id="rating-{pool.value}">(.*?)</figcaption>', en, re.S)
    assert figure is not None and f'class="acct-rating">{mine["after"]}?<' in figure.group(1)
    assert "1 rated game" in figure.group(1) and "? provisional" in en
    section = en.split('id="multi-games"')[1]
    assert f'href="/multi/{created["id"]}"' in section
    place = line["place"]
    assert f"{place} of {seats}" in section
    for s in over["seats"]:
        assert f'acct-seat-name">{s["name"]}<' in section
    ja = client.get("/players/hanako?lang=ja").text
    assert "ローリットと4人対戦オセロ" in ja and f"{seats}人中{place}位" in ja
    assert "？は暫定" in ja and f'class="acct-rating">{mine["after"]}?<' in ja


def test_an_unrated_game_is_listed_for_its_player_only(client: TestClient) -> None:
    players = people(client, 2)
    created, tokens = unrated_rolit(client, players[1][0])
    play_out(client, created["id"], tokens)
    own = client.get("/api/players/hanako").json()["multi_games"]
    assert [g["id"] for g in own["games"]] == [created["id"]] and not own["games"][0]["rated"]
    assert f'href="/multi/{created["id"]}"' in client.get("/players/hanako").text
    # jiro sees hanako's profile without it, and no unrated rating anywhere
    theirs = players[1][0].get("/api/players/hanako").json()
    assert theirs["multi_games"]["total"] == 0 and theirs["current"] == {}
    assert 'id="multi-games"' not in players[1][0].get("/players/hanako").text


def test_the_multi_player_games_come_a_page_at_a_time(client: TestClient) -> None:
    hanako = signed_up(client, "hanako")
    ids = [stored_game(client, hanako, n=n) for n in range(MULTI_PER_PAGE + 3)]
    both = stored_game(client, hanako, n=999, held=(0, 1))  # against herself: left out
    newest_first = ids[::-1]
    first = client.get("/api/players/hanako").json()["multi_games"]
    assert (first["page"], first["pages"], first["total"]) == (1, 2, MULTI_PER_PAGE + 3)
    assert [g["id"] for g in first["games"]] == newest_first[:MULTI_PER_PAGE]
    second = client.get("/api/players/hanako", params={"multi_page": 2}).json()["multi_games"]
    assert [g["id"] for g in second["games"]] == newest_first[MULTI_PER_PAGE:]
    assert both not in {g["id"] for g in first["games"] + second["games"]}
    line = second["games"][-1]
    assert [(s["discs"], s["place"], s["me"]) for s in line["seats"]] == [
        (30, 1, True), (20, 2, False), (14, 3, False)]
    page = client.get("/players/hanako?lang=en").text
    assert 'id="multi-older"' in page and "?multi_page=2#multi-games" in page
    assert "Page 1 of 2" in page and 'id="multi-newer"' not in page
    later = client.get("/players/hanako?lang=en&multi_page=2").text
    assert 'id="multi-newer"' in later and 'id="multi-older"' not in later
    assert f'href="/multi/{ids[0]}"' in later and f'href="/multi/{ids[-1]}"' not in later
    # bounded: a page before the first is refused, one past the last is empty
    for bad in ("0", "-1", "x", "10000000"):
        r = client.get("/api/players/hanako", params={"multi_page": bad})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    assert client.get("/api/players/hanako", params={"multi_page": 9}).json()[
        "multi_games"]["games"] == []


def test_equal_discs_share_a_place(client: TestClient) -> None:
    hanako = signed_up(client, "hanako")
    stored_game(client, hanako, n=1, discs=(20, 30, 14), names=("a", "b", "hanako"), held=(2,))
    stored_game(client, hanako, n=2, discs=(25, 25, 14))
    newer, older = client.get("/api/players/hanako").json()["multi_games"]["games"]
    assert [s["place"] for s in newer["seats"]] == [1, 1, 3] and newer["place"] == 1
    assert [s["place"] for s in older["seats"]] == [2, 1, 3] and older["place"] == 3


def test_a_hostile_seat_name_is_escaped_on_the_profile(client: TestClient) -> None:
    hanako = signed_up(client, "hanako")
    hostile = '<img src=x onerror="alert(1)">'
    stored_game(client, hanako, n=1, names=("hanako", hostile, "saburo"))
    page = client.get("/players/hanako")
    assert page.status_code == 200
    assert hostile not in page.text
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in page.text
    games = client.get("/api/players/hanako").json()["multi_games"]["games"]
    assert games[0]["seats"][1]["name"] == hostile


def test_ones_own_profile_lists_the_multi_player_games_still_going(
        client: TestClient) -> None:
    players = people(client, 3)
    created, _tokens = rated_game(client, [b for b, _ in players[1:]])
    page = client.get("/players/hanako?lang=en").text
    going = page.split('id="going"')[1].split("</section>")[0]
    assert f'href="/multi/{created["id"]}"' in going and "jiro" in going
    assert 'id="multi-games"' not in page  # not finished: not among the results
    assert f'/multi/{created["id"]}' not in players[1][0].get("/players/hanako").text


# ---- an account deleted in the middle of a game ---------------------------------------
def wait_for_people(c: TestClient, game_id: str) -> dict[str, Any]:
    """The game once its programs have moved (a person to move, or the end)."""
    c.get(f"/api/multi/{game_id}")  # a read starts a program that is to move
    c.portal.call(services(c).multi.idle, game_id)  # type: ignore[union-attr]
    view: dict[str, Any] = c.get(f"/api/multi/{game_id}").json()
    return view


@pytest.mark.parametrize("game", ["rolit", "othello4"])
def test_a_deleted_players_seat_is_left_and_the_others_finish_unrated(
        client: TestClient, game: str) -> None:
    seats = 4 if game == "othello4" else 3
    players = people(client, seats)
    created, tokens = rated_game(client, [b for b, _ in players[1:]], game)
    game_id = created["id"]
    rng = random.Random(2)
    view = client.get(f"/api/multi/{game_id}").json()
    for _ in range(6):  # a few moves each way
        view = client.post(f"/api/multi/{game_id}/moves", json={
            "move": rng.choice(view["legal"])}, headers=bearer(tokens[view["turn"]])).json()
    jiro_browser, jiro = players[1]
    jiro_colour = next(s["colour"] for s in view["seats"] if s["name"] == "jiro")
    assert jiro_browser.post("/api/accounts/delete",
                             json={"password": PASSWORD}).status_code == 204

    view = wait_for_people(client, game_id)
    seat = next(s for s in view["seats"] if s["colour"] == jiro_colour)
    assert seat == {**seat, "name": "(deleted)", "left": True, "program": LEFT_SEAT_PROGRAM}
    assert not any(s["left"] for s in view["seats"] if s["colour"] != jiro_colour)
    # the deleted person's token no longer acts (nor reads as a seat)
    r = client.get(f"/api/multi/{game_id}", headers=bearer(tokens[jiro_colour]))
    assert r.status_code == 403
    # the others play on to the end; the left seat's turns are played for it
    left_moves = 0
    while not view["over"]:
        assert view["turn"] != jiro_colour, "a left seat's turn waits for nobody"
        before = len(view["moves"])
        r = client.post(f"/api/multi/{game_id}/moves", json={
            "move": rng.choice(view["legal"])}, headers=bearer(tokens[view["turn"]]))
        assert r.status_code == 200, r.text
        view = wait_for_people(client, game_id)
        left_moves += len(view["moves"]) - before - 1
    assert left_moves > 0
    # not rated, saying why; nobody's rating moved
    verdict = client.get(f"/api/multi/{game_id}/rating").json()
    assert not verdict["rated"] and verdict["changes"] == []
    assert verdict["excluded"]["code"] == "account_deleted"
    profile = client.get("/api/players/hanako").json()
    assert profile["current"] == {} and profile["multi_games"]["total"] == 1
    listed = profile["multi_games"]["games"][0]["seats"]
    assert [s["left"] for s in listed] == [s["colour"] == jiro_colour for s in view["seats"]]
    page = client.get("/players/hanako?lang=en").text
    assert "(deleted)" in page and "left the game (account deleted)" in page
    # the deletion left nothing of jiro's in any table
    everything = everything_stored(client)
    assert "jiro" not in everything and jiro not in everything


def test_a_game_with_no_other_person_stays_as_it_was(client: TestClient) -> None:
    signed_up(client, "hanako")
    r = client.post("/api/multi", json={"game": "rolit", "online": True, "first": "red",
                                        "seats": [{}, {"player": "greedy"}]})
    assert r.status_code == 201, r.text
    created = r.json()
    game_id = created["id"]
    view = client.post(f"/api/multi/{game_id}/moves", json={"move": created["legal"][0]},
                       headers=bearer(created["seat_token"])).json()
    view = wait_for_people(client, game_id)
    moves = view["moves"]
    assert client.post("/api/accounts/delete", json={"password": PASSWORD}).status_code == 204
    view = wait_for_people(client, game_id)
    assert view["moves"] == moves and not view["over"]  # no program plays a game alone
    seat = next(s for s in view["seats"] if s["program"] is None)
    assert seat["left"] and seat["name"] == "(deleted)"
    r = client.get(f"/api/multi/{game_id}", headers=bearer(created["seat_token"]))
    assert r.status_code == 403
