"""The web API through TestClient: seats and tokens, games, moves, refusals, passes,
resign, take-backs, time-outs by JOF rule 15, resuming on the same database, downloads,
pages and the websocket.

Programs are a tiny stand-in here (first legal move) so that the tests do not depend on
the engine's strength or speed; ``test_web_players.py`` plays the real registry.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_storage_migration import BACKENDS, scratch_url

from hasamigo import Board, Move, find_variant
from hasamigo.game.clock import Clock
from hasamigo.storage import Database, GameRepository
from hasamigo.web import Settings, create_app


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


class FirstLegal:
    """Stand-in program: the first legal move; waits for ``gate`` when one is given."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.gate = gate

    def choose(self, board: Board, clock: Clock | None = None) -> Move:
        if self.gate is not None:
            self.gate.wait(10)
        return next(iter(board.legal_moves))


SETTINGS = Settings(warm_engine=False, tick_seconds=3600)


def browser(client: TestClient) -> TestClient:
    """Another browser on the same server (cookies of its own), on the server's event
    loop (a client of its own would run each request on a loop of its own, where the
    games' locks, made on the server's, cannot be awaited)."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def make_client(db: str | Path, t: FakeTime | None = None,
                gate: threading.Event | None = None,
                settings: Settings = SETTINGS) -> TestClient:
    t = t or FakeTime()
    url = f"sqlite:///{db}" if isinstance(db, Path) else db  # a file, or a database's URL
    app = create_app(settings, db_url=url, time_source=t, wall_clock=t,
                     player_factory=lambda spec, seed: FirstLegal(gate))
    return TestClient(app)


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A SQLite file; a PostgreSQL schema too when ``HASAMIGO_TEST_POSTGRES`` is set."""
    with scratch_url(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


class Seat:
    """A client holding one seat token: every call carries it."""

    def __init__(self, client: TestClient, game_id: str, token: str | None) -> None:
        self.client, self.id, self.token = client, game_id, token

    def headers(self) -> dict[str, str]:
        return {} if self.token is None else {"Authorization": f"Bearer {self.token}"}

    def get(self, path: str = "") -> Any:
        return self.client.get(f"/api/games/{self.id}{path}", headers=self.headers())

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(f"/api/games/{self.id}{path}", json=body or {},
                                headers=self.headers())

    def move(self, square: str, **extra: Any) -> Any:
        return self.post("/moves?wait=true", {"move": square, **extra})

    def view(self) -> dict[str, Any]:
        response = self.get()
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data


def create(client: TestClient, **fields: Any) -> tuple[dict[str, Any], Seat]:
    response = client.post("/api/games", json={"opponent": "random", **fields})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game, Seat(client, game["id"], game["seat_token"])


def eventually(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    """``check()``'s first true value, polled until ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            assert value, "not within the time"
            return value
        time.sleep(0.05)


def error_of(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    error: dict[str, Any] = body["error"]
    return error


# ---- moves ------------------------------------------------------------------------------
def test_create_and_play_a_move_which_is_committed_before_the_answer(
        client: TestClient, db: str) -> None:
    game, me = create(client)
    assert game["phase"] == "playing" and game["turn"] == "black"
    assert game["you"] == [0] and game["your_colours"] == ["black"] and game["join_url"] is None
    assert sorted(game["legal"]) == ["c4", "d3", "e6", "f5"]
    assert game["clock"]["black"] == pytest.approx(1200)
    response = me.move("f5")
    assert response.status_code == 200
    after = response.json()
    assert after["moves"][0] == "f5" and len(after["moves"]) == 2  # the program replied
    assert after["last_move"] == after["moves"][1] and after["flipped"]
    stored = GameRepository(Database(db)).load(game["id"])
    assert stored is not None
    assert [stored.game.board.move_name(m) for m in stored.game.board.move_stack] \
        == after["moves"]


def test_illegal_moves_get_a_reason_and_change_nothing(client: TestClient) -> None:
    game, me = create(client)
    for square, reason in [("e5", "occupied"), ("a1", "flips_nothing"),
                           ("pass", "pass_not_allowed")]:
        response = me.move(square)
        assert response.status_code == 422
        error = error_of(response)
        assert error["code"] == "illegal_move" and error["reason"] == reason
        assert square in error["message"] or reason == "pass_not_allowed"
    for bad in ("z9", "a²", "a" + "9" * 7):
        response = me.move(bad)
        assert response.status_code == 400 and error_of(response)["code"] == "invalid_square"
    response = me.move("f5", colour="white")  # not this seat's colour
    assert response.status_code == 403 and error_of(response)["code"] == "not_your_seat"
    assert me.view()["revision"] == game["revision"]


def test_a_move_during_the_programs_turn_is_refused(db: str) -> None:
    gate = threading.Event()
    with make_client(db, gate=gate) as client:
        _game, me = create(client)
        me.post("/moves", {"move": "f5"})
        response = me.post("/moves", {"move": "f4"})
        assert response.status_code == 409
        assert error_of(response)["code"] == "program_to_move"
        gate.set()


def test_a_forced_pass_is_automatic_and_shown(client: TestClient) -> None:
    from test_game_controller import pass_position

    position, square = pass_position()
    colour = "black" if position.endswith("X") else "white"
    # two people on one screen: one token for both seats
    game, both = create(client, opponent="person", colour=colour, position=position)
    assert game["you"] == [0, 1]
    after = both.move(square).json()
    assert after["moves"][-2:] == [square, "pass"]
    assert after["passed"] == ["white" if colour == "black" else "black"]
    assert after["turn"] == colour


# ---- seats and authority ------------------------------------------------------------------
ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("/moves", {"move": "f5"}), ("/resign", {}), ("/undo", {}), ("/undo/decline", {}),
    ("/claim", {}), ("/timeout", {"choice": "33-31"}), ("/playout/stop", {}),
    ("/accept", {}), ("/colours", {"step": "call", "value": "top"}), ("/public",
                                                                      {"public": True}),
]


def test_every_action_needs_the_seats_token_and_a_refusal_changes_nothing(
        client: TestClient) -> None:
    game, me = create(client, opponent="person", same_screen=False)
    _other, stranger = create(client)
    nobody = Seat(client, game["id"], None)
    wrong = Seat(client, game["id"], stranger.token)
    malformed = Seat(client, game["id"], "x" * 200)
    for path, body in ACTIONS:
        response = nobody.post(path, body)
        assert response.status_code == 401, path
        assert error_of(response)["code"] == "unauthorized"
        response = wrong.post(path, body)
        assert response.status_code == 403, path
        assert malformed.post(path, body).status_code == 401, path
    assert me.view()["revision"] == game["revision"] and me.view()["moves"] == []
    # the creator holds Black only; White's seat is the join link's
    assert game["join_url"].startswith(f"/games/{game['id']}/join?code=")
    response = me.move("f5", colour="white")
    assert response.status_code == 403
    code = game["join_url"].split("code=")[1]
    joined = client.post(f"/api/games/{game['id']}/join", json={"code": code})
    assert joined.status_code == 200
    white = Seat(client, game["id"], joined.json()["seat_token"])
    assert joined.json()["game"]["your_colours"] == ["white"]
    again = client.post(f"/api/games/{game['id']}/join", json={"code": code})
    assert again.status_code == 403  # a join link works once
    assert me.move("f5").status_code == 200
    response = me.move("f4")  # White's turn: the creator's token does not play White
    assert response.status_code == 422 and error_of(response)["reason"] == "not_your_turn"
    assert white.move("f4").status_code == 200
    assert white.post("/resign", {"colour": "black"}).status_code == 403
    assert white.post("/resign").json()["result"]["winner"] == "black"


def test_the_clock_waits_for_the_second_browser_to_join(db: str) -> None:
    t = FakeTime()
    with make_client(db, t) as client:
        game, black = create(client, opponent="person", same_screen=False, clock_minutes=5)
        assert game["awaiting_join"] and game["suspended"]
        t.now += 100
        assert black.view()["clock"]["black"] == pytest.approx(300)
        assert black.move("f5").status_code == 409  # nobody to play against yet
        code = game["join_url"].split("code=")[1]
        joined = client.post(f"/api/games/{game['id']}/join", json={"code": code}).json()
        assert not joined["game"]["awaiting_join"] and not joined["game"]["suspended"]
        t.now += 7
        assert black.view()["clock"]["black"] == pytest.approx(293)
        assert black.move("f5").status_code == 200


def test_a_private_game_is_hidden_and_a_public_one_is_read_only(client: TestClient) -> None:
    game, me = create(client, opponent="person", same_screen=False)
    spectator = Seat(client, game["id"], None)
    assert spectator.get().status_code == 401
    for path in ("/positions", "/transcript", "/ggf", "/hints", "/evaluations"):
        assert spectator.get(path).status_code == 401, path
    assert me.post("/public", {"public": True}).json()["public"]
    seen = spectator.view()
    assert seen["you"] == [] and seen["public"] and seen["your_colours"] == []
    assert spectator.move("f5").status_code == 401
    assert spectator.get("/transcript").status_code == 200
    listed = client.get("/api/games?scope=public").json()
    assert [g["id"] for g in listed] == [game["id"]]
    # a seat token is one game's only
    _second, other = create(client)
    assert Seat(client, other.id, me.token).get().status_code == 403


def test_the_library_lists_this_browsers_games_only(db: str) -> None:
    with make_client(db) as alice, make_client(db) as bob:
        game, me = create(alice)
        me.move("f5")  # the library's page lists games with a move
        assert [g["id"] for g in alice.get("/api/games").json()] == [game["id"]]
        assert bob.get("/api/games").json() == []
        assert game["id"] in alice.get("/library").text
        assert game["id"] not in bob.get("/library").text


def test_official_games_refuse_hints_until_they_are_over(client: TestClient) -> None:
    _game, me = create(client, casual=False)
    response = me.get("/hints")
    assert response.status_code == 403 and error_of(response)["code"] == "official_game"
    assert me.get("/evaluations").status_code == 403
    me.post("/resign")
    assert me.get("/evaluations").status_code == 200
    _casual, friend = create(client)
    assert friend.get("/hints").status_code == 200


# ---- resign and take-backs --------------------------------------------------------------
def test_resign(client: TestClient) -> None:
    _game, me = create(client, colour="white")
    result = me.post("/resign").json()["result"]
    assert result["termination"] == "resignation" and result["winner"] == "black"
    assert me.move("f5").status_code == 409


def test_undo_in_casual_games_only(client: TestClient) -> None:
    _game, me = create(client)
    me.move("f5")
    after = me.post("/undo").json()
    assert after["moves"] == [] and after["turn"] == "black"
    _official, strict = create(client, casual=False)
    strict.move("f5")
    response = strict.post("/undo")
    assert response.status_code == 409
    assert error_of(response)["code"] == "undo_not_allowed"


def test_undo_between_two_browsers_needs_consent(client: TestClient) -> None:
    game, black = create(client, opponent="person", same_screen=False)
    code = game["join_url"].split("code=")[1]
    white = Seat(client, game["id"],
                 client.post(f"/api/games/{game['id']}/join", json={"code": code})
                 .json()["seat_token"])
    black.move("f5")
    asked = black.post("/undo").json()
    assert asked["undo_request"] == "black" and asked["moves"] == ["f5"]
    assert black.post("/undo").status_code == 409  # waiting for White
    assert white.post("/undo/decline").json()["undo_request"] is None
    black.post("/undo")
    allowed = white.post("/undo").json()
    assert allowed["moves"] == [] and allowed["turn"] == "black"


# ---- time-outs (JOF rule 15) --------------------------------------------------------------
def test_between_two_people_only_a_player_claims_and_the_winner_chooses(db: str) -> None:
    t = FakeTime()
    with make_client(db, t) as client:
        _game, both = create(client, opponent="person", clock_minutes=1)
        t.now += 61
        seen = both.view()
        assert seen["phase"] == "playing"  # the server does not claim by itself
        assert seen["claimable"] == "black" and seen["claim_for"] == "white"
        assert both.move("f5").status_code == 200  # a move before the claim stands
        claimed = both.post("/claim", {"colour": "white", "flagged": "black"}).json()
        assert claimed["phase"] == "timeout-choice" and claimed["timeout_loser"] == "black"
        assert both.post("/timeout", {"choice": "playout"}).json()["phase"] == "playout"
        assert both.move("d6").status_code == 200  # White plays out both colours
        final = both.post("/playout/stop").json()
        assert final["result"]["winner"] == "white" and final["phase"] == "over"


def test_the_program_claims_a_persons_flag_and_takes_33_31(db: str) -> None:
    t = FakeTime()
    with make_client(db, t) as client:
        _game, me = create(client, clock_minutes=1)
        t.now += 61
        seen = me.view()
        assert seen["phase"] == "over" and seen["result"]["score"] == "31–33"
        assert seen["result"]["termination"] == "timeout"
        _quiet, patient = create(client, clock_minutes=1, program_claims=False)
        t.now += 61
        assert patient.view()["phase"] == "playing"
        reported = patient.post("/claim", {"flagged": "black"}).json()  # a self-report
        assert reported["result"]["winner"] == "white"


def test_a_programs_flag_is_claimed_by_the_person_or_for_them(db: str) -> None:
    t = FakeTime()
    gate = threading.Event()
    with make_client(db, t, gate) as client:
        _game, me = create(client, colour="white", clock_minutes=1)  # the program is Black
        t.now += 61
        gate.set()
        seen = me.view()
        assert seen["claimable"] == "black" and seen["phase"] == "playing"
        claimed = me.post("/claim").json()
        assert claimed["phase"] == "timeout-choice"
        assert me.post("/timeout", {"choice": "33-31"}).json()["result"]["score"] == "31–33"
    gate = threading.Event()
    with make_client(db, t, gate) as client:
        _game, me = create(client, colour="white", clock_minutes=1, auto_claim=True)
        t.now += 61
        thinking = me.view()
        assert thinking["thinking"] and thinking["phase"] == "playing"  # its move comes first
        gate.set()
        for _ in range(100):
            seen = me.view()
            if seen["moves"]:
                break
            threading.Event().wait(0.02)
        assert seen["moves"] and seen["timeout_loser"] == "black"  # then claimed for me


def test_the_last_movers_time_out_is_claimable_until_the_result_is_accepted(db: str) -> None:
    from test_game_controller import drawn_4x4

    position, last = drawn_4x4()
    mover = "black" if position.endswith("X") else "white"
    other = "white" if mover == "black" else "black"
    t = FakeTime()
    with make_client(db, t) as client:
        for accept_first in (False, True):
            _game, both = create(client, opponent="person", clock_minutes=1, variant="4x4",
                                 position=position, colour=mover)
            t.now += 70  # the last move comes after the mover's flag fell
            view = both.move(last).json()
            assert view["phase"] == "over" and not view["result_final"]
            assert view["claimable"] == mover
            if accept_first:
                accepted = both.post("/accept").json()
                assert accepted["result_final"] and accepted["accepted"] == ["black", "white"]
                assert both.post("/claim", {"colour": other}).status_code == 409
                continue
            claimed = both.post("/claim", {"colour": other}).json()
            assert claimed["phase"] == "timeout-choice" and claimed["timeout_loser"] == mover
            done = both.post("/timeout", {"choice": "33-31"}).json()
            assert done["result"]["winner"] == other


# ---- survival ----------------------------------------------------------------------------
def test_a_game_resumes_after_the_app_is_recreated_and_the_outage_is_not_charged(
        db: str) -> None:
    t = FakeTime()
    with make_client(db, t) as client:
        _game, me = create(client, clock_minutes=10)
        t.now += 30
        before = me.move("f5").json()
    t.now += 3600  # the server is down for an hour: not charged
    with make_client(db, t) as client:
        me.client = client
        after = me.view()
        assert after["moves"] == before["moves"] and after["cells"] == before["cells"]
        assert after["clock"]["black"] == pytest.approx(570)
        assert after["clock"]["running"] == "black"
        assert me.move(after["legal"][0]).status_code == 200


def test_a_program_to_move_at_shutdown_moves_after_the_restart(db: str) -> None:
    gate = threading.Event()
    with make_client(db, gate=gate) as client:
        _game, me = create(client, colour="white")  # the program (Black) is thinking
        gate.set()  # ... let the thread finish; shutdown cancels the reply
    with make_client(db) as client:
        me.client = client
        for _ in range(50):
            view = me.view()
            if view["moves"]:
                break
            threading.Event().wait(0.05)
        assert view["moves"] and view["turn"] == "white"


def test_fuse_ishi_through_the_api(client: TestClient) -> None:
    game, me = create(client, colour="fuse-ishi", birth_years=[2000, 1950])
    assert game["phase"] == "colours" and game["fuse_ishi"]["step"] == "call"
    assert game["fuse_ishi"]["top"] is None  # hidden until the call
    response = me.post("/colours", {"step": "right", "value": "colour"})
    assert response.status_code == 409
    assert me.post("/colours", {"step": "call", "value": "nonsense"}).status_code == 422
    after = me.post("/colours", {"step": "call", "value": "top"}).json()
    assert after["phase"] == "playing"
    top = after["fuse_ishi"]["top"]
    assert after["seats"][top]["person"]


def test_bad_new_game_requests(client: TestClient) -> None:
    for body, status in [
        ({"handicap": 2, "colour": "random"}, 400), ({"handicap": 7}, 422),
        ({"variant": "6x6", "start": "original"}, 400), ({"clock_minutes": 0}, 422),
        ({"names": ["x" * 41, "y"]}, 422), ({"ranks": ["strong", None]}, 400),
        ({"surprise": 1}, 422), ({"names": ["Same", "Same"], "opponent": "person"}, 400),
    ]:
        response = client.post("/api/games", json=body)
        assert response.status_code == status, (body, response.text)
        error_of(response)
    for raw in (b'{"clock_minutes": NaN}', b'{"clock_minutes": Infinity}', b"{", b"[]"):
        response = client.post("/api/games", content=raw,
                               headers={"Content-Type": "application/json"})
        assert response.status_code == 422, raw
        assert "NaN" not in response.text and error_of(response)["code"] == "invalid_request"
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games?offset=9223372036854775808").status_code == 422
    assert error_of(client.get("/api/nowhere"))["code"] == "not_found"
    assert error_of(client.delete("/api/games"))["code"] == "method_not_allowed"


def test_big_requests_are_refused_without_being_echoed(client: TestClient) -> None:
    _game, me = create(client)
    huge = "f" * 20_000_000
    response = client.post(f"/api/games/{me.id}/moves", json={"move": huge},
                           headers=me.headers())
    assert response.status_code == 413 and len(response.content) < 500
    response = me.move("f" * 5000)  # under the body limit, over the field's length
    assert response.status_code == 422 and len(response.content) < 1000


def test_new_games_per_address_are_rate_limited(db: str) -> None:
    settings = Settings(warm_engine=False, tick_seconds=3600, games_per_minute=3)
    with make_client(db, settings=settings) as client:
        for _ in range(3):
            create(client)
        response = client.post("/api/games", json={"opponent": "random"})
        assert response.status_code == 429 and int(response.headers["retry-after"]) >= 1


def test_variants_and_handicaps(client: TestClient) -> None:
    small, _ = create(client, variant="4x4")
    assert small["rows"] == 4 and len(small["cells"]) == 16 and small["analysable"]
    handicap, _ = create(client, handicap=4, colour="black")
    assert handicap["seats"]["black"]["person"] and handicap["first_colour"] == "white"
    original, _ = create(client, start="original", opponent="person")
    assert original["variant"] == "original" and original["counts"]["black"] == 0


def test_the_circular_nip_board_over_the_api(client: TestClient) -> None:
    """nip-circle: its ring in the view, no analysis, a move that flips along the ring
    across the point where its list wraps (a4: a3, b2, c1 up to d1), and the programs that
    know neither Nip's rule nor the ring refused at creation."""
    nip_circle = find_variant("nip-circle")
    cells = list(nip_circle().to_string())  # the start, Black to move
    for name, disc in (("a3", "O"), ("b2", "O"), ("c1", "O"), ("d1", "X")):
        cells[nip_circle.parse_square(name)] = disc
    position = "".join(cells)
    game, both = create(client, variant="nip-circle", opponent="person", clock_minutes=None,
                        position=position)
    assert game["variant"] == "nip-circle" and game["analysable"] is True  # shallow
    assert game["rings"] == [["c1", "d1", "e1", "f1", "g2", "h3", "h4", "h5", "h6", "g7",
                              "f8", "e8", "d8", "c8", "b7", "a6", "a5", "a4", "a3", "b2"]]
    assert game["cells"].count("#") == 12 and "a4" in game["legal"]
    view = both.move("a4").json()
    assert view["last_move"] == "a4" and sorted(view["flipped"]) == ["a3", "b2", "c1"]
    cell = {f"{'abcdefgh'[i % 8]}{i // 8 + 1}": ch for i, ch in enumerate(view["cells"])}
    assert [cell[n] for n in ("a4", "a3", "b2", "c1", "d1")] == ["X"] * 5
    assert view["counts"] == {"black": 7, "white": 2, "empty": 43}
    hints = both.get("/hints")  # searched by the Board API (shallow), ring flips included
    assert hints.status_code == 200, hints.text
    scored = {h["move"] for h in hints.json()["hints"]}
    board = nip_circle.from_string(view["cells"] + " " + ("X" if view["turn"] == "black"
                                                          else "O"))
    assert scored == {board.move_name(m) for m in board.legal_moves}
    for opponent in ("victory", "weakest"):
        response = client.post("/api/games", json={"opponent": opponent,
                                                   "variant": "nip-circle"})
        assert response.status_code == 400, opponent
        assert "nor the flips along the circle of Nip" in error_of(response)["message"]
    random_game, _ = create(client, variant="nip-circle", opponent="random")
    assert random_game["variant"] == "nip-circle" and random_game["rings"]
    # the form offers it in both languages
    assert 'value="nip-circle"' in client.get("/?lang=en").text
    assert "Nip (circle)" in client.get("/?lang=en").text
    assert "ニップ（円形）" in client.get("/?lang=ja").text


@pytest.mark.parametrize("variant", ["grand", "eight-stars", "hasegawa-9x10"])
def test_a_wide_board_played_to_the_end_over_the_api(db: str, variant: str) -> None:
    """The board beyond 8×8 against the program (the stand-in plays its first legal move,
    as the board-API players may): every move, the cut squares, the result, the records."""
    board = find_variant(variant)
    with make_client(db) as client:
        game, me = create(client, variant=variant, opponent="random", clock_minutes=None)
        assert (game["rows"], game["cols"]) == (board.rows, board.cols)
        assert game["analysable"] is True  # the engine gives hints and the graph there
        assert len(game["cells"]) == board.rows * board.cols
        assert game["cells"].count("#") == board.rows * board.cols - board.square_count()
        view = game
        while view["phase"] == "playing":
            view = me.move(sorted(view["legal"])[-1]).json()
        assert view["result"] is not None
        replay = board()
        for name in view["moves"]:
            replay.play(name)
        assert replay.is_game_over() and list(replay.counts()) == \
            [view["counts"]["black"], view["counts"]["white"]]
        assert me.get("/transcript").status_code == 200
        if variant == "grand":
            assert "TY[10]" in me.get("/ggf").text


def test_hints_and_the_evaluation_graph_on_a_wide_board(client: TestClient) -> None:
    """The real engine analyses Grand Othello: hints name its squares, the graph has a
    score for each position."""
    game, me = create(client, variant="grand", opponent="person", clock_minutes=None)
    hints = me.get("/hints")
    assert hints.status_code == 200, hints.text
    moves = {h["move"] for h in hints.json()["hints"]}
    assert moves == set(game["legal"])  # the four first moves of the 10×10 cross
    view = me.move("e4").json()
    graph = me.get("/evaluations")
    assert graph.status_code == 200, graph.text
    assert len(graph.json()["scores"]) == len(view["moves"]) + 1


@pytest.mark.parametrize("opponent", ["victory", "amusement", "entertainer"])
def test_programs_that_cannot_play_a_wide_board_are_refused_at_creation(
        client: TestClient, opponent: str) -> None:
    response = client.post("/api/games", json={"opponent": opponent, "variant": "grand"})
    assert response.status_code == 400
    assert "does not play on Grand Othello" in error_of(response)["message"]
    assert client.get("/api/games").json() == []


def test_downloads_and_positions(client: TestClient) -> None:
    game, me = create(client)
    view = me.move("f5").json()
    transcript = me.get("/transcript")
    assert transcript.text.strip() == "".join(view["moves"])
    assert "attachment" in transcript.headers["content-disposition"]
    ggf = me.get("/ggf").text
    assert ggf.startswith("(;GM[Othello]") and "B[f5]" in ggf
    library = client.get("/api/games").json()
    assert library[0]["id"] == game["id"] and library[0]["move_count"] == 2
    positions = me.get("/positions").json()
    assert len(positions) == 3 and positions[1]["move"] == "f5" and positions[1]["flipped"]


def test_pages_in_both_languages(client: TestClient) -> None:
    game, _me = create(client)
    english = client.get("/", headers={"accept-language": "en"}).text
    assert "New game" in english and "伏せ石" in english
    japanese = client.get("/?lang=ja").text
    assert "新しい対局" in japanese and "伏せ石" in japanese
    for path in (f"/games/{game['id']}", f"/games/{game['id']}/replay",
                 f"/games/{game['id']}/join"):
        page = client.get(path)
        assert page.status_code == 200 and game["id"] in page.text
        assert "seat_token" not in page.text and "initial-state" not in page.text
    assert "棋譜ライブラリ" in client.get("/library?lang=ja").text
    assert client.get("/games/nope").status_code == 404
    response = client.get("/lang/ja?next=/library", follow_redirects=False)
    assert response.status_code == 303 and response.cookies.get("lang") == "ja"


def test_hints_and_evaluations(client: TestClient) -> None:
    game, me = create(client)
    hints = me.get("/hints").json()
    assert sorted(h["move"] for h in hints["hints"]) == sorted(game["legal"])
    # the opening book's moves come with the hints: every first move is in the book
    assert sorted(m["move"] for m in hints["book"]) == sorted(game["legal"])
    assert all(m["in_book"] and m["games"] > 0 for m in hints["book"])
    me.move("f5")
    evals = me.get("/evaluations").json()
    assert len(evals["scores"]) == 3


def test_a_slow_program_does_not_hold_up_other_games(db: str) -> None:
    gate = threading.Event()
    with make_client(db, gate=gate) as client:
        _slow, waiting = create(client, colour="white")  # its program is stuck thinking
        _other, me = create(client, opponent="person")
        assert me.move("f5").status_code == 200
        eventually(lambda: waiting.view()["thinking"])  # its task starts after the answer
        gate.set()


class Stubborn:
    """Stand-in program that thinks until it is cancelled (as the engine's searches are)."""

    def __init__(self) -> None:
        self.cancelled = threading.Event()
        self.started = threading.Event()

    def cancel(self) -> None:
        self.cancelled.set()

    def resume(self) -> None:
        pass

    def choose(self, board: Board, clock: Clock | None = None) -> Move:
        self.started.set()
        self.cancelled.wait(20)
        return next(iter(board.legal_moves))


def test_searches_stop_when_their_position_changes_or_the_game_is_abandoned(db: str) -> None:
    t = FakeTime()
    programs: list[Stubborn] = []

    def factory(spec: str, seed: int) -> Stubborn:
        programs.append(Stubborn())
        return programs[-1]

    settings = Settings(warm_engine=False, tick_seconds=3600, idle_seconds=60)
    app = create_app(settings, db_url=db, time_source=t, wall_clock=t,
                     player_factory=factory)
    with TestClient(app) as client:
        _game, me = create(client, colour="white")  # the program (Black) thinks at once
        assert programs[0].started.wait(5)
        me.post("/resign")  # the position is settled: its search is stopped
        assert programs[0].cancelled.wait(5)
        _other, abandoned = create(client, colour="white")
        assert programs[1].started.wait(5)
        t.now += 61  # nobody has looked at the game for a minute: it is abandoned
        client.portal.call(app.state.services.games.tick_all)  # type: ignore[attr-defined]
        assert programs[1].cancelled.wait(5)
        assert abandoned.id not in app.state.services.games.games
        assert abandoned.view()["phase"] == "playing"  # it reloads on demand


def test_the_solved_boards_page_replays_each_perfect_line(client: TestClient) -> None:
    """The stored perfect lines replay to the published values (4×4 3–13, 6×6 16–20), the
    page carries every position of them, and it quotes 8×8's published draw, with its
    line, in both languages."""
    from hasamigo.engine.known import TAKIZAWA_LINE
    from hasamigo.engine.smallboard import SOLVED_LINES
    from hasamigo.notation import parse_transcript

    expected = {"4x4": (3, 13), "6x6": (16, 20)}
    for name, line in SOLVED_LINES.items():
        board = find_variant(name)()
        for move in parse_transcript(line, board):
            board.push(move)
        outcome = board.outcome()
        assert outcome is not None and (outcome.black, outcome.white) == expected[name]
    page = client.get("/solved")
    assert page.status_code == 200
    assert "Perfect play: Black 16 – 20 White" in page.text
    assert "Perfect play: Black 3 – 13 White" in page.text
    assert "Takizawa" in page.text and "Quoted, not proven here" in page.text
    assert TAKIZAWA_LINE in page.text  # 8×8's published line, replayed by the slider
    assert page.text.count('"cells"') == sum(
        len(parse_transcript(line, find_variant(name)())) + 1
        for name, line in SOLVED_LINES.items()) + 61
    assert "滝沢" in client.get("/solved", params={"lang": "ja"}).text
