"""The options of the commands that share their work out among workers (``solve``,
``selfplay``, ``match``, ``tournament run``, ``book build``/``deepen``, ``train-eval
--label exact``): ``--workers``, ``--ray``, ``--ray-address``, and the backend they ask
for (:mod:`hasamigo.jobs`). ``match``, ``tournament run`` and ``book`` default to a
worker per available core (:data:`CoresOpt`) and still take their old ``--jobs J``,
hidden: the same as ``--workers J``, with a warning (:func:`workers_of`). No commands
here: every command module may import it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from hasamigo.cli import err_console, fail

WorkersOpt = Annotated[int, typer.Option(
    "--workers", "-w", min=1, max=1024,
    help="Workers: processes here, or Ray actors with --ray (each keeps its engine).")]
#: ``--workers`` of the commands whose default is every available core
CoresOpt = Annotated[int | None, typer.Option(
    "--workers", "-w", min=1, max=1024, show_default="the available cores",
    help="Workers: processes here, or Ray actors with --ray (each keeps its engine).")]
#: the old name of ``--workers`` (before every command shared its work through the jobs
#: runner), kept hidden (no help: the help shows none of it) for the scripts that give it
JobsOpt = Annotated[int | None, typer.Option("--jobs", "-j", min=1, hidden=True)]
RayOpt = Annotated[bool, typer.Option(
    "--ray", help="Run the workers as Ray actors on a local Ray (pip install "
    "'hasamigo\\[cluster]').")]
RayAddressOpt = Annotated[str | None, typer.Option(
    "--ray-address", metavar="ADDRESS",
    help="Run on the Ray cluster at ADDRESS (host:port of `ray start --head`, or auto); "
    "implies --ray.")]


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def workers_of(workers: int | None, jobs: int | None, *, threads: int = 1) -> int:
    """The workers asked for by ``--workers`` or by the deprecated ``--jobs`` (said on
    the error stream; giving both exits), else one per available core.

    ``threads``: the search threads each worker's games run on at once (a match of
    ``engine:6@2``: 2). The default is then one worker per ``threads`` cores, so that the
    players search on the cores the threads ask for and not on a share of them (a match
    "2 threads against 1 at equal time" would otherwise measure the machine's load); more
    workers than that, asked for, are run, with a warning on the error stream."""
    if jobs is not None:
        if workers is not None:
            raise fail("choose one of --jobs and --workers (--jobs is the old name of "
                       "--workers)")
        err_console.print(f"--jobs is deprecated: give --workers {jobs}", highlight=False)
        workers = jobs
    cores = available_cores()
    if workers is None:
        return max(1, cores // threads)
    if threads > 1 and workers * threads > cores:
        err_console.print(f"warning: {workers} workers of {threads} search threads each "
                          f"share {cores} cores: each search gets less than its threads "
                          f"(--workers {max(1, cores // threads)} gives each its own)",
                          highlight=False)
    return workers


def journal_of(out: Path) -> Path:
    """The journal of the job writing ``out``: ``games.ggf`` -> ``games.ggf.jsonl``."""
    return out.with_name(out.name + ".jsonl")


def backend_for(workers: int, ray: bool, address: str | None) -> Any:
    """The backend the options ask for; bad input (Ray missing, no cluster there) exits."""
    from hasamigo.jobs import JobError, make_backend

    if address is not None:  # Ray waits for an address that does not answer: say where
        err_console.print(f"connecting to the Ray cluster at {address}…", highlight=False)
    try:
        return make_backend(workers, ray=ray, address=address)
    except JobError as exc:
        raise fail(str(exc)) from None


def spread(workers: int, ray: bool, address: str | None) -> bool:
    """Whether the options ask for the jobs runner: more than one worker, or Ray."""
    return workers > 1 or ray or address is not None


def backend_kind(ray: bool, address: str | None) -> str:
    """``ray`` or ``local``, as the summaries say."""
    return "ray" if ray or address is not None else "local"
