"""Records of the multi-player games (:mod:`hasamigo.multi`), a GGF-like format of our own
(``.mgf``), described in ``docs/multi-player.md``::

    (;GM[Rolit]SE[red yellow green blue]PL1[Ann]PL2[greedy]PL3[paranoid:3]PL4[Bo]
    DT[2026-12-03 18:40Z]PC[hasamigo play-multi]RE[red 20 yellow 15 green 19 blue 10]
    ;1[f4];2[g3];3[c3];4[c5]...;)

A record is ``(;``, the header's ``KEY[value]`` properties, the moves, then ``;)``. ``GM``
is the game (``Rolit``, ``Othello4``; required, first); ``SE`` the colours that play, in
turn order from the first to move (required); ``PL1``..``PLn`` the seats' players, ``DT``
the date, ``PC`` the place (all optional, free text); ``RE`` the final discs of each seat,
in ``SE``'s order (only in a finished game). A move is ``;n[square]``: the seat's number
(1 = ``SE``'s first colour), then the square or ``PA`` for a pass. In a value ``\\]`` is
``]`` and ``\\\\`` is ``\\``. Whitespace between the parts is free.

The reader is strict: an unknown or repeated property, a seat moving out of turn, an
illegal move or a result the moves do not give is refused with a :class:`ParseError`
naming the line and column.

>>> board = MultiBoard("rolit")
>>> _ = board.play("f4"), board.play("g3")
>>> text = format_multi_record(MultiRecord.from_board(board, names=("Ann", "Bo")))
>>> text
'(;GM[Rolit]SE[red yellow green blue]PL1[Ann]PL2[Bo]\\n;1[f4];2[g3];)\\n'
>>> parse_multi_record(text).board().counts()
(3, 1, 1, 1)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from hasamigo.errors import HasamigoError, InvalidOptionError, ParseError, shown
from hasamigo.move import PASS, Move
from hasamigo.multi import MULTI_GAMES, MultiBoard, find_multi_game
from hasamigo.notation._text import read_text

#: The names written in ``GM`` for each game.
GM_NAMES = {"rolit": "Rolit", "othello4": "Othello4"}
_HEADER = ("GM", "SE", "DT", "PC", "RE")
_PLAYER = re.compile(r"PL([1-4])")
#: Moves a line of a written record.
MOVES_PER_LINE = 10


@dataclass(frozen=True, slots=True)
class MultiRecord:
    """One game: the game's name, the colours in turn order from the first to move, the
    seats' players, where and when, the moves, and (finished) each seat's final discs."""

    game: str
    seats: tuple[int, ...]
    names: tuple[str | None, ...] = ()
    date: str | None = None
    place: str | None = None
    moves: tuple[Move, ...] = ()
    result: tuple[int, ...] | None = None

    def start(self) -> MultiBoard:
        """The starting position of this record's game and seats."""
        return MultiBoard(self.game, seats=self.seats, first=self.seats[0])

    def board(self) -> MultiBoard:
        """The position after the moves (each checked)."""
        board = self.start()
        for move in self.moves:
            board.play(move)
        return board

    @classmethod
    def from_board(cls, board: MultiBoard, *, names: tuple[str | None, ...] = (),
                   date: str | None = None, place: str | None = None) -> MultiRecord:
        """The record of ``board``'s game so far; ``names`` by seat in turn order from the
        first to move; the result if the game is over."""
        if len(names) > len(board.seats):
            raise InvalidOptionError(f"{len(names)} names for {len(board.seats)} seats")
        seats = board.turn_order()
        result = (tuple(board.scores()[c] for c in seats) if board.is_game_over() else None)
        kept = list(names)
        while kept and kept[-1] is None:  # as a record reads back: no PLn for nobody
            kept.pop()
        return cls(board.rules.name, seats, tuple(kept), date, place,
                   tuple(board.move_stack), result)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def format_multi_record(record: MultiRecord) -> str:
    """The record as text (see the module docstring), ending in a newline."""
    rules = find_multi_game(record.game)
    head = [f"GM[{GM_NAMES[rules.name]}]",
            "SE[" + " ".join(rules.colours[c] for c in record.seats) + "]"]
    head += [f"PL{i}[{_escape(name)}]" for i, name in enumerate(record.names, 1) if name]
    if record.date:
        head.append(f"DT[{_escape(record.date)}]")
    if record.place:
        head.append(f"PC[{_escape(record.place)}]")
    if record.result is not None:
        head.append("RE[" + " ".join(f"{rules.colours[c]} {n}" for c, n in
                                     zip(record.seats, record.result, strict=True)) + "]")
    n = len(record.seats)
    moves = [f";{i % n + 1}[{'PA' if m.is_pass else m}]" for i, m in enumerate(record.moves)]
    lines = ["".join(moves[i:i + MOVES_PER_LINE])
             for i in range(0, len(moves), MOVES_PER_LINE)]
    return "(;" + "".join(head) + "\n" + "".join(line + "\n" for line in lines[:-1]) + \
        (lines[-1] if lines else "") + ";)\n"


class _Reader:
    """The text and a position in it, with the errors that name the line and column."""

    def __init__(self, text: str, source: str | None) -> None:
        self.text, self.at, self.source = text, 0, source

    def error(self, message: str, at: int | None = None) -> ParseError:
        at = self.at if at is None else at
        line = self.text.count("\n", 0, at) + 1
        column = at - (self.text.rfind("\n", 0, at) + 1) + 1
        return ParseError(message, source=self.source, line=line, column=column)

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in " \t\r\n":
            self.at += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.at] if self.at < len(self.text) else ""

    def expect(self, char: str, what: str) -> None:
        if self.peek() != char:
            found = repr(self.text[self.at]) if self.at < len(self.text) else "the end"
            raise self.error(f"expected {what} ({char!r}), found {found}")
        self.at += 1

    def tag(self) -> tuple[str, int]:
        self.skip()
        start = self.at
        while self.at < len(self.text) and self.text[self.at].isascii() \
                and self.text[self.at].isalnum():
            self.at += 1
        if self.at == start:
            raise self.error("expected a property name (such as GM or a seat's number)")
        return self.text[start:self.at], start

    def value(self) -> str:
        self.expect("[", "a value in brackets")
        out, start = [], self.at
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "\\" and self.at + 1 < len(self.text):
                out.append(self.text[self.at + 1])
                self.at += 2
                continue
            self.at += 1
            if char == "]":
                return "".join(out)
            out.append(char)
        raise self.error("a value is not closed with ']'", start)


def parse_multi_records(text: str, *, source: str | None = None) -> list[MultiRecord]:
    """Every record of ``text`` (one or more, one after another)."""
    reader = _Reader(text, source)
    records = [_parse_one(reader)]
    while reader.peek():
        records.append(_parse_one(reader))
    return records


def parse_multi_record(text: str, *, source: str | None = None) -> MultiRecord:
    """The one record of ``text``; :class:`ParseError` if there are more or none."""
    records = parse_multi_records(text, source=source)
    if len(records) != 1:
        raise ParseError(f"expected one record, found {len(records)}", source=source)
    return records[0]


def _parse_one(reader: _Reader) -> MultiRecord:
    reader.expect("(", "a record's start '(;'")
    reader.expect(";", "a record's start '(;'")
    props: dict[str, tuple[str, int]] = {}
    while reader.peek() not in (";", ")", ""):
        tag, at = reader.tag()
        if tag not in _HEADER and not _PLAYER.fullmatch(tag):
            raise reader.error(f"unknown property {shown(tag)} (known: "
                               f"{', '.join(_HEADER)}, PL1..PL4)", at)
        if tag in props:
            raise reader.error(f"{tag} given twice", at)
        if not props and tag != "GM":
            raise reader.error("a record starts with GM[the game]", at)
        props[tag] = (reader.value(), at)
    if "GM" not in props:
        raise reader.error("a record starts with GM[the game]")
    game_text, at = props["GM"]
    if game_text.casefold() not in MULTI_GAMES:
        raise reader.error(f"unknown game {shown(game_text)} (known: "
                           f"{', '.join(GM_NAMES.values())})", at)
    rules = find_multi_game(game_text)
    if "SE" not in props:
        raise reader.error("the header has no SE[the colours in turn order]")
    seats_text, at = props["SE"]
    try:
        seats = tuple(rules.colour_named(word) for word in seats_text.split())
    except HasamigoError as exc:
        raise reader.error(f"SE: {exc}", at) from None
    try:
        start = MultiBoard(rules, seats=seats, first=seats[0] if seats else None)
    except HasamigoError as exc:
        raise reader.error(f"SE: {exc}", at) from None
    if seats != start.turn_order():
        raise reader.error(f"SE: the colours go in turn order (clockwise: "
                           f"{' '.join(rules.colours)}) from the first to move", at)
    names: list[str | None] = [None] * len(seats)
    for tag, (value, at) in props.items():
        match = _PLAYER.fullmatch(tag)
        if match:
            index = int(match.group(1))
            if index > len(seats):
                raise reader.error(f"{tag}: there are only {len(seats)} seats", at)
            names[index - 1] = value
    while len(names) > 0 and names[-1] is None:
        names.pop()
    moves = _parse_moves(reader, start)
    result = None
    if "RE" in props:
        result = _check_result(reader, start, seats, props["RE"])
    date = props.get("DT", (None, 0))[0]
    place = props.get("PC", (None, 0))[0]
    return MultiRecord(rules.name, seats, tuple(names), date, place, tuple(moves), result)


def _parse_moves(reader: _Reader, board: MultiBoard) -> list[Move]:
    moves: list[Move] = []
    while True:
        if reader.peek() == ")":
            reader.at += 1
            return moves
        reader.expect(";", "';' before a move or ';)' at the end")
        if reader.peek() == ")":
            reader.at += 1
            return moves
        tag, at = reader.tag()
        seat = len(moves) % len(board.seats) + 1
        if not tag.isdigit():
            raise reader.error(f"expected a move as a seat's number, such as {seat}[f4], "
                               f"found {shown(tag)}", at)
        if int(tag) != seat:
            raise reader.error(f"move {len(moves) + 1} is seat {seat}'s "
                               f"({board.colour_name(board.turn)}), not seat {tag}'s", at)
        reader.peek()
        value_at = reader.at + 1  # errors point at the value, after its '['
        text = reader.value()
        try:
            move = PASS if text.strip().upper() == "PA" else Move.from_str(text)
            board.play(move)
        except HasamigoError as exc:
            detail = str(exc).removeprefix("illegal move ")
            raise reader.error(f"move {len(moves) + 1}: {detail}", value_at) from None
        moves.append(move)


def _check_result(reader: _Reader, board: MultiBoard, order: tuple[int, ...],
                  given: tuple[str, int]) -> tuple[int, ...]:
    text, at = given
    words = text.split()
    expected = [board.colour_name(c) for c in order]
    if len(words) != 2 * len(order) or words[0::2] != expected \
            or not all(w.isdigit() for w in words[1::2]):
        raise reader.error(f"RE is each seat's colour and discs in SE's order ("
                           f"{' '.join(f'{c} N' for c in expected)}), not {shown(text)}", at)
    if not board.is_game_over():
        raise reader.error("RE is given but the moves do not finish the game", at)
    result = tuple(int(w) for w in words[1::2])
    actual = tuple(board.scores()[c] for c in order)
    if result != actual:
        said = " ".join(f"{c} {n}" for c, n in zip(expected, actual, strict=True))
        raise reader.error(f"RE says {text!r} but the moves give {said!r}", at)
    return result


def read_multi_records(path: str | os.PathLike[str]) -> list[MultiRecord]:
    """The records of a file (UTF-8); errors name the file, line and column."""
    return parse_multi_records(read_text(path), source=os.fspath(path))


def write_multi_records(path: str | os.PathLike[str], records: list[MultiRecord]) -> None:
    """Write ``records`` to ``path``, one after another."""
    Path(path).write_text("".join(format_multi_record(r) for r in records), encoding="utf-8")


__all__ = ["GM_NAMES", "MultiRecord", "format_multi_record", "parse_multi_record",
           "parse_multi_records", "read_multi_records", "write_multi_records"]
