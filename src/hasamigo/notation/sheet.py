"""Record sheets: a game as the 8×8 grid of move numbers players write at the board.

The Othello record sheet (棋譜用紙) has one box per square; a player writes the number of
each move in the box of its square. Passes are not written (each is implied by the
position), the start discs and a handicap's corner discs have no number.

**The text form** is one line per row, row 1 first, each with one whitespace-separated
field per column: a move number or ``-`` for a square never played (the start squares
included). Blank lines and lines starting with ``#`` are skipped. The handicap (corner
discs pre-placed) and the side that moves first are not in the grid: they are options.

>>> from hasamigo.notation.transcript import parse_transcript
>>> sheet = sheet_of_moves(parse_transcript("f5d6c3"))
>>> print(format_sheet(sheet))
 -  -  -  -  -  -  -  -
 -  -  -  -  -  -  -  -
 -  -  3  -  -  -  -  -
 -  -  -  -  -  -  -  -
 -  -  -  -  -  1  -  -
 -  -  -  2  -  -  -  -
 -  -  -  -  -  -  -  -
 -  -  -  -  -  -  -  -
>>> check_sheet(read_sheet(format_sheet(sheet))).transcript
'f5d6c3'

:func:`check_sheet` replays the grid. A grid that is not a legal game is refused with the
first move number where it fails and the **likely fix**, found by trying the slips people
make on a sheet: two numbers swapped, a number written twice (the later ones one short)
or skipped (the later ones one over), and a pass implied (a player passed though a move
existed). A fix is proposed only if the whole game then replays.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hasamigo.board import Board
from hasamigo.errors import IllegalMoveError, InvalidOptionError, ParseError
from hasamigo.move import BLACK, PASS, WHITE, Color, Move
from hasamigo.notation._text import text_lines
from hasamigo.notation.record import RecordFault
from hasamigo.squares import bits

#: How far before the first failing move a swapped number is looked for.
SWAP_WINDOW = 10


@dataclass(frozen=True, slots=True)
class Sheet:
    """A record sheet: ``cells`` holds each square's move number (``None``: not played),
    row by row in the variant's own coordinates; ``handicap`` corner discs; ``first`` the
    side that moves first (``None``: the start position's, White with a handicap)."""

    cells: tuple[int | None, ...]
    variant: type[Board] = Board
    handicap: int = 0
    first: Color | None = None

    def start(self) -> Board:
        """The position before move 1."""
        board = self.variant(handicap=self.handicap)
        if self.first is not None:
            board.turn = self.first
        return board

    def square(self, index: int) -> int:
        """The grid square of cell ``index`` (row-major in the variant's frame)."""
        return self.variant.local_square(index % self.variant.cols, index // self.variant.cols)

    def numbers(self) -> dict[int, list[int]]:
        """Each written number with the squares it is written on (grid indices)."""
        found: dict[int, list[int]] = {}
        for index, number in enumerate(self.cells):
            if number is not None:
                found.setdefault(number, []).append(self.square(index))
        return found

    def renumbered(self, numbers: dict[int, int]) -> Sheet:
        """The same sheet with the squares' numbers given by ``numbers`` (square → number)."""
        cells = tuple(numbers.get(self.square(i)) for i in range(len(self.cells)))
        return Sheet(cells, self.variant, self.handicap, self.first)


#: where a grid stops being a legal game (kinds: ``repeated``, ``skipped``,
#: ``start_square``, ``illegal``, ``game_over``)
SheetFault = RecordFault


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The likely fix: what it changes (``kind``: ``swap``, ``repeat``, ``skip`` or
    ``pass``), in words, the whole game after it, and the fixed sheet."""

    kind: str
    description: str
    transcript: str
    sheet: Sheet

    def to_json(self) -> dict[str, Any]:
        return {"description": self.description, "transcript": self.transcript}


@dataclass(frozen=True, slots=True)
class SheetCheck:
    """What :func:`check_sheet` found: ``transcript`` is the legal game read (up to the
    first fault when not ``ok``); ``faults`` in move order; ``suggestion`` the fix."""

    ok: bool
    transcript: str
    faults: tuple[SheetFault, ...] = ()
    suggestion: Suggestion | None = None
    moves: list[Move] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{ok, transcript, faults: [{move_number, kind, squares, message}],
        suggestion: null | {description, transcript}}`` (``hasamigo record check --json``)."""
        return {"ok": self.ok, "transcript": self.transcript,
                "faults": [f.to_json() for f in self.faults],
                "suggestion": None if self.suggestion is None else self.suggestion.to_json()}


# ---- reading and writing ------------------------------------------------------------------
def _max_number(variant: type[Board], handicap: int) -> int:
    return variant().empties.bit_count() - handicap


def read_sheet(text: str, variant: type[Board] = Board, *, handicap: int = 0,
               first: Color | None = None, source: str | None = None) -> Sheet:
    """A sheet from its text form (see the module docstring). Malformed text raises
    :class:`ParseError` with the line and column; what is written but not a legal game
    (a number twice, a gap) is for :func:`check_sheet` to name."""
    _check_options(variant, handicap)
    rows: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\n")
        if line.strip() and not line.lstrip().startswith("#"):
            rows.append((number, line))
    return _parse_rows(rows, variant, handicap, first, source,
                       last_line=len(text.splitlines()))


def load_sheet(path: str | os.PathLike[str], variant: type[Board] = Board, *,
               handicap: int = 0, first: Color | None = None) -> Sheet:
    """:func:`read_sheet` of a UTF-8 text file (its name in every error)."""
    text = "".join(text_lines(path))
    return read_sheet(text, variant, handicap=handicap, first=first, source=os.fspath(path))


def _check_options(variant: type[Board], handicap: int) -> None:
    if variant.default_start == "original":
        raise InvalidOptionError(f"{variant.title} starts by placing discs: it has no record "
                                 "sheet here")
    if not variant.rules.supports("square_notation"):
        raise InvalidOptionError(f"a record sheet numbers squares, not the discs each move "
                                 f"chose to turn: {variant.title} has no record sheet here")
    if not isinstance(handicap, int) or isinstance(handicap, bool) or not 0 <= handicap <= 4:
        raise InvalidOptionError(f"a handicap is 0 to 4 corner discs, not {handicap!r}")


def _parse_rows(rows: list[tuple[int, str]], variant: type[Board], handicap: int,
                first: Color | None, source: str | None, last_line: int) -> Sheet:
    if len(rows) != variant.rows:
        where = rows[variant.rows][0] if len(rows) > variant.rows else max(1, last_line)
        raise ParseError(f"a record sheet for {variant.title} has {variant.rows} rows of "
                         f"numbers, this one {len(rows)}", source=source, line=where)
    top = _max_number(variant, handicap)
    cells: list[int | None] = []
    for line_number, line in rows:
        fields = _fields(line)
        if len(fields) != variant.cols:
            column = fields[variant.cols][0] if len(fields) > variant.cols else len(line) + 1
            raise ParseError(f"a row has {variant.cols} fields (a move number or '-'), this "
                             f"one {len(fields)}", source=source, line=line_number, column=column)
        for column, token in fields:
            cells.append(_cell(token, top, source, line_number, column))
    sheet = Sheet(tuple(cells), variant, handicap, first)
    for index, number in enumerate(cells):
        sq = sheet.square(index)
        if number is not None and not variant.playable() >> sq & 1:
            line_number, line = rows[index // variant.cols]
            raise ParseError(f"{number} is written on a square cut from {variant.title}",
                             source=source, line=line_number,
                             column=_fields(line)[index % variant.cols][0])
    return sheet


def _fields(line: str) -> list[tuple[int, str]]:
    """The whitespace-separated fields of ``line`` with their 1-based columns."""
    out: list[tuple[int, str]] = []
    start = None
    for i, ch in enumerate(line + " "):
        if ch.isspace():
            if start is not None:
                out.append((start + 1, line[start:i]))
                start = None
        elif start is None:
            start = i
    return out


def _cell(token: str, top: int, source: str | None, line: int, column: int) -> int | None:
    if token in ("-", "--", "."):
        return None
    if not (token.isascii() and token.isdigit() and len(token) <= 3):
        shown = token if len(token) <= 12 else token[:12] + "…"
        raise ParseError(f"{shown!r} is not a move number or '-'", source=source, line=line,
                         column=column)
    number = int(token)
    if not 1 <= number <= top:
        raise ParseError(f"move numbers run from 1 to {top}, not {number}", source=source,
                         line=line, column=column)
    return number


def format_sheet(sheet: Sheet) -> str:
    """The text form: one line per row, fields right-aligned in columns of two."""
    cols = sheet.variant.cols
    lines = []
    for row in range(sheet.variant.rows):
        cells = sheet.cells[row * cols:(row + 1) * cols]
        lines.append(" ".join("-".rjust(2) if n is None else str(n).rjust(2) for n in cells))
    return "\n".join(lines)


def sheet_of_moves(moves: Iterable[Move], variant: type[Board] = Board, *, handicap: int = 0,
                   first: Color | None = None) -> Sheet:
    """The sheet of a game (its moves, passes anywhere or left out): each square gets the
    number of the move played there, passes not counted."""
    _check_options(variant, handicap)
    numbers: dict[int, int] = {}
    count = 0
    for move in moves:
        if move.square is None:
            continue
        count += 1
        if move.square in numbers:
            raise InvalidOptionError(f"{variant.square_name(move.square)} is played twice")
        numbers[move.square] = count
    empty = Sheet(tuple([None] * (variant.rows * variant.cols)), variant, handicap, first)
    return empty.renumbered(numbers)


# ---- checking ---------------------------------------------------------------------------------
@dataclass(slots=True)
class _Replay:
    """A sequence of squares replayed: the tokens played (``None`` for a pass, with
    ``implied`` marking a pass that was not forced), where it failed (the move number)
    and the board there."""

    board: Board
    tokens: list[tuple[int | None, bool]]
    failed: int | None

    def transcript(self, variant: type[Board]) -> str:
        return "".join("pass" if implied else "" if sq is None else variant.square_name(sq)
                       for sq, implied in self.tokens)

    def moves(self) -> list[Move]:
        return [PASS if sq is None else Move(sq) for sq, _ in self.tokens]


def _replay(start: Board, squares: Sequence[int], implied: int | None = None,
            first_number: int = 1, keep: list[tuple[Board, int]] | None = None) -> _Replay:
    """Play ``squares`` (moves ``first_number``…) from ``start``, inserting forced passes;
    ``implied``: the move number before which the side to move passes though it could
    move. Stops at the first move that is not legal. ``keep`` collects the board and the
    number of tokens before each move (to replay candidates from there)."""
    board = start.copy(stack=False)
    tokens: list[tuple[int | None, bool]] = []
    for offset, sq in enumerate(squares):
        if keep is not None:
            keep.append((board.copy(stack=False), len(tokens)))
        number = first_number + offset
        if number == implied:
            if board.is_game_over():
                return _Replay(board, tokens, number)
            board.turn = board.turn.other
            tokens.append((None, True))
        if board.must_pass():
            board.push(PASS)
            tokens.append((None, False))
        try:
            board.push(Move(sq))
        except IllegalMoveError:
            return _Replay(board, tokens, number)
        tokens.append((sq, False))
    return _Replay(board, tokens, None)


def _colour(colour: Color) -> str:
    return str(colour).capitalize()


def check_sheet(sheet: Sheet) -> SheetCheck:
    """Replay ``sheet``: ``ok`` with the game, or the faults from the first move number
    where it fails, with a suggested fix (see the module docstring)."""
    variant = sheet.variant
    numbers = sheet.numbers()
    last = max(numbers, default=0)
    faults: list[SheetFault] = []
    for number in sorted(numbers):
        squares = numbers[number]
        if len(squares) > 1:
            names = tuple(variant.square_name(sq) for sq in squares)
            faults.append(SheetFault(number, "repeated", names, f"move {number}: the number "
                                     f"{number} is written {_times(len(names))} "
                                     f"({_and(names)})"))
    for number in range(1, last + 1):
        if number not in numbers:
            faults.append(SheetFault(number, "skipped", (), f"move {number}: the number "
                                     f"{number} is missing (the numbers jump from "
                                     f"{number - 1} to {_next(numbers, number)})"))
    start = sheet.start()
    for number, squares in numbers.items():
        for sq in squares:
            if start.occupied >> sq & 1:
                faults.append(SheetFault(number, "start_square", (variant.square_name(sq),),
                                         f"move {number}: {number} is written on "
                                         f"{variant.square_name(sq)}, a square taken at "
                                         "the start"))
    first_structural = min((f.move_number for f in faults), default=last + 1)
    order = [numbers[n][0] for n in range(1, first_structural)]
    played = _replay(start, order)
    if played.failed is not None:
        faults.append(_illegal_fault(played, order[played.failed - 1], played.failed))
    faults.sort(key=lambda f: (f.move_number, f.kind != "start_square"))
    transcript = played.transcript(variant)
    if not faults:
        return SheetCheck(True, transcript, (), None, played.moves())
    first_fault = faults[0].move_number
    suggestion = suggest_fix(sheet, first_fault)
    return SheetCheck(False, transcript, tuple(f for f in faults), suggestion, played.moves())


def _times(count: int) -> str:
    return "twice" if count == 2 else f"{count} times"


def _and(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def _next(numbers: dict[int, list[int]], number: int) -> int:
    return min((n for n in numbers if n > number), default=number + 1)


def _illegal_fault(played: _Replay, sq: int, number: int) -> SheetFault:
    board = played.board
    name = board.square_name(sq)
    if board.is_game_over():
        return SheetFault(number, "game_over", (name,), f"move {number}: the game was over "
                          f"after move {number - 1}, yet {number} is written on {name}")
    if board.must_pass():  # the mover passes first: the move is the opponent's
        board.push(PASS)
    legal = [board.square_name(s) for s in bits(board.legal_moves_mask())]
    return SheetFault(number, "illegal", (name,), f"move {number}: {name} is not a legal "
                      f"move for {_colour(board.turn)}; the legal squares are "
                      f"{', '.join(legal)}")


# ---- the likely fix -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Candidate:
    kind: str
    description: str
    order: tuple[int, ...]  # squares by move number
    since: int  # the first move number it changes
    implied: int | None = None  # a pass implied before this move number
    rank: tuple[int, ...] = ()


class _Prefixes:
    """The sheet's moves before the failure, replayed once: candidates that change
    nothing before move ``k`` are replayed from the position before ``k``."""

    def __init__(self, sheet: Sheet, failed_at: int) -> None:
        numbers = sheet.numbers()
        order = []
        for n in range(1, failed_at):
            if len(numbers.get(n, ())) != 1:
                break
            order.append(numbers[n][0])
        self.kept: list[tuple[Board, int]] = []
        self.base = _replay(sheet.start(), order, keep=self.kept)
        self.kept.append((self.base.board, len(self.base.tokens)))
        self.usable = len(self.kept) if self.base.failed is None else self.base.failed

    def replay(self, candidate: _Candidate) -> _Replay | None:
        k = max(1, min(candidate.since, self.usable))
        board, count = self.kept[k - 1]
        tail = _replay(board, candidate.order[k - 1:], candidate.implied, first_number=k)
        if tail.failed is not None:
            return None
        return _Replay(tail.board, self.base.tokens[:count] + tail.tokens, None)


def suggest_fix(sheet: Sheet, failed_at: int) -> Suggestion | None:
    """The likeliest fix of a sheet that fails at move ``failed_at``: the first of the
    candidates (repeats and gaps first, then swaps nearest the failure, then an implied
    pass) with which the whole game replays; ``None`` if none does."""
    prefixes = _Prefixes(sheet, failed_at)
    written = sum(len(squares) for squares in sheet.numbers().values())
    candidates = list(_candidates(sheet, failed_at, prefixes))
    candidates.sort(key=lambda c: c.rank)
    for candidate in candidates:
        if len(candidate.order) != written:  # a fix places every number written
            continue
        played = prefixes.replay(candidate)
        if played is None:
            continue
        numbers = {sq: n for n, sq in enumerate(candidate.order, 1)}
        return Suggestion(candidate.kind, candidate.description,
                          played.transcript(sheet.variant), sheet.renumbered(numbers))
    return None


def _candidates(sheet: Sheet, failed_at: int, prefixes: _Prefixes) -> Iterable[_Candidate]:
    variant = sheet.variant
    numbers = sheet.numbers()
    name = variant.square_name
    repeated = sorted(n for n, sqs in numbers.items() if len(sqs) > 1)
    last = max(numbers, default=0)
    missing = [n for n in range(1, last + 1) if n not in numbers]
    if repeated:
        k = repeated[0]
        a, b = numbers[k][0], numbers[k][1]
        rest = {n: sqs[0] for n, sqs in numbers.items() if n != k and len(sqs) == 1}
        for first, second in ((a, b), (b, a)):
            if k - 1 in missing:  # "23, 25, 25": one of the two is 24
                fixed = {**rest, k - 1: first, k: second}
                yield _Candidate("repeat", f"one {k} is {k - 1}: {k - 1} on {name(first)}, "
                                 f"{k} on {name(second)}", _ordered(fixed), k - 1,
                                 rank=(0, 0))
            if k + 1 in missing:  # "23, 23, 25": one of the two is 24
                fixed = {**rest, k: first, k + 1: second}
                yield _Candidate("repeat", f"one {k} is {k + 1}: {k} on {name(first)}, "
                                 f"{k + 1} on {name(second)}", _ordered(fixed), k,
                                 rank=(0, 0))
            shifted = {(n + 1 if n > k else n): sq for n, sq in rest.items()}
            fixed = {**shifted, k: first, k + 1: second}
            yield _Candidate("repeat", f"{k} is written twice: {k} on {name(first)}, "
                             f"{k + 1} on {name(second)}, and every later number one higher",
                             _ordered(fixed), k, rank=(0, 1))
        return
    if missing:
        k = missing[0]
        shifted = {(n - 1 if n > k else n): sqs[0] for n, sqs in numbers.items()}
        yield _Candidate("skip", f"{k} is skipped: every number after {k - 1} one lower",
                         _ordered(shifted), k, rank=(0, 0))
        return
    order = [numbers[n][0] for n in range(1, last + 1)]
    low = max(1, failed_at - SWAP_WINDOW)
    for i in range(low, failed_at + 1):
        for j in range(i + 1, last + 1):
            swapped = list(order)
            swapped[i - 1], swapped[j - 1] = swapped[j - 1], swapped[i - 1]
            yield _Candidate("swap", f"{i} and {j} are swapped: {i} on {name(order[j - 1])}, "
                             f"{j} on {name(order[i - 1])}", tuple(swapped), i,
                             rank=(1, j - i, failed_at - i))
    for k in range(min(failed_at, prefixes.usable), 0, -1):
        board = prefixes.kept[k - 1][0]
        if board.must_pass() or board.is_game_over():
            continue
        legal = ", ".join(name(s) for s in bits(board.legal_moves_mask()))
        yield _Candidate("pass", f"a pass is implied before {k}: {_colour(board.turn)} passed "
                         f"though it could play {legal} (an illegal pass, kept)",
                         tuple(order), k, implied=k, rank=(2, failed_at - k))


def _ordered(numbers: dict[int, int]) -> tuple[int, ...]:
    """Squares by move number, for numbers 1…n without a gap (else as far as they go)."""
    out = []
    n = 1
    while n in numbers:
        out.append(numbers[n])
        n += 1
    return tuple(out)


# ---- printable sheets ---------------------------------------------------------------------------
_LABELS = {
    "en": {"title": "Othello record sheet", "event": "Event", "round": "Round",
           "date": "Date", "black": "Black", "white": "White", "discs": "Discs",
           "result": "Result", "signature": "Signature", "winner": "Winner",
           "handicap": "Handicap", "first": "First to move",
           "note": "Write the number of each move in the box of its square. Passes are "
                   "not written. Both players check the counts and sign (JOF rule 18)."},
    "ja": {"title": "オセロ棋譜用紙", "event": "大会名", "round": "回戦", "date": "日付",
           "black": "黒", "white": "白", "discs": "石数", "result": "結果",
           "signature": "署名", "winner": "勝者", "handicap": "ハンデ", "first": "先手",
           "note": "着手した順に、そのマスに手数を記入してください。パスは記入しません。"
                   "終局後、双方が石数を確認して署名します（第18項）。"},
}

_STYLE = """
@page { size: A4; margin: 14mm; }
body { font-family: "Noto Sans CJK JP", "Noto Sans JP", system-ui, sans-serif; color: #111;
       margin: 0 auto; max-width: 180mm; }
h1 { font-size: 20pt; margin: 0 0 4mm; }
table.info { border-collapse: collapse; width: 100%; margin-bottom: 5mm; font-size: 11pt; }
table.info th { text-align: left; font-weight: 600; padding: 2mm 3mm 2mm 0; width: 22mm; }
table.info td { border-bottom: 1px solid #444; padding: 2mm 2mm; min-width: 40mm; }
table.grid { border-collapse: collapse; margin: 0 auto; }
table.grid th { font-weight: 600; font-size: 12pt; padding: 1mm; color: #333; }
table.grid td { width: 17mm; height: 17mm; border: 1.5px solid #222; text-align: center;
                vertical-align: middle; font-size: 18pt; font-variant-numeric: tabular-nums; }
td.start { background: #eee; }
td.start span { display: inline-block; width: 9mm; height: 9mm; border-radius: 50%;
                border: 1.5px solid #111; }
td.start span.black { background: #111; }
p.note { font-size: 9.5pt; color: #444; margin-top: 5mm; }
"""


def sheet_html(sheet: Sheet | None = None, *, lang: str = "en", black: str = "",
               white: str = "", event: str = "", date: str = "", round_: str = "",
               result: tuple[float, float] | None = None, variant: type[Board] = Board,
               handicap: int = 0) -> str:
    """A printable record sheet as a standalone HTML page (A4), headings in ``lang``
    (``en`` or ``ja``): blank without ``sheet``, else filled with its numbers; names,
    event, date, round and the result (disc counts under the game's scoring, written as
    given: ``38.5`` under the JOF rule before June 2014) fill the boxes above the grid."""
    if lang not in _LABELS:
        raise InvalidOptionError(f"a sheet's language is 'en' or 'ja', not {lang!r}")
    t = _LABELS[lang]
    if sheet is not None:
        variant, handicap = sheet.variant, sheet.handicap
    start = sheet.start() if sheet is not None else variant(handicap=handicap)
    e = html.escape
    counts = ("", "") if result is None else (str(result[0]), str(result[1]))
    info = [
        f"<tr><th>{t['event']}</th><td>{e(event)}</td><th>{t['round']}</th>"
        f"<td>{e(round_)}</td><th>{t['date']}</th><td>{e(date)}</td></tr>",
        f"<tr><th>{t['black']}</th><td>{e(black)}</td><th>{t['discs']}</th>"
        f"<td>{counts[0]}</td><th>{t['signature']}</th><td></td></tr>",
        f"<tr><th>{t['white']}</th><td>{e(white)}</td><th>{t['discs']}</th>"
        f"<td>{counts[1]}</td><th>{t['signature']}</th><td></td></tr>",
    ]
    if handicap:
        info.append(f"<tr><th>{t['handicap']}</th><td>{handicap}</td><th>{t['first']}</th>"
                    f"<td>{t['white']}</td><td></td><td></td></tr>")
    files = "abcdefghijklmnop"[:variant.cols]
    grid = ["<tr><th></th>" + "".join(f"<th>{f}</th>" for f in files) + "</tr>"]
    for row in range(variant.rows):
        cells = [f"<th>{row + 1}</th>"]
        for col in range(variant.cols):
            sq = variant.local_square(col, row)
            index = row * variant.cols + col
            number = None if sheet is None else sheet.cells[index]
            if not variant.playable() >> sq & 1:
                cells.append('<td class="cut"></td>')
            elif start.occupied >> sq & 1:
                colour = (BLACK if start.black >> sq & 1 else WHITE).value
                cells.append(f'<td class="start"><span class="{colour}"></span></td>')
            else:
                cells.append(f"<td>{'' if number is None else number}</td>")
        grid.append("<tr>" + "".join(cells) + "</tr>")
    title = t["title"]
    return (f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{title}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{title}</h1>\n<table class=\"info\">{''.join(info)}</table>\n"
            f"<table class=\"grid\">{''.join(grid)}</table>\n"
            f"<p class=\"note\">{t['note']}</p>\n</body>\n</html>\n")


__all__ = [
    "SWAP_WINDOW",
    "Sheet",
    "SheetCheck",
    "SheetFault",
    "Suggestion",
    "check_sheet",
    "format_sheet",
    "load_sheet",
    "read_sheet",
    "sheet_html",
    "sheet_of_moves",
    "suggest_fix",
]
