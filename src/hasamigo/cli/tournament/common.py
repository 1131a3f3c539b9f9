"""What the ``hasamigo tournament`` commands share: the command group, its options, the
tournament service over the database (its errors become exit status 2) and how numbers
and JSON are shown.
"""

from __future__ import annotations

import getpass
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hasamigo.cli import app, emit_json, fail
from hasamigo.cli.helptext import Typer

if TYPE_CHECKING:
    from hasamigo.tournament.service import TournamentService


tournament_app = Typer(
    help="Run a tournament: the Meijin format, Swiss, round robin or knockout.",
    no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")

WhoOpt = Annotated[str | None, typer.Option(
    "--as", help="Who makes the change, for the audit log (default: your login name).")]
TournamentArg = Annotated[str, typer.Argument(help="The tournament's id or name.")]
FORMAT_HELP = ("meijin (the 43rd Meijin open division), master, student, elementary "
               "(its other divisions), swiss, round-robin, knockout")


def who_of(who: str | None) -> str:
    if who:
        return who
    try:
        return getpass.getuser()
    except Exception:  # no login name (a container)
        return "director"


@contextmanager
def opened_service(db: str | None) -> Iterator[TournamentService]:
    """The tournament service over the database; its errors become exit status 2."""
    from hasamigo.cli.database import open_database
    from hasamigo.errors import HasamigoError
    from hasamigo.storage.repository import GameRepository
    from hasamigo.tournament.service import TournamentService
    from hasamigo.tournament.store import TournamentRepository

    database, _shown = open_database(db)
    service = TournamentService(TournamentRepository(database), GameRepository(database))
    try:
        yield service
    except (HasamigoError, KeyError, ValueError) as exc:
        raise fail(str(exc.args[0]) if isinstance(exc, KeyError) and exc.args
                   else str(exc)) from None
    finally:
        database.close()


def show_json(value: Any) -> None:
    from hasamigo.tournament.service import as_json

    emit_json(as_json(value))


def number_text(value: float) -> str:
    """A whole number without its ``.0``; else as short as it goes (``1.5``)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def c_setting(text: str) -> int | None:
    """The ``--c`` option of ``new`` and ``simulate``: ``None`` for ``auto``, else 1 to 64."""
    if text.strip().lower() in ("auto", "nearest"):
        return None
    try:
        value = int(text)
    except ValueError:
        raise typer.BadParameter("C is 'auto' (nearest to 64 ÷ games) or a whole number "
                                 "(6: the older fixed C)") from None
    if not 1 <= value <= 64:
        raise typer.BadParameter("C is 1 to 64")
    return value
