"""The tests pass from a plain clone, with nothing beside it: data from outside the
repository is read only through ``conftest.py``'s ``shared`` mark and ``shared_data``
fixture, which skip a test when its file is missing and name the archive; every file in
``tests/data`` has its source written down."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: the files that may name the reference data beside the checkout
HOMES = {TESTS / "conftest.py", Path(__file__).resolve()}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                      | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _names_the_reference_data(text: str) -> bool:
    return (text == "shared" or text.startswith("shared/") or "shared/data" in text
            or "../shared" in text)


def test_no_test_builds_a_path_to_the_reference_data_by_hand() -> None:
    """A path to ``../shared`` built in a test file errors in a plain clone: such a test
    carries ``@pytest.mark.shared(PATH)`` and reads the path from ``shared_data``."""
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        if path in HOMES:
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings and _names_the_reference_data(node.value)):
                offenders.append(f"{path.relative_to(TESTS)}:{node.lineno}: {node.value!r}")
    assert offenders == []


def test_every_file_of_the_test_data_has_its_source_written_down() -> None:
    data = TESTS / "data"
    sources = "".join(p.read_text() for p in sorted(data.glob("*.md")))
    unnamed = [str(p.relative_to(data)) for p in sorted(data.rglob("*"))
               if p.is_file() and p.suffix != ".md" and str(p.relative_to(data)) not in sources]
    assert unnamed == []


DEMO = '''
import pytest


@pytest.mark.shared("wthor/WTH_2010.wtb")
def test_marked(shared_data):
    assert shared_data("wthor/WTH_2010.wtb").read_bytes() == b"games"


@pytest.mark.shared("wthor")
def test_a_directory(shared_data):
    assert shared_data("wthor/WTH_2010.wtb").read_bytes() == b"games"


def test_unmarked(shared_data):
    shared_data("wthor/WTH_2010.wtb")
'''


def _run(checkout: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                           *args], cwd=checkout, capture_output=True, text=True, timeout=300)
    return done.stdout


def test_a_test_of_the_reference_data_is_skipped_without_it_and_run_with_it(
        tmp_path: Path) -> None:
    """The mark and the fixture in a checkout of their own: nothing beside it, then the
    file beside it."""
    checkout = tmp_path / "project"
    (checkout / "tests").mkdir(parents=True)
    (checkout / "pytest.ini").write_text("[pytest]\n")
    (checkout / "tests" / "conftest.py").write_text((TESTS / "conftest.py").read_text())
    (checkout / "tests" / "test_demo.py").write_text(DEMO)

    alone = _run(checkout)
    reason = "needs ../shared/data/wthor/WTH_2010.wtb (the WTHOR archive, not shipped)"
    assert alone.count(reason) == 1, alone  # the file named by the mark
    assert "needs ../shared/data/wthor (the WTHOR archive, not shipped)" in alone, alone
    assert "FAILED tests/test_demo.py::test_unmarked - LookupError" in alone, alone
    assert "1 failed, 2 skipped" in alone, alone

    archive = tmp_path / "shared" / "data" / "wthor" / "WTH_2010.wtb"
    archive.parent.mkdir(parents=True)
    archive.write_bytes(b"games")
    beside = _run(checkout, "-m", "shared")  # as CI runs them again beside the data
    assert "2 passed, 1 deselected" in beside, beside
