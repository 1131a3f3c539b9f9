"""The opening book: the openings people play, each move valued by our own search.

How a book is made (``hasamigo book build``, then ``hasamigo book deepen``):

1. **The tree.** Every position reached in the first ``plies`` moves of the standard-start
   8×8 games of game archives (WTHOR), counted once per game, under any of the board's
   eight symmetries (:func:`canonical`: one key for all symmetric forms), and kept when at
   least ``min_games`` games went through it. Every game through a position went through
   the positions before it, so the kept positions hang together from the start.
2. **The leaves.** At a kept position the *book moves* are those leading to a kept
   position; the best of the other moves, the *leaf*, is found by a search of
   ``depth`` plies among only those moves (:meth:`Engine.analyse` with ``among``), with its
   score. A position whose every move is a book move has no leaf.
3. **Negamax** (:meth:`Book.propagate`): a position's value is the best of its leaf's
   score and minus the value of each book move's position, from the deepest positions up,
   as Edax's and Egaroucid's books are valued. The values are disc differences for the
   side to move.
4. **Deepening** (:func:`expand`): where the leaf is its position's best move (our search
   prefers a move the players did not play often enough to be kept), the leaf's position
   joins the book with its own leaf searched, and the values are carried up again: the
   book grows along the lines it recommends. :func:`search_leaves` with a greater depth
   searches the leaves again more deeply. Both resume: a leaf searched at the requested
   depth is not searched again, and the builder saves the book as it goes.

The leaves are searched here one after the other, or by any ``search`` given: the jobs
runner's workers (:func:`hasamigo.jobs.book.leaf_searcher`, ``hasamigo book build
--workers N``), each a process that keeps one engine (:func:`search_leaf`).

A book is stored compactly (:meth:`Book.save`, ``.npz``): per position its canonical key
(two 64-bit words), value, leaf square and score, the leaf's search depth and the number
of games, 24 bytes a position.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from hasamigo._kernels.moves import legal_moves_mask
from hasamigo._kernels.search import child_position
from hasamigo.board import Board
from hasamigo.engine.core import Engine
from hasamigo.engine.limits import Limit
from hasamigo.engine.symmetry import (  # the book's keys: these symmetries (re-exported)
    PASS_SQUARE,  # the leaf or a move is a pass (the side to move has no move)
    SQUARE_IMAGE,
    SQUARE_PREIMAGE,
    canonical,
    image,
    inverse,
    preimage,
)
from hasamigo.errors import InvalidOptionError, ParseError
from hasamigo.move import BLACK, PASS, Move
from hasamigo.notation.record import GameRecord
from hasamigo.squares import bits

__all__ = [
    "DEFAULT_BOOK", "FORMAT", "FULL", "NO_LEAF", "PASS_SQUARE", "PLAYABLE", "SQUARE_IMAGE",
    "SQUARE_PREIMAGE", "UNSEARCHED", "Book", "BookMove", "BookStats", "LeafJob", "LeafSearch",
    "Progress", "canonical", "default_book", "expand", "image", "inverse", "key_of",
    "preimage", "save_npz", "search_leaf", "search_leaves", "tree_from_records", "usable",
]

FORMAT = "hasamigo-book-1"
NO_LEAF = -1  # every move of the position is a book move
UNSEARCHED = -2  # not known yet: the position's leaf is still to be searched
FULL = (1 << 64) - 1
PLAYABLE = np.uint64(FULL)
#: the default book, shipped with the package (see ``hasamigo book stats``)
DEFAULT_BOOK = "data/book.npz"

def save_npz(path: str | os.PathLike[str], **arrays: np.ndarray) -> None:
    """Write ``arrays`` to ``path`` (compressed ``.npz``) atomically: a reader, or a
    writer interrupted half-way, sees the old file or the new one, never half of one."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)


def key_of(board: Board) -> tuple[int, int]:
    """The book key of ``board``'s position (side to move first, canonical)."""
    p, o = board.pair()
    return _key(p, o)[:2]


def _key(p: int, o: int) -> tuple[int, int, int]:
    cp, co, k = canonical(np.array([p], dtype=np.uint64), np.array([o], dtype=np.uint64))
    return int(cp[0]), int(co[0]), int(k[0])


def _moves(p: int, o: int) -> list[int]:
    """The squares the side to move may play (``[PASS_SQUARE]`` if it must pass, ``[]``
    if the game is over)."""
    legal = int(legal_moves_mask(np.uint64(p), np.uint64(o), PLAYABLE))
    if legal:
        return list(bits(legal))
    if int(legal_moves_mask(np.uint64(o), np.uint64(p), PLAYABLE)):
        return [PASS_SQUARE]
    return []


def _child(p: int, o: int, sq: int) -> tuple[int, int]:
    """The position (side to move first) after ``sq`` is played."""
    cp, co = child_position(np.uint64(p), np.uint64(o), sq)
    return int(cp), int(co)


def _final(p: int, o: int) -> int:
    """The official final score (disc difference, empties to the winner) of a finished
    game, for the side to move."""
    mine, theirs = p.bit_count(), o.bit_count()
    empties = 64 - mine - theirs
    if mine > theirs:
        return mine - theirs + empties
    if mine < theirs:
        return mine - theirs - empties
    return 0


def usable(board: Board) -> bool:
    """Whether a book of the standard 8×8 game applies to ``board``."""
    return (type(board) is Board and board.disc_limit is None
            and not board.in_placement_phase())


@dataclass(frozen=True, slots=True)
class BookMove:
    """A move of a book position, in the board's own orientation: its value for the side
    to move (discs), the games that played it (0 for the leaf) and whether it leads to a
    book position (``False``: the leaf, valued by a search of ``depth`` plies; ``depth``
    is 0 for a book move)."""

    move: Move
    value: int
    games: int
    in_book: bool
    depth: int


@dataclass(frozen=True, slots=True)
class BookStats:
    positions: int
    games_at_start: int
    leaves: int
    unsearched: int
    depths: dict[int, int]
    by_discs: dict[int, int]
    start_value: int | None
    source: str


class Book:
    """Book positions by canonical key, with values; see the module docstring."""

    def __init__(self, player: np.ndarray, opponent: np.ndarray, games: np.ndarray, *,
                 value: np.ndarray | None = None, leaf: np.ndarray | None = None,
                 leaf_value: np.ndarray | None = None, depth: np.ndarray | None = None,
                 source: str = "") -> None:
        order = np.lexsort((opponent, player))
        self.player = np.asarray(player, dtype=np.uint64)[order]
        self.opponent = np.asarray(opponent, dtype=np.uint64)[order]
        self.games = np.asarray(games, dtype=np.uint32)[order]
        n = len(self.player)

        def column(a: np.ndarray | None, fill: int, dtype: Any) -> np.ndarray:
            return (np.full(n, fill, dtype=dtype) if a is None
                    else np.asarray(a, dtype=dtype)[order])

        self.value = column(value, 0, np.int8)
        self.leaf = column(leaf, UNSEARCHED, np.int8)
        self.leaf_value = column(leaf_value, 0, np.int8)
        self.depth = column(depth, 0, np.uint8)
        self.source = source
        self._index = {(int(a), int(b)): i
                       for i, (a, b) in enumerate(zip(self.player, self.opponent, strict=True))}

    def __len__(self) -> int:
        return len(self.player)

    def __contains__(self, board: object) -> bool:
        return isinstance(board, Board) and usable(board) and key_of(board) in self._index

    def index(self, p: int, o: int) -> int | None:
        """The row of the position (side to move ``p``) if it is in the book."""
        cp, co, _ = _key(p, o)
        return self._index.get((cp, co))

    # ---- reading ----------------------------------------------------------------------
    def moves(self, board: Board) -> list[BookMove]:
        """The book's moves at ``board``, best first (``[]`` when it is not in the book):
        each move leading to a book position, valued by that position, and the leaf."""
        if not usable(board):
            return []
        p, o = board.pair()
        cp, co, k = _key(p, o)
        row = self._index.get((cp, co))
        if row is None:
            return []
        out = []
        for sq in _moves(p, o):
            child = self.index(*_child(p, o, sq))
            if child is not None:
                out.append(BookMove(_as_move(sq), -int(self.value[child]),
                                    int(self.games[child]), True, 0))
        leaf = int(self.leaf[row])
        if leaf >= 0 and self.depth[row] > 0:
            sq = int(SQUARE_PREIMAGE[k, leaf])
            out.append(BookMove(_as_move(sq), int(self.leaf_value[row]), 0, False,
                                int(self.depth[row])))
        out.sort(key=lambda m: (-m.value, -m.games, m.move.square or 0))
        return out

    def value_of(self, board: Board) -> int | None:
        """The book's value of ``board`` for the side to move, if it is a book position."""
        if not usable(board):
            return None
        row = self._index.get(key_of(board))
        return None if row is None else int(self.value[row])

    def choose(self, board: Board, rng: Any, *, margin: int = 0) -> BookMove | None:
        """A move within ``margin`` discs of the book's best at ``board`` (a random one of
        them, by ``rng``), or ``None`` when the position is not in the book."""
        moves = self.moves(board)
        if not moves:
            return None
        best = moves[0].value
        near = [m for m in moves if m.value >= best - margin]
        pick: BookMove = rng.choice(near)
        return pick

    def lines(self, plies: int, *, margin: int | None = None) -> list[tuple[Move, ...]]:
        """Openings for self-play: one line of ``plies`` book moves from the standard start
        to each book position that far in (a position reached by several move orders, or a
        symmetric image of one already found, counts once), and only those whose value is
        within ``margin`` discs of even when ``margin`` is given. Depth first, moves in
        square order, so the same book gives the same list; a line needing a pass ends
        nowhere and is left out."""
        if not 1 <= plies <= 60:
            raise InvalidOptionError(f"plies must be from 1 to 60, not {plies}")
        start = Board().pair()
        seen = {self.index(*start)}
        out: list[tuple[Move, ...]] = []

        def walk(p: int, o: int, line: tuple[Move, ...]) -> None:
            for sq in _moves(p, o):
                if sq == PASS_SQUARE:
                    continue
                cp, co = _child(p, o, sq)
                row = self.index(cp, co)
                if row is None or row in seen:
                    continue
                seen.add(row)
                moved = (*line, Move(sq))
                if len(moved) < plies:
                    walk(cp, co, moved)
                elif margin is None or abs(int(self.value[row])) <= margin:
                    out.append(moved)

        walk(*start, ())
        return out

    def stats(self) -> BookStats:
        discs = [int(a).bit_count() + int(b).bit_count()
                 for a, b in zip(self.player, self.opponent, strict=True)]
        by_discs: dict[int, int] = {}
        for d in discs:
            by_discs[d] = by_discs.get(d, 0) + 1
        has_leaf = self.leaf >= 0
        depths: dict[int, int] = {}
        for d in self.depth[has_leaf & (self.depth > 0)]:
            depths[int(d)] = depths.get(int(d), 0) + 1
        start = Board()
        row = self._index.get(key_of(start))
        return BookStats(
            positions=len(self), games_at_start=0 if row is None else int(self.games[row]),
            leaves=int(has_leaf.sum()),
            unsearched=int(((self.leaf == UNSEARCHED) | (has_leaf & (self.depth == 0))).sum()),
            depths=dict(sorted(depths.items())), by_discs=dict(sorted(by_discs.items())),
            start_value=None if row is None else int(self.value[row]), source=self.source)

    # ---- building ---------------------------------------------------------------------
    def children(self, row: int) -> list[tuple[int, int | None]]:
        """Each move of the position at ``row`` (canonical orientation) with the row of
        the position it leads to (``None``: not in the book)."""
        p, o = int(self.player[row]), int(self.opponent[row])
        return [(sq, self.index(*_child(p, o, sq))) for sq in _moves(p, o)]

    def pending(self, depth: int) -> list[int]:
        """Rows whose leaf is still to be searched to ``depth`` plies: their non-book
        moves exist and their leaf was searched less deeply (or not yet). A row found to
        have no non-book move is marked :data:`NO_LEAF` on the way."""
        rows = []
        for row in range(len(self)):
            if self.leaf[row] == NO_LEAF or (self.leaf[row] >= 0 and self.depth[row] >= depth):
                continue
            if any(child is None for _, child in self.children(row)):
                rows.append(row)
            else:
                self.leaf[row] = NO_LEAF
        return rows

    def propagate(self) -> None:
        """Negamax from the deepest positions up (see the module docstring)."""
        n = len(self)
        done = np.zeros(n, dtype=bool)
        for row in sorted(range(n), key=self._discs, reverse=True):
            self._value(row, done)

    def _discs(self, row: int) -> int:
        return int(self.player[row]).bit_count() + int(self.opponent[row]).bit_count()

    def _value(self, row: int, done: np.ndarray) -> int:
        stack = [row]
        while stack:
            top = stack[-1]
            if done[top]:
                stack.pop()
                continue
            kids = self.children(top)
            waiting = [c for _, c in kids if c is not None and not done[c] and c not in stack]
            if waiting:
                stack.extend(waiting)
                continue
            p, o = int(self.player[top]), int(self.opponent[top])
            if not kids:
                best = _final(p, o)
            else:
                values = [-int(self.value[c]) for _, c in kids if c is not None and done[c]]
                if self.leaf[top] >= 0 and self.depth[top] > 0:
                    values.append(int(self.leaf_value[top]))
                # a position with unsearched leaves and no valued child keeps 0 for now
                best = max(values) if values else 0
            self.value[top] = best
            done[top] = True
            stack.pop()
        return int(self.value[row])

    def add(self, keys: Sequence[tuple[int, int]]) -> Book:
        """A book with the positions ``keys`` (canonical, side to move first) added with no
        games and their leaves unsearched."""
        new = [k for k in dict.fromkeys(keys) if k not in self._index]
        if not new:
            return self
        extra = np.array(new, dtype=np.uint64).reshape(-1, 2)
        return Book(np.concatenate([self.player, extra[:, 0]]),
                    np.concatenate([self.opponent, extra[:, 1]]),
                    np.concatenate([self.games, np.zeros(len(new), dtype=np.uint32)]),
                    value=np.concatenate([self.value, np.zeros(len(new), dtype=np.int8)]),
                    leaf=np.concatenate([self.leaf,
                                         np.full(len(new), UNSEARCHED, dtype=np.int8)]),
                    leaf_value=np.concatenate([self.leaf_value,
                                               np.zeros(len(new), dtype=np.int8)]),
                    depth=np.concatenate([self.depth, np.zeros(len(new), dtype=np.uint8)]),
                    source=self.source)

    # ---- files ------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the book to ``path`` (``.npz``), atomically: a reader (or an interrupted
        build) sees the old file or the new one, never half of one."""
        save_npz(path, format=np.array(FORMAT), source=np.array(self.source),
                 player=self.player, opponent=self.opponent, games=self.games,
                 value=self.value, leaf=self.leaf, leaf_value=self.leaf_value,
                 depth=self.depth)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Book:
        """Read a book written by :meth:`save`; :class:`ParseError` if it is not one."""
        name = str(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                if "format" not in data or str(data["format"]) != FORMAT:
                    raise ParseError(f"not a hasamigo book (expected format {FORMAT})",
                                     source=name)
                arrays = {k: data[k] for k in ("player", "opponent", "games", "value",
                                               "leaf", "leaf_value", "depth")}
                source = str(data["source"])
        except (OSError, ValueError, KeyError) as exc:
            raise ParseError(f"cannot read the book: {exc}", source=name) from None
        n = len(arrays["player"])
        if any(len(a) != n for a in arrays.values()):
            raise ParseError("the book's columns differ in length", source=name)
        leaf = arrays["leaf"].astype(np.int64)
        if np.any((leaf < UNSEARCHED) | (leaf > PASS_SQUARE)) or np.any(
                np.abs(arrays["value"].astype(np.int64)) > 64):
            raise ParseError("the book holds a square or a value out of range", source=name)
        if np.any(arrays["player"] & arrays["opponent"]):
            raise ParseError("the book holds a position with two discs on one square",
                             source=name)
        return cls(arrays["player"], arrays["opponent"], arrays["games"],
                   value=arrays["value"], leaf=arrays["leaf"],
                   leaf_value=arrays["leaf_value"], depth=arrays["depth"], source=source)


def _as_move(sq: int) -> Move:
    return PASS if sq == PASS_SQUARE else Move(sq)


@functools.cache
def default_book() -> Book | None:
    """The book shipped with the package, or ``None`` if this installation has none."""
    ref = resources.files("hasamigo").joinpath(DEFAULT_BOOK)
    if not ref.is_file():
        return None
    with resources.as_file(ref) as path:
        return Book.load(path)


# ---- building ------------------------------------------------------------------------
def tree_from_records(records: Iterable[GameRecord], *, plies: int,
                      min_games: int) -> tuple[Book, int]:
    """The book tree of step 1 (unvalued) and the number of games read."""
    if plies < 1 or min_games < 1:
        raise InvalidOptionError("plies and min-games must be at least 1")
    ps: list[int] = []
    os_: list[int] = []
    games = 0
    for record in records:
        if record.problem is not None or record.variant is not Board or record.start is not None:
            continue
        board = Board()
        p, o = board.pair()
        ps.append(p)
        os_.append(o)
        played = 0
        for move in record.moves:
            if move.is_pass:
                continue  # passes are played below, when they are forced
            if played == plies or not board.is_legal(move):
                break
            board.push(move)
            played += 1
            if board.is_game_over():
                break
            if board.must_pass():
                board.push(PASS)
            p, o = board.pair()
            ps.append(p)
            os_.append(o)
        games += 1
    if not ps:
        return Book(np.zeros(0, np.uint64), np.zeros(0, np.uint64), np.zeros(0, np.uint32),
                    source="empty"), games
    # a game passes through a position once (the discs only grow), so counting the
    # positions counts the games through each
    cp, co, _ = canonical(np.array(ps, dtype=np.uint64), np.array(os_, dtype=np.uint64))
    order = np.lexsort((co, cp))
    cp, co = cp[order], co[order]
    starts = np.flatnonzero(np.r_[True, (cp[1:] != cp[:-1]) | (co[1:] != co[:-1])])
    counts = np.diff(np.r_[starts, len(cp)])
    keys = np.stack([cp[starts], co[starts]])
    keep = counts >= min_games
    book = Book(keys[0][keep], keys[1][keep], counts[keep].astype(np.uint32),
                source=f"{games} games, first {plies} moves, positions of {min_games}+ games")
    return book, games


_WORKER: dict[str, Engine] = {}
#: a leaf to search: the position (side to move ``p``, the other ``o``), the squares of its
#: moves that are not book moves (:data:`PASS_SQUARE` for a pass) and the depth
LeafJob = tuple[int, int, tuple[int, ...], int]
#: what searches leaves: ``(index, (square, score))`` for each of the jobs, in any order
LeafSearch = Callable[[Sequence[LeafJob]], Iterable[tuple[int, tuple[int, int]]]]


def search_leaf(job: LeafJob) -> tuple[int, int]:
    """Search the position (side to move ``p``) among ``squares`` to ``depth``: the
    best square and its score, on the engine this process keeps for every leaf (the
    unit of work of the jobs runner's workers)."""
    p, o, squares, depth = job
    engine = _WORKER.get("engine")
    if engine is None:
        engine = _WORKER["engine"] = Engine(table_size=1 << 18)
    board = _board(p, o)
    among = [_as_move(sq) for sq in squares]
    a = engine.analyse(board, Limit(depth=depth), among=among)
    sq = PASS_SQUARE if a.move.is_pass else a.move.square
    assert sq is not None
    return sq, a.score


def _board(p: int, o: int) -> Board:
    """A board with ``p``'s discs as Black's, Black to move."""
    cells = ["X" if p >> sq & 1 else "O" if o >> sq & 1 else "-" for sq in range(64)]
    board = Board.from_string("".join(cells) + " X")
    assert board.turn is BLACK
    return board


Progress = Callable[[int, int], None]


def _search_here(jobs: Sequence[LeafJob]) -> Iterator[tuple[int, tuple[int, int]]]:
    """The leaves one after the other in this process (the default ``search``)."""
    return enumerate(map(search_leaf, jobs))


def search_leaves(book: Book, depth: int, *, search: LeafSearch | None = None,
                  progress: Progress | None = None,
                  save_to: str | os.PathLike[str] | None = None, save_every: int = 200) -> int:
    """Search every leaf not yet searched to ``depth`` plies (step 2), then propagate.
    ``search``: what searches them (:data:`LeafSearch`; here, one after the other, if
    none). Saves the book to ``save_to`` every ``save_every`` leaves, so that a stopped
    build resumes where it was. Returns the number of leaves searched."""
    if depth < 1:
        raise InvalidOptionError("the leaves' depth must be at least 1 ply")
    rows = book.pending(depth)
    jobs: list[LeafJob] = []
    for row in rows:
        p, o = int(book.player[row]), int(book.opponent[row])
        squares = tuple(sq for sq, child in book.children(row) if child is None)
        jobs.append((p, o, squares, depth))
    done = 0
    if progress:
        progress(0, len(rows))
    for index, (sq, score) in (search or _search_here)(jobs):
        row = rows[index]
        book.leaf[row] = sq
        book.leaf_value[row] = max(-64, min(64, score))
        book.depth[row] = depth
        done += 1
        if save_to is not None and done % save_every == 0:
            book.save(save_to)
        if progress:
            progress(done, len(rows))
    book.propagate()
    if save_to is not None:
        book.save(save_to)
    return done


def expand(book: Book, depth: int, *, rounds: int = 1, search: LeafSearch | None = None,
           progress: Progress | None = None,
           save_to: str | os.PathLike[str] | None = None) -> Book:
    """Step 4: ``rounds`` times, every leaf that is its position's best move brings its
    position into the book, searched to ``depth``; the values are carried up each time.
    ``search``: as for :func:`search_leaves`."""
    for _ in range(rounds):
        search_leaves(book, depth, search=search, progress=progress, save_to=save_to)
        new: list[tuple[int, int]] = []
        for row in range(len(book)):
            leaf = int(book.leaf[row])
            if leaf < 0 or book.depth[row] == 0 or book.leaf_value[row] < book.value[row]:
                continue
            p, o = _child(int(book.player[row]), int(book.opponent[row]), leaf)
            if _moves(p, o):
                new.append(_key(p, o)[:2])
        if not new:
            break
        book = book.add(new)
        for row in range(len(book)):  # the rows whose leaf is now a book move
            if book.leaf[row] >= 0:
                kids = dict(book.children(row))
                if kids.get(int(book.leaf[row])) is not None:
                    book.leaf[row] = UNSEARCHED  # its best non-book move is to be found again
    search_leaves(book, depth, search=search, progress=progress, save_to=save_to)
    return book
