"""``train-eval --label exact`` on several workers (:mod:`hasamigo.jobs.exact`): the same
labels and weights as one process, the cache as the journal (a stopped run keeps what
it solved, a rerun solves only the rest), bad input refused. On Ray:
``test_jobs_ray.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.engine import training
from hasamigo.engine.evaluation import load_weights
from hasamigo.engine.training import (
    exact_candidates,
    exact_keys,
    exact_labels,
    load_exact_cache,
    samples_from_records,
    save_exact_cache,
)
from hasamigo.errors import ParseError
from hasamigo.jobs import LocalBackend
from hasamigo.jobs import exact as exact_jobs
from hasamigo.jobs.exact import exact_chunks, exact_job
from hasamigo.notation.wthor import read_wthor

ARCHIVE = Path(__file__).parent / "data" / "wthor" / "WTH_1980.wtb"
NEAR_END = (8, 9)  # cheap to solve
runner = CliRunner()


@pytest.fixture(scope="module")
def samples() -> training.Samples:
    found, _ = samples_from_records(read_wthor(ARCHIVE))
    return found


class Counted:
    """:func:`~hasamigo.engine.training.exact_score` that counts its calls and, given
    ``stop_after``, stops the job (as Ctrl-C would) at the call after that many."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.calls: list[tuple[int, int]] = []
        self.stop_after = stop_after

    def __call__(self, engine: object, p: int, o: int) -> int:
        if self.stop_after is not None and len(self.calls) >= self.stop_after:
            raise KeyboardInterrupt
        self.calls.append((p, o))
        return training.exact_score(engine, p, o)  # type: ignore[arg-type]


def test_chunks_hold_each_unsolved_position_once() -> None:
    keys = [(1, 2), (3, 4), (1, 2), (5, 6), (7, 8), (9, 10)]
    tasks = exact_chunks(keys, {(3, 4): 1}, chunk=2, table_size=16)
    assert list(tasks) == ["1", "2"]
    assert [positions for positions, _ in tasks.values()] == [((1, 2), (5, 6)),
                                                              ((7, 8), (9, 10))]
    assert all(size == 16 for _, size in tasks.values())
    assert exact_chunks(keys, dict.fromkeys(keys, 0)) == {}
    with pytest.raises(ValueError, match="chunk must be at least 1"):
        exact_chunks(keys, {}, chunk=0)


def test_two_workers_give_the_labels_of_one_process(samples: training.Samples,
                                                    tmp_path: Path) -> None:
    one, one_mask = exact_labels(samples, limit=12, cache=tmp_path / "one.npz",
                                 empties=NEAR_END)
    two, two_mask = exact_job(samples, backend=LocalBackend(2), limit=12,
                              cache=tmp_path / "two.npz", empties=NEAR_END, chunk=5)
    assert two_mask.sum() == 12 and np.array_equal(two_mask, one_mask)
    assert np.array_equal(two.label, one.label)
    assert not np.array_equal(two.label, samples.label)  # the exact scores differ somewhere
    assert load_exact_cache(tmp_path / "two.npz") == load_exact_cache(tmp_path / "one.npz")


def test_a_rerun_solves_only_what_the_cache_lacks(samples: training.Samples, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    keys = exact_keys(samples, exact_candidates(samples, 10, NEAR_END))
    reference, _ = exact_labels(samples, limit=10, empties=NEAR_END)
    cache = tmp_path / "exact.npz"
    first = keys[:4]
    save_exact_cache(cache, {key: int(reference.label[i]) for key, i in zip(
        keys, exact_candidates(samples, 10, NEAR_END), strict=True) if key in first})
    counted = Counted()
    monkeypatch.setattr(exact_jobs, "exact_score", counted)
    labelled, _ = exact_job(samples, backend=LocalBackend(1), limit=10, cache=cache,
                            empties=NEAR_END, chunk=3)
    assert counted.calls == [key for key in dict.fromkeys(keys) if key not in first]
    assert np.array_equal(labelled.label, reference.label)
    assert set(load_exact_cache(cache)) == set(keys)
    counted.calls.clear()
    exact_job(samples, backend=LocalBackend(1), limit=10, cache=cache, empties=NEAR_END)
    assert counted.calls == []  # all in the cache: nothing solved twice


def test_a_stopped_job_keeps_the_chunks_it_finished(samples: training.Samples,
                                                    tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "exact.npz"
    monkeypatch.setattr(exact_jobs, "exact_score", Counted(stop_after=5))
    with pytest.raises(KeyboardInterrupt):
        exact_job(samples, backend=LocalBackend(1), limit=10, cache=cache,
                  empties=NEAR_END, chunk=2)
    kept = load_exact_cache(cache)
    assert len(kept) == 4  # two whole chunks; the third was cut short
    again = Counted()
    monkeypatch.setattr(exact_jobs, "exact_score", again)
    exact_job(samples, backend=LocalBackend(1), limit=10, cache=cache, empties=NEAR_END)
    keys = set(exact_keys(samples, exact_candidates(samples, 10, NEAR_END)))
    assert set(again.calls) == keys - set(kept) and len(again.calls) == len(keys) - 4


def test_a_damaged_cache_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "exact.npz"
    bad.write_bytes(b"not a zip")
    empty = training.Samples(*(np.zeros(0, dtype=np.uint64) for _ in range(2)),
                             *(np.zeros(0, dtype=np.int64) for _ in range(3)))
    with pytest.raises(ParseError, match="not an exact-label cache"):
        exact_job(empty, backend=LocalBackend(2), cache=bad)


def test_train_eval_on_two_workers_writes_the_weights_of_one(tmp_path: Path) -> None:
    args = ["train-eval", str(ARCHIVE), "--label", "exact", "--exact-limit", "4",
            "--iterations", "2", "--holdout-every", "4", "--json"]
    one = runner.invoke(app, [*args, "--out", str(tmp_path / "one.npz")])
    assert one.exit_code == 0, one.output
    two = runner.invoke(app, [*args, "--out", str(tmp_path / "two.npz"), "--workers", "2"])
    assert two.exit_code == 0, two.output
    assert two.stdout.replace("two.npz", "one.npz") == one.stdout
    assert np.array_equal(load_weights(tmp_path / "two.npz"),
                          load_weights(tmp_path / "one.npz"))
    assert load_exact_cache(tmp_path / "two.exact.npz") == load_exact_cache(
        tmp_path / "one.exact.npz")
    assert len(load_exact_cache(tmp_path / "two.exact.npz")) == 4


@pytest.mark.parametrize("args, message", [
    (["--label", "exact", "--workers", "0"], "--workers"),
    (["--workers", "2"], "give --label exact"),
    (["--label", "result", "--ray"], "give --label exact"),
])
def test_train_eval_refuses_bad_worker_options(args: list[str], message: str,
                                               tmp_path: Path) -> None:
    archive = tmp_path / "none.wtb"
    archive.write_bytes(b"")
    result = runner.invoke(app, ["train-eval", str(archive), "--out",
                                 str(tmp_path / "w.npz"), *args])
    assert result.exit_code == 2
    assert message in result.stderr


def test_train_eval_on_ray_without_the_extra_says_how_to_install_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    result = runner.invoke(app, ["train-eval", str(ARCHIVE), "--out",
                                 str(tmp_path / "w.npz"), "--label", "exact",
                                 "--ray-address", "auto"])
    assert result.exit_code == 2
    assert "pip install 'hasamigo[cluster]'" in result.stderr
    assert not (tmp_path / "w.npz").exists()
