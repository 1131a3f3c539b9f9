"""The ``play-multi`` and ``replay-multi`` commands: Rolit and the 4-player Othello
(:mod:`hasamigo.multi`) in the terminal, two to four seats, each a person or a program, and
the game's record (``.mgf``, :mod:`hasamigo.notation.multi_record`) written and read back.

A multi-player game has no place in the games database yet (its rows are a two-player
game's: Black, White, a GameSetup), so the record goes to a file (``--record``); the
web app's multi-player games will need their own tables (see ``docs/multi-player.md``).
The game itself, the programs and the record are imported when a command runs, as the
other commands do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from hasamigo.cli import JsonOpt, app, console, emit_json, fail

if TYPE_CHECKING:
    from hasamigo.engine.multi_players import MultiPlayer
    from hasamigo.multi import MultiBoard

#: How each colour's letter is shown (Rich styles).
STYLES = {"red": "bold red", "yellow": "bold yellow", "green": "bold green",
          "blue": "bold blue", "black": "bold black on white", "white": "bold white"}
PERSON = "person"


@dataclass
class Seat:
    """One seat: its name as shown and recorded, and its program (``None``: a person)."""

    name: str
    program: MultiPlayer | None


class Leave(Exception):
    """The person left (``quit`` or the end of input): the game is kept as it stands."""


def picture(board: MultiBoard) -> str:
    """The board with coloured letters, a..h across and 1..8 down, the legal squares as
    ``·`` (Rich markup)."""
    legal = board.legal_moves_mask() if not board.is_game_over() else 0
    lines = ["  a b c d e f g h"]
    for r in range(8):
        cells = []
        for c in range(8):
            sq = r * 8 + c
            colour = board.colour_at(sq)
            if colour is None:
                cells.append("[dim]·[/]" if legal >> sq & 1 else ".")
            else:
                name = board.colour_name(colour)
                cells.append(f"[{STYLES.get(name, 'bold')}]{board.rules.symbols[colour]}[/]")
        lines.append(f"{r + 1} " + " ".join(cells))
    return "\n".join(lines)


def standings_text(board: MultiBoard, seats: dict[int, Seat]) -> str:
    return "\n".join(f"{s.rank}. {escape(s.name)} ({escape(seats[s.colour].name)}): "
                     f"{s.discs}" for s in board.standings())


class MultiTerminalGame:
    """A game at the terminal: programs move by themselves, people type squares."""

    def __init__(self, board: MultiBoard, seats: dict[int, Seat], out: Console) -> None:
        self.board, self.seats, self.out = board, seats, out

    def who(self, colour: int) -> str:
        name = self.board.colour_name(colour)
        return f"[{STYLES.get(name, 'bold')}]{name}[/] ({escape(self.seats[colour].name)})"

    def run(self) -> None:
        board = self.board
        self.out.print(f"{escape(board.rules.title)}: " + ", ".join(
            self.who(c) for c in board.seats) + f"; {self.who(board.turn)} moves first.",
            highlight=False)
        while not board.is_game_over():
            colour = board.turn
            moves = board.legal_moves()
            if moves[0].is_pass:
                board.push(moves[0])
                self.out.print(f"{self.who(colour)} cannot capture: passes", highlight=False)
                continue
            program = self.seats[colour].program
            if program is None:
                self.person_turn(colour)
            else:
                move = program.choose(board)
                board.play(move)
                self.out.print(f"{self.who(colour)} plays {move}", highlight=False)
        self.out.print(picture(board), highlight=False)
        self.out.print("Game over.\n" + standings_text(board, self.seats), highlight=False)

    def person_turn(self, colour: int) -> None:
        self.out.print(picture(self.board), highlight=False)
        while self.board.turn == colour and not self.board.is_game_over():
            try:
                line = self.out.input(f"{self.who(colour)} > ").strip()
            except EOFError:
                self.out.print()
                raise Leave from None
            word = line.casefold()
            if word in ("quit", "q"):
                raise Leave
            if word in ("help", "?"):
                self.out.print("a square (f4) plays it; moves lists the legal ones; board "
                               "shows the board; undo takes back to your previous turn; "
                               "quit leaves (the record keeps the game as it stands)",
                               highlight=False)
            elif word == "moves":
                self.out.print(" ".join(str(m) for m in self.board.legal_moves()))
            elif word == "board":
                self.out.print(picture(self.board), highlight=False)
            elif word == "undo":
                self.undo(colour)
            elif line:
                self.play(line)

    def play(self, text: str) -> None:
        from hasamigo.errors import HasamigoError

        try:
            self.board.play(text)
        except HasamigoError as exc:
            self.out.print(f"[red]{escape(str(exc))}[/]", highlight=False)

    def undo(self, colour: int) -> None:
        """Take back every move since this seat's previous turn began."""
        board, taken = self.board, 0
        mine = [i for i, (c, _) in enumerate(board.replay()) if c == colour]
        if not mine:
            self.out.print("nothing to take back: you have not moved yet")
            return
        while len(board.move_stack) > mine[-1]:
            board.pop()
            taken += 1
        self.out.print(f"took back {taken} moves")
        self.out.print(picture(board), highlight=False)


def make_seats(board: MultiBoard, specs: list[str], seed: int | None) -> dict[int, Seat]:
    from hasamigo.engine.multi_players import make_multi_player

    seats = {}
    for i, (colour, spec) in enumerate(zip(board.seats, specs, strict=True)):
        kind, _, name = spec.partition(":")
        if kind.strip().casefold() == PERSON:
            seats[colour] = Seat(name.strip() or f"person {i + 1}", None)
        else:
            program = make_multi_player(spec, seed=None if seed is None else seed + i)
            seats[colour] = Seat(spec.strip(), program)
    return seats


@app.command("play-multi")
def play_multi_command(
    seat: Annotated[list[str] | None, typer.Option(
        "--seat", help="A seat, 2 to 4 times, in turn order: person or person:NAME, or a "
        "program: random, greedy, search (max-n, depth 3), maxn:N, paranoid:N. "
        "Default: one person and three search programs.")] = None,
    game: Annotated[str, typer.Option(
        "--game", help="rolit (Goliath's rules) or othello4 (4人対戦オセロ, our reading: "
        "see docs/multi-player.md).")] = "rolit",
    colours: Annotated[str | None, typer.Option(
        "--colours", "--colors", help="The seats' colours, comma-separated (rolit: red, "
        "yellow, green, blue; othello4: black, red, white, blue). Default: the game's "
        "usual ones for the number of seats.")] = None,
    first: Annotated[str, typer.Option(
        "--first", help="The colour that moves first, or random (as the rules draw it).")
    ] = "random",
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed of the first player's draw and the programs.")] = None,
    record: Annotated[Path | None, typer.Option(
        "--record", help="Write the game's record (.mgf) here at the end or on quit.")
    ] = None,
) -> None:
    """Play Rolit or the 4-player Othello in the terminal, 2 to 4 seats.

    Each seat is a person or a program; people type a square (f4), moves,
    board, undo, help or quit. A player who cannot capture passes
    automatically (othello4); in Rolit it places next to any disc instead.
    Exit status 0 at the end or on quit, 2 for bad options.
    """
    from hasamigo.errors import HasamigoError
    from hasamigo.multi import MultiBoard, find_multi_game

    specs = seat or [PERSON, "search", "search", "search"]
    try:
        rules = find_multi_game(game)
        chosen = [c.strip() for c in colours.split(",")] if colours else None
        if chosen is not None and len(chosen) != len(specs):
            raise fail(f"{len(chosen)} colours for {len(specs)} seats")
        board = MultiBoard(rules, players=len(specs), seats=chosen)
        if first.strip().casefold() == "random":
            start = random.Random(seed).choice(board.seats)
        else:
            start = rules.colour_named(first)
        board = MultiBoard(rules, seats=board.seats, first=start)
        people = make_seats(board, specs, seed)
    except HasamigoError as exc:
        raise fail(str(exc)) from None
    session = MultiTerminalGame(board, people, console)
    try:
        session.run()
    except Leave:
        console.print(f"left after {len(board.move_stack)} moves", highlight=False)
    except KeyboardInterrupt:
        console.print("\ninterrupted", highlight=False)
        write_record(record, board, people)
        raise typer.Exit(130) from None
    write_record(record, board, people)


def write_record(path: Path | None, board: MultiBoard, seats: dict[int, Seat]) -> None:
    """Write the game so far to ``path`` (nothing without one)."""
    if path is None:
        return
    from hasamigo.notation.multi_record import MultiRecord, write_multi_records

    names = tuple(seats[c].name for c in board.turn_order())
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%MZ")
    record = MultiRecord.from_board(board, names=names, date=date,
                                    place="hasamigo play-multi")
    write_multi_records(path, [record])
    console.print(f"record written to {escape(str(path))}", highlight=False,
                  soft_wrap=True)  # a path whole, to copy from the terminal


@app.command("replay-multi")
def replay_multi_command(
    path: Annotated[Path, typer.Argument(help="A .mgf record file.")],
    as_json: JsonOpt = False,
) -> None:
    """Replay the games of a multi-player record (.mgf) and show how each ends.

    Every move is checked; a bad record is refused with the line and column
    of what is wrong (exit status 2). --json gives each game's moves, final
    discs and standings.
    """
    from hasamigo.errors import HasamigoError
    from hasamigo.notation.multi_record import read_multi_records

    try:
        records = read_multi_records(path)
    except (HasamigoError, OSError) as exc:
        raise fail(str(exc)) from None
    out = []
    for record in records:
        board = record.board()
        names = dict(zip(record.seats, record.names, strict=False))
        standings = [{"rank": s.rank, "colour": s.name, "player": names.get(s.colour),
                      "discs": s.discs} for s in board.standings()]
        out.append({"game": record.game, "seats": [board.colour_name(c) for c in record.seats],
                    "players": list(record.names), "date": record.date,
                    "moves": [str(m) for m in record.moves],
                    "finished": board.is_game_over(), "standings": standings})
        if not as_json:
            seats = {c: Seat(names.get(c) or "-", None) for c in board.seats}
            state = "finished" if board.is_game_over() else "unfinished"
            console.print(f"{escape(board.rules.title)}, {len(record.moves)} moves, {state}",
                          highlight=False)
            console.print(picture(board), highlight=False)
            console.print(standings_text(board, seats), highlight=False)
    if as_json:
        emit_json(out if len(out) > 1 else out[0])

