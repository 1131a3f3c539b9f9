"""The board: position in absolute colours, side to move, legal moves, push/pop, outcome.

Variants are subclasses with class-level metadata (see :mod:`hasamigo.variants`): a shape
and a start, and their :class:`~hasamigo.rules.Rules` (:attr:`Board.rules`), the value the
board delegates to for what a variant plays (the grid, the flip rule, Nip's rule, rings) and
that answers what the board supports. The geometry is a mask of playable squares inside a
square grid, so one set of kernels serves every board of a grid. The grid is 8×8 (one
machine word per side, the fast kernels) unless the rules say ``stride=10``: the 10×10 grid
of :mod:`hasamigo._kernels.wide` (two words per side) for boards up to 10×10, a square being
``row * stride + col`` either way. Kernels work on ``(player, opponent)``; the conversion
lives in :meth:`Board.pair`.

One module over 600 lines: the board's parsing, set-up, queries and move making all work
on the same few attributes and class-level geometry, as python-chess's ``Board`` does; the
rules it delegates to are in :mod:`hasamigo.rules`, the variants in :mod:`hasamigo.variants`.

>>> board = Board()
>>> board.play("f5")
Move.from_str('f5')
>>> board.counts()
(4, 1)
>>> [str(m) for m in board.legal_moves]
['f4', 'd6', 'f6']
>>> board.pop()
Move.from_str('f5')
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from dataclasses import dataclass, replace
from types import EllipsisType
from typing import Any, ClassVar, Generic, NoReturn, TypeVar

import numpy as np

from hasamigo._kernels import wide
from hasamigo._kernels.moves import flips_at, legal_moves_mask
from hasamigo._kernels.moves import perft as _perft_kernel
from hasamigo._kernels.stability import stable_discs_entry
from hasamigo.errors import (
    IllegalMoveError,
    IllegalReason,
    InvalidOptionError,
    InvalidPositionError,
    InvalidSquareError,
    MoveTextError,
    ParseError,
    shown,
)
from hasamigo.move import BLACK, COLOUR_NAMES, PASS, PASS_TOKENS, WHITE, Color, Move
from hasamigo.rules import FLIP_RULES as FLIP_RULES  # the Board API names it here too
from hasamigo.rules import PLAIN, STRIDES, Rules
from hasamigo.squares import ASCII_DIGITS, Bitboard, Square, bits

BLACK_CHARS = "Xx*●"
WHITE_CHARS = "Oo○"
EMPTY_CHARS = "-._"
UNPLAYABLE_CHAR = "#"
STARTS = ("cross", "parallel", "original")
#: Longest square name read (``a1`` and, leniently, ``a01``): longer text is refused unread.
_SQUARE_NAME_MAX = 3
#: Longest move text read with its turned discs (``c4(d4e5…)``): longer is refused unread.
_MOVE_TEXT_MAX = 160
#: Column letters of the widest grid (10×10: a..j); a variant uses the first ``cols``.
FILE_LETTERS = "abcdefghij"
_T = TypeVar("_T")
#: The fields of :class:`Rules` a board reads under their old names (read-only).
_RULE_FIELDS = ("stride", "flip_rule", "place_when_blocked", "rings")


def grid_moves(stride: int, p: Bitboard, o: Bitboard, playable: Bitboard) -> Bitboard:
    """Squares of ``playable`` where a disc of ``p`` brackets discs of ``o`` in Othello's
    way, on the grid ``stride`` wide: the compiled kernel of that grid (8: one word a side,
    :mod:`hasamigo._kernels.moves`; 10: two, :mod:`hasamigo._kernels.wide`), the one
    definition of the rule there. ``o`` is every disc not the mover's (Rolit passes the
    other colours together)."""
    if stride == 8:
        return int(legal_moves_mask(np.uint64(p), np.uint64(o), np.uint64(playable)))
    lo, hi = wide.legal_moves_mask(*wide.split(p), *wide.split(o), *wide.split(playable))
    return int(wide.join(lo, hi))


def grid_flips(stride: int, p: Bitboard, o: Bitboard, sq: Square) -> Bitboard:
    """Discs of ``o`` that a disc of ``p`` on ``sq`` brackets in Othello's way along the
    eight lines of the grid ``stride`` wide: the compiled kernel of that grid, the one
    definition of the rule there (every caller, the board, Rolit and record entry, asks
    it). ``sq`` itself is not read, so a disc already on it (a disc just turned) brackets
    as a placed one would."""
    if stride == 8:
        return int(flips_at(np.uint64(p), np.uint64(o), sq))
    lo, hi = wide.flips_at(*wide.split(p), *wide.split(o), sq)
    return int(wide.join(lo, hi))


def _frame_mask(rows: int, cols: int, top: int, left: int, stride: int = 8) -> Bitboard:
    mask = 0
    for r in range(top, top + rows):
        for c in range(left, left + cols):
            mask |= 1 << (r * stride + c)
    return mask


class _RuleField(Generic[_T]):
    """A field of the variant's :class:`Rules` read on the board or its class, read-only
    (``Board.stride`` is ``Board.rules.stride``): the old flags' names, kept for the
    Board API. A variant sets its ``rules``; other modules ask ``rules.kernel`` and
    ``rules.supports(...)`` (tests/test_variant_capabilities.py)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, obj: object, owner: Any) -> _T:
        value: _T = getattr(owner.rules, self._name)
        return value

    def __set__(self, obj: object, value: object) -> NoReturn:
        raise AttributeError(f"{self._name} is a rule of the variant: set its rules")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game under the official (JOF) scoring.

    ``black`` and ``white`` are the official counts: empty squares go to the winner and a
    tie splits the board (8×8: 32–32). ``black_discs``/``white_discs`` are the discs on
    the board.

    This is the board's plain count of a position where neither side can move, not a
    game's result: a game can also end off the board (time-out, resignation, forfeit), may
    give a tie to the holder of the draw-win right, and may not be rated, which the board
    cannot know. That result is :class:`hasamigo.game.result.GameResult`, made from an
    ``Outcome`` in one place (``GameResult.from_outcome``); the board stays below the
    game layer and keeps this small value, as python-chess's ``Board.outcome()`` does.

    >>> o = Outcome.official(14, 1, squares=64)
    >>> str(o), o.winner, o.disc_difference
    ('63–1', Color.BLACK, 62)
    """

    black: int
    white: int
    black_discs: int
    white_discs: int
    winner: Color | None

    @classmethod
    def official(cls, black_discs: int, white_discs: int, *, squares: int = 64) -> Outcome:
        """Score a finished board: empties to the winner, a tie shares the board."""
        empties = squares - black_discs - white_discs
        if empties < 0 or black_discs < 0 or white_discs < 0:
            raise InvalidPositionError(
                f"{shown(black_discs)} black and {shown(white_discs)} white discs do not fit "
                f"{shown(squares)} squares"
            )
        if black_discs > white_discs:
            return cls(black_discs + empties, white_discs, black_discs, white_discs, BLACK)
        if white_discs > black_discs:
            return cls(black_discs, white_discs + empties, black_discs, white_discs, WHITE)
        half = squares // 2
        return cls(half, half, black_discs, white_discs, None)

    @property
    def empties(self) -> int:
        return self.black + self.white - self.black_discs - self.white_discs

    @property
    def disc_difference(self) -> int:
        """Official black count minus white count (Black's point of view)."""
        return self.black - self.white

    def __str__(self) -> str:
        return f"{self.black}–{self.white}"


class Board:
    """An Othello position with its move stack.

    Colours are absolute (``board.black``, ``board.white`` bitboards, ``board.turn``).
    ``push`` checks legality and raises :class:`IllegalMoveError` saying why; ``pop``
    restores a snapshot. ``play`` takes text (``"f5"``, ``"pass"``) or a :class:`Move`.
    """

    # ---- variant metadata (subclasses override) ---------------------------------------
    name: ClassVar[str] = "standard"
    aliases: ClassVar[tuple[str, ...]] = ("othello", "8x8", "cross")
    title: ClassVar[str] = "Othello 8×8"
    rows: ClassVar[int] = 8
    cols: ClassVar[int] = 8
    top: ClassVar[int] = 0  # grid row of the variant's row 1
    left: ClassVar[int] = 0  # grid column of the variant's column a
    cut: ClassVar[Bitboard] = 0  # squares of the frame that are not playable
    #: What the variant plays beyond its shape and start (see :class:`Rules`): the grid's
    #: width, the flip rule, Nip's rule, rings; and what it supports.
    rules: ClassVar[Rules] = PLAIN
    default_start: ClassVar[str] = "cross"
    default_disc_limit: ClassVar[int | None] = None
    #: The rules' fields, read-only (see :class:`Rules`): the grid's width (a square is
    #: ``row * stride + col``), Nip's rule, the rings, the flip rule (a choice of turned
    #: discs travels in :attr:`Move.turned`).
    stride = _RuleField[int]()
    place_when_blocked = _RuleField[bool]()
    rings = _RuleField[tuple[tuple[Square, ...], ...]]()
    flip_rule = _RuleField[str]()

    black: Bitboard
    white: Bitboard
    turn: Color
    move_stack: list[Move]

    def __init__(
        self,
        position: str | None = None,
        *,
        start: str | None = None,
        handicap: int = 0,
        disc_limit: int | EllipsisType | None = ...,
        hands: tuple[int, int] | None = None,
    ) -> None:
        self.start = self.default_start if start is None else start
        if self.start not in STARTS:
            raise InvalidOptionError(
                f"unknown start {shown(self.start)}; expected one of {', '.join(STARTS)}"
            )
        limit = self.default_disc_limit if disc_limit is ... else disc_limit
        if limit is None and self.rules.capture:
            raise InvalidOptionError("挟み碁's capture is played with stones in hand (a disc "
                                     "limit): without one a game need not end")
        if limit is not None and not (
            isinstance(limit, int) and not isinstance(limit, bool) and limit > 0
        ):
            raise InvalidOptionError(
                f"disc limit must be a positive number of discs, not {shown(limit)}"
            )
        self.disc_limit: int | None = limit
        self.handicap = handicap
        self.move_stack = []
        self._snapshots: list[tuple[Bitboard, Bitboard, Color, int, int]] = []
        if position is not None:
            if handicap:
                raise InvalidOptionError("give either a position or a handicap, not both")
            self._set_string(position)
        else:
            self._set_start(handicap)
        self._hand = self._initial_hand() if hands is None else self._check_hands(hands)

    # ---- geometry ----------------------------------------------------------------
    _playable: ClassVar[Bitboard]
    _playable_u64: ClassVar[np.uint64]
    _playable_words: ClassVar[tuple[np.uint64, np.uint64]]
    _centre_mask: ClassVar[Bitboard]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # A subclass written the older way (``stride = 10`` in its body) has its flags
        # folded into its rules, and the read-only field inherited again.
        legacy = {name: cls.__dict__[name] for name in _RULE_FIELDS
                  if name in cls.__dict__ and not isinstance(cls.__dict__[name], _RuleField)}
        if legacy:
            for name in legacy:
                delattr(cls, name)
            cls.rules = replace(cls.rules, **legacy)
        cls._init_geometry()

    @classmethod
    def _init_geometry(cls) -> None:
        n = cls.rules.stride
        if not (
            cls.rows >= 1 and cls.top + cls.rows <= n and cls.cols >= 1 and cls.left + cls.cols <= n
        ):
            # A mistake in a subclass's definition, not in user input: a plain ValueError.
            raise ValueError(
                f"{cls.__name__}: a {cls.rows}×{cls.cols} frame must fit in a grid of "
                f"stride {' or '.join(map(str, STRIDES))} (stride {n})"
            )
        grid = (1 << n * n) - 1
        cls._playable = _frame_mask(cls.rows, cls.cols, cls.top, cls.left, n) & ~cls.cut & grid
        cls._playable_u64 = np.uint64(cls._playable & ((1 << 64) - 1))
        cls._playable_words = wide.split(cls._playable)
        mid_r, mid_c = cls.rows // 2 - 1, cls.cols // 2 - 1
        if cls.rules.capture and "default_disc_limit" not in cls.__dict__:
            # 挟み碁's capture: half the board's squares a side (see hasamigo.rules)
            cls.default_disc_limit = cls._playable.bit_count() // 2
        cls._centre_mask = sum(
            1 << cls.local_square(mid_c + dc, mid_r + dr) for dr in (0, 1) for dc in (0, 1)
        )
        for ring in cls.rules.rings:
            if len(set(ring)) != len(ring) or any(not cls._playable >> sq & 1 for sq in ring):
                raise ValueError(f"{cls.__name__}: a ring must be distinct playable squares")

    @classmethod
    def rules_beyond_kernels(cls) -> list[str]:
        """The rules of this variant that the search kernels do not know, in words (none
        for most): :meth:`Rules.beyond_kernels`."""
        return cls.rules.beyond_kernels()

    @classmethod
    def playable(cls) -> Bitboard:
        """Mask of the playable squares on the grid (``row * stride + col``)."""
        return cls._playable

    @classmethod
    def square_count(cls) -> int:
        return cls.playable().bit_count()

    @classmethod
    def local_square(cls, col: int, row: int) -> Square:
        """Grid index of the variant's ``col``/``row`` (0-based, a1 = top-left of the frame)."""
        if not (0 <= col < cls.cols and 0 <= row < cls.rows):
            raise InvalidSquareError(
                f"no square at column {shown(col)}, row {shown(row)} on {cls.title}"
            )
        return (cls.top + row) * cls.rules.stride + cls.left + col

    @classmethod
    def square_name(cls, sq: Square) -> str:
        """Name of a grid square in this variant's own coordinates (6×6: a1..f6; 10×10:
        a1..j10)."""
        n = cls.rules.stride
        if not (isinstance(sq, int) and 0 <= sq < n * n and cls.playable() >> sq & 1):
            raise InvalidSquareError(f"square {shown(sq)} is not on {cls.title}")
        row, col = divmod(sq, n)
        return f"{FILE_LETTERS[col - cls.left]}{row - cls.top + 1}"

    @classmethod
    def grid_name(cls, sq: Square) -> str:
        """Name of any grid square for a message, cut or outside the frame too: the grid's
        own coordinates (on the 8×8 grid the standard names), ``#N`` off the grid."""
        n = cls.rules.stride
        if not (isinstance(sq, int) and 0 <= sq < n * n):
            return f"#{sq}"
        row, col = divmod(sq, n)
        return f"{FILE_LETTERS[col]}{row + 1}"

    @classmethod
    def grid_size(cls) -> int:
        """Squares of the grid (64; 100 on the 10-wide grid): every square is below it."""
        return cls.rules.stride ** 2

    @classmethod
    def step(cls, sq: Square, dr: int, dc: int) -> Square | None:
        """The grid square ``dr`` rows and ``dc`` columns from ``sq`` (cut or not), or
        ``None`` off the grid."""
        n = cls.rules.stride
        row, col = divmod(sq, n)
        row, col = row + dr, col + dc
        return row * n + col if 0 <= row < n and 0 <= col < n else None

    @classmethod
    def ways(cls, sq: Square) -> list[list[Square]]:
        """The lines a disc on ``sq`` brackets along, each from the square next to it
        outwards over playable squares: the eight directions of the grid (empty where the
        edge comes first), then each ring through ``sq`` one way round and the other (the
        ring's other squares)."""
        found = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if not (dr or dc):
                    continue
                way, at = [], cls.step(sq, dr, dc)
                while at is not None and cls._playable >> at & 1:
                    way.append(at)
                    at = cls.step(at, dr, dc)
                found.append(way)
        for ring in cls.rules.rings:
            if sq in ring:
                at, n = ring.index(sq), len(ring)
                found += [[ring[(at + step * k) % n] for k in range(1, n)] for step in (1, -1)]
        return found

    @classmethod
    def ring_names(cls) -> list[list[str]]:
        """The :attr:`rings`' squares by name, each in cyclic order (none on most boards)."""
        return [[cls.square_name(sq) for sq in ring] for ring in cls.rules.rings]

    @classmethod
    def parse_square(cls, name: str, *, cut_ok: bool = False) -> Square:
        """Grid index of a square named in this variant's coordinates, case-insensitive.

        A square cut from a shaped board is refused unless ``cut_ok`` (then ``push`` names
        it as an unplayable square).
        """
        text = name.strip()
        # ASCII digits only: str.isdigit() also takes '²' and '٣', which int() refuses or
        # reads as another row; the length bound keeps int() off 5,000-digit text.
        if (
            not 2 <= len(text) <= _SQUARE_NAME_MAX
            or text[0].lower() not in FILE_LETTERS[: cls.cols]
            or not all(ch in ASCII_DIGITS for ch in text[1:])
        ):
            raise InvalidSquareError(f"not a square of {cls.title}: {shown(name)}")
        col, row = FILE_LETTERS.index(text[0].lower()), int(text[1:]) - 1
        if not 0 <= row < cls.rows:
            raise InvalidSquareError(f"not a square of {cls.title}: {shown(name)}")
        sq = cls.local_square(col, row)
        if not cut_ok and not cls.playable() >> sq & 1:
            raise InvalidSquareError(f"{shown(name)} is cut from {cls.title}")
        return sq

    @classmethod
    def parse_move(cls, text: str, *, cut_ok: bool = False) -> Move:
        """A move named in this variant's coordinates, or a pass token; ``c4(d4e5)``
        names the discs turned under a 挟み碁 flip rule (any order; the squares in the
        parentheses may be separated by spaces or commas)."""
        stripped = text.strip()
        if stripped.lower() in PASS_TOKENS:
            return PASS
        if "(" not in stripped and ")" not in stripped:
            return Move(cls.parse_square(text, cut_ok=cut_ok))
        lead = len(text) - len(text.lstrip())  # columns count in ``text`` as given
        if len(stripped) > _MOVE_TEXT_MAX:
            raise MoveTextError(
                f"a move is at most {_MOVE_TEXT_MAX} characters, not {len(stripped)}"
            )
        opening = stripped.find("(")
        if opening < 0 or not stripped.endswith(")") or stripped.count("(") != 1 \
                or stripped.count(")") != 1:
            raise MoveTextError(
                f"a move with turned discs is written like c4(d4e5), not {shown(stripped)}",
                column=lead + (opening if opening >= 0 else stripped.find(")")) + 1,
            )
        square = cls.parse_square(stripped[:opening], cut_ok=cut_ok)
        try:
            turned = cls._parse_turned(stripped, opening + 1, len(stripped) - 1)
        except ParseError as exc:
            raise MoveTextError(exc.detail, column=lead + (exc.column or 1)) from None
        return Move(square, turned)

    @classmethod
    def _parse_turned(cls, text: str, start: int, end: int) -> Bitboard:
        """The mask of the square names in ``text[start:end]`` (a letter, then digits)."""
        mask = 0
        i = start
        while i < end:
            ch = text[i]
            if ch in " ,":
                i += 1
                continue
            j = i + 1
            while j < end and text[j] in ASCII_DIGITS:
                j += 1
            try:
                sq = cls.parse_square(text[i:j], cut_ok=True)
            except InvalidSquareError:
                raise MoveTextError(
                    f"not a square of {cls.title} among the turned discs: "
                    f"{shown(text[i:j] or ch)}",
                    column=i + 1,
                ) from None
            if mask >> sq & 1:
                raise MoveTextError(f"{text[i:j]} is named twice among the turned discs",
                                 column=i + 1)
            mask |= 1 << sq
            i = j
        if not mask:
            raise MoveTextError("no turned disc named inside the parentheses", column=start)
        return mask

    @classmethod
    def move_name(cls, move: Move) -> str:
        """``f5``, ``pass``, or with turned discs ``c4(d4e5)`` (in square order)."""
        if move.square is None:
            return "pass"
        name = cls.square_name(move.square)
        if move.turned is not None:
            name += "(" + cls._squares_text(move.turned, sep="") + ")"
        return name

    @classmethod
    def _squares_text(cls, mask: Bitboard, sep: str = ", ") -> str:
        """Names of the squares of ``mask`` in square order (grid names for squares not on
        the board, so that a message can name them)."""
        playable = cls.playable()
        return sep.join(
            cls.square_name(sq) if playable >> sq & 1 else cls.grid_name(sq) for sq in bits(mask)
        )

    @classmethod
    def corners(cls) -> tuple[Square, Square, Square, Square]:
        """The frame's corners in handicap order: a1, then h8, h1 and a8 (8×8 names)."""
        last_c, last_r = cls.cols - 1, cls.rows - 1
        return (
            cls.local_square(0, 0),
            cls.local_square(last_c, last_r),
            cls.local_square(last_c, 0),
            cls.local_square(0, last_r),
        )

    # ---- set-up ------------------------------------------------------------------
    def _set_start(self, handicap: int) -> None:
        mid_r, mid_c = self.rows // 2 - 1, self.cols // 2 - 1
        d4, e4 = self.local_square(mid_c, mid_r), self.local_square(mid_c + 1, mid_r)
        d5, e5 = self.local_square(mid_c, mid_r + 1), self.local_square(mid_c + 1, mid_r + 1)
        if self.start == "cross":
            self.black, self.white = (1 << e4) | (1 << d5), (1 << d4) | (1 << e5)
        elif self.start == "parallel":
            self.black, self.white = (1 << d5) | (1 << e5), (1 << d4) | (1 << e4)
        else:
            self.black = self.white = 0
        self.turn = BLACK
        if handicap:
            if not (isinstance(handicap, int) and 1 <= handicap <= 4):
                raise InvalidOptionError(
                    f"a handicap is 1 to 4 corner discs, not {shown(handicap)}"
                )
            # 1: a1; 2: a1, h8; 3: a1, h1, h8; 4: all four (JOF); White (the stronger) starts.
            a1, h8, h1, a8 = self.corners()
            chosen = {1: (a1,), 2: (a1, h8), 3: (a1, h1, h8), 4: (a1, h1, a8, h8)}[handicap]
            for sq in chosen:
                if not self.playable() >> sq & 1:
                    raise InvalidPositionError(
                        f"{self.title} has no corner {self.grid_name(sq)} for a handicap"
                    )
                self.black |= 1 << sq
            self.turn = WHITE

    def _set_string(self, text: str) -> None:
        cells = "".join(text.split())
        n = self.rows * self.cols
        if len(cells) not in (n, n + 1):
            raise ParseError(
                f"a {self.title} position has {n} squares and an optional side to move; "
                f"got {len(cells)} characters"
            )
        black = white = 0
        playable = self.playable()
        for i, ch in enumerate(cells[:n]):
            sq = self.local_square(i % self.cols, i // self.cols)
            on_board = bool(playable >> sq & 1)
            if ch in BLACK_CHARS or ch in WHITE_CHARS:
                if not on_board:
                    raise ParseError(f"a disc on {self.grid_name(sq)}, which is cut", column=i + 1)
                if ch in BLACK_CHARS:
                    black |= 1 << sq
                else:
                    white |= 1 << sq
            elif ch == UNPLAYABLE_CHAR:
                if on_board:
                    raise ParseError(f"'#' on playable square {self.square_name(sq)}", column=i + 1)
            elif ch not in EMPTY_CHARS:
                raise ParseError(f"unexpected character {ch!r} for a square", column=i + 1)
        turn = BLACK
        if len(cells) == n + 1:
            side = cells[n]
            if side in "XxB*b":
                turn = BLACK
            elif side in "OoWw":
                turn = WHITE
            else:
                raise ParseError(f"side to move must be X or O, not {side!r}", column=n + 1)
        self.black, self.white, self.turn = black, white, turn

    def _initial_hand(self) -> tuple[int, int]:
        if self.disc_limit is None:
            return (64, 64)
        return (
            self.disc_limit - self.black.bit_count()
            if self.start != "original"
            else self.disc_limit,
            self.disc_limit - self.white.bit_count()
            if self.start != "original"
            else self.disc_limit,
        )

    def _check_hands(self, hands: tuple[int, int]) -> tuple[int, int]:
        if self.disc_limit is None:
            raise InvalidPositionError("discs in hand only count under a disc limit")
        if not (isinstance(hands, tuple | list) and len(hands) == 2):
            raise InvalidPositionError(
                f"discs in hand are a (black, white) pair, not {shown(hands)}"
            )
        black, white = hands
        for count in hands:
            if not (isinstance(count, int) and 0 <= count <= self.disc_limit):
                raise InvalidPositionError(
                    f"discs in hand must be 0..{self.disc_limit}, not {shown(count)}"
                )
        return (black, white)

    @classmethod
    def from_string(cls, text: str, **options: object) -> Board:
        """A position from its board string (``to_string()``): cells then the side to move."""
        return cls(text, **options)  # type: ignore[arg-type]

    def _rows(self, empty: str, cut: str, moves: Bitboard = 0) -> list[list[str]]:
        """The cells row by row as characters: ``X`` black, ``O`` white, ``*`` in ``moves``,
        else ``empty`` on a playable square and ``cut`` off the board's shape."""
        playable = self.playable()
        rows = []
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                sq = self.local_square(c, r)
                if self.black >> sq & 1:
                    row.append("X")
                elif self.white >> sq & 1:
                    row.append("O")
                elif moves >> sq & 1:
                    row.append("*")
                else:
                    row.append(empty if playable >> sq & 1 else cut)
            rows.append(row)
        return rows

    def to_string(self) -> str:
        """Cells row by row (``X`` black, ``O`` white, ``-`` empty, ``#`` cut), space, side."""
        cells = "".join("".join(row) for row in self._rows("-", UNPLAYABLE_CHAR))
        return cells + " " + self.turn.symbol

    # ---- queries -----------------------------------------------------------------
    def pair(self, color: Color | None = None) -> tuple[int, int]:
        """``(player, opponent)`` bitboards for ``color`` (default: the side to move): the
        position as the kernels and the engine take it, relative to that side.

        >>> Board().pair() == (Board().black, Board().white)
        True
        """
        color = self.turn if color is None else color
        return (self.black, self.white) if color is BLACK else (self.white, self.black)

    @property
    def occupied(self) -> Bitboard:
        return self.black | self.white

    @property
    def empties(self) -> Bitboard:
        return self.playable() & ~self.occupied

    def discs(self, color: Color) -> Bitboard:
        return self.black if color is BLACK else self.white

    def counts(self) -> tuple[int, int]:
        """Discs on the board: ``(black, white)``."""
        return self.black.bit_count(), self.white.bit_count()

    def stable_discs(self, color: Color) -> Bitboard | None:
        """Discs of ``color`` that no sequence of moves can ever flip (確定石): every disc
        returned is stable; a few stable discs in unusual edge shapes may be missed (see
        :mod:`hasamigo._kernels.stability`). ``None`` where it is not computed: beyond the
        8×8 grid, and on boards with :attr:`rings` (a ring's flips are not in the kernel)."""
        if not self.rules.supports("stability"):
            return None
        p, o = self.pair(color)
        return int(stable_discs_entry(np.uint64(p), np.uint64(o), self._playable_u64))

    def in_hand(self, color: Color) -> int | None:
        """Discs ``color`` may still place under a disc limit (``None`` without one)."""
        if self.disc_limit is None:
            return None
        return self._hand[0 if color is BLACK else 1]

    def in_placement_phase(self) -> bool:
        """True while the original Reversi start still places discs freely on the centre."""
        return self.start == "original" and (self.occupied & self._centre()) != self._centre()

    @classmethod
    def _centre(cls) -> Bitboard:
        return cls._centre_mask

    def moves_mask(self, color: Color) -> Bitboard:
        """Squares where ``color`` could play now if it were to move."""
        mask = self._flip_moves(color)
        if not mask and self.rules.place_when_blocked and not self._flip_moves(color.other):
            mask = self.empties  # Nip: both blocked, so anywhere empty
        return mask

    def _flip_moves(self, color: Color) -> Bitboard:
        """Squares where ``color`` could play by the usual rule (a disc that flips)."""
        if self.disc_limit is not None and self._hand[0 if color is BLACK else 1] <= 0:
            return 0
        if self.in_placement_phase():
            return self._centre() & ~self.occupied
        p, o = self.pair(color)
        rules = self.rules
        if rules.capture:  # 挟み碁's capture: anywhere empty, as in Go
            return self.empties
        if not rules.othello_brackets:
            return rules.word_moves(p, o, self._playable)
        if rules.stride == 8:
            mask = int(legal_moves_mask(np.uint64(p), np.uint64(o), self._playable_u64))
        else:
            lo, hi = wide.legal_moves_mask(*wide.split(p), *wide.split(o), *self._playable_words)
            mask = int(wide.join(lo, hi))
        if rules.rings:
            mask |= rules.ring_moves(p, o)
        return mask

    def legal_moves_mask(self) -> Bitboard:
        """Bitboard of the squares the side to move may play (0 when it must pass)."""
        return self.moves_mask(self.turn)

    @property
    def legal_moves(self) -> LegalMoves:
        """Live view of the legal moves: squares, or the single forced pass."""
        return LegalMoves(self)

    def must_pass(self) -> bool:
        """True when the side to move has no move but the game goes on."""
        return not self.legal_moves_mask() and bool(self.moves_mask(self.turn.other))

    def is_game_over(self) -> bool:
        """Neither side can move: full board, both blocked, or one colour wiped out (with
        :attr:`place_when_blocked`, only a full board)."""
        return not self.legal_moves_mask() and not self.moves_mask(self.turn.other)

    def outcome(self) -> Outcome | None:
        """The official result if the game is over, else ``None``."""
        if not self.is_game_over():
            return None
        b, w = self.counts()
        return Outcome.official(b, w, squares=self.square_count())

    def flips(self, move: Move | str) -> Bitboard:
        """Discs that ``move`` would flip for the side to move (0 for a pass or a non-move)."""
        move = self._as_move(move)
        if move.square is None or self.in_placement_phase():
            return 0
        p, o = self.pair()
        if (p | o) >> move.square & 1 or not self.playable() >> move.square & 1:
            return 0
        return self.bracketed(p, o, move.square)

    def bracketed(self, p: Bitboard, o: Bitboard, sq: Square) -> Bitboard:
        """Discs that ``p`` brackets (of ``o`` under Othello's word) by placing on the
        empty playable ``sq``, under this board's rules, whoever is to move (record entry
        asks it for the colour actually put down): the grid's kernel
        (:func:`grid_flips`) and the rings, with Hasegawa's indirect bracketing their
        chain (:meth:`Rules.chained`), or the Fairy Othello word."""
        rules = self.rules
        if not rules.othello_brackets:
            return rules.word_flips(p, o, sq, self._playable)
        direct = self._othello_bracketed(p, o, sq)
        return rules.chained(p, o, sq, direct, self._othello_bracketed) if rules.indirect \
            else direct

    def _othello_bracketed(self, p: Bitboard, o: Bitboard, sq: Square) -> Bitboard:
        """Othello's bracketing from ``sq`` on this board: the grid's kernel and the rings."""
        rules = self.rules
        flipped = grid_flips(rules.stride, p, o, sq)
        if rules.rings:
            flipped |= rules.ring_flips(p, o, sq)
        return flipped

    def is_legal(self, move: Move | str) -> bool:
        try:
            move = self._as_move(move)
        except (InvalidSquareError, ParseError):
            return False
        return self._illegal_reason(move) is None and self._turn_problem(move) is None

    # ---- 挟み碁 flip rules: the discs a move turns -------------------------------------
    def turn_choices(self, square: Square) -> Bitboard:
        """The discs a disc on ``square`` would bracket for the side to move: those the
        mover chooses from under :attr:`flip_rule` ``"one"`` or ``"choose"`` (0 where no
        flipping move can be played)."""
        if not self.legal_moves_mask() >> square & 1:
            return 0
        return self.flips(Move(square))

    def needs_choice(self, square: Square) -> bool:
        """Whether a move on ``square`` must say which discs it turns: under ``"one"`` when
        it brackets more than one (under ``"choose"`` a bare square turns them all)."""
        return self.rules.needs_choice(self.turn_choices(square))

    def move_choices(self) -> Iterator[Move]:
        """Every distinct legal move, each choice of turned discs a move of its own (as
        ``perft`` counts them): the legal moves under the normal rule. A choice that turns
        every bracketed disc is the bare square."""
        rules = self.rules
        if not rules.supports("choose_turned"):
            yield from self.legal_moves
            return
        for move in list(self.legal_moves):
            bracketed = 0 if move.square is None else self.flips(move)
            if self.in_placement_phase():
                yield move
            else:
                yield from rules.choices(move, bracketed)

    def turned_by(self, move: Move) -> Bitboard:
        """The discs a legal ``move`` turns for the side to move: those it chose
        (:attr:`Move.turned`), else every disc it brackets."""
        if move.square is None or self.in_placement_phase():
            return 0
        return self.flips(move) if move.turned is None else move.turned

    def _turn_problem(self, move: Move) -> str | None:
        """Why the discs ``move`` would turn break :attr:`flip_rule` (for a move whose
        placement is legal), or ``None``."""
        if move.square is None:
            return None
        bracketed = 0 if self.in_placement_phase() else self.flips(move)
        name = self.square_name(move.square)
        if move.turned is None:
            if self.rules.needs_choice(bracketed):
                first = next(bits(bracketed))
                return (f"{name} brackets {self._squares_text(bracketed)}; the rule turns "
                        f"one of them: say which, e.g. {name}({self.square_name(first)})")
            return None
        turned = move.turned
        if turned & ~bracketed:
            return (f"{name} does not bracket {self._squares_text(turned & ~bracketed)}"
                    + (f"; it brackets {self._squares_text(bracketed)}" if bracketed
                       else "; it turns nothing"))
        if not turned:
            return f"{name} must turn at least one of {self._squares_text(bracketed)}"
        problem = self.rules.turn_problem(turned, bracketed)
        if problem is None:
            return None
        return problem.format(turned=self._squares_text(turned),
                              bracketed=self._squares_text(bracketed))

    def _illegal_reason(self, move: Move) -> IllegalReason | None:
        mask = self.legal_moves_mask()
        if move.square is None:
            if mask:
                return IllegalReason.PASS_NOT_ALLOWED
            if self.is_game_over():
                return IllegalReason.GAME_OVER
            return None
        sq = move.square
        if mask >> sq & 1:
            return None
        if self.is_game_over():
            return IllegalReason.GAME_OVER
        if not self.playable() >> sq & 1:
            return IllegalReason.UNPLAYABLE
        if self.occupied >> sq & 1:
            return IllegalReason.OCCUPIED
        if self.disc_limit is not None and self._hand[0 if self.turn is BLACK else 1] <= 0:
            return IllegalReason.NO_DISCS_LEFT
        if self.in_placement_phase():
            return IllegalReason.PLACEMENT_PHASE
        if not mask:
            return IllegalReason.MUST_PASS
        return IllegalReason.NO_FLIPS

    def _as_move(self, move: Move | str) -> Move:
        return self.parse_move(move) if isinstance(move, str) else move

    def perft(self, depth: int) -> int:
        """Leaves ``depth`` plies ahead: a pass is a ply, a finished game one leaf.

        Uses the compiled kernel with bulk counting; variants whose rules the kernel does
        not know (original start, disc limit, Nip's rule, rings, a 挟み碁 flip rule or its
        capture, a Fairy Othello word) are walked move by move, each choice of turned
        discs counted as a move of its own.
        """
        if not (isinstance(depth, numbers.Integral) and depth >= 0):
            raise InvalidOptionError(f"perft depth must be a whole number >= 0, not {shown(depth)}")
        if (self.disc_limit is None and not self.in_placement_phase()
                and not self.rules_beyond_kernels()):
            p, o = self.pair()
            if self.rules.stride == 8:
                return int(_perft_kernel(np.uint64(p), np.uint64(o), self._playable_u64, depth))
            words = (*wide.split(p), *wide.split(o), *self._playable_words)
            return int(wide.perft(*words, depth))
        return self._perft_slow(depth)

    def _perft_slow(self, depth: int) -> int:
        if depth == 0 or self.is_game_over():
            return 1
        total = 0
        for move in list(self.move_choices()):
            self.push(move)
            total += self._perft_slow(depth - 1)
            self.pop()
        return total

    # ---- making moves ------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Play a legal ``move`` (a :class:`Move`) for the side to move.

        Raises :class:`IllegalMoveError` with the reason if it is not legal.
        """
        reason = self._illegal_reason(move)
        if reason is not None:
            where = (
                self.move_name(move)
                if move.square is None or self.playable() >> move.square & 1
                else self.grid_name(move.square)
            )
            raise IllegalMoveError(f"illegal move {where} for {self.turn}: {reason.value}", reason)
        problem = self._turn_problem(move)
        if problem is not None:
            raise IllegalMoveError(
                f"illegal move {self.move_name(Move(move.square))} for {self.turn}: "
                f"{IllegalReason.BAD_TURN.value}: {problem}",
                IllegalReason.BAD_TURN,
            )
        self._snapshots.append((self.black, self.white, self.turn, *self._hand))
        if move.square is not None:
            mine, theirs = self.rules.applied(*self.pair(), move.square, self.turned_by(move))
            if self.turn is BLACK:
                self.black, self.white = mine, theirs
                if self.disc_limit is not None:
                    self._hand = (self._hand[0] - 1, self._hand[1])
            else:
                self.white, self.black = mine, theirs
                if self.disc_limit is not None:
                    self._hand = (self._hand[0], self._hand[1] - 1)
        self.turn = self.turn.other
        self.move_stack.append(move)

    def play(self, move: Move | str) -> Move:
        """Checked entry point: parse ``move`` if text, push it, return the :class:`Move`.

        Also refuses a move for the wrong colour when given as ``"black:f5"`` / ``"white:f5"``.
        """
        if isinstance(move, str):
            text = move.strip()
            if ":" in text:
                colour, _, text = text.partition(":")
                try:
                    wanted = Color.parse(colour, lenient=True)
                except InvalidOptionError:
                    raise ParseError(
                        f"unknown colour {shown(colour)} in {shown(move)}; "
                        f"expected one of {', '.join(COLOUR_NAMES)} before the ':'",
                        column=1,
                    ) from None
                if wanted is not self.turn:
                    name = text.strip()
                    raise IllegalMoveError(
                        f"illegal move {name if len(name) <= 3 else shown(name)} for {wanted}: "
                        f"{IllegalReason.NOT_YOUR_TURN.value} ({self.turn} to move)",
                        IllegalReason.NOT_YOUR_TURN,
                    )
            move = self.parse_move(text, cut_ok=True)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            # A programming error (nothing to take back), not bad input: IndexError as for list.
            raise IndexError("pop from an empty move stack")
        self.black, self.white, self.turn, hb, hw = self._snapshots.pop()
        self._hand = (hb, hw)
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move played."""
        if not self.move_stack:
            # As for pop: a programming error, IndexError as for list.
            raise IndexError("peek at an empty move stack")
        return self.move_stack[-1]

    def copy(self, *, stack: bool = True) -> Board:
        board = type(self).__new__(type(self))
        board.__dict__.update(self.__dict__)
        board.move_stack = list(self.move_stack) if stack else []
        board._snapshots = list(self._snapshots) if stack else []
        return board

    def root(self) -> Board:
        """A copy at the position before the first move of the stack."""
        board = self.copy()
        while board.move_stack:
            board.pop()
        return board

    @property
    def ply(self) -> int:
        return len(self.move_stack)

    def key(self) -> tuple[str, Bitboard, Bitboard, Color]:
        """Hashable identity of the position (variant, discs, side to move)."""
        return (self.name, self.black, self.white, self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.key() == other.key() and self._hand == other._hand

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        extra = (
            "" if self.disc_limit == self.default_disc_limit else f", disc_limit={self.disc_limit}"
        )
        if self.start == "original" and self.default_start != "original":
            extra += ", start='original'"
        if self.disc_limit is not None:
            extra += f", hands={self._hand}"
        return f"{type(self).__name__}({self.to_string()!r}{extra})"

    def diagram(self, *, show_moves: bool = True) -> str:
        """A plain-text picture: ``X`` black, ``O`` white, ``*`` legal move, ``.`` empty."""
        moves = self.legal_moves_mask() if show_moves else 0
        width = len(str(self.rows))  # row numbers right-aligned: ' 9' above '10'
        lines = [" " * (width + 1) + " ".join(FILE_LETTERS[: self.cols])]
        for r, row in enumerate(self._rows(".", " ", moves)):
            lines.append(f"{r + 1:>{width}} " + " ".join(row))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.diagram()


Board._init_geometry()


class LegalMoves:
    """Live view of the side to move's legal moves (``in``, ``len``, iteration, ``bool``).

    One move per square where a disc may be placed. Under 挟み碁's flip rule ``"one"`` a
    square that brackets several discs is listed bare, and ``push`` (and ``in``) refuse
    that bare move until it names the disc turned; :meth:`Board.move_choices` lists
    every complete move, each choice apart."""

    def __init__(self, board: Board) -> None:
        self._board = board

    def _mask(self) -> Bitboard:
        return self._board.legal_moves_mask()

    def __iter__(self) -> Iterator[Move]:
        mask = self._mask()
        if mask:
            for sq in bits(mask):
                yield Move(sq)
        elif not self._board.is_game_over():
            yield PASS

    def __len__(self) -> int:
        mask = self._mask()
        if mask:
            return mask.bit_count()
        return 0 if self._board.is_game_over() else 1

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)

    def __repr__(self) -> str:
        names = ", ".join(self._board.move_name(m) for m in self)
        return f"<LegalMoves ({names})>"
