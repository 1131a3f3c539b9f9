"""Puzzles: "find the best move", judged by the exact solver.

Two sources: the FFO endgame positions shipped with the package (``data/ffo``, #1–#39,
14 to 26 empties, with the exact scores of their main moves as published), and any
position of a player's own game where the review found a mistake (a board and variant,
as the replay page links them), with at most :data:`MAX_OWN_EMPTIES` empties (the
review's exact range). Every answer is judged exactly: for an FFO position, the published
scores give the best one and the played move's when listed, else its child is solved;
for one's own position, every move is solved (a test checks the published scores against
the solver).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any

from hasamigo.board import Board
from hasamigo.engine import Engine, Limit
from hasamigo.errors import InvalidOptionError, InvalidPositionError, shown
from hasamigo.move import Move
from hasamigo.notation.obf import read_obf

#: FFO files of the package, with the number of their first position
FFO_FILES = (("data/ffo/fforum-1-19.obf", 1), ("data/ffo/fforum-20-39.obf", 20))
#: the most empties of a position of one's own made a puzzle: every move is solved
MAX_OWN_EMPTIES = 20


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position to find the best move in; ``known``: exact scores of some moves (side
    to move's view) by their names, as published (FFO)."""

    key: str
    title: str
    board: Board
    known: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        b = self.board
        return {"key": self.key, "title": self.title, "variant": b.name,
                "board": b.to_string(), "turn": str(b.turn),
                "empties": b.empties.bit_count(),
                "legal": [b.move_name(m) for m in b.legal_moves]}


@functools.cache
def ffo_puzzles() -> tuple[Puzzle, ...]:
    """The FFO positions #1–#39 as puzzles."""
    out = []
    for name, first in FFO_FILES:
        text = resources.files("hasamigo").joinpath(name).read_text("utf-8")
        for i, position in enumerate(read_obf(text.splitlines())):
            number = first + i
            board = position.board
            known = tuple((board.move_name(m), s) for m, s in position.answers)
            out.append(Puzzle(f"ffo-{number}", f"FFO #{number}", board, known))
    return tuple(out)


def ffo_puzzle(number: int) -> Puzzle:
    puzzles = ffo_puzzles()
    if not (isinstance(number, int) and 1 <= number <= len(puzzles)):
        raise InvalidOptionError(f"FFO puzzles run from 1 to {len(puzzles)}, not "
                                 f"{shown(number)}")
    return puzzles[number - 1]


def position_puzzle(board: Board, title: str = "") -> Puzzle:
    """A puzzle of any position (a review's mistake): refused unless it has a move to
    find and at most :data:`MAX_OWN_EMPTIES` empties."""
    check_puzzle(board)
    empties = board.empties.bit_count()
    if empties > MAX_OWN_EMPTIES:
        raise InvalidPositionError(f"a puzzle of your own has at most {MAX_OWN_EMPTIES} "
                                   f"empty squares, so that the solver judges every move "
                                   f"at once; this one has {empties}")
    return Puzzle(f"{board.name}:{board.to_string()}", title or "your position", board)


def check_puzzle(board: Board) -> None:
    if board.is_game_over() or not board.legal_moves_mask():
        raise InvalidPositionError("the side to move has no move to find here")
    if board.rules_beyond_kernels() or board.disc_limit is not None:
        raise InvalidOptionError(f"puzzles need the exact solver, which does not play "
                                 f"{board.title}")


@dataclass(frozen=True, slots=True)
class Verdict:
    """An answer judged exactly: the move's score, the best score and every move reaching
    it (side to move's view, discs), and the discs lost."""

    move: str
    score: int
    best_score: int
    best_moves: tuple[str, ...]

    @property
    def loss(self) -> int:
        return self.best_score - self.score

    @property
    def correct(self) -> bool:
        return self.loss == 0

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "score": self.score, "best_score": self.best_score,
                "best_moves": list(self.best_moves), "loss": self.loss,
                "correct": self.correct}


def exact_scores(board: Board, engine: Engine | None = None) -> dict[str, int]:
    """Every legal move's exact score (side to move's view): one search with a full
    window for each move, to the end."""
    engine = engine or Engine()
    return {board.move_name(line.move): line.score
            for line in engine.hints(board, Limit(depth=64))}


def answer_move(puzzle: Puzzle, move: Move | str) -> Move:
    """``move`` read on the puzzle's board, refused at once (before any solving) when it
    names no square or is not legal there."""
    board = puzzle.board
    move = board.parse_move(move) if isinstance(move, str) else move
    if not board.is_legal(move):
        board.copy().push(move)  # raises IllegalMoveError saying why
    return move


def judge(puzzle: Puzzle, move: Move | str, engine: Engine | None = None) -> Verdict:
    """Judge ``move`` on ``puzzle``'s position exactly (see the module docstring)."""
    board = puzzle.board
    move = answer_move(puzzle, move)
    check_puzzle(board)
    name = board.move_name(move)
    known = dict(puzzle.known)
    if known:
        if name not in known:
            child = board.copy()
            child.push(move)
            known[name] = -(engine or Engine()).solve(child).score
        scores = known
    else:
        scores = exact_scores(board, engine)
    best = max(scores.values())
    return Verdict(name, scores[name], best,
                   tuple(n for n, v in scores.items() if v == best))
