"""The ``hasamigo`` command line (Typer + Rich).

Every command that prints results also takes ``--json``; the shapes are documented in
README.md and in each command's help. Commands live in modules by area (``core``: rules
and formats; ``engine``: search and solving; ``match``: matches and simulations; ``play``:
a game in the terminal; ``jobs``: self-play and the options of long jobs on several
workers; ``protocols``: our engine
over NBoard and GTP; ``web``: the server) and register themselves on :data:`app`.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from hasamigo.board import Board
from hasamigo.variants import VARIANTS, find_variant

app = typer.Typer(
    help="hasamigo: Othello by the official JOF rules. Squares are a1 (top-left) .. h8.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

VariantOpt = Annotated[
    str,
    typer.Option("--variant", "-v", help="Board: " + ", ".join(v.name for v in VARIANTS) + "."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead.")]

COMPILING = "compiling the engine, first run only…"


def ready_kernels(*groups: str) -> None:
    """Compile (the first run) or load the kernels of ``groups`` before anything is timed,
    with a progress line on stderr while it compiles: the first search would otherwise
    report the compile (half a minute) as its own time, after a silent wait."""
    from hasamigo._kernels.warm import on_disk, warm

    if on_disk(*groups):
        warm(*groups)
        return
    start = time.perf_counter()
    if err_console.is_terminal:
        with err_console.status(COMPILING):
            warm(*groups)
    else:
        err_console.print(COMPILING, highlight=False)
        warm(*groups)
    err_console.print(f"compiled in {time.perf_counter() - start:.0f} s (cached from now on)",
                      highlight=False)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``message`` as an error and return the Exit to raise (status 2: bad input).

    The message is printed as it is: it may quote the user's input (a file's ``GM[/x]``,
    a variant named ``[/x]``), which Rich would otherwise read as markup."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False,
                      soft_wrap=True)
    return typer.Exit(code)


def variant_named(name: str) -> type[Board]:
    try:
        return find_variant(name)
    except ValueError as exc:
        raise fail(str(exc)) from None


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def main() -> None:
    """Console-script entry point."""
    app()


# Register the commands (imported for their side effect on ``app``).
from hasamigo.cli import analysis as _analysis  # noqa: E402,F401
from hasamigo.cli import book as _book  # noqa: E402,F401
from hasamigo.cli import core as _core  # noqa: E402,F401
from hasamigo.cli import engine as _engine  # noqa: E402,F401
from hasamigo.cli import jobs as _jobs  # noqa: E402,F401
from hasamigo.cli import match as _match  # noqa: E402,F401
from hasamigo.cli import play as _play  # noqa: E402,F401
from hasamigo.cli import protocols as _protocols  # noqa: E402,F401
from hasamigo.cli import record as _record  # noqa: E402,F401
from hasamigo.cli import study as _study  # noqa: E402,F401
from hasamigo.cli import study_report as _study_report  # noqa: E402,F401
from hasamigo.cli import study_run as _study_run  # noqa: E402,F401
from hasamigo.cli import tournament as _tournament  # noqa: E402,F401
from hasamigo.cli import web as _web  # noqa: E402,F401
