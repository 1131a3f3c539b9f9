"""The jobs on a local Ray of two workers (``pytest -m ray``; needs ``hasamigo[cluster]``):
a 4-position solve, a 4-game self-play, and a worker killed mid-job with the job still
completing; a match and exact labels that equal the one-process run. The local-process
versions of these tests are in ``test_jobs.py``, ``test_jobs_match.py`` and
``test_jobs_exact.py``."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hasamigo.engine import solve_obf_file
from hasamigo.jobs import JobError, LocalBackend, RayBackend, run_job
from hasamigo.jobs.exact import exact_job
from hasamigo.jobs.games import match_player
from hasamigo.jobs.selfplay import selfplay_job
from hasamigo.jobs.solve import solve_job
from hasamigo.player_spec import PlayerSpec
from hasamigo.tournament.match import read_openings, run_match

GREEDY, VICTORY = PlayerSpec("greedy"), PlayerSpec("victory")

ray: Any = pytest.importorskip("ray", reason="Ray is not installed (hasamigo[cluster])")
pytestmark = pytest.mark.ray
DATA = Path(__file__).parent / "data"
WTHOR = DATA / "wthor" / "WTH_1980.wtb"


def slow_double(x: int) -> int:
    time.sleep(0.5)
    return 2 * x


def exit_worker(x: int) -> int:
    sys.exit(1)  # the actor's process ends: a dead worker, every time


class Lost(Exception):
    """An error of the work that carries what the caller needs (as a game aborted by a
    failing engine carries its moves)."""

    def __init__(self, moves: list[str]) -> None:
        super().__init__(f"lost after {len(moves)} moves")
        self.moves = moves

    def __reduce__(self) -> tuple[object, ...]:
        return (Lost, (self.moves,))


def lose(x: int) -> int:
    raise Lost(["f5", "d6", "c3"][:x])


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    from ray import cloudpickle

    # The workers cannot import this test module: its functions travel by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


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
    book = read_openings(DATA / "xot-sample.txt")  # 12 of the XOT list
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


def test_a_match_on_two_actors_with_one_killed_plays_the_sequential_games(
        tmp_path: Path) -> None:
    alone = run_match(GREEDY, VICTORY, 4, seed=9, random_plies=4)
    backend = RayBackend(2)
    count: list[int] = []

    def kill_after_first(_result: object) -> None:
        count.append(1)
        if len(count) == 1:
            ray.kill(backend.actors[0])

    try:
        shared = run_match(GREEDY, VICTORY, 4, seed=9, random_plies=4,
                           on_result=kill_after_first,
                           play=match_player(backend, journal=tmp_path / "m.jsonl"))
    finally:
        backend.close()
    assert shared.results == alone.results and len(count) == 4


def test_exact_labels_on_two_actors_are_those_of_one_process(tmp_path: Path) -> None:
    import numpy as np

    from hasamigo.engine.training import exact_labels, samples_from_records
    from hasamigo.notation.wthor import read_wthor

    samples, _ = samples_from_records(read_wthor(WTHOR))
    one, one_mask = exact_labels(samples, limit=8, empties=(8, 9))
    backend = RayBackend(2)
    try:
        two, two_mask = exact_job(samples, backend=backend, limit=8, empties=(8, 9),
                                  chunk=3, cache=tmp_path / "exact.npz")
    finally:
        backend.close()
    assert np.array_equal(two.label, one.label) and np.array_equal(two_mask, one_mask)


def test_an_error_of_the_work_reaches_the_caller_as_itself() -> None:
    """Not as Ray's wrapper: its class and its attributes, as on local processes."""
    backend = RayBackend(2)
    try:
        with pytest.raises(Lost) as caught:
            run_job({"1": 2}, lose, backend=backend)
    finally:
        backend.close()
    assert type(caught.value) is Lost and caught.value.moves == ["f5", "d6"]
    assert backend.retried == 0  # not a dead worker: not run again
