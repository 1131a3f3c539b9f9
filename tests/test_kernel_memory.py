"""The raw pointers the search's helpers take instead of arrays (hasamigo._kernels.memory)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from hasamigo._kernels.memory import as_int32, at, data_pointer, load_int16, prefetch, vector_adder


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


_add13 = vector_adder(13)  # one vector of 8 and a remainder of 5


@njit
def _add_rows(dst, src, row, k):  # type: ignore[no-untyped-def]
    _add13(data_pointer(dst), data_pointer(src), data_pointer(row), k)


@njit
def _halves(a):  # type: ignore[no-untyped-def]
    """Write through an int32 view of a uint64 array."""
    q = as_int32(data_pointer(a))
    q[0] = -1
    q[3] = 7
    return q[1]


def test_a_vector_add_adds_a_scaled_row_to_the_first_n_items_only() -> None:
    src = np.arange(16, dtype=np.int32) * 10
    row = np.arange(16, dtype=np.int32) - 4
    for k in (2, 1, -1):
        dst = np.full(16, 99, dtype=np.int32)
        _add_rows(dst, src, row, k)
        assert dst[:13].tolist() == (src[:13] + k * row[:13]).tolist()
        assert dst[13:].tolist() == [99, 99, 99]
    # in place, as the flips are added
    _add_rows(src, src, row, -1)
    assert src[:13].tolist() == (np.arange(13) * 10 - np.arange(13) + 4).tolist()


def test_a_vector_add_is_refused_for_anything_but_int32_pointers() -> None:
    wide = np.zeros(16, dtype=np.int64)
    with pytest.raises(TypingError, match="int32 pointers"):
        _add_rows(wide, wide, wide, 1)


def test_an_int32_view_of_64_bit_items_reads_and_writes_their_halves() -> None:
    a = np.zeros(2, dtype=np.uint64)
    assert _halves(a) == 0
    assert int(a[0]) == 0xFFFFFFFF  # little-endian: the low half of the first item
    assert int(a[1]) == 7 << 32
    with pytest.raises(TypingError, match="64-bit integers"):
        _halves(np.zeros(2, dtype=np.int32))
