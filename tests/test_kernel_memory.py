"""The raw pointers the search's helpers take instead of arrays (hasamigo._kernels.memory)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from hasamigo._kernels.memory import at, data_pointer, load_int16, prefetch


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
