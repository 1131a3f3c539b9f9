"""Bit tricks on uint64: population count, bit scans and the eight shift directions.

Every constant is ``np.uint64``: mixing uint64 with a signed int silently gives float64 in
numba (a test inspects the kernel signatures for float64).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import config as numba_config
from numba.extending import intrinsic

from hasamigo._kernels.config import NJIT_INLINE

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
FULL = U64(0xFFFFFFFFFFFFFFFF)
NOT_A_FILE = U64(0xFEFEFEFEFEFEFEFE)  # every square but column a (a cell can move left into it)
NOT_H_FILE = U64(0x7F7F7F7F7F7F7F7F)  # every square but column h
FILE_A = U64(0x0101010101010101)  # column a
FILE_GATHER = U64(0x0102040810204080)  # ((x >> c) & FILE_A) * this >> 56: column c, row r at bit r
CORNERS = U64(0x8100000000000081)  # a1, h1, a8, h8
C_SQUARES = U64(0x4281000000008142)  # edge neighbours of the corners
X_SQUARES = U64(0x0042000000004200)  # diagonal neighbours of the corners ("stars")
EDGES = U64(0xFF818181818181FF)


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):  # type: ignore[no-untyped-def]
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):  # type: ignore[no-untyped-def]
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _bswap(typingctx, x):  # type: ignore[no-untyped-def]
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.bswap(args[0])

    return sig, codegen


if numba_config.DISABLE_JIT:  # pragma: no cover - exercised in a NUMBA_DISABLE_JIT subprocess
    # Intrinsics have no Python body: plain equivalents so the kernel logic runs uncompiled.
    def _ctpop(x):  # type: ignore[no-untyped-def]
        return U64(int(x).bit_count())

    def _cttz(x):  # type: ignore[no-untyped-def]
        x = int(x)
        return U64((x & -x).bit_length() - 1 if x else 64)

    def _ctlz(x):  # type: ignore[no-untyped-def]
        return U64(64 - int(x).bit_length())

    def _bswap(x):  # type: ignore[no-untyped-def]
        return U64(int.from_bytes(int(x).to_bytes(8, "little"), "big"))


@njit(**NJIT_INLINE)
def popcount(x):  # type: ignore[no-untyped-def]
    """Number of set bits."""
    return np.int64(_ctpop(U64(x)))


@njit(**NJIT_INLINE)
def lowest_square(x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit (64 for zero)."""
    return np.int64(_cttz(U64(x)))


@njit(**NJIT_INLINE)
def highest_square(x):  # type: ignore[no-untyped-def]
    """Index of the highest set bit (-1 for zero)."""
    return np.int64(63) - np.int64(_ctlz(U64(x)))


@njit(**NJIT_INLINE)
def flip_vertical(x):  # type: ignore[no-untyped-def]
    """Rows reversed: row ``r`` becomes row ``7 - r`` (a byte swap)."""
    return _bswap(U64(x))


@njit(**NJIT_INLINE)
def flip_horizontal(x):  # type: ignore[no-untyped-def]
    """Columns reversed: column ``c`` becomes column ``7 - c``."""
    x = U64(x)
    x = ((x >> U64(1)) & U64(0x5555555555555555)) | ((x & U64(0x5555555555555555)) << U64(1))
    x = ((x >> U64(2)) & U64(0x3333333333333333)) | ((x & U64(0x3333333333333333)) << U64(2))
    return ((x >> U64(4)) & U64(0x0F0F0F0F0F0F0F0F)) | ((x & U64(0x0F0F0F0F0F0F0F0F)) << U64(4))


@njit(**NJIT_INLINE)
def transpose(x):  # type: ignore[no-untyped-def]
    """Mirrored in the a1-h8 diagonal: square ``(r, c)`` goes to ``(c, r)``."""
    x = U64(x)
    t = (x ^ (x >> U64(7))) & U64(0x00AA00AA00AA00AA)
    x ^= t ^ (t << U64(7))
    t = (x ^ (x >> U64(14))) & U64(0x0000CCCC0000CCCC)
    x ^= t ^ (t << U64(14))
    t = (x ^ (x >> U64(28))) & U64(0x00000000F0F0F0F0)
    return x ^ t ^ (t << U64(28))
