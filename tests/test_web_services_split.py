"""The server's services each have one home (issue 51): the app's services built once by
its lifespan on :class:`AppServices`; the game service's parts, one job each, wired over
one store; the games' repositories, each usable alone over one database."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_storage import FakeTime, two_people

from hasamigo.storage import Database, GameRepository
from hasamigo.storage.games import GameRecords
from hasamigo.storage.leases import LeaseRepository
from hasamigo.storage.runs import RunRepository
from hasamigo.storage.seats import SeatRepository, SeatSecret
from hasamigo.web.app import create_app
from hasamigo.web.services.games import GameService, secret_hash
from hasamigo.web.services.games.seats import secret_hash as seats_secret_hash
from hasamigo.web.settings import Settings
from hasamigo.web.state import AppServices, services_of

SETTINGS = Settings(warm_engine=False, tick_seconds=3600)


def test_the_lifespan_builds_every_service_once(tmp_path: Path) -> None:
    app = create_app(SETTINGS, db_url=f"sqlite:///{tmp_path / 'one.db'}")
    assert services_of(app) is None  # nothing is made before the lifespan
    with TestClient(app) as client:
        services = services_of(app)
        assert isinstance(services, AppServices)
        assert client.get("/api/tournaments").status_code == 200
        assert client.get("/api/status").status_code == 200
        assert services_of(app) is services  # the routes made nothing of their own
        assert services.study.games is services.games  # the study plays the app's games
        assert services.tournaments.compute is services.compute
        assert services.reviews.games is services.games
        assert services.games.kernels is services.engine


def test_the_game_service_parts_share_one_store(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'parts.db'}")
    service = GameService(GameRepository(db), SETTINGS, lambda spec, seed: None)  # type: ignore[arg-type, return-value]
    store = service.store
    assert service.games is store.games and service.repo is store.repo
    for part in (service.seats, service.ownership, service.feed, service.programs,
                 service.ticker):
        assert part.store is store
    assert store.on_evict == service.ownership.released  # a game leaving gives up its lease
    service.programs.close()
    store.shutdown()


def test_secret_hashing_has_one_home() -> None:
    assert secret_hash is seats_secret_hash
    assert secret_hash("abc") == secret_hash("abc") != secret_hash("abd")
    assert len(secret_hash("abc")) == 64


@pytest.fixture
def db(tmp_path: Path) -> Database:
    database = Database(f"sqlite:///{tmp_path / 'repos.db'}")
    database.open()
    return database


def test_the_repositories_work_alone_over_one_database(db: Database) -> None:
    t = FakeTime()
    token = SeatSecret("token", "a" * 64, (0,), "client-1")
    GameRecords(db).create(two_people("g1", t), secrets=[token])
    assert SeatRepository(db).secret("g1", token.secret_hash) == token
    assert SeatRepository(db).client_game_ids("client-1") == ["g1"]
    run = RunRepository(db).start_run(100.0)
    assert LeaseRepository(db).take_lease("g1", run, 100.0, 10.0) == (True, None)
    facade = GameRepository(db)
    assert facade.renew_leases(run, 101.0, 10.0) == {"g1"}
    assert facade.versions(["g1"])["g1"].event_count == len(facade.load("g1").game.events)  # type: ignore[union-attr]
    db.close()
