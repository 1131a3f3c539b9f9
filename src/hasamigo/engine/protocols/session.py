"""What the protocol front-ends share: a session that maps one input line to output lines,
the strength it plays at, and the stdin/stdout loop around it.

A session does no I/O: :meth:`Session.handle` takes one line and returns the lines to
write, so tests talk to it directly (a mock transport) and :func:`serve` runs it on pipes.
``serve`` reads input on a thread of its own, so that a line that must interrupt a search
(NBoard's ``ping``) stops it at once; every other line waits for the one before it.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TextIO

from hasamigo.board import Board
from hasamigo.engine.book import Book, BookMove, default_book
from hasamigo.engine.core import Analysis, Engine
from hasamigo.engine.limits import LEVELS, Limit, level
from hasamigo.engine.players.strong import BOOK_LEVEL
from hasamigo.engine.timing import Budget
from hasamigo.errors import InvalidOptionError, shown

log = logging.getLogger("hasamigo.protocols")

#: the level a protocol engine plays at unless told otherwise
DEFAULT_LEVEL = 6
#: rows of the engine's transposition table (32 bytes each: 32 MB)
TABLE_SIZE = 1 << 20
#: the deepest midgame search a GUI may ask for
MAX_DEPTH = 60


@dataclass(frozen=True, slots=True)
class Strength:
    """How deep a protocol engine searches: the midgame ``depth`` and the empties from
    which it plays perfectly (``exact_from``) or for the win (``wld_from``); ``book``:
    it plays from the opening book, as ``engine:N`` does from level 7; ``selectivity``:
    the midgame's probable cuts (:meth:`~hasamigo.engine.Engine.analyse`), as the level's.

    >>> Strength.of_level(4)
    Strength(depth=4, exact_from=8, wld_from=8, label='4', book=False, selectivity=0)
    >>> Strength.of_depth(11).exact_from  # a depth between levels: the lower level's endgame
    12
    """

    depth: int
    exact_from: int
    wld_from: int
    label: str
    book: bool = False
    selectivity: int = 0

    @classmethod
    def of_level(cls, number: int) -> Strength:
        """A level of :data:`~hasamigo.engine.limits.LEVELS`."""
        lv = level(number)
        return cls(lv.depth, lv.exact_from, lv.wld_from, str(lv.number),
                   lv.number >= BOOK_LEVEL, lv.selectivity)

    @classmethod
    def of_depth(cls, depth: int) -> Strength:
        """A GUI's ``set depth``: that midgame depth, with the endgame of the highest
        level whose depth does not exceed it."""
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise InvalidOptionError(f"depth must be a whole number from 1 to {MAX_DEPTH}, "
                                     f"not {shown(depth)}")
        fitting = [lv for lv in LEVELS.values() if lv.depth <= depth] or [LEVELS[1]]
        base = max(fitting, key=lambda lv: lv.depth)
        return cls(depth, base.exact_from, base.wld_from, str(depth),
                   base.number >= BOOK_LEVEL, base.selectivity)


def think(engine: Engine, board: Board, strength: Strength,
          budget: Budget | None = None) -> Analysis:
    """The engine's analysis of ``board`` at ``strength``, within ``budget`` if given
    (seconds from now, see :mod:`hasamigo.engine.timing`)."""
    if budget is not None:
        return engine.play_timed(board, budget, depth=strength.depth,
                                 exact_from=strength.exact_from,
                                 wld_from=strength.wld_from,
                                 selectivity=strength.selectivity).analysis
    empties = board.empties.bit_count()
    if empties <= strength.exact_from:
        return engine.solve(board, "exact")
    if empties <= strength.wld_from:
        return engine.solve(board, "wld")
    return engine.analyse(board, Limit(depth=strength.depth), selectivity=strength.selectivity)


class Session(ABC):
    """One conversation with a GUI or controller: a position, a strength, an engine."""

    #: the name the engine gives itself
    name = "hasamigo"

    def __init__(self, level: int = DEFAULT_LEVEL, *, engine: Engine | None = None,
                 threads: int = 1) -> None:
        """``threads``: the search threads of the engine made here (the other side may
        change them: NBoard's ``set threads``, GTP's ``hasamigo-threads``; they hold for
        the rest of the session, every game of it)."""
        self.strength = Strength.of_level(level)
        self.engine = (engine if engine is not None
                       else Engine(table_size=TABLE_SIZE, threads=threads))
        self.board = Board()
        #: set once the other side has said goodbye: the loop ends
        self.finished = False
        self.rng = random.Random(0)  # among equal book moves
        self._book: Book | None = None
        self._book_loaded = False

    @abstractmethod
    def handle(self, line: str) -> list[str]:
        """The lines to answer ``line`` with (none for many commands); never raises for
        anything the other side may send."""

    def book_move(self, board: Board) -> BookMove | None:
        """The opening book's move for ``board`` at this strength, if it has one."""
        if not self.strength.book:
            return None
        if not self._book_loaded:
            self._book, self._book_loaded = default_book(), True
        return None if self._book is None else self._book.choose(board, self.rng)

    def interrupts(self, line: str) -> bool:
        """Whether ``line`` stops a search in progress (the loop then stops it)."""
        return False

    def stop(self) -> None:
        """Stop the search in progress, if any: it answers with what it has."""
        self.engine.stop()


_EOF = object()


def serve(session: Session, stdin: TextIO, stdout: TextIO) -> int:
    """Run ``session`` on text streams until the other side ends the input, says goodbye,
    or closes our output (a broken pipe); returns the exit status (0)."""
    lines: queue.Queue[object] = queue.Queue()

    def read() -> None:
        try:
            for raw in stdin:
                line = raw.rstrip("\r\n")
                if session.interrupts(line):
                    session.stop()
                lines.put(line)
        except (OSError, ValueError):  # the input closed under us
            log.info("input closed")
        finally:
            lines.put(_EOF)

    reader = threading.Thread(target=read, name="protocol-input", daemon=True)
    reader.start()
    while not session.finished:
        line = lines.get()
        if line is _EOF:
            break
        assert isinstance(line, str)
        try:
            out = session.handle(line)
        except Exception:  # pragma: no cover - a bug: logged, and the session goes on
            log.exception("internal error on %s", shown(line))
            out = []
        try:
            for text in out:
                stdout.write(text + "\n")
            stdout.flush()
        except (BrokenPipeError, ValueError):  # nobody listens any more
            log.info("output closed")
            return 0
    return 0
