"""The one interface every player shares: a name, ``choose``, and why it chose.

>>> from hasamigo import Board
>>> from hasamigo.engine.players import make_player
>>> player = make_player("greedy", seed=1)
>>> board = Board()
>>> move = player.choose(board)
>>> board.ply, board.is_legal(move)
(0, True)
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from hasamigo.board import Board
from hasamigo.errors import InvalidOptionError, InvalidPositionError
from hasamigo.game.clock import Clock
from hasamigo.move import PASS, Move
from hasamigo.squares import (
    A1,
    A2,
    A7,
    A8,
    B1,
    B2,
    B7,
    B8,
    BB_ALL,
    G1,
    G2,
    G7,
    G8,
    H1,
    H2,
    H7,
    H8,
    bits,
)

if TYPE_CHECKING:
    from hasamigo.engine.core import Engine

#: Kinds of choice a player may declare; the last three are planned gifts to the opponent.
NORMAL = "normal"
FORCED = "forced"
EXPECTATION = "expectation"
SURPRISE = "surprise"
GIFT = "gift"
GIFT_KINDS = frozenset({EXPECTATION, SURPRISE, GIFT})

CORNERS = (A1, H1, A8, H8)
#: X-squares ("stars", 星): the diagonal neighbour of each corner, keyed by its corner.
X_SQUARES = {A1: B2, H1: G2, A8: B7, H8: G7}
#: C-squares: the edge neighbours of each corner.
C_SQUARES = {A1: (B1, A2), H1: (G1, H2), A8: (A7, B8), H8: (G8, H7)}
EDGES = BB_ALL & ~0x007E7E7E7E7E7E00


_START_DISCS: dict[tuple[type[Board], str, int], int] = {}


def _start_discs(kind: type[Board], start: str, handicap: int) -> int:
    key = (kind, start, handicap)
    if key not in _START_DISCS:
        _START_DISCS[key] = kind(start=start, handicap=handicap).occupied.bit_count()
    return _START_DISCS[key]


def move_number(board: Board) -> int:
    """The number of the move about to be played: the moves played since the game's start,
    passes excepted, plus 1.

    Every move but a pass places one disc, so this is the discs on the board minus those of
    the start (:attr:`Board.start`, :attr:`Board.handicap`), plus 1. A board set up from a
    string counts from its variant's usual start, as if every disc beyond it had been
    played (which it must have been, barring a handicap).

    >>> board = Board()
    >>> move_number(board)
    1
    >>> _ = board.play("f5"); move_number(board)
    2
    >>> move_number(Board(handicap=2))  # the corner discs are not moves
    1
    """
    return board.occupied.bit_count() - _start_discs(type(board), board.start,
                                                     board.handicap) + 1



@dataclass(frozen=True, slots=True)
class Kernels:
    """The compiled kernel groups (:data:`hasamigo._kernels.warm.GROUPS`) a player's
    moves use, beyond the board's own (``rules``; ``wide-rules`` on the 10-column grid):
    ``needs`` on boards within the 8×8 grid, ``wide`` on the 10-column grid; ``better``
    and ``better_wide``: groups it plays with once they are loaded and without meanwhile
    (Weakest: the engine). A server that compiles the kernels in the background lets a
    program move once its needs are loaded (:func:`hasamigo.engine.players.program_kernels`
    reads this, without making the player)."""

    needs: frozenset[str] = frozenset()
    wide: frozenset[str] = frozenset()
    better: frozenset[str] = frozenset()
    better_wide: frozenset[str] = frozenset()


class Player(ABC):
    """A player: ``choose(board)`` returns a legal move (PASS when forced) without changing
    ``board``. ``last_reason`` explains the last choice in words; ``last_kind`` classifies it
    (:data:`NORMAL`, :data:`FORCED`, or a planned gift: :data:`EXPECTATION`,
    :data:`SURPRISE`, :data:`GIFT`). A player keeps state within a game; :meth:`new_game`
    resets it (players also reset by themselves when they see a shorter game than before).

    The one player type of the package, the terminal and the web app (a program of
    :data:`hasamigo.engine.players.PROGRAMS`, an external engine, the small boards'
    :class:`~hasamigo.engine.perfect.PerfectPlayer`). An ABC rather than a
    ``typing.Protocol``: :meth:`choose` is a template that every program must go through
    (the board checked against what it plays, the forced pass, a shorter game resetting
    it, the answer checked legal) and :attr:`kernels` is read from the class without
    making a player; a protocol would describe ``choose`` but let a program skip all that.
    Front ends only call ``choose`` (and ``cancel``/``close``), so a test's stand-in with
    just ``choose`` still plays.
    """

    name: str = "player"
    #: Whether it plays boards beyond the 8×8 grid (the 10×10 grid of Grand Othello and
    #: its shapes): players that use only the :class:`Board` API, and the engine.
    every_grid: bool = False
    #: Whether it plays rules the search kernels do not know (Nip's placing anywhere when
    #: both sides are blocked, a ring's flips, 挟み碁's flip rules ``"one"`` and
    #: ``"choose"`` and its capture, Fairy Othello's words:
    #: :meth:`Board.rules_beyond_kernels`): players that use nothing but
    #: the :class:`Board` API (and choose the discs they turn), and the engine, which
    #: then searches through that API.
    every_rule: bool = False
    #: The kernel groups its moves use (see :class:`Kernels`): none beyond the board's.
    kernels: ClassVar[Kernels] = Kernels()

    @classmethod
    def kernel_groups(cls, variant: type[Board]) -> tuple[frozenset[str], frozenset[str]]:
        """``(needed, better)``: the kernel groups its moves on ``variant`` need, the
        board's own included, and those it plays better with once they are loaded."""
        if variant.rules.supports("bitboard"):
            return frozenset({"rules"}) | cls.kernels.needs, cls.kernels.better
        return frozenset({"wide-rules"}) | cls.kernels.wide, cls.kernels.better_wide

    def check_board(self, variant: type[Board]) -> None:
        """Refuse, with :class:`~hasamigo.errors.InvalidOptionError`, a board this player
        cannot play (before a game starts, so that nothing is stored for it)."""
        if not variant.rules.supports("bitboard") and not self.every_grid:
            raise InvalidOptionError(
                f"{self.name} plays only boards within the 8×8 grid, not {variant.title}; "
                "on that board play against random, greedy or the engine")
        rules = variant.rules_beyond_kernels()
        if rules and not self.every_rule:
            raise InvalidOptionError(
                f"{self.name} does not know {' nor '.join(rules)}; "
                f"on {variant.title} play against random or greedy")

    def __init__(self, *, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.last_reason: str | None = None
        self.last_kind: str = NORMAL
        self._last_ply = -1
        #: Which kernel groups are loaded, when a front end loads them in the background
        #: (the web app): a player with ``better`` kernels (:class:`Kernels`) plays
        #: without them until they are. ``None``: every group compiles at its first use.
        self.kernels_ready: Callable[[str], bool] | None = None

    @property
    def last_ply(self) -> int:
        """The ply (moves played before it) of the position it last chose at; -1: none
        this game. ``last_kind`` and ``last_reason`` are about that choice."""
        return self._last_ply

    def new_game(self) -> None:
        """Forget everything about the game in progress."""
        self._last_ply = -1

    def choose(self, board: Board, clock: Clock | None = None) -> Move:
        """The move to play on ``board`` (never modified); PASS when it is forced."""
        self.check_board(type(board))
        if board.ply <= self._last_ply:
            self.new_game()
        self._last_ply = board.ply
        if not board.legal_moves_mask():
            if board.is_game_over():
                raise InvalidPositionError("the game is over: there is no move to choose")
            self.last_reason, self.last_kind = "no legal move: pass", FORCED
            return PASS
        work = board.copy()
        move = self._choose(work, clock)
        if not board.is_legal(move):  # pragma: no cover - a bug in a player
            raise RuntimeError(f"{self.name} chose the illegal move {move} on {board!r}")
        return move

    def cancel(self) -> None:
        """Stop a choice in progress in another thread as soon as possible, and any later
        one until :meth:`resume`; the caller throws the answer (or the error) away."""
        for engine in self._engines():
            engine.cancel()

    def resume(self) -> None:
        """Let choices run normally again after :meth:`cancel`."""
        for engine in self._engines():
            engine.resume()

    def close(self) -> None:
        """Let go of what the player holds outside this process (an external engine's
        process); it is taken again if the player moves again. Nothing for most players."""
        return None

    def _engines(self) -> list[Engine]:
        """The engines this player searches with (players that only search a few plies
        by the weighted-square kernel have none: they finish in milliseconds)."""
        return []

    @abstractmethod
    def _choose(self, board: Board, clock: Clock | None) -> Move:
        """Choose among the legal moves of ``board`` (a copy; there is at least one)."""

    def explain(self, text: str, kind: str = NORMAL) -> None:
        self.last_reason, self.last_kind = text, kind

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


@dataclass(frozen=True, slots=True)
class Choice:
    """One move of a game as a player chose it: the move and the player's explanation."""

    move: Move
    reason: str | None
    kind: str


def squares_of(board: Board) -> list[int]:
    """The squares of the side to move's legal moves, in index order."""
    return list(bits(board.legal_moves_mask()))
