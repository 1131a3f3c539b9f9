"""Game and position formats: transcripts, GGF, WTHOR, OBF, record sheets.

Readers are generators, so big archives stream; each yields :class:`GameRecord` (OBF:
:class:`ObfPosition`). Bad input raises :class:`hasamigo.errors.ParseError` naming the
source and the line/column or byte offset; a game of an archive whose content cannot be
used is yielded with its ``problem`` set instead, so the rest of the archive still reads.

>>> detect_format("games/WTH_1977.wtb"), detect_format("x.GGF"), detect_format("a.txt")
('wthor', 'ggf', 'transcript')
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from hasamigo.errors import InvalidOptionError
from hasamigo.notation._text import read_text
from hasamigo.notation.ggf import format_ggf, parse_ggf, read_ggf, write_ggf
from hasamigo.notation.multi_record import (
    MultiRecord,
    format_multi_record,
    parse_multi_record,
    parse_multi_records,
    read_multi_records,
    write_multi_records,
)
from hasamigo.notation.obf import ObfPosition, format_obf, parse_obf, read_obf, write_obf
from hasamigo.notation.record import GameRecord
from hasamigo.notation.sheet import (
    Sheet,
    SheetCheck,
    check_sheet,
    format_sheet,
    load_sheet,
    read_sheet,
    sheet_html,
    sheet_of_moves,
)
from hasamigo.notation.transcript import (
    format_transcripts,
    parse_transcript,
    read_transcripts,
    write_transcript,
    write_transcripts,
)
from hasamigo.notation.wthor import parse_wthor, read_wthor, write_wthor

FORMATS: dict[str, str] = {
    ".wtb": "wthor",
    ".ggf": "ggf",
    ".txt": "transcript",
    ".tra": "transcript",
    ".transcript": "transcript",
    ".obf": "obf",
}


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of ``path`` by its extension (case-insensitive): ``wthor``, ``ggf``,
    ``transcript`` or ``obf``; :class:`~hasamigo.errors.InvalidOptionError` (a ValueError)
    naming the supported ones otherwise."""
    suffix = Path(path).suffix.lower()
    try:
        return FORMATS[suffix]
    except KeyError:
        known = ", ".join(FORMATS)
        what = f"extension {suffix!r}" if suffix else "no extension"
        raise InvalidOptionError(f"{os.fspath(path)}: {what} is not a known format; "
                                 f"supported: {known}") from None


def read_games(path: str | os.PathLike[str]) -> Iterator[GameRecord]:
    """The games of a ``.wtb``, ``.ggf`` or transcript file (one game per line), streamed.

    A file that cannot be read as its format raises :class:`~hasamigo.errors.ParseError`
    naming it and the place (line and column, or byte offset); see each reader.
    """
    kind = detect_format(path)
    if kind == "wthor":
        return read_wthor(path)
    if kind == "ggf":
        return read_ggf(path)
    if kind == "transcript":
        return read_transcripts(path)
    raise InvalidOptionError(f"{os.fspath(path)}: OBF files hold positions, not games; "
                             "use read_obf")


#: each game format's writer, by :data:`FORMATS`' names (OBF holds positions:
#: :func:`write_obf`)
GAME_WRITERS: dict[str, Callable[[str | os.PathLike[str], Iterable[GameRecord]], object]] = {
    "ggf": write_ggf,
    "wthor": write_wthor,
    "transcript": write_transcripts,
}


def write_games(path: str | os.PathLike[str], records: Iterable[GameRecord]) -> None:
    """Write games in the format of the extension: ``.ggf``, ``.wtb`` or a transcript file."""
    kind = detect_format(path)
    writer = GAME_WRITERS.get(kind)
    if writer is None:
        raise InvalidOptionError(f"{os.fspath(path)}: OBF files hold positions, not games; "
                                 "use write_obf")
    writer(path, records)


__all__ = [
    "FORMATS",
    "GAME_WRITERS",
    "GameRecord",
    "MultiRecord",
    "ObfPosition",
    "Sheet",
    "SheetCheck",
    "check_sheet",
    "detect_format",
    "format_ggf",
    "format_multi_record",
    "format_obf",
    "format_sheet",
    "format_transcripts",
    "load_sheet",
    "parse_ggf",
    "parse_multi_record",
    "parse_multi_records",
    "parse_obf",
    "parse_transcript",
    "parse_wthor",
    "read_games",
    "read_ggf",
    "read_multi_records",
    "read_obf",
    "read_sheet",
    "read_text",
    "read_transcripts",
    "read_wthor",
    "sheet_html",
    "sheet_of_moves",
    "write_games",
    "write_ggf",
    "write_multi_records",
    "write_obf",
    "write_transcript",
    "write_transcripts",
    "write_wthor",
]
