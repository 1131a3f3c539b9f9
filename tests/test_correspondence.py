"""Correspondence games (issue 67): days per move instead of a chess clock.

Each turn's deadline is the instant it began plus the days; once it passes, the side to
move loses on time (a 33–31 time-out, termination ``timeout``), claimed for its opponent
by the same path a program's claim of a fallen flag takes. Time is a fake clock here:
nothing sleeps for days.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.events import Resume, Suspend
from hasamigo.game.setup import DAY_SECONDS, GameOptions, GameSetup, Participant
from hasamigo.game.state import Phase
from hasamigo.move import BLACK, WHITE

START = 1_800_000_000.0
START_WEB = 1_700_000_000.0  # test_web_api's fake clock
DAY = DAY_SECONDS


class FakeTime:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def correspondence(days: int = 3, t: FakeTime | None = None) -> tuple[GameController, FakeTime]:
    t = t or FakeTime()
    setup = GameSetup((Participant("Ann"), Participant("Bob")),
                      GameOptions(clock_seconds=None, days_per_move=days))
    return GameController.new(setup, time_source=t), t


# ---- the option ---------------------------------------------------------------------------
@pytest.mark.parametrize("days", [0, 15, -1])
def test_days_per_move_run_from_1_to_14(days: int) -> None:
    with pytest.raises(GameError, match="1 to 14 days"):
        GameOptions(clock_seconds=None, days_per_move=days)


def test_a_correspondence_game_has_no_chess_clock() -> None:
    with pytest.raises(GameError, match="no chess clock"):
        GameOptions(days_per_move=3)  # the default 20-minute clock left in
    assert GameOptions(clock_seconds=None, days_per_move=14).move_seconds == 14 * DAY


def test_the_option_is_stored_and_old_setups_read_as_none() -> None:
    game, _t = correspondence(5)
    data = game.setup.to_json()
    assert data["options"]["days_per_move"] == 5
    assert GameSetup.from_json(data).options.days_per_move == 5
    plain = GameSetup((Participant("Ann"), Participant("Bob"))).to_json()
    assert "days_per_move" not in plain["options"]  # as stored before it existed
    assert GameSetup.from_json(plain).options.days_per_move is None
    data["options"]["days_per_move"] = True
    with pytest.raises(GameError, match="wrong type"):
        GameSetup.from_json(data)


# ---- the fold -----------------------------------------------------------------------------
def test_each_turn_has_the_days_from_the_instant_it_began() -> None:
    game, t = correspondence(3)
    assert game.phase is Phase.PLAYING
    assert game.state.deadline() == START + 3 * DAY
    t.now += 2 * DAY + 5
    game.play(BLACK, "f5")
    assert game.state.deadline() == t.now + 3 * DAY  # White's turn: the days afresh
    t.now += 3 * DAY - 1  # a second before White's deadline
    game.observe()
    assert game.phase is Phase.PLAYING
    game.play(WHITE, "d6")
    assert game.state.deadline() == t.now + 3 * DAY  # Black has three days again
    assert game.remaining(BLACK) == 3 * DAY


def test_when_the_deadline_passes_the_side_to_move_loses_on_time() -> None:
    game, t = correspondence(2)
    game.play(BLACK, "f5")
    moved = t.now
    t.now += 2 * DAY + 600  # seen ten minutes after White's deadline
    events = game.observe()
    assert [e.kind for e in events] == ["claim"]
    assert events[0].at == moved + 2 * DAY  # the game ended at the deadline itself
    result = game.result
    assert game.phase is Phase.OVER and result is not None
    assert result.winner is BLACK and (result.black, result.white) == (33, 31)
    assert result.termination.code == "timeout" and result.termination.on_time
    assert game.state.result_final  # no choice, no claim after the end
    assert game.observe() == []
    with pytest.raises(GameError):
        game.play(WHITE, "d6")


def test_the_loss_on_time_is_a_claim_like_a_fallen_flags() -> None:
    """One time-out rule: the fold's claim (a person may claim a passed deadline too),
    ending a correspondence game at once instead of offering the play-out."""
    game, t = correspondence(1)
    t.now += DAY + 1
    game.claim(WHITE)
    assert game.phase is Phase.OVER and game.result is not None
    assert game.result.winner is WHITE and game.result.termination.code == "timeout"
    fresh, t2 = correspondence(1)
    t2.now += DAY - 1
    with pytest.raises(GameError, match="has not fallen"):
        fresh.claim(WHITE)


def test_the_state_replays_the_same_from_its_events() -> None:
    game, t = correspondence(4)
    game.play(BLACK, "f5")
    t.now += DAY
    game.play(WHITE, "d6")
    again = GameController(game.setup, game.events, time_source=t)
    assert again.state.deadline() == game.state.deadline() == t.now + 4 * DAY


def test_a_turn_held_while_the_opponent_joins_begins_afresh() -> None:
    """The server holds the clock while the invited person's seat is empty (a suspend);
    the first turn begins, with its days, when they join."""
    game, t = correspondence(3)
    game.append(Suspend(at=t.now))
    assert game.state.deadline() is None
    t.now += 10 * DAY
    game.append(Resume(at=t.now))
    assert game.state.deadline() == t.now + 3 * DAY


def test_a_take_back_starts_the_turn_again() -> None:
    game, t = correspondence(3)
    game.play(BLACK, "f5")
    t.now += DAY
    game.request_undo(BLACK)
    game.undo(BLACK)
    assert game.state.position.turn is BLACK and game.state.deadline() == t.now + 3 * DAY


def test_a_correspondence_game_is_not_played_over_the_board() -> None:
    game, _t = correspondence(3)
    with pytest.raises(GameError, match="not played over the board"):
        game.declare_over_the_board()


# ---- the web service ------------------------------------------------------------------------
# (the API through TestClient, on the fake clocks of test_web_api: days pass in a line)
def _web() -> Any:
    import test_web_api

    return test_web_api


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A SQLite file; a PostgreSQL schema too when ``HASAMIGO_TEST_POSTGRES`` is set."""
    from test_storage_migration import scratch_url

    with scratch_url(request.param, tmp_path) as url:
        yield url


def _call(client: TestClient, fn: Any) -> Any:
    """Run the app's coroutine function ``fn`` on the client's event loop."""
    assert client.portal is not None
    return client.portal.call(fn)


def _two_browsers(client: Any, days: int = 3) -> tuple[Any, Any]:
    """A correspondence game between two browsers, joined: (Black's seat, White's)."""
    web = _web()
    game, black = web.create(client, opponent="person", same_screen=False,
                             days_per_move=days)
    assert game["clock"] is None and game["days_per_move"] == days
    code = game["join_url"].split("code=")[1]
    joined = client.post(f"/api/games/{game['id']}/join", json={"code": code})
    assert joined.status_code == 200, joined.text
    return black, web.Seat(client, game["id"], joined.json()["seat_token"])


def test_a_correspondence_game_over_the_api(db: str) -> None:
    web = _web()
    t = web.FakeTime()
    with web.make_client(db, t) as client:
        black, white = _two_browsers(client, days=2)
        view = black.view()
        assert view["deadline"] == pytest.approx(t.now + 2 * DAY)  # from the join
        t.now += DAY
        assert black.move("f5").status_code == 200
        assert white.view()["deadline"] == pytest.approx(t.now + 2 * DAY)
        t.now += 2 * DAY + 1
        over = white.view()
        assert over["phase"] == "over" and over["result"]["termination"] == "timeout"
        assert over["result"]["winner"] == "black" and over["deadline"] is None
        assert web.error_of(white.move("d6"))["code"] == "game_over"


@pytest.mark.parametrize(("fields", "says"), [
    ({"opponent": "random", "days_per_move": 3}, "between two people"),
    ({"opponent": "person", "days_per_move": 3, "clock_minutes": 5}, "no chess clock"),
    ({"opponent": "person", "days_per_move": 15}, "less than or equal to 14"),
    ({"opponent": "person", "days_per_move": 0}, "greater than or equal to 1"),
    # a number of days is a JSON integer: neither a truth value nor text
    ({"opponent": "person", "days_per_move": True}, "valid integer"),
    ({"opponent": "person", "days_per_move": "3"}, "valid integer"),
])
def test_bad_correspondence_requests(db: str, fields: dict[str, Any], says: str) -> None:
    web = _web()
    with web.make_client(db) as client:
        response = client.post("/api/games", json=fields)
        assert response.status_code in (400, 422)
        assert says in web.error_of(response)["message"]


def test_the_game_waits_across_a_restart_and_the_other_side_plays_on(db: str) -> None:
    web = _web()
    t = web.FakeTime()
    with web.make_client(db, t) as client:
        black, white = _two_browsers(client, days=3)
        assert black.move("f5").status_code == 200
        deadline = white.view()["deadline"]
    t.now += 2 * DAY  # the server is down for two days: a correspondence deadline runs on
    with web.make_client(db, t) as client:
        black.client = white.client = client
        view = white.view()
        assert view["phase"] == "playing" and view["deadline"] == deadline
        assert view["moves"] == ["f5"] and view["turn"] == "white"
        assert white.move("d6").status_code == 200
        assert black.view()["deadline"] == pytest.approx(t.now + 3 * DAY)


def test_the_turn_runs_the_notify_command_and_its_failure_never_breaks_a_move(
        db: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    web = _web()
    from hasamigo.web import Settings, create_app

    told = tmp_path / "told.txt"
    script = tmp_path / "notify.py"
    script.write_text("import sys\n"
                      "with open(sys.argv[1], 'a') as out:\n"
                      "    out.write(' '.join(sys.argv[2:]) + '\\n')\n")
    t = web.FakeTime()
    settings = Settings(warm_engine=False, tick_seconds=3600,
                        notify_command=f"{sys.executable} '{script}' '{told}'")
    app = create_app(settings, db_url=db, time_source=t, wall_clock=t,
                     player_factory=lambda spec, seed: web.FirstLegal())
    with TestClient(app) as client:
        black, _white = _two_browsers(client, days=1)
        assert black.move("f5").status_code == 200
        _call(client, app.state.services.games.notifier.drain)
    lines = told.read_text().splitlines()
    begun = datetime.fromtimestamp(START_WEB + DAY, UTC).isoformat(timespec="seconds")
    assert lines == [f"{black.id} black {begun}", f"{black.id} white {begun}"]

    broken = Settings(warm_engine=False, tick_seconds=3600,
                      notify_command=f"{sys.executable} -c 'import sys; sys.exit(3)'")
    app = create_app(broken, db_url=db, time_source=t, wall_clock=t,
                     player_factory=lambda spec, seed: web.FirstLegal())
    with caplog.at_level(logging.WARNING), TestClient(app) as client:
        black, white = _two_browsers(client, days=1)
        assert black.move("f5").status_code == 200
        assert white.move("d6").status_code == 200
        _call(client, app.state.services.games.notifier.drain)
    assert "the notify command for game" in caplog.text and "exit 3" in caplog.text


def test_the_notify_commands_run_a_few_at_a_time_each_game_told_its_newest_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns passing quickly in many games (a player, or a script, moving fast) start at
    most MAX_RUNNING processes at once, one per game for its newest turn, not one per
    move."""
    import asyncio

    from hasamigo.web import Settings
    from hasamigo.web.services.games import notify

    running: list[int] = [0, 0]  # now, most at once
    started: list[list[str]] = []

    class Process:
        returncode = 0

        async def communicate(self) -> tuple[bytes, bytes]:
            running[0] += 1
            running[1] = max(running)
            await asyncio.sleep(0.01)
            running[0] -= 1
            return b"", b""

    async def exec_(*argv: str, **_: Any) -> Process:
        started.append(list(argv))
        return Process()

    monkeypatch.setattr(notify.asyncio, "create_subprocess_exec", exec_)
    notifier = notify.TurnNotifier(Settings(warm_engine=False, notify_command="tell"))

    async def turns() -> None:
        for ply in range(6):
            for game in range(10):
                notifier.turn_passed(f"g{game}", BLACK if ply % 2 == 0 else WHITE,
                                     START_WEB + ply * DAY)
        await notifier.drain()

    asyncio.run(turns())
    newest = datetime.fromtimestamp(START_WEB + 5 * DAY, UTC).isoformat(timespec="seconds")
    assert sorted(started) == sorted(["tell", f"g{game}", "white", newest]
                                     for game in range(10))
    assert 1 <= running[1] <= notify.MAX_RUNNING


def _stored(db: str, game_id: str) -> Any:
    from hasamigo.storage import Database, GameRepository

    database = Database(db)
    database.open()
    try:
        stored = GameRepository(database).load(game_id)
        assert stored is not None
        return stored.game
    finally:
        database.close()


def _leased(repo: Any, game_id: str) -> bool:
    from sqlalchemy import select

    from hasamigo.storage.models import GameLeaseRow

    with repo.db.session() as session:
        return session.scalar(select(GameLeaseRow.game_id)
                              .where(GameLeaseRow.game_id == game_id)) is not None


def test_a_deadline_that_passed_while_no_server_ran_ends_the_game_at_start(db: str) -> None:
    web = _web()
    t = web.FakeTime()
    with web.make_client(db, t) as client:
        black, _white = _two_browsers(client, days=1)
        assert black.move("f5").status_code == 200
        moved = t.now
    t.now += 3 * DAY  # White's deadline passed while no server ran
    with web.make_client(db, t):
        pass  # nobody asks for the game: the server's start ends it
    game = _stored(db, black.id)
    assert game.phase is Phase.OVER and game.result.termination.code == "timeout"
    assert game.result.winner is BLACK and game.events[-1].at == moved + DAY


def test_a_due_game_out_of_memory_is_found_in_the_database_by_the_ticker(db: str) -> None:
    """A game waiting days leaves memory; when its deadline passes, the ticker finds it by
    the indexed deadline and ends it, nobody having asked for it."""
    web = _web()
    from hasamigo.web import Settings, create_app

    t = web.FakeTime()
    settings = Settings(warm_engine=False, tick_seconds=3600, idle_seconds=60)
    app = create_app(settings, db_url=db, time_source=t, wall_clock=t,
                     player_factory=lambda spec, seed: web.FirstLegal())
    with TestClient(app) as client:
        games = app.state.services.games
        black, _white = _two_browsers(client, days=2)
        assert black.move("f5").status_code == 200
        t.now += 61  # idle: it leaves memory (and its lease)
        _call(client, games.tick_all)
        assert black.id not in games.games
        web.eventually(lambda: not _leased(games.repo, black.id))  # given up in the background
        t.now += 2 * DAY
        _call(client, games.tick_all)
        assert _stored(db, black.id).phase is Phase.OVER


def test_two_servers_end_a_due_game_exactly_once(db: str) -> None:
    web = _web()
    from hasamigo.web import Settings, create_app

    t = web.FakeTime()
    settings = Settings(warm_engine=False, tick_seconds=3600)
    with web.make_client(db, t) as client:
        black, _white = _two_browsers(client, days=1)
        assert black.move("f5").status_code == 200
    apps = [create_app(settings, db_url=db, time_source=t, wall_clock=t,
                       player_factory=lambda spec, seed: web.FirstLegal()) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        t.now += DAY + 60
        ticks = [threading.Thread(target=_call, args=(c, a.state.services.games.tick_all))
                 for c, a in ((one, apps[0]), (two, apps[1]))]
        for tick in ticks:
            tick.start()
        for tick in ticks:
            tick.join(30)
        for client in (one, two):
            black.client = client
            assert black.view()["phase"] == "over"
    game = _stored(db, black.id)
    assert [e.kind for e in game.events].count("claim") == 1
    assert game.result is not None and game.result.winner is BLACK


def test_the_ticker_ends_a_game_in_memory_once_its_deadline_passes(db: str) -> None:
    web = _web()
    from hasamigo.web import Settings, create_app

    t = web.FakeTime()
    settings = Settings(warm_engine=False, tick_seconds=3600, idle_seconds=10 * DAY)
    app = create_app(settings, db_url=db, time_source=t, wall_clock=t,
                     player_factory=lambda spec, seed: web.FirstLegal())
    with TestClient(app) as client:
        games = app.state.services.games
        black, _white = _two_browsers(client, days=1)
        assert black.move("f5").status_code == 200
        t.now += DAY - 1
        _call(client, games.tick_all)
        assert _stored(db, black.id).phase is Phase.PLAYING
        t.now += 2
        _call(client, games.tick_all)  # nobody asks: the ticker ends it (in memory)
        assert black.id in games.games and _stored(db, black.id).phase is Phase.OVER
