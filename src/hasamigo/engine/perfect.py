"""Perfect play on the small boards: a table of solved positions for the opening, the
exact solver of :mod:`hasamigo.engine.smallboard` beyond it.

Solving a 6×6 position exactly takes minutes with 30 empties, a few seconds with 22 and
well under a second with 20. So the player of the small boards (``engine:top``, see
:class:`~hasamigo.engine.players.strong.EnginePlayer`) reads its move from a
:class:`PerfectTable` while the position is in it, and solves each position exactly as it
plays once it has at most :data:`LIVE_EMPTIES` empties.

The table holds the positions the player can meet when it plays the table's moves and its
opponent plays anything: for each colour, every position with the player to move within
the table's first ``plies`` plies, each with a move that keeps **the board's solved value
for that colour** (6×6: Black loses by at most 4, White wins by at least 4). That is perfect
play in the sense of the solved game: the result perfect play secures is never given away.
After an opponent's mistake in the opening the table keeps that result, not every disc the
mistake offered (exact values of such positions cost as much as solving the board again:
3 G nodes for one 30-empty position); once the live solver takes over it plays the exact
best move of every position, mistakes included. Each entry costs one null-window test
per move tried, all at the same bound, so the solver's table serves them all.

:func:`build_table` writes it from scratch with the small-board solver from the start
position's exact value. Positions are stored by canonical key
(:func:`~hasamigo.engine.symmetry.canonical`: the small boards are centred in the 8×8 grid, so
its eight symmetries are theirs) and the move in the key's frame.
"""

from __future__ import annotations

import functools
import os
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources

import numpy as np

from hasamigo._kernels.smallboard import PASS_MOVE
from hasamigo.board import Board
from hasamigo.engine.book import save_npz
from hasamigo.engine.players.base import Kernels, Player
from hasamigo.engine.smallboard import SOLVABLE, SmallSolver, solvable
from hasamigo.engine.symmetry import SQUARE_IMAGE, SQUARE_PREIMAGE, canonical
from hasamigo.errors import InvalidOptionError, ParseError, shown
from hasamigo.game.clock import Clock
from hasamigo.move import PASS, Move

FORMAT = "hasamigo-perfect-1"
#: the tables shipped with the package, by board (the 4×4 board needs none: it solves in
#: a blink from its start)
DEFAULT_TABLES = {"6x6": "data/perfect-6x6.npz"}
#: the plies a shipped table covers (``hasamigo solve-board 6x6 --table FILE``)
DEFAULT_PLIES = {"6x6": 9}
#: beyond its table, the player solves positions with at most this many empties as it plays
LIVE_EMPTIES = 22
#: table rows of the solver the player keeps (24 MB)
LIVE_TABLE_ROWS = 1 << 20

Progress = Callable[[str], None]


def _key(p: int, o: int) -> tuple[int, int, int]:
    cp, co, k = canonical(np.array([p], dtype=np.uint64), np.array([o], dtype=np.uint64))
    return int(cp[0]), int(co[0]), int(k[0])


@dataclass(frozen=True, slots=True)
class Entry:
    """A solved position: a ``value`` it is worth at least (discs, side to move's view,
    empties to the winner; exact at the start) and a ``move`` that keeps it (a square of
    the position as asked, or :data:`~hasamigo._kernels.smallboard.PASS_MOVE`)."""

    value: int
    move: int


class PerfectTable:
    """Solved positions of one small board by canonical key (see the module docstring)."""

    def __init__(self, board: str, plies: int,
                 entries: dict[tuple[int, int], tuple[int, int]] | None = None) -> None:
        self.board = board
        self.plies = plies
        #: canonical key -> (value, move in the key's frame)
        self.entries: dict[tuple[int, int], tuple[int, int]] = dict(entries or {})

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, p: int, o: int) -> Entry | None:
        """The entry of the position (``p`` to move), its move turned back to this frame."""
        cp, co, k = _key(p, o)
        found = self.entries.get((cp, co))
        if found is None:
            return None
        value, move = found
        return Entry(value, int(SQUARE_PREIMAGE[k, move]))

    def put(self, p: int, o: int, value: int, move: int) -> None:
        cp, co, k = _key(p, o)
        self.entries[(cp, co)] = (value, int(SQUARE_IMAGE[k, move]))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the table (``.npz``) atomically: a reader, or a build interrupted while
        it writes, sees the old file or the new one."""
        keys = sorted(self.entries)
        save_npz(
            path, format=np.array(FORMAT), board=np.array(self.board),
            plies=np.array(self.plies),
            player=np.array([k[0] for k in keys], dtype=np.uint64),
            opponent=np.array([k[1] for k in keys], dtype=np.uint64),
            value=np.array([self.entries[k][0] for k in keys], dtype=np.int8),
            move=np.array([self.entries[k][1] for k in keys], dtype=np.int8))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PerfectTable:
        """Read a table written by :meth:`save`; :class:`ParseError` if it is not one."""
        name = str(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                if "format" not in data or str(data["format"]) != FORMAT:
                    raise ParseError(f"not a table of solved positions (expected format "
                                     f"{FORMAT})", source=name)
                board, plies = str(data["board"]), int(data["plies"])
                player, opponent = data["player"], data["opponent"]
                value, move = data["value"].astype(np.int64), data["move"].astype(np.int64)
        except (OSError, ValueError, KeyError) as exc:
            raise ParseError(f"cannot read the table: {exc}", source=name) from None
        if board not in SOLVABLE:
            raise ParseError(f"the table is for {shown(board)}, not a board of "
                             f"{', '.join(SOLVABLE)}", source=name)
        if not len(player) == len(opponent) == len(value) == len(move):
            raise ParseError("the table's columns differ in length", source=name)
        playable = np.uint64(solvable(board).playable())
        if (np.any(np.abs(value) > 64) or np.any((move < 0) | (move > PASS_MOVE))
                or np.any(player & opponent) or np.any((player | opponent) & ~playable)):
            raise ParseError("the table holds a value, a square or a position out of range",
                             source=name)
        entries = {(int(a), int(b)): (int(v), int(m))
                   for a, b, v, m in zip(player, opponent, value, move, strict=True)}
        return cls(board, plies, entries)


@functools.cache
def default_table(board: str) -> PerfectTable | None:
    """The table shipped for ``board``, or ``None`` if this installation has none."""
    name = DEFAULT_TABLES.get(board)
    if name is None:
        return None
    ref = resources.files("hasamigo").joinpath(name)
    if not ref.is_file():
        return None
    with resources.as_file(ref) as path:
        return PerfectTable.load(path)


def _as_move(sq: int) -> Move:
    return PASS if sq == PASS_MOVE else Move(sq)


def keeping_move(solver: SmallSolver, p: int, o: int, value: int) -> int:
    """A move of ``(p, o)`` that keeps at least ``value`` (at most the position's exact
    value; with it, a best move): one null-window test per move tried, in the solver's
    order."""
    children = solver._all_children(p, o)
    if len(children) == 1:
        return children[0][0]
    for sq, cp, co in children:
        if solver.test(cp, co, 1 - value) <= -value:
            return sq
    raise RuntimeError("no move keeps the value: the position is worth less")  # pragma: no cover


def build_table(variant: type[Board], plies: int, *, solver: SmallSolver,
                table: PerfectTable | None = None, start_value: int | None = None,
                progress: Progress | None = None,
                checkpoint: Callable[[PerfectTable], None] | None = None) -> PerfectTable:
    """Solve every position the perfect player can meet with itself to move within the
    first ``plies`` plies of ``variant`` (either colour), into ``table`` (positions already
    in it are not solved again, so an interrupted build resumes): a move keeping the start's
    value (``start_value``, Black's view: solved first when not given) for the colour to
    move. ``checkpoint`` is called with the table after each new position."""
    if variant.name not in SOLVABLE:
        raise InvalidOptionError(f"perfect tables are for {' and '.join(SOLVABLE)}, "
                                 f"not {shown(variant.name)}")
    if table is None:
        table = PerfectTable(variant.name, plies)
    elif table.board != variant.name:
        raise InvalidOptionError(f"the table is for {table.board}, not {variant.name}")
    table.plies = max(table.plies, plies)
    p, o = variant().pair()
    root = table.get(p, o)
    if start_value is None:
        start_value = root.value if root is not None else solver.value(p, o, progress=progress)
    # (position, its ply, the value to keep): the player as Black starts at the root, as
    # White after each first move of Black
    todo: deque[tuple[int, int, int, int]] = deque([(p, o, 0, start_value)])
    todo.extend((cp, co, 1, -start_value) for _, cp, co in solver._children(p, o))
    done: set[tuple[int, int]] = set()
    while todo:
        p, o, ply, keep = todo.popleft()
        cp, co, _ = _key(p, o)
        if (cp, co) in done or not solver._all_children(p, o):
            continue
        done.add((cp, co))
        entry = table.get(p, o)
        if entry is None or entry.value < keep:  # (met by the other colour too: passes)
            if progress is not None:
                progress(f"ply {ply}: position {len(done)}, {len(table)} solved")
            move = keeping_move(solver, p, o, keep)
            table.put(p, o, keep, move)
            if checkpoint is not None:
                checkpoint(table)
            entry = Entry(keep, move)
        if ply + 2 > plies:
            continue
        # the player's move, then every reply (one of each set that are one position turned)
        np_, no = _after(solver, p, o, entry.move)
        for _, rp, ro in solver._children(np_, no):
            todo.append((rp, ro, ply + 2, keep))
    return table


def _after(solver: SmallSolver, p: int, o: int, move: int) -> tuple[int, int]:
    for sq, cp, co in solver._all_children(p, o):
        if sq == move:
            return cp, co
    raise RuntimeError(f"move {move} is not legal here")  # pragma: no cover


class PerfectPlayer(Player):
    """Moves that keep the exact value of small-board positions: from ``table`` while the
    position is in it, else from the solver when at most :data:`LIVE_EMPTIES` squares are
    empty. :meth:`exact` says ``None`` beyond both (the engine's top level then plays
    some other way); as a :class:`~hasamigo.engine.players.Player`, :meth:`choose` plays a
    random legal move there, saying so."""

    name = "perfect"
    kernels = Kernels(needs=frozenset({"smallboard"}))

    def __init__(self, variant: type[Board], table: PerfectTable | None, *,
                 threads: int = 2, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.variant = variant
        self.table = table
        self.threads = threads
        self._solver: SmallSolver | None = None

    def close(self) -> None:
        if self._solver is not None:
            self._solver.close()
            self._solver = None

    @property
    def solver(self) -> SmallSolver:
        if self._solver is None:
            self._solver = SmallSolver(self.variant, threads=self.threads,
                                       table_rows=LIVE_TABLE_ROWS)
        return self._solver

    def exact(self, board: Board) -> tuple[Move, int, bool] | None:
        """``(move, value, from the table?)`` (the value exact when solved live, kept at
        least when from the table), or ``None`` (see the class)."""
        p, o = board.pair()
        if self.table is not None:
            entry = self.table.get(p, o)
            if entry is not None:
                return _as_move(entry.move), entry.value, True
        if board.empties.bit_count() > LIVE_EMPTIES:
            return None
        value = self.solver.value(p, o, guess=self._guess(board))
        return _as_move(keeping_move(self.solver, p, o, value)), value, False

    def check_board(self, variant: type[Board]) -> None:
        if variant is not self.variant:
            raise InvalidOptionError(f"this perfect player plays {self.variant.title}, "
                                     f"not {variant.title}")
        super().check_board(variant)

    def _choose(self, board: Board, clock: Clock | None) -> Move:
        chosen = self.exact(board)
        if chosen is None:
            self.explain("beyond the table and the live solver: a random legal move")
            return self.rng.choice(list(board.legal_moves))
        move, value, from_table = chosen
        how = "table of solved positions" if from_table else "solved"
        self.explain(f"perfect play ({how}), score {value:+d}")
        return move

    def _guess(self, board: Board) -> int:
        """The value the table keeps, from the nearest earlier position in it, from the side
        to move's view: with good play on both sides it is the position's value too."""
        if self.table is None:
            return 0
        for earlier, turn in _history(board):
            entry = self.table.get(*earlier.pair())
            if entry is not None:
                return entry.value if turn is board.turn else -entry.value
        return 0


def _history(board: Board) -> Iterator[tuple[Board, object]]:
    """The earlier positions of ``board``'s game, latest first."""
    walk = board.copy()
    while walk.move_stack:
        walk.pop()
        yield walk, walk.turn


def usable(board: Board) -> bool:
    """Whether ``board`` is a small board the perfect player knows: a solvable board with
    its usual rules (no disc limit, no placement phase)."""
    return (type(board).name in SOLVABLE and board.disc_limit is None
            and not board.in_placement_phase())
