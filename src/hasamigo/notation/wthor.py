"""WTHOR archives (``.wtb``, the French federation's game database) and their name files.

Layout (little-endian), worked out from the files and checked on all of them:

* a 16-byte header: creation century, year (in the century), month, day (1 byte each);
  the number of games (4 bytes); the number of records of a ``.JOU``/``.TRN`` file
  (2 bytes, 0 in a ``.wtb``); the year of the games (2 bytes); the board size (1 byte:
  0 or 8 for 8×8); a flag set for "solitaire" files (1 byte); the search depth of the
  theoretical scores (1 byte, empties); a reserved byte;
* one 68-byte record per game: tournament, black and white player numbers (2 bytes
  each), the real score (Black's discs), the theoretical score (Black's discs with
  perfect play from that depth), then 60 move bytes ``10*row + col`` (1-based; ``56`` is
  f5), 0 after the last move. Passes are never recorded: :meth:`GameRecord.replay`
  inserts the forced ones.

``WTHOR.JOU`` (players, 20-byte names) and ``WTHOR.TRN`` (tournaments, 26-byte names)
have the same header, then NUL-padded Latin-1 names indexed by number.

**The score convention, by experiment.** Replaying all 123,600 games of 1977–2021: every
game that reaches the end (123,187) records the *official* black count, empties to the
winner (e.g. 33–20 with 11 empties is recorded as 44), which equals the plain disc count
whenever the board is full or Black lost. The 413 others stop before the end (time-outs,
resignations, adjudications): their score is the arbiter's and cannot be checked.

>>> decode_move(56), encode_move(decode_move(56))
(Move.from_str('f5'), 56)
"""

from __future__ import annotations

import datetime
import os
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from hasamigo.board import Board
from hasamigo.errors import ParseError
from hasamigo.move import Move
from hasamigo.notation.record import GameRecord

HEADER_SIZE = 16
GAME_SIZE = 68
MOVES_PER_GAME = 60
PLAYER_NAME_SIZE = 20
TOURNAMENT_NAME_SIZE = 26
_HEADER = struct.Struct("<BBBBIHHBBBB")
_GAME = struct.Struct("<HHHBB60s")


@dataclass(frozen=True, slots=True)
class WthorHeader:
    """The 16-byte header of a WTHOR file."""

    created: datetime.date | None
    games: int
    names: int
    year: int
    board_size: int
    solitaire: bool
    depth: int

    def pack(self) -> bytes:
        created = self.created or datetime.date.today()
        return _HEADER.pack(created.year // 100, created.year % 100, created.month, created.day,
                            self.games, self.names, self.year, self.board_size,
                            int(self.solitaire), self.depth, 0)


def parse_header(data: bytes, *, source: str | None = None) -> WthorHeader:
    """Decode and check a header; :class:`ParseError` with the byte offset if bad."""
    if len(data) < HEADER_SIZE:
        raise ParseError(f"a WTHOR header is {HEADER_SIZE} bytes, the file has {len(data)}",
                         source=source, offset=len(data))
    fields = _HEADER.unpack_from(data)
    century, yy, month, day, games, names, year, size, solitaire, depth, _ = fields
    try:
        created: datetime.date | None = datetime.date(century * 100 + yy, month, day)
    except ValueError:
        if (century, yy, month, day) != (0, 0, 0, 0):
            raise ParseError(f"bad creation date {century:02d}{yy:02d}-{month:02d}-{day:02d} "
                             "in the header", source=source, offset=0) from None
        created = None
    if size not in (0, 8):
        raise ParseError(f"board size {size} in the header: only 8×8 (0 or 8) is read",
                         source=source, offset=12)
    if depth > MOVES_PER_GAME:
        raise ParseError(f"theoretical-score depth {depth} in the header exceeds 60",
                         source=source, offset=14)
    return WthorHeader(created, games, names, year, size or 8, bool(solitaire), depth)


def decode_move(byte: int) -> Move | None:
    """The move of a WTHOR move byte (``56`` → f5), ``None`` if it is no square."""
    row, col = divmod(byte, 10)
    if 1 <= row <= 8 and 1 <= col <= 8:
        return Move((row - 1) * 8 + col - 1)
    return None


def encode_move(move: Move) -> int:
    if move.square is None:
        raise ValueError("WTHOR does not record passes")
    row, col = divmod(move.square, 8)
    return (row + 1) * 10 + col + 1


def read_names(path: str | os.PathLike[str], record_size: int) -> list[str]:
    """Names of a ``.JOU`` (record size 20) or ``.TRN`` (26) file, indexed by number."""
    return parse_names(Path(path).read_bytes(), record_size, source=str(path))


def parse_names(data: bytes, record_size: int, *, source: str | None = None) -> list[str]:
    """Names of a ``.JOU`` or ``.TRN`` file held in memory (see :func:`read_names`)."""
    header = parse_header(data, source=source)
    body = data[HEADER_SIZE:]
    if len(body) < header.names * record_size:
        raise ParseError(f"header lists {header.names} names of {record_size} bytes, the file "
                         f"holds {len(body) // record_size}", source=source, offset=len(data))
    out = []
    for i in range(header.names):
        raw = body[i * record_size:(i + 1) * record_size]
        out.append(raw.split(b"\0", 1)[0].decode("latin-1").strip())
    return out


def _beside(path: Path, name: str) -> Path | None:
    for candidate in (path.with_name(name), path.with_name(name.lower())):
        if candidate.is_file():
            return candidate
    return None


def read_wthor(path: str | os.PathLike[str], *, players: list[str] | None = None,
               tournaments: list[str] | None = None) -> Iterator[GameRecord]:
    """The games of a ``.wtb`` archive, read one record at a time.

    Player and tournament names come from ``players``/``tournaments`` or, when not given,
    from ``WTHOR.JOU``/``WTHOR.TRN`` beside the archive if present. A bad header or a
    truncated file raises :class:`ParseError` with the byte offset; a move byte that is
    no square gives a record whose ``problem`` names the game, move and offset.
    """
    path = Path(path)
    name = str(path)
    if players is None and (jou := _beside(path, "WTHOR.JOU")):
        players = read_names(jou, PLAYER_NAME_SIZE)
    if tournaments is None and (trn := _beside(path, "WTHOR.TRN")):
        tournaments = read_names(trn, TOURNAMENT_NAME_SIZE)
    with path.open("rb") as handle:
        header = parse_header(handle.read(HEADER_SIZE), source=name)
        _check_size(header, os.fstat(handle.fileno()).st_size, name)
        for index in range(header.games):
            offset = HEADER_SIZE + index * GAME_SIZE
            data = handle.read(GAME_SIZE)
            if len(data) < GAME_SIZE:  # the file shrank while being read
                raise ParseError(f"truncated in game {index + 1}", source=name, offset=offset)
            yield _record(data, index, offset, header, players, tournaments, name)


def parse_wthor(data: bytes, *, source: str = "WTHOR", players: list[str] | None = None,
                tournaments: list[str] | None = None) -> Iterator[GameRecord]:
    """The games of a ``.wtb`` archive held in memory (an upload), as :func:`read_wthor`
    reads a file; ``source`` names it in messages. Names come only from ``players`` and
    ``tournaments`` (nothing lies beside bytes)."""
    header = parse_header(data[:HEADER_SIZE], source=source)
    _check_size(header, len(data), source)
    for index in range(header.games):
        offset = HEADER_SIZE + index * GAME_SIZE
        yield _record(data[offset:offset + GAME_SIZE], index, offset, header, players,
                      tournaments, source)


def _check_size(header: WthorHeader, size: int, source: str) -> None:
    """Refuse an archive shorter than its header announces, naming the game cut short."""
    expected = HEADER_SIZE + header.games * GAME_SIZE
    if size < expected:
        whole = (size - HEADER_SIZE) // GAME_SIZE
        raise ParseError(f"truncated: the header announces {header.games} games "
                         f"({expected} bytes), the file has {size} bytes; game {whole + 1} "
                         "is cut short", source=source, offset=HEADER_SIZE + whole * GAME_SIZE)


def _record(data: bytes, index: int, offset: int, header: WthorHeader,
            players: list[str] | None, tournaments: list[str] | None, source: str) -> GameRecord:
    tournament, black, white, real, theoretical, raw = _GAME.unpack(data)
    moves: list[Move] = []
    problem = None
    for k, byte in enumerate(raw):
        if byte == 0:
            if any(raw[k:]):
                problem = (f"{source}, game {index + 1}, offset {offset + 8 + k}: "
                           f"a move follows the end marker after move {k}")
            break
        move = decode_move(byte)
        if move is None:
            problem = (f"{source}, game {index + 1}, offset {offset + 8 + k}: "
                       f"move {k + 1} byte {byte} is no square")
            break
        moves.append(move)
    return GameRecord(
        moves=moves,
        black=_name(players, black),
        white=_name(players, white),
        event=_name(tournaments, tournament),
        date=str(header.year),
        recorded_score=real,
        metadata={
            "wthor_game": str(index + 1),
            "tournament_id": str(tournament),
            "black_id": str(black),
            "white_id": str(white),
            "theoretical_score": str(theoretical),
            "theoretical_depth": str(header.depth),
        },
        problem=problem,
    )


def _name(names: list[str] | None, number: int) -> str:
    if names is None or not 0 <= number < len(names):
        return ""
    return names[number]


def write_wthor(path: str | os.PathLike[str], records: Iterable[GameRecord], *,
                year: int | None = None, depth: int = 0) -> int:
    """Write an 8×8 archive; returns the number of games.

    Numbers come from ``metadata`` (``tournament_id``, ``black_id``, ``white_id``,
    ``theoretical_score``), 0 when absent; passes are dropped; the real score is
    ``recorded_score``, else the official black count of the replay, else 0.
    """
    body = bytearray()
    count = 0
    first_year = year
    for record in records:
        if record.variant is not Board or record.start is not None:
            raise ValueError("WTHOR holds only 8×8 games from the normal start "
                             f"(under the normal flip rule), not of {record.variant.title}")
        squares = [m for m in record.moves if not m.is_pass]
        if len(squares) > MOVES_PER_GAME:
            raise ValueError(f"a game of {len(squares)} moves does not fit WTHOR's 60")
        score = record.recorded_score
        if score is None:
            outcome = record.outcome()
            score = outcome.black if outcome else 0
        meta = record.metadata
        moves = bytes(encode_move(m) for m in squares).ljust(MOVES_PER_GAME, b"\0")
        body += _GAME.pack(int(meta.get("tournament_id", 0)), int(meta.get("black_id", 0)),
                           int(meta.get("white_id", 0)), score,
                           int(meta.get("theoretical_score", 0)), moves)
        if first_year is None and record.date[:4].isdigit():
            first_year = int(record.date[:4])
        count += 1
    header = WthorHeader(None, count, 0, first_year or 0, 8, False, depth)
    with open(path, "wb") as handle:
        handle.write(header.pack())
        handle.write(body)
    return count
