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


def test_digest_ignores_the_modules_that_compile_nothing(tmp_path: Path) -> None:
    """The warm-up only calls the kernels: editing it keeps the compiled cache."""
    copy = tmp_path / "_kernels"
    shutil.copytree(KERNELS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = config.kernel_digest(copy)
    with (copy / "warm.py").open("a") as handle:
        handle.write("\n# an edit to the warm-up\n")
    assert config.kernel_digest(copy) == before
    assert "@njit" not in (KERNELS / "warm.py").read_text()


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


COUNT_COMPILES = (
    "from numba.core import event\n"
    "compiles = []\n"
    "class Count(event.Listener):\n"
    "    def on_start(self, e): compiles.append(e.data['dispatcher'].py_func.__name__)\n"
    "    def on_end(self, e): pass\n"
    "event.register('numba:compile', Count())\n"
)


def test_importing_the_package_and_its_front_ends_compiles_nothing(tmp_path: Path) -> None:
    """Kernels compile lazily, at their first call: a command pays only for what it runs."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    code = COUNT_COMPILES + (
        "import hasamigo, hasamigo.engine, hasamigo.engine.players, hasamigo.cli\n"
        "import hasamigo.web.app, hasamigo._kernels.warm, hasamigo.engine.training\n"
        "print(len(compiles))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0"
    assert not list(tmp_path.rglob("*.nb*"))


def test_the_warm_up_compiles_every_signature_the_engine_and_programs_use() -> None:
    """After ``warm`` the engine's and the programs' entry points compile nothing more:
    the warm-up calls them with the types their wrappers pass (one signature each), and
    no kernel they use is missing from its groups. (On the default cache: fast once warm.)"""
    code = (
        "import hasamigo._kernels as K, pkgutil, importlib\n"
        "from hasamigo._kernels.warm import warm, kernels\n"
        "groups = ('rules', 'perft', 'engine', 'players', 'wide')\n"
        "warm(*groups)\n"
        "mods = [importlib.import_module('hasamigo._kernels.' + m.name)\n"
        "        for m in pkgutil.iter_modules(K.__path__)]\n"
        "def used():\n"
        "    return {(m.__name__, n): len(d.signatures) for m in mods for n, d in vars(m).items()\n"
        "            if hasattr(d, 'signatures') and getattr(d, '__module__', '') == m.__name__\n"
        "            and d.signatures}\n"
        "before = used()\n"
        "from hasamigo import Board\n"
        "from hasamigo.engine import Engine, Limit\n"
        "from hasamigo.engine.players import make_player\n"
        "b = Board(); b.play('f5'); b.play('d6')\n"
        "e = Engine(table_size=1 << 12)\n"
        "e.analyse(b, Limit(depth=3)); e.hints(b, Limit(depth=2)); e.evaluate(b)\n"
        "e.play_level(b, 3); b.perft(2)\n"
        "e.solve(Board('XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO-- X'))\n"
        "for spec in ('random', 'greedy', 'victory', 'amusement', 'entertainer', 'weakest',\n"
        "             'engine:5'):\n"
        "    p = make_player(spec, seed=1); s = Board()\n"
        "    for _ in range(4):\n"
        "        s.push(p.choose(s))\n"
        "from hasamigo.variants import GrandBoard\n"
        "g = GrandBoard(); g.play('e4'); e.analyse(g, Limit(depth=3)); e.evaluate(g)\n"
        "e.play_level(g, 3)\n"
        "after = used()\n"
        "new = {k: v for k, v in after.items() if before.get(k) != v}\n"
        "print(new)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "{}", "compiled after the warm-up: " + proc.stdout


def test_a_moved_checkout_finds_the_kernels_it_compiled(tmp_path: Path) -> None:
    """The cache is keyed by the kernel sources, not by where they are: a copy of the
    package elsewhere (a moved checkout, CI's fresh clone) compiles nothing again."""
    src = KERNELS.parent
    for name in ("one", "two"):
        shutil.copytree(src, tmp_path / name / "hasamigo",
                        ignore=shutil.ignore_patterns("__pycache__", "web", "data"))
    code = COUNT_COMPILES + (
        "import numpy as np\n"
        "from hasamigo._kernels.moves import perft\n"
        "assert perft(np.uint64(0x0000000810000000), np.uint64(0x0000001008000000),\n"
        "             np.uint64(0xFFFFFFFFFFFFFFFF), 3) == 56\n"
        "print(len(compiles))\n"
    )
    counts = []
    for name in ("one", "two"):
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
               "PYTHONPATH": str(tmp_path / name)}
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=300, check=False, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        counts.append(int(proc.stdout.strip()))
    assert counts[0] > 0 and counts[1] == 0, counts
