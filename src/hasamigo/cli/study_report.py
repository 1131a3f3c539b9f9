"""``hasamigo study report``: the study's report (figures and tables) as HTML."""

from __future__ import annotations

from hasamigo.cli.study import study_app  # noqa: F401 - the commands register on it
