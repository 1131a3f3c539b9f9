"""Reading text files for the readers: UTF-8 or a :class:`ParseError` naming the byte.

Every text format (transcripts, GGF, OBF) is read as UTF-8 with universal newlines; a
UTF-8 byte-order mark at the start is skipped. A byte sequence that is not UTF-8 is
refused (not replaced: a name or a move silently changed is worse than an error) with
the file, the line and the byte offset (from the start of the file) of the first bad byte.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator

from hasamigo.errors import ParseError

_CHUNK = 1 << 16


def text_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a UTF-8 text file (with their ends, as ``open`` gives them), streamed."""
    with open(path, encoding="utf-8-sig") as handle:
        try:
            yield from handle
        except UnicodeDecodeError:
            raise decode_error(path) from None


def read_text(path: str | os.PathLike[str]) -> str:
    """A whole UTF-8 text file (a byte order mark dropped); a byte that is not UTF-8 is a
    :class:`ParseError` naming the file, line and offset."""
    return "".join(text_lines(path))


def decode_error(path: str | os.PathLike[str]) -> ParseError:
    """The :class:`ParseError` for the first byte of ``path`` that is not UTF-8."""
    name = os.fspath(path)
    decoder = codecs.getincrementaldecoder("utf-8")()
    done = 0  # bytes of the file read before ``chunk``
    line = 1
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(_CHUNK)
            pending = len(decoder.getstate()[0])  # an unfinished character (never a newline)
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:  # exc.object is the pending bytes + chunk
                offset = done - pending + exc.start
                line += chunk[: max(0, offset - done)].count(b"\n")
                return ParseError(
                    f"byte 0x{exc.object[exc.start]:02x} is not UTF-8 ({exc.reason}); "
                    "text files are read as UTF-8",
                    source=name, line=line, offset=offset)
            if not chunk:
                return ParseError("the file is not UTF-8 text", source=name)  # changed meanwhile
            line += chunk.count(b"\n")
            done += len(chunk)
