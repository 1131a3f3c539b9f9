"""The package's metadata: the version written once, the licence as an SPDX string with
its file, and every package the code imports declared in ``pyproject.toml``."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

import hasamigo

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "hasamigo"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

#: import names that differ from the distribution's name on the index
DISTRIBUTION_OF = {"yaml": "pyyaml"}


def _requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9_.-]+", requirement)
    assert match, requirement
    return match.group(0).lower().replace("_", "-")


def _imports() -> dict[str, list[tuple[Path, int, bool]]]:
    """Each third-party top-level module imported under ``src/hasamigo``: where, and
    whether at the top level of its module (run on import) or inside a function."""
    found: dict[str, list[tuple[Path, int, bool]]] = {}
    stdlib = set(sys.stdlib_module_names)
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        in_functions = {id(node) for function in ast.walk(tree)
                        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
                        for node in ast.walk(function)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in stdlib and top != "hasamigo":
                    found.setdefault(top, []).append(
                        (path.relative_to(ROOT), node.lineno, id(node) not in in_functions))
    return found


def test_the_version_is_written_once() -> None:
    """``pyproject.toml`` reads the version from ``hasamigo.__version__``; no other
    file under ``src`` writes it."""
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "hasamigo.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+|rc\d+)?", hasamigo.__version__)
    written = [str(path.relative_to(ROOT)) for path in sorted(SRC.rglob("*.py"))
               if f'"{hasamigo.__version__}"' in path.read_text()]
    assert written == ["src/hasamigo/__init__.py"]


def test_the_licence_is_an_spdx_string_with_its_file() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "the hasamigo authors" in text
    # setuptools reads the SPDX string and license-files from 77 on
    requires = PYPROJECT["build-system"]["requires"]
    assert "setuptools>=77" in requires


def test_every_imported_package_is_declared() -> None:
    """A package the code imports is a dependency, or belongs to an extra and is imported
    only inside the functions that need it (so the core imports without the extra)."""
    core = {_requirement_name(r) for r in PYPROJECT["project"]["dependencies"]}
    extras = {_requirement_name(r)
              for group in PYPROJECT["project"]["optional-dependencies"].values()
              for r in group}
    undeclared, eager = [], []
    for module, places in sorted(_imports().items()):
        name = DISTRIBUTION_OF.get(module, module).lower().replace("_", "-")
        if name in core:
            continue
        if name not in extras:
            undeclared.append(f"{module} ({places[0][0]}:{places[0][1]})")
            continue
        eager += [f"{path}:{line}: {module} (an extra)" for path, line, top in places if top]
    assert undeclared == [], "imported but not in pyproject.toml's dependencies"
    assert eager == [], "a package of an extra imported at module level"


def test_no_test_ignores_every_deprecation_warning() -> None:
    """A test that silences a deprecation names the warning's message or module, so a new
    deprecation anywhere else still shows in the run's summary. (The web tests ignored them
    all while starlette's TestClient warned about httpx; the tests use httpx2 now.)"""
    blanket = re.compile(r"""["']ignore::(\w+\.)*\w*DeprecationWarning:?["']""")
    offenders = [f"{path.relative_to(ROOT)}:{number}"
                 for path in sorted((ROOT / "tests").rglob("*.py"))
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 if blanket.search(line)]
    offenders += [f"pyproject.toml: {entry}"
                  for entry in PYPROJECT["tool"]["pytest"]["ini_options"].get("filterwarnings", [])
                  if blanket.search(repr(entry))]
    assert offenders == []
