"""OBF position lines (the FFO endgame suite): board, side to move, scored answers.

OBF is a format of the 8×8 grid (boards inside it, like 6×6, read too); a variant on the
10×10 grid is refused (:class:`~hasamigo.errors.InvalidOptionError` reading,
``ValueError`` writing): its squares and scores do not fit.

A line is the 64 squares a1..h8 (``X`` black, ``O`` white, ``-`` empty), a space, the
side to move (``X``/``O``), then ``; MOVE:SCORE;`` for each answer, the score a disc
difference for the side to move (``+18``, ``-4``, ``+0``; ``PA`` for a pass). Text after
``%`` is a comment. Blank lines and lines starting with ``%`` or ``#`` are skipped.

>>> line = "-" * 27 + "OX------XO" + "-" * 27 + " X; F5:+0; E6:+0;"
>>> pos = parse_obf(line)
>>> pos.best_score, [str(m) for m in pos.best_moves]
(0, ['f5', 'e6'])
>>> format_obf(pos) == line
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from hasamigo.board import Board
from hasamigo.errors import InvalidOptionError, InvalidSquareError, ParseError, shown
from hasamigo.move import Move
from hasamigo.notation._text import text_lines

# ASCII digits only ([0-9]: \d also takes '٣'); a long score is refused before int() reads it.
_ANSWER = re.compile(r"\s*([A-Za-z][0-9]|PA|pa|pass|PS|--)\s*:\s*([+-]?[0-9]+)\s*")
_SCORE_LIMIT = 64
_SCORE_DIGITS = 3


def _holds(variant: type[Board]) -> bool:
    """Whether OBF holds positions of ``variant``: the 8×8 grid, a move a square alone."""
    return variant.rules.supports("bitboard") and variant.rules.supports("square_notation")


@dataclass
class ObfPosition:
    """A position with its answers: ``(move, score)``, the score for the side to move."""

    board: Board
    answers: list[tuple[Move, int]] = field(default_factory=list)
    comment: str = ""

    @property
    def best_score(self) -> int | None:
        """The highest answer score, ``None`` without answers."""
        return max((score for _, score in self.answers), default=None)

    @property
    def best_moves(self) -> list[Move]:
        """Every move reaching :attr:`best_score`, in the line's order."""
        best = self.best_score
        return [move for move, score in self.answers if score == best]


def parse_obf(line: str, *, board_cls: type[Board] = Board, source: str | None = None,
              line_number: int | None = None) -> ObfPosition:
    """One OBF line as an :class:`ObfPosition`; :class:`ParseError` with the column if bad."""

    def fail(message: str, column: int) -> ParseError:
        return ParseError(message, source=source, line=line_number, column=column)

    if not _holds(board_cls):
        raise InvalidOptionError(f"OBF holds positions of the 8×8 grid under the normal flip "
                                 f"rule, not of {board_cls.title}")
    text, _, comment = line.rstrip("\r\n").partition("%")
    head, sep, rest = text.partition(";")
    cells, _, side = head.strip().partition(" ")
    squares = board_cls.rows * board_cls.cols
    if len(cells) != squares:
        raise fail(f"the board has {len(cells)} squares, expected {squares}", 1)
    side = side.strip()
    if side not in ("X", "O"):
        raise fail(f"side to move must be X or O, not {shown(side)}", squares + 2)
    try:
        board = board_cls.from_string(f"{cells} {side}")
    except ParseError as exc:
        raise fail(exc.detail, exc.column or 1) from exc
    answers: list[tuple[Move, int]] = []
    column = len(head) + 2
    for part in rest.split(";") if sep else []:
        if part.strip():
            answers.append(_parse_answer(part, board, fail, column))
        column += len(part) + 1
    return ObfPosition(board, answers, comment.strip())


def _parse_answer(part: str, board: Board, fail: Callable[[str, int], ParseError],
                  column: int) -> tuple[Move, int]:
    column += len(part) - len(part.lstrip())
    match = _ANSWER.fullmatch(part)
    if match is None:
        raise fail(f"an answer is MOVE:SCORE (like G8:+18), not {shown(part.strip())}", column)
    try:
        move = board.parse_move(match.group(1))
    except InvalidSquareError as exc:
        raise fail(str(exc), column) from exc
    text = match.group(2)
    magnitude = text.lstrip("+-").lstrip("0") or "0"
    if len(magnitude) > _SCORE_DIGITS or int(magnitude) > _SCORE_LIMIT:
        raise fail(f"score {text if len(text) <= 8 else text[:8] + '…'} is outside -64..+64",
                   column + match.start(2) - (len(part) - len(part.lstrip())))
    score = -int(magnitude) if text.startswith("-") else int(magnitude)
    if not board.is_legal(move):
        raise fail(f"answer {match.group(1)} is not a legal move here", column)
    return move, score


def format_obf(position: ObfPosition) -> str:
    """The OBF line of ``position`` (moves upper-case, scores signed), without a newline."""
    if not _holds(type(position.board)):
        raise ValueError(f"OBF cannot hold a position of {position.board.title}")
    parts = [position.board.to_string() + ";"]
    for move, score in position.answers:
        name = "PA" if move.is_pass else position.board.move_name(move).upper()
        parts.append(f" {name}:{score:+d};")
    if position.comment:
        parts.append(f" % {position.comment}")
    return "".join(parts)


def read_obf(path_or_lines: str | os.PathLike[str] | Iterable[str], *,
             board_cls: type[Board] = Board) -> Iterator[ObfPosition]:
    """Positions of an OBF file (a path) or of an iterable of lines, one at a time.

    Errors are :class:`ParseError` naming the file (when a path), line and column (a byte
    that is not UTF-8: the line and byte offset).
    """
    if isinstance(path_or_lines, (str, os.PathLike)):
        yield from _read_lines(text_lines(path_or_lines), board_cls, os.fspath(path_or_lines))
    else:
        yield from _read_lines(path_or_lines, board_cls, None)


def _read_lines(lines: Iterable[str], board_cls: type[Board], source: str | None
                ) -> Iterator[ObfPosition]:
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped[0] in "%#":
            continue
        yield parse_obf(line, board_cls=board_cls, source=source, line_number=number)


def write_obf(path: str | os.PathLike[str], positions: Iterable[ObfPosition]) -> None:
    """Write one :func:`format_obf` line per position."""
    with open(path, "w", encoding="utf-8") as handle:
        for position in positions:
            handle.write(format_obf(position) + "\n")
