"""The game of the ``play`` command: in the terminal, against a program or between two people
(the command's options and help are in :mod:`hasamigo.cli.play_command`, which imports this
module when the command runs).

The game runs on :class:`~hasamigo.game.controller.GameController`, the one the web app
uses, so the terminal follows the same official procedure: colours chosen, drawn or by
fuse-ishi, the clock and rule 15 (a flag is lost only when claimed; the program claims
the person's fallen flag, the person claims the program's with ``claim``), the
time-out winner's choice of 33–31 or play-out, take-backs only in casual games, hints
refused in official ones.

Every event is saved to the games database as it happens (the web app's database, so the
game shows up in its library), and the end of the session prints a one-time link that
gives a browser the person's seat: the web library lists only the games a browser
created or joined.

This module sets the game up, makes the program ready and says where the game is kept;
the game loop (prompts, commands, the program's turns) is :mod:`hasamigo.cli.play_session`,
what the terminal shows is :mod:`hasamigo.cli.play_screen` and where the game is stored is
:mod:`hasamigo.cli.play_store`, all re-exported here. The imports point that way only:
the command (:mod:`hasamigo.cli.play_command`) to this module, this module to the others.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from hasamigo.cli import console, err_console, fail, variant_named
from hasamigo.cli.play_screen import clock_text, legal_text
from hasamigo.cli.play_session import HINT_DEPTH, Leave, TerminalGame
from hasamigo.cli.play_store import Saver, open_repository
from hasamigo.errors import HasamigoError
from hasamigo.game.clock import Clock
from hasamigo.game.controller import GameController
from hasamigo.game.errors import GameError
from hasamigo.game.setup import COLOUR_METHODS, GameOptions, GameSetup, Participant
from hasamigo.game.state import Phase
from hasamigo.player_spec import PlayerSpec
from hasamigo.variants import VARIANTS

if TYPE_CHECKING:
    from hasamigo.engine.players import Player

#: The games' time source: the wall clock, as in the web app, so that the instants of a
#: game's events mean the same whichever front-end wrote them (tests replace it).
wall_clock: Callable[[], float] = time.time


def make_program(spec: str, seed: int) -> Player:
    """The program for ``spec`` (the engine package's registry; tests replace it)."""
    from hasamigo.engine.players import make_player

    return make_player(spec, seed=seed)


def program_name(spec: PlayerSpec | str) -> str:
    """A program's name as players see it, from the engine package's registry:
    ``Victory``, ``Engine level 5``, ``Engine (top level)``, ``Engine level 6 on 2
    threads`` (``engine:6@2``); ``Engine`` for the registry's ``engine``; a spec that
    names no program of the registry as written."""
    from hasamigo.engine.players import PROGRAMS
    from hasamigo.errors import InvalidOptionError

    try:
        read = spec if isinstance(spec, PlayerSpec) else PlayerSpec.parse(spec)
    except InvalidOptionError:
        return str(spec)
    program = None if read.external else PROGRAMS.get(read.name)
    if program is None:
        return str(spec)
    if read.level is None or not program.levels:
        return program.en
    name = (f"{program.en} (top level)" if read.level == "top"
            else f"{program.en} level {read.level}")
    return name + (f" on {read.threads} threads" if read.threads != 1 else "")


def threaded_spec(spec: PlayerSpec, threads: int) -> PlayerSpec:
    """``spec`` with ``play --threads``: an engine level's spec on ``threads`` threads
    (``engine:5`` -> ``engine:5@2``; the game keeps it, so the web app playing the game on
    goes on with them); any other program's as it is (the threads are then the hints').
    A spec that already says other threads than ``--threads`` is refused."""
    if threads == 1 or spec.level is None:
        return spec
    if spec.threads not in (1, threads):
        raise fail(f"{spec} says its threads: leave out --threads, or give the same")
    return spec.with_threads(threads)


def _build_setup(vs: str | None, names: list[str], colour: str, clock: float | None,
                 official: bool, no_draws: bool, auto_claim: bool, variant: str,
                 handicap: int, start: str | None, disc_limit: int | None) -> GameSetup:
    """The game the options ask for (raises :class:`typer.Exit` with a message if not)."""
    cls = variant_named(variant)
    if disc_limit is not None and disc_limit != cls.default_disc_limit:
        limited = ", ".join(f"{v.name} ({v.default_disc_limit})" for v in VARIANTS
                            if v.default_disc_limit is not None)
        raise fail(f"the game procedure takes a disc limit only with its variant: "
                   f"{limited}")
    if colour not in COLOUR_METHODS:
        raise fail(f"--colour is one of {', '.join(COLOUR_METHODS)}, not {colour!r}")
    if len(names) > (1 if vs is not None else 2):
        raise fail("give --name once (yours) against a program, at most twice for two people")
    try:
        if vs is None:
            first = Participant(names[0] if names else "Player 1")
            second = Participant(names[1] if len(names) > 1 else "Player 2")
        else:
            first = Participant(names[0] if names else "You", auto_claim=auto_claim)
            second = Participant(program_name(vs), program=vs)
        options = GameOptions(variant=cls.name, start=start, handicap=handicap,
                              clock_seconds=None if clock is None else clock * 60.0,
                              casual=not official, draws_allowed=not no_draws)
        return GameSetup((first, second), options, colour)
    except GameError as exc:
        raise fail(str(exc)) from None


def _warm(spec: str, options: GameOptions, *, clock: bool = True) -> None:
    """Make the program ready before the game: compile (the first time) or load the
    kernel groups it uses on this board, and only those
    (:func:`~hasamigo.engine.players.program_kernels`: Victory's weighted search, not the
    engine's minutes), saying so while they compile; then, with a ``clock``, let it choose
    once (its tables, its book), so that none of it is charged to its clock. It gets a
    second on a clock of its own, so that a program that manages its time answers at once."""
    from hasamigo._kernels.warm import GROUPS, on_disk, warm
    from hasamigo.engine.players import program_kernels

    board = options.new_board()
    needed, better = program_kernels(spec, type(board))
    # nothing loads in the background here: a player with better kernels (Weakest) has them
    groups = [g for g in GROUPS if g in needed | better]
    name = program_name(spec)
    words = (f"getting {name} ready…" if on_disk(*groups)
             else f"compiling {name}'s kernels, first run only…")
    with console.status(words, spinner="line"), contextlib.suppress(Exception):
        warm(*groups)  # a failure shows again, and is reported, when the program moves
    if not clock or board.is_game_over() or not board.legal_moves_mask():
        return
    warm_clock = Clock(1.0, time_source=time.monotonic)
    warm_clock.start(board.turn)
    # A failure here shows again, and is reported, when the program is to move.
    with console.status(f"getting {program_name(spec)} ready…", spinner="line"), \
            contextlib.suppress(Exception):
        make_program(spec, 0).choose(board, warm_clock)


def _finish(session: TerminalGame, saver: Saver, code: str, link_base: str, db_url: str
            ) -> bool:
    """Stop a running clock if the game is left unfinished, save, say where the game is;
    ``False`` if it could not be saved."""
    game = session.game
    state = game.state
    if state.phase is not Phase.OVER and state.clock is not None \
            and state.clock.running is not None and not state.suspended:
        # Nobody is at the board any more: the clock waits until a browser takes the
        # game over (joining resumes it), as it does while a server is down.
        game.suspend()
    if not saver.save():
        err_console.print(f"[bold red]error:[/] the game could not be saved: "
                          f"{escape(saver.error or '')}", highlight=False)
        return False
    out = session.out
    if game.phase is Phase.OVER:
        from hasamigo.notation.transcript import write_transcript

        if game.board.move_stack:
            transcript = write_transcript(game.board.move_stack, type(game.board))
            out.print(f"transcript: {transcript}", highlight=False, soft_wrap=True)
        out.print(f"saved as game {game.id} in {escape(db_url)}", highlight=False,
                  soft_wrap=True)
    else:
        out.print(f"the game is unfinished; saved as game {game.id} in {escape(db_url)}",
                  highlight=False, soft_wrap=True)
    link = f"{link_base.rstrip('/')}/games/{game.id}/join?code={code}"
    out.print(f"open {link} to keep this game in your browser's library", highlight=False,
              soft_wrap=True)
    return True


def play_game(*, vs: PlayerSpec | None, colour: str, clock: float | None, official: bool,
              no_draws: bool, auto_claim: bool, name: list[str] | None, variant: str,
              handicap: int, start: str | None, disc_limit: int | None, db: str | None,
              link_base: str, threads: int = 1) -> None:
    """The ``play`` command (:mod:`hasamigo.cli.play_command` has its options): set the
    game up, store it, play it at the terminal, then say where it is kept. Raises
    :class:`typer.Exit` with the exit status. ``vs``: the program, read from the command
    line; the game keeps its spec's text. ``threads``: the engine's search threads
    (:func:`threaded_spec`; the hints' too)."""
    spec = None
    if vs is not None:
        spec = str(threaded_spec(vs, threads))
        try:
            # an unknown spec, or one that cannot play the board, is refused before
            # anything is stored
            make_program(spec, 0).check_board(variant_named(variant))
        except HasamigoError as exc:
            raise fail(str(exc)) from None
    setup = _build_setup(spec, list(name or []), colour, clock, official, no_draws,
                         auto_claim, variant, handicap, start, disc_limit)
    try:
        setup.options.new_board()
    except GameError as exc:  # a start or handicap the board cannot take
        raise fail(str(exc)) from None
    repo, url = open_repository(db)
    if spec is not None:
        _warm(spec, setup.options, clock=clock is not None)
    # The clock starts with the game: after the database and the program are ready.
    game = GameController.new(setup, time_source=wall_clock, game_id=secrets.token_hex(6))
    saver = Saver(repo, game, console)
    # The browser that opens the link takes the person's seat (both seats for two people
    # on one screen, as the web app's own same-screen games hold).
    seats = (0,) if spec is not None else (0, 1)
    try:
        code = saver.create(seats)
    except Exception as exc:
        raise fail(f"cannot store the game in {url}: {exc}") from None
    session = TerminalGame(game, saver, console, make_program=make_program, threads=threads)
    status = 0
    try:
        session.run()
    except Leave as leave:
        status = leave.status
    except KeyboardInterrupt:
        console.print("\ninterrupted", highlight=False)
        status = 130
    if not _finish(session, saver, code, link_base, url) and status == 0:
        status = 1
    raise typer.Exit(status)


__all__ = ["HINT_DEPTH", "Saver", "TerminalGame", "clock_text",
           "legal_text", "make_program", "play_game", "program_name", "threaded_spec",
           "wall_clock"]
