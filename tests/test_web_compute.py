"""The web app's worker processes for CPU-heavy requests (:mod:`hasamigo.web.services.compute`):
results and the project's errors come back, a worker that dies fails its request with 503
``busy`` and the next request gets new workers, and stopping the app ends a computation
under way instead of waiting for it. A pool started ahead of its first request has its
workers prepared (the report's modules loaded), and a worker ends with its parent."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hasamigo.study.records import StudyData
from hasamigo.tournament.model import Settings as TournamentSettings
from hasamigo.tournament.model import TournamentError
from hasamigo.tournament.state import Tournament
from hasamigo.web.errors import Busy
from hasamigo.web.services.compute import ComputePool
from hasamigo.web.services.study import REPORT_MODULES, prepare_report, render_report
from hasamigo.web.services.tournaments import plan_next_round


@pytest.fixture
def pool() -> Iterator[ComputePool]:
    pool = ComputePool(1)
    yield pool
    pool.close()


def test_results_and_errors_come_back(pool: ComputePool) -> None:
    assert pool.call(abs, -3) == 3
    assert asyncio.run(pool.run(divmod, 7, 2)) == (3, 1)
    assert pool.call(os.getpid) != os.getpid()  # another process
    t = Tournament(TournamentSettings("swiss", rounds=3))
    for name in ("Ann", "Ben", "Cid", "Dee"):
        t.register(name)
    pairings = pool.call(plan_next_round, t)
    assert [p.round for p in pairings] == [1, 1] and t.rounds_paired == 0  # a copy paired
    assert t.pair_next_round() == pairings  # as in this process
    with pytest.raises(TournamentError, match="round 1 is not complete") as refused:
        pool.call(plan_next_round, t)
    assert refused.value.code == "tournament"


def test_a_dead_worker_is_503_busy_and_the_next_request_gets_a_new_one(
        pool: ComputePool) -> None:
    with pytest.raises(Busy):
        pool.call(os._exit, 1)
    assert pool.call(abs, -1) == 1


def test_closing_ends_a_computation_under_way(pool: ComputePool) -> None:
    assert pool.call(abs, 0) == 0  # the worker is up
    outcome: list[BaseException | None] = []

    def wait_long() -> None:
        try:
            pool.call(time.sleep, 120)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=wait_long)
    thread.start()
    time.sleep(0.5)
    begun = time.monotonic()
    pool.close()
    thread.join(60)
    assert time.monotonic() - begun < 60 and isinstance(outcome[0], Busy)
    with pytest.raises(Busy, match="stopping"):
        pool.call(abs, 1)


def loaded(names: tuple[str, ...]) -> list[str]:
    """Which of the modules ``names`` this process has imported (run in a worker)."""
    return [name for name in names if name in sys.modules]


def test_a_started_pool_has_the_reports_modules_loaded_before_any_report() -> None:
    cold = ComputePool(1)
    try:
        assert "matplotlib.figure" not in cold.call(loaded, REPORT_MODULES)
    finally:
        cold.close()
    pool = ComputePool(2, prepare=prepare_report)
    try:
        pool.start()
        assert list(pool.call(loaded, REPORT_MODULES)) == list(REPORT_MODULES)
        assert len(pool.pids()) == 2  # both started, not only the one asked
        # below the server's priority (lowered by the server as they started)
        assert all(os.getpriority(os.PRIO_PROCESS, pid) >= 10 for pid in pool.pids())
        assert "<html" in pool.call(render_report, StudyData(), "Empty", "en").lower()
    finally:
        pool.close()
    assert pool.pids() == []


def test_a_worker_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    """A process with a started pool, killed by SIGKILL: its worker does not outlive it."""
    script = tmp_path / "parent.py"
    script.write_text(
        "from hasamigo.web.services.compute import ComputePool\n"
        "if __name__ == '__main__':\n"
        "    pool = ComputePool(1)\n"
        "    pool.start()\n"
        "    pool.call(abs, 1)\n"
        "    print(*pool.pids(), flush=True)\n"
        "    import time; time.sleep(600)\n")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert parent.stdout is not None
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert workers and all(_alive(pid) for pid in workers)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 60
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its new parent to reap it has ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError):
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return True
