"""The game loop of the ``play`` command: the person's prompts and commands, the program's
turns, the fuse-ishi and time-out choices, until the result is accepted (what is shown
is :mod:`hasamigo.cli.play_screen`; setting the game up and storing it,
:mod:`hasamigo.cli.play`).

The program's move is computed in a worker thread of this process so that the terminal
can show the clock running while it thinks; its answer is handed back to the controller
in the main thread, which alone touches the game.
"""

from __future__ import annotations

import re
import threading
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from hasamigo.cli import err_console
from hasamigo.cli.play_screen import Screen, clock_text, legal_text
from hasamigo.errors import HasamigoError
from hasamigo.game.errors import GameError
from hasamigo.game.state import Phase
from hasamigo.move import BLACK, WHITE, Color, Move

if TYPE_CHECKING:
    from hasamigo.cli.play_store import Saver
    from hasamigo.engine import Engine
    from hasamigo.engine.players import Player
    from hasamigo.game.controller import GameController

#: Hints search this many plies (the web app's default hint depth).
HINT_DEPTH = 6

#: A square, with the discs it turns under a 挟み碁 flip rule (``c4(d4e5)``), or a pass.
_SQUARE_OR_PASS = re.compile(r"^(?:[a-z][0-9]{1,2}(?:\([a-z0-9 ,]{0,150}\))?|pass|pa|--)$")
_QUIT_WORDS = ("quit", "exit", "q")

class Leave(Exception):
    """The person ends the session (quit, end of input) with this exit status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class TerminalGame:
    """One game played at the terminal: prompts, the program's turns, commands, saving.

    Everything that happens to the game is an event of its controller; the
    :class:`~hasamigo.cli.play_screen.Screen` turns the new events into notices after
    every action (:meth:`settle`). The program is made by ``make_program(spec, seed)``;
    the hints search on ``threads`` threads."""

    def __init__(self, game: GameController, saver: Saver, out: Console, *,
                 make_program: Callable[[str, int], Player], threads: int = 1) -> None:
        self.game = game
        self.saver = saver
        self.out = out
        self.screen = Screen(game, out)
        self.make_program = make_program
        self.player: Player | None = None
        self.engine: Engine | None = None
        self.threads = threads
        self.declined_claim = False
        self.commands: dict[str, Callable[[], None]] = {
            "hint": self.hint, "hints": self.hint,
            "undo": self.undo, "takeback": self.undo,
            "claim": self.claim, "resign": self.resign, "stop": self.stop_playout,
            "moves": self.list_moves, "board": self.screen.redraw,
            "help": self.help, "?": self.help,
        }

    # ---- who acts -----------------------------------------------------------------------
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
        """Play until the game is over and its result accepted (or :class:`Leave`)."""
        game = self.game
        self.out.print(self.screen.intro(), highlight=False)
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
        self.screen.report()

    def read(self, prompt: str) -> str:
        """A line typed by the person; end of input leaves like ``quit``."""
        try:
            return self.out.input(prompt)
        except EOFError:
            self.out.print()
            raise Leave(0) from None

    # ---- turns ------------------------------------------------------------------------
    def person_turn(self) -> None:
        game, screen = self.game, self.screen
        screen.draw_if_changed()
        board = game.board
        colour = self.acting()
        self.out.print(legal_text(board), highlight=False)
        left = game.remaining(colour)  # in a play-out the winner's time runs throughout
        clock = "" if left is None else f", {clock_text(left)}"
        if game.phase is Phase.PLAYOUT:
            prompt = f"{screen.says(colour, 'move', f'for {board.turn}')} (play-out{clock}) > "
        else:
            prompt = f"[bold]{escape(screen.name(colour))}[/] ({colour}{clock}) > "
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
            raise Leave(0)
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
            self.player = self.make_program(spec, zlib.crc32(f"{game.id}:{colour.value}".encode()))
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
            raise Leave(1)
        game.play(colour, answer[0], revision=revision)

    def wait_for(self, worker: threading.Thread, colour: Color) -> None:
        """Wait for the program; in a terminal that can redraw a line, a spinner with the
        program's clock running, elsewhere one line (a log or a dumb terminal)."""
        text = f"{self.screen.who(colour)} is thinking…"
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
        screen = self.screen
        self.out.print(
            f"{screen.who(loser)}'s flag fell: {screen.says(winner, 'win', 'on time')}. Choose "
            "33-31 (a 33–31 win) or playout (勝手打ち: play both colours on your own time; "
            "the count when you type stop stands, empty squares to the loser).",
            highlight=False)
        word = self.read(f"[bold]{escape(screen.name(winner))}[/]: 33-31 or playout > ")
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
        screen = self.screen
        self.out.print(f"{screen.who(flagged)}'s flag fell before the end: type claim to win "
                       "on time, or accept (or Enter) to keep this result.", highlight=False)
        while True:
            word = self.read(f"[bold]{escape(screen.name(by))}[/]: claim or accept > ")
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
            raise Leave(0)
        if word in ("help", "?"):
            self.help()
            return True
        if word == "board":
            self.screen.redraw()
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

                self.engine = Engine(threads=self.threads)
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
            if self.screen.against_program:
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
            self.out.print(f"[red]no flag has fallen[/] ({escape(self.screen.name(other))} has "
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

    def help(self) -> None:
        rows = [
            ("f5", "play a move (a square; the legal ones are listed above the prompt)"),
            *([("c4(d4)", "under a 挟み碁 flip rule: the square, then the discs it turns "
                          "in parentheses (c4(d4e5) to turn two under 'choose')")]
              if self.game.board.rules.supports("choose_turned") else []),
            ("hint", "the engine's best moves with their scores (casual games)"),
            ("undo", "take back your last move" + (" and the program's reply"
                                                    if self.screen.against_program else "")
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


__all__ = ["HINT_DEPTH", "Leave", "TerminalGame"]
