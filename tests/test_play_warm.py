"""``hasamigo play`` makes ready only the kernels of the program played (issue 50).

On an empty kernel cache (a fresh ``NUMBA_CACHE_DIR``) a game against Victory compiles
the rules and the paper's weighted search, seconds of CPU, not the engine (minutes); the
terminal says what it compiles before the game begins.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_play_against_victory_compiles_only_its_kernels(tmp_path: Path) -> None:
    cache = tmp_path / "numba"
    proc = subprocess.run(
        [sys.executable, "-m", "hasamigo", "play", "--vs", "victory", "--clock", "20",
         "--db", f"sqlite:///{tmp_path / 'games.db'}"],
        input="f5\nquit\n", capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "NUMBA_CACHE_DIR": str(cache), "COLUMNS": "120"})
    assert proc.returncode == 0, proc.stderr
    assert "Victory (white) plays" in proc.stdout
    modules = {p.name.split(".")[0] for p in cache.rglob("*.nbi")}
    assert modules == {"moves", "weighted"}, modules
