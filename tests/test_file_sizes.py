"""No source module of ``src/hasamigo`` over 600 lines outside the compiled kernels
(``_kernels/``, whose hot paths are written out by hand), unless its module docstring says
why: a paragraph with the words "over 600 lines" and the reason (one concept that would
only be worse split). A module that grows past the limit is split along a seam into
modules with one job each, the old import path re-exporting what moved.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "hasamigo"
LIMIT = 600
#: the words a long module's docstring says why with
MARKER = "over 600 lines"


def lines_of(text: str) -> int:
    return len(text.splitlines())


def says_why(text: str) -> bool:
    """Whether the module docstring of ``text`` holds :data:`MARKER` (across a line break
    too)."""
    doc = ast.get_docstring(ast.parse(text)) or ""
    return MARKER in " ".join(doc.split())


def too_long(path: Path, text: str) -> bool:
    """Whether the module at ``path`` (relative to ``src/hasamigo``) breaks the rule."""
    if "_kernels" in path.parts:
        return False
    return lines_of(text) > LIMIT and not says_why(text)


def test_no_module_is_over_600_lines_without_saying_why() -> None:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC)
        text = path.read_text(encoding="utf-8")
        if too_long(relative, text):
            found.append(f"{relative}: {lines_of(text)} lines")
    assert not found, (f"modules over {LIMIT} lines (split them, or say why in the module "
                       f"docstring with the words {MARKER!r}):\n" + "\n".join(found))


BODY = "x = 1\n" * LIMIT


@pytest.mark.parametrize(("path", "text", "fails"), [
    ("engine/long.py", '"""A module."""\n' + BODY, True),
    ("engine/long.py", '"""A module.\n\nIt is over 600\nlines: one concept."""\n' + BODY, False),
    ("engine/short.py", BODY, False),
    ("_kernels/long.py", BODY + BODY, False),
    ("engine/long.py", '"""A module."""\n# over 600 lines, in a comment only\n' + BODY, True),
])
def test_the_rule_reads_as_meant(path: str, text: str, fails: bool) -> None:
    assert too_long(Path(path), text) is fails
