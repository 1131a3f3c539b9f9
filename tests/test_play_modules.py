"""The ``play`` command's modules, one job each (issues 51, 66): :mod:`hasamigo.cli.play_command`
holds the command's options, :mod:`hasamigo.cli.play` sets the game up,
:mod:`hasamigo.cli.play_session` runs the game loop, :mod:`hasamigo.cli.play_screen` shows
it and :mod:`hasamigo.cli.play_store` keeps it in the database; the imports point that way
only (no circle, not even for types), and the old import path still gives what moved.
"""

from __future__ import annotations

import ast
import inspect
from types import ModuleType

import pytest

from hasamigo.cli import play, play_command, play_screen, play_session, play_store
from hasamigo.game import result


def imported(module: ModuleType, *, for_types: bool = False) -> set[str]:
    """The ``hasamigo`` modules ``module`` imports when it runs (at the top or inside
    functions; those imported for types only too if ``for_types``)."""
    tree = ast.parse(inspect.getsource(module))
    typing_only = set() if for_types else {
        id(n) for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for n in ast.walk(node)}
    names = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.startswith("hasamigo")}


@pytest.mark.parametrize(("name", "home"), [
    ("TerminalGame", play_session), ("HINT_DEPTH", play_session),
    ("clock_text", play_screen), ("legal_text", play_screen), ("Saver", play_store),
])
def test_the_old_path_gives_what_moved(name: str, home: ModuleType) -> None:
    assert getattr(play, name) is getattr(home, name)
    assert name in play.__all__


def test_the_screen_knows_nothing_of_the_loop_or_the_setup() -> None:
    assert not imported(play_screen) & {"hasamigo.cli.play", "hasamigo.cli.play_session"}


def test_the_loop_takes_its_program_from_the_setup() -> None:
    """The session does not import the setup module, not even for a type; the program
    maker is passed in (so that what replaces :func:`hasamigo.cli.play.make_program`
    reaches the game)."""
    assert "hasamigo.cli.play" not in imported(play_session, for_types=True)
    assert "make_program" in inspect.signature(play_session.TerminalGame).parameters


@pytest.mark.parametrize("module", [play, play_screen, play_session, play_store])
def test_only_the_command_imports_the_command(module: ModuleType) -> None:
    """The options module imports the game's when the command runs; nothing imports it
    back (the circle play -> play_command -> play of issue 66)."""
    assert "hasamigo.cli.play_command" not in imported(module, for_types=True)
    assert not imported(play_store, for_types=True) & {
        "hasamigo.cli.play", "hasamigo.cli.play_session", "hasamigo.cli.play_screen"}
    assert "hasamigo.cli.play" in imported(play_command)


def test_the_verdict_comes_from_its_home() -> None:
    assert play_screen.verdict_for is result.verdict_for  # type: ignore[attr-defined]
    assert "hasamigo.game.controller" not in imported(play_screen)
