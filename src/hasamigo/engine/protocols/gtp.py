"""Our engine over GTP, the Go Text Protocol (version 2), in the subset Othello engines use.

The facts used here come from "GTP - Go Text Protocol, version 2, draft 2" by Gunnar
Farnebäck (https://www.lysator.liu.se/~gunnar/gtp/): a command is ``[id] name args``
(``#`` starts a comment); a success is ``=[id] answer`` and a failure ``?[id] message``,
each ended by an empty line; ``boardsize``, ``clear_board``, ``komi``, ``play COLOUR
VERTEX``, ``genmove COLOUR`` (which plays the move it answers), ``undo``, ``showboard``,
``time_settings MAIN BYO STONES``, ``time_left COLOUR SECONDS STONES``, ``quit``,
``protocol_version``, ``name``, ``version``, ``known_command``, ``list_commands``.

One command of ours, beside the protocol's (GTP leaves room for extensions; ours are named
``hasamigo-...`` so that they cannot clash with a future standard command, and
``list_commands`` lists them): ``hasamigo-threads N`` sets the engine's search threads
(1..64) from the next search on, for the rest of the session (``hasamigo gtp --threads N``
sets them from the start); without ``N`` it answers the threads now.

Othello's rules shape a few answers (as Edax's GTP mode answers them): only an 8×8 board
is accepted; a ``play`` for the side whose opponent must pass plays that pass first;
otherwise a move out of turn is refused; ``genmove`` for a side without a move answers
``pass``.

>>> session = GTPSession(level=1)
>>> session.handle("1 boardsize 10")
['?1 unacceptable size', '']
>>> session.handle("play black f5"), session.handle("play black d6")
(['=', ''], ['? illegal move: not black to move', ''])
>>> session.handle("undo"), session.board.ply
(['=', ''], 0)
"""

from __future__ import annotations

from collections.abc import Callable

from hasamigo import __version__
from hasamigo.board import Board
from hasamigo.engine.core import Engine
from hasamigo.engine.limits import MAX_THREADS
from hasamigo.engine.protocols.session import DEFAULT_LEVEL, Session, log, think
from hasamigo.engine.timing import move_budget
from hasamigo.errors import HasamigoError, InvalidOptionError, shown
from hasamigo.move import BLACK, PASS, WHITE, Color, Move


class GTPSession(Session):
    """The GTP side of our engine: :meth:`handle` one line, get the reply lines (the
    last one empty, as the protocol ends every answer)."""

    def __init__(self, level: int = DEFAULT_LEVEL, *, engine: Engine | None = None,
                 threads: int = 1) -> None:
        super().__init__(level, engine=engine, threads=threads)
        #: plies each ``play``/``genmove`` pushed (a forced pass first makes two): undo
        self._pushed: list[int] = []
        #: seconds left on each side's clock (``time_left``), and its byo-yomi stones
        self._time_left: dict[Color, tuple[float, int]] = {}
        self._main_time: float | None = None
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: "2",
            "name": lambda args: self.name,
            "version": lambda args: __version__,
            "known_command": self._known,
            "list_commands": lambda args: "\n".join(self._commands),
            "quit": self._quit,
            "boardsize": self._boardsize,
            "clear_board": self._clear,
            "komi": lambda args: "",
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "showboard": self._showboard,
            "time_settings": self._time_settings,
            "time_left": self._time_left_cmd,
            "hasamigo-threads": self._threads,
        }

    def handle(self, line: str) -> list[str]:
        words = line.split("#", 1)[0].replace("\t", " ").split()
        if not words:
            return []
        ident = ""
        if words[0].isascii() and words[0].isdigit():
            ident, words = words[0][:18], words[1:]
            if not words:
                return [f"?{ident} empty command", ""]
        command = self._commands.get(words[0])
        if command is None:
            log.warning("unknown command: %s", shown(line))
            return [f"?{ident} unknown command", ""]
        try:
            answer = command(words[1:])
        except _Refused as exc:
            return [f"?{ident} {exc}", ""]
        except HasamigoError as exc:
            return [f"?{ident} {' '.join(str(exc).split())}", ""]
        first, *rest = answer.split("\n")
        # an empty line ends an answer: none inside one
        return [f"={ident} {first}".rstrip(), *(r for r in rest if r.strip()), ""]

    # ---- the commands ---------------------------------------------------------------
    def _known(self, args: list[str]) -> str:
        return "true" if args[:1] and args[0] in self._commands else "false"

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Refused("syntax error")
        if args[0] != "8":
            raise _Refused("unacceptable size")
        self._clear([])
        return ""

    def _clear(self, args: list[str]) -> str:
        self.board = Board()
        self._pushed = []
        return ""

    def _colour(self, text: str) -> Color:
        try:
            return Color.parse(text, lenient=True)
        except InvalidOptionError:
            raise _Refused(f"syntax error: not a colour: {shown(text)}") from None

    def _to_move(self, colour: Color) -> int:
        """Make ``colour`` the side to move, playing the other side's forced pass if it
        has one; returns the plies that took (0 or 1)."""
        if self.board.is_game_over():
            raise _Refused("illegal move: the game is over")
        if self.board.turn is colour:
            return 0
        if not self.board.legal_moves_mask():
            self.board.push(PASS)
            return 1
        raise _Refused(f"illegal move: not {colour} to move")

    def _play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise _Refused("syntax error: play COLOUR VERTEX")
        colour = self._colour(args[0])
        try:
            move = self.board.parse_move(args[1])
        except HasamigoError as exc:
            raise _Refused(f"syntax error: {exc}") from None
        pushed = self._to_move(colour)
        try:
            self.board.play(move)
        except HasamigoError as exc:
            if pushed:
                self.board.pop()
            raise _Refused(f"illegal move: {' '.join(str(exc).split())}") from None
        self._pushed.append(pushed + 1)
        return ""

    def _genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Refused("syntax error: genmove COLOUR")
        colour = self._colour(args[0])
        if self.board.is_game_over():
            return "pass"
        if self.board.turn is not colour and self.board.legal_moves_mask():
            raise _Refused(f"not {colour} to move")
        if self.board.turn is not colour:  # the side to move must pass: not ours
            self.board.push(PASS)
            pushed = 1
        else:
            pushed = 0
        move = self._choose()
        self.board.push(move)
        self._pushed.append(pushed + 1)
        return "pass" if move.is_pass else self.board.move_name(move)

    def _choose(self) -> Move:
        board = self.board
        if not board.legal_moves_mask():
            return PASS
        known = self.book_move(board)
        if known is not None:
            return known.move
        budget = None
        if board.turn in self._time_left:
            seconds, stones = self._time_left[board.turn]
            if stones > 0:  # byo-yomi: this period's time shared by its stones
                seconds = seconds / stones
                budget = move_budget(seconds, 2, solve_from=self.strength.wld_from)
            else:
                budget = move_budget(seconds, board.empties.bit_count(),
                                     solve_from=self.strength.wld_from)
        return think(self.engine, board, self.strength, budget).move

    def _undo(self, args: list[str]) -> str:
        if not self._pushed:
            raise _Refused("cannot undo")
        for _ in range(self._pushed.pop()):
            self.board.pop()
        return ""

    def _showboard(self, args: list[str]) -> str:
        return "\n" + self.board.diagram(show_moves=False)

    def _threads(self, args: list[str]) -> str:
        """``hasamigo-threads [N]``: the engine's search threads, set (N) or told."""
        if not args:
            return str(self.engine.threads)
        if len(args) != 1 or not (args[0].isascii() and args[0].isdigit()
                                  and len(args[0]) <= 9):
            raise _Refused(f"syntax error: hasamigo-threads N (a whole number from 1 to "
                           f"{MAX_THREADS})")
        try:
            self.engine.set_threads(int(args[0]))
        except InvalidOptionError as exc:
            raise _Refused(" ".join(str(exc).split())) from None
        return ""

    def _time_settings(self, args: list[str]) -> str:
        main, byo, _stones = _numbers(args, 3)
        self._main_time = main
        self._time_left = {} if main <= 0 and byo <= 0 else {
            BLACK: (main, 0), WHITE: (main, 0)}
        return ""

    def _time_left_cmd(self, args: list[str]) -> str:
        if len(args) != 3:
            raise _Refused("syntax error: time_left COLOUR SECONDS STONES")
        colour = self._colour(args[0])
        seconds, stones = _numbers(args[1:], 2)
        self._time_left[colour] = (seconds, int(stones))
        return ""


class _Refused(Exception):
    """A command refused: its message is the ``?`` answer."""


def _numbers(args: list[str], count: int) -> list[float]:
    if len(args) != count:
        raise _Refused("syntax error: expected " + " ".join(["NUMBER"] * count))
    out = []
    for text in args:
        if not (text.isascii() and text.isdigit() and len(text) <= 9):
            raise _Refused(f"syntax error: not a whole number of seconds: {shown(text)}")
        out.append(float(text))
    return out
