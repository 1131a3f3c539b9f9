"""Opening names for the standard 8×8 start, from the bundled ``data/openings.csv``.

Transcripts are matched after turning the game so that Black's first move is f5 (the four
symmetries of the start position), and the longest named prefix wins. English names come
from the English lists, Japanese names from Egaroucid's Japanese list.

>>> name = opening_name("f5d6c3d3c4")
>>> name.en, name.ja
('Tiger', '虎定石')
>>> opening_name("e6f4c3c4d3").en   # the same Tiger, turned
'Tiger'
"""

from __future__ import annotations

import csv
import functools
import io
from dataclasses import dataclass
from importlib import resources


def _turn(kind: int, c: int, r: int) -> tuple[int, int]:
    """The four symmetries of the start position: identity, half turn, two diagonals."""
    if kind == 0:
        return c, r
    if kind == 1:
        return 7 - c, 7 - r
    if kind == 2:
        return r, c
    return 7 - r, 7 - c


@dataclass(frozen=True, slots=True)
class OpeningName:
    """The longest named opening the game began with; ``moves`` in f5-first form."""

    en: str | None
    ja: str | None
    moves: str


@functools.cache
def _table() -> dict[str, tuple[str | None, str | None]]:
    text = resources.files("hasamigo").joinpath("data/openings.csv").read_text("utf-8")
    table: dict[str, tuple[str | None, str | None]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        moves = row["moves"].strip().lower()
        if not moves:
            continue
        en, ja = table.get(moves, (None, None))
        if "japanese" in row["source"]:
            ja = ja or row["name"].strip()
        else:
            en = en or row["name"].strip()
        table[moves] = (en, ja)
    return table


def normalise(moves: list[str]) -> list[str] | None:
    """The moves (8×8 names) turned by the start's symmetry that makes the first one f5
    (``None`` if the first is not a first move of the start)."""
    if not moves:
        return []
    c0, r0 = "abcdefgh".index(moves[0][0]), int(moves[0][1:]) - 1
    for kind in range(4):
        if _turn(kind, c0, r0) == (5, 4):
            out = []
            for m in moves:
                c, r = _turn(kind, "abcdefgh".index(m[0]), int(m[1:]) - 1)
                out.append(f"{'abcdefgh'[c]}{r + 1}")
            return out
    return None


def opening_name(transcript: str | list[str]) -> OpeningName | None:
    """The opening of a standard-start 8×8 game (passes ignored), ``None`` if unnamed."""
    if isinstance(transcript, str):
        text = transcript.strip().lower()
        moves = [text[i:i + 2] for i in range(0, len(text), 2)]
    else:
        moves = [m.lower() for m in transcript if m.lower() != "pass"]
    turned = normalise(moves[:40])
    if not turned:
        return None
    table = _table()
    best: OpeningName | None = None
    en = ja = None
    for n in range(1, len(turned) + 1):
        key = "".join(turned[:n])
        if key in table:
            new_en, new_ja = table[key]
            en, ja = new_en or en, new_ja or ja
            best = OpeningName(en, ja, key)
    return best
