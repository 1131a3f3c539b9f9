"""The jobs on a local Ray of two workers (``pytest -m ray``; needs ``hasamigo[cluster]``):
a 4-position solve, a 4-game self-play, and a worker killed mid-job with the job still
completing. The local-process versions of these tests are in ``test_jobs.py``."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hasamigo.engine import solve_obf_file
from hasamigo.jobs import JobError, LocalBackend, RayBackend, run_job
from hasamigo.jobs.selfplay import selfplay_job, xot_openings
from hasamigo.jobs.solve import solve_job

ray: Any = pytest.importorskip("ray", reason="Ray is not installed (hasamigo[cluster])")
pytestmark = pytest.mark.ray
DATA = Path(__file__).parent / "data"


def slow_double(x: int) -> int:
    time.sleep(0.5)
    return 2 * x


def exit_worker(x: int) -> int:
    sys.exit(1)  # the actor's process ends: a dead worker, every time


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    from ray import cloudpickle

    # The workers cannot import this test module: its functions travel by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture
def ffo4(tmp_path: Path) -> Path:
    path = tmp_path / "ffo4.obf"
    lines = (DATA / "ffo" / "fforum-1-19.obf").read_text().splitlines()[:4]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_killed_actor_s_task_is_run_again_on_a_new_one() -> None:
    backend = RayBackend(2)
    killed: list[int] = []

    def kill_one(_key: str, _result: object) -> None:
        if not killed:
            killed.append(1)
            ray.kill(backend.actors[0])

    tasks = {str(i): i for i in range(6)}
    try:
        out = run_job(tasks, slow_double, backend=backend, on_result=kill_one)
    finally:
        backend.close()
    assert out == {str(i): 2 * i for i in range(6)}
    assert killed and backend.retried >= 1


def test_a_task_whose_actors_keep_dying_is_named() -> None:
    backend = RayBackend(2, retries=1)
    try:
        with pytest.raises(JobError, match="task 1: its worker died 2 times"):
            run_job({"1": 1}, exit_worker, backend=backend)
    finally:
        backend.close()


def test_solve_on_two_actors_with_one_killed(ffo4: Path, tmp_path: Path) -> None:
    one = solve_obf_file(ffo4, table_size=1 << 16)
    backend = RayBackend(2)
    seen: list[dict[str, Any]] = []

    def kill_after_first(row: dict[str, Any]) -> None:
        seen.append(row)
        if len(seen) == 1:
            ray.kill(backend.actors[0])

    try:
        two = solve_job(ffo4, backend=backend, table_size=1 << 16,
                        journal=tmp_path / "rows.jsonl", on_result=kill_after_first)
    finally:
        backend.close()
    keys = ("index", "move", "score", "ok", "nodes")
    assert [[r[k] for k in keys] for r in two["positions"]] == [
        [r[k] for k in keys] for r in one["positions"]]
    assert two["all_ok"] and len(seen) == 4


def test_selfplay_on_two_actors_with_one_killed_plays_the_local_games(tmp_path: Path) -> None:
    book = xot_openings()
    local = selfplay_job(1, 4, backend=LocalBackend(1), seed=2, openings=book)
    backend = RayBackend(2)
    count: list[int] = []

    def kill_after_first(_row: dict[str, Any]) -> None:
        count.append(1)
        if len(count) == 1:
            ray.kill(backend.actors[0])

    try:
        games = selfplay_job(1, 4, backend=backend, seed=2, openings=book,
                             journal=tmp_path / "g.jsonl", on_result=kill_after_first)
    finally:
        backend.close()
    assert [g.moves for g in games] == [g.moves for g in local]
    assert len(count) == 4
