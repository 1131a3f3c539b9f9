"""The game library from the command line: ``hasamigo library import|list|show|scoring``.

The games database is the web app's (``--db``, as for ``serve``): a game imported here
shows up in its library, and the link printed hands it to a browser (a join code for both
seats, as ``play`` leaves). Each game shows how it counts a board that ends with empties:
an imported WTHOR or GGS record keeps the empties to the winner, unless imported as a JOF
event (``--jof-event``: the JOF rule of its date) or given a ``--scoring``; ``library
scoring`` changes it afterwards (:mod:`hasamigo.game.imported`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from hasamigo.cli import DbOpt, JsonOpt, app, console, emit_json, fail
from hasamigo.cli.helptext import Typer
from hasamigo.cli.inputs import as_named, input_file, nothing_in

if TYPE_CHECKING:
    from hasamigo.storage import GameRepository

library_app = Typer(help="The game library: import a game file, list and show the games, "
                         "change how a game is counted.", no_args_is_help=True)
app.add_typer(library_app, name="library")

GameArg = Annotated[str, typer.Argument(help="The game's id (as `library list` shows).")]
SCORING_HELP = ("jof-2014 (empties to the winner: the JOF rules from 1 June 2014, and the "
                "international rule before), jof-pre-2014 (the JOF rule before 1 June 2014: "
                "the discs' difference, empties split; a wipe-out 64-0) or discs (the board "
                "as it stands)")
#: what each count is called where a game is shown
SCORING_NAMES = {"jof-2014": "empties to the winner",
                 "jof-pre-2014": "JOF rule before June 2014 (empties split)",
                 "discs": "discs on the board"}


@contextmanager
def _repository(db: str | None) -> Iterator[GameRepository]:
    from hasamigo.cli.database import open_database
    from hasamigo.storage import GameRepository

    database, _shown = open_database(db)
    try:
        yield GameRepository(database)
    finally:
        database.close()


def _scoring(code: str | None) -> Any:
    from hasamigo.errors import InvalidOptionError
    from hasamigo.game.result import Scoring

    if code is None:
        return None
    try:
        return Scoring.from_code(code)
    except InvalidOptionError as exc:
        raise fail(str(exc)) from None


@library_app.command("import")
def library_import(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False,
                                         help="A game file: WTHOR (.wtb), GGF or transcripts.")],
    index: Annotated[int, typer.Option("--index", min=1, help="Which game of the file.")] = 1,
    jof_event: Annotated[bool, typer.Option(
        "--jof-event", help="A JOF event (Japan): count a board that ends with empties by "
        "the JOF rule of the record's date (before 1 June 2014: empties split). Otherwise "
        "the empties go to the winner, as WTHOR and GGS always counted.")] = False,
    scoring: Annotated[str | None, typer.Option(
        "--scoring", help=f"Count the game so instead: {SCORING_HELP}.")] = None,
    public: Annotated[bool, typer.Option("--public", help="Anyone may watch it.")] = False,
    link_base: Annotated[str, typer.Option(
        "--link-base", help="The web app's address, for the link printed.")
    ] = "http://127.0.0.1:8000",
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Import game INDEX of a file into the library, counted as its source counts (see
    --jof-event and --scoring).

    JSON: {id, black, white, phase, scoring, score, link}.
    """
    from hasamigo.errors import HasamigoError
    from hasamigo.game.imported import game_of_record, record_scoring
    from hasamigo.notation import read_games
    from hasamigo.storage import SeatSecret
    from hasamigo.storage.secrets import secret_hash

    chosen = _scoring(scoring)
    if jof_event and chosen is not None:
        raise fail("give --jof-event (the JOF rule of the record's date) or --scoring, "
                   "not both")
    with input_file(file) as path:
        try:
            records = read_games(path)
            record = next((r for n, r in enumerate(records, 1) if n == index), None)
            if record is None:
                raise nothing_in(file, "game" if index == 1 else f"game {index}")
            counted = chosen or record_scoring(record, jof_event=jof_event)
            game = game_of_record(record, at=time.time(), game_id=secrets.token_hex(6),
                                  scoring=counted)
        except (HasamigoError, ValueError, OSError) as exc:
            raise fail(as_named(str(exc))) from None
    code = secrets.token_urlsafe(18)
    with _repository(db) as repo:
        repo.create(game, public=public, creator=None,
                    secrets=[SeatSecret("join", secret_hash(code), (0, 1), None)])
    link = f"{link_base.rstrip('/')}/games/{game.id}/join?code={code}"
    shown = _game_json(game)
    if as_json:
        emit_json(shown | {"link": link})
        return
    console.print(f"imported {escape(file.name)} #{index} as game {game.id}: "
                  f"{escape(shown['black'])} – {escape(shown['white'])}, "
                  f"{shown['score'] or shown['phase']}, counted with "
                  f"{SCORING_NAMES[shown['scoring']]}", highlight=False, soft_wrap=True)
    console.print(f"open {link} to keep it in your browser's library", highlight=False,
                  soft_wrap=True)


def _game_json(game: Any) -> dict[str, Any]:
    from hasamigo.game.result import Scoring
    from hasamigo.move import BLACK, WHITE

    result = game.result
    score = today = None
    if result is not None:
        score = str(result)
        other = str(result.score_under(Scoring.JOF_2014))
        today = None if other == score else other
    return {"id": game.id, "black": game.seat(BLACK).name, "white": game.seat(WHITE).name,
            "phase": game.phase.value, "scoring": game.options.counted_by.code,
            "score": score, "today": today}


@library_app.command("list")
def library_list(
    limit: Annotated[int, typer.Option("--limit", min=1, max=500,
                                       help="At most this many games, newest first.")] = 50,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The library's games, newest update first, with how each is counted.

    JSON: [{id, updated_at, black, white, variant, phase, plies, score, scoring}]; score
    is with the empties to the winner (show gives the game's own count).
    """
    with _repository(db) as repo:
        rows = repo.summaries(limit=limit)
    out: list[dict[str, Any]] = [
        {"id": s.id, "updated_at": s.updated_at.isoformat(), "black": s.black,
         "white": s.white, "variant": s.variant, "phase": s.phase, "plies": s.move_count,
         "score": None if s.result_black is None else f"{s.result_black}–{s.result_white}",
         "scoring": s.scoring} for s in rows]
    if as_json:
        emit_json(out)
        return
    table = Table(caption=f"{len(out)} games (result: empties to the winner)")
    table.add_column("id", no_wrap=True)
    table.add_column("updated", no_wrap=True)
    for name in ("Black – White", "board", "plies", "result"):
        table.add_column(name)
    table.add_column("counted by", no_wrap=True)
    for row in out:
        table.add_row(row["id"], row["updated_at"][:16].replace("T", " "),
                      escape(f"{row['black']} – {row['white']}"), row["variant"],
                      str(row["plies"]), row["score"] or row["phase"], row["scoring"])
    console.print(table)


@library_app.command("show")
def library_show(game_id: GameArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """A stored game: its players, phase, result under its own count and how it is
    counted.

    JSON: {id, black, white, phase, scoring, score, today}; today: the count with the
    empties to the winner when the game's own differs.
    """
    game = _load(game_id, db)
    shown = _game_json(game)
    if as_json:
        emit_json(shown)
        return
    console.print(f"game {game_id}: {escape(shown['black'])} – {escape(shown['white'])}, "
                  f"{shown['phase']}", highlight=False)
    if shown["score"] is not None:
        today = "" if shown["today"] is None else \
            f" (with the empties to the winner: {shown['today']})"
        console.print(f"result: {shown['score']}{today}", highlight=False)
    console.print(f"counted by: {shown['scoring']} ({SCORING_NAMES[shown['scoring']]})",
                  highlight=False)


def _load(game_id: str, db: str | None) -> Any:
    from hasamigo.errors import HasamigoError

    with _repository(db) as repo:
        try:
            stored = repo.load(game_id)
        except HasamigoError as exc:
            raise fail(str(exc)) from None
    if stored is None:
        raise fail(f"no game {game_id[:40]!r}")
    return stored.game


@library_app.command("scoring")
def library_scoring(
    game_id: GameArg,
    scoring: Annotated[str, typer.Argument(help=f"How to count it: {SCORING_HELP}.")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Change how a stored game counts a board that ends with empties; a finished game's
    result is counted anew (a server running on the database shows it at its next
    answer about the game).

    JSON: as for show.
    """
    _scoring(scoring)
    with _repository(db) as repo:
        try:
            repo.set_scoring(game_id, scoring)
        except KeyError:
            raise fail(f"no game {game_id[:40]!r}") from None
    library_show(game_id, db, as_json)


__all__ = ["library_app"]
