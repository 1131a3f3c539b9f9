"""``hasamigo tournament …``: run a tournament (the Meijin format, Swiss, round robin,
knockout) from the command line."""

from __future__ import annotations

import typer

from hasamigo.cli import app

tournament_app = typer.Typer(
    help="Run a tournament: the Meijin format, Swiss, round robin or knockout.",
    no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")
