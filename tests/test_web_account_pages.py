"""Accounts on the site (issue 67): the claim of a browser's anonymous games, the profile
(games, results by colour and by opening, rating history), the pages in both languages,
and the deletion of an account, which leaves no trace of its name or password hash in the
database while the opponents keep their games."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from test_storage_migration import BACKENDS, scratch_url
from test_web_api import Seat, browser, create, make_client

from hasamigo.accounts import name_key
from hasamigo.accounts.attempts import device_key, name_key_of
from hasamigo.accounts.store import token_hash
from hasamigo.game.openings import opening_name
from hasamigo.ratings import Pool, RatingStore, subject_of_account
from hasamigo.ratings.outcome import two_player
from hasamigo.storage.models import AccountAttemptRow, AccountDeviceRow, Base
from hasamigo.web.services.accounts import DEVICE_COOKIE, SESSION_COOKIE

PASSWORD = "correct horse battery"
NAME = "Zqxhanako"  # found nowhere else in a database


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a SQLite file; on a PostgreSQL schema too when
    ``HASAMIGO_TEST_POSTGRES`` is set."""
    with scratch_url(request.param, tmp_path) as url, make_client(url) as c:
        yield c



def signed_up(c: TestClient, name: str, password: str = PASSWORD) -> str:
    r = c.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    account_id: str = r.json()["account"]["id"]
    return account_id


def finished(client: TestClient, **fields: Any) -> tuple[dict[str, Any], Seat]:
    """A game against the stand-in program, two moves each way, then resigned."""
    game, me = create(client, **fields)
    assert me.move("f5").status_code == 200
    assert me.post("/resign").status_code == 200
    return game, me


def everything_stored(client: TestClient) -> str:
    """Every value of every table, as text."""
    db = client.app.state.services.db
    parts = []
    with db.engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            if not sa.inspect(conn).has_table(table.name):
                continue
            for row in conn.execute(sa.select(table)):
                parts.extend(str(value) for value in row)
    return "\n".join(parts)


# ---- claiming ---------------------------------------------------------------------------
def test_claim_the_games_of_this_browser(client: TestClient) -> None:
    mine, _seat = create(client)
    other_browser = browser(client)
    theirs, _ = create(other_browser)
    assert client.post("/api/accounts/claim").status_code == 401
    signed_up(client, "hanako")
    page = client.get("/players/hanako")
    assert "1 game played in this browser" in page.text
    r = client.post("/api/accounts/claim")
    assert r.status_code == 200 and r.json() == {"claimed": [mine["id"]]}
    assert client.post("/api/accounts/claim").json() == {"claimed": []}  # once
    after = client.get("/players/hanako?lang=en").text  # nothing left: no button
    assert "No game played in this browser without an account waits to be claimed." in after
    assert 'id="claim-button"' not in after and 'id="claim-button"' in page.text
    # the account now holds the seat: a fresh token from any browser
    elsewhere = browser(client)
    elsewhere.post("/api/accounts/login", json={"name": "hanako", "password": PASSWORD})
    assert elsewhere.post(f"/api/games/{mine['id']}/seat").status_code == 200
    assert elsewhere.post(f"/api/games/{theirs['id']}/seat").status_code == 403


def test_a_claimed_game_still_going_is_on_the_own_profile(client: TestClient) -> None:
    """After the claim the game is found on one's profile (it was in no list there: the
    finished games only), with a link; nobody else sees the list."""
    mine, _seat = create(client)
    done, _ = finished(client)
    signed_up(client, "hanako")
    assert f'href="/games/{mine["id"]}"' not in client.get("/players/hanako").text
    assert client.post("/api/accounts/claim").status_code == 200
    page = client.get("/players/hanako?lang=en").text
    going = page.split('id="going"', 1)[1].split("</section>", 1)[0]
    assert f'href="/games/{mine["id"]}"' in going and f"/games/{done['id']}" not in going
    ja = client.get("/players/hanako?lang=ja").text
    assert "あなたの対局" in ja
    assert 'id="going"' not in browser(client).get("/players/hanako").text
    fresh = browser(client)
    signed_up(fresh, "jiro")
    assert "続いている対局はありません。" in fresh.get("/players/jiro?lang=ja").text


def test_a_claimed_seat_is_not_claimed_again_by_another_account(client: TestClient) -> None:
    game, _ = create(client)
    signed_up(client, "hanako")
    assert client.post("/api/accounts/claim").json() == {"claimed": [game["id"]]}
    client.post("/api/accounts/logout")
    signed_up(client, "jiro")
    assert client.post("/api/accounts/claim").json() == {"claimed": []}
    assert client.post(f"/api/games/{game['id']}/seat").status_code == 403


# ---- the profile ------------------------------------------------------------------------
def test_the_profile_counts_results_by_colour_and_opening(client: TestClient) -> None:
    signed_up(client, "hanako")
    game, me = finished(client, public=True)
    private, _ = finished(client)
    moves = me.view()["moves"]
    r = client.get("/api/players/HANAKO")
    assert r.status_code == 200
    profile = r.json()
    assert profile["account"]["name"] == "hanako"
    assert profile["by_colour"]["black"] == {"win": 0, "draw": 0, "loss": 2, "games": 2}
    assert profile["by_colour"]["white"]["games"] == 0
    assert {g["id"] for g in profile["games"]} == {game["id"], private["id"]}
    assert {g["outcome"] for g in profile["games"]} == {"loss"}
    named = opening_name(moves)
    if named is None:
        assert profile["by_opening"] == []
    else:
        assert profile["by_opening"][0]["en"] == named.en
        assert profile["by_opening"][0]["games"] == 2
    # another person sees the public game only, the same results
    other = browser(client).get("/api/players/hanako").json()
    assert [g["id"] for g in other["games"]] == [game["id"]]
    assert other["by_colour"] == profile["by_colour"]
    assert client.get("/api/players/nobody").status_code == 404


def test_the_profile_page_in_both_languages(client: TestClient) -> None:
    account_id = signed_up(client, "hanako")
    game, _ = finished(client, public=True)
    store = RatingStore(client.app.state.services.db)
    for n in range(3):
        store.record(f"game:test{n}", two_player(
            Pool.OTHELLO, subject_of_account(account_id), "program:random", winner=0))
    en = client.get("/players/hanako?lang=en")
    assert en.status_code == 200
    assert "Results by colour" in en.text and f"/games/{game['id']}" in en.text
    assert "<polyline" in en.text and "3 rated games" in en.text
    assert 'id="nav-account"' in en.text and "Delete the account" in en.text
    ja = client.get("/players/hanako?lang=ja")
    assert "手番別の成績" in ja.text and "レーティング対局3局" in ja.text
    # someone else: no claim, no deletion
    other = browser(client).get("/players/hanako")
    assert other.status_code == 200 and "Delete the account" not in other.text
    assert 'id="nav-login"' in other.text
    assert browser(client).get("/players/nobody").status_code == 404


def test_the_rating_chart_says_where_the_line_starts_and_ends(client: TestClient) -> None:
    """The chart's scale is its top and bottom beside it (not two numbers under it that
    read as a fall from the top to the bottom), and its label goes from the rating
    before the first game to the last."""
    import re

    from hasamigo.web.routers.accounts import rating_chart

    account_id = signed_up(client, "kaede")
    store = RatingStore(client.app.state.services.db)
    store.record("game:up", two_player(
        Pool.OTHELLO, subject_of_account(account_id), "program:random", winner=0))
    changes = store.history(subject_of_account(account_id), Pool.OTHELLO)
    chart = rating_chart(changes)
    first, last = changes[0].before.display, changes[-1].after.display
    assert (chart["first"], chart["last"]) == (first, last) and last > first
    assert chart["low"] < first < last < chart["high"]
    page = client.get("/players/kaede?lang=en").text
    assert f"from {first} to {last}" in page
    scale = re.search(r'class="small acct-chart-scale"[^>]*>(.*?)</div>\s*<svg', page, re.S)
    assert scale is not None, "the scale stands before the chart, beside it"
    assert re.search(rf'acct-chart-top">{chart["high"]}<.*acct-chart-bottom">{chart["low"]}<',
                     scale.group(1))
    ja = client.get("/players/kaede?lang=ja").text
    assert f"（{first}〜{last}）" in ja


def test_sign_in_pages(client: TestClient) -> None:
    for path in ("/signup", "/login", "/signup?lang=ja", "/login?lang=ja"):
        r = client.get(path)
        assert r.status_code == 200 and 'id="account-form"' in r.text
    assert "新規登録" in client.get("/signup?lang=ja").text
    # no open redirect through ?next=
    assert 'data-next="/"' in client.get("/login?next=//evil.example/").text
    assert 'data-next="/library"' in client.get("/login?next=/library").text
    # a browser drops tabs and line breaks from a URL: "/<tab>/evil.example" is another site
    for hostile in ("/%09/evil.example/", "/%0A/evil.example/", "/%0D%0A/evil.example/",
                    "/%20/evil.example/", "/%E3%80%80/evil.example/", "/%00/evil.example/"):
        for page in ("/login", "/signup"):
            assert 'data-next="/"' in client.get(f"{page}?next={hostile}").text, hostile
    assert 'data-next="/players/%E3%81%82"' in client.get(
        "/login?next=/players/%25E3%2581%2582").text


def test_the_sign_out_form(client: TestClient) -> None:
    signed_up(client, "hanako")
    r = client.post("/logout", data={"next": "/library"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/library"
    assert client.get("/api/accounts/me").status_code == 401
    r = client.post("/logout", data={"next": "https://evil.example/"},
                    follow_redirects=False)
    assert r.headers["location"] == "/"
    r = client.post("/logout", data={"next": "/\t/evil.example/"}, follow_redirects=False)
    assert r.headers["location"] == "/"


# ---- deletion ---------------------------------------------------------------------------
def test_deletion_needs_the_password(client: TestClient) -> None:
    signed_up(client, "hanako")
    r = client.post("/api/accounts/delete", json={"password": "wrong password"})
    assert r.status_code == 403
    assert client.get("/api/accounts/me").status_code == 200
    assert browser(client).post("/api/accounts/delete",
                                json={"password": PASSWORD}).status_code == 401
    # another account's password deletes nothing either
    other = browser(client)
    signed_up(other, "jiro", "jiro's password")
    assert other.post("/api/accounts/delete", json={"password": PASSWORD}).status_code == 403
    assert client.get("/api/accounts/me").status_code == 200


def test_deletion_leaves_no_trace(client: TestClient, caplog: pytest.LogCaptureFixture
                                  ) -> None:
    account_id = signed_up(client, NAME)
    old_cookie = client.cookies[SESSION_COOKIE]
    # a game against another person, finished; one still going; one against a program
    game, _black = create(client, opponent="person", same_screen=False, public=True,
                          names=[NAME, "Opponent"])
    code = game["join_url"].split("code=")[1]
    friend = browser(client)
    friend_id = signed_up(friend, "friendly")
    joined = friend.post(f"/api/games/{game['id']}/join", json={"code": code}).json()
    white = Seat(friend, game["id"], joined["seat_token"])
    going, _ = create(client, opponent="person", same_screen=False, names=[NAME, "Other"])
    going_code = going["join_url"].split("code=")[1]
    assert friend.post(f"/api/games/{going['id']}/join",
                       json={"code": going_code}).status_code == 200
    waiting, _ = create(client, opponent="person", same_screen=False, names=[NAME, "Y"])
    vs_program, _ = finished(client, names=[NAME, "x"])
    black = Seat(client, game["id"], game["seat_token"])
    assert black.move("f5").status_code == 200
    assert white.post("/resign").status_code == 200
    store = RatingStore(client.app.state.services.db)
    store.record("game:" + game["id"], two_player(
        Pool.OTHELLO, subject_of_account(account_id), subject_of_account(friend_id), winner=0))
    db = client.app.state.services.db
    with db.session() as session:
        stored_hash = session.scalar(sa.text("select password_hash from accounts "
                                             "where id = :id"), {"id": account_id})
    assert stored_hash and NAME in everything_stored(client)
    # failed sign-ins counted against the name (another browser) and this trusted browser
    assert browser(client).post("/api/accounts/login", json={
        "name": NAME, "password": "not the password"}).status_code == 401
    assert client.post("/api/accounts/delete",
                       json={"password": "not the password"}).status_code == 403
    counted = {name_key_of(name_key(NAME)), device_key(token_hash(client.cookies[DEVICE_COOKIE]))}

    def attempts_and_devices() -> tuple[set[str], list[str]]:
        with db.session() as session:
            return (set(session.scalars(sa.select(AccountAttemptRow.key))),
                    list(session.scalars(sa.select(AccountDeviceRow.account_id))))

    keys, devices = attempts_and_devices()
    assert counted <= keys and account_id in devices

    with caplog.at_level(logging.DEBUG):
        r = client.post("/api/accounts/delete", json={"password": PASSWORD})
    assert r.status_code == 204
    keys, devices = attempts_and_devices()
    assert not counted & keys and account_id not in devices
    assert DEVICE_COOKIE not in client.cookies
    assert not [rec for rec in caplog.records if PASSWORD in rec.getMessage()]
    assert client.get("/api/accounts/me").status_code == 401
    client.cookies.set(SESSION_COOKIE, old_cookie)
    assert client.get("/api/accounts/me").status_code == 401
    assert client.post("/api/accounts/login",
                       json={"name": NAME, "password": PASSWORD}).status_code == 401

    everything = everything_stored(client)
    assert NAME not in everything and NAME.lower() not in everything
    assert stored_hash not in everything and account_id not in everything
    # the opponent keeps the game, its moves and result, with the name anonymised
    view = white.view()
    assert view["moves"][:1] == ["f5"] and view["result"]["winner"] == "black"
    assert "(deleted)" in (view["names"] if "names" in view else str(view))
    assert friend.post(f"/api/games/{game['id']}/seat").status_code == 200
    # the game still going was resigned for the deleted account
    going_view = browser(client).get(f"/api/games/{going['id']}",
                                     headers={"Authorization": f"Bearer {going['seat_token']}"})
    assert going_view.json()["phase"] == "over"
    assert going_view.json()["result"]["winner"] == "white"
    # an invitation nobody took stays as it was (anonymised, as every table showed)
    assert waiting["id"]
    # the friend's own rating stays; the deleted account's is gone
    assert store.history(subject_of_account(friend_id), Pool.OTHELLO)
    assert not store.history(subject_of_account(account_id), Pool.OTHELLO)
    assert client.get(f"/api/players/{NAME}").status_code == 404
    assert vs_program["id"]  # kept (anonymised), as the check of every table showed
    # the name is free again
    assert browser(client).post("/api/accounts", json={
        "name": NAME, "password": PASSWORD}).status_code == 201


def test_a_hostile_opponent_name_is_escaped_on_the_profile(client: TestClient) -> None:
    signed_up(client, "hanako")
    hostile = '<img src=x onerror="alert(1)">'
    game, black = create(client, opponent="person", same_screen=False, public=True,
                         names=["hanako", hostile])
    code = game["join_url"].split("code=")[1]
    friend = browser(client)
    joined = friend.post(f"/api/games/{game['id']}/join", json={"code": code}).json()
    assert black.move("f5").status_code == 200
    assert Seat(friend, game["id"], joined["seat_token"]).post("/resign").status_code == 200
    page = browser(client).get("/players/hanako")
    assert page.status_code == 200
    assert hostile not in page.text
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in page.text
    assert client.get("/api/players/hanako").json()["games"][0]["opponent"] == hostile
