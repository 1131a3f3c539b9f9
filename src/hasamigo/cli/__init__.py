"""The ``hasamigo`` command line (Typer + Rich).

Every command that prints results also takes ``--json``; the shapes are documented in
README.md and in each command's help. Commands live in modules by area (``core``: rules
and formats; ``engine``: search and solving; ``match``: matches and simulations; ``play``:
a game in the terminal; ``jobs``: self-play and the options of long jobs on several
workers; ``protocols``: our engine
over NBoard and GTP; ``web``: the server) and register themselves on :data:`app`.

The help must come up at once: the modules import the engine, the kernels (numba), the
web app and the database inside the commands that use them, never at import time
(tests/test_cli_help.py checks that ``hasamigo --help`` loads none of them).
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from hasamigo.cli.helptext import Typer

if TYPE_CHECKING:
    from hasamigo.board import Board

app = Typer(
    help="hasamigo: Othello by the official JOF rules. Squares are a1 (top-left) .. h8.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

#: The variants' names, for the help of --variant: written out, as the registry
#: (:data:`hasamigo.variants.VARIANTS`) loads the board's kernels; a test checks them.
VARIANT_NAMES = ("standard", "parallel", "original", "reversi-32", "6x6", "4x4", "octagon",
                 "grand", "eight-stars", "hasegawa-8x9", "hasegawa-9x10", "nip-octagon",
                 "nip-circle")
VariantOpt = Annotated[
    str,
    typer.Option("--variant", "-v", help="Board: " + ", ".join(VARIANT_NAMES) + "."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead.")]
#: The engine's most search threads (:data:`hasamigo.engine.limits.MAX_THREADS`), written
#: out for the help as the variants are; a test checks it.
MAX_THREADS = 64
#: ``--threads`` of every command that searches with the engine. One thread unless asked:
#: a search's nodes (and its node counts, the benchmarks' figures) are then the same run
#: after run, and the commands that share work among processes (``match``, ``solve
#: --workers``) already fill the cores with them.
ThreadsOpt = Annotated[int, typer.Option(
    "--threads", min=1, max=MAX_THREADS,
    help=f"The engine's search threads, 1..{MAX_THREADS} (one shared table).")]
#: Where the games database is unless --db says, for the help of each --db (as
#: hasamigo.storage.db.default_db_url finds it). In short words: Rich cuts a word wider
#: than the help's column (18 columns in ``tournament new --help`` on an 80-column
#: terminal) with an ellipsis, as it cut ~/.local/share/hasamigo/hasamigo.db.
DB_DEFAULT = ("Default: $HASAMIGO_DB, else hasamigo.db in the hasamigo directory of "
              "$XDG_DATA_HOME or ~/.local/share.")
#: the --db option of every command on the database (opened by hasamigo.cli.database)
DbOpt = Annotated[str | None, typer.Option(
    "--db", help=f"Database URL (as for serve). {DB_DEFAULT}")]

COMPILING = "compiling the engine, first run only…"


def ready_kernels(*groups: str) -> None:
    """Compile (the first run) or load the kernels of ``groups`` before anything is timed,
    with a progress line on stderr while it compiles: the first search would otherwise
    report the compile (the engine: about 45 s of CPU) as its own time, after a silent
    wait."""
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
    from hasamigo.variants import find_variant

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
from hasamigo.cli import accounts as _accounts  # noqa: E402,F401
from hasamigo.cli import analysis as _analysis  # noqa: E402,F401
from hasamigo.cli import bench as _bench  # noqa: E402,F401
from hasamigo.cli import book as _book  # noqa: E402,F401
from hasamigo.cli import core as _core  # noqa: E402,F401
from hasamigo.cli import corpus as _corpus  # noqa: E402,F401
from hasamigo.cli import engine as _engine  # noqa: E402,F401
from hasamigo.cli import jobs as _jobs  # noqa: E402,F401
from hasamigo.cli import library as _library  # noqa: E402,F401
from hasamigo.cli import match as _match  # noqa: E402,F401
from hasamigo.cli import play_command as _play_command  # noqa: E402,F401
from hasamigo.cli import play_multi as _play_multi  # noqa: E402,F401
from hasamigo.cli import protocols as _protocols  # noqa: E402,F401
from hasamigo.cli import ratings as _ratings  # noqa: E402,F401
from hasamigo.cli import record as _record  # noqa: E402,F401
from hasamigo.cli import study as _study  # noqa: E402,F401
from hasamigo.cli import study_report as _study_report  # noqa: E402,F401
from hasamigo.cli import study_simulate as _study_simulate  # noqa: E402,F401
from hasamigo.cli import tournament as _tournament  # noqa: E402,F401
from hasamigo.cli import web as _web  # noqa: E402,F401
