"""Game review: every move of a game scored by the engine, its disc loss and a label.

For each position of the game (the mover's view, in discs) the engine searches the best
move and, at the same depth and from the same root, the move played (:meth:`Engine.analyse`
with ``among``): ``loss = best_score - played_score``. From :data:`EXACT_EMPTIES` empties
both are solved exactly, so there the loss is the exact number of discs the move gave away
(empties to the winner). A search may score the played move above its own choice (the
two searches see different trees); the played move is then the best, with no loss, as it
is when it scores as well as the engine's choice.

Labels by disc loss (:data:`LABELS`): ``best`` 0, ``good`` 1–2, ``inaccuracy`` 3–5,
``mistake`` 6–9, ``blunder`` 10 or more. A forced move (a pass, or the only legal move) is
``best``: its position is searched like any other (exact from :data:`EXACT_EMPTIES`
empties), and both its scores are the position's (``forced`` marks it).

Reviews stored before forced moves were searched hold zeros for them and no ``forced``
key: :meth:`MoveReview.from_json` reads such a row's scores as ``None`` (unknown), never
as a position worth 0, and the review's graph leaves them out.

A review is built move by move (:func:`review`): a caller can show the progress, store
each row as it comes and resume from the rows it has (``done``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hasamigo.board import Board
from hasamigo.engine import Engine, Limit
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.move import BLACK, WHITE, Color, Move

#: default search depth of the midgame positions
DEFAULT_DEPTH = 10
#: from this many empties the positions are solved exactly
EXACT_EMPTIES = 20
#: the labels by the least disc loss that earns them, best first
LABELS = (("best", 0), ("good", 1), ("inaccuracy", 3), ("mistake", 6), ("blunder", 10))
MAX_DEPTH = 30


def label_of(loss: int) -> str:
    """The label of a disc loss (see :data:`LABELS`).

    >>> [label_of(n) for n in (0, 2, 3, 9, 10)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    name = LABELS[0][0]
    for label, least in LABELS:
        if loss >= least:
            name = label
    return name


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of the game reviewed: scores in discs from the mover's view.

    ``best_score`` is the position's score (its best move's), ``played_score`` the move
    played's. A ``forced`` move (a pass, or the only legal move) has the position's score
    as both. The scores are ``None`` only for a forced move read from a review stored
    before forced moves were searched (see :meth:`from_json`)."""

    ply: int  # moves before it (passes counted)
    colour: Color
    move: Move
    best_move: Move
    best_score: int | None
    played_score: int | None
    exact: bool
    name: str = ""  # the move in the board's own square names
    best_name: str = ""
    forced: bool = False

    @property
    def loss(self) -> int:
        if self.best_score is None or self.played_score is None:
            return 0  # a forced move, unscored
        return self.best_score - self.played_score

    @property
    def label(self) -> str:
        return label_of(self.loss)

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "colour": str(self.colour), "move": self.name,
                "best_move": self.best_name, "best_score": self.best_score,
                "played_score": self.played_score, "loss": self.loss, "label": self.label,
                "exact": self.exact, "forced": self.forced}

    @classmethod
    def from_json(cls, data: dict[str, Any], board: Board) -> MoveReview:
        """A row stored by :meth:`to_json`, its moves read on ``board``, the position
        before the move (:func:`rows_from_json` walks a game's rows).

        A row without ``forced`` was stored before forced moves were searched: if its
        move was forced on ``board`` (a pass, the only legal move), its stored zeros
        were never the position's score and are read as ``None``."""
        move, best = board.parse_move(data["move"]), board.parse_move(data["best_move"])
        best_score: int | None = int(data["best_score"])
        played_score: int | None = int(data["played_score"])
        forced = data.get("forced")
        if forced is None:  # the format before forced moves were searched
            forced = move.is_pass or (board.is_legal(move) and len(board.legal_moves) == 1)
            if forced:
                best_score = played_score = None
        return cls(int(data["ply"]), Color.parse(data["colour"]), move,
                   best, best_score, played_score, bool(data["exact"]), data["move"],
                   data["best_move"], bool(forced))


def rows_from_json(rows: Sequence[dict[str, Any]], start: Board,
                   moves: Sequence[Move]) -> tuple[MoveReview, ...]:
    """The stored rows (:meth:`MoveReview.to_json`) of a review of the game of ``moves``
    played from ``start``, each read on the position before its move. Rows beyond the
    game's moves (a damaged review) are read on its last position."""
    board = start.copy()
    read = []
    for number, data in enumerate(rows):
        read.append(MoveReview.from_json(data, board))
        if number < len(moves):
            board.push(moves[number])
    return tuple(read)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One side's moves in a review: how many, the disc loss, the labels, the worst."""

    colour: Color
    moves: int
    total_loss: int
    labels: dict[str, int]
    worst: MoveReview | None

    @property
    def average_loss(self) -> float:
        return self.total_loss / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, Any]:
        worst = None if self.worst is None or self.worst.loss == 0 else {
            "ply": self.worst.ply, "move": self.worst.name, "loss": self.worst.loss}
        return {"moves": self.moves, "total_loss": self.total_loss,
                "average_loss": round(self.average_loss, 2), "labels": dict(self.labels),
                "worst": worst}


@dataclass(frozen=True, slots=True)
class Review:
    """A reviewed game: a row per move played (passes included), in order."""

    variant: str
    moves: tuple[MoveReview, ...]
    depth: int
    exact_empties: int

    def summary(self, colour: Color) -> PlayerSummary:
        rows = [m for m in self.moves if m.colour is colour]
        labels = {name: 0 for name, _ in LABELS}
        for row in rows:
            labels[row.label] += 1
        worst = max(rows, key=lambda m: (m.loss, -m.ply), default=None)
        return PlayerSummary(colour, len(rows), sum(m.loss for m in rows), labels, worst)

    def turning_point(self) -> MoveReview | None:
        """The move that lost the most discs (the earliest of equals), if any lost any."""
        worst = max(self.moves, key=lambda m: (m.loss, -m.ply), default=None)
        return worst if worst is not None and worst.loss > 0 else None

    def to_json(self) -> dict[str, Any]:
        turning = self.turning_point()
        return {"variant": self.variant, "depth": self.depth,
                "exact_empties": self.exact_empties,
                "moves": [m.to_json() for m in self.moves],
                "summary": {str(c): self.summary(c).to_json() for c in (BLACK, WHITE)},
                "turning_point": None if turning is None else turning.ply}


Progress = Callable[[int, int], None]


def check_reviewable(board: Board) -> None:
    """Refuse (:class:`~hasamigo.errors.InvalidOptionError`) a game the engine cannot
    search: a disc limit, the original placement phase, or a rule of
    :meth:`Board.rules_beyond_kernels`."""
    rules = board.rules_beyond_kernels()
    if board.disc_limit is not None or board.start == "original" or rules:
        what = rules or ["a disc limit or the original start's placement phase"]
        raise InvalidOptionError(f"the engine cannot review games of {board.title}: it does "
                                 f"not know {' nor '.join(what)}")


def check_options(depth: int, exact_empties: int) -> None:
    if not (isinstance(depth, int) and 1 <= depth <= MAX_DEPTH):
        raise InvalidOptionError(f"review depth must be 1 to {MAX_DEPTH}, not {shown(depth)}")
    if not (isinstance(exact_empties, int) and 0 <= exact_empties <= 30):
        raise InvalidOptionError(f"exact empties must be 0 to 30, not {shown(exact_empties)}")


def review_move(engine: Engine, board: Board, move: Move, *, depth: int = DEFAULT_DEPTH,
                exact_empties: int = EXACT_EMPTIES) -> MoveReview:
    """Review ``move`` played on ``board`` (which is left as it was)."""
    name = board.move_name(move)
    empties = board.empties.bit_count()
    exact = empties <= exact_empties
    limit = Limit(depth=64 if exact else depth)
    best = engine.analyse(board, limit)
    if move.is_pass or len(board.legal_moves) == 1:
        # forced: the search of the position is the move's (a pass searched at the same
        # depth, as the root searches it; the only move one ply shallower, as any move)
        return MoveReview(board.ply, board.turn, move, move, best.score, best.score,
                          exact and best.exact, name, name, forced=True)
    if best.move == move:
        played_score = best.score
    else:
        played_score = engine.analyse(board, limit, among=[move]).score
    best_move, best_score = best.move, best.score
    if played_score >= best_score:  # as good (or the two searches disagree): it is best
        best_move, best_score = move, played_score
    return MoveReview(board.ply, board.turn, move, best_move, best_score, played_score,
                      exact and best.exact, name, board.move_name(best_move))


def review(start: Board, moves: Sequence[Move], *, engine: Engine | None = None,
           depth: int = DEFAULT_DEPTH, exact_empties: int = EXACT_EMPTIES,
           done: Sequence[MoveReview] = (), progress: Progress | None = None,
           on_move: Callable[[MoveReview], None] | None = None) -> Review:
    """Review the game of ``moves`` played from ``start`` (passes included, as a board's
    move stack holds them). ``done``: rows already reviewed (the first moves, as a
    previous call gave them), kept as they are. ``progress(reviewed, total)`` after each
    move; ``on_move(row)`` with each new row."""
    check_options(depth, exact_empties)
    check_reviewable(start)
    engine = engine if engine is not None else Engine()
    board = start.copy()
    rows: list[MoveReview] = list(done[:len(moves)])
    for move in moves[:len(rows)]:
        board.push(move)
    for move in moves[len(rows):]:
        if progress is not None:
            progress(len(rows), len(moves))
        if not board.is_legal(move):
            board.push(move)  # raises IllegalMoveError saying why
        row = review_move(engine, board, move, depth=depth, exact_empties=exact_empties)
        rows.append(row)
        if on_move is not None:
            on_move(row)
        board.push(move)
    if progress is not None:
        progress(len(rows), len(moves))
    return Review(start.name, tuple(rows), depth, exact_empties)
