"""External engines as players: ``nboard:COMMAND`` and ``gtp:COMMAND`` start a program
that speaks NBoard (protocol 2) or GTP and play through it, like any other player.

A player talks to its engine through a :class:`Transport`: a process
(:class:`ProcessTransport`: lines read under a timeout on a thread, the engine's stderr
kept for error messages) or, in tests, a session of our own in this process
(:class:`SessionTransport`, the mock transport). The process starts at the player's first
move and is reused for its later games; :meth:`ExternalPlayer.close` stops it cleanly
(``quit``, then terminate, then kill). An engine that dies, or says nothing for too long,
is restarted once and asked again (the fault is logged and kept in ``faults``); when it
fails again, or answers what is not a legal move, :class:`~hasamigo.errors.ExternalEngineError`
says which engine and what it said.

Over NBoard the whole game goes with every move (``set game``, then ``ping N`` and
``go``; what comes before ``pong N`` is stale). Over GTP the moves the engine has not
seen are sent with ``play`` (from ``clear_board`` when the game is another one), then
``genmove``; every command carries an id, so an answer to an abandoned command is
recognised and skipped.

>>> from hasamigo import Board
>>> from hasamigo.engine.protocols.nboard import NBoardSession
>>> player = NBoardPlayer("our engine", transport=lambda: SessionTransport(
...     lambda: NBoardSession(level=1)))
>>> board = Board()
>>> board.is_legal(player.choose(board))
True
>>> player.close()
"""

from __future__ import annotations

import collections
import logging
import queue
import shlex
import shutil
import subprocess
import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, TextIO

from hasamigo.board import Board
from hasamigo.engine.players.base import Player
from hasamigo.engine.protocols.nboard import board_ggf
from hasamigo.engine.protocols.session import Session
from hasamigo.errors import ExternalEngineError, HasamigoError, InvalidOptionError, shown
from hasamigo.game.clock import Clock
from hasamigo.move import Move

log = logging.getLogger("hasamigo.external")

#: the protocols of external engines, as spec prefixes
PROTOCOLS = ("nboard", "gtp")
#: seconds an engine may think about one move when there is no clock
MOVE_TIMEOUT = 120.0
#: more seconds for the first answer of a process just started (an engine may load or
#: compile its tables then: ours compiles its kernels on a first run, under a minute)
START_TIMEOUT = 120.0
#: more seconds than its clock holds before an engine on a clock counts as silent
CLOCK_GRACE = 5.0
#: seconds a stopping engine gets after ``quit``, and again after being terminated
STOP_SECONDS = 2.0
#: lines of the engine's stderr kept for error messages
STDERR_LINES = 10
#: how often a wait for an answer looks whether it was cancelled
POLL_SECONDS = 0.1


class EngineGone(Exception):
    """The engine died, closed its pipes or stayed silent: restart it."""


class _Cancelled(Exception):
    """The player was cancelled while waiting for the engine."""


class Transport(ABC):
    """A line-based connection to an engine."""

    @abstractmethod
    def start(self) -> None:
        """Start the engine; :class:`~hasamigo.errors.ExternalEngineError` if it cannot."""

    @abstractmethod
    def send(self, line: str) -> None:
        """Send one line; :class:`EngineGone` if the engine no longer listens."""

    @abstractmethod
    def receive(self, timeout: float) -> str | None:
        """The next line (without its end), ``None`` if none came within ``timeout``
        seconds; :class:`EngineGone` once the engine has ended its output."""

    @abstractmethod
    def close(self, goodbye: str | None = None) -> None:
        """Stop the engine (saying ``goodbye`` first, if given); idempotent."""

    def said(self) -> str:
        """What the engine last wrote to its error stream (for messages), if anything."""
        return ""


_EOF = object()


class ProcessTransport(Transport):
    """An engine process: ``argv`` run with pipes (``env``: its environment)."""

    def __init__(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None) -> None:
        self.argv = list(argv)
        self.env = dict(env) if env is not None else None
        self.process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._stderr_pump: threading.Thread | None = None

    def start(self) -> None:
        try:
            self.process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                bufsize=1, env=self.env, start_new_session=True)
        except OSError as exc:
            raise ExternalEngineError(f"cannot start {shlex.join(self.argv)!r}: "
                                      f"{exc.strerror or exc}") from None
        assert self.process.stdout is not None and self.process.stderr is not None
        threading.Thread(target=self._pump, daemon=True, name="engine-stdout",
                         args=(self.process.stdout, self._lines.put,
                               lambda: self._lines.put(_EOF))).start()
        self._stderr_pump = threading.Thread(
            target=self._pump, daemon=True, name="engine-stderr",
            args=(self.process.stderr, self._stderr.append, lambda: None))
        self._stderr_pump.start()

    @staticmethod
    def _pump(stream: TextIO, put: Callable[[str], object], end: Callable[[], object]) -> None:
        """Hand each line of ``stream`` to ``put``, then call ``end``."""
        try:
            for raw in stream:
                put(raw.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        finally:
            end()

    def send(self, line: str) -> None:
        if self.process is None or self.process.stdin is None:
            raise EngineGone("is not running")
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError):
            raise EngineGone(f"stopped listening ({self._status()})") from None

    def receive(self, timeout: float) -> str | None:
        try:
            item = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if item is _EOF:
            self._lines.put(_EOF)  # every later read sees the end too
            raise EngineGone(f"ended its output ({self._status()})")
        assert isinstance(item, str)
        return item

    def _status(self) -> str:
        if self.process is None:
            return "not started"
        try:
            code = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "still running"
        return f"exit status {code}"

    def said(self) -> str:
        if self.process is not None and self.process.poll() is not None \
                and self._stderr_pump is not None:
            self._stderr_pump.join(timeout=0.5)  # an engine that ended: its last words
        return " | ".join(line for line in list(self._stderr) if line)

    def close(self, goodbye: str | None = None) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if goodbye is not None and process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(goodbye + "\n")
                process.stdin.flush()
            except (OSError, ValueError):
                pass
        for stream in (process.stdin,):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class SessionTransport(Transport):
    """One of our own sessions in this process, made by ``make`` at each start: the mock
    transport of tests (no process, no waiting)."""

    def __init__(self, make: Callable[[], Session]) -> None:
        self.make = make
        self.session: Session | None = None
        self._out: collections.deque[str] = collections.deque()

    def start(self) -> None:
        self.session = self.make()
        self._out.clear()

    def send(self, line: str) -> None:
        if self.session is None or self.session.finished:
            raise EngineGone("is not running")
        self._out.extend(self.session.handle(line))

    def receive(self, timeout: float) -> str | None:
        if self._out:
            return self._out.popleft()
        if self.session is None or self.session.finished:
            raise EngineGone("has ended")
        return None

    def close(self, goodbye: str | None = None) -> None:
        self.session = None


def _close_quietly(transport: Transport, goodbye: str | None) -> None:
    try:
        transport.close(goodbye)
    except Exception:  # pragma: no cover - a close must not fail a game that is over
        log.exception("stopping an engine failed")


def split_command(command: str) -> list[str]:
    """The program and arguments of a spec's command (shell quoting, no shell);
    :class:`~hasamigo.errors.InvalidOptionError` for an empty or unbalanced one."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise InvalidOptionError(f"cannot read the command {shown(command)}: {exc}") from None
    if not argv:
        raise InvalidOptionError("an external engine needs a command: nboard:COMMAND or "
                                 "gtp:COMMAND")
    return argv


class ExternalPlayer(Player):
    """A player whose moves an external engine chooses (see the module docstring).

    ``command``: the program and its arguments (a string split as a shell would, or a
    list); ``transport``: how to reach it (default: that process); ``timeout``: seconds
    per move without a clock, ``start_timeout`` more for a process just started;
    ``depth``: a search depth to ask for, if the protocol can.
    """

    protocol: ClassVar[str] = ""

    def __init__(self, command: str | Sequence[str], *, seed: int | None = None,
                 name: str | None = None, timeout: float = MOVE_TIMEOUT,
                 start_timeout: float = START_TIMEOUT, depth: int | None = None,
                 env: Mapping[str, str] | None = None,
                 transport: Callable[[], Transport] | None = None) -> None:
        super().__init__(seed=seed)
        argv = split_command(command) if isinstance(command, str) else list(command)
        if not argv:
            raise InvalidOptionError("an external engine needs a command")
        self.command = command.strip() if isinstance(command, str) else shlex.join(argv)
        self.name = name or f"{self.protocol}:{self.command}"
        if transport is None:
            if shutil.which(argv[0]) is None:
                raise InvalidOptionError(f"{self.name}: no program {shown(argv[0])} "
                                         "(not on PATH, or not executable)")
            transport = lambda: ProcessTransport(argv, env=env)  # noqa: E731
        self._make_transport = transport
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.depth = depth
        self.restarts = 0
        #: what went wrong with the engine so far (each also logged)
        self.faults: list[str] = []
        self._transport: Transport | None = None
        self._finalizer: weakref.finalize[[Transport, str | None], ExternalPlayer] | None = None
        self._cancelled = threading.Event()
        self._setup()

    # ---- the player ------------------------------------------------------------------
    def _choose(self, board: Board, clock: Clock | None) -> Move:
        self._check_board(board)
        for attempt in (1, 2):
            fresh = self._transport is None
            wait = (self.timeout if clock is None
                    else max(1.0, clock.remaining(board.turn)) + CLOCK_GRACE)
            try:
                transport = self._open()
                token = self._ask(transport, board, clock,
                                  time.monotonic() + wait + (self.start_timeout if fresh else 0.0))
            except EngineGone as exc:
                fault = f"{self.name} {exc}" + self._said()
                self._drop()
                self.faults.append(fault)
                if attempt == 2:
                    raise ExternalEngineError(f"{fault}; it had been restarted once for the "
                                              "same move") from None
                log.warning("%s; restarting it, the game goes on", fault)
                self.restarts += 1
                continue
            except _Cancelled:
                self._out_of_sync()
                self.explain(f"{self.name}: cancelled, no answer awaited")
                return next(iter(board.legal_moves))
            move = self._checked(board, token)
            self._played(board, move)
            return move
        raise AssertionError("unreachable")  # pragma: no cover

    def _checked(self, board: Board, token: str) -> Move:
        """The engine's answer as a legal move of ``board``, or the error that says why not."""
        try:
            move = board.parse_move(token)
        except HasamigoError:
            self._out_of_sync()
            raise ExternalEngineError(f"{self.name} answered {shown(token)}, which is not a "
                                      "move") from None
        try:
            board.copy().play(move)
        except HasamigoError as exc:
            self._out_of_sync()
            raise ExternalEngineError(f"{self.name} played {shown(token)}: {exc}") from None
        return move

    def cancel(self) -> None:
        self._cancelled.set()

    def resume(self) -> None:
        self._cancelled.clear()

    def close(self) -> None:
        """Stop the engine (it starts again if the player moves again)."""
        self._drop(self._goodbye())

    # ---- the engine's process --------------------------------------------------------
    def _open(self) -> Transport:
        if self._transport is None:
            transport = self._make_transport()
            transport.start()
            self._transport = transport
            self._finalizer = weakref.finalize(self, _close_quietly, transport, self._goodbye())
            self._started(transport)
        return self._transport

    def _drop(self, goodbye: str | None = None) -> None:
        transport, self._transport = self._transport, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if transport is not None:
            _close_quietly(transport, goodbye)

    def _said(self) -> str:
        said = self._transport.said() if self._transport is not None else ""
        return f" (its last words on stderr: {shown(said, 200)})" if said else ""

    def _line(self, transport: Transport, deadline: float) -> str:
        """The engine's next line, waiting until ``deadline`` (monotonic seconds)."""
        while True:
            if self._cancelled.is_set():
                raise _Cancelled
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineGone("gave no answer in time")
            line = transport.receive(min(POLL_SECONDS, left))
            if line is not None:
                log.debug("%s said %s", self.name, shown(line, 200))
                return line

    # ---- what each protocol says -----------------------------------------------------
    def _setup(self) -> None:
        """Set up the protocol's own state."""

    def _check_board(self, board: Board) -> None:
        """Refuse a game the protocol cannot describe."""

    def _goodbye(self) -> str | None:
        return "quit"

    def _started(self, transport: Transport) -> None:
        """Greet a freshly started engine."""

    def _out_of_sync(self) -> None:
        """The engine's idea of the game may differ from ours from now on."""

    def _played(self, board: Board, move: Move) -> None:
        """``move``, the engine's answer on ``board``, was accepted."""

    @abstractmethod
    def _ask(self, transport: Transport, board: Board, clock: Clock | None,
             deadline: float) -> str:
        """The engine's move on ``board`` as it wrote it."""


class NBoardPlayer(ExternalPlayer):
    """An engine over the NBoard protocol (version 2): ``nboard:COMMAND``."""

    protocol = "nboard"

    def _setup(self) -> None:
        self._ping = 0

    def _started(self, transport: Transport) -> None:
        transport.send("nboard 2")
        if self.depth is not None:
            transport.send(f"set depth {self.depth}")

    def _ask(self, transport: Transport, board: Board, clock: Clock | None,
             deadline: float) -> str:
        self._ping += 1
        pong = f"pong {self._ping}"
        left = None if clock is None else clock.remaining(board.turn)
        transport.send(f"set game {board_ggf(board, left)}")
        transport.send(f"ping {self._ping}")
        transport.send("go")
        complaint = ""
        while (line := self._line(transport, deadline).strip()) != pong:
            # answers to what came before, and what it thinks of the game just sent
            if line.startswith("status error: set game refused"):
                raise ExternalEngineError(f"{self.name} refused the game: {line}")
        while True:
            line = self._line(transport, deadline).strip()
            if line.startswith("==="):
                words = line[3:].split()
                if not words:
                    raise ExternalEngineError(f"{self.name} answered {shown(line)}: no move"
                                              f"{complaint}")
                # MOVE/EVAL/TIME as the protocol writes it, or MOVE EVAL TIME as Edax does
                fields = words[0].split("/") if "/" in words[0] else words
                score = fields[1] if len(fields) > 1 and fields[1] else None
                self.explain(f"{self.name}: " + (f"score {score}" if score else "no score"))
                return fields[0]
            if line.startswith("status error"):
                complaint = f" after saying {shown(line, 200)}"
                log.warning("%s said %s", self.name, shown(line, 200))


class GTPPlayer(ExternalPlayer):
    """An engine over GTP (Go Text Protocol 2, 8×8 boardsize): ``gtp:COMMAND``."""

    protocol = "gtp"

    def _setup(self) -> None:
        self._id = 0
        #: the moves the engine has been told, from the start (None: unknown)
        self._known: list[Move] | None = None

    def _check_board(self, board: Board) -> None:
        if type(board) is not Board or board.root().to_string() != Board().to_string():
            raise ExternalEngineError(f"{self.name}: GTP plays only games of 8×8 Othello "
                                      "from the usual start")

    def _started(self, transport: Transport) -> None:
        self._known = None

    def _out_of_sync(self) -> None:
        self._known = None

    def _played(self, board: Board, move: Move) -> None:
        self._known = [*board.move_stack, move]

    def _command(self, transport: Transport, text: str, deadline: float) -> tuple[bool, str]:
        """Send ``text`` with a fresh id; (success, answer) of the answer with that id."""
        self._id += 1
        ident = str(self._id)
        transport.send(f"{ident} {text}")
        while True:
            line = self._line(transport, deadline)
            if not line or line[0] not in "=?":
                continue
            head, _, rest = line[1:].partition(" ")
            if head not in (ident, ""):  # another command's answer (an abandoned one)
                continue
            body = [rest.strip()]
            while (more := self._line(transport, deadline)).strip():
                body.append(more.strip())
            return line[0] == "=", "\n".join(body).strip()

    def _must(self, transport: Transport, text: str, deadline: float) -> None:
        ok, answer = self._command(transport, text, deadline)
        if not ok:
            self._known = None
            raise ExternalEngineError(f"{self.name} refused {text!r}: {shown(answer, 200)}")

    def _ask(self, transport: Transport, board: Board, clock: Clock | None,
             deadline: float) -> str:
        played = list(board.move_stack)
        known = self._known
        if known is None or played[:len(known)] != known:
            if known is None:
                self._must(transport, "boardsize 8", deadline)
            self._must(transport, "clear_board", deadline)
            known = []
        replay = board.root()
        for move in played[:len(known)]:
            replay.push(move)
        self._known = None  # until every move is in
        for move in played[len(known):]:
            colour = replay.turn.value
            self._must(transport, f"play {colour} {replay.move_name(move)}", deadline)
            replay.push(move)
        self._known = played
        colour = board.turn.value
        if clock is not None:
            left = max(0, int(clock.remaining(board.turn)))
            self._must(transport, f"time_left {colour} {left} 0", deadline)
        self._known = None  # genmove plays its move on the engine's board
        ok, answer = self._command(transport, f"genmove {colour}", deadline)
        if not ok:
            raise ExternalEngineError(f"{self.name} refused to move: {shown(answer, 200)}")
        if answer.lower() == "resign":
            raise ExternalEngineError(f"{self.name} resigned (Othello has no resignation)")
        self.explain(f"{self.name}: genmove")
        return answer.split()[0] if answer else answer


def external_player(protocol: str, command: str | Sequence[str], *, seed: int | None = None,
                    name: str | None = None, timeout: float = MOVE_TIMEOUT,
                    depth: int | None = None) -> ExternalPlayer:
    """The player of ``protocol`` (``nboard`` or ``gtp``) over ``command``."""
    kind: type[ExternalPlayer] | None = {"nboard": NBoardPlayer, "gtp": GTPPlayer}.get(protocol)
    if kind is None:
        raise InvalidOptionError(f"unknown engine protocol {shown(protocol)}; known: "
                                 + ", ".join(PROTOCOLS))
    return kind(command, seed=seed, name=name, timeout=timeout, depth=depth)
