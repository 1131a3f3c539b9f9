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


def splat(builder: ir.IRBuilder, x: ir.Value, lanes: int) -> ir.Value:
    """LLVM IR for the vector of ``lanes`` copies of the scalar ``x`` (one broadcast)."""
    vector = ir.VectorType(x.type, lanes)
    undefined = ir.Constant(vector, ir.Undefined)
    v = builder.insert_element(undefined, x, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(v, undefined,
                                  ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes))


def llvm_call(builder: ir.IRBuilder, name: str, result: ir.Type, *args: ir.Value) -> ir.Value:
    """LLVM IR calling the LLVM intrinsic ``name`` (``llvm.ctlz.v4i64``), declared on first
    use."""
    fnty = ir.FunctionType(result, [a.type for a in args])
    return builder.call(cgutils.get_or_insert_function(builder.module, fnty, name), list(args))


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


# int32 lanes of one vector operation: 512 bits, an AVX-512 register (LLVM splits it in two
# for AVX2). The pattern indices the adder writes are read back whole by the weights'
# gathers (int16_summer), and a 512-bit load of what two 256-bit stores wrote waits for
# them to leave the store buffer: at 8 lanes the gathers gained nothing (see int16_summer).
_CHUNK = 16


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


def int16_summer(n: int) -> Any:
    """An intrinsic ``total(x, address, base)``: the sum, as an int64, of the int16 items
    ``base + x[i]`` of the array at ``address`` (``patterns.weights_address``) for the
    first ``n`` items of the int32 pointer ``x``, read as vector gathers of ``_CHUNK``
    lanes (with AVX-512 one ``vpgatherdd`` each, its indices loaded from ``x`` as whole
    vectors, not one by one). A lane reads the four bytes at its item and keeps the low
    two (x86 is little-endian), so **the item after each must be readable too** (within
    the same array). For the evaluation's 48 pattern weights, instead of 48 scalar loads
    that LLVM scheduled with a dozen spills to the stack: a compiled loop over midgame
    positions of one stage took 0.86x the time; in the search, only with the indices
    written by 512-bit stores as well (``_CHUNK``): midgame depth 12 0.94x the time
    (16 rounds, the two trees at once on the two cores, swapped each round), where with
    256-bit stores it was within noise of the scalar loads."""

    @intrinsic
    def total(typingctx, x, address, base):  # type: ignore[no-untyped-def]
        if not (isinstance(x, types.CPointer) and x.dtype == types.int32):
            raise TypingError(f"int16 sum needs an int32 pointer, not {x}")
        for arg in (address, base):
            if not isinstance(arg, types.Integer):
                raise TypingError(f"int16 sum needs an integer address and base, not {arg}")
        sig = types.int64(x, address, base)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            i1 = ir.IntType(1)
            i16 = ir.IntType(16)
            i32 = ir.IntType(32)
            i64 = ir.IntType(64)
            xp, addr, b = args
            origin = builder.ptrtoint(builder.gep(builder.inttoptr(addr, i16.as_pointer()),
                                                  [b]), i64)
            acc = None
            for start in range(0, n, _CHUNK):
                width = min(_CHUNK, n - start)
                v32 = ir.VectorType(i32, width)
                v64 = ir.VectorType(i64, width)
                here = builder.gep(xp, [ir.Constant(i64, start)])
                index = builder.load(builder.bitcast(here, v32.as_pointer()), align=4)
                offset = builder.shl(builder.sext(index, v64), ir.Constant(v64, [1] * width))
                vpt = ir.VectorType(i32.as_pointer(), width)
                items = builder.inttoptr(builder.add(splat(builder, origin, width), offset), vpt)
                mask = ir.Constant(ir.VectorType(i1, width), [1] * width)
                words = llvm_call(builder, f"llvm.masked.gather.v{width}i32.v{width}p0", v32,
                                  items, ir.Constant(i32, 2), mask, ir.Constant(v32, ir.Undefined))
                sixteen = ir.Constant(v32, [16] * width)
                low = builder.ashr(builder.shl(words, sixteen), sixteen)  # the int16, widened
                part = llvm_call(builder, f"llvm.vector.reduce.add.v{width}i32", i32, low)
                acc = part if acc is None else builder.add(acc, part)
            return builder.sext(acc, i64)

        return sig, codegen

    if numba_config.DISABLE_JIT:  # pragma: no cover - a NUMBA_DISABLE_JIT subprocess
        def total(x, address, base):  # type: ignore[no-untyped-def]
            return np.int64(sum(load_int16(address, base + int(x[i])) for i in range(n)))

    return total


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


__all__ = ["as_int32", "at", "data_pointer", "int16_summer", "llvm_call", "load_int16",
           "prefetch", "splat", "vector_adder"]
