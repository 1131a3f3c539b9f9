"""Shared test set-up. Slow tests are deselected by ``-m 'not slow'`` in pyproject's addopts
(run them with ``pytest -m slow``); ``naive.py`` beside this file is the slow rules reference."""

from __future__ import annotations

from hypothesis import settings

# The first call of a kernel compiles it or loads it from numba's cache: no per-example deadline.
settings.register_profile("hasamigo", deadline=None)
settings.load_profile("hasamigo")
