"""Explanations in the words players use, each measured on the board, never guessed.

A :class:`Note` names a rule of thumb (:data:`RULES`, English and Japanese as players
use them, after ja.wikipedia "オセロ (ボードゲーム)", 戦術), says what was measured in both
languages and lists the squares it is about. :func:`position_notes` describes a position,
:func:`move_notes` a move played on it. The definitions, as measured here:

* **stable discs** (確定石): :meth:`Board.stable_discs`, discs no sequence of moves can
  flip (a safe subset: a disc listed is always stable);
* **X-square / C-square** (X, C): the diagonal / orthogonal neighbours of a corner, noted
  only while that corner is empty; corners are the shape's (squares no line can flip
  through, as the engine's evaluation finds them: none on the circular Nip board);
* **mobility** (着手可能数): the legal moves of each side; **potential mobility**: the empty
  squares next to the other side's discs;
* **openness** (開放度) of a move: the empty squares next to the discs it flips, after it;
  a move of openness 0 is a **quiet move** (中割り: it flips only discs already surrounded);
  a **single-disc flip** (一石返し) flips exactly one disc;
* **regions** (偶数理論): the empty squares split into groups of mutually adjacent empties
  (the eight neighbours); from :data:`PARITY_EMPTIES` empties on, the notes give each
  region's size and whether it is odd: with no passes, the side that moves into an odd
  region can also play its last square, so a player aims to leave even regions;
* **tempo** (手止まり): a move into a region of one square (no empty neighbour left), and
  in a position, the empty squares only one side can play;
* **opening** (定石): the longest named opening the game began with
  (:mod:`hasamigo.game.openings`), its family among the four main ones (兎 Rabbit and
  虎 Tiger after 縦取り, 牛 Cow after 斜め取り, 鼠 Mouse after 並び取り, as ja.wikipedia
  pairs them) and White's second move: perpendicular 縦取り, diagonal 斜め取り or
  parallel 並び取り.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hasamigo.board import Board
from hasamigo.engine.rules_search import shape
from hasamigo.game.openings import ENCYCLOPEDIA, normalise, opening_name
from hasamigo.move import BLACK, Color, Move
from hasamigo.squares import Bitboard, bits

#: rule of thumb: (English, Japanese)
RULES: dict[str, tuple[str, str]] = {
    "stable": ("Stable discs can never be flipped: the more, the better", "確定石"),
    "corner": ("A corner disc can never be flipped", "隅"),
    "x_square": ("An X-square beside an empty corner offers the corner", "X打ち"),
    "c_square": ("A C-square beside an empty corner can give the corner away", "C打ち"),
    "mobility": ("Keep your own moves and take away your opponent's", "着手可能数"),
    "potential_mobility": ("Discs next to empty squares give the other side moves",
                           "潜在的着手可能数"),
    "openness": ("Flip discs away from the empty squares (low openness)", "開放度"),
    "quiet": ("A quiet move inside flips only surrounded discs", "中割り"),
    "single_flip": ("A single-disc flip does not take too many discs", "一石返し"),
    "parity": ("Parity: leave even regions, so that you play last in each", "偶数理論"),
    "tempo": ("Tempo: a square no one else can answer near is a free move", "手止まり"),
    "opening": ("Opening", "定石"),
    "second_move": ("White's second move chooses the family of openings", "2手目"),
}
#: regions and tempo are noted from this many empties on
PARITY_EMPTIES = 16
#: White's second moves after f5 (in f5-first form) and the openings each leads to
#: (their Japanese names are the openings' own: :data:`hasamigo.game.openings.ENCYCLOPEDIA`)
SECOND_MOVES = {"d6": ("perpendicular", ENCYCLOPEDIA["f5d6"], "Rabbit 兎 or Tiger 虎"),
                "f6": ("diagonal", ENCYCLOPEDIA["f5f6"], "Cow 牛"),
                "f4": ("parallel", ENCYCLOPEDIA["f5f4"], "Mouse 鼠")}
#: the four main openings' families by their first moves (f5-first form)
FAMILIES = (("f5d6c5", "Rabbit", "兎"), ("f5d6c3", "Tiger", "虎"), ("f5f6", "Cow", "牛"),
            ("f5f4", "Mouse", "鼠"))


@dataclass(frozen=True, slots=True)
class Note:
    """One measured fact and the rule of thumb it bears on."""

    kind: str  # a key of RULES
    en: str
    ja: str
    squares: tuple[str, ...] = ()
    values: dict[str, Any] = field(default_factory=dict)

    @property
    def rule(self) -> str:
        return RULES[self.kind][0]

    @property
    def rule_ja(self) -> str:
        return RULES[self.kind][1]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule": self.rule, "rule_ja": self.rule_ja,
                "text": self.en, "text_ja": self.ja, "squares": list(self.squares),
                "values": dict(self.values)}


# ---- geometry ----------------------------------------------------------------------------
def neighbours(board: Board, sq: int) -> Bitboard:
    """The playable squares next to ``sq`` (the eight directions)."""
    out = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            near = board.step(sq, dr, dc) if dr or dc else None
            if near is not None:
                out |= 1 << near
    return out & board.playable()


def _around(board: Board, mask: Bitboard) -> Bitboard:
    out = 0
    for sq in bits(mask):
        out |= neighbours(board, sq)
    return out


def regions(board: Board) -> list[Bitboard]:
    """The empty squares in groups of mutually adjacent empties, largest first (then by
    their first square)."""
    left, out = board.empties, []
    while left:
        seed = left & -left
        region, frontier = seed, seed
        while frontier:
            grown = _around(board, frontier) & left & ~region
            region |= grown
            frontier = grown
        out.append(region)
        left &= ~region
    return sorted(out, key=lambda m: (-m.bit_count(), m & -m))


def _names(board: Board, mask: Bitboard) -> tuple[str, ...]:
    return tuple(board.square_name(sq) for sq in bits(mask))


def _colour(colour: Color) -> tuple[str, str]:
    return ("Black", "黒") if colour is BLACK else ("White", "白")


def corner_squares(board: Board) -> dict[int, tuple[Bitboard, Bitboard]]:
    """Each corner of the board's shape (a square no line can flip through:
    :func:`hasamigo.engine.rules_search.shape`, so the octagon's c1 … h6 and none on the
    circle) with its X-squares and C-squares."""
    s = shape(type(board))
    return {corner: (sum(1 << sq for sq, c in s.x_of.items() if c == corner),
                     sum(1 << sq for sq, c in s.c_of.items() if c == corner))
            for corner in s.corners}


# ---- the position --------------------------------------------------------------------------
def position_notes(board: Board) -> list[Note]:
    """What a player would look at first in ``board``: stable discs, mobility, potential
    mobility, near the end the regions and the tempo squares, and the opening."""
    notes = []
    for colour in (BLACK, BLACK.other):
        stable = board.stable_discs(colour)
        if stable:
            en, ja = _colour(colour)
            count = stable.bit_count()
            notes.append(Note("stable", f"{en} has {count} stable disc{'s' * (count != 1)}.",
                              f"{ja}の確定石は{count}個。", _names(board, stable),
                              {"colour": str(colour), "count": count}))
    me, other = board.turn, board.turn.other
    mine, theirs = board.moves_mask(me), board.moves_mask(other)
    en_me, ja_me = _colour(me)
    en_other, ja_other = _colour(other)
    notes.append(Note(
        "mobility", f"{en_me}, to move, has {mine.bit_count()} moves; {en_other} would have "
        f"{theirs.bit_count()}.",
        f"手番の{ja_me}の着手可能数は{mine.bit_count()}、{ja_other}は{theirs.bit_count()}。",
        _names(board, mine), {"to_move": mine.bit_count(), "other": theirs.bit_count()}))
    potential = {c: (_around(board, board.discs(c.other)) & board.empties).bit_count()
                 for c in (me, other)}
    notes.append(Note(
        "potential_mobility",
        f"Empty squares next to {en_other}'s discs (potential moves for {en_me}): "
        f"{potential[me]}; next to {en_me}'s: {potential[other]}.",
        f"{ja_other}の石に接する空きマス({ja_me}の潜在的着手可能数)は{potential[me]}、"
        f"{ja_me}の石に接する空きマスは{potential[other]}。",
        (), {"to_move": potential[me], "other": potential[other]}))
    empties = board.empties.bit_count()
    if 0 < empties <= PARITY_EMPTIES:
        notes.extend(_parity_notes(board))
    notes.extend(opening_notes(board))
    return notes


def _parity_notes(board: Board) -> list[Note]:
    groups = regions(board)
    sizes = [g.bit_count() for g in groups]
    odd = [g for g in groups if g.bit_count() % 2]
    empties = sum(sizes)
    en_me, ja_me = _colour(board.turn)
    listing = ", ".join(f"{board.square_name((g & -g).bit_length() - 1)}… {g.bit_count()}"
                        for g in groups)
    notes = [Note(
        "parity",
        f"{empties} empties in {len(groups)} region{'s' * (len(groups) != 1)} ({listing}); "
        f"{len(odd)} odd. With no passes, {en_me}, to move, "
        f"{'plays' if empties % 2 else 'does not play'} the last move.",
        f"空きマス{empties}、{len(groups)}か所(奇数は{len(odd)}か所)。パスがなければ最終手は"
        f"{ja_me if empties % 2 else '相手'}。",
        _names(board, sum(odd)), {"regions": sizes, "odd": len(odd), "empties": empties})]
    only = {c: board.moves_mask(c) & ~board.moves_mask(c.other) for c in (BLACK, BLACK.other)}
    for colour, mask in only.items():
        if mask:
            en, ja = _colour(colour)
            notes.append(Note(
                "tempo", f"Only {en} can play {', '.join(_names(board, mask))}: "
                f"squares {en} may keep for a free move later.",
                f"{'、'.join(_names(board, mask))}は{ja}しか打てない(手止まりの候補)。",
                _names(board, mask), {"colour": str(colour)}))
    return notes


def _f5_form(board: Board) -> list[str] | None:
    """The game's moves (passes left out) if it is a standard 8×8 game from the start."""
    if type(board) is not Board or board.start != "cross" or board.handicap:
        return None
    root = board.root()
    if root != Board():
        return None
    return [board.move_name(m) for m in board.move_stack if not m.is_pass]


def opening_notes(board: Board) -> list[Note]:
    moves = _f5_form(board)
    if not moves:
        return []
    notes = []
    name = opening_name(moves)
    if name is not None:
        label = " / ".join(x for x in (name.en, name.ja) if x)
        notes.append(Note("opening", f"Opening: {label} ({name.moves}).",
                          f"定石: {name.ja or name.en}({name.moves})。", (),
                          {"en": name.en, "ja": name.ja, "moves": name.moves}))
    turned = normalise(moves)
    if turned is not None and len(turned) >= 2 and turned[1] in SECOND_MOVES:
        en, ja, leads = SECOND_MOVES[turned[1]]
        family = next(((f_en, f_ja) for prefix, f_en, f_ja in FAMILIES
                       if "".join(turned).startswith(prefix)), None)
        family_en = f"; the game is in the {family[0]} ({family[1]}) family" if family else ""
        family_ja = f"。{family[1]}系" if family else ""
        notes.append(Note("second_move",
                          f"White's second move {moves[1]} is the {en} one ({ja}), "
                          f"aiming at the {leads} openings{family_en}.",
                          f"白の2手目{moves[1]}は{ja}{family_ja}。", (moves[1],),
                          {"type": en, "family": family[0] if family else None}))
    return notes


# ---- a move ---------------------------------------------------------------------------------
def move_notes(board: Board, move: Move | str) -> list[Note]:
    """What ``move`` (legal on ``board``) does, in the vocabulary of the rules of thumb;
    ``board`` is left as it was."""
    move = board.parse_move(move) if isinstance(move, str) else move
    if not board.is_legal(move):
        board.copy().push(move)  # raises IllegalMoveError saying why
    if move.square is None:
        return []
    me = board.turn
    en, ja = _colour(me)
    other_en, other_ja = _colour(me.other)
    sq = move.square
    name = board.square_name(sq)
    flipped = board.flips(move)
    after = board.copy()
    after.push(move)
    notes: list[Note] = []
    for corner, (x, c) in corner_squares(board).items():
        corner_name = board.square_name(corner)
        if sq == corner:
            notes.append(Note("corner", f"{name} takes a corner.", f"{name}は隅を取る手。",
                              (name,)))
        elif board.empties >> corner & 1 and (x | c) >> sq & 1:
            kind, article = ("x_square", "an X") if x >> sq & 1 else ("c_square", "a C")
            letter = article[-1]
            notes.append(Note(kind, f"{name} is {article}-square beside the empty corner "
                              f"{corner_name}.", f"{name}は空き隅{corner_name}の隣の{letter}。",
                              (name, corner_name),
                              {"corner_open_to_opponent": bool(
                                  after.moves_mask(me.other) >> corner & 1)}))
    count = flipped.bit_count()
    if count == 1:
        notes.append(Note("single_flip", f"{name} flips a single disc "
                          f"({board.square_name(flipped.bit_length() - 1)}).",
                          f"{name}は一石返し。", _names(board, flipped)))
    open_squares = _around(after, flipped) & after.empties
    openness = open_squares.bit_count()
    notes.append(Note("openness", f"{name} flips {count} disc{'s' * (count != 1)}; "
                      f"openness {openness} (empty squares next to them).",
                      f"{name}は{count}石返し、開放度{openness}。", _names(board, open_squares),
                      {"flipped": count, "openness": openness}))
    if openness == 0:
        notes.append(Note("quiet", f"{name} is a quiet move: every disc it flips is already "
                          "surrounded (中割り).", f"{name}は中割り(返す石がすべて囲まれている)。",
                          _names(board, flipped)))
    before = (board.moves_mask(me.other).bit_count(), board.moves_mask(me).bit_count())
    now = (after.moves_mask(me.other).bit_count(), after.moves_mask(me).bit_count())
    notes.append(Note("mobility", f"After {name}, {other_en} has {now[0]} moves "
                      f"(would have had {before[0]}); {en} would have {now[1]} "
                      f"(has {before[1]}).",
                      f"{name}の後、{other_ja}の着手可能数{now[0]}(打つ前{before[0]})、"
                      f"{ja}は{now[1]}(打つ前{before[1]})。", (),
                      {"opponent_after": now[0], "opponent_before": before[0],
                       "own_after": now[1], "own_before": before[1]}))
    stable_before, stable_after = board.stable_discs(me), after.stable_discs(me)
    if stable_before is not None and stable_after is not None:
        gained = stable_after & ~stable_before
        if gained:
            notes.append(Note("stable", f"{name} makes {gained.bit_count()} disc"
                              f"{'s' * (gained.bit_count() != 1)} stable: "
                              f"{en} has {stable_after.bit_count()}.",
                              f"{name}で{ja}の確定石が{gained.bit_count()}個増え"
                              f"{stable_after.bit_count()}個に。", _names(board, gained),
                              {"gained": gained.bit_count(), "total": stable_after.bit_count()}))
    if board.empties.bit_count() <= PARITY_EMPTIES:
        region = next(g for g in regions(board) if g >> sq & 1)
        size = region.bit_count()
        left = size - 1
        if size == 1:
            notes.append(Note("tempo", f"{name} fills a region of one square: nothing is "
                              "left next to it to answer (手止まり).",
                              f"{name}は隣に空きマスのない所への手止まり。", (name,)))
        notes.append(Note(
            "parity", f"{name} plays into a region of {size} ({'odd' if size % 2 else 'even'})"
            f", leaving {left} there ({'even' if left % 2 == 0 else 'odd'}).",
            f"{name}は空きマス{size}({'奇数' if size % 2 else '偶数'})の所に打ち、残り{left}。",
            _names(board, region), {"region": size, "left": left}))
    return notes
