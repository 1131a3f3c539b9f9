"""Opening names for the standard 8×8 start, one name per position in each language.

A name belongs to a **position**, not to the moves that reach it: a game is named by the
longest of its first moves whose position has a name, whatever the order or the turn of
the board the moves came in. Positions are compared up to the four symmetries of the
start (identity, half turn, the two diagonals), so ``f5f6e6d6c5``, ``f5f6e6f4e3`` and
``f5f4e3f6e6`` are one position, the Cow (牛定石).

>>> name = opening_name("f5d6c3d3c4")
>>> name.en, name.ja
('Tiger', '虎定石')
>>> opening_name("e6f4c3c4d3").en   # the same Tiger, turned
'Tiger'
>>> [opening_name(m).ja for m in ("f5f6e6d6c5", "f5f6e6f4e3", "f5f4e3f6e6")]
['牛定石', '牛定石', '牛定石']
>>> opening_name("f5f4").ja
'並び取り'

**Sources.** The names come from the bundled ``data/openings.csv``: English names from
Chris Welty's list (``weltyc/othello``) and then Egaroucid's English list, Japanese names
from Egaroucid's Japanese list; the 2024 Japanese encyclopedia article (ja.wikipedia's
「オセロ (ボードゲーム)」, its 定石 and 黒番・白番それぞれの戦略 sections) gives the
Japanese names of White's three second moves and of the four main openings
(:data:`ENCYCLOPEDIA`), and its name wins where it gives one. In each language the first
source's name for a position is its name; the others are listed here.

**Where the sources disagree** (positions in f5-first form; each checked by replaying the
moves, ``tests/test_openings.py`` recomputes the list from the data):

* f5f4 (White's parallel second move): 並び取り in the encyclopedia (its diagram
  「並び取り(黒番)」 and the text 「白番の2手目には縦取り、斜め取り、並び取りの3つ」, also
  :mod:`hasamigo.analysis.explain`'s word) against 平行取り in Egaroucid's list. We write
  並び取り. The English lists agree in substance: Parallel (Welty) / Parallel Opening
  (Egaroucid).
* The Cow (牛定石): the encyclopedia's diagram 「牛定石(黒番)」 (black c5 d5 e5 f5 e4,
  white d4 d6 e6 f6) is the position after f5f6e6d6c5, Welty's Cow, which Egaroucid writes
  f5f6e6f4e3 (牛定石, Cow), the same position turned on the diagonal through f6 that keeps
  f5f6e6. Matched by moves, f5f6e6d6c5 used to get only 斜め取り in Japanese; by position
  it is 牛定石. The diagram's caption 「(黒番)」 is on a position with White to move (five
  moves played): we read it as "from Black's side", as for the other three main openings,
  and the seed does not say more.
* The Rabbit (兎定石, f5d6c5f4e3, the encyclopedia's diagram 「兎定石(黒番)」) has no
  English name in either English list, nor has the Mouse (鼠定石, f5f4e3f6d3): we invent
  none, so a game there keeps the English name of the shorter position it passed
  (Fishhook, f5d6c5; Parallel, f5f4).
* The Tiger (虎定石): the encyclopedia's diagram 「虎定石(黒番)」 is f5d6c3d3c4 as in
  every list (also reached by f5d6c4d3c3).
* English, Welty against Egaroucid, same position: Perpendicular / Perpendicular Opening
  (f5d6); Diagonal / Diagonal Opening (f5f6); Parallel / Parallel Opening (f5f4);
  "Aubrey, Tanaka" / Aubrey (f5d6c3d3c4b3); Rose-Bill / Rose-BILL (f5d6c3d3c4f4c5b3c2);
  Comp'Oth / COMP'OTH (f5d6c3d3c4f4f6f3); "Greenberg, Dawg" / Greenberg
  (f5d6c5f4e3c6d3f6e6d7e7); "Rose-birdie, Rose-Tamenori" / Rose-birdie
  (f5d6c5f4e3c6d3f6e6d7g3c4b4); Iago / IAGO (f5d6c5f4e3c6e6f6); "Shaman, Danish" /
  Shaman (f5d6c5f4e3c6f3); "Buffalo, Kenichi Variation" / Buffalo (f5f6e6d6c3);
  "Aircraft, Feldborg" / Aircraft (f5f6e6d6c5e3d3g5d7); "Bat, Cow Bat, Cambridge" /
  Cow Bat (f5f6e6d6c5e3e7); "Melnikov, Bat (Piau Continuation 1)" / Melnikov
  (f5f6e6d6c5e3e7c7d7c6d3); "Heath, Tobidashi, Jumping Out" / Heath (f5f6e6d6e7);
  "Heath-Chimney, Mass-Turning" / Heath-Chimney (f5f6e6d6e7f4); "Snake, Peasant" /
  Snake (f5f6e6d6f7); "Checkerboarding Peasant, Pyramid" / Pyramid
  (f5f6e6d6f7e3d7e7c6c5d3). Welty's name, listed first, is the name.
* Egaroucid's Japanese list also has two names with no moves (うえのん定石, 三本目ローズ):
  they name no position and are left out.
"""

from __future__ import annotations

import csv
import functools
import io
from dataclasses import dataclass
from importlib import resources

from hasamigo.board import Board
from hasamigo.errors import HasamigoError
from hasamigo.move import PASS

#: The 2024 encyclopedia's Japanese names (its diagrams, checked by replaying): White's
#: second moves and the four main openings (四大定石), in f5-first form.
ENCYCLOPEDIA: dict[str, str] = {
    "f5d6": "縦取り",
    "f5f6": "斜め取り",
    "f5f4": "並び取り",
    "f5d6c5f4e3": "兎定石",
    "f5d6c3d3c4": "虎定石",
    "f5f6e6d6c5": "牛定石",
    "f5f4e3f6d3": "鼠定石",
}
#: how many first moves are looked at for a name
LONGEST = 40


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


def position_key(board: Board) -> str:
    """``board``'s position (discs and side to move) the same under the start's four
    symmetries: the least of its four turned board strings."""
    cells, turn = board.to_string().split()
    return f"{min(''.join([cells[i] for i in order]) for order in _ORDERS)} {turn}"


def _order(kind: int) -> tuple[int, ...]:
    """The cell read into each cell of the board turned by symmetry ``kind``."""
    out = [0] * 64
    for r in range(8):
        for c in range(8):
            c2, r2 = _turn(kind, c, r)
            out[r2 * 8 + c2] = r * 8 + c
    return tuple(out)


_ORDERS = tuple(_order(kind) for kind in range(4))


def _moves_of(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _position_after(moves: list[str]) -> Board:
    board = Board()
    for move in moves:
        board.play(move)
    return board


@functools.cache
def _table() -> dict[str, tuple[str | None, str | None]]:
    """Each named position's (English, Japanese) name: the first source's in each
    language, the encyclopedia's Japanese names first of all."""
    text = resources.files("hasamigo").joinpath("data/openings.csv").read_text("utf-8")
    table: dict[str, tuple[str | None, str | None]] = {}
    for moves, name in ENCYCLOPEDIA.items():
        table[position_key(_position_after(_moves_of(moves)))] = (None, name)
    for row in csv.DictReader(io.StringIO(text)):
        moves = row["moves"].strip().lower()
        if not moves:
            continue
        key = position_key(_position_after(_moves_of(moves)))
        en, ja = table.get(key, (None, None))
        if "japanese" in row["source"]:
            ja = ja or row["name"].strip()
        else:
            en = en or row["name"].strip()
        table[key] = (en, ja)
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
    """The opening of a standard-start 8×8 game (passes ignored), ``None`` if unnamed:
    the longest named position among its first :data:`LONGEST` moves; a language its
    name lacks keeps the name of a shorter one (a Cow line with no Japanese name of
    its own is still 牛定石)."""
    if isinstance(transcript, str):
        moves = _moves_of(transcript.strip().lower())
    else:
        moves = [m.lower() for m in transcript if m.lower() != "pass"]
    # a position has one disc more per move played: none past the deepest named one
    # has a name, so a long game is named by its first moves only
    turned = normalise(moves[:min(LONGEST, _deepest())])
    if not turned:
        return None
    walked = _walk(tuple(turned))
    return None if walked is None else walked.best


@functools.cache
def _deepest() -> int:
    """How many moves reach the named position with the most discs."""
    return max(64 - key.split()[0].count("-") for key in _table()) - 4


@dataclass(frozen=True, slots=True)
class _Walked:
    """Where a line of moves (f5-first) led: its position, the names met so far, and
    whether it was legal to its end."""

    board: Board
    en: str | None
    ja: str | None
    best: OpeningName | None
    legal: bool


@functools.lru_cache(maxsize=16384)
def _walk(turned: tuple[str, ...]) -> _Walked | None:
    """The line ``turned`` walked one move further than its prefix (cached: a game
    asked again after each move replays only its new move)."""
    if not turned:
        return _Walked(Board(), None, None, None, True)
    before = _walk(turned[:-1])
    if before is None or not before.legal:
        return before
    board = before.board.copy(stack=False)
    try:
        if board.must_pass():
            board.push(PASS)
        board.play(turned[-1])
    except (HasamigoError, ValueError):
        # not a legal game from here: named as far as it is
        return _Walked(before.board, before.en, before.ja, before.best, False)
    found = _table().get(position_key(board))
    if found is None:
        return _Walked(board, before.en, before.ja, before.best, True)
    en, ja = found[0] or before.en, found[1] or before.ja
    return _Walked(board, en, ja, OpeningName(en, ja, "".join(turned)), True)


__all__ = ["ENCYCLOPEDIA", "OpeningName", "normalise", "opening_name", "position_key"]
