"""The command line's help: it comes up without the engine, the web app or the database,
and it reads as text on a terminal (no reST markup, paragraphs wrapped to the width, no
``<bool>`` on flags, no word cut short). Its speed itself is not asserted: the modules
it loads are the deterministic proxy."""

from __future__ import annotations

import importlib
import inspect
import json
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
import typer.main
from rich.text import Text
from typer.testing import CliRunner

from hasamigo.cli import app

#: hasamigo's modules the help may load besides the CLI's: the value a command's
#: argument is read as (a player's spec: a core module on errors and squares alone)
ARGUMENT_TYPES = ("hasamigo.player_spec",)
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
    modules but the CLI's and the types its arguments are read as (the commands import
    the rest when they run)."""
    added = loaded["added"]
    assert _heavy(added) == []
    ours = [m for m in added if m.startswith("hasamigo.") and not m.startswith("hasamigo.cli")
            and m not in ARGUMENT_TYPES]
    assert ours == []
    for module in ARGUMENT_TYPES:  # they stay light: nothing of hasamigo's above the core
        source = inspect.getsource(importlib.import_module(module))
        imports = set(re.findall(r"^(?:from|import) (hasamigo[\w.]*)", source, re.MULTILINE))
        assert imports <= {"hasamigo.errors", "hasamigo.squares"}, imports


def test_help_loads_no_numba_at_all(loaded: dict[str, list[str]]) -> None:
    """Not even the package root loads the kernels: it loads Board on first use."""
    assert _heavy(loaded["root"] + loaded["added"]) == []


# ---- the help as text ------------------------------------------------------------------
runner = CliRunner()
ROLE = re.compile(r":[a-z]+:`")


def _commands(command: Any, path: list[str]) -> Iterator[tuple[Any, list[str]]]:
    yield command, path
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, [*path, name])


COMMANDS = list(_commands(typer.main.get_command(app), []))


def _texts(command: Any) -> list[str]:
    """What a command's help shows: its text, its options' and arguments' help, their
    defaults and, for a group, its commands' first paragraphs."""
    texts = [command.help or ""]
    texts += [getattr(p, "help", None) or "" for p in command.params]
    texts += [str(p.default) for p in command.params
              if p.default is not None and not isinstance(p.default, bool | list)]
    texts += [(sub.help or "").split("\n\n")[0]
              for sub in getattr(command, "commands", {}).values()]
    return texts


def _wide(text: str) -> bool:
    return any(unicodedata.east_asian_width(ch) in "WF" for ch in text)


@pytest.mark.parametrize("columns", ["80", "120"])
@pytest.mark.parametrize(("command", "path"), COMMANDS,
                         ids=[" ".join(p) or "hasamigo" for _, p in COMMANDS])
def test_help_reads_as_text(command: Any, path: list[str], columns: str) -> None:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    shown = result.output
    assert "``" not in shown and not ROLE.search(shown)
    assert "<bool>" not in shown
    assert "\b" not in shown  # Click's no-rewrap mark
    # paragraphs are whole lines of text, for Rich to wrap to the terminal's width
    for text in [command.help or "", *(getattr(p, "help", None) or "" for p in command.params)]:
        assert all("\n" not in paragraph for paragraph in text.split("\n\n")), text
    # Every word shows whole: Rich cuts a word wider than its column with "…". Texts
    # with East Asian wide characters are left out: Rich 15 strips a wrapped line's
    # trailing space by its length in characters, not in cells (Text.rstrip_end), and
    # so cuts the line's last word in a table cell at some widths whatever the words.
    words = " ".join(re.sub(r"[│╭╮╰╯─]", " ", shown).split())
    missing = [word for text in _texts(command) if not _wide(text)
               for word in Text.from_markup(text).plain.split() if word not in words]
    assert missing == []


def test_the_help_keeps_the_texts_words() -> None:
    """reST literals and roles become their words, and a docstring's paragraphs stay."""
    variants = next(c for c, p in COMMANDS if p == ["variants"])
    assert "挟み碁's flip rules (hasegawa-8x9+one, standard+choose)," in variants.help
    assert "Fairy Othello's words (standard+osere)." in variants.help
    assert variants.help.count("\n\n") == 1


def test_numbers_written_out_for_the_help_agree_with_the_engine() -> None:
    """The help's variant names and engine levels are written out in the CLI, so that it
    does not load the board and the engine to say them."""
    from hasamigo.cli import MAX_THREADS, VARIANT_NAMES, protocols
    from hasamigo.engine.limits import MAX_LEVEL
    from hasamigo.engine.limits import MAX_THREADS as ENGINE_THREADS
    from hasamigo.engine.protocols.session import DEFAULT_LEVEL
    from hasamigo.variants import VARIANTS

    assert tuple(v.name for v in VARIANTS) == VARIANT_NAMES
    assert (protocols.MAX_LEVEL, protocols.DEFAULT_LEVEL) == (MAX_LEVEL, DEFAULT_LEVEL)
    assert MAX_THREADS == ENGINE_THREADS


def test_package_root_loads_the_board_on_first_use() -> None:
    """``import hasamigo`` loads no numpy or numba; ``hasamigo.Board`` (and the other
    names of the board and the variants) still work as before, once asked for."""
    import subprocess
    import sys

    code = ("import sys, hasamigo\n"
            "before = sorted(m for m in ('numpy', 'numba') if m in sys.modules)\n"
            "board = hasamigo.Board()\n"
            "print(before, board.play('f5'), hasamigo.find_variant('standard').name,\n"
            "      'Outcome' in dir(hasamigo), 'numba' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[0] == "[]"
    assert out[1:] == ["f5", "standard", "True", "True"]
