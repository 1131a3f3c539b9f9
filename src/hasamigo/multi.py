"""Games of two to four colours on the 8×8 board: Rolit and the 4-player Othello.

The encyclopedia names two (``othello-wikipedia-ja-2024.txt``, 派生ゲーム): MegaHouse's
「みんなでオセロ(終売)・4人対戦オセロ」 and Goliath's Rolit, 「4人対戦可能なオセロ派生ゲーム…
球体の石を用いたもの」. One position serves both: a bitboard per colour, the seats' colours
in turn order, and a :class:`MultiRules` that says what a player who cannot capture does.

**Rolit** (Goliath, 2009), as its instructions give it
(https://www.ultraboardgames.com/rolit/game-rules.php, the English text of Goliath's
sheet; the Portuguese sheet at
https://vdocuments.pub/download/manual-de-instrues-1-tabuleiro-dividido-em-2-partes-64-bolas-rolit-manual.html
says the same):

- 8×8; "regardless of the number of players", one ball of each colour (red, yellow, green,
  blue) on the four centre squares. The sheet shows the arrangement in a figure only; the
  arrangement here (red d4, yellow e4, green e5, blue d5: the colours clockwise, as the
  sheet's turn order goes) is the one written out at
  http://www.greylabyrinth.com/discussion/viewtopic.php?t=14128 ("...RY... / ...BG...").
- Play goes clockwise "following the order of the colors" (red, yellow, green, blue); who
  starts is rolled with a ball (here: ``first``, any seat's colour).
- A ball that traps opponents' balls in Othello's way turns them all (each line up to the
  first ball of the mover's colour; https://www.nakajim.net/masg/Rolit.html: 「直線上に
  複数の自分の色がある場合は、最も短い範囲」). If a capture is possible it must be made
  (https://www.marco-rosenthal.de/projects/roll-it/html/hilfe.html: 「Wenn Blockieren und
  Einschließen möglich sind, besteht Zugzwang」); if not, the ball goes on any empty
  square next to a ball already played (vertically, horizontally or diagonally). Nobody
  passes.
- The game ends when the 64 squares are full; the most balls of one's colour wins.
- With two or three players the unused colours' balls still start in the centre: they
  belong to nobody, count for nobody, and any player may trap and turn them (they are
  "opponents' balls" to everyone). Two players take opposite sides (red and green, as
  players sit across the table) unless they choose.

**4人対戦オセロ** (MegaHouse, 2021; みんなでオセロ, 2013, is out of sale). No rule sheet could
be found. The &GP article of 14 September 2021
(https://news.infoseek.co.jp/article/goodspress_398515/) gives: four colours (black, white,
red, blue), discs on fixed starting squares, the first player by janken, Othello's
bracketing with every bracketed disc turned, 「通常のオセロ同様、自分の石で挟める場所がない
場合はオセロ石は置けず、パスしなければなりません」, and the game ends when the board is full,
the most discs winning. The starting squares are not given (for みんなでオセロ an article,
https://www.excite.co.jp/news/article/E1385363923875/, says two discs of each colour, eight
in all, on fixed squares, and adds event cards). So ``othello4`` here is **our reading**:
that article's rules on Rolit's start (one disc of each colour in the centre, black d4,
red e4, white e5, blue d5, play clockwise), with Othello's end when no seat can move.

>>> board = MultiBoard("rolit")
>>> board.play("f4"), board.colour_name(board.turn)
(Move.from_str('f4'), 'yellow')
>>> board.counts()
(3, 0, 1, 1)
>>> print(board)
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . R R R . .
. . . B G . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from hasamigo.board import grid_flips, grid_moves
from hasamigo.errors import (
    IllegalMoveError,
    IllegalReason,
    InvalidOptionError,
    InvalidSquareError,
    shown,
)
from hasamigo.move import PASS, Move
from hasamigo.squares import BB_ALL, D4, D5, E4, E5, Bitboard, Square, bits

#: Most colours a game has (the balls' four faces).
MAX_COLOURS = 4
_NOT_A: Bitboard = 0xFEFEFEFEFEFEFEFE  # a shift that moves right must not land on column a
_NOT_H: Bitboard = 0x7F7F7F7F7F7F7F7F  # one that moves left must not land on column h
#: The eight directions as (shift, mask of the squares a shifted disc may land on).
_DIRECTIONS: tuple[tuple[int, Bitboard], ...] = (
    (1, _NOT_A), (-1, _NOT_H), (8, BB_ALL), (-8, BB_ALL),
    (9, _NOT_A), (7, _NOT_H), (-7, _NOT_A), (-9, _NOT_H),
)
#: The centre squares clockwise from the top left: where each colour's first disc goes.
CENTRE_CLOCKWISE: tuple[Square, ...] = (D4, E4, E5, D5)


def _shift(b: Bitboard, d: int, mask: Bitboard) -> Bitboard:
    return ((b << d) if d > 0 else (b >> -d)) & mask & BB_ALL


def capture_squares(own: Bitboard, others: Bitboard) -> Bitboard:
    """Empty squares where a disc of ``own`` brackets discs of ``others`` (any colours but
    the mover's) in Othello's way. A colour's opponents are all the discs that are not its
    own, so this is the two-player rule with ``others`` as the opponent: the 8×8 grid's
    one definition (:func:`hasamigo.board.grid_moves`, the compiled kernel)."""
    return grid_moves(8, own, others, BB_ALL)


def captured(own: Bitboard, others: Bitboard, sq: Square) -> Bitboard:
    """Discs of ``others`` that a disc of ``own`` on the empty ``sq`` brackets: each
    line's run of others up to the first disc of ``own`` (the 8×8 grid's one definition,
    :func:`hasamigo.board.grid_flips`)."""
    return grid_flips(8, own, others, sq)


def neighbours(mask: Bitboard) -> Bitboard:
    """Squares next to (in the eight directions) a square of ``mask``."""
    near = 0
    for d, m in _DIRECTIONS:
        near |= _shift(mask, d, m)
    return near


@dataclass(frozen=True, slots=True)
class MultiRules:
    """A game of two to four colours: its names, colours, start and what a player who
    cannot capture does (``when_blocked``: ``"adjacent"``, Rolit's placing next to any
    disc, or ``"pass"``, Othello's pass; the game then ends when no seat can move)."""

    name: str  # the registry's key and the record's GM value
    title: str
    colours: tuple[str, str, str, str]  # in clockwise (turn) order
    symbols: str  # one letter per colour, for the board picture and the record
    when_blocked: str
    default_seats: tuple[tuple[int, ...], ...]  # the colours of 2, 3 and 4 players
    source: str  # where the rules come from, in a line

    def __post_init__(self) -> None:
        if self.when_blocked not in ("adjacent", "pass"):
            raise ValueError(f"unknown rule for a blocked player: {self.when_blocked!r}")

    def start(self) -> tuple[Bitboard, ...]:
        """Each colour's discs at the start: one on its centre square."""
        return tuple(1 << sq for sq in CENTRE_CLOCKWISE)

    def colour_named(self, text: str) -> int:
        """A colour's index from its name or letter (any case);
        :class:`InvalidOptionError` naming the colours otherwise."""
        key = text.strip().casefold()
        for i, name in enumerate(self.colours):
            if key in (name, self.symbols[i].casefold()):
                return i
        raise InvalidOptionError(f"{self.title} has no colour {shown(text)}; its colours: "
                                 f"{', '.join(self.colours)}")


ROLIT = MultiRules(
    name="rolit", title="Rolit", colours=("red", "yellow", "green", "blue"), symbols="RYGB",
    when_blocked="adjacent", default_seats=((0, 2), (0, 1, 2), (0, 1, 2, 3)),
    source="Goliath's instructions (https://www.ultraboardgames.com/rolit/game-rules.php)")
OTHELLO4 = MultiRules(
    name="othello4", title="4人対戦オセロ (our reading)",
    colours=("black", "red", "white", "blue"), symbols="XRWB",
    when_blocked="pass", default_seats=((0, 2), (0, 1, 2), (0, 1, 2, 3)),
    source="no rule sheet found: the &GP article of 2021-09-14 "
           "(https://news.infoseek.co.jp/article/goodspress_398515/) on Rolit's start")
#: The multi-player games by name.
MULTI_GAMES: dict[str, MultiRules] = {ROLIT.name: ROLIT, OTHELLO4.name: OTHELLO4}


def find_multi_game(name: str) -> MultiRules:
    """The game called ``name`` (case-insensitive); :class:`InvalidOptionError` naming the
    games otherwise."""
    rules = MULTI_GAMES.get(name.strip().casefold()) if isinstance(name, str) else None
    if rules is None:
        raise InvalidOptionError(f"no multi-player game {shown(name)}; known: "
                                 f"{', '.join(MULTI_GAMES)}")
    return rules


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's place at the end (or now): ``rank`` 1 is first, tied seats share a rank
    and the next rank skips (1, 1, 3)."""

    rank: int
    colour: int
    name: str
    discs: int


class MultiBoard:
    """A position of a multi-player game: discs per colour, the seats in turn order, the
    side to move, and the move stack (``push``/``pop``/``play`` as on the two-player
    :class:`~hasamigo.board.Board`, whose squares, :class:`~hasamigo.move.Move` and errors
    it shares).

    ``seats``: the colours that play, as indices or names, in any order (play always goes
    clockwise through them); by default the game's usual colours for ``players``.
    ``first``: the colour that moves first (by default the first seat's).
    """

    def __init__(self, game: str | MultiRules = "rolit", *, players: int | None = None,
                 seats: Sequence[int | str] | None = None,
                 first: int | str | None = None) -> None:
        self.rules = game if isinstance(game, MultiRules) else find_multi_game(game)
        if seats is None:
            count = 4 if players is None else players
            if not (isinstance(count, int) and 2 <= count <= MAX_COLOURS):
                raise InvalidOptionError(f"{self.rules.title} is for 2 to 4 players, "
                                         f"not {shown(count)}")
            chosen = self.rules.default_seats[count - 2]
        else:
            chosen = tuple(self._colour(c) for c in seats)
            if len(set(chosen)) != len(chosen) or not 2 <= len(chosen) <= MAX_COLOURS:
                raise InvalidOptionError(f"seats are 2 to 4 different colours, not "
                                         f"{shown(list(seats))}")
            if players is not None and players != len(chosen):
                raise InvalidOptionError(f"{players} players but {len(chosen)} seats")
        self.seats: tuple[int, ...] = tuple(sorted(chosen))
        self.discs: list[Bitboard] = list(self.rules.start())
        start = self.seats[0] if first is None else self._colour(first)
        if start not in self.seats:
            raise InvalidOptionError(f"{self.colour_name(start)} does not play: the first "
                                     "to move is one of the seats")
        self.turn_index = self.seats.index(start)
        self.move_stack: list[Move] = []
        self._undo: list[tuple[tuple[Bitboard, ...], int]] = []

    # ---- names ---------------------------------------------------------------------------
    def _colour(self, colour: int | str) -> int:
        if isinstance(colour, str):
            return self.rules.colour_named(colour)
        if not (isinstance(colour, int) and 0 <= colour < MAX_COLOURS):
            raise InvalidOptionError(f"a colour is 0..3 or a name, not {shown(colour)}")
        return colour

    def colour_name(self, colour: int) -> str:
        return self.rules.colours[colour]

    def copy(self) -> MultiBoard:
        """A board of the same position and history."""
        other = object.__new__(MultiBoard)
        other.rules, other.seats, other.turn_index = self.rules, self.seats, self.turn_index
        other.discs = list(self.discs)
        other.move_stack = list(self.move_stack)
        other._undo = list(self._undo)
        return other

    # ---- the position --------------------------------------------------------------------
    @property
    def turn(self) -> int:
        """The colour to move."""
        return self.seats[self.turn_index]

    @property
    def occupied(self) -> Bitboard:
        d = self.discs
        return d[0] | d[1] | d[2] | d[3]

    def colour_at(self, sq: Square) -> int | None:
        for colour, mask in enumerate(self.discs):
            if mask >> sq & 1:
                return colour
        return None

    def counts(self) -> tuple[int, ...]:
        """Discs of each of the four colours, playing or not."""
        return tuple(mask.bit_count() for mask in self.discs)

    def scores(self) -> dict[int, int]:
        """Discs of each seat's colour (the unused colours' discs count for nobody)."""
        return {colour: self.discs[colour].bit_count() for colour in self.seats}

    def standings(self) -> list[Standing]:
        """The seats by discs, most first, with shared ranks for ties."""
        scores = self.scores()
        ordered = sorted(self.seats, key=lambda c: (-scores[c], self.seats.index(c)))
        return [Standing(1 + sum(1 for c in self.seats if scores[c] > scores[colour]),
                         colour, self.colour_name(colour), scores[colour])
                for colour in ordered]

    def winners(self) -> list[int]:
        """The colours ranked first (more than one on a tie)."""
        return [s.colour for s in self.standings() if s.rank == 1]

    # ---- moves ---------------------------------------------------------------------------
    def captures_mask(self, colour: int | None = None) -> Bitboard:
        """Squares where ``colour`` (the side to move by default) captures."""
        colour = self.turn if colour is None else colour
        own = self.discs[colour]
        return capture_squares(own, self.occupied ^ own)

    def legal_moves_mask(self) -> Bitboard:
        """Squares the side to move may play: its captures; with none, under Rolit's rule
        every empty square next to a disc, under Othello's none (it passes)."""
        captures = self.captures_mask()
        if captures or self.rules.when_blocked == "pass":
            return captures
        occupied = self.occupied
        return neighbours(occupied) & ~occupied & BB_ALL

    def legal_moves(self) -> list[Move]:
        """The moves of the side to move: squares, or the forced pass; none when over."""
        if self.is_game_over():
            return []
        mask = self.legal_moves_mask()
        return [Move(sq) for sq in bits(mask)] if mask else [PASS]

    def is_game_over(self) -> bool:
        """The board is full, or (under Othello's rule) no seat can capture."""
        occupied = self.occupied
        if occupied == BB_ALL:
            return True
        if self.rules.when_blocked == "adjacent":
            return False
        return not any(self.captures_mask(colour) for colour in self.seats)

    def turned_by(self, sq: Square) -> Bitboard:
        """Discs the side to move turns by playing on the empty ``sq``."""
        own = self.discs[self.turn]
        return captured(own, self.occupied ^ own, sq)

    def push(self, move: Move) -> None:
        """Make ``move`` without checking it (the search's entry; :meth:`play` checks)."""
        self._undo.append((tuple(self.discs), self.turn_index))
        self.move_stack.append(move)
        if move.square is not None:
            mover = self.turn
            turned = self.turned_by(move.square)
            discs = self.discs
            for colour in range(MAX_COLOURS):
                discs[colour] &= ~turned
            discs[mover] |= turned | 1 << move.square
        self.turn_index = (self.turn_index + 1) % len(self.seats)

    def pop(self) -> Move:
        """Take back the last move (the position before it is restored as it was)."""
        if not self.move_stack:
            raise IndexError("no move to take back")
        discs, self.turn_index = self._undo.pop()
        self.discs = list(discs)
        return self.move_stack.pop()

    def check(self, move: Move) -> None:
        """:class:`IllegalMoveError` saying why ``move`` is not legal now, else nothing."""
        who = f"for {self.colour_name(self.turn)}"
        if self.is_game_over():
            raise IllegalMoveError(f"illegal move {move} {who}: the game is over",
                                   IllegalReason.GAME_OVER)
        mask = self.legal_moves_mask()
        if move.square is None:
            if mask:
                raise IllegalMoveError(f"illegal move pass {who}: a legal move exists",
                                       IllegalReason.PASS_NOT_ALLOWED)
            return
        if move.turned is not None:
            raise IllegalMoveError(f"illegal move {move} {who}: every bracketed disc is "
                                   "turned", IllegalReason.BAD_TURN)
        if move.square >= 64:
            raise InvalidSquareError(f"no square {move.square} on the 8×8 board")
        if self.occupied >> move.square & 1:
            raise IllegalMoveError(f"illegal move {move} {who}: occupied",
                                   IllegalReason.OCCUPIED)
        if not mask:
            raise IllegalMoveError(f"illegal move {move} {who}: no capture, so "
                                   f"{self.colour_name(self.turn)} must pass",
                                   IllegalReason.MUST_PASS)
        if not mask >> move.square & 1:
            why = ("a capture is possible, so one must be made" if self.captures_mask()
                   and self.rules.when_blocked == "adjacent" else
                   "flips nothing" if self.rules.when_blocked == "pass" else
                   "not next to a disc")
            raise IllegalMoveError(f"illegal move {move} {who}: {why}",
                                   IllegalReason.NO_FLIPS)

    def play(self, move: Move | str) -> Move:
        """Check and make ``move`` (a Move, a square name or ``pass``)."""
        if isinstance(move, str):
            move = Move.from_str(move)
        self.check(move)
        self.push(move)
        return move

    def perft(self, depth: int) -> int:
        """Leaves ``depth`` plies ahead: a pass is a ply, a finished game one leaf."""
        if not (isinstance(depth, int) and depth >= 0):
            raise InvalidOptionError(f"perft depth is a whole number >= 0, not {shown(depth)}")
        if depth == 0 or self.is_game_over():
            return 1
        total = 0
        for move in self.legal_moves():
            self.push(move)
            total += self.perft(depth - 1)
            self.pop()
        return total

    # ---- pictures ------------------------------------------------------------------------
    def __str__(self) -> str:
        rows = []
        for r in range(8):
            cells = []
            for c in range(8):
                colour = self.colour_at(r * 8 + c)
                cells.append("." if colour is None else self.rules.symbols[colour])
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def __repr__(self) -> str:
        moves = " ".join(str(m) for m in self.move_stack)
        return (f"<MultiBoard {self.rules.name} seats="
                f"{','.join(self.colour_name(c) for c in self.seats)} moves={moves!r}>")

    def turn_order(self) -> tuple[int, ...]:
        """The seats' colours in turn order from the one that moved first (the side to
        move, before any move): the order a record numbers the seats in."""
        first = self._undo[0][1] if self._undo else self.turn_index
        return self.seats[first:] + self.seats[:first]

    def replay(self) -> Iterator[tuple[int, Move]]:
        """The moves made, each with the colour that made it."""
        order = self.turn_order()
        for i, move in enumerate(self.move_stack):
            yield order[i % len(order)], move


__all__ = ["MAX_COLOURS", "MULTI_GAMES", "OTHELLO4", "ROLIT", "MultiBoard", "MultiRules",
           "Standing", "capture_squares", "captured", "find_multi_game", "neighbours"]
