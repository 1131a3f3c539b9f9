"""The raw pointers the search's helpers take instead of arrays (hasamigo._kernels.memory)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from hasamigo._kernels.memory import (
    as_int32,
    at,
    data_pointer,
    int16_summer,
    load_int16,
    prefetch,
    vector_adder,
)


@njit
def _write_through(a, k, values):  # type: ignore[no-untyped-def]
    """Write ``values`` from flat item ``k`` of ``a`` on, through a pointer; read them back."""
    ptr = at(data_pointer(a), k)
    total = 0
    for i in range(values.shape[0]):
        prefetch(ptr, i)
        ptr[i] = values[i]
    for i in range(values.shape[0]):
        total += ptr[i]
    return total


@njit
def _read_int16(w, n):  # type: ignore[no-untyped-def]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = load_int16(w, i)
    return out


def test_a_pointer_reads_and_writes_the_array_flat_in_row_order() -> None:
    a = np.zeros((3, 5), dtype=np.uint64)
    values = np.array([7, 8, 9, 2**64 - 1], dtype=np.uint64)
    _write_through(a, 4, values)
    want = np.zeros(15, dtype=np.uint64)
    want[4:8] = values
    assert (a.reshape(-1) == want).all()
    assert a[0, 4] == 7 and a[1, 0] == 8 and a[1, 2] == 2**64 - 1


def test_a_pointer_is_refused_for_an_array_that_is_not_contiguous() -> None:
    strided = np.zeros((4, 6), dtype=np.uint64)[:, ::2]
    with pytest.raises(TypingError, match="C-contiguous"):
        _write_through(strided, 0, np.zeros(1, dtype=np.uint64))


def test_int16_loads_are_widened_with_their_sign() -> None:
    w = np.array([-32768, -1, 0, 1, 32767], dtype=np.int16)
    assert _read_int16(w.ctypes.data, len(w)).tolist() == [-32768, -1, 0, 1, 32767]


_add21 = vector_adder(21)  # one vector of 16 and a remainder of 5


@njit
def _add_rows(dst, src, row, k):  # type: ignore[no-untyped-def]
    _add21(data_pointer(dst), data_pointer(src), data_pointer(row), k)


@njit
def _halves(a):  # type: ignore[no-untyped-def]
    """Write through an int32 view of a uint64 array."""
    q = as_int32(data_pointer(a))
    q[0] = -1
    q[3] = 7
    return q[1]


def test_a_vector_add_adds_a_scaled_row_to_the_first_n_items_only() -> None:
    src = np.arange(24, dtype=np.int32) * 10
    row = np.arange(24, dtype=np.int32) - 4
    for k in (2, 1, -1):
        dst = np.full(24, 99, dtype=np.int32)
        _add_rows(dst, src, row, k)
        assert dst[:21].tolist() == (src[:21] + k * row[:21]).tolist()
        assert dst[21:].tolist() == [99, 99, 99]
    # in place, as the flips are added
    _add_rows(src, src, row, -1)
    assert src[:21].tolist() == (np.arange(21) * 10 - np.arange(21) + 4).tolist()
    assert src[21:].tolist() == (np.arange(21, 24) * 10).tolist()


def test_a_vector_add_is_refused_for_anything_but_int32_pointers() -> None:
    wide = np.zeros(24, dtype=np.int64)
    with pytest.raises(TypingError, match="int32 pointers"):
        _add_rows(wide, wide, wide, 1)


def test_an_int32_view_of_64_bit_items_reads_and_writes_their_halves() -> None:
    a = np.zeros(2, dtype=np.uint64)
    assert _halves(a) == 0
    assert int(a[0]) == 0xFFFFFFFF  # little-endian: the low half of the first item
    assert int(a[1]) == 7 << 32
    with pytest.raises(TypingError, match="64-bit integers"):
        _halves(np.zeros(2, dtype=np.int32))


_sum48 = int16_summer(48)  # three whole gathers, as the evaluation's 48 pattern weights
_sum21 = int16_summer(21)  # one gather of 16 and a remainder of 5


@njit
def _sums(x, w, base):  # type: ignore[no-untyped-def]
    q = data_pointer(x)
    return _sum48(q, w.ctypes.data, base), _sum21(at(q, 3), w.ctypes.data, base)


def test_an_int16_sum_adds_the_items_the_indices_name_with_their_signs() -> None:
    rng = np.random.default_rng(7)
    w = rng.integers(-32768, 32768, size=1000).astype(np.int16)
    w[:3] = (-32768, 32767, -1)
    for base in (0, 17, 400):
        x = rng.integers(0, 998 - base, size=56).astype(np.int32)
        x[:4] = (0, 1, 2, 998 - base)  # the extremes; each item's next one is readable
        s48, s21 = _sums(x, w, base)
        assert s48 == int(w[base + x[:48]].astype(np.int64).sum())
        assert s21 == int(w[base + x[3:24]].astype(np.int64).sum())
    # 48 of the largest weight: beyond int16, within the int32 the lanes add in
    x = np.full(56, 1, dtype=np.int32)
    assert _sums(x, w, 0) == (48 * 32767, 21 * 32767)


def test_an_int16_sum_is_refused_for_indices_that_are_not_int32() -> None:
    with pytest.raises(TypingError, match="int32 pointer"):
        _sums(np.zeros(56, dtype=np.int64), np.zeros(8, dtype=np.int16), 0)
