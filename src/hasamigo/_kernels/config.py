"""Options shared by every compiled kernel (one place, not inlined per kernel)."""

from __future__ import annotations

# cache=True: compiled once, reused across processes (first call after install pays).
# nogil=True: kernels may run in worker threads without holding the GIL.
NJIT = {"cache": True, "nogil": True}

# For tiny helpers the optimiser should always inline into their callers.
NJIT_INLINE = {"cache": True, "nogil": True, "inline": "always"}
