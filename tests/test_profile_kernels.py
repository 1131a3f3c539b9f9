"""``benchmarks/profile_kernels.py``: the map it writes for ``perf`` names the kernels a
solve runs, by their module and name, those loaded from numba's cache as part of their
caller's code included."""

from __future__ import annotations

import importlib.util
import itertools
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "profile_kernels.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("profile_kernels", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_kernel_names_are_read_from_numba_symbols() -> None:
    name = load().kernel_name
    assert name("_ZN8hasamigo8_kernels7endgame6solve3B4v341B52c8tJTIeFIjxEyyxxxx") == (
        "endgame.solve3")
    assert name("_ZN8hasamigo8_kernels6search11_null_node9B5v1094B52c8tEyy") == (
        "search._null_node9")
    # a C wrapper, another package's function, numba's own helpers: not kernels
    assert name("_ZN7cpython8hasamigo8_kernels7endgame6solve3B4v341Eyy") == ""
    assert name("_ZN5numpy4core6helperB2v1Ex") == ""
    assert name("cfunc._ZN8hasamigo8_kernels7endgame6solve3B4v341Eyy") == ""
    assert name("NRT_MemInfo_call_dtor") == ""
    assert name("_ZN8hasamigo8_kernels123") == ""  # cut short


PROBE = """
import json, os, sys
import importlib.util
spec = importlib.util.spec_from_file_location("profile_kernels", sys.argv[1])
pk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pk)
from hasamigo._kernels import endgame
full = (1 << 64) - 1
empties = 0b111111 << 20  # six empty squares
p = 0x5555_5555_5555_5555 & ~empties
endgame.solve_small_entry(p, full & ~p & ~empties, full, -64, 64)
entries = pk.kernel_addresses()
spans = pk.write_perf_map(entries)
(cres,) = endgame.solve_small_entry.overloads.values()
own = cres.library.get_pointer_to_function(cres.fndesc.mangled_name)
with open(f"/tmp/perf-{os.getpid()}.map") as f:
    rows = [line.split(" ", 2) for line in f.read().splitlines()]
os.remove(f"/tmp/perf-{os.getpid()}.map")
kernels = {k: v for k, v in spans.items() if not k.startswith(("_", "cfunc."))}
print(json.dumps({"spans": kernels, "own": own, "rows": rows}))
"""


def test_the_map_covers_cached_kernels_and_the_functions_they_link_in() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, str(SCRIPT)], capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    spans = found["spans"]
    # the kernel called from Python, at the address numba gives for it
    assert spans["endgame.solve_small_entry"][0] == found["own"]
    # the solvers it calls were loaded only as part of its code (no dispatcher of their
    # own has been called): each is mapped, at an address of its own
    for kernel in ("endgame.solve_small", "endgame.solve6", "endgame.solve5",
                   "endgame.solve4", "endgame.solve3"):
        assert kernel in spans, sorted(spans)
        assert spans[kernel][0] != found["own"]
    # the map is perf's format (hex start, hex size, name), sorted, spans not overlapping
    rows = [(int(a, 16), int(s, 16), n) for a, s, n in found["rows"]]
    assert rows == sorted(rows)
    for (a, s, _), (b, _, _) in itertools.pairwise(rows):
        assert s > 0 and a + s <= b
