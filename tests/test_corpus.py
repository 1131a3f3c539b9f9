"""``hasamigo corpus`` (:mod:`hasamigo.jobs.corpus`, :mod:`hasamigo.engine.corpus`): a
build on two workers, the same after kill -9 and a rerun; exact labels against the slow
reference; one position per symmetry class; a damaged shard refused by name while the
others read; the fit on a tiny corpus."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import hasamigo.jobs.corpus as corpus_jobs
from hasamigo.cli import app
from hasamigo.engine.corpus import (
    EXACT_DEPTH,
    CorpusError,
    Positions,
    holdout_bucket,
    keys_of,
    load_manifest,
    read_corpus,
    read_shard,
    save_manifest,
    sha256_of,
    unique_by_key,
    write_npz,
)
from hasamigo.engine.evaluation import load_weights, weights_path
from hasamigo.engine.symmetry import image
from hasamigo.engine.training import position_board
from hasamigo.errors import InvalidOptionError
from hasamigo.jobs import LocalBackend
from hasamigo.jobs.corpus import BuildSpec, build_corpus, check_label, check_source
from tests.naive import BLACK_DISC, cells_from_masks, negamax

ARCHIVE = Path(__file__).parent / "data" / "wthor" / "WTH_1980.wtb"
ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

SMALL = BuildSpec("selfplay", (6, 8), 24, "exact", seed=3, shard=6)


def _rows(directory: Path) -> list[tuple[int, int, int, int, int]]:
    """The corpus's positions, whatever their order: (p, o, empties, score, depth)."""
    pos = read_corpus(directory).positions
    return sorted(zip(pos.p.tolist(), pos.o.tolist(), pos.empties.tolist(),
                      pos.score.tolist(), pos.depth.tolist(), strict=True))


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A corpus of self-play positions at 6-8 empties, built on two workers."""
    directory = tmp_path_factory.mktemp("corpus") / "small"
    report = build_corpus(directory, SMALL, backend=LocalBackend(2))
    assert (report.planned, report.labelled, report.resumed) == (24, 24, 0)
    return directory


def test_two_workers_label_exactly(small: Path) -> None:
    rows = _rows(small)
    assert len(rows) == 24
    manifest = load_manifest(small)
    assert [s["positions"] for s in manifest.shards] == [6, 6, 6, 6]
    assert list(manifest.builds) == [SMALL.id]
    assert all(6 <= r[2] <= 8 and r[4] == EXACT_DEPTH for r in rows)
    checked = [r for r in rows if r[2] <= 7]  # the slow reference is quick up to 7 empties
    assert len(checked) >= 8
    for p, o, _empties, score, _depth in checked:
        # the side to move as Black: the slow reference's perfect-play score
        cells = cells_from_masks(p, o, (1 << 64) - 1)
        assert score == negamax(cells, BLACK_DISC), (p, o)
    keys = keys_of(np.array([r[0] for r in rows], dtype=np.uint64),
                   np.array([r[1] for r in rows], dtype=np.uint64))
    assert len({tuple(k) for k in keys.tolist()}) == 24  # no position twice, turned or not


def test_a_rerun_labels_nothing(small: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(small, copy)
    report = build_corpus(copy, SMALL, backend=LocalBackend(1))
    assert (report.labelled, report.resumed, report.remade) == (0, 24, [])
    assert _rows(copy) == _rows(small)


def test_deep_labels_from_a_search(tmp_path: Path) -> None:
    spec = BuildSpec("selfplay", (12, 13), 6, "deep:2", seed=1, shard=6)
    build_corpus(tmp_path / "deep", spec, backend=LocalBackend(1))
    rows = _rows(tmp_path / "deep")
    assert len(rows) == 6 and all(r[4] == 2 for r in rows)


def test_trees_give_searched_positions_of_the_band() -> None:
    task = (7, 0, 2, 10, 12)
    found = corpus_jobs.trees_task(task)
    assert found == corpus_jobs.trees_task(task)  # seeded: the same on any worker
    assert 0 < len(found) <= 2 * corpus_jobs.TREE_PER_ROOT
    for p, o in found:
        assert not p & o and 10 <= 64 - (p | o).bit_count() <= 12
        assert not position_board(p, o).is_game_over()


def _kill_mid_build(directory: Path) -> int:
    """Start a build in a process, SIGKILL it once its first shard is in the manifest;
    the shards it had finished."""
    cmd = [sys.executable, "-m", "hasamigo", "corpus", "build", str(directory),
           "--source", "wthor:" + str(ARCHIVE), "--empties", "14-16", "--count", "60",
           "--shard", "4", "--seed", "5", "--json"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if (directory / "corpus.json").exists() and load_manifest(directory).shards:
                break
            assert proc.poll() is None, "the build ended before it could be killed"
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    return len(load_manifest(directory).shards)


def test_killed_build_resumes_to_the_same_corpus(tmp_path: Path) -> None:
    killed = tmp_path / "killed"
    finished = _kill_mid_build(killed)
    assert 1 <= finished < 15
    result = runner.invoke(app, ["corpus", "build", str(killed), "--source",
                                 "wthor:" + str(ARCHIVE), "--empties", "14-16", "--count",
                                 "60", "--shard", "4", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["resumed"] >= 4 * finished - 4 and out["resumed"] + out["labelled"] == 60
    whole = tmp_path / "whole"
    spec = BuildSpec("wthor:" + str(ARCHIVE), (14, 16), 60, "exact", seed=5, shard=4)
    build_corpus(whole, spec, backend=LocalBackend(2))
    assert _rows(killed) == _rows(whole)
    assert len(load_manifest(killed).shards) == 15
    assert not list(killed.glob(".*.tmp"))  # no half-written file left behind


def _damage(directory: Path, how: str) -> Path:
    manifest = load_manifest(directory)
    line = manifest.shards[1]
    path = directory / line["file"]
    if how == "truncated":
        path.write_bytes(path.read_bytes()[:-100])
    elif how == "checksum":
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    elif how == "arrays":  # a well-made file with a wrong array, vouched for by the manifest
        pos = read_shard(path)
        arrays = pos.arrays()
        arrays["score"] = arrays["score"].astype(np.int16)
        write_npz(path, arrays)
        line["bytes"], line["sha256"] = path.stat().st_size, sha256_of(path)
        save_manifest(directory, manifest)
    return path


@pytest.mark.parametrize(("how", "says"), [("truncated", "bytes where the manifest says"),
                                           ("checksum", "checksum"),
                                           ("arrays", "array 'score' is int16")])
def test_a_damaged_shard_is_refused_by_name(small: Path, tmp_path: Path, how: str,
                                            says: str) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(small, copy)
    bad = _damage(copy, how)
    with pytest.raises(CorpusError) as caught:
        read_corpus(copy)
    assert str(bad) in str(caught.value) and says in str(caught.value)
    got = read_corpus(copy, skip_damaged=True)  # the other shards still read
    assert len(got.positions) == 18 and got.shards == 3 and len(got.damaged) == 1
    info = runner.invoke(app, ["corpus", "info", str(copy), "--json"])
    assert info.exit_code == 1
    assert json.loads(info.stdout)["damaged"] == 1
    refused = runner.invoke(app, ["corpus", "read", str(copy)])
    assert refused.exit_code == 2 and bad.name in refused.output
    # a rerun of the build makes the damaged shard again, and only it
    report = build_corpus(copy, SMALL, backend=LocalBackend(1))
    assert report.remade == [bad.name] and report.labelled == 6
    assert _rows(copy) == _rows(small)


def test_a_truncated_manifest_is_refused(small: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(small, copy)
    text = (copy / "corpus.json").read_text()
    (copy / "corpus.json").write_text(text[: len(text) // 2])
    with pytest.raises(CorpusError, match=r"corpus\.json: not a corpus manifest"):
        read_corpus(copy)


def test_symmetric_duplicates_are_one_position(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    p = np.array([0x0000000810000000 | 0x1, 0x0000001008000000], dtype=np.uint64)
    o = np.array([0x0000001008000000, 0x0000000810000000 | 0x1 << 9], dtype=np.uint64)
    turned_p = np.concatenate([image(p[:1], k) for k in range(8)] + [p[1:]])
    turned_o = np.concatenate([image(o[:1], k) for k in range(8)] + [o[1:]])
    assert unique_by_key(turned_p, turned_o).tolist() == [0, 8]
    assert len(set(holdout_bucket(turned_p[:8], turned_o[:8]).tolist())) == 1
    monkeypatch.setattr(corpus_jobs, "_candidates",
                        lambda *_args: (turned_p.copy(), turned_o.copy()))
    spec = BuildSpec("selfplay", (1, 60), 10, "deep:1", shard=5)
    report = build_corpus(tmp_path / "dup", spec, backend=LocalBackend(1))
    assert report.planned == 2
    # a second build of the same corpus adds none of the positions it holds
    other = BuildSpec("trees", (1, 60), 10, "deep:1", shard=5)
    assert build_corpus(tmp_path / "dup", other, backend=LocalBackend(1)).planned == 0
    assert len(read_corpus(tmp_path / "dup").positions) == 2


def test_bad_options_are_refused(tmp_path: Path) -> None:
    for bad in ("wthor:" + str(tmp_path / "none.wtb"), "books", "selfplay:x"):
        with pytest.raises(InvalidOptionError):
            check_source(bad)
    for bad in ("deep", "deep:0", "deep:99", "perfect"):
        with pytest.raises(InvalidOptionError):
            check_label(bad)
    result = runner.invoke(app, ["corpus", "build", str(tmp_path / "c"), "--source",
                                 "selfplay", "--empties", "30-20"])
    assert result.exit_code == 2 and "empties" in result.output
    result = runner.invoke(app, ["corpus", "info", str(tmp_path)])
    assert result.exit_code == 2
    assert not Positions.empty().p.size


def test_train_on_a_tiny_corpus(small: Path, tmp_path: Path) -> None:
    out = tmp_path / "eval.npz"
    result = runner.invoke(app, ["corpus", "train", str(small), "--out", str(out),
                                 "--holdout-every", "3", "--iterations", "10", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    held = report["heldout"]
    assert report["positions"] == 24 and held["n"] + report["train_positions"] == 24
    assert held["n"] == int((holdout_bucket(*_pq(small)) % 3 == 0).sum())
    assert held["fitted"]["mae"] >= 0 and held["eval_v2"]["mae"] >= 0
    # the stages the corpus does not reach (6-8 empties: stage 1) keep eval-v2's weights
    fitted, shipped = load_weights(out), load_weights(weights_path())
    assert np.array_equal(fitted[10], shipped[10]) and not np.array_equal(fitted[1], shipped[1])
    # the fitted evaluation scores a position and its 8 images under the board's symmetries
    # alike (mirror images' table entries are tied in the fit)
    from hasamigo._kernels.bits import FULL
    from hasamigo._kernels.fitting import evaluate_all
    from hasamigo.engine.evaluation import params_from_weights

    params = params_from_weights(fitted)
    p, o = _pq(small)
    scores = [evaluate_all(image(p, k), image(o, k), FULL, params) for k in range(8)]
    assert all(np.array_equal(scores[0], other) for other in scores[1:])
    assert len(set(scores[0].tolist())) > 1
    text = runner.invoke(app, ["corpus", "train", str(small), "--out", str(out),
                               "--holdout-every", "3", "--iterations", "10"])
    assert text.exit_code == 0 and "eval-v2" in text.stdout


def test_train_on_some_empties_measures_the_others(small: Path, tmp_path: Path) -> None:
    """--train-empties fits on that band and holds out every other position;
    --heldout-empties reports only the held-out positions of its band."""
    pos = read_corpus(small).positions
    empties = pos.empties.astype(int)
    by_hash = holdout_bucket(pos.p, pos.o) % 3 == 0
    outside = (empties < 7) | (empties > 8)
    out = tmp_path / "band.npz"
    result = runner.invoke(app, ["corpus", "train", str(small), "--out", str(out),
                                 "--holdout-every", "3", "--iterations", "10",
                                 "--train-empties", "7-8", "--heldout-empties", "6", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["train_positions"] == int((~(by_hash | outside)).sum())
    held = report["heldout"]
    assert held["empties"] == "6-6" and held["n"] == int((empties == 6).sum()) > 0
    # the stages held only out of the fit are measured, both evaluations
    rows = {tuple(r["empties"]): r for r in report["stages"]}
    assert all(r["mae_trained"] >= 0 and r["mae_shipped"] >= 0 for r in rows.values())
    bad = runner.invoke(app, ["corpus", "train", str(small), "--out", str(out),
                              "--train-empties", "9-3"])
    assert bad.exit_code == 2 and "9-3" in bad.output


def _pq(directory: Path) -> tuple[np.ndarray, np.ndarray]:
    pos = read_corpus(directory).positions
    return pos.p, pos.o
