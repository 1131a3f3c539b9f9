"""Numba's cache is keyed by every kernel source, so an edit to one module that another
inlines cannot leave a stale compiled kernel behind."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from hasamigo._kernels import config

KERNELS = Path(config.__file__).parent


def test_digest_changes_when_any_kernel_source_changes(tmp_path: Path) -> None:
    copy = tmp_path / "_kernels"
    shutil.copytree(KERNELS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = config.kernel_digest(copy)
    assert before == config.kernel_digest(KERNELS)
    with (copy / "endgame.py").open("a") as handle:
        handle.write("\n# an edit to a module that search.py inlines\n")
    assert config.kernel_digest(copy) != before


def test_kernels_compile_into_the_keyed_directory_and_reload_from_it(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    code = (
        "import numpy as np\n"
        "from numba.core import config as c\n"
        "from hasamigo._kernels.moves import perft\n"
        "from hasamigo._kernels import config\n"
        "assert c.CACHE_DIR == str(config.cache_dir()), (c.CACHE_DIR, config.cache_dir())\n"
        "print(perft(np.uint64(0x0000000810000000), np.uint64(0x0000001008000000),\n"
        "            np.uint64(0xFFFFFFFFFFFFFFFF), 5))\n"
    )
    for _ in range(2):  # compile, then load from the cache
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == "1396"
    keyed = tmp_path / f"hasamigo-{config.kernel_digest()}"
    assert keyed.is_dir()
    assert any(keyed.rglob("*.nbi")), "no cache index written"
