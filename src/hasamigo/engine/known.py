"""Results published for boards too big to solve here: quoted with their source, not
claimed as proven, and how far along the published line the engine confirms them.

**8×8 from the normal start is a draw with perfect play** (weakly solved): Hiroki
Takizawa, "Othello is Solved", arXiv:2310.19387 (2023; v3 of 2 January 2024), a preprint
that the 2024 Japanese encyclopedia also records (「8×8のオセロが最善進行で引き分けになる
事を証明した(弱解決)と主張する査読前論文」). The paper's Figure 1 gives an optimal game
record, :data:`TAKIZAWA_LINE`, and says that if either side deviates from it, the
paper's program playing the other side is guaranteed a draw or a win. The proof took
1.5 billion positions of 36 empties solved with a modified Edax; nothing of it is
repeated here.

:func:`verify_line` checks what a machine like this one can: the line is legal and ends
32–32 (replayed by the rules), and from its end backwards each position on it is a draw
with perfect play, solved by the engine (:meth:`~hasamigo.engine.core.Engine.solve`,
win/loss/draw: a proven 0 is an exact score of 0) for as many empties as fit the time
given, up to :data:`VERIFY_FROM` (the paper's 36). It proves the line's end, not the
paper's claim: the positions off the line, which the paper's proof covers, are not
searched.

The small boards are solved here from scratch (:mod:`hasamigo.engine.smallboard`,
``hasamigo solve-board 4x4|6x6``); :func:`small_board_results` gives their results from
the lines kept there, replayed by the rules.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hasamigo.board import Board
from hasamigo.engine.smallboard import SOLVED_LINES
from hasamigo.engine.timing import Budget
from hasamigo.errors import InvalidOptionError, shown
from hasamigo.move import BLACK
from hasamigo.notation.record import play_move
from hasamigo.notation.transcript import parse_transcript
from hasamigo.variants import find_variant

if TYPE_CHECKING:
    from hasamigo.engine.core import Engine

#: Takizawa (2023), Figure 1: "an optimal game record designated by our study"
TAKIZAWA_LINE = ("f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4"
                 "f1e1f2g1b1f8g8b3h3b2h5b7a3a4a1a2c1h2h1g2b8a8g7h8h7h6")
#: the empties from which the paper's proof solved positions exactly, and so the most
#: :func:`verify_line` tries
VERIFY_FROM = 36


@dataclass(frozen=True, slots=True)
class PublishedResult:
    """A board's perfect-play result as a source publishes it (Black–White, empties to
    the winner), with one perfect line and where it is published."""

    board: str
    black: int
    white: int
    line: str
    source: str
    url: str
    claim: str
    #: how far the source is reviewed, said in the headline (a preprint is not peer
    #: reviewed); empty for a reviewed publication
    status: str = ""

    @property
    def verdict(self) -> str:
        if self.black == self.white:
            return "a draw"
        return ("Black" if self.black > self.white else "White") + " wins"

    def to_json(self) -> dict[str, Any]:
        return {"board": self.board, "black": self.black, "white": self.white,
                "line": self.line, "source": self.source, "url": self.url,
                "claim": self.claim, "status": self.status, "quoted": True}


PUBLISHED: dict[str, PublishedResult] = {
    "8x8": PublishedResult(
        "8x8", 32, 32, TAKIZAWA_LINE,
        "Hiroki Takizawa, \"Othello is Solved\", arXiv:2310.19387 (2023)",
        "https://arxiv.org/abs/2310.19387",
        "weakly solved: perfect play by both sides draws; if either side leaves the "
        "line, the paper's program playing the other is guaranteed a draw or a win",
        # the 2024 encyclopedia: 「…と主張する査読前論文」
        "a preprint, not peer reviewed"),
}


def published(name: str) -> PublishedResult | None:
    """The published result of the board ``name`` (``8x8`` or ``standard``), if any."""
    try:
        variant = find_variant(name)
    except InvalidOptionError:
        return None
    return PUBLISHED.get("8x8") if variant is Board else None


def line_positions(result: PublishedResult) -> list[Board]:
    """The positions of ``result``'s line from its start, the start first (forced passes
    inserted); :class:`~hasamigo.errors.IllegalMoveError` naming the move if one is not
    legal."""
    board = Board()
    positions = [board.copy(stack=False)]
    for number, move in enumerate(parse_transcript(result.line), 1):
        play_move(board, move, number)
        positions.append(board.copy(stack=False))
    return positions


@dataclass(frozen=True, slots=True)
class LineCheck:
    """One position of the line solved: after ``move_number`` moves, with ``empties``
    empty squares; ``score`` from the side to move (-1, 0, +1: lost, drawn, won with
    perfect play) when ``proven``, else the search ran out of time; ``expected`` the
    score the published result gives that side."""

    move_number: int
    empties: int
    score: int
    expected: int
    proven: bool
    nodes: int
    seconds: float

    @property
    def agrees(self) -> bool:
        """Proven, and as published."""
        return self.proven and self.score == self.expected

    def to_json(self) -> dict[str, Any]:
        return {"move_number": self.move_number, "empties": self.empties,
                "score": self.score, "expected": self.expected, "proven": self.proven,
                "agrees": self.agrees, "nodes": self.nodes, "seconds": round(self.seconds, 3)}


def verify_line(result: PublishedResult, *, seconds: float, deepest: int = VERIFY_FROM,
                engine: Engine | None = None,
                progress: Callable[[LineCheck], None] | None = None) -> list[LineCheck]:
    """Solve the positions of ``result``'s line from its end backwards (1 empty, 2, …, up
    to ``deepest``) until one is not proven within what is left of ``seconds`` or
    disagrees with the published result. Each is reported to ``progress`` when solved.
    The replayed end must already give the published count (checked first)."""
    if not (isinstance(seconds, (int, float)) and seconds > 0):
        raise InvalidOptionError(f"the time to verify is more than 0 seconds, not "
                                 f"{shown(seconds)}")
    positions = line_positions(result)
    end = positions[-1].outcome()
    if end is None or (end.black, end.white) != (result.black, result.white):
        raise InvalidOptionError(f"the published line ends at {end}, not "
                                 f"{result.black}–{result.white}")
    black_wins = (result.black > result.white) - (result.black < result.white)
    if engine is None:
        from hasamigo.engine.core import Engine  # the kernels: only when something is solved

        engine = Engine(table_size=1 << 22)
    stop_at = time.monotonic() + seconds
    checks: list[LineCheck] = []
    for number in range(len(positions) - 1, -1, -1):
        board = positions[number]
        empties = board.empties.bit_count()
        if empties == 0 or board.outcome() is not None:
            continue
        if empties > deepest:
            break
        left = stop_at - time.monotonic()
        if left <= 0:
            break
        started = time.monotonic()
        analysis = engine.solve(board, "wld", budget=Budget(left, left))
        expected = black_wins if board.turn is BLACK else -black_wins
        check = LineCheck(number, empties, analysis.score, expected, analysis.exact,
                          analysis.nodes, time.monotonic() - started)
        checks.append(check)
        if progress is not None:
            progress(check)
        if not check.agrees:
            break
    return checks


def small_board_results() -> dict[str, tuple[int, int]]:
    """The small boards' perfect-play counts (Black, White), their kept lines replayed by
    the rules: what ``solve-board 4x4|6x6`` proves from scratch."""
    out = {}
    for name, line in SOLVED_LINES.items():
        board = find_variant(name)()
        for number, move in enumerate(parse_transcript(line, board.copy()), 1):
            play_move(board, move, number)
        outcome = board.outcome()
        assert outcome is not None, f"the kept {name} line does not end the game"
        out[name] = (outcome.black, outcome.white)
    return out


__all__ = ["PUBLISHED", "TAKIZAWA_LINE", "VERIFY_FROM", "LineCheck", "PublishedResult",
           "line_positions", "published", "small_board_results", "verify_line"]
