"""Importing a game into the library: one game of a transcript, a GGF text or a WTHOR
archive becomes a stored game (:mod:`hasamigo.game.imported`) owned by the importing
browser, so that it is replayed, downloaded and reviewed like any other.

Every refusal is a :class:`~hasamigo.errors.ParseError` (400 ``parse_error``) naming the
place: the line and column of a transcript or GGF text, the game number and byte offset
of a WTHOR archive, and the move that fails (``move 23 (c7): flips nothing``). The text
is read before anything is stored, and the game is stored in one transaction: a refused
import leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import itertools

from hasamigo.errors import IllegalMoveError, ParseError
from hasamigo.game.imported import game_of_record, record_scoring
from hasamigo.game.result import Scoring
from hasamigo.notation import parse_transcript, parse_wthor
from hasamigo.notation.ggf import iter_games, record_from_properties
from hasamigo.notation.record import GameRecord, play_move
from hasamigo.notation.wthor import (
    GAME_SIZE,
    HEADER_SIZE,
    PLAYER_NAME_SIZE,
    parse_header,
    parse_names,
)
from hasamigo.web.schemas_import import ImportRequest
from hasamigo.web.services.games import Created, GameService

#: where a transcript is read from and how the other sources are named in messages
SOURCES = {"transcript": "transcript", "ggf": "GGF", "wthor": "WTHOR"}
#: bytes before a WTHOR game's first move byte (three numbers of 2 bytes, two scores)
_WTHOR_MOVES_AT = 8


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a 0-based character offset of ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def transcript_record(text: str) -> GameRecord:
    """The one game of a transcript (newlines are separators like spaces)."""
    source = SOURCES["transcript"]
    try:
        moves = parse_transcript(text, source=None)
    except ParseError as exc:
        if exc.offset is None:
            raise ParseError(exc.detail, source=source) from exc
        line, column = _line_column(text, exc.offset)
        raise ParseError(exc.detail, source=source, line=line, column=column) from exc
    return GameRecord(moves=moves)


def ggf_record(text: str, index: int) -> GameRecord:
    """Game ``index`` (from 1) of a GGF text; the games before it are only scanned."""
    source = SOURCES["ggf"]
    count = 0
    for count, (_line, props) in enumerate(iter_games(text.splitlines(), source=source), 1):
        if count == index:
            try:
                return record_from_properties(props, source=source, validate=True)
            except ParseError as exc:
                raise ParseError(f"game {index}: {exc.detail}", source=source,
                                 line=exc.line, column=exc.column) from exc
    raise ParseError(f"there is no game {index}: the text holds {_games(count)}",
                     source=source)


def _bytes(data: str, what: str) -> bytes:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ParseError(f"the {what} is not base64 ({exc})", source=SOURCES["wthor"]) from exc


def wthor_record(data: str, index: int, players: str | None = None
                 ) -> tuple[GameRecord, tuple[str, str]]:
    """Game ``index`` (from 1) of a base64 WTHOR archive, checked move by move, and names
    for its players when ``players`` (``WTHOR.JOU``, base64) does not give theirs (an
    archive holds only their numbers)."""
    source = SOURCES["wthor"]
    raw = _bytes(data, "archive")
    names = None if players is None else parse_names(
        _bytes(players, "players' file"), PLAYER_NAME_SIZE, source="WTHOR.JOU")
    games = parse_wthor(raw, source=source, players=names)
    record = next(itertools.islice(games, index - 1, None), None)
    if record is None:
        total = parse_header(raw, source=source).games  # read (and checked) already
        raise ParseError(f"there is no game {index}: the archive holds {_games(total)}",
                         source=source)
    if record.problem is not None:
        raise ParseError(record.problem)
    board = record.board()
    at = HEADER_SIZE + (index - 1) * GAME_SIZE + _WTHOR_MOVES_AT
    for number, move in enumerate(record.moves, 1):
        try:
            play_move(board, move, number)
        except IllegalMoveError as exc:
            raise ParseError(f"game {index}: {exc}", source=source,
                             offset=at + number - 1) from exc
    meta = record.metadata
    return record, (f"WTHOR #{meta.get('black_id', '?')}", f"WTHOR #{meta.get('white_id', '?')}")


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def read_import(req: ImportRequest) -> tuple[GameRecord, tuple[str, str] | None]:
    """The record the request names, with names for its players when the file has none.
    Raises :class:`ParseError` saying what is wrong and where."""
    names: tuple[str, str] | None = None
    if req.format == "wthor":
        assert req.data is not None  # the schema requires it
        record, names = wthor_record(req.data, req.index, req.players)
    elif req.format == "ggf":
        assert req.text is not None
        record = ggf_record(req.text, req.index)
    else:
        assert req.text is not None
        record = transcript_record(req.text)
    if not [m for m in record.moves if not m.is_pass]:
        where = "" if req.format == "transcript" else f"game {req.index}: "
        raise ParseError(f"{where}the game has no move", source=SOURCES[req.format])
    if record.black or record.white:
        names = None
    return record, names


async def import_game(games: GameService, req: ImportRequest, *, client: str | None,
                      address: str) -> Created:
    """Read the request's game and store it as this browser's (see the module docstring)."""
    games.limit_new_games(address)
    record, names = await asyncio.to_thread(read_import, req)
    scoring = Scoring.from_code(req.scoring) if req.scoring is not None \
        else record_scoring(record, jof_event=req.jof_event)
    game = game_of_record(record, at=games.wall(), names=names, scoring=scoring)
    return await games.adopt(game, client=client, public=req.public)


__all__ = ["ggf_record", "import_game", "read_import", "transcript_record", "wthor_record"]
