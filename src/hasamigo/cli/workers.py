"""The options of the commands that share their work out among workers (``solve``,
``selfplay``, ``match``, ``tournament run``, ``train-eval --label exact``): ``--workers``,
``--ray``, ``--ray-address``, and the backend they ask for (:mod:`hasamigo.jobs`). No
commands here: every command module may import it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from hasamigo.cli import err_console, fail

WorkersOpt = Annotated[int, typer.Option(
    "--workers", "-w", min=1, max=1024,
    help="Workers: processes here, or Ray actors with --ray (each keeps its engine).")]
RayOpt = Annotated[bool, typer.Option(
    "--ray", help="Run the workers as Ray actors on a local Ray (pip install "
    "'hasamigo\\[cluster]').")]
RayAddressOpt = Annotated[str | None, typer.Option(
    "--ray-address", metavar="ADDRESS",
    help="Run on the Ray cluster at ADDRESS (host:port of `ray start --head`, or auto); "
    "implies --ray.")]


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


def workers_given(ctx: typer.Context) -> bool:
    """Whether ``--workers`` was on the command line (``--workers 1`` too): the commands
    that have a path of their own without the jobs runner (``match``, ``tournament run``)
    take it then."""
    source = ctx.get_parameter_source("workers")  # of typer's own copy of click
    return source is not None and source.name == "COMMANDLINE"


def backend_kind(ray: bool, address: str | None) -> str:
    """``ray`` or ``local``, as the summaries say."""
    return "ray" if ray or address is not None else "local"
