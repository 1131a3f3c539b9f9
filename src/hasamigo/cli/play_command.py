"""The ``play`` command's options and help. The game itself (the game controller, the
programs, the database) is :mod:`hasamigo.cli.play`, imported when the command runs, so
that ``hasamigo --help`` and ``hasamigo play --help`` load none of it."""

from __future__ import annotations

from typing import Annotated

import typer

from hasamigo.cli import MAX_THREADS, DbOpt, VariantOpt, app
from hasamigo.player_spec import PlayerSpec

#: The web app's address, for the link that hands the game to a browser.
DEFAULT_LINK_BASE = "http://127.0.0.1:8000"


def _program(text: str) -> PlayerSpec:
    """``--vs`` read as a program's spec (:func:`hasamigo.engine.players.player_spec`): a
    bad one is refused as the command line refuses any bad option."""
    from hasamigo.engine.players import player_spec

    return player_spec(text)


@app.command("play")
def play_command(
    vs: Annotated[PlayerSpec | None, typer.Option(
        "--vs", parser=_program, metavar="PROGRAM",
        help="The program to play: victory, amusement, entertainer, engine:N "
        "(N = 1..10), engine:top, weakest, random, greedy. Without it, two people play.")
    ] = None,
    threads: Annotated[int, typer.Option(
        "--threads", min=1, max=MAX_THREADS, help=f"The engine's search threads, "
        f"1..{MAX_THREADS}: an engine "
        "level's (engine:N becomes engine:N@T) and the hints'.")] = 1,
    colour: Annotated[str, typer.Option(
        "--colour", "--color", help="Your colour (two people: the first player's): black, "
        "white, random or fuse-ishi.")] = "black",
    clock: Annotated[float | None, typer.Option(
        "--clock", min=0.01, max=600, help="Minutes a side (no clock without it).")] = None,
    official: Annotated[bool, typer.Option(
        "--official", help="An official game: no take-backs, no hints.")] = False,
    no_draws: Annotated[bool, typer.Option(
        "--no-draws", help="A 32–32 game goes to the holder of the draw-win right "
        "(引き分け勝ち), decided by fuse-ishi.")] = False,
    auto_claim: Annotated[bool, typer.Option(
        "--auto-claim", help="Claim the program's fallen flag for me.")] = False,
    name: Annotated[list[str] | None, typer.Option(
        "--name", help="Your name; two people give it twice.")] = None,
    variant: VariantOpt = "standard",
    handicap: Annotated[
        int, typer.Option(min=0, max=4, help="Corner discs for Black (White starts).")
    ] = 0,
    start: Annotated[str | None, typer.Option(help="cross, parallel or original.")] = None,
    disc_limit: Annotated[int | None, typer.Option(
        help="Discs a side may place: only the variant's own (reversi-32: 32).")] = None,
    db: DbOpt = None,
    link_base: Annotated[str, typer.Option(
        "--link-base", help="The web app's address, for the link to this game.")
    ] = DEFAULT_LINK_BASE,
) -> None:
    """Play a game in the terminal: against a program (--vs) or two people.

    The web app's official procedure: colours, the clock (a flag is lost
    only when claimed), passes played automatically. At the prompt type a
    square (f5), hint, undo, claim, resign, help or quit. Every move is
    saved to the games database; at the end a link opens the game in your
    browser's library. Exit status 0 when the game ends or is left with
    quit (saved as it stands), 130 after Ctrl-C.
    """
    from hasamigo.cli.play import play_game

    play_game(vs=vs, colour=colour, clock=clock, official=official, no_draws=no_draws,
              auto_claim=auto_claim, name=name, variant=variant, handicap=handicap,
              start=start, disc_limit=disc_limit, db=db, link_base=link_base,
              threads=threads)
