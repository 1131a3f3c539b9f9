"""Transcripts: a game as its squares, ``f5d6c3d3c4`` (case-insensitive on input).

Input may separate moves with spaces, commas or semicolons, number them (``1. f5 2. d6``)
and write passes as ``pass``, ``PA``, ``PS``, ``--`` or ``@@``; forced passes may be left
out. Output is lower-case squares run together, in the variant's own coordinates. Under a
挟み碁 flip rule a move that chose its discs carries them: ``c4(d4)`` (``Board.move_name``).

>>> moves = parse_transcript("1. F5 d6, 3. C3")
>>> write_transcript(moves)
'f5d6c3'
>>> parse_transcript("f5f5")
Traceback (most recent call last):
...
hasamigo.errors.ParseError: offset 2: move 2 (f5): occupied
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator

from hasamigo.board import Board
from hasamigo.errors import HasamigoError, IllegalMoveError, InvalidSquareError, ParseError
from hasamigo.move import PASS, Move
from hasamigo.notation._text import text_lines
from hasamigo.notation.record import GameRecord, play_move
from hasamigo.variants import find_variant

# ASCII digits only ([0-9], not \d, which takes '٣' too); a square is a letter and a digit,
# or on a board of 10 rows also a letter and "10" (``j10``: read greedily, as no square's
# name continues with a 0, ``a10`` is never a1 followed by something else). A square may
# carry the discs it turns under a 挟み碁 flip rule in parentheses: ``c4(d4e5)``.
_TOKEN = re.compile(
    r"(?P<sep>[\s,;]+)|(?P<number>[0-9]+\.+)|(?P<pass>pass|pa|ps|--|@@)"
    r"|(?P<square>[a-z][0-9](?:\([^()]{0,200}\))?)",
    re.IGNORECASE,
)
_TOKEN_10 = re.compile(
    r"(?P<sep>[\s,;]+)|(?P<number>[0-9]+\.+)|(?P<pass>pass|pa|ps|--|@@)"
    r"|(?P<square>[a-z](?:10|[0-9])(?:\([^()]{0,200}\))?)",
    re.IGNORECASE,
)
_WORD = re.compile(r"\S{1,12}")  # the start of a bad token, for the message


def tokenize(text: str, board_cls: type[Board] = Board, *, source: str | None = None,
             line: int | None = None) -> Iterator[tuple[int, Move]]:
    """``(offset, move)`` for each move token of ``text`` (0-based character offsets)."""
    pos = 0
    pattern = _TOKEN_10 if board_cls.rows >= 10 else _TOKEN
    while pos < len(text):
        match = pattern.match(text, pos)
        if match is None:
            bad = _WORD.match(text, pos)
            token = bad.group(0) if bad else text[pos]
            raise ParseError(f"unexpected {token!r} in a transcript", source=source, line=line,
                             offset=pos)
        kind = match.lastgroup
        if kind == "pass":
            yield pos, PASS
        elif kind == "square":
            try:
                yield pos, board_cls.parse_move(match.group(0))
            except ParseError as exc:  # a move's text (MoveTextError): where in it
                raise ParseError(exc.detail, source=source, line=line,
                                 offset=pos + (exc.column or 1) - 1) from exc
            except InvalidSquareError as exc:
                raise ParseError(str(exc), source=source, line=line, offset=pos) from exc
        pos = match.end()


def parse_transcript(text: str, board: Board | None = None, *, source: str | None = None,
                     line: int | None = None) -> list[Move]:
    """The moves of a transcript, checked by replaying them from ``board`` (default: the start).

    Forced passes the text leaves out are inserted, so the result can be pushed as it is.
    ``board`` itself is not changed. Errors are :class:`ParseError` giving the 0-based
    character offset of the bad token and why, e.g. ``offset 2: move 2 (f5): occupied``.
    """
    work = Board() if board is None else board.copy()
    start = len(work.move_stack)
    tokens = tokenize(text, type(work), source=source, line=line)
    for number, (offset, move) in enumerate(tokens, 1):
        try:
            play_move(work, move, number)
        except IllegalMoveError as exc:
            raise ParseError(str(exc), source=source, line=line, offset=offset) from exc
    return work.move_stack[start:]


def write_transcript(moves: Iterable[Move], board_cls: type[Board] = Board, *,
                     passes: bool = False) -> str:
    """Lower-case squares run together (``f5d6c3``); passes written as ``pass`` if asked."""
    out = []
    for move in moves:
        if move.is_pass:
            if passes:
                out.append("pass")
        else:
            out.append(board_cls.move_name(move))
    return "".join(out)


def read_transcripts(path: str | os.PathLike[str], *, board_cls: type[Board] = Board,
                     strict: bool = False) -> Iterator[GameRecord]:
    """One :class:`GameRecord` per line of a text file; blank lines and ``#`` comments skipped.

    A comment line ``# variant: NAME`` (e.g. ``# variant: 4x4``) switches the board for the
    lines after it, so one file can hold games of several variants.
    A line that does not parse or replay gives a record whose ``problem`` names the line
    and offset (its ``moves`` hold what was read before the fault); ``strict=True`` raises
    the :class:`ParseError` instead. An unknown variant, or a byte that is not UTF-8, raises
    :class:`ParseError` naming the file and the line (and the byte offset).
    """
    name = str(path)
    for number, raw in enumerate(text_lines(path), 1):
        text = raw.strip()
        if text.startswith("#"):
            key, _, value = text[1:].partition(":")
            if key.strip().lower() == "variant" and value.strip():
                try:
                    board_cls = find_variant(value)
                except HasamigoError as exc:
                    raise ParseError(str(exc), source=name, line=number,
                                     column=raw.index(":") + 2) from None
            continue
        if not text:
            continue
        try:
            moves = parse_transcript(text, board_cls(), source=name, line=number)
        except ParseError as exc:
            if strict:
                raise
            yield GameRecord(variant=board_cls, moves=_readable_prefix(text, board_cls),
                             problem=str(exc))
            continue
        yield GameRecord(variant=board_cls, moves=moves)


def _readable_prefix(text: str, board_cls: type[Board]) -> list[Move]:
    moves: list[Move] = []
    board = board_cls()
    try:
        for number, (_, move) in enumerate(tokenize(text, board_cls), 1):
            play_move(board, move, number)
            moves = list(board.move_stack)
    except (ParseError, IllegalMoveError):
        pass
    return moves


def format_transcripts(records: Iterable[GameRecord]) -> Iterator[str]:
    """Lines (without newlines) as :func:`read_transcripts` reads them: one per game, and a
    ``# variant: NAME`` line before the first game of a variant other than the standard board.
    """
    current: type[Board] = Board
    for index, record in enumerate(records):
        if record.start is not None:
            raise ValueError(f"game {index}: a transcript line cannot hold a game from a "
                             "non-standard start position (write GGF instead)")
        if record.variant is not current:
            current = record.variant
            yield f"# variant: {current.name}"
        yield write_transcript(record.moves, record.variant, passes=False)


def write_transcripts(path: str | os.PathLike[str], records: Iterable[GameRecord]) -> None:
    """Write one game per line, as :func:`format_transcripts` gives them."""
    with open(path, "w", encoding="utf-8") as handle:
        for line in format_transcripts(records):
            handle.write(line + "\n")


__all__ = [
    "format_transcripts",
    "parse_transcript",
    "read_transcripts",
    "tokenize",
    "write_transcript",
]
