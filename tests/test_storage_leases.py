"""What lets several server processes share one database (issue 20): leases (one owner a
game, taken over once expired, atomically), games' versions, outages as the times no
process ran, and PostgreSQL's announcements of changes.

SQLite; PostgreSQL too when ``HASAMIGO_TEST_POSTGRES`` holds a URL."""

from __future__ import annotations

import hashlib
import itertools
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from test_storage import FakeTime, two_people, vs_program
from test_storage_migration import BACKENDS, scratch_url

from hasamigo import BLACK
from hasamigo.storage import Database, GameRepository
from hasamigo.storage.repository import GameVersion, SeatSecret


@pytest.fixture(params=BACKENDS, scope="module")
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
       ) -> Iterator[Database]:
    with scratch_url(request.param, tmp_path_factory.mktemp("leases")) as url:
        database = Database(url)
        database.open()
        yield database
        database.close()


@pytest.fixture
def repo(db: Database) -> Iterator[GameRepository]:
    repo = GameRepository(db)
    yield repo
    with db.engine.begin() as connection:  # the next test starts from an empty database
        for table in ("game_leases", "game_events", "game_seats", "games", "server_runs"):
            connection.exec_driver_sql(f"DELETE FROM {table}")


def test_one_owner_until_its_lease_expires(repo: GameRepository) -> None:
    repo.create(vs_program("g1", FakeTime()))
    assert repo.take_lease("g1", 1, 100.0, 10.0) == (True, None)
    assert repo.take_lease("g1", 1, 105.0, 10.0) == (True, None)  # its own: renewed
    assert repo.take_lease("g1", 2, 114.0, 10.0) == (False, None)  # held until 115
    assert repo.take_lease("g1", 2, 115.5, 10.0) == (True, 1)  # expired: taken over from 1
    assert repo.renew_leases(1, 116.0, 10.0) == set()  # 1 has lost it
    assert repo.renew_leases(2, 116.0, 10.0) == {"g1"}
    assert repo.take_lease("g1", 1, 125.0, 10.0) == (False, None)  # renewed to 126
    assert repo.take_lease("nope", 1, 100.0, 10.0) == (False, None)  # no such game


def test_a_released_lease_is_free_at_once(repo: GameRepository) -> None:
    for name in ("g1", "g2"):
        repo.create(vs_program(name, FakeTime()))
        assert repo.take_lease(name, 1, 100.0, 60.0)[0]
    repo.release_leases(1, ["g1"])
    assert repo.take_lease("g1", 2, 101.0, 60.0) == (True, None)
    assert repo.take_lease("g2", 2, 101.0, 60.0) == (False, None)
    repo.release_leases(1)
    assert repo.take_lease("g2", 2, 101.0, 60.0) == (True, None)
    assert repo.delete("g2")
    assert repo.renew_leases(2, 102.0, 60.0) == {"g1"}


def test_orphans_are_dead_owners_games_and_unowned_program_games(
        repo: GameRepository) -> None:
    clock = FakeTime()
    program = vs_program("bot", clock)
    program.play(BLACK, "f5")  # the program is to move
    repo.create(program)
    repo.create(two_people("people"))
    repo.create(two_people("over"))
    assert repo.orphan_games(100.0) == ["bot"]  # nobody runs it
    assert repo.take_lease("bot", 1, 100.0, 10.0)[0]
    assert repo.take_lease("people", 1, 100.0, 10.0)[0]
    over = two_people("over")
    over.resign(BLACK)
    repo.append(over, 1)
    assert repo.orphan_games(105.0) == []  # all run by a live owner
    assert sorted(repo.orphan_games(111.0)) == ["bot", "people"]  # the owner died
    assert repo.orphan_games(111.0, limit=1) in (["bot"], ["people"])


def test_versions_tell_what_another_process_changed(repo: GameRepository) -> None:
    game = two_people("g1")
    code = hashlib.sha256(b"join").hexdigest()
    repo.create(game, secrets=[SeatSecret("join", code, (1,), None)])
    assert repo.versions(["g1", "gone"]) == {
        "g1": GameVersion(len(game.events), public=False, awaiting_join=True)}
    game.play(BLACK, "f5")
    repo.append(game, len(game.events) - 1)
    repo.set_public("g1", True)
    token = SeatSecret("token", hashlib.sha256(b"token").hexdigest(), (1,), "client")
    assert repo.use_join_code("g1", code, token) == (1,)
    assert repo.versions(["g1"]) == {
        "g1": GameVersion(len(game.events), public=True, awaiting_join=False)}
    assert repo.versions([]) == {}


def race(repo: GameRepository, name: str, runs: tuple[int, ...], now: float
         ) -> dict[int, tuple[bool, int | None]]:
    """``take_lease`` by each run at the same moment, each on a thread of its own."""
    start = threading.Barrier(len(runs))
    results: dict[int, tuple[bool, int | None]] = {}

    def take(run: int) -> None:
        start.wait()
        results[run] = repo.take_lease(name, run, now, 10.0)

    threads = [threading.Thread(target=take, args=(run,)) for run in runs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_of_two_processes_taking_an_expired_lease_together_one_gets_it(
        repo: GameRepository) -> None:
    for round_ in range(8):
        name = f"g{round_}"
        repo.create(vs_program(name, FakeTime()))
        if round_ % 2:  # an owner that then died; else nobody owned it yet
            assert repo.take_lease(name, 100, 0.0, 1.0)[0]
        results = race(repo, name, (1, 2), 50.0)
        assert sorted(taken for taken, _ in results.values()) == [False, True], results
        winner = next(run for run, (taken, _) in results.items() if taken)
        assert results[winner] == (True, 100 if round_ % 2 else None)
        assert repo.renew_leases(winner, 51.0, 10.0) >= {name}


# ---- outages: the times no process ran -------------------------------------------------------
def uncovered(runs: list[tuple[float, float]], since: float) -> list[tuple[float, float]]:
    """The obvious reference: cut time at every start and end; keep the pieces no run
    covers, from the last start at or before ``since`` on, that end where a run starts
    (two pieces either side of a run that lasted an instant stay two outages)."""
    starts = [s for s, _ in runs]
    begun = [s for s in starts if s <= since]
    first = max(begun) if begun else since
    points = sorted({p for run in runs for p in run if p >= first})
    gaps: list[tuple[float, float]] = []
    for p, q in itertools.pairwise(points):
        if any(s <= p and q <= e for s, e in runs):
            continue
        if gaps and gaps[-1][1] == p and not any(s <= p <= e for s, e in runs):
            gaps[-1] = (gaps[-1][0], q)
        else:
            gaps.append((p, q))
    return [(p, q) for p, q in gaps if q in starts]


@hsettings(max_examples=40)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 20), st.booleans()),
                min_size=1, max_size=6),
       st.integers(0, 60))
def test_outages_are_the_times_no_run_covered(
        db: Database, spans: list[tuple[int, int, bool]], since: int) -> None:
    repo = GameRepository(db)  # the module's database: each example empties the runs
    with db.engine.begin() as connection:
        connection.exec_driver_sql("DELETE FROM server_runs")
    runs = []
    for start, length, crashed in spans:
        run = repo.start_run(float(start))
        if crashed:
            repo.heartbeat(run, float(start + length))
        else:
            repo.stop_run(run, float(start + length))
        runs.append((float(start), float(start + length)))
    assert repo.outages_since(float(since)) == uncovered(runs, float(since))


def test_overlapping_runs_leave_no_outage(repo: GameRepository) -> None:
    long = repo.start_run(0.0)
    short = repo.start_run(10.0)
    repo.stop_run(short, 20.0)
    repo.heartbeat(long, 100.0)  # still alive: the other process covered 20-50
    later = repo.start_run(50.0)
    repo.stop_run(later, 60.0)
    assert repo.outages_since(30.0) == []
    repo.stop_run(long, 100.0)
    repo.start_run(150.0)
    assert repo.outages_since(30.0) == [(100.0, 150.0)]


# ---- PostgreSQL: changes announced ------------------------------------------------------------
def test_postgresql_announces_each_change_of_a_game(repo: GameRepository) -> None:
    if not repo.announces:
        pytest.skip("SQLite announces nothing: other processes poll versions()")
    heard: list[str] = []
    got = threading.Event()
    stopping = threading.Event()

    def hear(game_id: str) -> None:
        heard.append(game_id)
        got.set()

    listener = threading.Thread(target=repo.listen, args=(hear, stopping), daemon=True)
    listener.start()
    try:
        game = two_people("loud")
        repo.create(game)
        for _ in range(100):  # until the listener is listening: a change is heard
            game.play(BLACK if len(game.history) % 2 == 0 else BLACK.other,
                      sorted(str(m) for m in game.board.legal_moves)[0])
            repo.append(game, len(game.events) - 1)
            if got.wait(0.1):
                break
        assert "loud" in heard
        heard.clear()
        repo.set_public("loud", True)
        assert within(lambda: "loud" in heard)
    finally:
        stopping.set()
        listener.join(5)
    assert not listener.is_alive()


def within(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.02)
    return False
