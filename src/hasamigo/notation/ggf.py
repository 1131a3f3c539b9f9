"""GGF game records (the Generic Game Format of GGS): ``(;GM[Othello]...B[d3]W[c5]...;)``.

A file holds any number of games, each ``(;`` then ``KEY[value]`` properties then ``;)``
(a number before ``(;``, as GGS game lists write, is skipped).
The tags read into :class:`GameRecord` fields: ``PB``/``PW`` players, ``PC`` place (the
record's ``event``), ``DT`` date, ``TY`` the game type (size first: ``8``, ``10``, ``6``, ``4``;
then letters such as ``k`` komi, ``r20`` random start), ``BO`` the start position (size,
rows with ``*`` black / ``O`` white / ``-`` empty, then the side to move), ``B``/``W``
moves as ``square/eval/time`` (``pass`` or ``PA`` for a pass; the evaluation and time
are not kept), ``RE`` the result as Black's disc difference. Every other tag (``RB``,
``RW``, ``TI``, ``KB``, ``KW``, ``KM``, ...) and ``TY``/``RE`` themselves stay in
``metadata`` in file order, so a record written back keeps them.

``RE`` checked against the replay of the reference files: a normal game's ``RE`` is the
official difference (empties to the winner; ``+0.000`` a draw); in a komi game
(``TY[8k...]``) ``RE`` is the disc difference minus the komi ``KM``, so
``RE + KM`` is the official difference (``-22.87 + -3.133 = -26``). ``recorded_score``
is then ``(squares + difference) / 2``; ``None`` when ``RE`` is absent or not a whole
difference (e.g. a resignation ``+64:r`` keeps only the text).

>>> [record] = parse_ggf("(;GM[Othello]PB[a]PW[b]TY[8]RE[+0.000]B[f5//1.2]W[d6];)")
>>> record.black, [str(m) for m in record.moves], record.recorded_score
('a', ['f5', 'd6'], 32)
>>> format_ggf(record)[:60]
'(;GM[Othello]PB[a]PW[b]TY[8]RE[+0.000]BO[8 -------- --------'
>>> parse_ggf(format_ggf(record)) == [record]
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from hasamigo.board import Board
from hasamigo.errors import SHOWN_CHARS, IllegalMoveError, InvalidSquareError, ParseError, shown
from hasamigo.move import BLACK, PASS, WHITE, Color, Move
from hasamigo.notation._text import text_lines
from hasamigo.notation.record import GameRecord, play_move
from hasamigo.squares import ASCII_DIGITS
from hasamigo.variants import find_variant

# GGF's board types are square boards with the cross start: 10 is Grand Othello (a1..j10).
_SIZES: dict[int, str] = {8: "standard", 10: "grand", 6: "6x6", 4: "4x4"}
# ASCII only throughout ([0-9], not \d, which also takes '٣'); sizes have at most 2 digits.
_TAG = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TYPE = re.compile(r"([0-9]{1,2})(?![0-9])")
_SIZE = re.compile(r"[0-9]{1,2}")
_NUMBER = re.compile(r"\s*([+-]?(?:[0-9]{1,6}(?:\.[0-9]{0,12})?|\.[0-9]{1,12}))\s*")
_FIELD_TAGS = {"PB": "black", "PW": "white", "PC": "event", "DT": "date"}


@dataclass(frozen=True, slots=True)
class Property:
    """One ``KEY[value]`` with where its value starts (1-based line and column)."""

    key: str
    value: str
    line: int
    column: int


_FailFn = Callable[[str, Property], ParseError]


def iter_games(lines: Iterable[str], *, source: str | None = None
               ) -> Iterator[tuple[int, list[Property]]]:
    """The raw games of GGF text: ``(line of '(;', properties)``, streamed line by line."""
    props: list[Property] = []
    game_line = 0  # 0: outside a game
    pending: tuple[str, int, int, list[str]] | None = None  # an open value across lines
    number = 0
    for number, text in enumerate(lines, 1):
        pos = 0
        if pending is not None:
            key, vline, vcol, parts = pending
            end = _find_close(text, 0)
            if end < 0:
                parts.append(text)
                continue
            parts.append(text[:end])
            props.append(Property(key, _unescape("".join(parts)), vline, vcol))
            pending, pos = None, end + 1
        while pos < len(text):
            ch = text[pos]
            if ch.isspace() or (ch in ASCII_DIGITS and not game_line):  # GGS lists number games
                pos += 1
            elif not game_line:
                if not text.startswith("(;", pos):
                    raise ParseError(f"expected '(;' to open a game, found {ch!r}", source=source,
                                     line=number, column=pos + 1)
                game_line, props, pos = number, [], pos + 2
            elif text.startswith(";)", pos):
                yield game_line, props
                game_line, pos = 0, pos + 2
            elif match := _TAG.match(text, pos):
                key, pos = match.group(0), match.end()
                if pos >= len(text) or text[pos] != "[":
                    raise ParseError(f"expected '[' after tag {_tag_name(key)}", source=source,
                                     line=number, column=pos + 1)
                end = _find_close(text, pos + 1)
                if end < 0:
                    pending = (key, number, pos + 2, [text[pos + 1:]])
                    break
                props.append(Property(key, _unescape(text[pos + 1:end]), number, pos + 2))
                pos = end + 1
            else:
                raise ParseError(f"unexpected {ch!r} inside a game (a tag or ';)' expected)",
                                 source=source, line=number, column=pos + 1)
    if pending is not None:
        raise ParseError(f"unclosed '[' of tag {_tag_name(pending[0])}", source=source,
                         line=pending[1], column=pending[2] - 1)
    if game_line:
        raise ParseError(f"game opened on line {game_line} is not closed with ';)'",
                         source=source, line=number)


def _tag_name(key: str) -> str:
    """A tag name for a message, cut short if absurdly long."""
    return key if len(key) <= 12 else key[:12] + "…"


def _tagged(prop: Property) -> str:
    """``KEY[value]`` for a message; an odd or long value is quoted and cut short."""
    value = prop.value
    if len(value) <= SHOWN_CHARS and value.isprintable() and "]" not in value:
        return f"{prop.key}[{value}]"
    return f"{prop.key}[{shown(value)}]"


def _find_close(text: str, pos: int) -> int:
    """Index of the ``]`` closing a value that starts at ``pos`` (``\\]`` is escaped), or -1."""
    while True:
        end = text.find("]", pos)
        if end < 0:
            return -1
        backslashes = len(text[pos:end]) - len(text[pos:end].rstrip("\\"))
        if backslashes % 2 == 0:
            return end
        pos = end + 1


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def record_from_properties(props: list[Property], *, source: str | None = None,
                           validate: bool = True) -> GameRecord:
    """Build a :class:`GameRecord` from one game's properties.

    Raises :class:`ParseError` (line and column of the tag) for what cannot be decoded;
    with ``validate`` the moves are replayed and an illegal one is refused the same way.
    """

    def fail(message: str, prop: Property) -> ParseError:
        return ParseError(message, source=source, line=prop.line, column=prop.column)

    record = GameRecord()
    by_key = {p.key: p for p in props}
    if "TY" in by_key:
        record.variant = _variant_of_type(by_key["TY"], fail)
    if "BO" in by_key:
        record.start = _start_of_board(by_key["BO"], record.variant, fail)
    board = record.board()
    last: Color = board.turn.other
    located: list[Property] = []
    for prop in props:
        if prop.key in ("B", "W"):
            colour = BLACK if prop.key == "B" else WHITE
            token = prop.value.split("/", 1)[0].strip()
            try:
                move = board.parse_move(token)
            except InvalidSquareError as exc:
                raise fail(f"unknown move {shown(token)} ({exc})", prop) from exc
            if last is colour:  # the other side passed without the file saying so
                record.moves.append(PASS)
                located.append(prop)
            record.moves.append(move)
            located.append(prop)
            last = colour
        elif prop.key in _FIELD_TAGS:
            setattr(record, _FIELD_TAGS[prop.key], prop.value)
        elif prop.key != "BO":
            record.metadata[prop.key] = prop.value
    if "GM" in by_key and by_key["GM"].value.strip().lower() != "othello":
        raise fail(f"not an Othello game: {_tagged(by_key['GM'])}", by_key["GM"])
    record.recorded_score = _score_of_result(record)
    if validate:
        replay = record.board()
        for number, (move, prop) in enumerate(zip(record.moves, located, strict=True), 1):
            try:
                play_move(replay, move, number)
            except IllegalMoveError as exc:
                raise fail(str(exc), prop) from exc
    return record


def _variant_of_type(prop: Property, fail: _FailFn) -> type[Board]:
    match = _TYPE.match(prop.value.strip())
    size = int(match.group(1)) if match else 0
    if size not in _SIZES:
        sizes = ", ".join(map(str, _SIZES))
        raise fail(f"unsupported game type {_tagged(prop)} (sizes {sizes} are read)", prop)
    return find_variant(_SIZES[size])


def _start_of_board(prop: Property, variant: type[Board], fail: _FailFn) -> str | None:
    parts = prop.value.split()
    if len(parts) < 2 or not _SIZE.fullmatch(parts[0]):
        raise fail(f"BO is a size, the rows and the side to move, not {shown(prop.value)}", prop)
    size, cells = int(parts[0]), "".join(parts[1:])
    if size != variant.rows or len(cells) != size * size + 1:
        raise fail(f"BO holds {len(cells) - 1} squares, expected {variant.rows}×{variant.cols}",
                   prop)
    if cells[-1] not in "*O" or set(cells[:-1]) - set("*O-"):
        raise fail(f"BO uses '*' black, 'O' white, '-' empty; got {shown(prop.value)}", prop)
    side = "X" if cells[-1] == "*" else "O"
    text = cells[:-1].replace("*", "X") + " " + side
    try:
        start = variant.from_string(text)
    except ParseError as exc:
        raise fail(f"bad BO: {exc.detail}", prop) from exc
    return None if start == variant() else start.to_string()


def _number(text: str) -> float | None:
    """A decimal number as GGF writes ``RE`` and ``KM`` (``-22.87``), else ``None``.

    Plain digits only: ``float`` would also take ``inf``, ``nan`` and ``1e999``.
    """
    match = _NUMBER.fullmatch(text)
    return None if match is None else float(match.group(1))


def _score_of_result(record: GameRecord) -> int | None:
    diff = _number(record.metadata.get("RE", ""))
    if diff is None:
        return None
    if "KM" in record.metadata:
        komi = _number(record.metadata["KM"])
        if komi is None:
            return None
        diff += komi
    squares = record.variant.square_count()
    whole = round(diff)
    if abs(diff - whole) > 0.01 or (squares + whole) % 2 or abs(whole) > squares:
        return None
    return (squares + whole) // 2


def parse_ggf(text: str, *, source: str | None = None, validate: bool = True
              ) -> list[GameRecord]:
    """Every game of a GGF string (see :func:`read_ggf` for files)."""
    return [record_from_properties(props, source=source, validate=validate)
            for _, props in iter_games(text.splitlines(), source=source)]


def read_ggf(path: str | os.PathLike[str], *, validate: bool = True, strict: bool = False
             ) -> Iterator[GameRecord]:
    """The games of a GGF file, streamed.

    Broken structure (an unclosed ``[``, a game never closed) and a byte that is not UTF-8
    raise :class:`ParseError` naming the file and the line (and byte offset).
    A game whose content cannot be used (unknown move token, illegal move with
    ``validate``) gives a record with ``problem`` naming the line and column, unless
    ``strict`` is set, which raises instead.
    """
    name = str(path)
    for _, props in iter_games(text_lines(path), source=name):
        try:
            yield record_from_properties(props, source=name, validate=validate)
        except ParseError as exc:
            if strict:
                raise
            record = GameRecord(problem=str(exc))
            for prop in props:
                if prop.key in _FIELD_TAGS:
                    setattr(record, _FIELD_TAGS[prop.key], prop.value)
                elif prop.key not in ("B", "W", "BO"):
                    record.metadata[prop.key] = prop.value
            yield record


# ---- writing -------------------------------------------------------------------------
def _type_of_variant(variant: type[Board]) -> str:
    if (variant.rows != variant.cols or variant.cut or variant.default_disc_limit is not None
            or variant.default_start == "original" or variant.rows not in _SIZES
            or not variant.rules.supports("square_notation")):
        raise ValueError(f"GGF cannot hold a game of {variant.title}")
    return str(variant.rows)


def _board_text(board: Board) -> str:
    cells = board.to_string().split()[0].replace("X", "*")
    rows = [cells[i:i + board.cols] for i in range(0, len(cells), board.cols)]
    side = "*" if board.turn is BLACK else "O"
    return f"{board.rows} {' '.join(rows)} {side}"


def _coloured_moves(record: GameRecord) -> list[tuple[Color, Move]]:
    """Each move with its colour: by replay (forced passes written), else alternating."""
    board = record.board()
    out: list[tuple[Color, Move]] = []
    try:
        for number, move in enumerate(record.moves, 1):
            before = len(board.move_stack)
            turn = board.turn
            play_move(board, move, number)
            for played in board.move_stack[before:]:
                out.append((turn, played))
                turn = turn.other
        return out
    except (IllegalMoveError, ParseError):
        turn = record.board().turn
        return [(turn if i % 2 == 0 else turn.other, m) for i, m in enumerate(record.moves)]


def format_ggf(record: GameRecord) -> str:
    """One game as a GGF string ``(;GM[Othello]...;)`` on one line.

    ``RE`` is taken from ``metadata`` when it agrees with ``recorded_score`` (so a read
    record is written back as it was), else computed from ``recorded_score``.
    """
    size = _type_of_variant(record.variant)
    meta = dict(record.metadata)
    tags: list[tuple[str, str]] = [("GM", meta.pop("GM", "Othello"))]
    for key, attr in _FIELD_TAGS.items():
        value = getattr(record, attr)
        if value:
            tags.append((key, value))
    meta.setdefault("TY", size)
    if record.recorded_score is not None:
        meta_score = _score_of_result(record)
        if "RE" not in meta or meta_score != record.recorded_score:
            diff = 2 * record.recorded_score - record.variant.square_count()
            meta["RE"] = f"{diff:+d}.000"
    tags.extend(meta.items())
    tags.append(("BO", _board_text(record.board())))
    tags.extend(("B" if colour is BLACK else "W", "PA" if move.is_pass
                 else record.variant.move_name(move))
                for colour, move in _coloured_moves(record))
    body = "".join(f"{key}[{_escape(value)}]" for key, value in tags)
    return f"(;{body};)"


def write_ggf(path: str | os.PathLike[str], records: Iterable[GameRecord]) -> None:
    """Write one game per line."""
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(format_ggf(record) + "\n")
