"""Shared test set-up. Slow tests are deselected by ``-m 'not slow'`` in pyproject's addopts
(run them with ``pytest -m slow``); ``naive.py`` beside this file is the slow rules reference."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# The first call of a kernel compiles it or loads it from numba's cache: no per-example deadline.
settings.register_profile("hasamigo", deadline=None)
settings.load_profile("hasamigo")


@pytest.fixture
def ffo4(tmp_path: Path) -> Path:
    """FFO #1-#4 (``tests/data/ffo``) in an OBF file of their own: four quick exact solves."""
    path = tmp_path / "ffo4.obf"
    lines = (Path(__file__).parent / "data" / "ffo" / "fforum-1-19.obf").read_text()
    path.write_text("\n".join(lines.splitlines()[:4]) + "\n")
    return path
