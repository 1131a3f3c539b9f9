"""No import circles between the modules of ``src/hasamigo`` (issue 66).

``tests/test_layers.py`` holds the layers (imports point down); this holds the modules
inside one layer too: a module that imports another which, by any path, imports it back
is a circle, wherever the import stands (at module level, in a function, or under
``TYPE_CHECKING``: a lazy import hides a circle from Python, not from a reader).

A package's ``__init__`` is its face: it may import its own modules (to register commands
or re-export names) and they may import it, so those edges are left out, as the package
and its modules are one place.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "hasamigo"


PACKAGE = "hasamigo"


def module_name(path: Path) -> str:
    """``src/hasamigo/game/state.py`` -> ``hasamigo.game.state``; a package's
    ``__init__.py`` -> the package."""
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(SRC.rglob("*.py"))
            if "alembic" not in path.parts}


def resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module an import names: itself if it is one, else the nearest package above."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def targets(tree: ast.AST, known: dict[str, Path]) -> set[str]:
    """The project's modules a module imports: ``from hasamigo.x import y`` names the
    module ``hasamigo.x.y`` where ``y`` is one, else ``hasamigo.x``; ``import
    hasamigo.x.y`` names ``hasamigo.x.y``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in known else node.module)
    return {resolved for name in found
            if (name == PACKAGE or name.startswith(PACKAGE + "."))
            and (resolved := resolve(name, known)) is not None}


def is_face_edge(source: str, target: str, known: dict[str, Path]) -> bool:
    """An edge between a package's ``__init__`` and a module inside that package."""
    def inside(module: str, package: str) -> bool:
        return module.startswith(package + ".")
    source_is_package = known[source].name == "__init__.py"
    target_is_package = known[target].name == "__init__.py"
    return (source_is_package and inside(target, source)) or \
        (target_is_package and inside(source, target))


def import_graph() -> nx.DiGraph:
    known = modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(known)
    for name, path in known.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        for target in targets(tree, known):
            if target != name and not is_face_edge(name, target, known):
                graph.add_edge(name, target)
    return graph


def circles(graph: nx.DiGraph) -> list[list[str]]:
    """Each strongly connected group of more than one module, sorted."""
    return sorted(sorted(group) for group in nx.strongly_connected_components(graph)
                  if len(group) > 1)


def test_no_module_imports_itself_back() -> None:
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_check_finds_a_circle() -> None:
    """The check is not blind: two modules importing each other are one circle, and a
    package's face importing its own module is not."""
    graph = nx.DiGraph([("hasamigo.a", "hasamigo.b"), ("hasamigo.b", "hasamigo.a"),
                        ("hasamigo.c", "hasamigo.d")])
    assert circles(graph) == [["hasamigo.a", "hasamigo.b"]]
    known = {"hasamigo.cli": Path("cli/__init__.py"), "hasamigo.cli.play": Path("cli/play.py"),
             "hasamigo.game": Path("game/__init__.py")}
    assert is_face_edge("hasamigo.cli", "hasamigo.cli.play", known)
    assert is_face_edge("hasamigo.cli.play", "hasamigo.cli", known)
    assert not is_face_edge("hasamigo.cli.play", "hasamigo.game", known)


@pytest.mark.parametrize("source", ["from hasamigo.game import state",
                                    "from hasamigo.game.state import GameState",
                                    "import hasamigo.game.state"])
def test_an_import_names_its_module(source: str) -> None:
    known = modules()
    assert "hasamigo.game.state" in targets(ast.parse(source), known)
