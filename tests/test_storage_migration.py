"""The upgrade of a database made before events (Alembic revision 0002).

The old schema is built here as the numbered migrations built it (tables ``games`` and
``moves``, ``schema_version`` at 1), with rows in the old controller's ``to_dict`` format
(state_version 1) for every way a game could stand: in progress against a program,
finished on the board, resigned, lost on time (33–31), played out (stopped, and ended on
the board), waiting for the time-out choice, both flags down, fuse-ishi half-way and
done, and damaged. The states below are what the old code wrote for those games (checked
against it when this test was written). Runs on SQLite, and on PostgreSQL when
``HASAMIGO_TEST_POSTGRES`` holds a URL (in a throw-away schema).
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from hasamigo import BLACK, WHITE
from hasamigo.storage import Base, Database, GameRepository
from hasamigo.storage.db import current_revision, head_revision, migrate, normalise_url
from hasamigo.variants import find_variant

T0 = datetime(2023, 11, 14, 22, 13, 20, tzinfo=UTC)  # 1_700_000_000 s


# ---- the databases -------------------------------------------------------------------------
BACKENDS = ["sqlite", "postgresql"]
#: the revisions shipped, in order (``rNNNN_*.py``, each revising the one before)
REVISIONS = sorted(path.name[1:5] for path in (
    Path(__file__).resolve().parent.parent / "src" / "hasamigo" / "storage" / "alembic"
    / "versions").glob("r[0-9][0-9][0-9][0-9]_*.py"))


def revisions_from(first: str) -> list[str]:
    """The revisions an upgrade from just before ``first`` applies: ``first`` to the
    newest."""
    return REVISIONS[REVISIONS.index(first):]


def game_rows(db: Database, game_id: str) -> tuple[int, int]:
    """How many rows of ``games`` and of ``game_events`` a game has, read without today's
    models (which may name columns an older revision lacks)."""
    with db.engine.connect() as conn:
        return tuple(conn.execute(sa.text(f"SELECT count(*) FROM {table} WHERE {key} = :g"),
                                  {"g": game_id}).scalar_one()
                     for table, key in (("games", "id"), ("game_events", "game_id")))


@contextmanager
def scratch_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """A SQLite file, or a fresh schema of the PostgreSQL database given in
    ``HASAMIGO_TEST_POSTGRES`` (dropped afterwards; skips the test when unset)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'scratch.db'}"
        return
    base = os.environ.get("HASAMIGO_TEST_POSTGRES")
    if not base:
        pytest.skip("set HASAMIGO_TEST_POSTGRES to a PostgreSQL URL to run this")
    base = normalise_url(base)
    schema = f"hasamigo_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(base)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in base else "?"
    try:
        yield f"{base}{joiner}options={quote(f'-csearch_path={schema}')}"
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with scratch_url(request.param, tmp_path) as url:
        yield url


def create_old_schema(engine: sa.Engine) -> None:
    """The tables of the numbered migrations, version 1, spelt out as they were."""
    meta = sa.MetaData()
    sa.Table(
        "games", meta,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("phase", sa.String(20), nullable=False, index=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("black", sa.String(80), nullable=False),
        sa.Column("white", sa.String(80), nullable=False),
        sa.Column("opponent", sa.String(40), nullable=False),
        sa.Column("casual", sa.Boolean, nullable=False),
        sa.Column("move_count", sa.Integer, nullable=False),
        sa.Column("result_black", sa.Integer, nullable=True),
        sa.Column("result_white", sa.Integer, nullable=True),
        sa.Column("winner", sa.String(8), nullable=True),
        sa.Column("termination", sa.String(20), nullable=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
    )
    sa.Table(
        "moves", meta,
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("move", sa.String(8), nullable=False),
        sa.Column("seconds", sa.Float, nullable=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
    )
    sa.Table(
        "schema_version", meta,
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
    )
    with engine.begin() as conn:
        meta.create_all(conn)
        conn.execute(meta.tables["schema_version"].insert().values(version=1, applied_at=T0))


# ---- the old states ----------------------------------------------------------------------------
OPTIONS = {"variant": "standard", "start": None, "handicap": 0, "clock_seconds": 1200.0,
           "casual": True, "draws_allowed": True, "position": None}
Clock = tuple[float, float, str | None, float, float | None]


def old_state(people: tuple[str | None, str | None], moves: str, phase: str, *,
              colour: str = "black", options: dict[str, Any] | None = None,
              seats: tuple[int, int] | None = (0, 1), fuse: dict[str, Any] | None = None,
              draw_win: str | None = None, loser: str | None = None,
              playout_from: int | None = None, clock: Clock | None = None,
              result: tuple[int, int, str | None, str] | None = None, revision: int = 0,
              names: tuple[str, str] = ("Ann", "Ben")) -> dict[str, Any]:
    """The old ``GameController.to_dict()``. ``people``: each participant's program (None
    for a person); ``moves``: ``colour:move:seconds`` items (``b:f5:3``, ``w:pass:0``,
    ``-`` for no seconds; a pass was always automatic)."""
    played = []
    for item in moves.split():
        side, move, seconds = item.split(":")
        played.append({"colour": {"b": "black", "w": "white"}[side], "move": move,
                       "seconds": None if seconds == "-" else float(seconds),
                       "automatic": move == "pass"})
    return {
        "state_version": 1,
        "participants": [{"name": n, "program": p} for n, p in zip(names, people, strict=True)],
        "options": {**OPTIONS, **(options or {})},
        "colour_method": colour,
        "fuse_ishi": fuse,
        "seats": None if seats is None else {"black": seats[0], "white": seats[1]},
        "draw_win": draw_win,
        "moves": played,
        "phase": phase,
        "timeout_loser": loser,
        "playout_from": playout_from,
        "clock": None if clock is None else dict(zip(
            ("black", "white", "running", "saved_at", "turn_started_at"), clock, strict=True)),
        "result": None if result is None else {
            "black": result[0], "white": result[1], "winner": result[2],
            "termination": result[3], "rated": result[3] != "BOTH_FLAGS",
            "by_draw_win": False},
        "revision": revision,
    }


PERSONS = (None, None)
BOT = (None, "random")
OLD_GAMES: dict[str, dict[str, Any]] = {
    "in-progress": old_state(
        BOT, "b:f5:3 w:d6:1.5 b:c3:7.25 w:d3:0.5", "playing", names=("Ann", "Bot"),
        options={"clock_seconds": 600}, clock=(587.75, 598.0, "black", 1.7e9 + 14.25,
                                               1.7e9 + 12.25), revision=4),
    "finished-4x4": old_state(
        PERSONS, "b:a2:1.25 w:a3:1.25 b:b4:1.25 w:c1:1.25 b:a4:1.25 w:pass:0 b:d3:1.25 "
        "w:c4:1.25 b:b1:1.25 w:a1:1.25 b:d4:1.25 w:d2:1.25 b:d1:1.25", "over",
        colour="white", seats=(1, 0),
        options={"variant": "4x4", "clock_seconds": 60, "casual": False},
        clock=(51.25, 53.75, None, 1.7e9 + 29.25, None), result=(11, 5, "black", "NORMAL"),
        revision=12),
    "resigned": old_state(
        PERSONS, "b:f5:- w:f6:- b:e6:-", "over", options={"clock_seconds": None},
        result=(64, 0, "black", "RESIGNATION"), revision=4),
    "timeout": old_state(
        PERSONS, "b:f5:4 w:d6:5 b:c3:10", "over", loser="white",
        options={"clock_seconds": 30, "casual": False},
        clock=(16.0, -1.0, None, 1.7e9 + 74.25, None), result=(33, 31, "black", "TIMEOUT"),
        revision=5),
    # the count when the winner stopped did not favour them: the 33-31 win stands
    "playout-stopped": old_state(
        PERSONS, "b:f5:4 w:d6:5 b:c3:- w:d3:- b:c4:-", "over", loser="black", playout_from=2,
        options={"clock_seconds": 30, "casual": False},
        clock=(-14.0, 22.0, None, 1.7e9 + 126.25, None), result=(31, 33, "white", "TIMEOUT"),
        revision=8),
    "playout-to-the-end": old_state(
        PERSONS, "b:a2:4 w:a1:5 b:d3:- w:d4:- b:b1:- w:d2:- b:c4:- w:a3:- b:b4:- w:a4:- "
        "b:pass:- w:d1:- b:pass:- w:c1:-", "over", loser="black", playout_from=2,
        options={"variant": "4x4", "clock_seconds": 30, "casual": False},
        clock=(-14.0, 15.0, None, 1.7e9 + 340.25, None), result=(0, 16, "white", "PLAYOUT"),
        revision=14),
    "playout-open": old_state(
        PERSONS, "b:f5:4 w:f6:-", "playout", loser="white", playout_from=1,
        options={"clock_seconds": 30, "casual": False},
        clock=(25.0, -10.0, "black", 1.7e9 + 171.25, 1.7e9 + 170.25), revision=4),
    "timeout-choice": old_state(
        (None, "greedy"), "b:f5:2", "timeout-choice", loser="white", names=("Ann", "Bot"),
        options={"clock_seconds": 20}, clock=(18.0, -5.0, None, 1.7e9 + 198.25, None),
        revision=2),
    "both-flags": old_state(
        BOT, "b:f5:2 w:d6:12", "over", names=("Ann", "Bot"), options={"clock_seconds": 10},
        clock=(-1.0, -2.0, None, 1.7e9 + 226.25, None), result=(32, 32, None, "BOTH_FLAGS"),
        revision=3),
    "fuse-ishi-colours": old_state(
        PERSONS, "", "colours", colour="fuse-ishi", seats=None,
        options={"draws_allowed": False},
        fuse={"top": "black", "hider": 1, "call": "black", "right": "colour",
              "colour": None}, revision=2),
    "fuse-ishi-program": old_state(
        BOT, "b:f5:1", "playing", colour="fuse-ishi", names=("Ann", "Bot"), draw_win="white",
        options={"clock_seconds": 100, "draws_allowed": False},
        fuse={"top": "black", "hider": 1, "call": "white", "right": "draw-win",
              "colour": "black"},
        clock=(99.0, 100.0, "white", 1.7e9 + 281.25, 1.7e9 + 281.25), revision=3),
    "random-no-draws": old_state(
        PERSONS, "b:f5:-", "playing", colour="random",
        options={"clock_seconds": None, "draws_allowed": False}, revision=1),
    # damaged: a1 is no legal move at the start
    "damaged": old_state(PERSONS, "b:a1:1", "playing", options={"clock_seconds": 60}),
}


def insert_old_game(conn: sa.Connection, game_id: str, state: dict[str, Any],
                    created_at: datetime) -> None:
    """A row as the old repository wrote it: the summary, the state, the move rows."""
    meta = sa.MetaData()
    games = sa.Table("games", meta, autoload_with=conn)
    moves = sa.Table("moves", meta, autoload_with=conn)
    seats, result = state["seats"], state["result"]
    names = [p["name"] for p in state["participants"]]
    conn.execute(games.insert().values(
        id=game_id, created_at=created_at, updated_at=created_at + timedelta(minutes=5),
        phase=state["phase"], variant=find_variant(state["options"]["variant"]).name,
        black="" if seats is None else names[seats["black"]],
        white="" if seats is None else names[seats["white"]],
        opponent=next((p["program"] for p in state["participants"] if p["program"]),
                      None) or "person",
        casual=state["options"]["casual"], move_count=len(state["moves"]),
        result_black=None if result is None else result["black"],
        result_white=None if result is None else result["white"],
        winner=None if result is None else result["winner"],
        termination=None if result is None else result["termination"].lower(),
        revision=state["revision"], state=state))
    if state["moves"]:
        conn.execute(moves.insert(), [
            {"game_id": game_id, "ply": ply, "colour": m["colour"], "move": m["move"],
             "seconds": m["seconds"], "played_at": created_at}
            for ply, m in enumerate(state["moves"])])


def old_database(url: str) -> dict[str, datetime]:
    """The old schema with every game of :data:`OLD_GAMES`; returns their created_at."""
    engine = sa.create_engine(normalise_url(url))
    create_old_schema(engine)
    created = {}
    with engine.begin() as conn:
        for number, (game_id, state) in enumerate(OLD_GAMES.items()):
            created[game_id] = T0 + timedelta(hours=number)
            insert_old_game(conn, game_id, state, created[game_id])
        conn.execute(sa.text("INSERT INTO games (id, created_at, updated_at, phase, variant, "
                             "black, white, opponent, casual, move_count, revision, state) "
                             "VALUES ('not-a-state', :t, :t, 'playing', 'standard', '', '', "
                             "'person', true, 0, 0, :s)"),
                     {"t": T0, "s": '{"state_version": 7}'})
    engine.dispose()
    return created


# ---- the tests -------------------------------------------------------------------------------
def test_a_fresh_database_gets_the_schema_of_the_models(db_url: str) -> None:
    db = Database(db_url)
    assert db.open() == revisions_from("0001")
    assert db.open() == [] and migrate(db.engine) == []  # up to date: left alone
    assert current_revision(db.engine) == head_revision() == REVISIONS[-1]
    inspector = sa.inspect(db.engine)
    assert set(inspector.get_table_names()) == set(Base.metadata.tables) | {"alembic_version"}
    for table in Base.metadata.sorted_tables:
        migrated = {c["name"]: c for c in inspector.get_columns(table.name)}
        assert set(migrated) == {c.name for c in table.columns}, table.name
        for column in table.columns:
            assert migrated[column.name]["nullable"] == column.nullable, column
    with db.engine.connect() as conn:  # types, indexes, keys and defaults too
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "compare_server_default": True})
        assert compare_metadata(context, Base.metadata) == []
    db.close()


def test_old_games_become_events(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    created = old_database(db_url)
    db = Database(db_url)
    upgraded_at = time.time()
    with caplog.at_level(logging.INFO):
        # stamped 0001 (the old schema), then upgraded
        assert db.open() == revisions_from("0002")
    assert db.open() == []
    tables = set(sa.inspect(db.engine).get_table_names())
    assert "moves" not in tables and "schema_version" not in tables
    repo = GameRepository(db)

    for game_id, state in OLD_GAMES.items():
        if game_id == "damaged":
            continue
        stored = repo.load(game_id)
        assert stored is not None, game_id
        game = stored.game
        assert stored.public and stored.creator is None
        assert game.phase.value == state["phase"], game_id
        board = find_variant(state["options"]["variant"])()
        for move in state["moves"]:
            board.play(move["move"])
        assert game.board.to_string() == board.to_string(), game_id
        result = None if game.result is None else (
            game.result.black, game.result.white,
            None if game.result.winner is None else game.result.winner.value,
            game.result.termination.name)
        old = state["result"]
        assert result == (None if old is None else (
            old["black"], old["white"], old["winner"], old["termination"])), game_id
        seconds = [m.seconds for m in game.history]
        assert seconds == pytest.approx([m["seconds"] for m in state["moves"]], abs=1e-6)
        assert game.events[0].at == pytest.approx(created[game_id].timestamp())
        if game.state.seats is not None:
            assert game.seat(BLACK).name == state["participants"][state["seats"]["black"]][
                "name"]

    events = {game_id: [e.kind for e in repo.load(game_id).game.events]  # type: ignore[union-attr]
              for game_id in OLD_GAMES if game_id != "damaged"}
    assert events["finished-4x4"][-2:] == ["accept", "accept"]
    assert events["resigned"][-1] == "resign"
    assert events["timeout"][-2:] == ["claim", "timeout-choice"]
    assert events["playout-stopped"][-1] == "stop-playout"
    assert "stop-playout" not in events["playout-to-the-end"]  # the board ended it
    assert events["playout-open"][-3:] == ["move", "suspend", "resume"]
    assert events["timeout-choice"][-1] == "claim"
    assert events["fuse-ishi-colours"] == ["colour"] * 4  # hider, hide, call, right
    assert events["both-flags"][-1] == "claim"

    # each move was charged exactly its recorded seconds (Black used 3 + 7.25 of 600);
    # the clock then ran 2 s more for Black until the last save, and stopped there: the
    # time since is an outage, not Black's (as the old server had it)
    game = repo.load("in-progress").game  # type: ignore[union-attr]
    kinds = [e.kind for e in game.events]
    assert kinds[-3:] == ["move", "suspend", "resume"] and not game.state.suspended
    suspend, resume = game.events[-2:]
    assert suspend.at - game.events[-3].at == pytest.approx(2.0)
    assert resume.at >= upgraded_at
    clock = game.state.clock
    assert clock is not None and clock.running is BLACK
    assert clock.remaining(BLACK, resume.at) == pytest.approx(587.75)
    assert clock.remaining(WHITE, resume.at) == pytest.approx(598.0)
    fuse = repo.load("fuse-ishi-program").game  # type: ignore[union-attr]
    assert fuse.draw_win is WHITE and fuse.program_to_move() == (WHITE, "random")
    assert repo.orphan_games(0.0) == ["fuse-ishi-program"]
    no_draws = repo.load("random-no-draws").game  # type: ignore[union-attr]
    assert no_draws.options.draws_allowed
    assert any("draw-win" in r.getMessage() and "random-no-draws" in r.getMessage()
               for r in caplog.records)

    # what could not be converted is kept, with the reason, and is no game any more
    with db.engine.connect() as conn:
        legacy = {row.id: row for row in conn.execute(
            sa.text("SELECT id, state, reason FROM legacy_games"))}
    assert set(legacy) == {"damaged", "not-a-state"}
    assert "refused" in legacy["damaged"].reason and "move" in legacy["damaged"].reason
    assert "version 1" in legacy["not-a-state"].reason
    assert repo.load("damaged") is None and repo.count() == len(OLD_GAMES) - 1
    summaries = {s.id: s for s in repo.summaries(limit=500)}
    assert set(summaries) == set(OLD_GAMES) - {"damaged"}
    assert all(s.public for s in summaries.values())
    finished = summaries["finished-4x4"]
    assert (finished.phase, finished.variant, finished.black, finished.white,
            finished.result_black, finished.result_white, finished.winner,
            finished.termination, finished.move_count) == (
        "over", "4x4", "Ben", "Ann", 11, 5, "black", "normal", 13)
    db.close()


def test_an_unknown_old_version_is_not_touched(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v2.db'}"
    engine = sa.create_engine(url)
    create_old_schema(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE schema_version SET version = 2")
    engine.dispose()
    with pytest.raises(RuntimeError, match="unknown pre-Alembic schema"):
        Database(url).open()
    assert "alembic_version" not in sa.inspect(sa.create_engine(url)).get_table_names()


def test_a_failed_upgrade_changes_nothing(db_url: str, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    """Every revision of an upgrade commits together: on SQLite too (DDL included)."""
    old_database(db_url)

    def upgrade_then_fail(config: Any, revision: str) -> None:
        real_upgrade(config, revision)
        raise RuntimeError("the disk is full")

    real_upgrade = command.upgrade
    monkeypatch.setattr(command, "upgrade", upgrade_then_fail)
    db = Database(db_url)
    with pytest.raises(RuntimeError, match="disk"):
        db.open()
    inspector = sa.inspect(db.engine)
    assert {"games", "moves", "schema_version"} <= set(inspector.get_table_names())
    assert "alembic_version" not in inspector.get_table_names()
    assert "state" in {c["name"] for c in inspector.get_columns("games")}
    monkeypatch.undo()
    assert db.open() == revisions_from("0002")
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM game_events").scalar()
    db.close()


def test_two_servers_opening_at_once_migrate_once(db_url: str) -> None:
    old_database(db_url)
    databases = [Database(db_url) for _ in range(3)]
    with ThreadPoolExecutor(max_workers=3) as pool:
        applied = list(pool.map(Database.open, databases))
    assert sorted(applied) == [[], [], revisions_from("0002")]
    assert current_revision(databases[0].engine) == REVISIONS[-1]
    for db in databases:
        db.close()


def test_r0003_adds_the_tournament_tables_and_leaves_the_games_alone(db_url: str) -> None:
    """Revision 0003 only adds tables: a database at 0002 keeps its games, gains the
    tournament tables, and goes back down to 0002 (and up again) without losing any."""
    from hasamigo.game.controller import GameController
    from hasamigo.game.setup import GameOptions, GameSetup, Participant
    from hasamigo.storage.db import alembic_config

    tournament_tables = {"tournaments", "tournament_entrants", "tournament_rounds",
                         "tournament_pairings", "tournament_results", "tournament_audit"}
    engine = sa.create_engine(normalise_url(db_url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")
    engine.dispose()
    db = Database(db_url)
    assert current_revision(db.engine) == "0002"
    game = GameController.new(GameSetup((Participant("Ann"), Participant("Ben")),
                                        GameOptions(clock_seconds=None)), game_id="g0002")
    game.play(None, "f5")
    GameRepository(db).create(game, public=True)
    assert not tournament_tables & set(sa.inspect(db.engine).get_table_names())

    assert db.open() == revisions_from("0003")
    assert tournament_tables <= set(sa.inspect(db.engine).get_table_names())
    stored = GameRepository(db).load("g0002")
    assert stored is not None and stored.game.events == game.events

    with db.engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0002")
        # (read as rows: today's models name columns a database at 0002 does not have)
        assert conn.execute(sa.text("SELECT count(*) FROM game_events "
                                    "WHERE game_id = 'g0002'")).scalar() == len(game.events)
    assert not tournament_tables & set(sa.inspect(db.engine).get_table_names())
    assert db.open() == revisions_from("0003")
    db.close()
