"""Evaluation v2 (trained patterns): the feature kernel against a square-by-square
reference, the fast sum against the feature list, symmetry, the weights file and fitting."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from numba.core.errors import TypingError

from hasamigo import Board
from hasamigo._kernels.bits import FULL, U64
from hasamigo._kernels.evaluate import HAND_SIZE, evaluate_position, evaluate_vector
from hasamigo._kernels.memory import at, data_pointer
from hasamigo._kernels.moves import legal_moves
from hasamigo._kernels.patterns import (
    INSTANCE_OFFSET,
    N_FEATURES,
    N_INSTANCES,
    N_WEIGHTS,
    SCALE,
    SHAPES,
    SQUARE_COEFFICIENTS,
    STAGES,
    child_vector,
    features,
    pattern_vectors,
    stage_of,
    weights_address,
)
from hasamigo.cli import app
from hasamigo.engine import Engine, Limit
from hasamigo.engine.evaluation import (
    evaluation_params,
    load_weights,
    params_from_weights,
    save_weights,
)
from hasamigo.engine.training import (
    fit_stage,
    mirror_classes,
    mirrored,
    read_archives,
    samples_from_records,
    train,
)
from hasamigo.errors import InvalidOptionError, ParseError
from hasamigo.notation.wthor import read_wthor
from tests import naive

WTHOR = Path(__file__).parent / "data" / "wthor"

# ---- a square-by-square reference of the pattern layout ------------------------------
SHAPE_SQUARES = {
    "edge_2x": [(0, c) for c in range(8)] + [(1, 1), (1, 6)],
    "corner_2x5": [(0, c) for c in range(5)] + [(1, c) for c in range(5)],
    "corner_3x3": [(r, c) for r in range(3) for c in range(3)],
    "line_2": [(1, c) for c in range(8)],
    "line_3": [(2, c) for c in range(8)],
    "line_4": [(3, c) for c in range(8)],
    "diagonal_8": [(i, i) for i in range(8)],
    "diagonal_7": [(i, i + 1) for i in range(7)],
    "diagonal_6": [(i, i + 2) for i in range(6)],
    "diagonal_5": [(i, i + 3) for i in range(5)],
    "diagonal_4": [(i, i + 4) for i in range(4)],
}


def _t(rc):
    return rc[1], rc[0]


def _v(rc):
    return 7 - rc[0], rc[1]


def _h(rc):
    return rc[0], 7 - rc[1]


# The image maps, in the kernel's order: an image B' of the board B has B'[g(sq)] = B[sq].
IMAGES = [
    lambda rc: rc,
    lambda rc: _v(_t(rc)),
    lambda rc: _v(_h(rc)),
    lambda rc: _h(_t(rc)),
    _t,
    _h,
    _v,
    lambda rc: _v(_h(_t(rc))),
]


def _inverse(g):
    table = {g((r, c)): (r, c) for r in range(8) for c in range(8)}
    return table.__getitem__


def reference_features(p: int, o: int) -> list[int]:
    offsets = [0]
    for _, n in SHAPES:
        offsets.append(offsets[-1] + 3**n)

    def cell(rc):
        bit = 1 << (rc[0] * 8 + rc[1])
        return 1 if p & bit else 2 if o & bit else 0

    def read(shape, image):
        back = _inverse(IMAGES[image])
        return sum(3**i * cell(back(sq)) for i, sq in enumerate(SHAPE_SQUARES[shape]))

    out = []
    for image in range(4):
        for k, (name, _) in enumerate(SHAPES):
            out.append(offsets[k] + read(name, image))
    for image in range(4, 8):
        out.append(offsets[1] + read("corner_2x5", image))
    mobility_own = min(_count_moves(p, o), 31)
    mobility_opp = min(_count_moves(o, p), 31)
    out += [offsets[11] + mobility_own, offsets[11] + 32 + mobility_opp, offsets[11] + 64]
    return out


def _count_moves(p: int, o: int) -> int:
    return len(naive.legal_moves(naive.cells_from_masks(p, o, (1 << 64) - 1), naive.BLACK_DISC))


positions = st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)).map(
    lambda t: (t[0] & ~t[1], t[1]))


@settings(max_examples=300, deadline=None)
@given(positions)
def test_features_match_the_square_by_square_reference(pair):
    p, o = pair
    out = np.zeros((1, N_FEATURES), dtype=np.int32)
    features(np.array([p], dtype=np.uint64), np.array([o], dtype=np.uint64), out)
    assert out[0].tolist() == reference_features(p, o)


def _random_params(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    weights = rng.integers(-400, 400, size=(STAGES, N_WEIGHTS)).astype(np.int16)
    return params_from_weights(weights)


@settings(max_examples=200, deadline=None)
@given(positions)
def test_fast_sum_equals_the_sum_over_the_feature_list(pair):
    p, o = pair
    params = _random_params(1)
    out = np.zeros((1, N_FEATURES), dtype=np.int32)
    features(np.array([p], dtype=np.uint64), np.array([o], dtype=np.uint64), out)
    ne = 64 - (p | o).bit_count()
    if _count_moves(p, o) == 0 and _count_moves(o, p) == 0:
        return  # a finished game is scored exactly, not by the patterns
    base = HAND_SIZE + stage_of(ne) * N_WEIGHTS
    total = int(sum(int(params[base + j]) for j in out[0]))
    expected = max(-64, min(64, (total + SCALE // 2) >> 7))
    assert evaluate_position(np.uint64(p), np.uint64(o), FULL, params) == expected


@njit
def _vectors(p, o, out):  # type: ignore[no-untyped-def]
    """``out[0]``, ``out[1]``: the pattern indices of ``(p, o)`` from each side."""
    q = data_pointer(out)
    pattern_vectors(U64(p), U64(o), q, at(q, N_INSTANCES))


@njit
def _child(src, sq, f, own, out):  # type: ignore[no-untyped-def]
    child_vector(data_pointer(out), data_pointer(src), sq, U64(f), own)


@njit
def _score_child(p, o, x, params):  # type: ignore[no-untyped-def]
    p = U64(p)
    o = U64(o)
    return evaluate_vector(p, o, data_pointer(x), legal_moves(p, o, FULL),
                           weights_address(params))


@settings(max_examples=200, deadline=None)
@given(positions)
def test_pattern_indices_read_from_both_sides_match_the_reference(pair):
    """The search's incremental form of the features: one reading gives each side's view
    (the square-by-square reference's instances, and ``features`` of the swapped pair)."""
    p, o = pair
    out = np.zeros((2, N_INSTANCES), dtype=np.int32)
    _vectors(np.uint64(p), np.uint64(o), out)
    assert out[0].tolist() == reference_features(p, o)[:N_INSTANCES]
    assert out[1].tolist() == reference_features(o, p)[:N_INSTANCES]
    # and square by square: each instance is its offset plus digit x coefficient
    digits = np.array([1 if p >> sq & 1 else 2 if o >> sq & 1 else 0 for sq in range(64)])
    assert (INSTANCE_OFFSET + digits @ SQUARE_COEFFICIENTS).tolist() == out[0].tolist()


@settings(max_examples=150, deadline=None)
@given(positions, st.integers(0, 63))
def test_a_childs_pattern_indices_follow_from_its_parents(pair, pick):
    """Every child's indices, from its own side and its opponent's, follow from its
    parent's and the flipped squares as if the child had been read again; and the child is
    scored from them as the evaluation scores its board."""
    p, o = pair
    cells = naive.cells_from_masks(p, o, (1 << 64) - 1)
    moves = sorted(naive.legal_moves(cells, naive.BLACK_DISC))
    if not moves:
        return
    params = _random_params(3)
    parent = np.zeros((2, N_INSTANCES), dtype=np.int32)
    _vectors(np.uint64(p), np.uint64(o), parent)
    for sq in moves[pick % len(moves):][:3]:
        f = naive.mask_of(naive.flips(cells, naive.BLACK_DISC, sq))
        cp, co = o & ~f, p | f | 1 << sq
        want = np.zeros((2, N_INSTANCES), dtype=np.int32)
        _vectors(np.uint64(cp), np.uint64(co), want)
        own = np.zeros(N_INSTANCES, dtype=np.int32)
        _child(parent[1], sq, np.uint64(f), True, own)
        assert own.tolist() == want[0].tolist()
        theirs = np.zeros(N_INSTANCES, dtype=np.int32)
        _child(parent[0], sq, np.uint64(f), False, theirs)
        assert theirs.tolist() == want[1].tolist()
        assert (_score_child(np.uint64(cp), np.uint64(co), own, params)
                == evaluate_position(np.uint64(cp), np.uint64(co), FULL, params))


def test_weights_read_by_address_only_from_a_contiguous_int16_array():
    """The kernel reads the weights through their address: a strided or wider array
    would be read wrongly, so it is refused, compiled or not, and the engine copies its
    parameters into the one layout that is read."""
    params = _random_params(2)
    assert weights_address(params) == params.ctypes.data
    doubled = np.repeat(params, 2)
    for bad in (doubled[::2], params.astype(np.int32), params.reshape(1, -1)):
        with pytest.raises(TypeError, match="1-d C-contiguous int16"):
            weights_address(bad)
    p, o = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
    with pytest.raises(TypingError, match="1-d C-contiguous int16"):
        evaluate_position(p, o, FULL, params.astype(np.int32))
    # a strided view of the same weights: the engine copies it and scores as the array
    boards = [Board(), Board()]
    boards[1].play("f5")
    copied = Engine(table_size=1 << 10, params=doubled[::2])
    plain = Engine(table_size=1 << 10, params=params)
    assert [copied.evaluate(b) for b in boards] == [plain.evaluate(b) for b in boards]
    # the kernel reads by address without bounds checks: only its two layouts pass
    for bad, says in ((params[:-1], "flat array of"), (params.reshape(-1, 2), "flat array of"),
                      (params.astype(np.float64), "whole numbers"),
                      (params.astype(np.int32) + 40000, "whole numbers")):
        with pytest.raises(InvalidOptionError, match=says):
            Engine(table_size=1 << 10, params=bad)


def _rotate(x: int) -> int:
    out = 0
    for sq in range(64):
        if x >> sq & 1:
            r, c = divmod(sq, 8)
            out |= 1 << (c * 8 + 7 - r)
    return out


@settings(max_examples=100, deadline=None)
@given(positions)
def test_the_evaluation_does_not_change_when_the_board_is_rotated(pair):
    p, o = pair
    params = evaluation_params("trained")
    v = evaluate_position(np.uint64(p), np.uint64(o), FULL, params)
    rp, ro = _rotate(p), _rotate(o)
    assert evaluate_position(np.uint64(rp), np.uint64(ro), FULL, params) == v


def _transpose(x: int) -> int:
    return sum(1 << ((sq & 7) * 8 + (sq >> 3)) for sq in range(64) if x >> sq & 1)


def _reference_sum(weights: np.ndarray, p: int, o: int) -> float:
    return float(weights[reference_features(p, o)].sum())


@settings(max_examples=150, deadline=None)
@given(positions)
def test_tied_tables_score_a_board_and_its_mirror_image_alike(pair):
    """Checked with the square-by-square reference, not the kernel the ties were read from:
    any weights tied by ``mirror_classes`` give a board and its transpose the same sum."""
    p, o = pair
    classes = mirror_classes()
    assert np.array_equal(classes[classes], classes)  # each entry's class is its own
    weights = np.random.default_rng(p % 1000).normal(size=N_WEIGHTS)[classes]
    assert _reference_sum(weights, p, o) == pytest.approx(
        _reference_sum(weights, _transpose(p), _transpose(o)))


def test_untied_tables_do_tell_a_board_from_its_mirror_image():
    """The ties above are needed: with independent entries the sums differ."""
    weights = np.random.default_rng(1).normal(size=N_WEIGHTS)
    p, o = 0x0000000000000F07, 0x00000000000030F8  # a1-c1, a2-d2 against its neighbours
    assert _reference_sum(weights, p, o) != pytest.approx(
        _reference_sum(weights, _transpose(p), _transpose(o)))
    classes = mirror_classes()
    tied = np.count_nonzero(classes != np.arange(N_WEIGHTS))
    assert tied > 0.4 * (N_WEIGHTS - 3**10)  # all shapes but the corner 2x5 are tied


def test_trained_weights_score_every_mirrored_position_alike():
    samples, _ = samples_from_records(read_archives([WTHOR / "WTH_1980.wtb"]))
    weights, _ = train(samples, holdout_every=0, iterations=5)
    classes = mirror_classes()
    assert np.array_equal(weights, weights[:, classes])
    params = params_from_weights(np.clip(np.rint(weights * SCALE), -32767, 32767)
                                 .astype(np.int16))
    images = mirrored(samples)
    for i in range(0, len(samples), 37):
        assert (evaluate_position(samples.p[i], samples.o[i], FULL, params)
                == evaluate_position(images.p[i], images.o[i], FULL, params))


def test_other_board_shapes_keep_the_hand_set_evaluation():
    from hasamigo.variants import find_variant

    board = find_variant("6x6")()
    p, o = board.black, board.white
    mask = np.uint64(board.playable())
    hand = evaluation_params("hand")
    trained = evaluation_params("trained")
    assert (evaluate_position(np.uint64(p), np.uint64(o), mask, trained)
            == evaluate_position(np.uint64(p), np.uint64(o), mask, hand))


def test_the_shipped_weights_predict_real_games_better_than_the_hand_set_features():
    """Guards the shipped file's layout and sign: on the 2021 games, positions with a
    recorded perfect-play value (24+ empties), the trained evaluation is much nearer it."""
    from hasamigo._kernels.fitting import evaluate_all

    samples, _ = samples_from_records(read_wthor(WTHOR / "WTH_2021.wtb"))
    part = samples.take((samples.empties >= 24) & (samples.empties <= 40))
    assert len(part) > 1000
    errors = {}
    for name in ("trained", "hand"):
        pred = evaluate_all(part.p, part.o, FULL, evaluation_params(name))
        errors[name] = float(np.sqrt(np.mean((pred - part.label) ** 2)))
    assert errors["trained"] < 0.8 * errors["hand"], errors


def test_weights_file_round_trip_and_refusals(tmp_path):
    weights = np.arange(STAGES * N_WEIGHTS, dtype=np.int64).reshape(STAGES, N_WEIGHTS)
    weights = (weights % 2000 - 1000).astype(np.int16)
    path = tmp_path / "w.npz"
    save_weights(path, weights, "test")
    assert np.array_equal(load_weights(path), weights)

    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip file")
    with pytest.raises(ParseError, match=r"bad\.npz"):
        load_weights(bad)
    other = tmp_path / "other.npz"
    np.savez(other, weights=np.zeros((2, 3), dtype=np.int16), format=np.array("x"))
    with pytest.raises(ParseError, match="not a pattern-weights file"):
        load_weights(other)
    with pytest.raises(ValueError, match="int16"):
        save_weights(path, weights.astype(np.int32), "test")


def test_fit_recovers_a_linear_pattern_model():
    """Labels made by known weights (plus noise) are fitted back to small error."""
    rng = np.random.default_rng(3)
    n = 20000
    idx = np.zeros((n, N_FEATURES), dtype=np.int32)
    # few distinct table entries per feature slot so that each is seen often
    for j in range(N_FEATURES):
        idx[:, j] = rng.integers(0, 50, size=n) + j * 50
    true = rng.normal(0, 2.0, size=N_WEIGHTS)
    y = true[idx].sum(axis=1) + rng.normal(0, 1.0, size=n)
    w = fit_stage(idx, y, ridge=0.5, iterations=200)
    pred = w[idx].sum(axis=1)
    assert np.sqrt(np.mean((pred - y) ** 2)) < 1.2  # the noise floor is 1.0
    assert np.sqrt(np.mean((w[idx].sum(axis=1) - true[idx].sum(axis=1)) ** 2)) < 0.6


def test_a_row_weight_fits_as_that_many_copies_of_the_row():
    """Weighted CGLS: weight k on a row is the same problem as the row written k times."""
    rng = np.random.default_rng(5)
    n = 3000
    idx = (rng.integers(0, 40, size=(n, N_FEATURES)) + np.arange(N_FEATURES) * 40).astype(
        np.int32)
    y = rng.normal(0, 5.0, size=n)
    k = rng.integers(1, 4, size=n)
    copies = np.repeat(np.arange(n), k)
    # the same iterates (rounding apart: conjugate gradients amplify it after a few steps)
    weighted = fit_stage(idx, y, ridge=1.0, iterations=4, row_weight=k)
    repeated = fit_stage(idx[copies], y[copies], ridge=1.0, iterations=4)
    assert np.allclose(weighted, repeated, rtol=0, atol=1e-10)
    # ... and the same minimum
    weighted = fit_stage(idx, y, ridge=1.0, iterations=300, row_weight=k)
    repeated = fit_stage(idx[copies], y[copies], ridge=1.0, iterations=300)
    assert np.allclose(weighted, repeated, rtol=0, atol=1e-4)
    plain = fit_stage(idx, y, ridge=1.0, iterations=300)
    assert not np.allclose(weighted, plain, rtol=0, atol=1e-2)


def test_samples_are_labelled_from_the_side_to_move():
    records = list(read_wthor(WTHOR / "WTH_1977.wtb"))
    samples, counts = samples_from_records(records)
    assert counts["games_used"] + counts["unfinished"] == len(records)
    # first position of every game: Black to move at the start, 60 empties
    first = samples.game != np.roll(samples.game, 1)
    assert (samples.empties[first] == 60).all()
    g0 = samples.game == samples.game[0]
    record = records[int(samples.game[0])]
    depth = int(record.metadata["theoretical_depth"])
    theo = 2 * int(record.metadata["theoretical_score"]) - 64
    final = record.replay().outcome()
    assert final is not None
    black_diff = final.black - final.white
    labels = samples.label[g0]
    # Black moves first: the label of the start is Black's value, the next White's
    assert labels[0] == theo
    assert labels[1] == -theo
    late = samples.empties[g0] < depth
    assert late.any()
    assert set(np.abs(labels[late]).tolist()) == {abs(black_diff)}


def test_train_eval_command_writes_weights_the_engine_uses(tmp_path):
    from typer.testing import CliRunner

    out = tmp_path / "w.npz"
    result = CliRunner().invoke(app, ["train-eval", str(WTHOR / "WTH_1980.wtb"), "--out",
                                      str(out), "--iterations", "5", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games_used"] > 0 and len(report["stages"]) == STAGES
    assert report["stages"][7]["test_positions"] > 0
    weights = load_weights(out)
    assert np.count_nonzero(weights) > 0
    engine = Engine(table_size=1 << 12, params=params_from_weights(weights))
    assert engine.analyse(Board(), Limit(depth=3)).depth == 3

    missing = CliRunner().invoke(app, ["train-eval", str(tmp_path / "none.wtb")])
    assert missing.exit_code == 2
