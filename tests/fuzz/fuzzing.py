"""Shared pieces of the parser fuzz tests: the real files, a mutation strategy, the checks.

Inputs are the copies of the reference files in ``tests/data`` (the same inputs with or
without ``../shared`` beside the checkout) mutated by byte flips, truncations, insertions,
deleted and duplicated chunks and planted tokens (non-UTF-8 bytes, odd digits, brackets,
5,000-digit numbers). Only the project's errors may escape a parser; one from a file reader
names the file and a place, and no message echoes a huge input.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from hasamigo import Board, find_variant
from hasamigo.errors import ParseError
from hasamigo.notation import read_ggf, read_wthor, write_transcript
from hasamigo.notation.wthor import GAME_SIZE, HEADER_SIZE
from hasamigo.variants import VARIANTS

LOCAL = Path(__file__).resolve().parents[1] / "data"

#: Hypothesis settings of every fuzz test: reproducible, no deadline (the first call of a
#: kernel compiles it), no example database (CI sees the same inputs as a laptop).
FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: The longest error message accepted: a file name, a place, a reason, a short quote.
MAX_MESSAGE = 600

def data_file(relative: str) -> Path:
    """A reference file's copy in ``tests/data``."""
    return LOCAL / relative


# ---- the real inputs ------------------------------------------------------------------
def ggf_files() -> list[bytes]:
    return [data_file(f"ggf/{name}").read_bytes() for name in ("nboard-test.ggf",
                                                                "nboard-test2.ggf")]


def obf_files() -> list[bytes]:
    """The FFO suites, cut to their first six positions each (errors are per line)."""
    out = []
    for name in ("fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"):
        lines = data_file(f"ffo/{name}").read_bytes().splitlines(keepends=True)
        out.append(b"".join(lines[:6]))
    return out


def obf_lines() -> list[str]:
    return [line for data in obf_files() for line in data.decode().splitlines()]


def board_strings() -> list[str]:
    """Board strings of the FFO positions and of every variant's start."""
    out = [" ".join(line.split()[:2]).rstrip(";") for line in obf_lines()]
    out += [variant().to_string() for variant in VARIANTS]
    return out


def transcript_file() -> bytes:
    """Transcript lines: XOT openings, the WTHOR and GGF games, a 4×4 game after its
    ``# variant`` line, a comment and a blank line."""
    xot = data_file("xot-sample.txt").read_text().splitlines()[:8]
    lines = ["# openings (XOT)", *xot, ""]
    games = list(read_wthor(data_file("wthor/WTH_1977.wtb"), players=[], tournaments=[]))[:3]
    games += read_ggf(data_file("ggf/nboard-test.ggf"))
    games += [r for r in read_ggf(data_file("ggf/nboard-test2.ggf")) if r.start is None]
    current: type[Board] = Board
    for record in games:
        if record.variant is not current:
            current = record.variant
            lines.append(f"# variant: {current.name}")
        lines.append(write_transcript(record.moves, record.variant))
    return ("\n".join(lines) + "\n").encode()


def transcripts() -> list[str]:
    return [line for line in transcript_file().decode().splitlines()
            if line and not line.startswith("#")]


def wthor_file(games: int = 3) -> bytes:
    """The first ``games`` games of the 1977 archive, the header's count set to match."""
    data = bytearray(data_file("wthor/WTH_1977.wtb").read_bytes()[: HEADER_SIZE
                                                                 + games * GAME_SIZE])
    struct.pack_into("<I", data, 4, games)
    return bytes(data)


def names_file(name: str, record_size: int, names: int = 6) -> bytes:
    """The header and first ``names`` names of ``WTHOR.JOU`` / ``WTHOR.TRN``, the count set
    to match."""
    data = bytearray(data_file(f"wthor/{name}").read_bytes()[: HEADER_SIZE
                                                            + names * record_size])
    struct.pack_into("<H", data, 8, names)
    return bytes(data)


def square_names() -> list[str]:
    """Every square name of every variant, a few passes and lenient forms."""
    names = {variant.square_name(sq) for variant in VARIANTS for sq in range(64)
             if variant.playable() >> sq & 1}
    return [*sorted(names), "pass", "PA", "--", "@@", " F5 ", "a01", "black:f5", "w:d3"]


# ---- mutations ------------------------------------------------------------------------
#: Planted tokens: bytes that are not UTF-8 (a lone continuation byte, a cut character,
#: an encoded surrogate, a code point above U+10FFFF), digits that are not ASCII, the
#: formats' own punctuation, numbers that overflow, a BOM.
TOKENS: list[bytes] = [
    b"\xff", b"\x80", b"\xc3", b"\xe3\x81", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
    b"\x00", b"\r", b"\n", b"\r\n", b"\t", b" ", b"\xef\xbb\xbf",
    "²".encode(), "٣".encode(), "é".encode(), "İ".encode(), "\u212a".encode(), "\u3000".encode(),
    b"[", b"]", b"\\", b"(;", b";)", b";", b":", b"%", b"#", b"/", b"*", b"-", b"X", b"O",
    b"pass", b"PA", b"inf", b"nan", b"-inf", b"1e999", b"+99", b"-0", b"9" * 5000,
    b"B[", b"W[", b"TY[", b"BO[8 ", b"KM[", b"RE[", b"# variant: ", b"a9", b"i1", b"h8",
]
#: Interesting byte values for binary files: WTHOR move bytes at and past the board's edge,
#: counts that overflow.
BYTES = [0, 1, 8, 9, 10, 11, 18, 19, 60, 64, 65, 88, 89, 90, 99, 100, 127, 128, 254, 255]

#: Values planted into a format's fields (GGF tags, OBF answers): numbers Python's
#: float() or int() would choke on or misread, non-ASCII digits, the formats' own words.
VALUES: list[str] = [
    "inf", "-inf", "nan", "1e999", "9" * 5000, "-" + "9" * 5000, "+0.000", "-22.87", "+99",
    "-0", "0x10", "1_0", "８", "²", "٣", "8", "8kr20", "6", "4", "10", "a²", "a٣", "a" + "1" * 5000,
    "pass", "PA", "--", "", " ", "\\", "8 " + "-" * 64 + " *", "4 ---- -O*- -*O- ---- *",
]


def field_values() -> st.SearchStrategy[str]:
    """A value for one field of a record: a planted value or any short text."""
    return st.sampled_from(VALUES) | st.text(max_size=12)


Mutation = Callable[[bytearray, st.DataObject], None]


def _position(data: bytearray, draw: st.DataObject, *, inside: bool = False) -> int:
    if inside:
        return draw.draw(st.integers(0, max(len(data) - 1, 0)))
    return draw.draw(st.integers(0, len(data)))


def _flip(data: bytearray, draw: st.DataObject) -> None:
    if data:
        data[_position(data, draw, inside=True)] ^= draw.draw(st.integers(1, 255))


def _set_byte(data: bytearray, draw: st.DataObject) -> None:
    if data:
        data[_position(data, draw, inside=True)] = draw.draw(st.sampled_from(BYTES))


def _set_word(data: bytearray, draw: st.DataObject) -> None:
    if len(data) >= 4:
        at = draw.draw(st.integers(0, len(data) - 4))
        data[at:at + 4] = draw.draw(st.sampled_from([b"\xff\xff\xff\xff", b"\0\0\0\0",
                                                     b"\xff\xff\0\0", b"\x10\0\0\0"]))


def _truncate(data: bytearray, draw: st.DataObject) -> None:
    del data[_position(data, draw):]


def _insert(data: bytearray, draw: st.DataObject) -> None:
    at = _position(data, draw)
    data[at:at] = draw.draw(st.binary(min_size=1, max_size=8))


def _plant(data: bytearray, draw: st.DataObject) -> None:
    at = _position(data, draw)
    data[at:at] = draw.draw(st.sampled_from(TOKENS))


def _delete(data: bytearray, draw: st.DataObject) -> None:
    at = _position(data, draw)
    del data[at:at + draw.draw(st.integers(1, 80))]


def _duplicate(data: bytearray, draw: st.DataObject) -> None:
    at = _position(data, draw)
    chunk = data[at:at + draw.draw(st.integers(1, 200))]
    to = _position(data, draw)
    data[to:to] = chunk


def _replace_field(data: bytearray, draw: st.DataObject) -> None:
    """A field's value replaced by a token: after a ``[`` (GGF), a ``:`` (OBF scores) or a
    ``;``, up to the next delimiter."""
    starts = [i + 1 for i, byte in enumerate(data) if byte in b"[:;"]
    if not starts:
        return
    at = draw.draw(st.sampled_from(starts))
    end = at
    while end < len(data) and data[end] not in b"];/\n":
        end += 1
    data[at:end] = draw.draw(st.sampled_from(TOKENS))


MUTATIONS: list[Mutation] = [_flip, _set_byte, _set_word, _truncate, _insert, _plant,
                             _delete, _duplicate, _replace_field]


def mutate(data: bytes, draw: st.DataObject, max_mutations: int = 4) -> bytes:
    """``data`` after 1..``max_mutations`` mutations drawn by hypothesis."""
    out = bytearray(data)
    for _ in range(draw.draw(st.integers(1, max_mutations))):
        draw.draw(st.sampled_from(MUTATIONS))(out, draw)
    return bytes(out)


def mutated_text(seeds: list[str], draw: st.DataObject) -> str:
    """A seed string mutated as bytes, then decoded (bad bytes become U+FFFD or, half the
    time, the surrogates of ``surrogateescape``: text no UTF-8 file could hold)."""
    data = mutate(draw.draw(st.sampled_from(seeds)).encode(), draw)
    errors = draw.draw(st.sampled_from(["replace", "surrogateescape"]))
    return data.decode("utf-8", errors)


# ---- the checks -----------------------------------------------------------------------
def check_message(exc: BaseException) -> None:
    """The message is short: a huge input is never echoed back."""
    text = str(exc)
    assert len(text) <= MAX_MESSAGE, f"{len(text)} characters: {text[:300]!r}…"


def check_file_error(exc: ParseError, path: Path) -> None:
    """A reader's ParseError names the file and a place (line or byte offset)."""
    check_message(exc)
    assert exc.source == str(path), str(exc)
    assert exc.line is not None or exc.offset is not None, str(exc)
    assert str(path) in str(exc)


def check_problem(problem: str | None, path: Path) -> None:
    """A record's ``problem`` (a game that could not be read) names the file."""
    if problem is not None:
        assert str(path) in problem, problem
        assert len(problem) <= MAX_MESSAGE, problem[:300]


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def variants() -> st.SearchStrategy[type[Board]]:
    return st.sampled_from([find_variant(v.name) for v in VARIANTS])
