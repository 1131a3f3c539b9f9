"""Options shared by every compiled kernel (one place, not inlined per kernel), and where
numba caches them.

Numba refreshes a cached kernel only when *its own* source file changes; code it inlines
from another kernel module stays frozen in the cached binary (seen here: an edit to
``endgame.py`` was silently ignored by the cached ``search``). So the cache lives in a
directory keyed by a digest of every kernel source: any edit to any kernel module starts
a fresh cache. The directory is ``$NUMBA_CACHE_DIR/hasamigo-<digest>`` when that variable
is set, else ``$XDG_CACHE_HOME/hasamigo/numba-<digest>`` (``~/.cache/...``). Every kernel
module imports this one before defining a kernel, which is when numba reads the setting.

Numba's own locator also files each module's kernels under a hash of the source file's
*absolute directory*, so a moved or freshly cloned checkout (CI clones into a new
directory) missed the cache and compiled everything again although the digest already
says the sources are the same. :class:`_KernelLocator` files this package's kernels
directly in the digest-keyed directory instead; numba still checks each index against a
hash of its source file's contents.

What a cold compile costs, kernel by kernel (``benchmarks/compile_time.py --kernels
rules,players,engine --against OLD_SRC``; own CPU seconds of each kernel's compile, of
which LLVM's, on a 2-core VM; before: the sources at the start of issue 50, where every
helper was inlined by numba and the pass rounds were copied out):

    kernel                      after (LLVM)     before (LLVM)
    endgame.solve3                1.0  (0.9)      128.1  (2.3)
    search.search                 8.9  (3.7)       37.3  (6.1)
    search._null_node             3.7  (2.0)       33.8  (2.6)
    search._null_node9            3.8  (1.8)       32.4  (2.4)
    endgame.solve2                0.4  (0.3)       11.9  (0.5)
    endgame.solve_le4             1.7  (1.0)        3.8  (1.5)
    search._reply_score2          0.6  (0.3)        3.6  (0.8; compiled twice)
    endgame.solve4 .. solve7      8.8  (4.5)        9.0  (5.7)
    endgame.solve_small_entry       -               2.4  (2.3; no longer warmed)
    evaluate, patterns            7.0  (0.9)        6.7  (0.7)
    the LLVM-inlined helpers      7.9  (4.8)          -  (inlined by numba above)
    group rules / players        0.7 / 1.5        0.9 / 1.9
    group engine (all of it)     48.4             273.8       (0.18x)

The helpers that are now kernels of their own (``_try2``, ``_try3``, ``_solve2``,
``solve1``, ``_search1``, ``_search2``, ``_order_moves``, ``hash_store``,
``stable_discs``, ...) each cost under a second once, where numba used to copy them,
typed again, into every caller. The same trees are searched at the same speed (depth 12:
42,015,913 nodes, 0.91-1.01x the old time; FFO #20-#39: 130,623,783 nodes, 0.98-1.05x).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from numba.core import caching
from numba.core import config as numba_config

try:  # numba's own reading of the host (not public API; llvmlite's is the same less a switch)
    from numba.core.codegen import get_host_cpu_features as _host_cpu_features
except ImportError:  # pragma: no cover - a numba without it
    import llvmlite.binding as _llvm

    def _host_cpu_features() -> str:
        return str(_llvm.get_host_cpu_features().flatten())


# cache=True: compiled once, reused across processes (first call after install pays).
# nogil=True: kernels may run in worker threads without holding the GIL.
# forceinline=False, said explicitly: numba hands a caller's ``forceinline`` down to every
# kernel it compiles on the way (``Flags.inherit_if_not_set``), so a kernel first compiled
# inside an NJIT_LLVM_INLINE helper (the solvers, under ``_answer_exact``) was itself
# inlined everywhere, and the solvers of 4-7 empties grew to 235,000 LLVM instructions.
NJIT = {"cache": True, "nogil": True, "forceinline": False}

# Inlining, and what cold compiles cost (see the table in the module docstring). A helper
# that is always inlined is inlined by one of two compilers:
#
# NJIT_INLINE: by numba, in its own IR, typed again at every call site. Cheap for the
# small leaves (bit tricks, a flip, a table lookup), but numba copies the callee's IR,
# scope and all, once per block and again for each call site, after inlining the
# callee's own helpers the same way: nested helpers cost time quadratic in their size.
# ``solve3`` (3 empties: 24 inlined copies of the one-empty solver) took 105 of the
# engine's 240 cold CPU seconds that way, the search's three frame-less node kernels
# another 90.
NJIT_INLINE = {"cache": True, "nogil": True, "inline": "always"}

# NJIT_LLVM_INLINE: by LLVM. Numba compiles the helper once (per signature), as a kernel
# of its own whose code callers link in, and marks it ``alwaysinline``; LLVM inlines it
# into its callers, so the machine code is as with NJIT_INLINE (the same trees, the same
# speed: benchmarks/ffo.py and search.py side by side). For the helpers that are large or
# call other inlined helpers (the move ordering, the 2-3 empties solvers, the evaluation,
# the table's store, the pattern indices' update). Numba types a literal argument
# (``True``, ``64``) as a type of its own, so each helper is called with typed values
# (``np.bool_(True)``), else it compiles once per literal.
NJIT_LLVM_INLINE = {"cache": True, "nogil": True, "forceinline": True}

HERE = Path(__file__).resolve().parent


def target_features() -> str:
    """The CPU features numba compiles the kernels for, e.g. ``"+avx2,-avx512f,…"``:
    ``NUMBA_CPU_FEATURES`` when set, else the host's as numba's code generator reads them
    (``NUMBA_ENABLE_AVX=0`` included)."""
    if numba_config.CPU_FEATURES is not None:
        return str(numba_config.CPU_FEATURES)
    return str(_host_cpu_features())


def has_features(*names: str) -> bool:
    """Whether the kernels are compiled for a CPU with all of ``names`` (``"avx512cd"``)."""
    present = {f[1:] for f in target_features().split(",") if f.startswith("+")}
    return all(name in present for name in names)


#: modules of this package that compile nothing (they call the kernels): an edit to them
#: leaves the compiled kernels as they are, so it does not start a fresh cache
NOT_KERNELS = frozenset({"warm.py"})


def kernel_digest(folder: Path | None = None) -> str:
    """Short digest of every kernel source file in ``folder`` (default: this package)."""
    digest = hashlib.sha256()
    for path in sorted((folder or HERE).glob("*.py")):
        if path.name in NOT_KERNELS:
            continue
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """The numba cache directory for the kernels as they are now."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        return Path(base) / f"hasamigo-{kernel_digest()}"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "hasamigo" / f"numba-{kernel_digest()}"


numba_config.CACHE_DIR = str(cache_dir())

_Impl: Any = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
_Mixin: Any = getattr(caching, "_SourceFileBackedLocatorMixin", None)
_Locator: Any = getattr(caching, "_CacheLocator", None)

if (_Impl is not None and _Mixin is not None and _Locator is not None
        and isinstance(getattr(_Impl, "_locator_classes", None), list)):

    class _KernelLocator(_Mixin, _Locator):  # type: ignore[misc]
        """This package's kernels, cached in :func:`cache_dir` whatever the checkout's path.

        Numba's locators are not public API (numba issue #9350); where they differ from
        what this expects, numba's own locator stays in charge (path-keyed, as before)."""

        def __init__(self, py_func: Any, py_file: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = numba_config.CACHE_DIR

        def get_cache_path(self) -> str:
            return str(self._cache_path)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not numba_config.CACHE_DIR or Path(py_file).resolve().parent != HERE:
                return None
            return super().from_function(py_func, py_file)

    if not any(c.__name__ == "_KernelLocator" for c in _Impl._locator_classes):
        _Impl._locator_classes.insert(0, _KernelLocator)
