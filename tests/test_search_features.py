"""The search features the benchmarks switch off (``--without``): named in one place, an
unknown name refused with the names that exist."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hasamigo._kernels.search import ALL_FLAGS, USE_ETC, USE_HASH, USE_STABILITY
from hasamigo.engine.core import SEARCH_FEATURES, search_flags_without
from hasamigo.errors import InvalidOptionError

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_named_features_are_switched_off_and_no_name_keeps_them_all() -> None:
    assert search_flags_without("") == ALL_FLAGS
    assert search_flags_without("etc") == ALL_FLAGS & ~USE_ETC
    assert search_flags_without("etc, stability") == ALL_FLAGS & ~USE_ETC & ~USE_STABILITY
    assert search_flags_without(",".join(SEARCH_FEATURES)) == 0
    assert search_flags_without("hash,hash") == ALL_FLAGS & ~USE_HASH


def test_an_unknown_feature_is_refused_naming_the_features() -> None:
    with pytest.raises(InvalidOptionError) as caught:
        search_flags_without("etc,tables")
    message = str(caught.value)
    assert "'tables'" in message
    assert all(name in message for name in SEARCH_FEATURES)
    with pytest.raises(InvalidOptionError, match="characters"):
        search_flags_without("x" * 5000)  # not echoed whole


@pytest.mark.parametrize("script", ["ffo.py", "search.py"])
def test_the_benchmarks_refuse_an_unknown_feature_before_searching(script: str) -> None:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), "--without", "etc,tables"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "--without: no search feature 'tables'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_ffo_benchmark_solves_with_the_features_it_was_left() -> None:
    done = subprocess.run([sys.executable, str(BENCHMARKS / "ffo.py"), "--positions", "20",
                           "--without", "etc,stability"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"flags {ALL_FLAGS & ~USE_ETC & ~USE_STABILITY}\n" in done.stdout
    assert "all ok: True" in done.stdout
