"""The command line's help comes up without the engine, the web app or the database. Its
speed itself is not asserted: the modules it loads are the deterministic proxy."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: Packages the help must not load: each costs a large part of a second.
HEAVY = ("numba", "llvmlite", "numpy", "fastapi", "starlette", "uvicorn", "sqlalchemy",
         "alembic", "scipy", "matplotlib", "networkx", "jinja2", "psycopg", "ray")

#: Runs ``hasamigo [COMMAND…] --help`` for every command in one process and prints the
#: modules loaded, those that ``import hasamigo`` loads by itself apart.
HELP_EVERYWHERE = """
import json, sys
import hasamigo
root = set(sys.modules)
import typer.main
from hasamigo.cli import app, main

def paths(command, path):
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from paths(sub, [*path, name])

for path in paths(typer.main.get_command(app), []):
    sys.argv = ["hasamigo", *path, "--help"]
    try:
        main()
    except SystemExit as exc:
        assert exc.code in (0, None), (path, exc.code)
print(json.dumps({"root": sorted(root), "added": sorted(set(sys.modules) - root)}))
"""


def _loaded_by_help() -> dict[str, list[str]]:
    proc = subprocess.run([sys.executable, "-c", HELP_EVERYWHERE], capture_output=True,
                          text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    loaded: dict[str, list[str]] = json.loads(proc.stdout.strip().splitlines()[-1])
    return loaded


@pytest.fixture(scope="module")
def loaded() -> dict[str, list[str]]:
    return _loaded_by_help()


def _heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if m.split(".")[0] in HEAVY]


def test_help_loads_nothing_heavy_beyond_the_package_root(loaded: dict[str, list[str]]
                                                            ) -> None:
    """Every command's --help loads typer, rich and the CLI's own modules only: no
    engine, kernels, web app, database, statistics or plots, and none of hasamigo's
    modules but the CLI's (the commands import them when they run)."""
    added = loaded["added"]
    assert _heavy(added) == []
    ours = [m for m in added if m.startswith("hasamigo.") and not m.startswith("hasamigo.cli")]
    assert ours == []


@pytest.mark.xfail(strict=True, reason="hasamigo/__init__.py imports Board, and "
                   "hasamigo.board imports the kernels (numba) at once: the package root "
                   "must load Board on first use before the help can start without them")
def test_help_loads_no_numba_at_all(loaded: dict[str, list[str]]) -> None:
    assert _heavy(loaded["root"] + loaded["added"]) == []


def test_numbers_written_out_for_the_help_agree_with_the_engine() -> None:
    """The help's variant names and engine levels are written out in the CLI, so that it
    does not load the board and the engine to say them."""
    from hasamigo.cli import VARIANT_NAMES, protocols
    from hasamigo.engine.limits import MAX_LEVEL
    from hasamigo.engine.protocols.session import DEFAULT_LEVEL
    from hasamigo.variants import VARIANTS

    assert tuple(v.name for v in VARIANTS) == VARIANT_NAMES
    assert (protocols.MAX_LEVEL, protocols.DEFAULT_LEVEL) == (MAX_LEVEL, DEFAULT_LEVEL)
