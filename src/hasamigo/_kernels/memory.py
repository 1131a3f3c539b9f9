"""Arrays seen through raw pointers, for the search's inlined helpers.

An array handed to a helper that numba inlines becomes a new variable of the caller, and
numba counts a reference to it on the way in and again on the way out: a call and an
atomic instruction each. Its pruning pass left them in the search's helpers (branches,
loops, calls; rewriting them with a single exit did not help): seven pairs at every node
the search ordered, and ``perf`` put 7 % of the samples of an FFO #44 #47 #48 solve in
those two functions. A pointer is a plain value, so the helpers
take ``data_pointer(arr)`` and index it flat (``ptr[i]``, unchecked, row-major for a 2-d
array): FFO #40-#59 in 1,094.7 CPU s instead of 1,135.5 (side by side, one core each),
the same nodes.

The array must outlive its pointer: take pointers only of a kernel's own arguments (the
caller holds them for the whole call) or of arrays the kernel itself goes on indexing
(numba frees a local array after its last use). The evaluation's int16 weights travel
the same way as an integer address (``patterns.weights_address``), read by
:func:`load_int16`.

Run as plain Python (``NUMBA_DISABLE_JIT``), a pointer is a flat view of the array.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core import config as numba_config
from numba.core.errors import TypingError
from numba.extending import intrinsic


@intrinsic
def data_pointer(typingctx, arr):  # type: ignore[no-untyped-def]
    """A pointer to ``arr``'s first item (a C-contiguous array): ``ptr[i]`` is the item
    ``i`` of ``arr`` flattened."""
    if not isinstance(arr, types.Array) or arr.layout != "C":
        raise TypingError(f"data_pointer needs a C-contiguous array, not {arr}")
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@intrinsic
def at(typingctx, ptr, k):  # type: ignore[no-untyped-def]
    """``ptr`` moved on by ``k`` items: ``at(ptr, k)[i]`` is ``ptr[k + i]``."""
    if not isinstance(ptr, types.CPointer):
        raise TypingError(f"at needs a pointer, not {ptr}")
    sig = ptr(ptr, k)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.gep(args[0], [args[1]])

    return sig, codegen


@intrinsic
def as_int32(typingctx, ptr):  # type: ignore[no-untyped-def]
    """``ptr``'s memory seen as int32 items (twice as many of them as of a 64-bit item):
    int32 scratch inside a 64-bit array the caller already keeps alive."""
    if not (isinstance(ptr, types.CPointer) and ptr.dtype in (types.int64, types.uint64)):
        raise TypingError(f"as_int32 needs a pointer to 64-bit integers, not {ptr}")
    sig = types.CPointer(types.int32)(ptr)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.bitcast(args[0], ir.IntType(32).as_pointer())

    return sig, codegen


@intrinsic
def prefetch(typingctx, ptr, i):  # type: ignore[no-untyped-def]
    """Ask the processor to bring item ``i`` of ``ptr`` into the cache (no result)."""
    if not isinstance(ptr, types.CPointer):
        raise TypingError(f"prefetch needs a pointer, not {ptr}")
    sig = types.void(ptr, i)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        item = builder.gep(args[0], [args[1]])
        builder.call(fn, [builder.bitcast(item, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def load_int16(typingctx, address, i):  # type: ignore[no-untyped-def]
    """The int16 at ``address + 2 * i``, widened to int64 (no bounds check: the caller's
    indices are within the weights by construction, and a test compares with the array)."""
    sig = types.int64(address, i)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i16p = ir.IntType(16).as_pointer()
        base = builder.inttoptr(args[0], i16p)
        item = builder.load(builder.gep(base, [args[1]]))
        return builder.sext(item, ir.IntType(64))

    return sig, codegen


_CHUNK = 8  # int32 lanes of one vector operation (256 bits: every x86-64 with AVX2)


def vector_adder(n: int) -> Any:
    """An intrinsic ``add(dst, src, row, k)``: ``dst[i] = src[i] + k * row[i]`` for the
    first ``n`` items of the three int32 pointers, as whole vectors (LLVM's ``<n x i32>``),
    ``k`` an integer. Written as a loop over ``i`` inside another loop (over the flipped
    squares of a move, say), LLVM kept each of the ``n`` items in its own register and
    added them one by one; as vectors they are a few instructions (``n = 48``: three
    512-bit adds)."""

    @intrinsic
    def add(typingctx, dst, src, row, k):  # type: ignore[no-untyped-def]
        for arg in (dst, src, row):
            if not (isinstance(arg, types.CPointer) and arg.dtype == types.int32):
                raise TypingError(f"vector add needs int32 pointers, not {arg}")
        if not isinstance(k, types.Integer):
            raise TypingError(f"vector add needs an integer factor, not {k}")
        sig = types.void(dst, src, row, k)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            i32 = ir.IntType(32)
            d, a, r, f = args
            f32 = builder.trunc(f, i32) if f.type.width > 32 else builder.sext(f, i32)
            for start in range(0, n, _CHUNK):
                width = min(_CHUNK, n - start)
                vp = ir.VectorType(i32, width).as_pointer()
                scale = ir.Constant(ir.VectorType(i32, width), ir.Undefined)
                for lane in range(width):
                    scale = builder.insert_element(scale, f32, ir.Constant(i32, lane))
                here = [ir.Constant(ir.IntType(64), start)]
                x = builder.load(builder.bitcast(builder.gep(a, here), vp), align=4)
                y = builder.load(builder.bitcast(builder.gep(r, here), vp), align=4)
                builder.store(builder.add(x, builder.mul(y, scale)),
                              builder.bitcast(builder.gep(d, here), vp), align=4)
            return context.get_dummy_value()

        return sig, codegen

    if numba_config.DISABLE_JIT:  # pragma: no cover - a NUMBA_DISABLE_JIT subprocess
        def add(dst, src, row, k):  # type: ignore[no-untyped-def]
            dst[:n] = src[:n] + np.int32(k) * row[:n]

    return add


if numba_config.DISABLE_JIT:  # pragma: no cover - exercised in a NUMBA_DISABLE_JIT subprocess
    def data_pointer(arr: Any) -> Any:  # type: ignore[no-redef]
        if not (isinstance(arr, np.ndarray) and arr.flags.c_contiguous):
            raise TypeError("data_pointer needs a C-contiguous array")
        return arr.reshape(-1)

    def at(ptr: Any, k: Any) -> Any:  # type: ignore[no-redef]
        return ptr[k:]

    def as_int32(ptr: Any) -> Any:  # type: ignore[no-redef]
        return ptr.view(np.int32)

    def prefetch(ptr: Any, i: Any) -> None:  # type: ignore[no-redef]
        return None

    def load_int16(address, i):  # type: ignore[no-untyped-def]
        return np.int64(ctypes.c_int16.from_address(int(address) + 2 * int(i)).value)


__all__ = ["as_int32", "at", "data_pointer", "load_int16", "prefetch", "vector_adder"]
