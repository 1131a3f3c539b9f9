"""The web app's worker processes for CPU-heavy requests (:mod:`hasamigo.web.services.compute`):
results and the project's errors come back, a worker that dies fails its request with 503
``busy`` and the next request gets new workers, and stopping the app ends a computation
under way instead of waiting for it."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator

import pytest

from hasamigo.tournament.model import Settings as TournamentSettings
from hasamigo.tournament.model import TournamentError
from hasamigo.tournament.state import Tournament
from hasamigo.web.errors import Busy
from hasamigo.web.services.compute import ComputePool, plan_next_round


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
