"""``hasamigo record …``: games played over the board, from record sheets or move by move.

* ``record check SHEET`` reads a record sheet (the grid of move numbers) and says whether
  it is a legal game; if not, where it fails and the likely fix.
* ``record enter`` takes a game at the terminal as it was played on the board, move by
  move (square, colour, turned discs; or the whole board), names every fault and asks the
  recorder to correct the move or keep the board. It runs on the game controller, so the
  record is the same events the web app stores.
* ``record sheet`` writes a printable record sheet (HTML, English or Japanese headings),
  blank or filled with a game.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from hasamigo.cli import JsonOpt, VariantOpt, app, console, emit_json, err_console, fail
from hasamigo.cli.core import render_board
from hasamigo.cli.helptext import Typer
from hasamigo.cli.inputs import as_named, input_file
from hasamigo.errors import HasamigoError, ParseError
from hasamigo.move import COLOUR_NAMES, Color

if TYPE_CHECKING:
    from rich.console import Console

    from hasamigo.board import Board
    from hasamigo.game.controller import GameController
    from hasamigo.notation.sheet import Sheet

record_app = Typer(
    help="Games played over the board: record sheets and move-by-move entry.",
    no_args_is_help=True)
app.add_typer(record_app, name="record")

HandicapOpt = Annotated[int, typer.Option("--handicap", min=0, max=4,
                                          help="Corner discs pre-placed for Black (0-4); "
                                          "White then moves first.")]
FirstOpt = Annotated[str | None, typer.Option("--first", help="The side that moves first "
                                              "(black or white), if not the start's.")]


def _variant(name: str) -> type[Board]:
    from hasamigo.variants import find_variant

    try:
        return find_variant(name)
    except ValueError as exc:
        raise fail(str(exc)) from None


def _read_text(path: str) -> str:
    from hasamigo.notation import read_text

    if path == "-":
        return sys.stdin.read()
    try:
        with input_file(Path(path)) as file:  # a pipe read once, like a file
            return read_text(file)
    except OSError as exc:
        raise fail(f"{path}: {exc.strerror or exc}") from None
    except ParseError as exc:
        raise fail(as_named(str(exc))) from None


# ---- check ----------------------------------------------------------------------------------
@record_app.command("check")
def check(
    sheet_file: Annotated[str, typer.Argument(metavar="SHEET", help="A record sheet as text "
                                              "(8 lines of 8 fields: a move number or -); "
                                              "- reads standard input.")],
    handicap: HandicapOpt = 0,
    first: FirstOpt = None,
    variant: VariantOpt = "standard",
    as_json: JsonOpt = False,
) -> None:
    """Check a record sheet: a legal game, or the first move number where it fails and
    the likely fix (two numbers swapped, a number repeated or skipped, a pass implied).

    JSON: {ok, transcript, faults: [{move_number, kind, squares, message}], suggestion:
    null | {description, transcript}}; transcript is the legal game read (up to the first
    fault when not ok), suggestion.transcript the whole game after the fix. Exit status 1
    when the sheet is not a legal game, 2 when it can't be read.
    """
    from hasamigo.notation.sheet import check_sheet, read_sheet

    board_cls = _variant(variant)
    text = _read_text(sheet_file)
    try:
        sheet = read_sheet(text, board_cls, handicap=handicap,
                           first=Color.parse_optional(first, lenient=True),
                           source=None if sheet_file == "-" else sheet_file)
    except (HasamigoError, ValueError) as exc:
        raise fail(str(exc)) from None
    result = check_sheet(sheet)
    if as_json:
        emit_json(result.to_json())
    else:
        moves = sum(1 for m in result.moves if not m.is_pass)
        if result.ok:
            console.print(f"a legal game of {moves} moves: {result.transcript}",
                          highlight=False)
        else:
            console.print(f"not a legal game (legal up to move {moves}): "
                          f"{result.transcript or '(nothing)'}", highlight=False)
            for fault in result.faults:
                console.print(f"  {escape(fault.message)}", highlight=False)
            if result.suggestion is None:
                console.print("no single fix makes it a legal game", highlight=False)
            else:
                console.print(f"likely fix: {escape(result.suggestion.description)}",
                              highlight=False)
                console.print(f"the game then: {result.suggestion.transcript}",
                              highlight=False)
    if not result.ok:
        raise typer.Exit(1)


# ---- sheet ----------------------------------------------------------------------------------
def _game_sheet(game: str, board_cls: type[Board], handicap: int, first: Color | None,
                index: int) -> Sheet:
    """A sheet from a sheet file, a game file (WTHOR, GGF, transcripts; game ``index``)
    or a transcript typed on the command line."""
    from hasamigo.notation import read_games
    from hasamigo.notation.sheet import Sheet, read_sheet, sheet_of_moves
    from hasamigo.notation.transcript import parse_transcript

    path = Path(game)
    if path.exists() and not path.is_dir():  # a file, or a pipe (``<(…)``)
        with input_file(path) as file:
            if file.suffix.lower() in (".wtb", ".ggf"):
                try:
                    for number, record in enumerate(read_games(file), 1):
                        if number == index:
                            return sheet_of_moves(record.replay().move_stack,
                                                  record.variant)
                except (HasamigoError, ValueError) as exc:
                    raise fail(as_named(str(exc))) from None
                raise fail(f"{game}: there is no game {index}")
            text = _read_text(str(file))
        if len([line for line in text.splitlines() if line.strip()]) >= board_cls.rows:
            return read_sheet(text, board_cls, handicap=handicap, first=first, source=game)
        game = text
    start = Sheet((), board_cls, handicap, first).start()
    return sheet_of_moves(parse_transcript(game, start), board_cls, handicap=handicap,
                          first=first)


@record_app.command("sheet")
def sheet(
    game: Annotated[str | None, typer.Argument(
        metavar="GAME", help="A transcript (f5d6c3…), a sheet file, or a .wtb/.ggf file "
        "(see --index). Leave out with --blank.")] = None,
    blank: Annotated[bool, typer.Option("--blank", help="A blank sheet to print.")] = False,
    lang: Annotated[str, typer.Option("--lang", help="Headings: en or ja.")] = "en",
    out: Annotated[Path | None, typer.Option("--out", "-o", dir_okay=False,
                                             help="Write the HTML here (else stdout).")] = None,
    black: Annotated[str, typer.Option("--black", help="Black's name.")] = "",
    white: Annotated[str, typer.Option("--white", help="White's name.")] = "",
    event: Annotated[str, typer.Option("--event", help="The event.")] = "",
    date: Annotated[str, typer.Option("--date", help="The date.")] = "",
    index: Annotated[int, typer.Option("--index", min=1, help="Which game of a file.")] = 1,
    handicap: HandicapOpt = 0,
    first: FirstOpt = None,
    variant: VariantOpt = "standard",
    scoring: Annotated[str | None, typer.Option(
        "--scoring", help="How a board that ends with empties is counted: jof-2014 (empties "
        "to the winner), jof-pre-2014 (the JOF rule before 1 June 2014: empties split, a "
        "wipe-out 64-0) or discs. Default: the JOF rule of --date, else jof-2014.")] = None,
) -> None:
    """A printable record sheet (HTML, A4), blank or filled with a game's move numbers."""
    from hasamigo.game.imported import record_scoring
    from hasamigo.game.result import Scoring, score_board
    from hasamigo.notation.record import GameRecord
    from hasamigo.notation.sheet import check_sheet, sheet_html

    if lang not in ("en", "ja"):
        raise fail(f"--lang is en or ja, not {lang!r}")
    board_cls = _variant(variant)
    if blank == (game is not None):
        raise fail("give a GAME, or --blank for a blank sheet")
    try:
        # the JOF's record sheet: a game written on it is counted by the JOF rule of its
        # date (a JOF event), unless --scoring says otherwise
        counted = record_scoring(GameRecord(date=date), jof_event=True) if scoring is None \
            else Scoring.from_code(scoring)
        side = Color.parse_optional(first, lenient=True)
        filled = None if game is None else _game_sheet(game, board_cls, handicap, side, index)
        result: tuple[float, float] | None = None
        if filled is not None:
            checked = check_sheet(filled)
            if not checked.ok:
                raise fail(f"not a legal game: {checked.faults[0].message}")
            end = filled.start()
            for move in checked.moves:
                end.push(move)
            outcome = end.outcome()
            if outcome is not None:
                score = score_board(outcome.black_discs, outcome.white_discs, counted,
                                    squares=end.square_count())
                result = (score.black, score.white)
        page = sheet_html(filled, lang=lang, black=black, white=white, event=event,
                          date=date, result=result, variant=board_cls, handicap=handicap)
    except (HasamigoError, ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    if out is None:
        sys.stdout.write(page)
    else:
        out.write_text(page, encoding="utf-8")


# ---- enter ----------------------------------------------------------------------------------
ENTER_HELP = """\
Type each move as it was played on the board:
  f5                 the side to move put its disc on f5 and turned what it brackets
  f5 e5 e6           ... and turned exactly e5 and e6 (none: turned nothing)
  f5 white e4        a white disc on f5, e4 turned (the colour shows on the disc)
  f5 by white        the other player moved (out of turn); by works with any entry
  pass               a pass (forced passes are entered for you)
  board XO-…         the whole board after the move (64 cells, row 1 first)
  undo               take back the last entry;  card 40 24   the signed result card
  end                finish (also at the end of input)"""


class _Leave(Exception):
    """End of the session."""


class Recorder:
    """The terminal session of ``record enter``: one game controller, a line at a time."""

    def __init__(self, game: GameController, out: Console, *, quiet: bool) -> None:
        self.game = game
        self.out = out
        self.quiet = quiet

    def read(self, prompt: str) -> str:
        self.out.print(prompt, end="", highlight=False)
        line = sys.stdin.readline()
        if not line:
            self.out.print()
            raise _Leave
        return line.strip()

    def run(self) -> None:
        from hasamigo.game.state import Phase

        self.out.print(ENTER_HELP, highlight=False, markup=False)
        try:
            while self.game.phase is not Phase.OVER:
                if self.game.pending_entry is not None:
                    self.decide()
                    continue
                self.one_line()
        except _Leave:
            pass

    def one_line(self) -> None:
        from hasamigo.game.errors import GameError

        game = self.game
        board = game.board
        number = len(game.history) + 1
        line = self.read(f"move {number} ({board.turn} to move) > ")
        words = line.replace(",", " ").split()
        if not words:
            return
        command = words[0].lower()
        try:
            if command in ("end", "quit", "exit"):
                raise _Leave
            if command in ("help", "?"):
                self.out.print(ENTER_HELP, highlight=False, markup=False)
            elif command == "undo":
                self.undo()
            elif command == "card":
                counts = [int(w) for w in words[1:3] if w.isdigit()]
                if len(counts) != 2:
                    raise GameError("card takes two counts: card BLACK WHITE")
                game.hand_in_card(*counts)
            else:
                game.enter(self.entry(words))
        except (HasamigoError, ValueError) as exc:
            self.out.print(f"[red]{escape(str(exc))}[/]", highlight=False)
            return
        self.show()

    def entry(self, words: list[str]) -> Any:
        from hasamigo.game.entry import entry_from_board, entry_from_turned
        from hasamigo.game.errors import GameError

        board = self.game.board
        by = None
        if "by" in [w.lower() for w in words]:
            at = [w.lower() for w in words].index("by")
            if at + 1 >= len(words):
                raise GameError("by takes a colour: by black, by white")
            by = Color.parse(words[at + 1], lenient=True)
            words = words[:at] + words[at + 2:]
        head = words[0].lower()
        if head == "pass":
            return entry_from_turned(board, None, by=by)
        if head == "board":
            return entry_from_board(board, "".join(words[1:]), by=by)
        square = board.parse_square(words[0])
        rest = words[1:]
        colour = None
        if rest and rest[0].casefold() in COLOUR_NAMES:
            colour = Color.parse(rest[0], lenient=True)
            rest = rest[1:]
        turned: list[int | str] | None = None  # what the disc brackets
        if rest and rest[0].lower() == "none":
            turned = []
        elif rest:
            turned = list(rest)
        return entry_from_turned(board, square, colour, turned, by=by)

    def decide(self) -> None:
        pending = self.game.pending_entry
        assert pending is not None
        for fault in pending.faults:
            self.out.print(f"[bold red]fault:[/] {escape(fault.message)}", highlight=False)
        answer = self.read("correct the move (c) or keep the board as it stands (k)? ")
        try:
            if answer.lower().startswith("c"):
                self.game.correct_entry()
            elif answer.lower().startswith("k"):
                self.game.keep_board()
            else:
                return
        except (HasamigoError, ValueError) as exc:
            self.out.print(f"[red]{escape(str(exc))}[/]", highlight=False)
            return
        self.show()

    def undo(self) -> None:
        from hasamigo.game.errors import GameError

        game = self.game
        last = next((m.colour for m in reversed(game.history) if not m.move.is_pass), None)
        if last is None:
            raise GameError("there is no entry to take back")
        game.request_undo(last)
        game.undo(last)

    def show(self) -> None:
        if self.quiet:
            return
        board = self.game.board
        last = board.move_stack[-1].square if board.move_stack else None
        self.out.print(render_board(board, last=last), highlight=False)


def _result_text(record: dict[str, Any]) -> str:
    result = record["result"]
    if result is None:
        return "unfinished"
    who = "a draw" if result["winner"] is None else f"{result['winner']} wins"
    score = result.get("score") or f"{result['black']}–{result['white']}"
    return f"{score}, {who} ({result['termination']})"


@record_app.command("enter")
def enter(
    black: Annotated[str, typer.Option("--black", help="Black's name.")] = "Black",
    white: Annotated[str, typer.Option("--white", help="White's name.")] = "White",
    handicap: HandicapOpt = 0,
    variant: VariantOpt = "standard",
    as_json: JsonOpt = False,
) -> None:
    """Enter a game played over the board, move by move, as it was played: each fault is
    named (wrong colour, out of turn, a square that turns nothing, discs not turned or
    turned too many, displaced discs, a pass while a move existed) and you correct the
    move or keep the board as it stands. Type help at the prompt.

    JSON (at the end): {transcript, moves, marks: [{move_number, board}], faults:
    [{move_number, kind, squares, message, decision}], pending, result}.
    """
    from hasamigo.game.controller import GameController, GameOptions, GameSetup, Participant

    board_cls = _variant(variant)
    try:
        setup = GameSetup((Participant(black), Participant(white)),
                          GameOptions(variant=board_cls.name, handicap=handicap,
                                      clock_seconds=None, casual=False))
        game = GameController.new(setup, rng=random.Random(0))
        game.declare_over_the_board()
    except (HasamigoError, ValueError) as exc:
        raise fail(str(exc)) from None
    out = err_console if as_json else console
    Recorder(game, out, quiet=as_json).run()
    record = game.entered_record()
    if as_json:
        emit_json(record)
        return
    console.print(f"game: {record['transcript'] or '(no moves)'}", highlight=False)
    for fault in record["faults"]:
        console.print(f"  {escape(fault['message'])} [{fault['decision']}]", highlight=False)
    for mark in record["marks"]:
        console.print(f"  the board as played was kept after move {mark['move_number']}",
                      highlight=False)
    console.print(f"result: {_result_text(record)}", highlight=False)
