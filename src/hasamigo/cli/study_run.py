"""The real study from the command line: ``hasamigo study new|list|subjects|export``."""

from __future__ import annotations

from hasamigo.cli.study import study_app  # noqa: F401 - the commands register on it
