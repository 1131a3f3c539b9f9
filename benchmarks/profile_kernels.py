"""Where a solve's time goes, per compiled kernel and per machine instruction (Linux ``perf``).

Numba's kernels are machine code in anonymous memory, so ``perf`` sees only addresses. This
script writes the map ``perf`` reads (``/tmp/perf-PID.map``) with every compiled function
of every kernel's code, solves FFO positions under ``perf record`` and prints the share of
samples of each function; with ``--midgame DEPTH``, instead, the midgame searches of
``benchmarks/search.py`` (its seeded positions) to that depth. Kernels loaded from numba's
cache are mapped too (by the names of the functions each loaded kernel's code defines or
calls, looked up in the process's code engine: a callee loaded only as part of its
caller's code has no dispatcher to ask), so a run needs no compile where the cache is
warm; ``--fresh-cache`` compiles every kernel afresh in a throw-away cache instead. With
``--asm KERNEL`` it
also disassembles that kernel (``objdump``) into ``OUT/KERNEL.asm`` with each
instruction's samples in front, hottest first in ``OUT/KERNEL.hot``: inlined helpers
have no symbol of their own, so that is how a stall inside ``search`` (a table probe
waiting for memory, a reference count) is found.

    .venv/bin/python benchmarks/profile_kernels.py [--positions 44,47,48 | --midgame 12]
        [--asm search.search] [--frequency 999] [--out /tmp/profile] [--fresh-cache]

Samples are CPU-clock samples (a VM often has no hardware counters), and an instruction
that waits (a locked or dependent load) collects the samples of the wait: read a hot
instruction as "the time is spent here or just before", and confirm a fix by timing it
(``benchmarks/ffo.py``), not by the profile.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import os
import pkgutil
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "ffo"
WARM_UP_NODES = 200_000


def kernel_name(symbol: str) -> str:
    """``module.kernel`` of a numba symbol of :mod:`hasamigo._kernels` (``_ZN8hasamigo8_kernels
    7endgame6solve3B4v341...`` is ``endgame.solve3``); "" for any other symbol (a C wrapper,
    a helper of numba's)."""
    if not symbol.startswith("_ZN"):
        return ""
    parts = []
    i = 3
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while j < len(symbol) and symbol[j].isdigit():
            j += 1
        size = int(symbol[i:j])
        parts.append(symbol[j:j + size])
        i = j + size
    if parts[:2] != ["hasamigo", "_kernels"] or len(parts) < 4:
        return ""
    return ".".join(parts[2:])


def kernel_addresses() -> list[tuple[int, str]]:
    """(address, module.kernel) of every compiled function of this process's kernels, by
    address: each dispatched kernel and the kernels its code calls (a kernel loaded from
    the cache as part of its caller's has no dispatcher of its own), found by name in the
    process's code engine; other functions there (C wrappers, numba's helpers) by their
    symbol, so that they end the kernels before them in the map."""
    import hasamigo._kernels as kernels

    found = set()
    for info in pkgutil.iter_modules(kernels.__path__):
        module = importlib.import_module(f"hasamigo._kernels.{info.name}")
        for name in dir(module):
            kernel = getattr(module, name)
            overloads = getattr(kernel, "overloads", None)
            py_func = getattr(kernel, "py_func", None)
            if not isinstance(overloads, dict) or getattr(py_func, "__module__", "") != (
                    module.__name__):
                continue  # not a kernel, or one imported from the module that defines it
            for cres in overloads.values():
                library = cres.library
                # the functions of a freshly compiled kernel, or of one from the cache
                code = getattr(library, "_final_module", None)
                shared = getattr(library, "_shared_module", None)
                symbols = {f.name for m in (code, shared) if m is not None
                           for f in m.functions}
                engine = library._codegen._engine
                for symbol in symbols:
                    label = kernel_name(symbol) or symbol[:60]
                    try:
                        address = engine.get_function_address(symbol)
                    except Exception:  # not in this process's code: skip it
                        continue
                    if address:
                        found.add((address, label))
    return sorted(found)


def write_perf_map(entries: list[tuple[int, str]]) -> dict[str, tuple[int, int]]:
    """Write ``/tmp/perf-PID.map``; return each kernel's (address, size). A function's size
    is taken to its successor's address (at most 1 MB): numba does not report it."""
    spans: dict[str, tuple[int, int]] = {}
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (address, name) in enumerate(entries):
            nxt = entries[i + 1][0] if i + 1 < len(entries) else address + (1 << 16)
            size = max(1, min(nxt - address, 1 << 20))
            out.write(f"{address:x} {size:x} {name}\n")
            spans.setdefault(name, (address, size))
    return spans


def midgame_boards() -> list[Any]:
    """The positions of ``benchmarks/search.py`` (its default seed and count)."""
    from probcut_fit import random_positions  # beside this: search.py's positions
    from search import POSITIONS, SEED  # benchmarks/search.py's count and seed

    return random_positions(POSITIONS, random.Random(SEED))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", default="44,47,48", help="FFO numbers (20-59)")
    parser.add_argument("--midgame", type=int, default=0,
                        help="profile benchmarks/search.py's searches to this depth instead")
    parser.add_argument("--asm", default="", help="a kernel to disassemble, e.g. search.search")
    parser.add_argument("--frequency", type=int, default=999, help="samples per second")
    parser.add_argument("--out", default="", help="directory for perf.data and the listings")
    parser.add_argument("--fresh-cache", action="store_true",
                        help="compile every kernel afresh (a throw-away numba cache)")
    args = parser.parse_args()
    for tool in ("perf", "objdump") if args.asm else ("perf",):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed")
    wanted = {int(x) for x in args.positions.split(",")}
    out = Path(args.out or tempfile.mkdtemp(prefix="hasamigo-profile-"))
    out.mkdir(parents=True, exist_ok=True)
    if args.fresh_cache:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="hasamigo-numba-")

    from hasamigo.engine import Engine, Limit, read_obf

    records = [r for name in ("fforum-20-39.obf", "fforum-40-59.obf")
               for r in read_obf(DATA / name) if r.index in wanted]
    if not records:
        sys.exit(f"no FFO position among {sorted(wanted)}")
    if args.midgame < 0:
        sys.exit("--midgame needs a depth of 1 or more")
    engine = Engine(table_size=1 << 22)
    started = time.process_time()
    # compiles (or loads) every kernel the solves use; a solve ignores a depth limit, so a
    # node budget keeps the warm-up short (it solved a hard first position whole)
    engine.solve(records[0].board, "exact", Limit(nodes=WARM_UP_NODES))
    print(f"kernels ready in {time.process_time() - started:.1f} cpu s", flush=True)
    spans = write_perf_map(kernel_addresses())
    if args.asm and args.asm not in spans:  # before the profile, not after it
        names = sorted(n for n in spans if "." in n and not n.startswith("cfunc."))
        sys.exit(f"no kernel {args.asm}; kernels: {', '.join(names)}")
    data = out / "perf.data"
    perf = subprocess.Popen(["perf", "record", "-q", "-F", str(args.frequency), "-o", str(data),
                             "-p", str(os.getpid())], stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # perf attaches
    started = time.process_time()
    if args.midgame:
        for board in midgame_boards():
            engine.clear()
            analysis = engine.analyse(board, Limit(depth=args.midgame))
            print(f"{board.empties.bit_count()} empties: {analysis.score:+d}, "
                  f"{analysis.nodes:,} nodes", flush=True)
    for record in [] if args.midgame else records:
        engine.clear()
        answer = engine.solve(record.board, "exact", Limit())
        known = record.best_score
        print(f"#{record.index}: {answer.score:+d} (known: "
              f"{'?' if known is None else f'{known:+d}'}), {answer.nodes:,} nodes", flush=True)
    print(f"solved in {time.process_time() - started:.2f} cpu s", flush=True)
    perf.send_signal(2)
    perf.wait()
    lines = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip,sym"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    by_kernel: Counter[str] = Counter()
    by_ip: Counter[int] = Counter()
    for line in lines:
        parts = line.split(None, 1)
        if not parts:
            continue
        by_ip[int(parts[0], 16)] += 1
        by_kernel[parts[1].strip() if len(parts) > 1 else "?"] += 1
    total = sum(by_kernel.values()) or 1
    print(f"{total} samples")
    for name, n in by_kernel.most_common(20):
        print(f"{100 * n / total:6.2f} %  {name}")
    if args.asm:
        address, size = spans[args.asm]
        code = out / f"{args.asm}.bin"
        code.write_bytes(ctypes.string_at(address, size))
        listing = subprocess.run(
            ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={address:#x}",
             str(code)], capture_output=True, text=True, check=True).stdout.splitlines()
        annotated = []
        for line in listing:
            head = line.split(":", 1)[0].strip()
            try:
                ip = int(head, 16)
            except ValueError:
                ip = -1
            annotated.append(f"{by_ip.get(ip, 0):7d} {line}")
        (out / f"{args.asm}.asm").write_text("\n".join(annotated) + "\n")
        hot = sorted((n, ip) for ip, n in by_ip.items() if address <= ip < address + size)
        (out / f"{args.asm}.hot").write_text(
            "".join(f"{n:7d} {ip:#x} +{ip - address:#x}\n" for n, ip in reversed(hot)))
        print(f"listing: {out / (args.asm + '.asm')}, hottest: {out / (args.asm + '.hot')}")
    print(f"perf data: {data}")


if __name__ == "__main__":
    main()
