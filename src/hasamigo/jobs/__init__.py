"""Long jobs split into independent tasks, on local processes or a Ray cluster.

:mod:`.runner` maps tasks over a backend (:class:`LocalBackend`, :class:`RayBackend`) and
keeps a journal to resume a stopped job; :mod:`.solve` and :mod:`.selfplay` are the jobs of
``hasamigo solve`` and ``hasamigo selfplay``, :mod:`.games` plays the games of ``hasamigo
match`` and ``hasamigo tournament run`` (and self-play's), :mod:`.exact` solves the labels
of ``hasamigo train-eval --label exact``. Ray is imported only by :class:`RayBackend`
(``pip install 'hasamigo[cluster]'``). This package sits beside ``tournament`` (whose
games it plays) and is used only by the command line.
"""

from __future__ import annotations

from hasamigo.jobs.runner import (
    Backend,
    JobError,
    Journal,
    JournalError,
    LocalBackend,
    RayBackend,
    iter_job,
    make_backend,
    run_job,
)

__all__ = ["Backend", "JobError", "Journal", "JournalError",
           "LocalBackend", "RayBackend", "iter_job", "make_backend",
           "run_job"]
