"""Exact labels for the evaluation's training (``train-eval --label exact``): positions
solved exactly, checked against a plain negamax, kept in a cache that a second run reads
instead of solving, and refused when the cache is damaged."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.engine import training
from hasamigo.engine.training import (
    exact_candidates,
    exact_labels,
    load_exact_cache,
    samples_from_records,
    train,
)
from hasamigo.errors import ParseError
from hasamigo.notation.wthor import read_wthor
from tests import naive_search

WTHOR = Path(__file__).parent / "data" / "wthor"
NEAR_END = (8, 9)  # cheap to solve, and within reach of the plain negamax


def samples_1980() -> training.Samples:
    samples, _ = samples_from_records(read_wthor(WTHOR / "WTH_1980.wtb"))
    return samples


def test_candidates_are_spread_over_the_archive_and_within_the_empties() -> None:
    samples = samples_1980()
    every = exact_candidates(samples, None, NEAR_END)
    assert len(every) > 100
    assert set(samples.empties[every].tolist()) == {8, 9}
    some = exact_candidates(samples, 10, NEAR_END)
    assert len(some) == 10 and set(some.tolist()) <= set(every.tolist())
    assert some[0] == every[0] and some[-1] == every[-1]  # the first and last: spread


def test_exact_labels_are_the_negamax_scores_and_the_rest_stay(tmp_path: Path) -> None:
    samples = samples_1980()
    cache = tmp_path / "exact.npz"
    labelled, mask = exact_labels(samples, limit=12, cache=cache, empties=NEAR_END)
    assert mask.sum() == 12
    for i in np.flatnonzero(mask):
        p, o = int(samples.p[i]), int(samples.o[i])
        assert labelled.label[i] == naive_search.negamax(p, o)
    assert np.array_equal(labelled.label[~mask], samples.label[~mask])
    stored = load_exact_cache(cache)
    assert len(stored) == 12
    assert all(stored[(int(samples.p[i]), int(samples.o[i]))] == labelled.label[i]
               for i in np.flatnonzero(mask))


def test_a_second_run_reads_the_cache_and_solves_nothing(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    samples = samples_1980()
    cache = tmp_path / "exact.npz"
    first, _ = exact_labels(samples, limit=6, cache=cache, empties=NEAR_END)

    def no_solving(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved again")

    monkeypatch.setattr(training.Engine, "solve", no_solving)
    again, mask = exact_labels(samples, limit=6, cache=cache, empties=NEAR_END)
    assert np.array_equal(again.label, first.label) and mask.sum() == 6


def test_a_stopped_run_keeps_what_it_solved(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    samples = samples_1980()
    cache = tmp_path / "exact.npz"
    real = training.Engine.solve
    calls = {"n": 0}

    def stop_after_three(self: training.Engine, *args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(training.Engine, "solve", stop_after_three)
    with pytest.raises(KeyboardInterrupt):
        exact_labels(samples, limit=8, cache=cache, empties=NEAR_END)
    assert len(load_exact_cache(cache)) == 3


def test_a_damaged_cache_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "exact.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ParseError, match="not an exact-label cache"):
        load_exact_cache(bad)
    result = CliRunner().invoke(app, ["train-eval", str(WTHOR / "WTH_1980.wtb"), "--out",
                                      str(tmp_path / "w.npz"), "--label", "exact",
                                      "--exact-cache", str(bad)])
    assert result.exit_code == 2  # bad input
    assert "not an exact-label cache" in result.output
    wrong = CliRunner().invoke(app, ["train-eval", str(WTHOR / "WTH_1980.wtb"), "--label",
                                     "perfect"])
    assert wrong.exit_code == 2 and "--label must be" in wrong.output


@pytest.mark.parametrize("band, message", [
    ("12-16", "outside 14-24"),
    ("18-15", "LO is above HI"),
    ("20-30", "outside 14-24"),
    ("14-16-18", "must be LO-HI"),
    ("x", "must be LO-HI"),
])
def test_a_bad_empties_band_is_refused_before_any_work(band: str, message: str,
                                                        tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train-eval", str(WTHOR / "WTH_1980.wtb"), "--out",
                                      str(tmp_path / "w.npz"), "--label", "exact",
                                      "--exact-empties", band])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "w.npz").exists() and not (tmp_path / "w.exact.npz").exists()


def test_the_empties_band_chooses_which_positions_are_solved(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train-eval", str(WTHOR / "WTH_1980.wtb"), "--out",
                                      str(tmp_path / "w.npz"), "--label", "exact",
                                      "--exact-empties", "14-15", "--exact-limit", "6",
                                      "--iterations", "2", "--json"])
    assert result.exit_code == 0, result.output
    solved = load_exact_cache(tmp_path / "w.exact.npz")
    assert len(solved) == 6
    assert {64 - (p | o).bit_count() for p, o in solved} == {14, 15}


def test_the_report_reads_only_positions_with_exact_labels(tmp_path: Path) -> None:
    samples = samples_1980()
    labelled, mask = exact_labels(samples, limit=400, empties=NEAR_END)
    _, reports = train(labelled, holdout_every=5, iterations=5, test_among=mask)
    held = mask & (samples.game % 5 == 0)
    assert sum(r.test_positions for r in reports) == int(held.sum()) > 0
    assert all(r.test_positions == 0 for r in reports if r.empties[1] < 8
               or r.empties[0] > 9)


@pytest.mark.slow
def test_train_eval_with_exact_labels_from_the_command(tmp_path: Path) -> None:
    out = tmp_path / "v3.npz"
    result = CliRunner().invoke(app, ["train-eval", str(WTHOR / "WTH_1980.wtb"), "--out",
                                      str(out), "--label", "exact", "--exact-limit", "40",
                                      "--iterations", "5", "--holdout-every", "4", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["label"] == "exact" and report["exact_positions"] == 40
    assert report["stages"] and all(r["rmse_shipped"] is not None for r in report["stages"])
    assert {r["stage"] for r in report["stages"]} <= {3, 4, 5}
    assert len(load_exact_cache(tmp_path / "v3.exact.npz")) == 40
