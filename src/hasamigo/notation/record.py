"""One game as read from (or written to) a file: variant, start, moves, players, result.

>>> from hasamigo.notation.transcript import parse_transcript
>>> record = GameRecord(moves=parse_transcript("f5d6c3"), black="Tastet")
>>> record.replay().to_string()[-1], record.outcome() is None
('O', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hasamigo.board import Board, Outcome
from hasamigo.errors import IllegalMoveError, IllegalReason, InvalidSquareError, ParseError
from hasamigo.move import PASS, Move


@dataclass
class GameRecord:
    """A game record, independent of the file format it came from.

    ``moves`` are the moves as the source gave them; passes may be missing (WTHOR never
    records them) and :meth:`replay` inserts the forced ones. ``start`` is a board string
    (:meth:`Board.from_string`) when the game did not begin at the variant's normal start.
    ``recorded_score`` is Black's official disc count as the source recorded it (empties
    to the winner), ``None`` when the source gives none. ``problem`` says what could not be
    decoded (the record is then incomplete), so that one bad game does not stop a whole
    archive; :meth:`replay` raises :class:`ParseError` with it.
    """

    variant: type[Board] = Board
    start: str | None = None
    moves: list[Move] = field(default_factory=list)
    black: str = ""
    white: str = ""
    event: str = ""
    date: str = ""
    recorded_score: int | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    problem: str | None = None

    def board(self) -> Board:
        """The start position (a fresh board, no moves)."""
        if self.start is None:
            return self.variant()
        return self.variant.from_string(self.start)

    def replay(self) -> Board:
        """Play every move from :meth:`board`, inserting forced passes; return the board.

        Raises :class:`ParseError` if the record has a ``problem``, and
        :class:`IllegalMoveError` naming the move number (1-based, in ``moves``) and the
        square otherwise, e.g. ``move 23 (c7): flips nothing``.
        """
        if self.problem is not None:
            raise ParseError(self.problem)
        board = self.board()
        for number, move in enumerate(self.moves, 1):
            play_move(board, move, number)
        return board

    def outcome(self) -> Outcome | None:
        """The official result of the replayed game, ``None`` if it did not reach the end."""
        return self.replay().outcome()


def play_move(board: Board, move: Move, number: int) -> None:
    """Push ``move`` (the source's move ``number``), first inserting a forced pass.

    Raises :class:`IllegalMoveError` whose message names the move number and square.
    """
    if not move.is_pass and board.must_pass():
        board.push(PASS)
    try:
        board.push(move)
    except IllegalMoveError as exc:
        name = move_label(board, move)
        # A choice of turned discs that the flip rule refuses: keep what was wrong with it.
        detail = str(exc).partition(exc.reason.value)[2] \
            if exc.reason is IllegalReason.BAD_TURN else ""
        raise IllegalMoveError(f"move {number} ({name}): {exc.reason.value}{detail}",
                               exc.reason) from exc


def move_label(board: Board, move: Move) -> str:
    """The move's name in the board's coordinates (grid name if it is off the board)."""
    try:
        return board.move_name(move)
    except InvalidSquareError:
        return str(move)


@dataclass(frozen=True, slots=True)
class RecordFault:
    """A fault found in a game's record, at a move number: its kind, the squares at fault
    (names in the variant's coordinates) and a sentence saying it. Record sheets
    (:mod:`hasamigo.notation.sheet`) and moves entered over the board
    (:mod:`hasamigo.game.entry`) report their faults with it."""

    move_number: int
    kind: str
    squares: tuple[str, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"move_number": self.move_number, "kind": self.kind,
                "squares": list(self.squares), "message": self.message}
