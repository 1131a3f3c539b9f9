"""The ``play`` command's modules, one job each (issue 51): :mod:`hasamigo.cli.play` sets the
game up and stores it, :mod:`hasamigo.cli.play_session` runs the game loop,
:mod:`hasamigo.cli.play_screen` shows it; the imports point that way only, and the old
import path still gives what moved.
"""

from __future__ import annotations

import ast
import inspect
from types import ModuleType

import pytest

from hasamigo.cli import play, play_screen, play_session
from hasamigo.game import result


def imported(module: ModuleType) -> set[str]:
    """The ``hasamigo`` modules ``module`` imports when it runs (at the top or inside
    functions; not those imported for types only)."""
    tree = ast.parse(inspect.getsource(module))
    for_types = {id(n) for node in tree.body
                 if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
                 for n in ast.walk(node)}
    names = set()
    for node in ast.walk(tree):
        if id(node) in for_types:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.startswith("hasamigo")}


@pytest.mark.parametrize(("name", "home"), [
    ("TerminalGame", play_session), ("HINT_DEPTH", play_session),
    ("clock_text", play_screen), ("legal_text", play_screen),
])
def test_the_old_path_gives_what_moved(name: str, home: ModuleType) -> None:
    assert getattr(play, name) is getattr(home, name)
    assert name in play.__all__


def test_the_screen_knows_nothing_of_the_loop_or_the_setup() -> None:
    assert not imported(play_screen) & {"hasamigo.cli.play", "hasamigo.cli.play_session"}


def test_the_loop_takes_its_program_from_the_setup() -> None:
    """The session imports the setup module for a type only; the program maker is passed
    in (so that what replaces :func:`hasamigo.cli.play.make_program` reaches the game)."""
    assert "hasamigo.cli.play" not in imported(play_session)
    assert "make_program" in inspect.signature(play_session.TerminalGame).parameters


def test_the_verdict_comes_from_its_home() -> None:
    assert play_screen.verdict_for is result.verdict_for  # type: ignore[attr-defined]
    assert "hasamigo.game.controller" not in imported(play_screen)
