"""A person who takes a seat with an account plays under the account's name (issue 67):
the :class:`~hasamigo.game.events.SeatNamed` event, its fold and JSON form, the web's
rule for appending it (a join link, a seat kept for an account, a terminal game taken
over), every place that shows the names (the view, the live socket, the GGF export, the
library, the lobby's live list, the profile), and account deletion, which anonymises a
name that came from the event as one from the setup."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from test_storage_migration import BACKENDS, scratch_url
from test_web_account_pages import PASSWORD, everything_stored, signed_up
from test_web_api import Seat, browser, create, make_client

from hasamigo import BLACK, WHITE, Board
from hasamigo.game.controller import GameController, GameSetup, Participant
from hasamigo.game.errors import GameError, StoredGameError
from hasamigo.game.events import (
    EventFormatError,
    MovePlayed,
    SeatNamed,
    event_from_json,
    event_to_json,
)
from hasamigo.game.setup import GameOptions
from hasamigo.game.state import replay
from hasamigo.storage.models import GameEventRow
from hasamigo.storage.repository import SeatSecret
from hasamigo.storage.secrets import secret_hash
from hasamigo.web.schemas import NewGame

NAME = "Zqxjiro"  # the joiner's account: found nowhere else in a database


def two_people(first: str = "hanako", second: str = "Player 2") -> GameController:
    now = [0.0]
    return GameController.new(GameSetup((Participant(first), Participant(second))),
                              time_source=lambda: now[0])


# ---- the fold ----------------------------------------------------------------------------
def test_the_fold_renames_the_seat_and_keeps_the_setup() -> None:
    game = two_people()
    assert game.name_seat(1, "jiro") == [SeatNamed(1, "jiro", at=0.0)]
    assert [p.name for p in game.participants] == ["hanako", "jiro"]
    assert game.seat(WHITE).name == "jiro" and game.record().white == "jiro"
    assert game.setup.participants[1].name == "Player 2"  # the stored setup: never changed
    again = GameController(game.setup, game.events)
    assert again.participants == game.participants
    # a later name wins; the rest of the participant (rank, year) is kept
    ranked = GameController.new(GameSetup((Participant("A"), Participant("B", rank="2d"))))
    ranked.name_seat(1, "jiro")
    ranked.name_seat(1, "jiro2")
    assert ranked.participants[1] == Participant("jiro2", rank="2d")


def test_a_game_without_the_event_folds_as_before() -> None:
    setup = GameSetup((Participant("You"), Participant("Bot", program="random")))
    game = GameController.new(setup)
    game.play(BLACK, "f5")
    assert isinstance(game.events[-1], MovePlayed)
    state = replay(setup, game.events)
    assert state.setup is setup and game.participants is setup.participants


def test_the_fold_refuses_a_bad_name_and_changes_nothing() -> None:
    game = two_people()
    vs_program = GameController.new(GameSetup((Participant("You"),
                                               Participant("Bot", program="random"))))
    refusals: list[tuple[GameController, int, str]] = [
        (game, 1, "hanako"),  # the other player's name: two alike
        (game, 1, " "),
        (game, 1, "x" * 41),
        (vs_program, 1, "jiro"),  # a program's seat keeps its program's name
    ]
    for controller, seat, name in refusals:
        events = controller.events
        with pytest.raises(GameError):
            controller.name_seat(seat, name)
        assert controller.events == events
    assert [p.name for p in game.participants] == ["hanako", "Player 2"]
    # a stored game whose event breaks the rules is refused naming the event
    with pytest.raises(StoredGameError, match="event 2"):
        GameController(game.setup, (*game.events, SeatNamed(1, "hanako", at=5.0)),
                       game_id="g")


def test_a_finished_game_is_named_too() -> None:
    game = GameController.new(GameSetup((Participant("You"),
                                         Participant("Bot", program="random")),
                                        GameOptions(clock_seconds=None)))
    game.resign(BLACK)
    game.name_seat(0, "hanako")
    assert game.seat(BLACK).name == "hanako" and game.result is not None


# ---- the JSON form -------------------------------------------------------------------------
def test_the_codec_round_trip() -> None:
    event = SeatNamed(1, "花子", at=12.5)
    data = event_to_json(event, Board)
    assert data == {"kind": "seat-named", "seat": 1, "name": "花子", "at": 12.5}
    assert event_from_json(data, Board) == event


@pytest.mark.parametrize("damage", [
    {"seat": 2}, {"seat": True}, {"seat": None}, {"seat": "1"},
    {"name": ""}, {"name": "   "}, {"name": "x" * 41}, {"name": 5}, {"name": None},
    {"extra": 1},
])
def test_the_codec_refuses_a_damaged_event(damage: dict[str, Any]) -> None:
    data = {"kind": "seat-named", "seat": 1, "name": "jiro", "at": 1.0, **damage}
    with pytest.raises(EventFormatError):
        event_from_json(data, Board)
    with pytest.raises(EventFormatError, match="missing name"):
        event_from_json({"kind": "seat-named", "seat": 1, "at": 1.0}, Board)


# ---- the web ------------------------------------------------------------------------------
@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a SQLite file; on a PostgreSQL schema too when
    ``HASAMIGO_TEST_POSTGRES`` is set."""
    with scratch_url(request.param, tmp_path) as url, make_client(url) as c:
        yield c


def invite(client: TestClient, **fields: Any) -> tuple[dict[str, Any], Seat, str]:
    game, seat = create(client, opponent="person", same_screen=False, public=True,
                        **fields)
    return game, seat, game["join_url"].split("code=")[1]


def join(other: TestClient, game: dict[str, Any], code: str) -> Seat:
    r = other.post(f"/api/games/{game['id']}/join", json={"code": code})
    assert r.status_code == 200, r.text
    return Seat(other, game["id"], r.json()["seat_token"])


def services(client: TestClient) -> Any:
    """The app's services (:class:`hasamigo.web.state.AppServices`)."""
    return client.app.state.services  # type: ignore[attr-defined]


def stored(client: TestClient, game_id: str) -> GameController:
    """The game as the database holds it."""
    found = services(client).games.repo.load(game_id)
    assert found is not None
    game: GameController = found.game
    return game


def names(view: dict[str, Any]) -> list[str]:
    return [p["name"] for p in view["participants"]]


def test_an_account_joining_by_invite_is_named_everywhere(client: TestClient) -> None:
    signed_up(client, "hanako")
    game, black, code = invite(client)
    assert names(game) == ["hanako", "Player 2"]
    friend = browser(client)
    signed_up(friend, NAME)
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:
        socket.send_json({"type": "hello", "token": black.token})
        assert names(socket.receive_json()["game"]) == ["hanako", "Player 2"]
        white = join(friend, game, code)
        # what the opponent sees live (the seat taken may come first, then its name)
        pushed = [socket.receive_json()["game"]]
        while names(pushed[-1]) != ["hanako", NAME] and len(pushed) < 3:
            pushed.append(socket.receive_json()["game"])
        assert names(pushed[-1]) == ["hanako", NAME]
        assert pushed[-1]["seats"]["white"]["name"] == NAME
    view = white.view()
    assert names(view) == ["hanako", NAME] and view["seats"]["white"]["name"] == NAME
    assert black.move("f5").status_code == 200
    ggf = black.get("/ggf").text
    assert f"PW[{NAME}]" in ggf and "Player 2" not in ggf
    live = client.get("/api/lobby").json()["live"]
    assert [(g["black"], g["white"]) for g in live] == [("hanako", NAME)]
    # the joiner's library knows the colour they played, though the setup says "Player 2"
    mine = friend.get("/api/games").json()
    assert [(g["white"], g["your_colour"]) for g in mine] == [(NAME, "white")]
    assert client.get("/api/games").json()[0]["your_colour"] == "black"
    assert white.post("/resign").status_code == 200
    theirs = client.get("/api/players/hanako").json()["games"]
    assert [g["opponent"] for g in theirs] == [NAME]
    assert friend.get(f"/api/players/{NAME}").json()["games"][0]["opponent"] == "hanako"


def test_an_anonymous_joiner_keeps_the_placeholder(client: TestClient) -> None:
    signed_up(client, "hanako")
    game, _black, code = invite(client)
    white = join(browser(client), game, code)
    assert names(white.view()) == ["hanako", "Player 2"]
    kinds = [e.kind for e in stored(client, game["id"]).events]
    assert "seat-named" not in kinds


def test_a_name_the_opponent_has_is_not_given(client: TestClient) -> None:
    """An anonymous creator called the invited seat, and themself, what they liked: the
    joiner's account name taken by the creator's seat leaves the joiner's seat as it was."""
    game, _black, code = invite(client, names=[NAME, "Player 2"])
    friend = browser(client)
    signed_up(friend, NAME)
    assert names(join(friend, game, code).view()) == [NAME, "Player 2"]


def test_a_seat_kept_for_an_account_is_named_when_taken(client: TestClient) -> None:
    hanako_id = signed_up(client, "hanako")
    friend = browser(client)
    friend_id = signed_up(friend, NAME)
    games = services(client).games
    request = NewGame(opponent="person", same_screen=False, names=("hanako", "Player 2"))
    assert client.portal is not None
    created = client.portal.call(lambda: games.create(
        request, client=None, address="test", account=hanako_id,
        opponent_account=friend_id))
    game_id = created.live.id
    r = friend.post(f"/api/games/{game_id}/seat")
    assert r.status_code == 200, r.text
    assert names(r.json()["game"]) == ["hanako", NAME]
    again = friend.post(f"/api/games/{game_id}/seat")  # a fresh token: named once
    assert again.status_code == 200
    kinds = [e.kind for e in stored(client, game_id).events]
    assert kinds.count("seat-named") == 1


def test_a_terminal_game_taken_over_plays_under_the_account(client: TestClient) -> None:
    """``hasamigo play`` stores the game with a join code for the person's seat ("You");
    a signed-in browser that opens the link plays it under the account's name. A record
    whose two seats one link hands over (two people at one screen, an import) keeps its
    names."""
    games = services(client).games
    terminal = GameController.new(GameSetup((Participant("You"),
                                             Participant("Random", program="random"))),
                                  game_id="0123456789ab")
    pair = GameController.new(GameSetup((Participant("Ann"), Participant("Bob"))),
                              game_id="0123456789cd")
    for stored, seats in ((terminal, (0,)), (pair, (0, 1))):
        code = f"code-{stored.id}"
        games.repo.create(stored, secrets=[SeatSecret("join", secret_hash(code), seats,
                                                      None)])
    signed_up(client, NAME)
    taken = join(client, {"id": terminal.id}, f"code-{terminal.id}")
    assert names(taken.view()) == [NAME, "Random"]
    assert client.get("/api/games").json()[0]["your_colour"] == "black"
    both = join(client, {"id": pair.id}, f"code-{pair.id}")
    assert names(both.view()) == ["Ann", "Bob"]


def test_a_damaged_stored_name_is_refused_naming_its_game_and_event(client: TestClient
                                                                    ) -> None:
    signed_up(client, "hanako")
    game, _black, code = invite(client)
    friend = browser(client)
    signed_up(friend, NAME)
    join(friend, game, code)
    with services(client).db.session() as session, session.begin():
        row = session.scalars(select(GameEventRow).where(
            GameEventRow.game_id == game["id"], GameEventRow.kind == "seat-named")).one()
        row.data = {**row.data, "name": ""}
        seq = row.seq
    with pytest.raises(StoredGameError, match=rf"game {game['id']}, event {seq}: .*name"):
        services(client).games.repo.load(game["id"])


# ---- deletion -------------------------------------------------------------------------------
def test_deletion_anonymises_a_name_the_event_gave(client: TestClient) -> None:
    signed_up(client, "hanako")
    game, black, code = invite(client)
    going, _going_black, going_code = invite(client)
    friend = browser(client)
    signed_up(friend, NAME)
    white = join(friend, game, code)
    join(friend, going, going_code)
    assert black.move("f5").status_code == 200
    assert white.post("/resign").status_code == 200
    assert NAME in everything_stored(client)
    assert friend.post("/api/accounts/delete", json={"password": PASSWORD}).status_code == 204
    everything = everything_stored(client)
    assert NAME not in everything and NAME.lower() not in everything
    view = black.view()  # the opponent keeps the game, the name anonymised
    assert names(view) == ["hanako", "(deleted)"] and view["result"]["winner"] == "black"
    assert "PW[(deleted)]" in black.get("/ggf").text
    assert [g["white"] for g in client.get("/api/games").json()] == ["(deleted)"] * 2


def test_both_players_deleted_leave_a_game_that_still_loads(client: TestClient) -> None:
    signed_up(client, "hanako")
    game, black, code = invite(client)
    friend = browser(client)
    signed_up(friend, NAME)
    white = join(friend, game, code)
    assert black.move("f5").status_code == 200
    assert white.post("/resign").status_code == 200
    for who in (friend, client):
        assert who.post("/api/accounts/delete", json={"password": PASSWORD}).status_code == 204
    kept = stored(client, game["id"])
    assert sorted(p.name for p in kept.participants) == ["(deleted)", "(deleted) #2"]
    assert names(black.view()) == ["(deleted) #2", "(deleted)"]
