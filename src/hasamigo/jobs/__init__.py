"""Long jobs split into independent tasks, on local processes or a Ray cluster.

:mod:`.runner` maps tasks over a backend (:class:`LocalBackend`, :class:`RayBackend`) and
keeps a journal to resume a stopped job; :mod:`.solve` and :mod:`.selfplay` are the jobs of
``hasamigo solve`` and ``hasamigo selfplay``, :mod:`.games` plays the games of ``hasamigo
match``, ``hasamigo tournament run`` and ``hasamigo study simulate`` (and self-play's),
:mod:`.book` searches the opening book's leaves (``hasamigo book build``/``deepen``),
:mod:`.exact` solves the labels of ``hasamigo train-eval --label exact``. It is the one
way the command line's long jobs run in parallel: the libraries below it (the engine's
book, the tournaments, the study's simulation) take what runs their tasks as an argument
and run them one after the other without one. Ray is imported only by
:class:`RayBackend` (``pip install 'hasamigo[cluster]'``). This package sits above
``engine``, ``tournament`` and ``study`` (whose work it runs) and is used only by the
command line.
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
