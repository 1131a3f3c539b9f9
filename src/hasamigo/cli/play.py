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

The program's move is computed in a worker thread of this process so that the terminal
can show the clock running while it thinks; its answer is handed back to the controller
in the main thread, which alone touches the game.
"""

from __future__ import annotations

import contextlib
import math
import re
import secrets
import threading
import time
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from hasamigo.cli import console, err_console, fail, variant_named
from hasamigo.cli.core import render_board
from hasamigo.cli.play_command import DEFAULT_LINK_BASE
from hasamigo.errors import HasamigoError
from hasamigo.game.clock import Clock
from hasamigo.game.controller import GameController, verdict_for
from hasamigo.game.errors import GameError
from hasamigo.game.events import (
    Claim,
    ColourStep,
    Event,
    MovePlayed,
    Pass,
    Resign,
    StopPlayout,
    TimeoutChoice,
    Undo,
)
from hasamigo.game.result import GameResult, Termination
from hasamigo.game.setup import COLOUR_METHODS, GameOptions, GameSetup, Participant
from hasamigo.game.state import Phase
from hasamigo.move import BLACK, WHITE, Color, Move
from hasamigo.squares import bits
from hasamigo.variants import VARIANTS

if TYPE_CHECKING:
    from hasamigo.board import Board
    from hasamigo.engine import Engine
    from hasamigo.engine.players import Player
    from hasamigo.storage import GameRepository

#: The games' time source: the wall clock, as in the web app, so that the instants of a
#: game's events mean the same whichever front-end wrote them (tests replace it).
wall_clock: Callable[[], float] = time.time

#: Hints search this many plies (the web app's default hint depth).
HINT_DEPTH = 6

#: A square, with the discs it turns under a 挟み碁 flip rule (``c4(d4e5)``), or a pass.
_SQUARE_OR_PASS = re.compile(r"^(?:[a-z][0-9]{1,2}(?:\([a-z0-9 ,]{0,150}\))?|pass|pa|--)$")
_QUIT_WORDS = ("quit", "exit", "q")
_RIGHTS = {"draw-win": "the draw-win right (引き分け勝ち)",
           "colour": "the right to choose colour"}


def make_program(spec: str, seed: int) -> Player:
    """The program for ``spec`` (the engine package's registry; tests replace it)."""
    from hasamigo.engine.players import make_player

    return make_player(spec, seed=seed)


def program_name(spec: str) -> str:
    """A program's name as players see it, from the engine package's registry:
    ``Victory``, ``Engine level 5``, ``Engine (top level)``; an unknown spec as written."""
    from hasamigo.engine.players import PROGRAMS

    kind, _, level = spec.partition(":")
    program = PROGRAMS.get(spec) or PROGRAMS.get(kind)
    if program is None:
        return spec
    if program.levels:
        return f"{program.en} (top level)" if level == "top" else f"{program.en} level {level}"
    return program.en


def clock_text(seconds: float | None) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour), rounded up so that 0:00 means the flag fell.

    >>> clock_text(61.2), clock_text(0.4), clock_text(-3.0), clock_text(3600.0)
    ('1:02', '0:01', 'flag down', '1:00:00')
    """
    if seconds is None:
        return ""
    if seconds <= 0:
        return "flag down"
    minutes, secs = divmod(math.ceil(seconds), 60)
    if minutes >= 60:
        return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


class _Leave(Exception):
    """The person ends the session (quit, end of input) with this exit status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Saver:
    """Keeps the database in step with the game: the game's row, events and join code at
    creation, then the new events after every action.

    A failed write leaves the events in memory and is retried by the next :meth:`save`
    (the repository appends from the count already stored), so a database that is busy
    for a moment loses nothing; only the last save decides the exit status."""

    def __init__(self, repo: GameRepository, game: GameController, out: Console) -> None:
        self.repo = repo
        self.game = game
        self.out = out
        self.stored = 0
        self.error: str | None = None

    def create(self, join_seats: tuple[int, ...]) -> str:
        """Store the new game with a join code for ``join_seats``; returns the code."""
        from hasamigo.storage import SeatSecret
        from hasamigo.storage.secrets import secret_hash  # as the web app looks it up

        code = secrets.token_urlsafe(18)
        self.repo.create(self.game, public=False, creator=None,
                         secrets=[SeatSecret("join", secret_hash(code), join_seats, None)])
        self.stored = len(self.game.events)
        return code

    def save(self) -> bool:
        """Store the events not stored yet; ``False`` (and a warning, once) if it fails."""
        if len(self.game.events) == self.stored:
            return True
        try:
            self.stored = self.repo.append(self.game, self.stored)
        except Exception as exc:  # SQLAlchemy's, the driver's, the disk's: retried later
            if self.error is None:
                err_console.print(f"[yellow]warning:[/] the game could not be saved yet "
                                  f"({escape(str(exc)[:200])}); trying again after the "
                                  "next move", highlight=False)
            self.error = str(exc)
            return False
        self.error = None
        return True


class TerminalGame:
    """One game played at the terminal: prompts, the program's turns, notices, saving.

    Everything that happens to the game is an event of its controller; :meth:`report`
    turns the new events into notices (a pass, a claim, the program's move, the result),
    whichever action appended them, so what is printed is what is stored."""

    def __init__(self, game: GameController, saver: Saver, out: Console) -> None:
        self.game = game
        self.saver = saver
        self.out = out
        self.reported = 0
        self.seated = False
        self.drawn: tuple[int, Phase] | None = None
        self.announced: GameResult | None = None
        self.player: Player | None = None
        self.engine: Engine | None = None
        self.declined_claim = False
        self.commands: dict[str, Callable[[], None]] = {
            "hint": self.hint, "hints": self.hint,
            "undo": self.undo, "takeback": self.undo,
            "claim": self.claim, "resign": self.resign, "stop": self.stop_playout,
            "moves": self.list_moves, "board": self.redraw,
            "help": self.help, "?": self.help,
        }

    # ---- who is who -------------------------------------------------------------------
    @property
    def against_program(self) -> bool:
        return any(p.program is not None for p in self.game.participants)

    def name(self, colour: Color) -> str:
        return self.game.seat(colour).name

    def who(self, colour: Color) -> str:
        """``You (black)`` / ``Victory (white)``: the seat and its colour, as markup."""
        return f"[bold]{escape(self.name(colour))}[/] ({colour})"

    def says(self, who: Color | int, verb: str, rest: str = "") -> str:
        """A sentence about a seat (a colour, or a participant before colours are known):
        "You call black" for the person playing a program, "Victory (white) calls black"
        otherwise (markup)."""
        game = self.game
        participant = game.participants[who] if isinstance(who, int) else game.seat(who)
        if self.against_program and participant.is_person:
            subject = "You"
        else:
            subject = (f"[bold]{escape(participant.name)}[/]" if isinstance(who, int)
                       else self.who(who))
            verb += "s"
        return f"{subject} {verb} {rest}".rstrip()

    def acting(self) -> Color:
        """The colour the person at the keyboard acts for: the person's against a program;
        with two people on one screen, the side to move (the play-out winner in a
        play-out)."""
        state = self.game.state
        if state.phase is Phase.PLAYOUT and state.timeout_loser is not None:
            return state.timeout_loser.other
        persons = self.game.persons
        if len(persons) == 1:
            return persons[0]
        return state.board.turn

    # ---- the loop -----------------------------------------------------------------------
    def run(self) -> None:
        """Play until the game is over and its result accepted (or :class:`_Leave`)."""
        game = self.game
        self.out.print(self.intro(), highlight=False)
        self.settle()
        while True:
            phase = game.phase
            if phase is Phase.OVER:
                if self.offer_claim():
                    continue
                self.accept()
                return
            if phase is Phase.COLOURS:
                self.colour_turn()
            elif phase is Phase.TIMEOUT_CHOICE:
                self.timeout_turn()
            elif (turn := game.program_to_move()) is not None:
                self.program_turn(*turn)
            else:
                self.person_turn()
            self.settle()

    def settle(self) -> None:
        """Append what time has brought (claims, the end of a play-out), save, report."""
        self.game.observe()
        self.saver.save()
        self.report()

    def read(self, prompt: str) -> str:
        """A line typed by the person; end of input leaves like ``quit``."""
        try:
            return self.out.input(prompt)
        except EOFError:
            self.out.print()
            raise _Leave(0) from None

    def intro(self) -> str:
        game = self.game
        options = game.options
        kind = "casual" if options.casual else "official (no take-backs or hints)"
        seconds = options.clock_seconds
        timing = "no clock" if seconds is None else f"{clock_text(seconds)} a side"
        return (f"[bold]{escape(game.board.title)}[/], {kind}, {timing}: type a square "
                "(f5) or help.")

    # ---- turns ------------------------------------------------------------------------
    def person_turn(self) -> None:
        game = self.game
        self.draw_if_changed()
        board = game.board
        colour = self.acting()
        self.out.print(legal_text(board), highlight=False)
        left = game.remaining(colour)  # in a play-out the winner's time runs throughout
        clock = "" if left is None else f", {clock_text(left)}"
        if game.phase is Phase.PLAYOUT:
            prompt = f"{self.says(colour, 'move', f'for {board.turn}')} (play-out{clock}) > "
        else:
            prompt = f"[bold]{escape(self.name(colour))}[/] ({colour}{clock}) > "
        line = self.read(prompt)
        if game.observe():  # the program claimed a flag that fell while the person typed
            if line.strip():
                self.out.print(f"[yellow]{escape(line.strip())} was not played: time ran "
                               "out first.[/]", highlight=False)
            return
        word = line.strip().lower()
        if not word:
            return
        if word in _QUIT_WORDS:
            raise _Leave(0)
        command = self.commands.get(word)
        if command is not None:
            command()
        elif _SQUARE_OR_PASS.match(word):
            self.move(word)
        else:
            self.unknown(word)

    def move(self, text: str) -> None:
        game = self.game
        mover = None if game.phase is Phase.PLAYOUT else self.acting()
        try:
            game.play(mover, text)
        except HasamigoError as exc:  # illegal, not a square, out of time in a play-out
            self.out.print(f"[red]{escape(str(exc))}[/]", highlight=False)

    def program_turn(self, colour: Color, spec: str) -> None:
        """Let the program choose in a worker thread while the clock is shown, then play
        its move (a move chosen for an older position is refused by the controller)."""
        game = self.game
        if self.player is None:
            # seeded by the game and colour, as the web app seeds its programs
            self.player = make_program(spec, zlib.crc32(f"{game.id}:{colour.value}".encode()))
        player = self.player
        board, revision, clock = game.board.copy(), game.revision, game.program_clock()
        answer: list[Move] = []
        failure: list[BaseException] = []

        def think() -> None:
            try:
                answer.append(player.choose(board, clock))
            except BaseException as exc:  # handed to the main thread
                failure.append(exc)

        worker = threading.Thread(target=think, name="hasamigo-program", daemon=True)
        worker.start()
        try:
            self.wait_for(worker, colour)
        except KeyboardInterrupt:
            player.cancel()  # stop the search; the thread is a daemon and dies with us
            raise
        if failure or not answer:
            reason = str(failure[0]) if failure else "no answer"
            err_console.print(f"[bold red]error:[/] the program failed: "
                              f"{escape(reason[:300])}", highlight=False)
            raise _Leave(1)
        game.play(colour, answer[0], revision=revision)

    def wait_for(self, worker: threading.Thread, colour: Color) -> None:
        """Wait for the program; in a terminal that can redraw a line, a spinner with the
        program's clock running, elsewhere one line (a log or a dumb terminal)."""
        text = f"{self.who(colour)} is thinking…"
        interactive = self.out.is_terminal and not self.out.is_dumb_terminal
        if not interactive:
            self.out.print(text, highlight=False)
            while worker.is_alive():
                worker.join(0.2)  # a timed join lets Ctrl-C through
            return

        def status_text() -> str:
            left = self.game.remaining(colour)
            return text if left is None else f"{text} {clock_text(left)}"

        with self.out.status(status_text(), spinner="line") as status:
            while worker.is_alive():
                worker.join(0.2)
                status.update(status_text())

    def colour_turn(self) -> None:
        """A person's fuse-ishi step: the call, the right, or the colour."""
        game = self.game
        state = game.state
        pending = state.pending_colour_step()
        assert pending is not None  # the controller takes the server's steps itself
        step, who = pending
        assert who is not None
        hider = state.colours.hider
        hider_name = "" if hider is None else game.participants[hider].name
        plain_call = not (state.colours.draw_win_only or not game.options.draws_allowed)
        if step == "call" and plain_call:
            values = ("top", "bottom")
            explain = (f"Fuse-ishi: {escape(hider_name)} has hidden a disc. Call its face, "
                       "top or bottom: you play the colour of the face you call.")
        elif step == "call":
            values = ("black", "white")
            prize = ("the draw-win right (引き分け勝ち: a 32–32 game is your win)"
                     if state.colours.draw_win_only else "the choice of a right")
            explain = (f"Fuse-ishi: {escape(hider_name)} has hidden a disc. Call the colour "
                       f"of its upper face, black or white: a right call wins {prize}.")
        elif step == "right":
            values = ("draw-win", "colour")
            explain = ("You choose a right: draw-win (a 32–32 game is your win) or colour "
                       "(you choose your colour); the opponent gets the other one.")
        else:
            values = ("black", "white")
            explain = "You hold the right to choose colour: black or white."
        person = escape(game.participants[who].name)
        self.out.print(explain, highlight=False)
        word = self.read(f"[bold]{person}[/]: {' or '.join(values)} > ").strip().lower()
        if self.meta(word):
            return
        if word not in values:
            self.out.print(f"[red]type {' or '.join(values)}[/] (or help, quit)")
            return
        try:
            game.colour_step(who, step, word)
        except GameError as exc:
            self.out.print(f"[red]{escape(str(exc))}[/]", highlight=False)

    def timeout_turn(self) -> None:
        """The person won on time: 33–31, or play-out (勝手打ち) on their own time."""
        game = self.game
        loser = game.timeout_loser
        assert loser is not None
        winner = loser.other
        self.out.print(
            f"{self.who(loser)}'s flag fell: {self.says(winner, 'win', 'on time')}. Choose "
            "33-31 (a 33–31 win) or playout (勝手打ち: play both colours on your own time; "
            "the count when you type stop stands, empty squares to the loser).",
            highlight=False)
        word = self.read(f"[bold]{escape(self.name(winner))}[/]: 33-31 or playout > ")
        word = word.strip().lower()
        if self.meta(word):
            return
        if word not in ("33-31", "playout", "play-out"):
            self.out.print("[red]type 33-31 or playout[/] (or help, quit)")
            return
        game.choose_after_timeout("playout" if word.startswith("play") else "33-31")

    def offer_claim(self) -> bool:
        """At the end: a flag that fell unclaimed may still be claimed (rule 15) until the
        result is accepted. Returns whether a claim was made (the game goes on)."""
        claims = self.claims()
        if self.declined_claim or not claims:
            return False
        by, flagged = claims[0]
        self.out.print(f"{self.who(flagged)}'s flag fell before the end: type claim to win "
                       "on time, or accept (or Enter) to keep this result.", highlight=False)
        while True:
            word = self.read(f"[bold]{escape(self.name(by))}[/]: claim or accept > ")
            word = word.strip().lower()
            if word == "claim":
                self.game.claim(by, flagged)
                return True
            if word in ("accept", ""):
                self.declined_claim = True
                return False
            if not self.meta(word):
                self.out.print("[red]type claim or accept[/] (or help, quit)")

    def accept(self) -> None:
        """The people leave the table: their acceptance makes the stored result final,
        as the programs' does (theirs is automatic)."""
        game = self.game
        for colour in game.persons:
            if colour not in game.state.accepted:
                game.accept_result(colour)
        self.saver.save()

    # ---- commands ----------------------------------------------------------------------
    def meta(self, word: str) -> bool:
        """The commands every prompt takes (help, board, quit); ``True`` if it was one."""
        if word in _QUIT_WORDS:
            raise _Leave(0)
        if word in ("help", "?"):
            self.help()
            return True
        if word == "board":
            self.redraw()
            return True
        return not word

    def hint(self) -> None:
        game = self.game
        if not game.options.casual:
            self.out.print("[red]no hints in an official game[/]")
            return
        board = game.board
        try:
            if self.engine is None:
                from hasamigo.engine import Engine

                self.engine = Engine()
            from hasamigo.engine import Limit

            # the first search of a run loads the engine (compiles it, the first time)
            with self.out.status("searching…", spinner="line"):
                lines = self.engine.hints(board, Limit(depth=HINT_DEPTH))
        except HasamigoError as exc:
            self.out.print(f"[red]no hints here: {escape(str(exc))}[/]", highlight=False)
            return
        ranked = "  ".join(f"{board.move_name(line.move)} {line.score:+d}" for line in lines)
        self.out.print(f"hints (depth {HINT_DEPTH}; disc difference for {board.turn}): "
                       f"{ranked}",
                       highlight=False)

    def undo(self) -> None:
        """Against a program: the person's last move and the program's reply. Two people on
        one screen: the last move, whoever made it (one keyboard holds both consents)."""
        game = self.game
        try:
            if self.against_program:
                game.undo(self.acting())
                return
            last = next((m.colour for m in reversed(game.history) if not m.move.is_pass), None)
            if last is None:
                raise GameError("there is no move to take back", "nothing_to_undo")
            game.request_undo(last)
            game.undo(last)
        except GameError as exc:
            self.out.print(f"[red]{escape(str(exc))}[/]", highlight=False)

    def claims(self) -> list[tuple[Color, Color]]:
        """``(by, flagged)`` for each fallen flag a person at this keyboard may claim."""
        game = self.game
        now = game.now()
        persons = game.persons
        return [(flagged.other, flagged) for flagged in (BLACK, WHITE)
                if flagged.other in persons and game.state.can_claim(flagged, now)]

    def claim(self) -> None:
        game = self.game
        claims = self.claims()
        if not claims:
            if game.state.clock is None:
                self.out.print("[red]this game has no clock[/]")
                return
            other = self.acting().other
            left = game.remaining(other)
            self.out.print(f"[red]no flag has fallen[/] ({escape(self.name(other))} has "
                           f"{clock_text(left)} left)", highlight=False)
            return
        by, flagged = claims[0]
        try:
            game.claim(by, flagged)
        except GameError as exc:
            self.out.print(f"[red]{escape(str(exc))}[/]", highlight=False)

    def resign(self) -> None:
        try:
            self.game.resign(self.acting())
        except GameError as exc:
            self.out.print(f"[red]{escape(str(exc))}[/]", highlight=False)

    def stop_playout(self) -> None:
        if self.game.phase is not Phase.PLAYOUT:
            self.unknown("stop")
            return
        self.game.stop_playout()

    def list_moves(self) -> None:
        self.out.print(legal_text(self.game.board), highlight=False)

    def redraw(self) -> None:
        self.drawn = None
        self.draw_if_changed()

    def help(self) -> None:
        rows = [
            ("f5", "play a move (a square; the legal ones are listed above the prompt)"),
            *([("c4(d4)", "under a 挟み碁 flip rule: the square, then the discs it turns "
                          "in parentheses (c4(d4e5) to turn two under 'choose')")]
              if self.game.board.flip_rule != "all" else []),
            ("hint", "the engine's best moves with their scores (casual games)"),
            ("undo", "take back your last move" + (" and the program's reply"
                                                    if self.against_program else "")
             + " (casual games)"),
            ("claim", "claim the opponent's fallen flag (a game with a clock)"),
            ("resign", "resign the game"),
            ("stop", "end a play-out: the count stands"),
            ("moves", "list the legal moves"),
            ("board", "draw the board again"),
            ("help", "this list"),
            ("quit", "leave; the game is saved as it stands (also Ctrl-D)"),
        ]
        table = Table.grid(padding=(0, 2))
        for name, what in rows:
            table.add_row(Text(name, style="bold"), Text(what))
        self.out.print(table)

    def unknown(self, word: str) -> None:
        self.out.print(f"[red]unknown command {escape(repr(word[:20]))}[/]: try f5, hint, undo, "
                       "claim, resign, board, help, quit", highlight=False)

    # ---- what is shown ---------------------------------------------------------------
    def draw_if_changed(self) -> None:
        """The board and the players' panel, when the position or phase has changed."""
        state = self.game.state
        key = (state.position_revision, state.phase)
        if key == self.drawn:
            return
        self.drawn = key
        board = state.board
        last = next((m for m in reversed(board.move_stack) if not m.is_pass), None)
        diagram = render_board(board, last=None if last is None else last.square)
        rows = [Text.from_markup(line) for line in diagram.splitlines()]
        panel = [Text.from_markup(line) for line in self.panel().splitlines()]
        width = max(row.cell_len for row in rows)
        self.out.print()
        # side by side, line by line (a table would pad every line to its widest)
        for index in range(max(len(rows), len(panel))):
            line = rows[index].copy() if index < len(rows) else Text()
            if index < len(panel):
                line.pad_right(width + 4 - line.cell_len)
                line.append_text(panel[index])
            self.out.print(line)

    def panel(self) -> str:
        """The players with their clocks, the counts, the last move (markup)."""
        game = self.game
        state = game.state
        board = state.board
        lines = []
        if state.seats is not None:
            width = max(len(self.name(c)) for c in (BLACK, WHITE))
            for colour, disc in ((BLACK, "●"), (WHITE, "○")):
                left = game.remaining(colour)
                clock = "" if left is None else f"  {clock_text(left):>7}"
                moving = "  [bold]to move[/]" if (
                    board.turn is colour and state.phase in (Phase.PLAYING, Phase.PLAYOUT)
                    and not board.is_game_over()) else ""
                lines.append(f"{disc} {colour}  {escape(self.name(colour)).ljust(width)}"
                             f"{clock}{moving}")
        black, white = board.counts()
        lines.append(f"discs {black}–{white}, {board.empties.bit_count()} empty")
        played = [m for m in state.moves if not m.move.is_pass]
        if played:
            lines.append(f"last: {played[-1].colour} {board.move_name(played[-1].move)}"
                         f" (move {len(played)})")
        if state.phase is Phase.PLAYOUT and state.timeout_loser is not None:
            lines.append(f"play-out: {escape(self.name(state.timeout_loser.other))} plays "
                         "both colours")
        if state.draw_win is not None:
            lines.append(f"draw-win right: {state.draw_win}")
        return "\n".join(lines)

    def report(self) -> None:
        """Notices for the events appended since the last report, then the seating and
        the result when they are new."""
        game = self.game
        events = game.events
        for event in events[self.reported:]:
            text = self.describe(event)
            if text:
                self.out.print(text, highlight=False)
        self.reported = len(events)
        if not self.seated and game.phase is not Phase.COLOURS and game.state.seats:
            self.seated = True
            self.out.print(self.seating(), highlight=False)
        result = game.result
        if game.phase is Phase.OVER and result is not None and result != self.announced:
            self.announced = result
            if result.termination is Termination.NORMAL:
                self.draw_if_changed()  # the final move's board (otherwise it is shown)
            self.out.print(self.result_text(result), highlight=False)

    def describe(self, event: Event) -> str | None:
        describe = _DESCRIPTIONS.get(type(event))
        return None if describe is None else describe(self, event)

    def seating(self) -> str:
        text = (f"Colours: [bold]{escape(self.name(BLACK))}[/] black, "
                f"[bold]{escape(self.name(WHITE))}[/] white; black moves first.")
        holder = self.game.draw_win
        if holder is not None:
            text += f" {self.says(holder, 'hold', 'the draw-win right (引き分け勝ち)')}."
        return text

    def result_text(self, result: GameResult) -> str:
        game = self.game
        how = "" if result.termination is Termination.NORMAL else f" by {result.termination.value}"
        notes = []
        if result.by_draw_win:
            notes.append("32–32: the draw-win right decides")
        if not result.rated:
            notes.append("not rated")
        tail = f" ({'; '.join(notes)})" if notes else ""
        persons = game.persons
        if len(persons) == 1:
            verdict = verdict_for(result, persons[0])
            said = {"win": "You win", "lose": "You lose", "draw": "Draw"}[verdict.outcome]
            return f"[bold]Game over: {said} {verdict.score}{how}.[/]{tail}"
        if result.winner is None:
            return f"[bold]Game over: a draw, {result}{how}.[/]{tail}"
        score = verdict_for(result, result.winner).score  # the winner's count first
        return f"[bold]Game over: {self.who(result.winner)} wins {score}{how}.[/]{tail}"


def legal_text(board: Board) -> str:
    """``legal: f4 d6 …``; under a 挟み碁 flip rule, each square that brackets more than
    one disc with the discs to choose from: ``c4 (turn one of d4 e5)``."""
    names = []
    for move in board.legal_moves:
        name = board.move_name(move)
        if move.square is not None and board.flip_rule != "all":
            choices = board.turn_choices(move.square)
            if choices.bit_count() > 1:
                discs = " ".join(board.square_name(sq) for sq in bits(choices))
                how = "one of" if board.flip_rule == "one" else "any of"
                name += f" (turn {how} {discs})"
        names.append(name)
    return "legal: " + ("; " if board.flip_rule != "all" else " ").join(names)


def _describe_move(view: TerminalGame, event: MovePlayed) -> str | None:
    game = view.game
    if game.seat(event.colour).is_person:
        return None  # the person typed it; the board shows it
    played = next((m for m in reversed(game.history) if m.at == event.at
                   and m.colour is event.colour), None)
    took = "" if played is None or played.seconds is None else f" in {played.seconds:.1f} s"
    square = type(game.board).move_name(Move(event.square, event.turned))
    return f"{view.who(event.colour)} plays [bold]{square}[/]{took}."


def _describe_pass(view: TerminalGame, event: Pass) -> str:
    return f"[yellow]{view.says(event.colour, 'pass', '(no legal move)')}.[/]"


def _describe_claim(view: TerminalGame, event: Claim) -> str:
    if event.by is event.flagged:
        return f"[yellow]{view.says(event.by, 'report', 'a fallen flag of its own')}.[/]"
    flag = f"{event.flagged}'s fallen flag"
    return f"[yellow]{view.says(event.by, 'claim', flag)}.[/]"


def _describe_choice(view: TerminalGame, event: TimeoutChoice) -> str:
    loser = view.game.timeout_loser
    if loser is None:  # pragma: no cover - the choice follows a time-out
        return f"Time-out: {event.choice}."
    if event.choice == "playout":
        return (f"{view.says(loser.other, 'choose', 'play-out (勝手打ち)')}: type stop to "
                "take the count.")
    return f"{view.says(loser.other, 'take', 'the 33–31 win')}."


def _describe_stop(_view: TerminalGame, event: StopPlayout) -> str:
    return ("The play-out ends: the winner's time ran out." if event.timed_out
            else "The play-out is stopped: the count stands.")


def _describe_resign(view: TerminalGame, event: Resign) -> str:
    return f"{view.says(event.colour, 'resign')}."


def _describe_undo(view: TerminalGame, event: Undo) -> str:
    if view.against_program:
        program = escape(view.name(event.colour.other))
        return f"Taken back: your last move and {program}'s reply."
    return f"Taken back: {view.who(event.colour)}'s last move."


def _describe_colour(view: TerminalGame, event: ColourStep) -> str | None:
    if event.participant is None:
        if event.step == "hider":
            return f"{view.says(int(event.value), 'hide', 'the disc')} (drawn by lot)."
        return None
    who = event.participant
    if event.step == "call":
        return f"{view.says(who, 'call', event.value)}."
    if event.step == "right":
        return f"{view.says(who, 'take', _RIGHTS.get(event.value, event.value))}."
    if event.step == "colour":
        return f"{view.says(who, 'choose', event.value)}."
    return None


_DESCRIPTIONS: dict[type[Event], Callable[[TerminalGame, Any], str | None]] = {
    MovePlayed: _describe_move,
    Pass: _describe_pass,
    Claim: _describe_claim,
    TimeoutChoice: _describe_choice,
    StopPlayout: _describe_stop,
    Resign: _describe_resign,
    Undo: _describe_undo,
    ColourStep: _describe_colour,
}


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


def _open_repository(db: str | None) -> tuple[GameRepository, str]:
    """The games database (migrated to the newest schema) and its URL to show (without
    a password)."""
    from hasamigo.storage import Database, GameRepository

    shown = db or "the default database"
    try:
        database = Database(db)
        shown = database.engine.url.render_as_string(hide_password=True)
        database.open()
    except Exception as exc:  # a bad URL, a locked or foreign database, a missing driver
        raise fail(f"cannot use {shown}: {exc}") from None
    return GameRepository(database), shown


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


def play_game(*, vs: str | None, colour: str, clock: float | None, official: bool,
              no_draws: bool, auto_claim: bool, name: list[str] | None, variant: str,
              handicap: int, start: str | None, disc_limit: int | None, db: str | None,
              link_base: str) -> None:
    """The ``play`` command (:mod:`hasamigo.cli.play_command` has its options): set the
    game up, store it, play it at the terminal, then say where it is kept. Raises
    :class:`typer.Exit` with the exit status."""
    spec = None
    if vs is not None:
        spec = vs.strip().lower()
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
    repo, url = _open_repository(db)
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
    session = TerminalGame(game, saver, console)
    status = 0
    try:
        session.run()
    except _Leave as leave:
        status = leave.status
    except KeyboardInterrupt:
        console.print("\ninterrupted", highlight=False)
        status = 130
    if not _finish(session, saver, code, link_base, url) and status == 0:
        status = 1
    raise typer.Exit(status)


__all__ = ["DEFAULT_LINK_BASE", "HINT_DEPTH", "Saver", "TerminalGame", "clock_text",
           "make_program", "play_game", "program_name"]
