"""What lets several server processes share one database (issue 20): leases (one owner a
game, taken over once expired, atomically), games' versions, outages as the times no
process ran, and the announcements of changes (PostgreSQL's ``NOTIFY``, a SQLite file's
datagrams).

SQLite; PostgreSQL too when ``HASAMIGO_TEST_POSTGRES`` holds a URL."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from test_storage import FakeTime, two_people, vs_program
from test_storage_migration import BACKENDS, scratch_url

from hasamigo import BLACK
from hasamigo.storage import Database, GameRepository, announcements
from hasamigo.storage.repository import ConcurrentWrite, GameVersion, SeatSecret


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


# ---- changes announced ---------------------------------------------------------------------
def test_each_change_of_a_game_is_announced(repo: GameRepository) -> None:
    assert repo.announces  # PostgreSQL, and a SQLite file on Linux
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


# ---- a SQLite file's announcements ---------------------------------------------------------
@pytest.fixture
def sqlite_pair(tmp_path: Path) -> Iterator[tuple[GameRepository, GameRepository]]:
    """Two database objects on one SQLite file, as two server processes hold."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first, second = Database(url), Database(url)
    first.open()
    yield GameRepository(first), GameRepository(second)
    first.close()
    second.close()


class Ears:
    """A listener on a thread of its own, and what it heard."""

    def __init__(self, repo: GameRepository, *, own: bool = True) -> None:
        self.heard: list[str] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=repo.listen, args=(self.heard.append,
                                                                  self.stopping),
                                       kwargs={"own": own}, daemon=True)
        channel = announcements._local_channel(repo.db.engine.url)
        before = taken(channel)
        self.thread.start()
        # listening once its slot is bound (what is sent before is not heard)
        assert channel is None or within(lambda: taken(channel) > before)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        assert not self.thread.is_alive()


def taken(channel: announcements._LocalChannel | None) -> int:
    """How many of the channel's slots a listener holds now."""
    held = 0
    for name in channel.names if channel is not None else ():
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as probe:
            try:
                probe.bind(name)
            except OSError:
                held += 1
    return held


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's abstract sockets")
def test_a_sqlite_change_is_heard_by_the_other_process_only_once_committed(
        sqlite_pair: tuple[GameRepository, GameRepository]) -> None:
    writer, reader = sqlite_pair
    assert GameRepository(Database("sqlite://")).announces is False  # in memory: alone
    ears = Ears(reader)
    try:
        game = two_people("quiet")
        writer.create(game)
        game.play(BLACK, sorted(str(m) for m in game.board.legal_moves)[0])
        writer.append(game, len(game.events) - 1)
        assert within(lambda: ears.heard == ["quiet"])
        ears.heard.clear()
        game.play(BLACK.other, sorted(str(m) for m in game.board.legal_moves)[0])
        with pytest.raises(ConcurrentWrite):
            writer.append(game, len(game.events) - 2)  # stale: rolled back, not announced
        writer.set_public("quiet", True)
        assert within(lambda: ears.heard == ["quiet"])
        time.sleep(0.2)
        assert ears.heard == ["quiet"]
        # what is not a game's id is dropped
        channel = announcements._local_channel(writer.db.engine.url)
        assert channel is not None
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as rogue:
            for name in channel.names:
                with contextlib.suppress(OSError):
                    rogue.sendto(b"x" * 200 + b"\xff'; drop", name)
        writer.set_public("quiet", False)
        assert within(lambda: ears.heard == ["quiet", "quiet"])
    finally:
        ears.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's abstract sockets")
def test_a_sqlite_change_made_by_another_process_is_heard(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'two.db'}"
    db = Database(url)
    db.open()
    repo = GameRepository(db)
    repo.create(two_people("far"))
    ears = Ears(repo)
    try:
        script = ("import sys; from hasamigo.storage import Database, GameRepository; "
                  "GameRepository(Database(sys.argv[1])).set_public('far', True)")
        subprocess.run([sys.executable, "-c", script, url], check=True, timeout=60)
        assert within(lambda: "far" in ears.heard)
    finally:
        ears.stop()
        db.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's abstract sockets")
def test_with_every_slot_taken_a_listener_returns_and_its_caller_polls(
        sqlite_pair: tuple[GameRepository, GameRepository]) -> None:
    _, reader = sqlite_pair
    channel = announcements._local_channel(reader.db.engine.url)
    assert channel is not None
    taken = []
    try:
        while (sock := channel.bind()) is not None:
            taken.append(sock)
        assert len(taken) == announcements.LOCAL_SLOTS
        done = threading.Thread(target=reader.listen, args=(print, threading.Event()))
        done.start()
        done.join(5)
        assert not done.is_alive()
    finally:
        for sock in taken:
            sock.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's abstract sockets")
def test_a_group_commit_announces_its_games_once_all_is_committed(
        sqlite_pair: tuple[GameRepository, GameRepository],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game of a group commit is in a savepoint of its own, whose release is no
    commit: an announcement sent then would be read, by the other process, before the
    change is there. One game refused leaves the others announced."""
    writer, reader = sqlite_pair
    good, bad = two_people("good"), two_people("bad")
    for game in (good, bad):
        writer.create(game)
        game.play(BLACK, sorted(str(m) for m in game.board.legal_moves)[0])
    seen: dict[str, int] = {}
    real_send = announcements._LocalChannel.send

    def send(channel: announcements._LocalChannel, game_id: str, sender: str) -> None:
        # what another process reads when the announcement goes out
        seen[game_id] = reader.versions([game_id])[game_id].event_count
        real_send(channel, game_id, sender)

    monkeypatch.setattr(announcements._LocalChannel, "send", send)
    out = writer.append_many([(good, len(good.events) - 1), (bad, len(bad.events) - 2)])
    assert out[0] == len(good.events) and isinstance(out[1], ConcurrentWrite)
    assert seen.get("good") == len(good.events)  # sent, and after the commit
    if "bad" in seen:  # announced or not, nothing of it was stored
        assert seen["bad"] == len(bad.events) - 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's abstract sockets")
def test_a_server_need_not_hear_its_own_changes(
        sqlite_pair: tuple[GameRepository, GameRepository]) -> None:
    """A server process listens with ``own=False``: what it committed through its own
    database object it knows; another's, in the same process too, it hears."""
    other, mine = sqlite_pair
    ears = Ears(mine, own=False)
    try:
        for repo in (mine, other):
            repo.create(two_people(f"by-{id(repo)}"))
        mine.set_public(f"by-{id(mine)}", True)
        other.set_public(f"by-{id(other)}", True)
        assert within(lambda: ears.heard == [f"by-{id(other)}"])
        time.sleep(0.2)
        assert ears.heard == [f"by-{id(other)}"]
    finally:
        ears.stop()
