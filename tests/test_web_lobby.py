"""The lobby's API and page (issue 67): a challenge posted, accepted into a game whose two
seats are held by the two accounts, cancelled by its poster alone; refusals in the one
JSON shape; bounded inputs; one acceptor of two at once, and one pair of two servers on
one database; the lobby polled with an ETag; the page in both languages."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_storage_migration import BACKENDS, scratch_url
from test_web_api import FakeTime, Seat, make_client

from hasamigo.lobby.model import LIVE_LAPSE

PASSWORD = "correct horse battery"


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


def uncached(c: TestClient) -> TestClient:
    """The lobby read afresh on every call (the server reuses its public part for a
    second: the tests' clock stands still)."""
    c.app.state.services.lobby.public_every = 0.0
    return c


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """One database for two servers: a SQLite file; a PostgreSQL schema too when
    ``HASAMIGO_TEST_POSTGRES`` is set."""
    with scratch_url(request.param, tmp_path) as found:
        yield found


@pytest.fixture
def client(tmp_path: Path, clock: FakeTime) -> Iterator[TestClient]:
    with make_client(tmp_path / "lobby.db", clock) as c:
        yield uncached(c)


def browser(client: TestClient) -> TestClient:
    """Another browser on the same server (cookies of its own)."""
    return TestClient(client.app)


def signed_up(c: TestClient, name: str) -> str:
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    account_id: str = r.json()["account"]["id"]
    return account_id


def post(c: TestClient, **terms: Any) -> dict[str, Any]:
    r = c.post("/api/lobby/challenges", json=terms)
    assert r.status_code == 201, r.text
    challenge: dict[str, Any] = r.json()
    return challenge


def seat(c: TestClient, game_id: str) -> Seat:
    r = c.post(f"/api/games/{game_id}/seat")
    assert r.status_code == 200, r.text
    return Seat(c, game_id, r.json()["seat_token"])


def lobby(c: TestClient) -> dict[str, Any]:
    r = c.get("/api/lobby")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def error_code(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


def test_a_challenge_accepted_becomes_a_game_of_the_two_accounts(client: TestClient) -> None:
    ann = client
    signed_up(ann, "ann")
    bob = browser(client)
    signed_up(bob, "bob")
    watcher = browser(client)
    posted = post(ann, rated=True, colour="black", clock_minutes=10)
    assert posted["poster"]["name"] == "ann" and posted["rating"] == 1500
    assert posted["variant"] == "8x8" and posted["rated"] and posted["state"] == "open"
    seen = lobby(watcher)
    assert [c["id"] for c in seen["challenges"]] == [posted["id"]]
    assert seen["you"] is None and not seen["challenges"][0]["mine"]
    assert lobby(ann)["challenges"][0]["mine"] and not lobby(bob)["challenges"][0]["mine"]

    r = bob.post(f"/api/lobby/challenges/{posted['id']}/accept")
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    assert r.json()["url"] == f"/games/{game_id}"
    assert lobby(watcher)["challenges"] == []
    mine = lobby(ann)["you"]
    assert mine["started"] == [{"challenge": posted["id"], "game_id": game_id}]

    black, white = seat(ann, game_id), seat(bob, game_id)
    view = black.view()
    assert view["your_colours"] == ["black"] and white.view()["your_colours"] == ["white"]
    assert [s["name"] for s in (view["seats"]["black"], view["seats"]["white"])] \
        == ["ann", "bob"]
    assert view["clock"] is not None and view["rated"] is True
    assert [g["your_move"] for g in lobby(ann)["you"]["games"]] == [True]
    assert [g["your_move"] for g in lobby(bob)["you"]["games"]] == [False]
    assert lobby(bob)["you"]["games"][0]["opponent"] == "ann"

    live = lobby(watcher)["live"]
    assert [(g["id"], g["black"], g["white"], g["rated"]) for g in live] \
        == [(game_id, "ann", "bob", True)]
    assert watcher.get(f"/api/games/{game_id}").status_code == 200  # public: watched
    assert black.move("f5").status_code == 200
    assert lobby(watcher)["live"][0]["id"] == game_id
    assert [g["your_move"] for g in lobby(bob)["you"]["games"]] == [True]
    # the third account holds no seat of it
    cid = browser(client)
    signed_up(cid, "cid")
    r = cid.post(f"/api/games/{game_id}/seat")
    assert r.status_code == 403 and error_code(r) == "not_your_seat"


def test_a_private_correspondence_challenge(client: TestClient) -> None:
    signed_up(client, "ann")
    bob = browser(client)
    signed_up(bob, "bob")
    posted = post(client, variant="6x6", days_per_move=3, colour="white", public=False)
    assert posted["clock_minutes"] is None and posted["days_per_move"] == 3
    game_id = bob.post(f"/api/lobby/challenges/{posted['id']}/accept").json()["game_id"]
    ann_seat, bob_seat = seat(client, game_id), seat(bob, game_id)
    view = ann_seat.view()
    assert view["your_colours"] == ["white"] and view["days_per_move"] == 3
    assert view["variant"] == "6x6" and not view["public"]
    assert bob_seat.view()["your_colours"] == ["black"]
    assert lobby(browser(client))["live"] == []  # not public: not listed
    assert TestClient(client.app).get(f"/api/games/{game_id}").status_code == 401
    games = lobby(bob)["you"]["games"]
    assert games[0]["correspondence"] and games[0]["your_move"] and games[0]["deadline"]


def test_no_action_on_another_accounts_challenge(client: TestClient) -> None:
    anonymous = browser(client)
    assert error_code(anonymous.post("/api/lobby/challenges", json={})) == "unauthorized"
    signed_up(client, "ann")
    posted = post(client)
    r = anonymous.post(f"/api/lobby/challenges/{posted['id']}/accept")
    assert r.status_code == 401
    assert anonymous.delete(f"/api/lobby/challenges/{posted['id']}").status_code == 401
    assert anonymous.post("/api/lobby/waiting").status_code == 401
    r = client.post(f"/api/lobby/challenges/{posted['id']}/accept")
    assert r.status_code == 409 and error_code(r) == "lobby" and "own" in r.text
    bob = browser(client)
    signed_up(bob, "bob")
    r = bob.delete(f"/api/lobby/challenges/{posted['id']}")
    assert r.status_code == 403 and error_code(r) == "forbidden"
    assert client.delete(f"/api/lobby/challenges/{posted['id']}").status_code == 204
    r = bob.post(f"/api/lobby/challenges/{posted['id']}/accept")
    assert r.status_code == 409 and "no longer open" in r.text
    r = bob.post(f"/api/lobby/challenges/{'0' * 16}/accept")
    assert r.status_code == 404 and error_code(r) == "not_found"
    r = bob.post("/api/lobby/challenges/nothex/accept")
    assert r.status_code in (404, 422) and "error" in r.json()


@pytest.mark.parametrize(("body", "status"), [
    ({"clock_minutes": 0}, 422), ({"clock_minutes": 181}, 422), ({"days_per_move": 15}, 422),
    ({"days_per_move": 0}, 422), ({"variant": "rolit"}, 422), ({"colour": "green"}, 422),
    ({"public": "x" * 10_000}, 422), ({"admin": True}, 422), ({"clock_minutes": "inf"}, 422),
    ({"variant": "6x6", "rated": True}, 400), ({"clock_minutes": 5, "days_per_move": 2}, 400),
    ({"clock_minutes": None}, 400),
])
def test_bounded_inputs(client: TestClient, body: dict[str, Any], status: int) -> None:
    signed_up(client, "ann")
    r = client.post("/api/lobby/challenges", json=body)
    assert r.status_code == status, r.text
    assert set(r.json()) == {"error"} and len(r.text) < 2000
    assert lobby(client)["challenges"] == []


def test_open_challenges_lapse_and_end_with_the_posters_sessions(
        client: TestClient, clock: FakeTime) -> None:
    signed_up(client, "ann")
    bob = browser(client)
    signed_up(bob, "bob")
    first = post(client)
    clock.now += LIVE_LAPSE.total_seconds() + 1
    r = bob.post(f"/api/lobby/challenges/{first['id']}/accept")
    assert r.status_code == 409 and lobby(bob)["challenges"] == []
    second = post(client, days_per_move=1)
    assert client.post("/api/accounts/logout").status_code == 204
    assert lobby(bob)["challenges"] == []
    r = bob.post(f"/api/lobby/challenges/{second['id']}/accept")
    assert r.status_code == 409


def test_the_lobby_is_polled_with_an_etag(client: TestClient) -> None:
    signed_up(client, "ann")
    first = client.get("/api/lobby")
    etag = first.headers["etag"]
    again = client.get("/api/lobby", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    post(client)
    changed = client.get("/api/lobby", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag


def test_two_acceptors_at_once_on_two_servers(url: str) -> None:
    with make_client(url) as one, make_client(url) as two:
        uncached(one), uncached(two)
        signed_up(one, "poster")
        posted = post(one)
        takers = []
        for index, server in enumerate((one, two, one, two)):
            taker = TestClient(server.app)
            signed_up(taker, f"taker{index}")
            takers.append(taker)
        answers: list[Any] = []
        start = threading.Barrier(len(takers))

        def take(taker: TestClient) -> None:
            start.wait()
            answers.append(taker.post(f"/api/lobby/challenges/{posted['id']}/accept"))

        threads = [threading.Thread(target=take, args=(t,)) for t in takers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200, 409, 409, 409], [a.text for a in answers]
        assert all(error_code(a) == "lobby" for a in answers if a.status_code == 409)
        game_id = next(a.json()["game_id"] for a in answers if a.status_code == 200)
        assert lobby(one)["you"]["started"][0]["game_id"] == game_id


def test_waiting_players_on_two_servers_are_paired_once(url: str) -> None:
    with make_client(url) as one, make_client(url) as two:
        uncached(one), uncached(two)
        ann, bob = one, two
        signed_up(ann, "ann")
        signed_up(bob, "bob")
        first = ann.post("/api/lobby/waiting").json()
        assert first["waiting"] and first["game_id"] is None and first["rating"] == 1500
        assert first["window"] == 100
        assert lobby(bob)["waiting"] == 1
        paired = bob.post("/api/lobby/waiting").json()
        game_id = paired["game_id"]
        assert game_id and not paired["waiting"]
        assert ann.post("/api/lobby/waiting").json()["game_id"] == game_id
        a, b = seat(ann, game_id), seat(bob, game_id)
        colours = {a.view()["your_colours"][0], b.view()["your_colours"][0]}
        assert colours == {"black", "white"}
        view = a.view()
        assert view["rated"] and view["variant"] == "standard" and view["clock"] is not None
        assert ann.post("/api/lobby/waiting").json()["game_id"] == game_id  # still on
        assert b.post("/resign").status_code == 200
        # waiting again after that game: a new entry
        assert ann.post("/api/lobby/waiting").json()["game_id"] is None
        assert ann.delete("/api/lobby/waiting").status_code == 204
        assert lobby(bob)["waiting"] == 0


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lobby_page(client: TestClient, lang: str) -> None:
    page = client.get(f"/lobby?lang={lang}")
    assert page.status_code == 200
    assert 'id="nav-lobby"' in page.text and 'id="lobby-login"' in page.text
    assert ("ロビー" in page.text) == (lang == "ja")
    signed_up(client, "ann")
    page = client.get(f"/lobby?lang={lang}")
    assert 'id="lobby-wait"' in page.text and 'id="lobby-post"' in page.text
    assert ("近いレーティング" in page.text) == (lang == "ja")


def test_a_fuse_ishi_challenge_decides_colours_the_jof_way(client: TestClient) -> None:
    signed_up(client, "ann")
    bob = browser(client)
    signed_up(bob, "bob")
    posted = post(client, colour="fuse-ishi")
    game_id = bob.post(f"/api/lobby/challenges/{posted['id']}/accept").json()["game_id"]
    ann_seat, bob_seat = seat(client, game_id), seat(bob, game_id)
    view = ann_seat.view()
    assert view["phase"] == "colours" and view["fuse_ishi"]["step"] == "call"
    caller, other = (ann_seat, bob_seat) if view["fuse_ishi"]["by"] == 0 \
        else (bob_seat, ann_seat)
    refused = other.post("/colours", {"step": "call", "value": "top"})
    assert refused.status_code == 403 and error_code(refused) == "not_your_seat"
    after = caller.post("/colours", {"step": "call", "value": "top"}).json()
    assert after["phase"] == "playing"
    assert sorted(ann_seat.view()["your_colours"] + bob_seat.view()["your_colours"]) \
        == ["black", "white"]


def test_posting_is_rate_limited(client: TestClient) -> None:
    from hasamigo.web.services.lobby import POSTS_PER_HOUR

    signed_up(client, "ann")
    for _ in range(POSTS_PER_HOUR):
        posted = post(client)
        assert client.delete(f"/api/lobby/challenges/{posted['id']}").status_code == 204
    r = client.post("/api/lobby/challenges", json={})
    assert r.status_code == 429 and error_code(r) == "rate_limited"
    assert int(r.headers["retry-after"]) > 0


def etag_of(c: TestClient) -> str:
    r = c.get("/api/lobby")
    assert r.status_code == 200, r.text
    return r.headers["etag"]


def unchanged(c: TestClient, etag: str) -> bool:
    r = c.get("/api/lobby", headers={"If-None-Match": etag})
    assert r.status_code in (200, 304), r.text
    return r.status_code == 304


def test_a_move_changes_the_lobby_only_for_whom_it_changes_what_is_shown(
        client: TestClient) -> None:
    """The lobby's ETag is stable while nothing shown changes: a move changes neither
    the list of live games (no move count, no time of the last move, in the order the
    games began) nor the part of a player not in the game; it changes the players'
    parts by whose move it is."""
    ann, bob, cid, watcher = client, browser(client), browser(client), browser(client)
    signed_up(ann, "ann"), signed_up(bob, "bob"), signed_up(cid, "cid")
    games = []
    for _ in range(2):
        posted = post(ann, colour="black")
        r = bob.post(f"/api/lobby/challenges/{posted['id']}/accept")
        assert r.status_code == 200, r.text
        games.append(r.json()["game_id"])
    black, white = seat(ann, games[0]), seat(bob, games[0])
    seat(ann, games[1]), seat(bob, games[1])
    live = lobby(watcher)["live"]
    assert [g["id"] for g in live] == games[::-1]  # the latest started first
    assert all("moves" not in g and "updated_at" not in g for g in live)
    before = {who: etag_of(c) for who, c in
              (("ann", ann), ("bob", bob), ("cid", cid), ("watcher", watcher))}
    assert unchanged(bob, before["bob"])  # nothing moved: a 304

    assert black.move("f5").status_code == 200
    assert unchanged(watcher, before["watcher"]) and unchanged(cid, before["cid"])
    assert not unchanged(ann, before["ann"]) and not unchanged(bob, before["bob"])
    assert [g["id"] for g in lobby(watcher)["live"]] == games[::-1]  # the order kept
    assert [g["your_move"] for g in lobby(bob)["you"]["games"]] == [True, False]
    after = etag_of(bob)
    assert unchanged(bob, after)
    assert white.move("f6").status_code == 200
    assert unchanged(watcher, before["watcher"]) and not unchanged(bob, after)


def test_a_signed_in_poll_reads_its_own_part_in_one_database_session(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The viewer's games, accepted challenges, waiting and rating in one session (one
    transaction), and a 304 is answered without building the body."""
    import asyncio

    ann, bob = client, browser(client)
    account_id = signed_up(ann, "ann")
    signed_up(bob, "bob")
    posted = post(ann, colour="black")
    game_id = bob.post(f"/api/lobby/challenges/{posted['id']}/accept").json()["game_id"]
    seat(ann, game_id), seat(bob, game_id)
    assert bob.post("/api/lobby/waiting").status_code == 200
    services = client.app.state.services
    account = services.accounts.store.get(account_id)
    lobby_service = services.lobby
    lobby_service._viewer_part(account)  # whose move: from the game, then remembered

    db = lobby_service.store.db
    opened = []
    real = type(db).session

    def counted(self: Any) -> Any:
        opened.append(1)
        return real(self)

    monkeypatch.setattr(type(db), "session", counted)
    you = lobby_service._viewer_part(account)
    assert len(opened) == 1
    assert [g["id"] for g in you["games"]] == [game_id] and you["games"][0]["your_move"]
    assert you["started"] == [{"challenge": posted["id"], "game_id": game_id}]
    assert you["rating"] == 1500 and you["waiting"] == {"waiting": False, "game_id": None}

    state = asyncio.run(lobby_service.state(account))
    assert state.body is not None and state.body["you"] == you
    again = asyncio.run(lobby_service.state(account, state.etag))
    assert again.body is None and again.etag == state.etag
    assert asyncio.run(lobby_service.state(account, '"other"')).body == state.body


def test_an_accounts_unfinished_games_are_the_latest_started_counted_by_game(
        client: TestClient, clock: FakeTime) -> None:
    """One statement reads the seats and their games: ``limit`` counts games (not seat
    rows), the latest started first, each with the participants the account holds."""
    ann, bob = client, browser(client)
    ann_id, bob_id = signed_up(ann, "ann"), signed_up(bob, "bob")
    games = []
    for _ in range(3):
        clock.now += 60
        posted = post(ann, colour="white")
        games.append(bob.post(f"/api/lobby/challenges/{posted['id']}/accept")
                     .json()["game_id"])
        seat(ann, games[-1]), seat(bob, games[-1])
    store = client.app.state.services.lobby.store
    held = store.unfinished_games(ann_id, limit=2)
    assert [g.id for g in held] == games[:0:-1]
    assert all(g.participants == frozenset({0}) for g in held)  # the poster: participant 0
    assert [g.participants for g in store.unfinished_games(bob_id)] == [frozenset({1})] * 3
    assert [g.id for g in store.unfinished_games(bob_id)] == games[::-1]
