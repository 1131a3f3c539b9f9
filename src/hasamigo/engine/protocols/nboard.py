"""Our engine as an NBoard-protocol engine (protocol version 2), and the GGF of a board.

The facts used here come from Chris Welty's description of the protocol that NBoard's
engines speak, "NBoard Protocol" (``protocol.htm`` in the NBoard distribution,
http://www.orbanova.com/nboard/, and its earlier version in
https://github.com/weltyc/ntest/blob/master/instructions/Protocol.htm):

* one command a line; an engine ignores a whole line it does not understand;
* ``nboard 2`` starts the session; ``set depth N`` the midgame depth (answered here, as
  Edax and NTest do, with ``set myname``); ``set game GGF`` the position at the game's
  end; ``set contempt N`` the value of a draw for Black (kept, not used: the book has no
  draws to value); ``move F5/eval/time`` one move played (eval and time may be omitted);
* ours, beside the protocol (a GUI that does not know it never sends it): ``set threads
  N``, the engine's search threads (1..64) from the next search on, for the rest of the
  session (``hasamigo nboard --threads N`` sets them from the start);
* ``hint N``: evaluations of about the N best moves as ``search PV EVAL 0 DEPTH`` (the PV
  starts with the move, no spaces, e.g. ``F5-D6``; EVAL from the side to move; DEPTH
  ``100%`` for an exact solve, ``100%W`` for a win/loss/draw one), then ``status``;
* ``go``: ``=== MOVE/EVAL/TIME`` without playing the move (the GUI sends ``move``),
  from the opening book at the levels that use it (a ``book PV EVAL GAMES DEPTH`` line),
  within the depth and the time left in the game (the GGF's ``TI`` clock less the times of
  the side's moves, ``B[f5/eval/time]``, and those of later ``move`` commands);
* ``ping N``: stop thinking, answer ``pong N``; ``learn``: answer ``learned``;
* ``analyze``: one line per position of the game, ``analysis MOVES_MADE EVAL`` (passes
  count as moves; 0 is the start), walked back from the end;
* engine to GUI: ``status TEXT``, ``set myname NAME``, ``nodestats NODES SECONDS``.

What the protocol leaves open is answered so that a GUI keeps working: a ``set game``,
``move``, ``set depth``, ``set threads`` or ``hint`` that cannot be used is refused with a
``status`` line saying why, and the position (and the setting) stays as it was.

>>> session = NBoardSession(level=1)
>>> session.handle("nboard 2"), session.handle("ping 7"), session.handle("learn")
([], ['pong 7'], ['learned'])
>>> session.handle("set game (;GM[Othello]TY[8]B[f5]W[z9];)")[0][:31]
'status error: set game refused:'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from hasamigo.board import Board
from hasamigo.engine.core import Analysis, Engine, MoveScore
from hasamigo.engine.limits import Limit
from hasamigo.engine.protocols.session import DEFAULT_LEVEL, Session, Strength, log, think
from hasamigo.engine.timing import move_budget
from hasamigo.errors import HasamigoError, InvalidOptionError, shown
from hasamigo.move import BLACK, PASS, WHITE, Color, Move
from hasamigo.notation.ggf import format_ggf, iter_games, record_from_properties
from hasamigo.notation.record import GameRecord

VERSION = 2


def move_text(board: Board, move: Move) -> str:
    """A move as NBoard writes it: ``F5``, ``PA`` for a pass."""
    return "PA" if move.is_pass else board.move_name(move).upper()


def pv_text(board: Board, pv: Sequence[Move]) -> str:
    """A principal variation without spaces: ``F5-D6-C3``."""
    return "-".join(move_text(board, m) for m in pv) or "PA"


def depth_text(analysis: Analysis) -> str:
    """NBoard's depth field: ``100%`` exact, ``100%W`` win/loss/draw, else the plies."""
    if analysis.exact:
        return "100%W" if analysis.mode == "wld" else "100%"
    return str(analysis.depth)


def board_ggf(board: Board, time_left: float | None = None) -> str:
    """The game that led to ``board`` (its start and moves) as one line of GGF;
    ``time_left``: the seconds the side to move has left, as the game's clock (``TI``).

    >>> board_ggf(Board(), 90.5)[:30]
    '(;GM[Othello]TY[8]TI[1:30]BO[8'
    """
    root = board.root()
    start = None if root.to_string() == type(board)().to_string() else root.to_string()
    record = GameRecord(variant=type(board), start=start, moves=list(board.move_stack))
    if time_left is not None:
        whole = max(0, int(time_left))
        record.metadata["TY"] = str(board.rows)
        record.metadata["TI"] = f"{whole // 60}:{whole % 60:02d}"
    return format_ggf(record)


def board_of_ggf(text: str) -> Board:
    """The position at the end of the first game of ``text``; :class:`ParseError` or
    :class:`IllegalMoveError` for one that cannot be read or played."""
    return game_of_ggf(text)[0]


def game_of_ggf(text: str) -> tuple[Board, dict[Color, float] | None]:
    """The position at the end of the first game of ``text`` and, when the game has a
    clock (``TI``), the seconds left to each side (its moves' times subtracted)."""
    games = list(iter_games(text.splitlines(), source="set game"))
    if not games:
        raise HasamigoError("no game in the GGF text")
    props = games[0][1]
    board = record_from_properties(props, source="set game").replay()
    clock = {p.key: p.value for p in props}.get("TI")
    seconds = None if clock is None else clock_seconds(clock)
    if seconds is None:
        return board, None
    left = {BLACK: seconds, WHITE: seconds}
    for prop in props:
        if prop.key in ("B", "W"):
            left[BLACK if prop.key == "B" else WHITE] -= move_seconds(prop.value)
    return board, left


def clock_seconds(text: str) -> float | None:
    """The main time of a GGS clock (``15:00``, ``1:00:00``, ``05:00//02:00``), or None.

    >>> clock_seconds("15:00"), clock_seconds("1:00:00//0:30"), clock_seconds("soon")
    (900.0, 3600.0, None)
    """
    fields = text.split("/", 1)[0].strip().split(":")
    if not 1 <= len(fields) <= 3 or not all(f.isascii() and f.isdigit() and len(f) <= 6
                                            for f in fields):
        return None
    total = 0.0
    for field in fields:
        total = total * 60 + int(field)
    return total


def move_seconds(text: str) -> float:
    """The time of a move written ``f5/eval/time`` (0 when it is not given)."""
    parts = text.split("/")
    if len(parts) < 3:
        return 0.0
    value = clock_seconds(parts[2]) if ":" in parts[2] else _number(parts[2])
    return value or 0.0


def _number(text: str) -> float | None:
    t = text.strip()
    if not t or len(t) > 12 or not all(ch in "0123456789." for ch in t) or t.count(".") > 1 \
            or t == ".":
        return None
    return float(t)


class NBoardSession(Session):
    """The NBoard side of our engine: :meth:`handle` one line, get the reply lines."""

    def __init__(self, level: int = DEFAULT_LEVEL, *, engine: Engine | None = None,
                 threads: int = 1) -> None:
        super().__init__(level, engine=engine, threads=threads)
        self.version: int | None = None
        self.contempt = 0
        #: seconds left to each side, when the game has a clock
        self.time_left: dict[Color, float] | None = None
        self._commands: dict[str, Callable[[str], list[str]]] = {
            "nboard": self._nboard, "set": self._set, "move": self._move, "hint": self._hint,
            "go": self._go, "ping": self._ping, "learn": self._learn,
            "analyze": self._analyze, "quit": self._quit,
        }

    def interrupts(self, line: str) -> bool:
        return line.split(maxsplit=1)[:1] == ["ping"]

    def handle(self, line: str) -> list[str]:
        words = line.strip().split(maxsplit=1)
        if not words:
            return []
        command = self._commands.get(words[0])
        if command is None:
            log.warning("ignored an unknown command: %s", shown(line))
            return []
        try:
            return command(words[1] if len(words) > 1 else "")
        except HasamigoError as exc:
            return [f"status error: {words[0]}: {exc}"]

    # ---- the commands ---------------------------------------------------------------
    def _nboard(self, arg: str) -> list[str]:
        self.version = _whole(arg)
        if self.version is None:
            log.warning("nboard version %s is not a number", shown(arg))
        return []

    def _set(self, arg: str) -> list[str]:
        what, _, value = arg.partition(" ")
        value = value.strip()
        if what == "depth":
            depth = _whole(value)
            if depth is None:
                return [f"status error: set depth needs a whole number, not {shown(value)}"]
            self.strength = Strength.of_depth(depth)
            return [f"set myname {self.name}{self.strength.label}"]
        if what == "game":
            try:
                board, self.time_left = game_of_ggf(value)
            except (HasamigoError, ValueError) as exc:
                return [f"status error: set game refused: {_one_line(exc)}"]
            self.board = board
            return []
        if what == "threads":
            threads = _whole(value)
            if threads is None:
                return [f"status error: set threads needs a whole number, not {shown(value)}"]
            try:
                self.engine.set_threads(threads)
            except InvalidOptionError as exc:
                return [f"status error: set threads refused: {_one_line(exc)}"]
            return []
        if what == "contempt":
            contempt = _whole(value)
            if contempt is None:
                return [f"status error: set contempt needs a whole number, not {shown(value)}"]
            self.contempt = contempt
            return []
        log.warning("ignored an unknown setting: set %s", shown(arg))
        return []

    def _move(self, arg: str) -> list[str]:
        token = arg.split("/", 1)[0].strip()
        mover = self.board.turn
        try:
            move = self.board.parse_move(token)
            self.board.play(move)
        except (HasamigoError, ValueError) as exc:
            return [f"status error: move refused: {_one_line(exc)}"]
        if self.time_left is not None:
            self.time_left[mover] -= move_seconds(arg)
        return []

    def _hint(self, arg: str) -> list[str]:
        wanted = _whole(arg) if arg.strip() else 1
        if wanted is None or wanted < 1:
            return [f"status error: hint needs a number of moves >= 1, not {shown(arg)}"]
        if self.board.is_game_over():
            return ["status the game is over"]
        empties = self.board.empties.bit_count()
        depth = empties if empties <= self.strength.exact_from else self.strength.depth
        n = min(wanted, max(1, len(self.board.legal_moves)))
        started = time.perf_counter()
        a = self.engine.analyse(self.board, Limit(depth=depth), multipv=n,
                                selectivity=self.strength.selectivity)
        out = [f"status {self.name} is thinking"]
        out += [self._search_line(line, a) for line in a.lines]
        out += [f"nodestats {a.nodes} {time.perf_counter() - started:.2f}", "status"]
        return out

    def _search_line(self, line: MoveScore, a: Analysis) -> str:
        pv = line.pv or (line.move,)
        return f"search {pv_text(self.board, pv)} {line.score:.2f} 0 {depth_text(a)}"

    def _go(self, arg: str) -> list[str]:
        if self.board.is_game_over():
            return ["status error: go: the game is over, there is no move"]
        if not self.board.legal_moves_mask():
            return ["=== PA"]
        known = self.book_move(self.board)
        if known is not None:
            move = move_text(self.board, known.move)
            return [f"book {move} {known.value:.2f} {known.games} {known.depth}",
                    f"=== {move}/{known.value:.2f}/0.00"]
        started = time.perf_counter()
        budget = None
        if self.time_left is not None:
            budget = move_budget(max(0.0, self.time_left[self.board.turn]),
                                 self.board.empties.bit_count(),
                                 solve_from=self.strength.wld_from)
        a = think(self.engine, self.board, self.strength, budget)
        seconds = time.perf_counter() - started
        return [f"status {self.name} is thinking",
                f"search {pv_text(self.board, a.pv or (a.move,))} {a.score:.2f} 0 "
                f"{depth_text(a)}",
                f"nodestats {a.nodes} {seconds:.2f}",
                f"=== {move_text(self.board, a.move)}/{a.score:.2f}/{seconds:.2f}"]

    def _ping(self, arg: str) -> list[str]:
        return [f"pong {arg.strip()}".rstrip()]

    def _learn(self, arg: str) -> list[str]:
        return ["learned"]

    def _analyze(self, arg: str) -> list[str]:
        """Every position of the game, from the end back: ``analysis MOVES EVAL``."""
        board = self.board.copy()
        out = [f"status {self.name} is analysing"]
        while True:
            out.append(f"analysis {board.ply} {self._eval(board):.2f}")
            if not board.move_stack:
                break
            board.pop()
        return [*out, "status"]

    def _eval(self, board: Board) -> float:
        """The score of ``board`` for its side to move: the final one when it is over."""
        if board.is_game_over():
            outcome = board.outcome()
            assert outcome is not None
            diff = outcome.black - outcome.white
            return float(diff if board.turn is BLACK else -diff)
        if not board.legal_moves_mask():  # a forced pass: the opponent's score, negated
            work = board.copy()
            work.push(PASS)
            return -float(think(self.engine, work, self.strength).score)
        return float(think(self.engine, board, self.strength).score)

    def _quit(self, arg: str) -> list[str]:
        self.finished = True
        return []


def _whole(text: str) -> int | None:
    """A whole number written in ASCII digits (at most 9, with an optional sign)."""
    t = text.strip()
    digits = t[1:] if t[:1] in "+-" else t
    if not digits or len(digits) > 9 or not all("0" <= ch <= "9" for ch in digits):
        return None
    return int(t)


def _one_line(exc: BaseException) -> str:
    """An error's message on one line (a protocol reply must not break a line)."""
    return " ".join(str(exc).split())
