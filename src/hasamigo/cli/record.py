"""``hasamigo record …``: games played over the board, from record sheets or move by move."""

from __future__ import annotations

import typer

from hasamigo.cli import app

record_app = typer.Typer(
    help="Games played over the board: record sheets and move-by-move entry.",
    no_args_is_help=True)
app.add_typer(record_app, name="record")
