"""The web API through TestClient: games, moves, refusals, passes, resign, undo, time-outs,
resuming on the same database, downloads, pages and the websocket.

Programs are a tiny stand-in here (first legal move) so that the tests do not depend on
the engine's strength or speed; ``test_web_players.py`` plays the real registry.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hasamigo import Board, Move
from hasamigo.game.clock import Clock
from hasamigo.storage import Database, GameRepository
from hasamigo.web import Settings, create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

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


def make_client(db: Path, t: FakeTime | None = None, gate: threading.Event | None = None
                ) -> TestClient:
    t = t or FakeTime()
    app = create_app(SETTINGS, db_url=f"sqlite:///{db}", time_source=t, wall_clock=t,
                     player_factory=lambda spec, seed: FirstLegal(gate))
    return TestClient(app)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


def create(client: TestClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"opponent": "random", **fields})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def move(client: TestClient, game_id: str, square: str, **extra: Any) -> Any:
    return client.post(f"/api/games/{game_id}/moves?wait=true", json={"move": square, **extra})


def test_create_and_play_a_move_which_is_committed_before_the_answer(
        client: TestClient, db: Path) -> None:
    game = create(client)
    assert game["phase"] == "playing" and game["turn"] == "black"
    assert sorted(game["legal"]) == ["c4", "d3", "e6", "f5"]
    assert game["clock"]["black"] == pytest.approx(1200)
    response = move(client, game["id"], "f5")
    assert response.status_code == 200
    after = response.json()
    assert after["moves"][0] == "f5" and len(after["moves"]) == 2  # the program replied
    assert after["last_move"] == after["moves"][1] and after["flipped"]
    stored = GameRepository(Database(f"sqlite:///{db}")).load(game["id"])
    assert stored is not None
    assert [m.move for m in stored.moves] == after["moves"]


def test_illegal_moves_get_a_reason_and_change_nothing(client: TestClient) -> None:
    game = create(client)
    for square, reason in [("e5", "occupied"), ("a1", "flips_nothing"),
                           ("pass", "pass_not_allowed")]:
        response = move(client, game["id"], square)
        assert response.status_code == 422
        error = response.json()["error"]
        assert error["code"] == "illegal_move" and error["reason"] == reason
        assert square in error["message"] or reason == "pass_not_allowed"
    response = move(client, game["id"], "z9")
    assert response.status_code == 400
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "f5", "colour": "white"})
    assert response.status_code == 422 and response.json()["error"]["reason"] == "not_your_turn"
    assert client.get(f"/api/games/{game['id']}").json()["revision"] == game["revision"]


def test_a_move_during_the_programs_turn_is_refused(db: Path) -> None:
    gate = threading.Event()
    with make_client(db, gate=gate) as client:
        game = create(client)
        client.post(f"/api/games/{game['id']}/moves", json={"move": "f5"})
        response = client.post(f"/api/games/{game['id']}/moves", json={"move": "f4"})
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "program_to_move"
        gate.set()


def test_a_forced_pass_is_automatic_and_shown(client: TestClient) -> None:
    from test_game_controller import pass_position

    position, square = pass_position()
    colour = "black" if position.endswith("X") else "white"
    # two people on one screen: the pass must not be played by a program
    game = create(client, opponent="person", colour=colour, position=position)
    after = move(client, game["id"], square).json()
    assert after["moves"][-2:] == [square, "pass"]
    assert after["passed"] == ["white" if colour == "black" else "black"]
    assert after["turn"] == colour


def test_resign(client: TestClient) -> None:
    game = create(client, colour="white")
    response = client.post(f"/api/games/{game['id']}/resign", json={})
    result = response.json()["result"]
    assert result["termination"] == "resignation" and result["winner"] == "black"
    assert move(client, game["id"], "f5").status_code == 409


def test_undo_in_casual_games_only(client: TestClient) -> None:
    game = create(client)
    move(client, game["id"], "f5")
    after = client.post(f"/api/games/{game['id']}/undo").json()
    assert after["moves"] == [] and after["turn"] == "black"
    official = create(client, casual=False)
    move(client, official["id"], "f5")
    response = client.post(f"/api/games/{official['id']}/undo")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "undo_not_allowed"


def test_time_out_the_server_claims_a_persons_flag_and_the_winner_chooses(db: Path) -> None:
    t = FakeTime()
    with make_client(db, t) as client:
        game = create(client, opponent="person", clock_minutes=1)
        t.now += 61
        seen = client.get(f"/api/games/{game['id']}").json()
        assert seen["phase"] == "timeout-choice" and seen["timeout_loser"] == "black"
        response = client.post(f"/api/games/{game['id']}/timeout", json={"choice": "playout"})
        assert response.json()["phase"] == "playout"
        assert move(client, game["id"], "f5").status_code == 200  # White plays both colours
        final = client.post(f"/api/games/{game['id']}/playout/stop").json()
        assert final["result"]["winner"] == "white" and final["phase"] == "over"

        other = create(client, opponent="person", clock_minutes=1)
        t.now += 61
        client.get(f"/api/games/{other['id']}")
        done = client.post(f"/api/games/{other['id']}/timeout", json={"choice": "33-31"}).json()
        assert done["result"]["score"] == "31–33"


def test_a_programs_flag_is_claimed_by_the_person(db: Path) -> None:
    t = FakeTime()
    gate = threading.Event()
    with make_client(db, t, gate) as client:
        game = create(client, colour="white", clock_minutes=1)  # the program is Black
        t.now += 61
        gate.set()
        seen = client.get(f"/api/games/{game['id']}").json()
        assert seen["claimable"] == "black"
        claimed = client.post(f"/api/games/{game['id']}/claim", json={}).json()
        assert claimed["phase"] == "timeout-choice"


def test_a_game_resumes_after_the_app_is_recreated(db: Path) -> None:
    t = FakeTime()
    with make_client(db, t) as client:
        game = create(client, clock_minutes=10)
        t.now += 30
        before = move(client, game["id"], "f5").json()
    t.now += 3600  # the server is down for an hour: not charged
    with make_client(db, t) as client:
        after = client.get(f"/api/games/{game['id']}").json()
        assert after["moves"] == before["moves"] and after["cells"] == before["cells"]
        assert after["clock"]["black"] == pytest.approx(570)
        assert after["clock"]["running"] == "black"
        assert move(client, game["id"], after["legal"][0]).status_code == 200


def test_a_program_to_move_at_shutdown_moves_after_the_restart(db: Path) -> None:
    gate = threading.Event()
    with make_client(db, gate=gate) as client:
        game = create(client, colour="white")  # the program (Black) is thinking
        gate.set()  # ... let the thread finish; shutdown cancels the reply
    with make_client(db) as client:
        response = client.get(f"/api/games/{game['id']}")
        for _ in range(50):
            view = client.get(f"/api/games/{game['id']}").json()
            if view["moves"]:
                break
            threading.Event().wait(0.05)
        assert view["moves"] and view["turn"] == "white"
        assert response.status_code == 200


def test_fuse_ishi_through_the_api(client: TestClient) -> None:
    game = create(client, colour="fuse-ishi")
    assert game["phase"] == "colours" and game["fuse_ishi"]["step"] == "call"
    response = client.post(f"/api/games/{game['id']}/colours", json={"step": "right", "value": "x"})
    assert response.status_code == 409
    after = client.post(f"/api/games/{game['id']}/colours",
                        json={"step": "call", "value": "top"}).json()
    assert after["phase"] == "playing"
    top = after["fuse_ishi"]["top"]
    assert after["seats"][top]["person"]


def test_bad_new_game_requests(client: TestClient) -> None:
    assert client.post("/api/games", json={"handicap": 2, "colour": "random"}).status_code == 400
    assert client.post("/api/games", json={"handicap": 7}).status_code == 422
    small_original = {"variant": "6x6", "start": "original"}
    assert client.post("/api/games", json=small_original).status_code == 400
    assert client.get("/api/games/nope").status_code == 404


def test_variants_and_handicaps(client: TestClient) -> None:
    small = create(client, variant="4x4")
    assert small["rows"] == 4 and len(small["cells"]) == 16
    handicap = create(client, handicap=4, colour="black")
    assert handicap["seats"]["black"]["person"] and handicap["first_colour"] == "white"
    original = create(client, start="original", opponent="person")
    assert original["variant"] == "original" and original["counts"]["black"] == 0


def test_downloads_library_and_replay(client: TestClient) -> None:
    game = create(client)
    view = move(client, game["id"], "f5").json()
    transcript = client.get(f"/api/games/{game['id']}/transcript")
    assert transcript.text.strip() == "".join(view["moves"])
    assert "attachment" in transcript.headers["content-disposition"]
    ggf = client.get(f"/api/games/{game['id']}/ggf").text
    assert ggf.startswith("(;GM[Othello]") and "B[f5]" in ggf
    library = client.get("/api/games").json()
    assert library[0]["id"] == game["id"] and library[0]["move_count"] == 2
    positions = client.get(f"/api/games/{game['id']}/positions").json()
    assert len(positions) == 3 and positions[1]["move"] == "f5" and positions[1]["flipped"]


def test_pages_in_both_languages(client: TestClient) -> None:
    game = create(client)
    english = client.get("/", headers={"accept-language": "en"}).text
    assert "New game" in english and "伏せ石" in english
    japanese = client.get("/?lang=ja").text
    assert "新しい対局" in japanese and "伏せ石" in japanese
    assert client.get(f"/games/{game['id']}").status_code == 200
    assert client.get(f"/games/{game['id']}/replay").status_code == 200
    assert "棋譜ライブラリ" in client.get("/library?lang=ja").text
    assert client.get("/games/nope").status_code == 404
    response = client.get("/lang/ja?next=/library", follow_redirects=False)
    assert response.status_code == 303 and response.cookies.get("lang") == "ja"


def test_hints_and_evaluations(client: TestClient) -> None:
    game = create(client)
    hints = client.get(f"/api/games/{game['id']}/hints").json()
    assert sorted(h["move"] for h in hints["hints"]) == sorted(game["legal"])
    move(client, game["id"], "f5")
    evals = client.get(f"/api/games/{game['id']}/evaluations").json()
    assert len(evals["scores"]) == 3


def test_websocket_pushes_states_and_takes_typed_messages(client: TestClient) -> None:
    game = create(client, opponent="person")
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:
        first = socket.receive_json()
        assert first["type"] == "state" and first["game"]["id"] == game["id"]
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}
        socket.send_json({"type": "move", "move": "f5"})
        pushed = socket.receive_json()
        assert pushed["type"] == "state" and pushed["game"]["moves"] == ["f5"]
        socket.send_json({"type": "move", "move": "a1"})
        error = socket.receive_json()
        assert error["type"] == "error" and error["error"]["reason"] == "flips_nothing"
        socket.send_json({"type": "nonsense"})
        assert socket.receive_json()["error"]["code"] == "bad_message"


def test_a_slow_program_does_not_hold_up_other_games(db: Path) -> None:
    gate = threading.Event()
    with make_client(db, gate=gate) as client:
        slow = create(client, colour="white")  # its program is stuck thinking
        other = create(client, opponent="person")
        assert move(client, other["id"], "f5").status_code == 200
        assert client.get(f"/api/games/{slow['id']}").json()["thinking"]
        gate.set()
