"""The state every procedure shares, and the rules they share.

A :class:`GameState` is frozen: :func:`hasamigo.game.state.apply` gives each event's rules
a :class:`Draft` (a working copy of the fields, made in constant time) and freezes it into
the next state. The record of moves has one home, the chain of :class:`Ply` values: each
new state's chain is the old one plus at most one link, so folding a game is linear in its
events. :attr:`GameState.moves` and :attr:`GameState.board` (with its ``move_stack``) are
derived from it, once per state, when asked; the rules use :attr:`GameState.position`,
the position alone, in constant time.

The shared rules: a ply on the board and what follows it (the clock, the end of the game),
the end itself, a time-out and whose clock runs while a program waits for its kernels.
The procedures' own rules are in :mod:`~hasamigo.game.procedures.colours`,
:mod:`~hasamigo.game.procedures.online`, :mod:`~hasamigo.game.procedures.over_board` and
:mod:`~hasamigo.game.procedures.study`. A procedure with state of its own (over the board,
the study) defines it and keeps it beside the game's, in :attr:`GameState.parts`
(:meth:`Queries.part` reads it, :meth:`Draft.put` replaces it): this module imports no
procedure, each imports it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

from hasamigo.board import Board
from hasamigo.game.clock import ClockState
from hasamigo.game.colours import FuseIshi, Right
from hasamigo.game.errors import GameError
from hasamigo.game.result import GameResult, Termination, playout_result
from hasamigo.game.setup import GameSetup
from hasamigo.move import BLACK, WHITE, Color, Move


class Phase(enum.Enum):
    COLOURS = "colours"  # colours (or the draw-win right) are being decided
    PLAYING = "playing"
    TIMEOUT_CHOICE = "timeout-choice"  # a flag was claimed: the winner picks 33–31 or play-out
    PLAYOUT = "playout"  # 勝手打ち: the winner plays both colours
    OVER = "over"


TIMEOUT_CHOICES = ("33-31", "playout")

#: the type of a procedure's own state (see :meth:`Queries.part`)
P = TypeVar("P")

#: A position as :class:`~hasamigo.board.Board` snapshots it for ``pop``: the black and
#: white discs, the side to move, and the discs in hand (black, white).
Snapshot = tuple[int, int, Color, int, int]


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """A move (or pass) of the record: who, what, when, and the seconds it was charged
    (``None`` without a clock and in play-out)."""

    colour: Color
    move: Move
    at: float
    seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Ply:
    """One link of the record: the move, the position after it, the ply before it
    (``None`` for the first) and its number (1 for the first). States share the chain."""

    played: PlayedMove
    after: Snapshot
    before: Ply | None
    number: int


@dataclass(frozen=True, slots=True)
class ColourProgress:
    """How far the colour decision has come. ``draw_win_only``: colours are set and a
    fuse-ishi decides the draw-win right alone (draws not allowed, another method)."""

    hider: int | None = None
    top: Color | None = None
    call: str | None = None
    right: str | None = None  # the call winner's right: "draw-win" | "colour"
    colour: Color | None = None  # the colour-right holder's pick
    draw_win_only: bool = False


# ---- the record and the board ----------------------------------------------------------------
def snapshot(board: Board) -> Snapshot:
    """``board``'s position in :class:`Board`'s own snapshot format."""
    return (board.black, board.white, board.turn, *board._hand)


def board_at(root: Board, last: Ply | None) -> Board:
    """A new board at the position after ``last`` (``root``'s without one), with an empty
    move stack: constant time, whatever the length of the game."""
    board = root.copy(stack=False)
    if last is not None:
        board.black, board.white, board.turn, black_hand, white_hand = last.after
        board._hand = (black_hand, white_hand)
    return board


def plies(last: Ply | None) -> list[Ply]:
    """The chain ending at ``last``, first ply first."""
    chain = []
    while last is not None:
        chain.append(last)
        last = last.before
    chain.reverse()
    return chain


def full_board(root: Board, last: Ply | None) -> Board:
    """A new board after ``last`` whose move stack (and ``pop`` snapshots) is the record,
    a move kept as played included (see :mod:`~hasamigo.game.procedures.over_board`)."""
    chain = plies(last)
    board = board_at(root, last)
    board.move_stack = [ply.played.move for ply in chain]
    board._snapshots = [snapshot(root), *(ply.after for ply in chain[:-1])]
    return board


# ---- the state -------------------------------------------------------------------------------
class Queries:
    """What :class:`GameState` and its :class:`Draft` answer about a game (the fields are
    :class:`GameState`'s)."""

    setup: GameSetup
    root: Board
    start: str
    phase: Phase
    seats: dict[Color, int] | None
    draw_win: Color | None
    colours: ColourProgress
    clock: ClockState | None
    last: Ply | None
    result: GameResult | None
    timeout_loser: Color | None
    playout_from: int | None
    accepted: frozenset[Color]
    undo_request: Color | None
    suspended_running: Color | None
    suspended: bool
    last_at: float | None
    revision: int
    position_revision: int
    players_clock: bool
    waiting: frozenset[int]
    parts: tuple[object, ...]

    @property
    def ply_count(self) -> int:
        """How many moves and passes the record holds (``len(moves)``, in constant time:
        the last ply's number)."""
        return 0 if self.last is None else self.last.number

    def part(self, kind: type[P]) -> P | None:
        """The state the procedure whose state is a ``kind`` keeps beside the game's
        (:attr:`GameState.parts`), or ``None`` while it has none."""
        for part in self.parts:
            if isinstance(part, kind):
                return part
        return None

    def seat(self, colour: Color) -> int:
        """The participant (0 or 1) playing ``colour``."""
        if self.seats is None:
            raise GameError("colours are not decided yet", "wrong_phase")
        return self.seats[colour]

    def colour_of(self, participant: int) -> Color | None:
        if self.seats is None:
            return None
        return BLACK if self.seats[BLACK] == participant else WHITE

    def is_person(self, colour: Color) -> bool:
        return self.setup.participants[self.seat(colour)].is_person

    @property
    def persons(self) -> list[Color]:
        """Colours played by people (empty before colours are decided)."""
        if self.seats is None:
            return []
        return [c for c in (BLACK, WHITE) if self.is_person(c)]

    @property
    def paused(self) -> bool:
        """An official game whose programs cannot all move yet: it does not begin (or go
        on) until they can (:class:`~hasamigo.game.events.ProgramWaiting`)."""
        return bool(self.waiting) and not self.setup.options.casual

    def waits(self, colour: Color) -> bool:
        """``colour`` is played by a program that cannot move yet."""
        return self.seats is not None and self.seats[colour] in self.waiting

    def remaining(self, colour: Color, now: float) -> float | None:
        if self.clock is None:
            return None
        return self.clock.remaining(colour, now)

    def flagged(self, colour: Color, now: float) -> bool:
        """``colour``'s flag is down at ``now`` (it stays down once fallen)."""
        return self.clock is not None and self.clock.flagged(colour, now)

    @property
    def result_final(self) -> bool:
        """Over, and no time-out can be claimed any more: both players accepted the result,
        or it was not a game played to its end on the board, or it is a correspondence
        game (whose deadline only ever falls on the side to move)."""
        if self.phase is not Phase.OVER or self.result is None:
            return False
        if self.result.termination is not Termination.NORMAL or self.clock is None \
                or self.clock.per_turn is not None:
            return True
        return self.accepted >= {BLACK, WHITE}

    def deadline(self) -> float | None:
        """A correspondence game's deadline for the side to move: the instant its turn
        began plus the days per move (``None``: not a correspondence game, or no turn
        is running)."""
        clock = self.clock
        if clock is None or clock.per_turn is None or clock.running is None:
            return None
        return clock.flag_time(clock.running)

    def can_claim(self, flagged: Color, now: float) -> bool:
        """A claim of ``flagged``'s flag would stand at ``now``."""
        if self.clock is None or not self.flagged(flagged, now):
            return False
        if self.phase is Phase.PLAYING:
            return True
        return self.phase is Phase.OVER and not self.result_final

    def undo_target(self, colour: Color) -> int | None:
        """Index in :attr:`GameState.moves` of ``colour``'s last disc move (what a
        take-back of ``colour``'s move goes back to)."""
        ply = self.last
        while ply is not None:
            if ply.played.colour is colour and not ply.played.move.is_pass:
                return ply.number - 1
            ply = ply.before
        return None

    def pending_colour_step(self) -> tuple[str, int | None] | None:
        """The colour-decision step awaited: ``(step, participant)``; the participant is
        ``None`` for the server's draws (``draw``, ``hider``; ``hide`` is the hider's but
        its face is drawn by the server too)."""
        if self.phase is not Phase.COLOURS:
            return None
        method = self.setup.colour_method
        progress = self.colours
        if self.seats is None and method in ("black", "white"):
            return ("choose", 0)
        if self.seats is None and method == "random":
            return ("draw", None)
        if progress.hider is None:
            return ("hider", None)
        caller = 1 - progress.hider
        if progress.top is None:
            return ("hide", progress.hider)
        if progress.call is None:
            return ("call", caller)
        if progress.draw_win_only or self.setup.options.draws_allowed:
            return None
        machine = fuse_machine(self)
        if progress.right is None:
            assert machine.chooser is not None
            return ("right", int(machine.chooser))
        if progress.colour is None:
            assert machine.colour_chooser is not None
            return ("colour", int(machine.colour_chooser))
        return None


@dataclass(frozen=True)
class GameState(Queries):
    """Everything the events say about a game at one point (see :mod:`hasamigo.game.state`).

    ``setup`` is the game's setup as the events leave it: the stored one
    (:attr:`GameController.setup <hasamigo.game.controller.GameController.setup>`, never
    changed) with each participant's name as the last
    :class:`~hasamigo.game.events.SeatNamed` of its seat named it, if any.
    ``root`` is the start position (never changed); ``last`` the record's last ply.
    ``revision`` counts the events; ``position_revision`` is the revision of the last
    event that changed the board or ended play (a move computed before it is stale).

    ``players_clock``: the clock is the players' (a game over the board, see
    :mod:`~hasamigo.game.procedures.over_board`): only their presses switch it, a move
    never does. ``parts``: what the procedures keep beside the game's own fields, one
    frozen value per procedure, each defined and folded by its procedure's module (the
    over-the-board record, a study's questions) and read with :meth:`part`; this core
    knows none of them.
    """

    setup: GameSetup
    root: Board
    start: str
    phase: Phase = Phase.COLOURS
    seats: dict[Color, int] | None = None  # never changed in place: a new dict if at all
    draw_win: Color | None = None
    colours: ColourProgress = ColourProgress()
    clock: ClockState | None = None
    last: Ply | None = None
    result: GameResult | None = None
    timeout_loser: Color | None = None
    playout_from: int | None = None
    accepted: frozenset[Color] = frozenset()
    undo_request: Color | None = None
    suspended_running: Color | None = None
    suspended: bool = False
    last_at: float | None = None
    revision: int = 0
    position_revision: int = 0
    players_clock: bool = False
    # ---- programs that cannot move yet: their kernels load (see hasamigo.game.state) ----
    waiting: frozenset[int] = frozenset()
    # ---- the procedures' own states (see Queries.part) ----
    parts: tuple[object, ...] = ()

    @cached_property
    def moves(self) -> tuple[PlayedMove, ...]:
        """The record: every move and pass, first first (derived from :attr:`last`)."""
        return tuple(ply.played for ply in plies(self.last))

    @cached_property
    def board(self) -> Board:
        """The board with the record as its move stack (built once per state, on demand;
        a board of its own: changing it changes no state)."""
        return full_board(self.root, self.last)

    @cached_property
    def position(self) -> Board:
        """The board at this point without its move stack (constant time)."""
        return board_at(self.root, self.last)


#: what a :class:`GameState` derives and keeps (not fields: a :class:`Draft` drops them)
_DERIVED = ("moves", "board", "position")


class Draft(Queries):
    """A :class:`GameState` being edited by one event's rules: a copy of its fields (the
    values themselves are shared, none is changed in place), frozen by :meth:`freeze`."""

    __slots__ = ("_board", "_board_of")  # beside the fields, which are in __dict__

    def __init__(self, state: GameState) -> None:
        values = vars(state).copy()
        for name in _DERIVED:
            values.pop(name, None)
        self.__dict__ = values
        self._board: Board | None = None
        self._board_of: Ply | None = None

    def put(self, part: object) -> None:
        """Keep ``part`` as its procedure's state, in place of the one of its type."""
        kind = type(part)
        if any(type(p) is kind for p in self.parts):
            self.parts = tuple(part if type(p) is kind else p for p in self.parts)
        else:
            self.parts = (*self.parts, part)

    def freeze(self) -> GameState:
        new = GameState.__new__(GameState)
        vars(new).update(self.__dict__)
        return new

    @property
    def position(self) -> Board:
        """The board at the current position, without its move stack: the draft's own
        (:func:`play` moves it on)."""
        if self._board is None or self._board_of is not self.last:
            self._board, self._board_of = board_at(self.root, self.last), self.last
        return self._board


def fuse_machine(state: Queries) -> FuseIshi:
    """The fuse-ishi state machine replayed from the progress (one home for its rules)."""
    progress = state.colours
    assert progress.hider is not None and progress.top is not None
    machine = FuseIshi(str(progress.hider), str(1 - progress.hider),
                       draws_allowed=state.setup.options.draws_allowed)
    machine.hide(progress.top)
    if progress.call is not None:
        call = progress.call
        machine.call(Color(call) if call in ("black", "white") else call)  # type: ignore[arg-type]
    if progress.right is not None:
        machine.choose_right(Right.DRAW_WIN if progress.right == "draw-win" else Right.COLOUR)
    if progress.colour is not None:
        machine.choose_colour(progress.colour)
    return machine


# ---- the shared rules ------------------------------------------------------------------------
def play(state: Draft, colour: Color, move: Move, at: float) -> None:
    """``colour`` plays ``move`` (checked: :class:`~hasamigo.errors.IllegalMoveError`)."""
    board = state.position
    board.push(move)
    after_ply(state, colour, move, snapshot(board), at, board)


def after_ply(state: Draft, colour: Color, move: Move, after: Snapshot, at: float,
              board: Board | None = None) -> None:
    """A move (or pass) reaching ``after`` (``board``'s position, if given) joins the
    record; the clock and the end follow."""
    seconds = None
    if state.clock is not None and state.phase is Phase.PLAYING and not state.players_clock:
        state.clock, seconds = state.clock.switch(runner(state, after[2]), at)
    state.last = Ply(PlayedMove(colour, move, at, seconds), after, state.last,
                     state.ply_count + 1)
    if board is not None:
        state._board, state._board_of = board, state.last
    state.undo_request = None
    state.position_revision = state.revision + 1
    check_end(state, at)


def check_end(state: Draft, at: float) -> None:
    board = state.position
    outcome = board.outcome()
    if outcome is None:
        return
    if state.phase is Phase.PLAYOUT:
        finish(state, playout_result(board, winner_of_timeout(state)), at)
    else:
        draw_win = None if state.setup.options.draws_allowed else state.draw_win
        scoring = state.setup.options.counted_by
        finish(state, GameResult.from_outcome(outcome, draw_win=draw_win, scoring=scoring), at)


def finish(state: Draft, result: GameResult, at: float) -> None:
    """The game is over with ``result`` (a faulty entry still undecided stays so: see
    :func:`hasamigo.game.procedures.over_board.settle`)."""
    state.result = result
    state.phase = Phase.OVER
    state.undo_request = None
    state.position_revision = state.revision + 1
    if state.clock is not None and state.clock.running is not None:
        state.clock, _ = state.clock.switch(None, at)


def winner_of_timeout(state: Queries) -> Color:
    assert state.timeout_loser is not None
    return state.timeout_loser.other


def playout_time(state: Draft, at: float) -> None:
    """In a play-out, nothing is played once the winner's flag fell."""
    if state.phase is Phase.PLAYOUT and state.clock is not None:
        winner = winner_of_timeout(state)
        if state.clock.flagged(winner, at):
            raise GameError("time is up: the play-out ended when the winner's flag fell",
                            "time_up")


def begin_timeout(state: Draft, loser: Color, at: float) -> None:
    """``loser`` has lost on time: the clock stops and the winner chooses (rule 15)."""
    assert state.clock is not None
    if state.clock.running is not None:
        state.clock, _ = state.clock.switch(None, at)
    state.result = None
    state.accepted = frozenset()
    state.timeout_loser = loser
    state.phase = Phase.TIMEOUT_CHOICE
    state.undo_request = None
    state.position_revision = state.revision + 1


def runner(state: Queries, colour: Color | None) -> Color | None:
    """Whose time runs when ``colour``'s would: nobody's while ``colour`` is a program
    that cannot move yet, nor in an official game while any program waits."""
    if colour is None or not state.waiting:
        return colour
    if state.paused or state.waits(colour):
        return None
    return colour


#: a rule of the fold: edits the draft for one event, or raises (the draft is dropped)
Rule = Callable[[Draft, Any], None]

__all__ = [
    "TIMEOUT_CHOICES",
    "ColourProgress",
    "Draft",
    "GameState",
    "Phase",
    "PlayedMove",
    "Ply",
    "Queries",
    "Rule",
    "Snapshot",
    "after_ply",
    "begin_timeout",
    "board_at",
    "check_end",
    "finish",
    "full_board",
    "fuse_machine",
    "play",
    "playout_time",
    "plies",
    "runner",
    "snapshot",
    "winner_of_timeout",
]
