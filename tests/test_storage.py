"""Storage: a game is its setup and its events; the library, seats and server runs.

The upgrade of old databases is in ``test_storage_migration.py``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from hasamigo import BLACK, WHITE
from hasamigo.game.controller import GameController
from hasamigo.game.errors import StoredGameError
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.game.state import Phase
from hasamigo.storage import (
    ConcurrentWrite,
    Database,
    GameRepository,
    SeatSecret,
    StoredGame,
    default_db_url,
    summary_columns,
)
from hasamigo.storage.db import normalise_url
from hasamigo.storage.models import GameEventRow, GameRow


class FakeTime:
    """A time source the test moves by hand."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def repo(db: Database) -> GameRepository:
    return GameRepository(db)


def vs_program(game_id: str, clock: Callable[[], float], **options: Any) -> GameController:
    setup = GameSetup((Participant("You"), Participant("Bot", program="random")),
                      GameOptions(**{"clock_seconds": 600.0, **options}))
    return GameController.new(setup, time_source=clock, game_id=game_id)


def two_people(game_id: str, clock: Callable[[], float] | None = None) -> GameController:
    setup = GameSetup((Participant("Ann"), Participant("Ben")), GameOptions())
    return GameController.new(setup, time_source=clock or FakeTime(), game_id=game_id)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def loaded(repo: GameRepository, game_id: str, clock: Callable[[], float] | None = None
           ) -> StoredGame:
    stored = repo.load(game_id, time_source=clock or FakeTime())
    assert stored is not None
    return stored


def assert_same_game(a: GameController, b: GameController) -> None:
    assert a.events == b.events
    assert a.board.to_string() == b.board.to_string()
    assert a.phase is b.phase and a.result == b.result
    assert a.clock_now() == b.clock_now()
    assert [(m.colour, m.move, m.at, m.seconds) for m in a.history] == \
        [(m.colour, m.move, m.at, m.seconds) for m in b.history]


# ---- database ------------------------------------------------------------------------------
def test_database_urls(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("HASAMIGO_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_url() == f"sqlite:///{tmp_path}/hasamigo/hasamigo.db"
    monkeypatch.setenv("HASAMIGO_DB", "postgresql://u@localhost/h")
    assert default_db_url() == "postgresql+psycopg://u@localhost/h"
    assert normalise_url("games.db").startswith("sqlite:///")
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_sqlite_pragmas_hold_on_every_connection(db: Database) -> None:
    if not db.sqlite:
        pytest.skip("SQLite only")
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1



def test_many_connections_switching_a_new_file_to_wal_at_once_all_succeed(
        tmp_path: Path) -> None:
    """Turning a rollback-journal file into WAL does not wait on the busy handler: before
    the retry, about one run in fifteen with six openers failed "database is locked"
    (seen in CI as two servers opening one new database). Forty runs make a regression
    show with near certainty."""
    from concurrent.futures import ThreadPoolExecutor

    def connect_and_write(db: Database) -> str:
        with db.engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO t VALUES (1)")
            return str(conn.exec_driver_sql("PRAGMA journal_mode").scalar())

    for run in range(40):
        path = tmp_path / f"run{run}.db"
        plain = sa.create_engine(f"sqlite:///{path}")
        with plain.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE t (x INTEGER)")
        plain.dispose()
        databases = [Database(f"sqlite:///{path}") for _ in range(6)]
        with ThreadPoolExecutor(max_workers=6) as pool:
            modes = list(pool.map(connect_and_write, databases))
        assert modes == ["wal"] * 6
        for db in databases:
            db.close()

# ---- create, append, load --------------------------------------------------------------------
def test_a_game_reloads_exactly_after_moves_an_undo_and_a_claim(repo: GameRepository) -> None:
    clock = FakeTime()
    game = vs_program("g1", clock)
    repo.create(game, creator="client-1")
    stored = len(game.events)
    assert program_games_and_summary(repo, game) == ([], "playing")

    for colour, move, seconds in ((BLACK, "f5", 3.0), (WHITE, "d6", 1.5),
                                  (BLACK, "c3", 7.25), (WHITE, "d3", 0.5)):
        clock.now += seconds
        game.play(colour, move)
        stored = repo.append(game, stored)
    assert stored == len(game.events) == 5
    clock.now += 4
    game.undo(BLACK)  # casual, against a program: c3 and the reply go
    stored = repo.append(game, stored)
    clock.now += 2
    game.play(BLACK, "c3")
    stored = repo.append(game, stored)
    assert program_games_and_summary(repo, game) == (["g1"], "playing")
    assert_same_game(loaded(repo, "g1", clock).game, game)  # mid-game, clock running

    clock.now += 700  # the program's flag falls; the person claims, takes 33-31
    game.claim(BLACK)
    game.choose_after_timeout("33-31")
    assert repo.append(game, stored) == len(game.events)
    again = loaded(repo, "g1", clock)
    assert_same_game(again.game, game)
    assert again.game.id == "g1" and again.creator == "client-1" and not again.public
    assert again.created_at.tzinfo is not None and again.updated_at >= again.created_at
    assert again.game.result is not None and (again.game.result.black,
                                              again.game.result.white) == (33, 31)
    assert program_games_and_summary(repo, game) == ([], "over")


def program_games_and_summary(repo: GameRepository, game: GameController
                              ) -> tuple[list[str], str]:
    [summary] = repo.summaries(ids=[game.id or ""])
    assert summary.move_count == len(game.history)
    return repo.orphan_games(0.0), summary.phase  # no leases: every program game


def test_summary_columns_come_from_the_controller(repo: GameRepository) -> None:
    clock = FakeTime()
    game = two_people("s1", clock)
    game.play(BLACK, "f5")
    clock.now += 1
    game.resign(WHITE)
    assert summary_columns(game) == {
        "phase": "over", "variant": "standard", "black": "Ann", "white": "Ben",
        "opponent": "person", "casual": True, "move_count": 1, "result_black": 64,
        "result_white": 0, "winner": "black", "termination": "resignation",
        "event_count": 3, "program_to_move": False, "deadline": None}
    repo.create(game, public=True)
    [summary] = repo.summaries()
    assert (summary.id, summary.black, summary.winner, summary.public) == \
        ("s1", "Ann", "black", True)


def test_create_and_append_refuse_what_they_cannot_store(repo: GameRepository) -> None:
    game = two_people("c1")
    repo.create(game)
    with pytest.raises(ConcurrentWrite):
        repo.create(game)  # the id is taken
    with pytest.raises(ValueError, match="id"):
        repo.create(GameController.new(game.setup))
    with pytest.raises(KeyError):
        repo.append(two_people("missing"), 0)
    with pytest.raises(ValueError):
        repo.append(game, len(game.events) + 1)
    assert repo.append(game, len(game.events)) == len(game.events)  # nothing new: fine


def test_two_writers_append_the_same_event(db: Database) -> None:
    first = GameRepository(db)
    second = GameRepository(Database(db.url))  # another process, in effect
    first.create(two_people("race"))
    mine, theirs = loaded(first, "race").game, loaded(second, "race").game
    stored = len(mine.events)
    mine.play(BLACK, "f5")
    assert first.append(mine, stored) == stored + 1
    theirs.play(BLACK, "d3")
    with pytest.raises(ConcurrentWrite, match="race"):
        second.append(theirs, stored)
    again = loaded(second, "race").game
    assert again.events == mine.events  # nothing of the loser was written
    [summary] = second.summaries()
    assert summary.move_count == 1 and summary.black == "Ann"


# ---- damaged rows ------------------------------------------------------------------------------
def damage(db: Database, game_id: str, seq: int, change: Callable[[dict[str, Any]], Any]
           ) -> None:
    with db.session() as session, session.begin():
        row = session.get(GameEventRow, (game_id, seq))
        assert row is not None
        data = dict(row.data)
        change(data)
        row.data = data


@pytest.mark.parametrize(("name", "change", "message"), [
    ("unknown kind", lambda d: d.update(kind="teleport"), "unknown event kind"),
    ("bad square", lambda d: d.update(square="z9"), "z9"),
    ("illegal move", lambda d: d.update(square="a1"), "refused"),
    ("missing field", lambda d: d.pop("colour"), "missing colour"),
    ("bad time", lambda d: d.update(at="soon"), "finite number"),
    ("not an object", lambda d: d.clear(), "kind"),
])
def test_a_damaged_event_is_refused_naming_game_and_event(
        db: Database, repo: GameRepository, name: str,
        change: Callable[[dict[str, Any]], Any], message: str) -> None:
    game = two_people("bad")
    for move in ("f5", "d6", "c3"):
        game.play(None, move)
    repo.create(game)
    damage(db, "bad", 3, change)  # the second move (event 1 decides colours)
    with pytest.raises(StoredGameError, match=message) as caught:
        repo.load("bad")
    assert (caught.value.game, caught.value.event) == ("bad", 3), name
    assert "game bad, event 3" in str(caught.value)


def test_a_gap_in_the_events_is_refused(db: Database, repo: GameRepository) -> None:
    game = two_people("gap")
    for move in ("f5", "d6", "c3"):
        game.play(None, move)
    repo.create(game)
    with db.session() as session, session.begin():
        session.execute(sa.delete(GameEventRow).where(GameEventRow.seq == 3))
    with pytest.raises(StoredGameError, match="missing") as caught:
        repo.load("gap")
    assert (caught.value.game, caught.value.event) == ("gap", 3)


def test_a_row_whose_copies_disagree_with_its_data_is_refused(
        db: Database, repo: GameRepository) -> None:
    game = two_people("copies")
    game.play(None, "f5")
    repo.create(game)
    with db.session() as session, session.begin():
        session.execute(sa.update(GameEventRow).where(GameEventRow.seq == 2)
                        .values(kind="pass"))
    with pytest.raises(StoredGameError) as caught:
        repo.load("copies")
    assert caught.value.event == 2


@pytest.mark.parametrize("setup", [[1, 2], "standard", {"version": 1}, {"version": 9}])
def test_a_damaged_setup_is_refused_naming_the_game(
        db: Database, repo: GameRepository, setup: Any) -> None:
    repo.create(two_people("setup"))
    with db.session() as session, session.begin():
        session.execute(sa.update(GameRow).values(setup=setup))
    with pytest.raises(StoredGameError, match="setup") as caught:
        repo.load("setup")
    assert (caught.value.game, caught.value.event) == ("setup", None)


def test_a_missing_game_loads_as_none(repo: GameRepository) -> None:
    assert repo.load("nothing") is None


# ---- the library --------------------------------------------------------------------------------
def test_summaries_filter_page_and_clamp(repo: GameRepository) -> None:
    clock = FakeTime()
    repo.create(two_people("mine-open", clock), creator="c1")
    over = two_people("theirs-over", clock)
    over.resign(BLACK)
    repo.create(over, creator="c2", public=True)
    repo.create(two_people("seated", clock), public=True,
                secrets=[SeatSecret("token", digest("t"), (1,), client="c1")])
    mine_over = two_people("mine-over", clock)
    mine_over.resign(WHITE)
    repo.create(mine_over, creator="c1")
    # an append makes a game the newest
    touched = loaded(repo, "mine-open", clock).game
    stored = len(touched.events)
    touched.play(BLACK, "f5")
    repo.append(touched, stored)

    def ids(**filters: Any) -> list[str]:
        return [s.id for s in repo.summaries(**filters)]

    assert ids()[0] == "mine-open" and len(ids()) == repo.count() == 4
    assert set(ids(creator="c1")) == {"mine-open", "mine-over"}
    own = repo.client_game_ids("c1")
    assert set(own) == {"mine-open", "mine-over", "seated"} and own[0] == "mine-open"
    assert set(ids(creator="c1", ids=["seated"])) == set(own)  # OR: created or seated
    assert ids(ids=[]) == []
    assert set(ids(public_only=True)) == {"theirs-over", "seated"}
    assert set(ids(phase="over")) == {"theirs-over", "mine-over"}
    assert set(ids(exclude_phase="over")) == {"mine-open", "seated"}
    assert ids(creator="c1", phase="over", public_only=False) == ["mine-over"]
    assert ids(creator="c1", public_only=True) == []
    assert len(ids(limit=2)) == 2 and ids(limit=2, offset=2) == ids()[2:]
    assert len(ids(limit=0)) == 1 and len(ids(limit=10**9)) == 4
    assert ids(offset=9223372036854775808) == [] and ids(offset=-5) == ids()
    assert repo.client_game_ids("nobody") == []

    repo.set_public("mine-open", True)
    assert "mine-open" in ids(public_only=True)
    repo.set_public("mine-open", False)
    assert "mine-open" not in ids(public_only=True)
    with pytest.raises(KeyError):
        repo.set_public("nothing", True)


# ---- seats ----------------------------------------------------------------------------------
def test_seat_secrets_and_single_use_join_codes(repo: GameRepository) -> None:
    token = SeatSecret("token", digest("ann's token"), (0,), client="ann")
    code = SeatSecret("join", digest("join code"), (1,))
    repo.create(two_people("seats"), creator="ann", secrets=[token, code])
    assert repo.secret("seats", token.secret_hash) == token
    assert repo.secret("seats", code.secret_hash) == code
    assert repo.secret("seats", digest("guess")) is None
    assert repo.secret("other", token.secret_hash) is None

    wrong = SeatSecret("token", digest("ben's token"), (0, 1), client="ben")
    with pytest.raises(ValueError, match="participants"):
        repo.use_join_code("seats", code.secret_hash, wrong)
    assert repo.secret("seats", code.secret_hash) == code  # rolled back: still unused

    ben = SeatSecret("token", digest("ben's token"), (1,), client="ben")
    assert repo.use_join_code("seats", code.secret_hash, ben) == (1,)
    assert repo.use_join_code("seats", code.secret_hash, ben) is None  # used once
    assert repo.use_join_code("seats", digest("guess"), ben) is None
    assert repo.use_join_code("seats", token.secret_hash, ben) is None  # a token is no code
    used = repo.secret("seats", code.secret_hash)
    assert used is not None and used.used
    assert repo.secret("seats", ben.secret_hash) == ben
    assert repo.client_game_ids("ben") == ["seats"]

    for bad in (SeatSecret("token", digest("x"), (2,)),
                SeatSecret("seat", digest("x"), (0,)),  # type: ignore[arg-type]
                SeatSecret("token", "", (0,))):
        with pytest.raises(ValueError):
            repo.create(two_people("bad-seat"), secrets=[bad])
    with pytest.raises(ValueError, match="share"):
        repo.create(two_people("bad-seat"), secrets=[ben, ben])
    assert repo.load("bad-seat") is None  # nothing of it was stored


# ---- server runs -------------------------------------------------------------------------------
def test_outages_are_the_gaps_between_runs(repo: GameRepository) -> None:
    assert repo.outages_since(0) == []
    first = repo.start_run(100.0)
    repo.heartbeat(first, 150.0)  # then it crashed
    second = repo.start_run(200.0)
    repo.heartbeat(second, 250.0)
    repo.stop_run(second, 300.0)  # an orderly stop
    third = repo.start_run(400.0)
    assert len({first, second, third}) == 3
    assert repo.outages_since(0) == [(150.0, 200.0), (300.0, 400.0)]
    assert repo.outages_since(180.0) == [(150.0, 200.0), (300.0, 400.0)]
    assert repo.outages_since(250.0) == [(300.0, 400.0)]
    assert repo.outages_since(350.0) == [(300.0, 400.0)]
    assert repo.outages_since(400.0) == []


def test_a_program_game_is_found_without_loading_it(repo: GameRepository) -> None:
    clock = FakeTime()
    game = vs_program("bot-first", clock)  # the person is Black: nobody waits on the program
    repo.create(game)
    assert repo.orphan_games(0.0) == []
    stored = len(game.events)
    game.play(BLACK, "f5")
    repo.append(game, stored)
    assert repo.orphan_games(0.0) == ["bot-first"]
    assert game.phase is Phase.PLAYING
