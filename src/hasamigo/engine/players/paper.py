"""The two programs of the amusement paper ("Amusement of an Othello": a victory-oriented and
an amusement-oriented program, compared in a user study).

**Victory** (paper §2.2, §3.2): minimax 5 plies ahead over a weighted-square evaluation (own
discs × square weight minus the opponent's), with three phases decided at the root:

* opening — until a disc (of either colour) reaches an edge: "keep discs inside, flip few",
  the mostly negative :data:`OPENING_WEIGHTS`; the paper's opening book is not reproduced
  (matches vary the openings instead);
* midgame — from the first disc on an edge: :data:`MIDGAME_WEIGHTS` plus
  :data:`MOBILITY_WEIGHT` per move of mobility difference (the paper: make the opponent's
  number of moves small);
* endgame — from :data:`ENDGAME_CORNERS` corners occupied (ours as well: from
  :data:`ENDGAME_EMPTIES` empty squares, so a cornerless game still ends counting discs):
  disc difference ("maximise the final discs").

A finished game scores 1000 × the official disc difference in every phase. The paper's
weight tables (its figures 1 and 2) are not in its text: :data:`MIDGAME_WEIGHTS` is the
classic textbook weighted-square table (corner 100, C −20, X −50), :data:`OPENING_WEIGHTS` a
mostly negative variant of it we wrote (every disc costs, the centre least), as the paper
describes figure 2. A pass does not use up a ply. Ties are broken by the seeded generator.

**Amusement** (paper §3.3) is victory plus two planned moves, each once per game, which
the paper places in the midgame: 「娯楽指向のオセロゲームプログラムは，中盤において異なる戦略を
見せる」 ("the amusement program shows a different strategy in the midgame", §3.3), and
gives each its move numbers (「期待性の手は２０手～で星打ちできる時が来たら打ち，意外性の手は
３０～３５手で打つ」):

* expectation move — in the midgame phase (:func:`phase`; :func:`expectation_due`), from
  move :data:`EXPECTATION_FROM` on, the first time a star (X-square)
  move is available that hands the opponent its corner (after it, the corner is a legal move
  for the opponent), it is played (the best such move by the search if several). The paper:
  「１手先で星に石が置けるとプログラムが判断した場合は，定石の動きから逸れて，星の部分に石を
  打ち，プレイヤーに隅を取らせるような動きをする」 (§3.3) and 「わざとプレイヤーに隅を取らせる
  ように石を打ち」 (§2.3): a star move that lets the player take the corner. We read
  「隅を取らせるような」 as "after which the player *can* take the corner", so a star move
  whose corner stays out of the player's reach is not one;
* surprise move — at the program's first turn in its window (below; :func:`surprise_due`)
  with at least two legal moves, the move worst for itself by the same minimax (「ミニマック
  ス法を用いて，プログラム側にとって最悪な手（悪手）を探し，そこに打つ」, §3.3).

**The surprise move's window** (:data:`SURPRISE_WINDOWS`, a user study's setting too; this
module is its one home). The paper gives the numbers: 「意外性の手は３０～３５手で打つ」
(§3.3), the game's moves 30-35 (:func:`move_number`). That is :data:`MOVES_WINDOW`
(``amusement:moves``), the **paper's window** (:data:`PAPER_WINDOW`), the default of a
study under the paper's protocol. :data:`MIDGAME_WINDOW` (plain ``amusement``) is **the
project's own reading**: the same moves, and only while the victory program's midgame
phase lasts (:func:`phase`: before two corners are taken), from the paper's 「中盤のある手数
において」 read with its phases; the paper does not say to skip the move when the midgame
has ended by move 30, and a player who takes corners early then never meets it (simulated
weak players: the surprise move in 85-88 % of the amusement program's games, against
100 % in the paper's window). :data:`WINDOW_SOURCE` says whose each window is.

``amusement:swing`` (:data:`SWING`) is the paper's own future work (§5: 「１番の悪手を打つだけで
なく，手を打つ前後で評価値が大きく変化しているときにその手を打つ」, "not just the worst move:
play it when the evaluation changes sharply before and after the move"; §4.3 found surprise
felt mostly where the evaluation after the program's move differed sharply from the one
after the person's). Its surprise move is the move that moves the evaluation the most *at
once*: the largest drop of the program's own evaluation without search
(:func:`static_value`, the same phase) from the position it faces to the one after its
move (any of its moves: a sacrifice the search likes would count too). It is played at
the first turn of the window where that drop is at least :data:`SWING_MIN`, or, if none
came, at the program's last turn of the window (move :data:`SURPRISE_WINDOW` [1] - 1 or
later) with the largest drop then on offer. The plain surprise move's damage often shows
only some plies later, which a beginner does not see: the paper's subjects did not find
it surprising (§5).

**Move numbers** (:func:`move_number`) count the moves played from the game's start, passes
excepted: move 1 is the first disc placed, whatever the start (handicap discs and the empty
centre of the original start are not moves; the placements of the original start are). The
paper's thresholds are for the 60 moves of 8×8; on a board of N squares they scale by the
rule of :func:`scaled`: move n becomes move round(n × (N − 4) / 60), halves up (6×6: 20 → 11,
30–35 → 16–19; 4×4: 20 → 4, 30–35 → 6–7). The paper counts all moves, both sides': its
subject of figure 7 met the expectation move at the program's 10th move and the surprise at
its 15th (§4.2, 「１０手目に予測可能性の手を，１５手目に意外性の手を打っている」), that is,
moves 20 and 30 of the game.

Phases, corners, edges and stars follow the board's own frame (6×6: corners b2, g2, b7, g7
of the 8×8 grid; on 4×4 the stars are the centre squares, so no expectation move there);
the weight tables are the 8×8 ones on every board (a smaller board's squares take the
weights of the grid squares they sit on: not a tuned table for 6×6 or 4×4).

**On a clock** (ours; the paper's programs answer in milliseconds and it does not say) both
search 1, 3, then 5 plies, each only if it is expected to fit the move's budget
(:mod:`hasamigo.engine.timing`), and play by the deepest search done: the same move as
without a clock whenever the 5 plies fit, a shallower one (odd plies, like the paper's 5)
when time is short, never a move after the flag fell.
"""

from __future__ import annotations

import numpy as np

from hasamigo._kernels.weighted import MODE_DISCS, MODE_MOBILITY, MODE_WEIGHTED, search
from hasamigo._kernels.weighted import evaluate_entry as _evaluate_entry
from hasamigo.board import Board
from hasamigo.engine.players.base import (
    CORNERS,
    EXPECTATION,
    SURPRISE,
    Kernels,
    Player,
    move_number,
    squares_of,
)
from hasamigo.engine.timing import MoveTime
from hasamigo.game.clock import Clock
from hasamigo.move import Color, Move

SEARCH_PLIES = 5
ENDGAME_CORNERS = 2
ENDGAME_EMPTIES = 10
MOBILITY_WEIGHT = 4
EXPECTATION_FROM = 20
SURPRISE_WINDOW = (30, 35)
#: The moves of the 8×8 game the paper's move numbers are for (its thresholds scale by them).
PAPER_MOVES = 60
#: amusement:swing: the least drop of the static evaluation (weighted-square units) that
#: counts as a sharp swing: a corner's weight. Against the study panel (30 games, 74 of the
#: program's midgame turns in the window) the largest drop on offer had a median of 75 and
#: was 100 or more at 40% of the turns; the minimax-worst move's own drop had a median of 60.
SWING_MIN = 100
#: The surprise rules of :class:`AmusementPlayer`: the paper's, and its future work.
WORST = "worst"
SWING = "swing"
#: The surprise move's windows (see the module docstring): the paper's, the game's moves
#: 30-35 (「意外性の手は３０～３５手で打つ」), and the project's own, those moves while the
#: midgame phase lasts. The names are the player specs' suffix (``amusement:moves``) and a
#: study's stored setting: keep them.
MOVES_WINDOW = "moves"
MIDGAME_WINDOW = "midgame"
#: the paper's window first
SURPRISE_WINDOWS = (MOVES_WINDOW, MIDGAME_WINDOW)
PAPER_WINDOW = MOVES_WINDOW
#: whose each window is: ``paper`` (its text's) or ``project`` (the project's reading)
WINDOW_SOURCE = {MOVES_WINDOW: "paper", MIDGAME_WINDOW: "project"}
#: Under a clock, the expected cost of a search two plies deeper than one that took t
#: seconds: t times this (measured on 300 WTHOR positions, 3 -> 5 plies: median 9,
#: 90th percentile 40, max 111; 5 plies took at most 16 ms). The kernel cannot be stopped,
#: so the guess is a cautious one; DEEPEN_FLOOR seconds is the least cost assumed.
DEEPEN_GROWTH = 40.0
DEEPEN_FLOOR = 0.0002

OPENING = "opening"
MIDGAME = "midgame"
ENDGAME = "endgame"

# fmt: off
MIDGAME_WEIGHTS = np.array([
    100, -20,  10,   5,   5,  10, -20, 100,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
     10,  -2,  -1,  -1,  -1,  -1,  -2,  10,
      5,  -2,  -1,  -1,  -1,  -1,  -2,   5,
      5,  -2,  -1,  -1,  -1,  -1,  -2,   5,
     10,  -2,  -1,  -1,  -1,  -1,  -2,  10,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
    100, -20,  10,   5,   5,  10, -20, 100,
], dtype=np.int64)

OPENING_WEIGHTS = np.array([
     50, -20,  -4,  -4,  -4,  -4, -20,  50,
    -20, -40,  -6,  -6,  -6,  -6, -40, -20,
     -4,  -6,  -3,  -2,  -2,  -3,  -6,  -4,
     -4,  -6,  -2,  -1,  -1,  -2,  -6,  -4,
     -4,  -6,  -2,  -1,  -1,  -2,  -6,  -4,
     -4,  -6,  -3,  -2,  -2,  -3,  -6,  -4,
    -20, -40,  -6,  -6,  -6,  -6, -40, -20,
     50, -20,  -4,  -4,  -4,  -4, -20,  50,
], dtype=np.int64)
# fmt: on

#: phase -> (weights, evaluation mode of :mod:`hasamigo._kernels.weighted`)
PHASES: dict[str, tuple[np.ndarray, int]] = {
    OPENING: (OPENING_WEIGHTS, MODE_WEIGHTED),
    MIDGAME: (MIDGAME_WEIGHTS, MODE_MOBILITY),
    ENDGAME: (MIDGAME_WEIGHTS, MODE_DISCS),
}


_SHIFTS = np.arange(64, dtype=np.uint64)


# per board class (and start): computed once (a dict, not functools.cache: mypy takes a
# class whose instances are unhashable for an unhashable key)
_FRAMES: dict[type[Board], tuple[int, int, dict[int, int]]] = {}


def scaled(number: int, board: Board | type[Board]) -> int:
    """The paper's move ``number`` (for the 60 moves of 8×8) on ``board``'s geometry:
    ``round(number × (squares − 4) / 60)``, halves up.

    >>> from hasamigo.variants import Board4x4, MiniBoard
    >>> [scaled(n, MiniBoard) for n in (20, 30, 35)], [scaled(n, Board4x4) for n in (20, 30, 35)]
    ([11, 16, 19], [4, 6, 7])
    >>> scaled(20, Board())
    20
    """
    moves = board.square_count() - 4
    return (2 * number * moves + PAPER_MOVES) // (2 * PAPER_MOVES)


def _frame(kind: type[Board]) -> tuple[int, int, dict[int, int]]:
    """The frame's edge squares (mask), its playable corners (mask) and each playable
    corner's star (X-square), for a board class."""
    if kind not in _FRAMES:
        _FRAMES[kind] = _frame_of(kind)
    return _FRAMES[kind]


def _frame_of(kind: type[Board]) -> tuple[int, int, dict[int, int]]:
    playable = kind.playable()
    last_c, last_r = kind.cols - 1, kind.rows - 1
    edges = 0
    for row in range(kind.rows):
        for col in range(kind.cols):
            if row in (0, last_r) or col in (0, last_c):
                edges |= 1 << kind.local_square(col, row)
    corners = 0
    stars: dict[int, int] = {}
    for col, row, dc, dr in ((0, 0, 1, 1), (last_c, 0, -1, 1), (0, last_r, 1, -1),
                             (last_c, last_r, -1, -1)):
        corner = kind.local_square(col, row)
        if not playable >> corner & 1 or kind.cols < 3 or kind.rows < 3:
            continue
        corners |= 1 << corner
        star = kind.local_square(col + dc, row + dr)
        if playable >> star & 1:
            stars[corner] = star
    return edges & playable, corners, stars


def stars(board: Board | type[Board]) -> dict[int, int]:
    """Each playable corner's star (X-square, 星), keyed by the corner.

    >>> from hasamigo.squares import square_name
    >>> sorted((square_name(c), square_name(x)) for c, x in stars(Board()).items())
    [('a1', 'b2'), ('a8', 'b7'), ('h1', 'g2'), ('h8', 'g7')]
    """
    return _frame(board if isinstance(board, type) else type(board))[2]


def corner_mask(board: Board | type[Board]) -> int:
    """The frame's playable corners, as a mask of local squares.

    >>> from hasamigo.squares import square_name
    >>> sorted(square_name(s) for s in range(64) if corner_mask(Board()) >> s & 1)
    ['a1', 'a8', 'h1', 'h8']
    """
    return _frame(board if isinstance(board, type) else type(board))[1]


def square_total(board: Board, color: Color) -> int:
    """The classic table (:data:`MIDGAME_WEIGHTS`) summed over ``color``'s discs minus the
    other side's: a beginner's positional rule of thumb, without search or mobility.

    >>> from hasamigo.move import BLACK
    >>> square_total(Board(), BLACK)
    0
    """
    mine = (np.uint64(board.discs(color)) >> _SHIFTS) & np.uint64(1)
    theirs = (np.uint64(board.discs(color.other)) >> _SHIFTS) & np.uint64(1)
    return int(MIDGAME_WEIGHTS @ (mine.astype(np.int64) - theirs.astype(np.int64)))


def phase(board: Board) -> str:
    """The victory program's phase of ``board`` (on its own frame's edges and corners; the
    empties of the endgame scale as the move numbers do, :func:`scaled`).

    >>> phase(Board())
    'opening'
    """
    edges, corners, _ = _frame(type(board))
    occupied = board.occupied
    if (occupied & corners).bit_count() >= ENDGAME_CORNERS or (
        board.empties.bit_count() <= scaled(ENDGAME_EMPTIES, board)
    ):
        return ENDGAME
    if occupied & edges:
        return MIDGAME
    return OPENING


def _pair(board: Board) -> tuple[int, int, int]:
    return (*board.pair(), board.playable())


def weighted_value(board: Board, depth: int, stage: str | None = None) -> int:
    """Minimax value of ``board`` for the side to move, ``depth`` plies, phase ``stage``
    (default: the board's own phase)."""
    weights, mode = PHASES[stage or phase(board)]
    p, o, mask = _pair(board)
    value, _ = search(np.uint64(p), np.uint64(o), np.uint64(mask), depth, weights,
                      MOBILITY_WEIGHT, mode)
    return int(value)


def static_value(board: Board, stage: str | None = None) -> int:
    """The evaluation of ``board`` for the side to move without search."""
    weights, mode = PHASES[stage or phase(board)]
    p, o, mask = _pair(board)
    return int(_evaluate_entry(np.uint64(p), np.uint64(o), np.uint64(mask), weights,
                               MOBILITY_WEIGHT, mode))


def move_values(board: Board, depth: int = SEARCH_PLIES, stage: str | None = None
                ) -> dict[int, int]:
    """Each legal square's minimax value for the side to move: the move, then ``depth`` - 1
    plies searched in the root's phase."""
    stage = stage or phase(board)
    out: dict[int, int] = {}
    for sq in squares_of(board):
        board.push(Move(sq))
        out[sq] = -weighted_value(board, depth - 1, stage)
        board.pop()
    return out


class VictoryPlayer(Player):
    """The paper's victory-oriented program: 5-ply minimax over weighted squares."""

    name = "victory"
    kernels = Kernels(needs=frozenset({"players"}))  # the weighted-square search

    def __init__(self, *, seed: int | None = None, depth: int = SEARCH_PLIES) -> None:
        super().__init__(seed=seed)
        self.depth = depth
        self.searched = depth  # the plies of the last move's search (fewer when hurried)

    def _values(self, board: Board, clock: Clock | None) -> dict[int, int]:
        """Each legal move's minimax value, :attr:`depth` plies deep; on a clock, only as
        deep (1, 3, 5, ... plies) as the move's budget is expected to allow."""
        if clock is None:
            self.searched = self.depth
            return move_values(board, self.depth)
        timer = MoveTime(clock, board.turn, board.empties.bit_count())
        steps = [*range(1, self.depth + 1, 2)]
        if steps[-1] != self.depth:
            steps.append(self.depth)
        values: dict[int, int] = {}
        done = 0
        cost = 0.0
        for depth in steps:
            if values:
                expected = max(cost, DEEPEN_FLOOR) * DEEPEN_GROWTH ** ((depth - done) / 2)
                if expected > timer.left().target:
                    break
            started = timer.elapsed()
            values = move_values(board, depth)
            cost = timer.elapsed() - started
            done = depth
        self.searched = done
        return values

    def _best(self, board: Board, values: dict[int, int]) -> Move:
        top = max(values.values())
        sq = self.rng.choice(sorted(sq for sq, v in values.items() if v == top))
        self.explain(f"{phase(board)}: best by {self.searched}-ply minimax ({top})")
        return Move(sq)

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        return self._best(board, self._values(board, clock))


def hands_corner(board: Board, sq: int) -> int | None:
    """The corner that playing the star (X-square) ``sq`` makes a legal move for the
    opponent, on ``board``'s own frame."""
    corner = next((c for c, x in stars(board).items() if x == sq), None)
    if corner is None or board.occupied >> corner & 1:
        return None
    board.push(Move(sq))
    try:
        return corner if board.legal_moves_mask() >> corner & 1 else None
    finally:
        board.pop()


def swing_drops(board: Board) -> dict[int, int]:
    """amusement:swing: each legal square's drop of the evaluation without search
    (:func:`static_value` in the root's phase, from the side to move) from ``board`` to the
    position after it: positive when the move makes the mover's evaluation fall at once."""
    stage = phase(board)
    before = static_value(board, stage)
    out: dict[int, int] = {}
    for sq in squares_of(board):
        board.push(Move(sq))
        out[sq] = before + static_value(board, stage)  # after: the opponent's view
        board.pop()
    return out


def expectation_due(board: Board, number: int | None = None) -> bool:
    """Whether the expectation move is due at this turn (the program to move on ``board``,
    not had it yet; ``number``: the move's :func:`move_number`, computed when omitted): in
    the midgame from move :data:`EXPECTATION_FROM` (scaled), with a star move that hands
    the opponent its corner (:func:`hands_corner`).

    >>> expectation_due(Board())
    False
    """
    number = move_number(board) if number is None else number
    if number < scaled(EXPECTATION_FROM, board) or phase(board) != MIDGAME:
        return False
    mask = board.legal_moves_mask()
    return any(mask >> sq & 1 and hands_corner(board, sq) is not None
               for sq in stars(board).values())


def surprise_moves(board: Board | type[Board]) -> tuple[int, int]:
    """The first and last move numbers of the surprise move's window on ``board``'s
    geometry: the paper's 30-35, scaled (:func:`scaled`).

    >>> from hasamigo.variants import MiniBoard
    >>> surprise_moves(Board()), surprise_moves(MiniBoard)
    ((30, 35), (16, 19))
    """
    low, high = SURPRISE_WINDOW
    return scaled(low, board), scaled(high, board)


def in_window(board: Board, number: int, window: str = MIDGAME_WINDOW) -> bool:
    """Whether move ``number`` on ``board`` lies in the surprise ``window``
    (:data:`SURPRISE_WINDOWS`): its moves (:func:`surprise_moves`), and for
    :data:`MIDGAME_WINDOW` (the project's) the midgame phase as well.

    >>> in_window(Board(), 30, MOVES_WINDOW), in_window(Board(), 36, MOVES_WINDOW)
    (True, False)
    """
    if window not in SURPRISE_WINDOWS:
        raise ValueError(f"surprise window {window!r}: expected one of "
                         f"{', '.join(map(repr, SURPRISE_WINDOWS))}")
    low, high = surprise_moves(board)
    return low <= number <= high and (window == MOVES_WINDOW or phase(board) == MIDGAME)


def surprise_due(board: Board, number: int | None = None, rule: str = WORST,
                 window: str = MIDGAME_WINDOW) -> bool:
    """Whether the surprise move is due at this turn (the program to move on ``board``, not
    had it yet; ``number`` as for :func:`expectation_due`): in the ``window``
    (:func:`in_window`), with a choice; for :data:`SWING`, also a sharp swing on offer or
    the window's last turn."""
    number = move_number(board) if number is None else number
    if not (in_window(board, number, window) and board.legal_moves_mask().bit_count() >= 2):
        return False
    high = surprise_moves(board)[1]
    if rule == WORST:
        return True
    return number >= high - 1 or max(swing_drops(board).values()) >= SWING_MIN


def planned_moves_at(board: Board, colour: Color, rule: str = WORST,
                     window: str = MIDGAME_WINDOW) -> tuple[int | None, int | None]:
    """The move numbers (:func:`move_number`) at which ``colour``, playing the amusement
    program with surprise ``rule`` and ``window``, played its expectation move and its
    surprise move in ``board``'s record (``None``: not, or not yet), read from the record
    alone (so a take-back, a reload or a server restart can't make either fire twice, nor
    lose one; and a study reads from it whether the treatment happened).

    Each is due at a turn the rules of :class:`AmusementPlayer` name exactly: the
    expectation move at its first midgame turn from move :data:`EXPECTATION_FROM` with a
    star move that hands over a corner; the surprise move at its first other turn it is
    due (:func:`surprise_due`). So replaying the record with the same rules finds them
    without remembering anything.

    >>> from hasamigo.move import BLACK
    >>> planned_moves_at(Board(), BLACK)
    (None, None)
    """
    work = board.root()
    expectation: int | None = None
    surprise: int | None = None
    for move in board.move_stack:
        if work.turn is colour and not move.is_pass:
            number = move_number(work)
            if expectation is None and expectation_due(work, number):
                expectation = number
            elif surprise is None and surprise_due(work, number, rule, window):
                surprise = number
        work.push(move)
    return expectation, surprise


def planned_moves_done(board: Board, rule: str = WORST, window: str = MIDGAME_WINDOW
                       ) -> tuple[bool, bool]:
    """Whether the side to move on ``board`` has already had its expectation move and its
    surprise move in this game (:func:`planned_moves_at`)."""
    expectation, surprise = planned_moves_at(board, board.turn, rule, window)
    return expectation is not None, surprise is not None


class AmusementPlayer(VictoryPlayer):
    """The paper's amusement-oriented program: victory plus, in the midgame, one
    expectation move (hand the opponent a corner through a star, from move 20) and one
    surprise move (at a move numbered 30-35: the minimax-worst move, or with ``surprise=``
    :data:`SWING` the sharpest swing of the evaluation). ``window``: the surprise move's
    (:data:`SURPRISE_WINDOWS`): :data:`MIDGAME_WINDOW`, the project's reading, unless
    told; :data:`MOVES_WINDOW` is the paper's. Whether each has been played is
    read from the game's record (:func:`planned_moves_done`), never remembered; the kind
    of the last move is :attr:`last_kind` (``normal``, ``expectation``, ``surprise``)."""

    name = "amusement"

    def __init__(self, *, seed: int | None = None, depth: int = SEARCH_PLIES,
                 surprise: str = WORST, window: str = MIDGAME_WINDOW) -> None:
        if surprise not in (WORST, SWING):
            raise ValueError(f"surprise rule {surprise!r}: expected {WORST!r} or {SWING!r}")
        if window not in SURPRISE_WINDOWS:
            raise ValueError(f"surprise window {window!r}: expected one of "
                             f"{', '.join(map(repr, SURPRISE_WINDOWS))}")
        super().__init__(seed=seed, depth=depth)
        self.surprise = surprise
        self.window = window
        self.name = "amusement" + (f":{SWING}" if surprise == SWING else "") + (
            f":{MOVES_WINDOW}" if window == MOVES_WINDOW else "")
        self.expectation_done = False
        self.surprise_done = False

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        self.expectation_done, self.surprise_done = planned_moves_done(board, self.surprise,
                                                                       self.window)
        number = move_number(board)
        values = self._values(board, clock)
        if not self.expectation_done and expectation_due(board, number):
            offers = {sq: c for sq in values if (c := hands_corner(board, sq)) is not None}
            sq = max(offers, key=lambda s: (values[s], -s))
            self.expectation_done = True
            self.explain(f"expectation move: offers the corner {board.square_name(offers[sq])}",
                         EXPECTATION)
            return Move(sq)
        if not self.surprise_done and surprise_due(board, number, self.surprise,
                                                   self.window):
            self.surprise_done = True
            if self.surprise == SWING:
                drops = swing_drops(board)
                sharpest = max(drops.values())
                sq = min(sq for sq, d in drops.items() if d == sharpest)
                self.explain(f"surprise move: the sharpest swing ({sharpest})", SURPRISE)
                return Move(sq)
            worst = min(values.values())
            sq = min(sq for sq, v in values.items() if v == worst)
            self.explain(f"surprise move: minimax-worst ({worst})", SURPRISE)
            return Move(sq)
        return self._best(board, values)


__all__ = [
    "CORNERS",
    "ENDGAME_CORNERS",
    "ENDGAME_EMPTIES",
    "EXPECTATION_FROM",
    "MIDGAME_WEIGHTS",
    "MIDGAME_WINDOW",
    "MOBILITY_WEIGHT",
    "MOVES_WINDOW",
    "OPENING_WEIGHTS",
    "PAPER_WINDOW",
    "SEARCH_PLIES",
    "SURPRISE_WINDOW",
    "SURPRISE_WINDOWS",
    "SWING",
    "SWING_MIN",
    "WINDOW_SOURCE",
    "WORST",
    "AmusementPlayer",
    "VictoryPlayer",
    "expectation_due",
    "hands_corner",
    "in_window",
    "move_number",
    "move_values",
    "phase",
    "planned_moves_at",
    "planned_moves_done",
    "scaled",
    "square_total",
    "stars",
    "static_value",
    "surprise_due",
    "surprise_moves",
    "swing_drops",
    "weighted_value",
]
