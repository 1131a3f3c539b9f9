"""Players over the strong engine: its levels (``engine:N``) and the weakest mode.

From level :data:`BOOK_LEVEL` up, ``engine:N`` plays from the opening book
(:mod:`hasamigo.engine.book`) while the position is in it: the move of best book value
(a random one among equals), which is the search's own move deepened along the lines
people play.

The "weakest Othello AI" (最弱オセロ, 2019) tries to lose: :class:`WeakestPlayer` scores every
move with the engine and plays the one worst for itself, exactly from
:data:`WEAKEST_EXACT_EMPTIES` empties. (The engine's scores assume both sides then play
their best; a search in which the weakest side also keeps losing afterwards would lose by
more, but this is already a reliable loser.) While the engine's kernels are not loaded yet
(a fresh server compiles them for minutes; :attr:`Player.kernels_ready`) it scores the
moves without them, at the same depth and exact from the same empties: by the paper's
weighted-square minimax (:func:`~hasamigo.engine.players.paper.move_values`, a kernel that
compiles in a second) on the 8×8 grid, by the Board API's search
(:mod:`hasamigo.engine.rules_search`) on the 10-column grid; its explanation says which.
Both find the same blunders (corners given away, discs handed over): it loses as surely.

On the small boards (4×4, 6×6) the top level plays perfectly
(:mod:`hasamigo.engine.perfect`): from the table of solved positions shipped for the board
while the game is in it, by solving the position as it plays once few squares are empty.

On boards whose rules the kernels do not know (Nip's, the circular board's ring, 挟み碁's
flip rules: :meth:`Board.rules_beyond_kernels`) ``engine:N`` searches through the Board API
instead (:mod:`hasamigo.engine.rules_search`), at the smaller depths of its levels there.

On a clock both manage their time through :mod:`hasamigo.engine.timing`: a level becomes
"at most this depth, perfect from at most these empties" (the budget may cut it short,
never extend it), except the top level, which only its clock bounds
(:func:`~hasamigo.engine.limits.on_clock`); the weakest mode deepens its search of every
move only as far as the budget allows (exact near the end only when that fits).
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

from hasamigo.board import Board
from hasamigo.engine import MAX_LEVEL, Engine, Limit
from hasamigo.engine.book import Book, default_book
from hasamigo.engine.limits import level as level_of
from hasamigo.engine.limits import on_clock
from hasamigo.engine.players.base import Kernels, Player
from hasamigo.engine.players.paper import ENDGAME, move_values
from hasamigo.engine.rules_search import RULES_LEVELS, RulesSearch
from hasamigo.engine.smallboard import SOLVABLE
from hasamigo.engine.timing import MoveTime
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.game.clock import Clock
from hasamigo.move import Move
from hasamigo.player_spec import PlayerSpec

if TYPE_CHECKING:
    import numpy as np

    from hasamigo.engine.perfect import PerfectPlayer

TABLE_SIZE = 1 << 16
#: the lowest level that plays from the opening book
BOOK_LEVEL = 7
WEAKEST_DEPTH = 4
WEAKEST_EXACT_EMPTIES = 12
#: Without the engine on the 10-column grid (the Board API's search, some hundred times
#: slower): exact from this many empties (8: 0.2 s at most on Grand, 10: 1.5 s), and at
#: most this many seconds a move
WEAKEST_RULES_EXACT_EMPTIES = 8
WEAKEST_RULES_SECONDS = 1.0
#: the weighted-square kernel scores a finished game this many times its disc difference
TERMINAL_SCALE = 1000


def _is_level(value: object) -> bool:
    return (isinstance(value, numbers.Integral) and not isinstance(value, bool)
            and 1 <= int(value) <= MAX_LEVEL)


class EnginePlayer(Player):
    """The strong engine at a level (1 weakest .. :data:`~hasamigo.engine.MAX_LEVEL`); on
    the 10-column grid its levels are :data:`~hasamigo.engine.limits.WIDE_LEVELS` and it
    plays without the book (an 8×8 book)."""

    every_grid = every_rule = True
    kernels = Kernels(needs=frozenset({"engine"}), wide=frozenset({"wide"}))

    @classmethod
    def kernel_groups(cls, variant: type[Board], level: int | None = None
                      ) -> tuple[frozenset[str], frozenset[str]]:
        """Its kernels on ``variant``: none beyond the board's on rules the kernels do not
        know (it searches through the Board API), the small boards' solver too at the top
        level on a board it plays perfectly."""
        if variant.rules_beyond_kernels():
            return frozenset({variant.rules.move_kernels}), frozenset()
        needs, better = super().kernel_groups(variant)
        if level == MAX_LEVEL and variant.name in SOLVABLE:
            needs |= {"smallboard"}
        return needs, better

    def __init__(self, level: int, *, seed: int | None = None,
                 table_size: int = TABLE_SIZE, book: Book | bool = True,
                 threads: int = 1) -> None:
        """``book``: the opening book to play from at levels from :data:`BOOK_LEVEL`
        (``True``: the shipped one, if any; ``False``: none). ``threads``: the engine's
        search threads (its spec ``engine:N@T``; its name says them when more than one)."""
        if not _is_level(level):
            raise InvalidOptionError(f"engine levels run from 1 to {MAX_LEVEL}, not {shown(level)}")
        super().__init__(seed=seed)
        self.level = level
        self.engine = Engine(table_size=table_size, threads=threads)
        self.name = str(PlayerSpec("engine", level=level, threads=threads))
        if level < BOOK_LEVEL or book is False:
            self.book: Book | None = None
        else:
            self.book = default_book() if book is True else book
        #: the perfect players of the small boards, by board (top level only)
        self._perfect: dict[str, PerfectPlayer] = {}

    def _engines(self) -> list[Engine]:
        return [self.engine]

    def use_params(self, params: np.ndarray) -> None:
        """Search with the evaluation ``params`` (the kernel's layout:
        :func:`hasamigo.engine.evaluation.params_from_weights`) instead of the shipped one."""
        self.engine.set_params(params)

    def close(self) -> None:
        for perfect in self._perfect.values():
            perfect.close()

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        if board.rules_beyond_kernels():
            return self._choose_by_rules(board, clock)
        # imported here: the perfect player is a Player (engine.perfect imports this package)
        from hasamigo.engine.perfect import PerfectPlayer, default_table
        from hasamigo.engine.perfect import usable as perfect_knows

        if self.level == MAX_LEVEL and perfect_knows(board):
            name = type(board).name
            perfect = self._perfect.get(name)
            if perfect is None:
                perfect = self._perfect[name] = PerfectPlayer(type(board), default_table(name))
            chosen = perfect.exact(board)
            if chosen is not None:
                move, value, from_table = chosen
                how = "table of solved positions" if from_table else "solved"
                self.explain(f"engine level {self.level}: perfect play ({how}), "
                             f"score {value:+d}")
                return move
        if self.book is not None and board.rules.supports("bitboard"):
            known = self.book.choose(board, self.rng)
            if known is not None:
                how = ("book" if known.in_book else f"book leaf, depth {known.depth}")
                self.explain(f"engine level {self.level}: {how}, score {known.value:+d}")
                return known.move
        if clock is None:
            result = self.engine.play_level(board, self.level)
        else:
            lv = level_of(self.level, board.rules)
            timer = MoveTime(clock, board.turn, board.empties.bit_count(),
                             solve_from=lv.wld_from)
            bounds = on_clock(lv)
            result = self.engine.play_timed(board, timer.left(), depth=bounds.depth,
                                            exact_from=bounds.exact_from,
                                            wld_from=bounds.wld_from,
                                            selectivity=bounds.selectivity)
        a = result.analysis
        how = "exact" if a.exact else f"depth {a.depth}"
        self.explain(f"engine level {self.level}: {how}, score {a.score:+d}")
        return result.move


    def _choose_by_rules(self, board: Board, clock: Clock | None) -> Move:
        lv = RULES_LEVELS[self.level - 1]
        seconds = lv.seconds
        if clock is not None:
            timer = MoveTime(clock, board.turn, board.empties.bit_count(),
                             solve_from=lv.exact_from)
            seconds = max(0.05, min(seconds, timer.left().target))
        result = RulesSearch().best(board, depth=lv.depth, exact_from=lv.exact_from,
                                    seconds=seconds)
        how = "exact" if result.exact else f"depth {result.depth}"
        self.explain(f"engine level {self.level} (searching by the rules of "
                     f"{board.title}): {how}, score {result.score:+d}")
        return result.move


class WeakestPlayer(Player):
    """Tries to lose: the move the engine scores worst for itself (exact near the end);
    while the engine's kernels load (:attr:`kernels_ready`), the move the paper's weighted
    squares (8×8 grid) or the Board API's search (10-column grid) score worst."""

    name = "weakest"
    every_grid = True  # the same engine, on any grid
    kernels = Kernels(needs=frozenset({"players"}), better=frozenset({"engine"}),
                      better_wide=frozenset({"wide"}))

    def __init__(self, *, seed: int | None = None, table_size: int = TABLE_SIZE) -> None:
        super().__init__(seed=seed)
        self.engine = Engine(table_size=table_size)

    def _engines(self) -> list[Engine]:
        return [self.engine]

    def engine_loaded(self, board: Board) -> bool:
        """Whether the engine's kernels for ``board``'s grid are loaded (always, unless a
        front end loading them in the background says otherwise)."""
        ready = self.kernels_ready
        return ready is None or ready(board.rules.search_kernels)

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        if not self.engine_loaded(board):
            if board.rules.supports("bitboard"):
                return self._choose_by_squares(board, clock)
            return self._choose_by_rules(board, clock)
        empties = board.empties.bit_count()
        exact = empties <= WEAKEST_EXACT_EMPTIES
        depth = empties if exact else WEAKEST_DEPTH
        if clock is None:
            lines = self.engine.hints(board, Limit(depth=depth))
        else:
            budget = MoveTime(clock, board.turn, empties,
                              solve_from=WEAKEST_EXACT_EMPTIES).left()
            n = max(1, len(board.legal_moves))
            a = self.engine.analyse(board, Limit(depth=1 if budget.urgent else depth),
                                    multipv=n, budget=None if budget.urgent else budget)
            if a.depth == 0:  # stopped before one iteration: the one-ply scores at once
                a = self.engine.analyse(board, Limit(depth=1), multipv=n)
            lines = list(a.lines)
            exact, depth = a.exact, a.depth
        worst = min(line.score for line in lines)
        moves = sorted((line.move for line in lines if line.score == worst),
                       key=lambda m: -1 if m.square is None else m.square)
        move = self.rng.choice(moves)
        self.explain(f"weakest: worst for itself ({'exact' if exact else f'depth {depth}'}, "
                     f"{worst:+d})")
        return move

    def _urgent(self, board: Board, clock: Clock | None, solve_from: int) -> bool:
        return clock is not None and MoveTime(clock, board.turn, board.empties.bit_count(),
                                              solve_from=solve_from).left().urgent

    def _worst(self, scores: dict[Move, int]) -> tuple[Move, int]:
        worst = min(scores.values())
        moves = sorted((m for m, v in scores.items() if v == worst),
                       key=lambda m: -1 if m.square is None else m.square)
        return self.rng.choice(moves), worst

    def _choose_by_squares(self, board: Board, clock: Clock | None) -> Move:
        """Without the engine, 8×8 grid: each move scored by the paper's weighted-square
        minimax, :data:`WEAKEST_DEPTH` plies, exact (discs) from
        :data:`WEAKEST_EXACT_EMPTIES` empties (0.2 s at most at 12 empties)."""
        empties = board.empties.bit_count()
        exact = empties <= WEAKEST_EXACT_EMPTIES
        if self._urgent(board, clock, WEAKEST_EXACT_EMPTIES):
            exact, depth = False, 1
        else:
            depth = empties if exact else WEAKEST_DEPTH
        values = move_values(board, depth, ENDGAME if exact else None)
        scores = {Move(sq): v // TERMINAL_SCALE if exact else v for sq, v in values.items()}
        move, worst = self._worst(scores)
        how = "exact, discs" if exact else f"depth {depth}, weighted squares"
        self.explain(f"weakest: worst for itself ({how}, {worst:+d}; by the paper's "
                     "weighted squares while the engine is being prepared)")
        return move

    def _choose_by_rules(self, board: Board, clock: Clock | None) -> Move:
        """Without the engine, 10-column grid: each move scored by the Board API's search
        (:class:`~hasamigo.engine.rules_search.RulesSearch`), :data:`WEAKEST_DEPTH` plies
        within :data:`WEAKEST_RULES_SECONDS`, exact from
        :data:`WEAKEST_RULES_EXACT_EMPTIES` empties."""
        empties = board.empties.bit_count()
        seconds = WEAKEST_RULES_SECONDS
        if clock is not None:
            timer = MoveTime(clock, board.turn, empties,
                             solve_from=WEAKEST_RULES_EXACT_EMPTIES)
            seconds = max(0.05, min(seconds, timer.left().target))
        lines, depth, exact = RulesSearch().scores(
            board, list(board.legal_moves), depth=WEAKEST_DEPTH,
            exact=empties <= WEAKEST_RULES_EXACT_EMPTIES, seconds=seconds)
        move, worst = self._worst(dict(lines))
        how = "exact" if exact else f"depth {depth}"
        self.explain(f"weakest: worst for itself ({how}, {worst:+d}; by the board's own "
                     "search while the engine is being prepared)")
        return move
