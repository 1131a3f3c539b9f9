"""Options shared by every compiled kernel (one place, not inlined per kernel), and where
numba caches them.

Numba refreshes a cached kernel only when *its own* source file changes; code it inlines
from another kernel module stays frozen in the cached binary (seen here: an edit to
``endgame.py`` was silently ignored by the cached ``search``). So the cache lives in a
directory keyed by a digest of every kernel source: any edit to any kernel module starts
a fresh cache. The directory is ``$NUMBA_CACHE_DIR/hasamigo-<digest>`` when that variable
is set, else ``$XDG_CACHE_HOME/hasamigo/numba-<digest>`` (``~/.cache/...``). Every kernel
module imports this one before defining a kernel, which is when numba reads the setting.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from numba.core import config as numba_config

# cache=True: compiled once, reused across processes (first call after install pays).
# nogil=True: kernels may run in worker threads without holding the GIL.
NJIT = {"cache": True, "nogil": True}

# For tiny helpers the optimiser should always inline into their callers.
NJIT_INLINE = {"cache": True, "nogil": True, "inline": "always"}


def kernel_digest(folder: Path | None = None) -> str:
    """Short digest of every kernel source file in ``folder`` (default: this package)."""
    digest = hashlib.sha256()
    for path in sorted((folder or Path(__file__).parent).glob("*.py")):
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
