"""What the ``play`` command shows at the terminal: the board with the players' panel, the
clocks, the legal moves, a notice for each event of the game and its result (the game
itself, the prompts and the program's turns, are :mod:`hasamigo.cli.play_session`).

:class:`Screen` turns the controller's new events into notices, whichever action appended
them, so what is printed is what is stored.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from hasamigo.cli.core import render_board
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
from hasamigo.game.result import GameResult, Termination, verdict_for
from hasamigo.game.state import Phase
from hasamigo.move import BLACK, WHITE, Color, Move
from hasamigo.squares import bits

if TYPE_CHECKING:
    from hasamigo.board import Board
    from hasamigo.game.controller import GameController

_RIGHTS = {"draw-win": "the draw-win right (引き分け勝ち)",
           "colour": "the right to choose colour"}


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


class Screen:
    """The terminal's view of one game: who is who, the board and the panel when they
    change, the notices for the new events, the seating and the result once each."""

    def __init__(self, game: GameController, out: Console) -> None:
        self.game = game
        self.out = out
        self.reported = 0
        self.seated = False
        self.drawn: tuple[int, Phase] | None = None
        self.announced: GameResult | None = None

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

    def intro(self) -> str:
        game = self.game
        options = game.options
        kind = "casual" if options.casual else "official (no take-backs or hints)"
        seconds = options.clock_seconds
        timing = "no clock" if seconds is None else f"{clock_text(seconds)} a side"
        return (f"[bold]{escape(game.board.title)}[/], {kind}, {timing}: type a square "
                "(f5) or help.")

    # ---- what is shown ---------------------------------------------------------------
    def redraw(self) -> None:
        """The board and the panel again (the ``board`` command)."""
        self.drawn = None
        self.draw_if_changed()

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
        if move.square is not None and board.rules.supports("choose_turned"):
            choices = board.turn_choices(move.square)
            if choices.bit_count() > 1:
                discs = " ".join(board.square_name(sq) for sq in bits(choices))
                how = "one of" if board.rules.supports("one_turned") else "any of"
                name += f" (turn {how} {discs})"
        names.append(name)
    return "legal: " + ("; " if board.rules.supports("choose_turned") else " ").join(names)


def _describe_move(view: Screen, event: MovePlayed) -> str | None:
    game = view.game
    if game.seat(event.colour).is_person:
        return None  # the person typed it; the board shows it
    played = next((m for m in reversed(game.history) if m.at == event.at
                   and m.colour is event.colour), None)
    took = "" if played is None or played.seconds is None else f" in {played.seconds:.1f} s"
    square = type(game.board).move_name(Move(event.square, event.turned))
    return f"{view.who(event.colour)} plays [bold]{square}[/]{took}."


def _describe_pass(view: Screen, event: Pass) -> str:
    return f"[yellow]{view.says(event.colour, 'pass', '(no legal move)')}.[/]"


def _describe_claim(view: Screen, event: Claim) -> str:
    if event.by is event.flagged:
        return f"[yellow]{view.says(event.by, 'report', 'a fallen flag of its own')}.[/]"
    flag = f"{event.flagged}'s fallen flag"
    return f"[yellow]{view.says(event.by, 'claim', flag)}.[/]"


def _describe_choice(view: Screen, event: TimeoutChoice) -> str:
    loser = view.game.timeout_loser
    if loser is None:  # pragma: no cover - the choice follows a time-out
        return f"Time-out: {event.choice}."
    if event.choice == "playout":
        return (f"{view.says(loser.other, 'choose', 'play-out (勝手打ち)')}: type stop to "
                "take the count.")
    return f"{view.says(loser.other, 'take', 'the 33–31 win')}."


def _describe_stop(_view: Screen, event: StopPlayout) -> str:
    return ("The play-out ends: the winner's time ran out." if event.timed_out
            else "The play-out is stopped: the count stands.")


def _describe_resign(view: Screen, event: Resign) -> str:
    return f"{view.says(event.colour, 'resign')}."


def _describe_undo(view: Screen, event: Undo) -> str:
    if view.against_program:
        program = escape(view.name(event.colour.other))
        return f"Taken back: your last move and {program}'s reply."
    return f"Taken back: {view.who(event.colour)}'s last move."


def _describe_colour(view: Screen, event: ColourStep) -> str | None:
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


_DESCRIPTIONS: dict[type[Event], Callable[[Screen, Any], str | None]] = {
    MovePlayed: _describe_move,
    Pass: _describe_pass,
    Claim: _describe_claim,
    TimeoutChoice: _describe_choice,
    StopPlayout: _describe_stop,
    Resign: _describe_resign,
    Undo: _describe_undo,
    ColourStep: _describe_colour,
}


__all__ = ["Screen", "clock_text", "legal_text"]
