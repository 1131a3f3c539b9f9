"""Shared test set-up. Slow tests are deselected by ``-m 'not slow'`` in pyproject's addopts
(run them with ``pytest -m slow``); ``naive.py`` beside this file is the slow rules reference.

Data outside the repository has one home here. The tests read the small files copied into
``tests/data`` (their sources: ``tests/data/ATTRIBUTION.md``), so that they pass from a plain
clone. Only a test whose point is a whole archive reads the project's reference data beside
the checkout (``../shared/data``): it is marked ``@pytest.mark.shared("wthor/WTH_2010.wtb")``
with each file or directory it reads, is skipped with a reason naming the archive when one is
missing, and gets the paths from the :func:`shared_data` fixture, which refuses a path its
marks do not name (so that ``-m shared`` selects every test that reads there).
``test_plain_clone.py`` keeps other tests from building paths to ``../shared`` by hand."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from hasamigo.storage.db import Database

# The first call of a kernel compiles it or loads it from numba's cache: no per-example deadline.
settings.register_profile("hasamigo", deadline=None)
settings.load_profile("hasamigo")

#: the small copies every test may read (in the repository)
TEST_DATA = Path(__file__).resolve().parent / "data"
#: the project's reference data beside the checkout: optional, absent from a plain clone
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
#: what each directory of the reference data holds, for the reasons of the skips
ARCHIVES = {
    "wthor": "the WTHOR archive",
    "xot": "the XOT list",
    "ffo": "the FFO suites",
    "ggf": "the GGF game records",
    "openings": "the named-openings lists",
}


def shared_reason(relative: str) -> str:
    """The reason a test that reads ``../shared/data/RELATIVE`` is skipped without it."""
    what = ARCHIVES.get(relative.split("/", 1)[0], "the reference data")
    return f"needs ../shared/data/{relative} ({what}, not shipped)"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "shared(*paths): reads these files or directories of ../shared/data, "
        "outside the repository (skipped when one is missing); select them with -m shared")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for mark in item.iter_markers("shared"):
            if not mark.args:
                raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.shared names no path")
            missing = [p for p in mark.args if not (SHARED_DATA / p).exists()]
            if missing:
                item.add_marker(pytest.mark.skip(reason=shared_reason(missing[0])))
                break


@pytest.fixture
def shared_data(request: pytest.FixtureRequest) -> Callable[[str], Path]:
    """``shared_data("wthor/WTH_2010.wtb")``: the path of that file of ``../shared/data``,
    for a test marked ``@pytest.mark.shared`` with it (or with a directory holding it)."""
    declared = [p.rstrip("/") for mark in request.node.iter_markers("shared")
                for p in mark.args]

    def path(relative: str) -> Path:
        if not any(relative == d or relative.startswith(f"{d}/") for d in declared):
            raise LookupError(f"{request.node.nodeid} reads ../shared/data/{relative}: mark it "
                              f"@pytest.mark.shared({relative!r})")
        return SHARED_DATA / relative

    return path


@pytest.fixture
def ffo4(tmp_path: Path) -> Path:
    """FFO #1-#4 (``tests/data/ffo``) in an OBF file of their own: four quick exact solves."""
    path = tmp_path / "ffo4.obf"
    lines = (TEST_DATA / "ffo" / "fforum-1-19.obf").read_text()
    path.write_text("\n".join(lines.splitlines()[:4]) + "\n")
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """An opened database at the newest revision: SQLite, and PostgreSQL too when
    ``HASAMIGO_TEST_POSTGRES`` is set (a fresh schema, dropped afterwards; the PostgreSQL
    case skips without it). A module may define its own ``db``."""
    from test_storage_migration import scratch_url  # tests/ is on the path

    with scratch_url(request.param, tmp_path) as url:
        database = Database(url)
        database.open()
        yield database
        database.close()
