"""Our engine for other programs: ``nboard`` and ``gtp`` speak those protocols on
stdin/stdout. Nothing but protocol output goes to stdout; logs go to stderr."""

from __future__ import annotations

import logging
import os
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from hasamigo.cli import ThreadsOpt, app

if TYPE_CHECKING:
    from hasamigo.engine.protocols.session import Session

#: The engine's highest level (``hasamigo.engine.limits.MAX_LEVEL``) and a protocol
#: engine's level unless told otherwise (``hasamigo.engine.protocols.session
#: .DEFAULT_LEVEL``), written out: the engine loads the kernels, and the help must not
#: wait for them. tests/test_cli_help.py checks that they agree.
MAX_LEVEL = 10
DEFAULT_LEVEL = 6

LevelOpt = Annotated[int, typer.Option(
    "--level", "-l", min=1, max=MAX_LEVEL,
    help=f"Engine level 1..{MAX_LEVEL} (a GUI's 'set depth' overrides it).")]
VerboseOpt = Annotated[bool, typer.Option("--verbose", help="Log each refusal to stderr.")]


def _run(session: Session, verbose: bool) -> None:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO if verbose else logging.WARNING,
                        format="%(name)s: %(message)s")
    from hasamigo.cli import ready_kernels
    from hasamigo.engine.protocols.session import serve

    ready_kernels("rules", "engine")
    try:
        serve(session, sys.stdin, sys.stdout)
    finally:
        # a reader gone away: no second broken pipe when Python flushes stdout at exit
        try:
            sys.stdout.flush()
        except (BrokenPipeError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(0)


@app.command("nboard")
def nboard(level: LevelOpt = DEFAULT_LEVEL, threads: ThreadsOpt = 1,
           verbose: VerboseOpt = False) -> None:
    """Be an NBoard-protocol engine (version 2) on stdin/stdout, for NBoard and other GUIs.

    A GUI may change the search threads with 'set threads N'."""
    from hasamigo.engine.protocols.nboard import NBoardSession

    _run(NBoardSession(level=level, threads=threads), verbose)


@app.command("gtp")
def gtp(level: LevelOpt = DEFAULT_LEVEL, threads: ThreadsOpt = 1,
        verbose: VerboseOpt = False) -> None:
    """Be a GTP (Go Text Protocol 2) engine on stdin/stdout: boardsize 8, play, genmove...

    A controller may change the search threads with 'hasamigo-threads N'."""
    from hasamigo.engine.protocols.gtp import GTPSession

    _run(GTPSession(level=level, threads=threads), verbose)
