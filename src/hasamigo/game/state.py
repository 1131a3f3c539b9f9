"""A game's state as a pure fold over its events: board, phase, seats, clock and result.

:func:`replay` folds a :class:`~hasamigo.game.setup.GameSetup` and its events into a
:class:`GameState`; :func:`apply` takes one more event, returning a **new** state or raising
(:class:`~hasamigo.game.errors.GameError`, :class:`~hasamigo.errors.IllegalMoveError`)
with the old one untouched. Nothing here reads a clock or draws a random number: the
instant of every event is in the event, so the same events give the same state anywhere.

The JOF procedure it enforces (the official rules of the Japan Othello Federation):

* **colours** by choice, a random draw, or fuse-ishi (伏せ石): the hider is the higher
  rank, else the elder, else drawn. With draws allowed the caller calls top/bottom and
  plays that face's colour. Without draws the caller calls a colour; whoever wins the call
  takes the draw-win right (引き分け勝ち) or the colour right, the other gets the other.
  **Without draws and another colour method**, a fuse-ishi after the colours decides the
  draw-win right alone: whoever wins the call holds it. A 32–32 game always goes to the
  draw-win holder when draws are not allowed.
* **moves and passes**: a pass only when no move exists (refused naming the moves, rule
  6①); the clock of the side to move runs from the previous event, a pass included.
* **time-out (rule 15)**: a flag is lost only when claimed, by the opponent or by the
  player (self-report); never by the clock alone. A flag that fell stays down: it can be
  claimed later in the game, and the last mover's even after the end, until both players
  have accepted the result. A claim when the claimant's flag is down too is "both flags
  down": a draw, or the draw-win holder's win; not rated. The winner chooses 33–31 or
  play-out (勝手打ち: the winner plays both colours on their own remaining time, and the
  count when they stop, or when their time runs out, stands; empties go to the loser).
* **take-backs** in casual games only; between two people the opponent must consent.
  Time already used is not given back.
* **suspend/resume**: the server's outages stop the clock (see the web service).
* **a program waiting for its kernels** (:class:`~hasamigo.game.events.ProgramWaiting`
  until :class:`~hasamigo.game.events.ProgramReady`: a fresh server compiles them): its
  clock does not run while it is on move, and the time is not charged to it. In a casual
  game the person plays on meanwhile; an **official game does not begin, nor go on,
  until every program can move**: neither clock runs and no move is accepted (rule 5's
  clock starts for the first mover when the last program is ready).

Games played **over the board** (an :class:`~hasamigo.game.events.OverTheBoard` event;
both players people at a real board and clock) add:

* **the clock is the players'**: it stays stopped until the side that does not move first
  presses it (rule 5: White; Black in a handicap game, where White moves first), then only
  :class:`~hasamigo.game.events.ClockPress` events switch it — a move or a pass on the
  board ends with the mover's press (rules 6④, 9), and moves entered in the record never
  touch it, so the clock and the record can be kept apart and tied in one game;
* **late arrival** (rules 12–14): an absent player's clock runs from the scheduled start;
  on arrival the clock stops and they play on what is left, or choose a forfeit loss
  (64–0, not rated); a flag that falls meanwhile is claimed as any other;
* **an illegal move claimed** (rule 6①) hands the turn back to the offender; when the
  offender was in byo-yomi (秒読み, at most ``byoyomi`` seconds left) it is corrected and
  then a time-out (rule 15);
* **record entry**: a move entered as played (:class:`~hasamigo.game.events.EnteredMove`)
  is checked by :func:`hasamigo.game.entry.check_entry`; a legal one is a move, a faulty
  one waits (nothing else may happen but the clock) until the recorder corrects it (the
  legal position) or keeps the board as it stands (the record marks the point; a byo-yomi
  offender's corrected move is a time-out too). The faults stay in :attr:`GameState.faults`
  with their decisions;
* **the result card** (rule 18, any game between two people): it ends a game still in
  play, or stands in for the count of a finished one (a play-out's too); counts that do
  not add up are read to the winner's disadvantage; once signed, no time-out can be
  claimed.

User-study games (a :class:`~hasamigo.game.events.StudyGame` event, appended before the
first move of a game between one person, the subject, and a program) add the amusement
paper's questions: after every program move (a forced pass included) that leaves the
game in play, a question is **asked** (:class:`StudyQuestion`: the move, its number, the
position the subject faces); the subject's move or forced pass is refused until both
questions (:data:`~hasamigo.game.events.STUDY_QUESTIONS`) are answered
(:class:`~hasamigo.game.events.StudyAnswer`), and a second answer to the same question of
the same move is refused. The time spent answering is not charged to the subject's clock
(the clock restarts from each answer, unless the flag fell already).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hasamigo.board import Board
from hasamigo.errors import IllegalMoveError, IllegalReason, InvalidOptionError
from hasamigo.game.clock import ClockState
from hasamigo.game.colours import FuseIshi, FuseIshiError, Right
from hasamigo.game.entry import Entry, Fault, check_entry, correction, entry_from_event
from hasamigo.game.errors import GameError, StoredGameError
from hasamigo.game.events import (
    STUDY_QUESTIONS,
    Absent,
    AcceptResult,
    Arrival,
    Claim,
    ClockPress,
    ColourStep,
    CorrectEntry,
    EnteredMove,
    Event,
    IllegalClaim,
    KeepBoard,
    LateForfeit,
    MovePlayed,
    OverTheBoard,
    Pass,
    ProgramReady,
    ProgramWaiting,
    Resign,
    ResultCard,
    Resume,
    StopPlayout,
    StudyAnswer,
    StudyGame,
    Suspend,
    TimeoutChoice,
    Undo,
    UndoDecline,
    UndoRequest,
)
from hasamigo.game.result import (
    GameResult,
    Termination,
    both_flags_down,
    forfeit,
    playout_result,
    resignation,
    result_card,
    timeout_win,
)
from hasamigo.game.setup import GameSetup, hider
from hasamigo.move import BLACK, PASS, WHITE, Color, Move


class Phase(enum.Enum):
    COLOURS = "colours"  # colours (or the draw-win right) are being decided
    PLAYING = "playing"
    TIMEOUT_CHOICE = "timeout-choice"  # a flag was claimed: the winner picks 33–31 or play-out
    PLAYOUT = "playout"  # 勝手打ち: the winner plays both colours
    OVER = "over"


TIMEOUT_CHOICES = ("33-31", "playout")


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """A move (or pass) of the record: who, what, when, and the seconds it was charged
    (``None`` without a clock and in play-out)."""

    colour: Color
    move: Move
    at: float
    seconds: float | None = None


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


@dataclass(frozen=True, slots=True)
class OverBoard:
    """A game played over the board (see the module docstring): the scheduled start, the
    byo-yomi threshold, the first mover, and whether the clock has been started."""

    scheduled: float | None
    byoyomi: float
    first: Color
    started: bool = False


@dataclass(frozen=True, slots=True)
class Late:
    """A participant absent at the start: their clock runs from ``since``; ``arrived``
    once they are there."""

    participant: int
    since: float
    arrived: float | None = None


@dataclass(frozen=True, slots=True)
class PendingEntry:
    """A faulty entered move awaiting the recorder's decision."""

    move_number: int
    entry: Entry
    faults: tuple[Fault, ...]
    at: float


@dataclass(frozen=True, slots=True)
class DecidedFault:
    """A fault of the record with the recorder's decision: ``corrected``, ``kept``, or
    ``undecided`` (the game ended, by a resignation, before a decision)."""

    fault: Fault
    decision: str

    def to_json(self) -> dict[str, Any]:
        return {**self.fault.to_json(), "decision": self.decision}


@dataclass(frozen=True, slots=True)
class BoardMark:
    """A point of the record where the board as played was kept: after move
    ``move_number`` the game went on from ``board`` (a board string)."""

    move_number: int
    board: str


@dataclass(frozen=True, slots=True)
class StudyQuestion:
    """The questions asked after the program's move number ``move_number`` (``move``),
    with the position the subject then faced (a board string), when they were asked, and
    the answers given so far."""

    move_number: int
    move: Move
    position: str
    at: float
    answers: tuple[StudyAnswer, ...] = ()

    @property
    def complete(self) -> bool:
        return {a.question for a in self.answers} >= set(STUDY_QUESTIONS)

    def answer(self, question: str) -> StudyAnswer | None:
        return next((a for a in self.answers if a.question == question), None)


@dataclass(frozen=True, slots=True)
class StudyProgress:
    """A study game's questions so far (see the module docstring); ``subject``: the
    person's colour."""

    subject: Color
    questions: tuple[StudyQuestion, ...] = ()

    @property
    def asked(self) -> StudyQuestion | None:
        """The question awaiting an answer (the subject may not move meanwhile)."""
        last = self.questions[-1] if self.questions else None
        return last if last is not None and not last.complete else None


@dataclass(slots=True)
class GameState:
    """Everything the events say about a game at one point (see the module docstring).

    ``revision`` counts the events; ``position_revision`` is the revision of the last
    event that changed the board or ended play (a move computed before it is stale).
    """

    setup: GameSetup
    board: Board
    start: str
    phase: Phase = Phase.COLOURS
    seats: dict[Color, int] | None = None
    draw_win: Color | None = None
    colours: ColourProgress = ColourProgress()
    clock: ClockState | None = None
    moves: list[PlayedMove] = field(default_factory=list)
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
    # ---- over the board (see the module docstring) ----
    otb: OverBoard | None = None
    late: Late | None = None
    pending: PendingEntry | None = None
    faults: tuple[DecidedFault, ...] = ()
    marks: tuple[BoardMark, ...] = ()
    card: tuple[int, int] | None = None
    presses: int = 0
    last_press: tuple[Color, bool] | None = None
    # ---- a user-study game (see the module docstring) ----
    study: StudyProgress | None = None
    # ---- programs that cannot move yet: their kernels load (see the module docstring) ----
    waiting: frozenset[int] = frozenset()

    def copy(self) -> GameState:
        return replace(self, board=self.board.copy(), moves=list(self.moves),
                       seats=None if self.seats is None else dict(self.seats))

    # ---- queries -----------------------------------------------------------------
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
        or it was not a game played to its end on the board."""
        if self.phase is not Phase.OVER or self.result is None:
            return False
        if self.result.termination is not Termination.NORMAL or self.clock is None:
            return True
        return self.accepted >= {BLACK, WHITE}

    def can_claim(self, flagged: Color, now: float) -> bool:
        """A claim of ``flagged``'s flag would stand at ``now``."""
        if self.clock is None or not self.flagged(flagged, now):
            return False
        if self.phase is Phase.PLAYING:
            return True
        return self.phase is Phase.OVER and not self.result_final

    def in_byoyomi(self, colour: Color, at: float) -> bool:
        """``colour`` had at most the byo-yomi seconds left at ``at`` (over the board)."""
        if self.otb is None or self.clock is None or not self.otb.started:
            return False
        return self.clock.remaining(colour, at) <= self.otb.byoyomi

    def undo_target(self, colour: Color) -> int | None:
        """Index in :attr:`moves` of ``colour``'s last disc move (what a take-back of
        ``colour``'s move goes back to)."""
        for index in range(len(self.moves) - 1, -1, -1):
            played = self.moves[index]
            if played.colour is colour and not played.move.is_pass:
                return index
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
        machine = _fuse_machine(self)
        if progress.right is None:
            assert machine.chooser is not None
            return ("right", int(machine.chooser))
        if progress.colour is None:
            assert machine.colour_chooser is not None
            return ("colour", int(machine.colour_chooser))
        return None


# ---- the fold ------------------------------------------------------------------------
def initial(setup: GameSetup) -> GameState:
    """The state before any event: the start position, colours undecided."""
    board = setup.options.new_board()
    state = GameState(setup, board, board.to_string())
    found = hider(*setup.participants)
    if setup.colour_method == "fuse-ishi" and found is not None:
        state.colours = ColourProgress(hider=found)
    return state


def replay(setup: GameSetup, events: list[Event] | tuple[Event, ...], *,
           game: str | None = None) -> GameState:
    """Fold ``events`` over ``setup``; a refused event raises :class:`StoredGameError`
    naming the game and the event's number (from 1)."""
    try:
        state = initial(setup)
    except GameError as exc:
        raise StoredGameError(f"the setup is refused: {exc}", game=game) from exc
    for number, event in enumerate(events, 1):
        try:
            state = apply(state, event)
        except (GameError, IllegalMoveError, ValueError) as exc:
            raise StoredGameError(f"{event.kind} refused: {exc}", game=game,
                                  event=number) from exc
    return state


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``; raises (changing nothing) if the rules refuse it."""
    if state.last_at is not None and event.at < state.last_at:
        raise GameError(f"an event at {event.at:.3f} s comes before the previous one "
                        f"({state.last_at:.3f} s)")
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise GameError(f"no rule for {type(event).__name__} events")
    _study_gate(state, event)
    if state.pending is not None and type(event) not in _WHILE_PENDING:
        raise GameError(f"move {state.pending.move_number} was entered with faults: correct "
                        "it or keep the board first", "wrong_phase")
    new = state.copy()
    handler(new, event)
    new.last_at = event.at
    new.revision += 1
    return new


# ---- colours -------------------------------------------------------------------------
def _fuse_machine(state: GameState) -> FuseIshi:
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


def _colour_step(state: GameState, event: ColourStep) -> None:
    pending = state.pending_colour_step()
    if pending is None:
        raise GameError("colours are not being decided now", "wrong_phase")
    step, who = pending
    if event.step != step or event.participant != who:
        name = "the server" if who is None else state.setup.participants[who].name
        raise GameError(f"colours: waiting for {name} to take the {step} step", "colours")
    late = state.late
    if late is not None and late.arrived is None and who == late.participant:
        raise GameError(f"colours: {state.setup.participants[who].name} has not arrived",
                        "colours")
    value = event.value
    progress = state.colours
    if step == "choose":
        if value != state.setup.colour_method:
            raise GameError(f"colours: this game's creator takes {state.setup.colour_method}",
                            "colours")
        first = Color(value)
        _seat(state, {first: 0, first.other: 1}, event.at)
        return
    if step == "draw":
        black = _participant_value(value)
        _seat(state, {BLACK: black, WHITE: 1 - black}, event.at)
        return
    if step == "hider":
        state.colours = replace(progress, hider=_participant_value(value))
        return
    if step == "hide":
        state.colours = replace(progress, top=_colour_value(value))
        return
    if step == "call":
        allowed = (("black", "white") if progress.draw_win_only
                   or not state.setup.options.draws_allowed else ("top", "bottom"))
        if value not in allowed:
            raise GameError(f"colours: the call is {' or '.join(allowed)}", "colours")
        state.colours = replace(progress, call=value)
    elif step == "right":
        if value not in ("draw-win", "colour"):
            raise GameError("colours: the right is 'draw-win' or 'colour'", "colours")
        state.colours = replace(progress, right=value)
    else:
        state.colours = replace(progress, colour=_colour_value(value))
    _settle_fuse(state, event.at)


def _settle_fuse(state: GameState, at: float) -> None:
    """After a call, right or colour: seat the players once fuse-ishi has decided."""
    progress = state.colours
    if progress.draw_win_only:
        assert progress.top is not None and progress.hider is not None
        caller = 1 - progress.hider
        winner = caller if Color(progress.call or "black") is progress.top else progress.hider
        state.draw_win = state.colour_of(winner)
        _begin(state, at)
        return
    try:
        machine = _fuse_machine(state)
        if state.pending_colour_step() is not None:
            return
        decision = machine.decision()
    except FuseIshiError as exc:
        raise GameError(f"colours: {exc}", "colours") from exc
    _seat(state, {BLACK: int(decision.black), WHITE: int(decision.white)}, at)
    state.draw_win = decision.draw_win_colour


def _seat(state: GameState, seats: dict[Color, int], at: float) -> None:
    state.seats = seats
    options = state.setup.options
    if not options.draws_allowed and state.setup.colour_method != "fuse-ishi":
        # colours are set; a fuse-ishi decides the draw-win right alone
        found = hider(*state.setup.participants)
        state.colours = ColourProgress(hider=found, draw_win_only=True)
        return
    _begin(state, at)


def _begin(state: GameState, at: float) -> None:
    state.phase = Phase.PLAYING
    if state.setup.options.clock_seconds is not None:
        seconds = float(state.setup.options.clock_seconds)
        state.clock = ClockState(seconds, seconds, _runner(state, state.board.turn), at) \
            if state.otb is None else _otb_clock(state, seconds, at)
    state.position_revision = state.revision + 1
    _check_end(state, at)


def _participant_value(value: str) -> int:
    if value not in ("0", "1"):
        raise GameError("colours: a participant is '0' or '1'", "colours")
    return int(value)


def _colour_value(value: str) -> Color:
    try:
        return Color.parse(value)
    except InvalidOptionError as exc:
        raise GameError(f"colours: {exc}", "colours") from exc


# ---- moves ---------------------------------------------------------------------------
def _on_board(state: GameState, colour: Color, what: str) -> None:
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    if state.paused:
        raise GameError("the game begins once the program can move (its engine is being "
                        "prepared on this server)", "program_waiting")
    if state.phase not in (Phase.PLAYING, Phase.PLAYOUT):
        code = "game_over" if state.phase is Phase.OVER else "wrong_phase"
        raise GameError(f"no {what} now: the game is {state.phase.value}", code)
    turn = state.board.turn
    if colour is not turn:
        raise IllegalMoveError(
            f"illegal {what} for {colour}: {IllegalReason.NOT_YOUR_TURN.value} ({turn} to move)",
            IllegalReason.NOT_YOUR_TURN)


def _playout_time(state: GameState, at: float) -> None:
    if state.phase is Phase.PLAYOUT and state.clock is not None:
        winner = _winner_of_timeout(state)
        if state.clock.flagged(winner, at):
            raise GameError("time is up: the play-out ended when the winner's flag fell",
                            "time_up")


def _move(state: GameState, event: MovePlayed) -> None:
    _on_board(state, event.colour, "move")
    if state.waits(event.colour):
        raise GameError(f"the program playing {event.colour} cannot move yet",
                        "program_waiting")
    _playout_time(state, event.at)
    move = Move(event.square, event.turned)
    state.board.push(move)
    _after_ply(state, event.colour, move, event.at)


def _pass(state: GameState, event: Pass) -> None:
    _on_board(state, event.colour, "pass")
    _playout_time(state, event.at)
    board = state.board
    if board.legal_moves_mask():
        legal = ", ".join(board.move_name(m) for m in board.legal_moves)
        raise IllegalMoveError(
            f"illegal pass for {event.colour}: {IllegalReason.PASS_NOT_ALLOWED.value} "
            f"(legal: {legal})", IllegalReason.PASS_NOT_ALLOWED)
    board.push(PASS)
    _after_ply(state, event.colour, PASS, event.at)


def _after_ply(state: GameState, colour: Color, move: Move, at: float) -> None:
    seconds = None
    if state.clock is not None and state.phase is Phase.PLAYING and state.otb is None:
        state.clock, seconds = state.clock.switch(_runner(state, state.board.turn), at)
    state.moves.append(PlayedMove(colour, move, at, seconds))
    state.undo_request = None
    state.position_revision = state.revision + 1
    _check_end(state, at)
    _ask(state, colour, move, at)


def _check_end(state: GameState, at: float) -> None:
    outcome = state.board.outcome()
    if outcome is None:
        return
    if state.phase is Phase.PLAYOUT:
        _finish(state, playout_result(state.board, _winner_of_timeout(state)), at)
    else:
        draw_win = None if state.setup.options.draws_allowed else state.draw_win
        _finish(state, GameResult.from_outcome(outcome, draw_win=draw_win), at)


def _finish(state: GameState, result: GameResult, at: float) -> None:
    if state.pending is not None:
        state.faults += tuple(DecidedFault(f, "undecided") for f in state.pending.faults)
        state.pending = None
    state.result = result
    state.phase = Phase.OVER
    state.undo_request = None
    state.position_revision = state.revision + 1
    if state.clock is not None and state.clock.running is not None:
        state.clock, _ = state.clock.switch(None, at)


# ---- time ----------------------------------------------------------------------------
def _winner_of_timeout(state: GameState) -> Color:
    assert state.timeout_loser is not None
    return state.timeout_loser.other


def _claim(state: GameState, event: Claim) -> None:
    if state.clock is None:
        raise GameError("this game has no clock", "no_flag")
    if state.phase not in (Phase.PLAYING, Phase.OVER) or (
            state.phase is Phase.OVER and state.result_final):
        raise GameError(f"there is no flag to claim now: the game is {state.phase.value}",
                        "no_flag")
    if state.phase is Phase.OVER and state.clock.running is not None:  # pragma: no cover
        raise GameError("the clock is still running", "no_flag")
    flagged = event.flagged
    if not state.flagged(flagged, event.at):
        left = state.clock.remaining(flagged, event.at)
        raise GameError(f"{flagged}'s flag has not fallen ({left:.1f} s left)", "no_flag")
    other = flagged.other
    if state.flagged(other, event.at):
        draw_win = None if state.setup.options.draws_allowed else state.draw_win
        if state.clock.running is not None:
            state.clock, _ = state.clock.switch(None, event.at)
        _finish(state, both_flags_down(draw_win=draw_win,
                                       squares=state.board.square_count()), event.at)
        return
    _begin_timeout(state, flagged, event.at)


def _begin_timeout(state: GameState, loser: Color, at: float) -> None:
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


def _timeout_choice(state: GameState, event: TimeoutChoice) -> None:
    if state.phase is not Phase.TIMEOUT_CHOICE:
        raise GameError("there is no time-out to settle", "wrong_phase")
    winner = _winner_of_timeout(state)
    squares = state.board.square_count()
    if event.choice == "33-31":
        _finish(state, timeout_win(winner, squares=squares), event.at)
        return
    if event.choice != "playout":
        raise GameError("the choice is '33-31' or 'playout'")
    assert state.clock is not None
    state.phase = Phase.PLAYOUT
    state.playout_from = len(state.moves)
    state.clock, _ = state.clock.switch(winner, event.at)
    state.position_revision = state.revision + 1
    if state.clock.flagged(winner, event.at):  # no time left to play anything
        _finish(state, playout_result(state.board, winner), event.at)
        return
    _check_end(state, event.at)


def _stop_playout(state: GameState, event: StopPlayout) -> None:
    if state.phase is not Phase.PLAYOUT:
        raise GameError("no play-out is in progress", "wrong_phase")
    winner = _winner_of_timeout(state)
    assert state.clock is not None
    fell = state.clock.flag_time(winner)
    if event.timed_out and (fell is None or event.at < fell):
        raise GameError("the play-out winner's time has not run out", "bad_request")
    at = event.at if fell is None else min(event.at, fell)
    _finish(state, playout_result(state.board, winner), at)


def _suspend(state: GameState, event: Suspend) -> None:
    if state.suspended:
        raise GameError("the game is already suspended", "suspended")
    running = None if state.clock is None else state.clock.running
    if running is None:
        raise GameError("no clock is running", "wrong_phase")
    assert state.clock is not None
    state.clock, _ = state.clock.switch(None, event.at)
    state.suspended, state.suspended_running = True, running


def _resume(state: GameState, event: Resume) -> None:
    if not state.suspended or state.clock is None:
        raise GameError("the game is not suspended", "wrong_phase")
    state.clock, _ = state.clock.switch(_runner(state, state.suspended_running), event.at)
    state.suspended, state.suspended_running = False, None


# ---- programs waiting for their kernels --------------------------------------------------
def _runner(state: GameState, colour: Color | None) -> Color | None:
    """Whose time runs when ``colour``'s would: nobody's while ``colour`` is a program
    that cannot move yet, nor in an official game while any program waits."""
    if colour is None or not state.waiting:
        return colour
    if state.paused or state.waits(colour):
        return None
    return colour


def _waiting_participant(state: GameState, participant: int | None) -> int:
    if participant not in (0, 1):
        raise GameError("the waiting program is participant 0 or 1")
    assert participant is not None
    if state.setup.participants[participant].is_person:
        raise GameError("only a program waits for its kernels", "not_in_game")
    return participant


def _program_waiting(state: GameState, event: ProgramWaiting) -> None:
    who = _waiting_participant(state, event.participant)
    if state.phase not in (Phase.COLOURS, Phase.PLAYING):
        raise GameError(f"a program waits for its kernels only before or during play, "
                        f"not when the game is {state.phase.value}", "wrong_phase")
    if who in state.waiting:
        raise GameError("that program is waiting already", "wrong_phase")
    state.waiting = state.waiting | {who}
    clock = state.clock
    if clock is not None and clock.running is not None and not state.suspended \
            and _runner(state, clock.running) is None:
        state.clock, _ = clock.switch(None, event.at)


def _program_ready(state: GameState, event: ProgramReady) -> None:
    who = _waiting_participant(state, event.participant)
    if who not in state.waiting:
        raise GameError("that program is not waiting", "wrong_phase")
    state.waiting = state.waiting - {who}
    clock = state.clock
    # in play, a stopped clock that is not suspended was stopped for the programs
    if clock is not None and clock.running is None and state.phase is Phase.PLAYING \
            and not state.suspended and state.otb is None:
        runner = _runner(state, state.board.turn)
        if runner is not None:
            state.clock, _ = clock.switch(runner, event.at)


# ---- resign, accept, take-backs ----------------------------------------------------------
def _resign(state: GameState, event: Resign) -> None:
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    if state.phase is not Phase.PLAYING:
        if state.phase is Phase.TIMEOUT_CHOICE or state.phase is Phase.PLAYOUT:
            raise GameError("the time-out winner settles the game", "wrong_phase")
        raise GameError(f"cannot resign: the game is {state.phase.value}", "wrong_phase")
    _finish(state, resignation(event.colour, squares=state.board.square_count()), event.at)


def _accept(state: GameState, event: AcceptResult) -> None:
    if state.phase is not Phase.OVER:
        raise GameError("there is no result to accept yet", "wrong_phase")
    if event.colour in state.accepted:
        raise GameError(f"{event.colour} has already accepted the result", "wrong_phase")
    state.accepted = state.accepted | {event.colour}


def _undo_allowed(state: GameState, colour: Color) -> None:
    # Over the board the record is the recorder's: a take-back withdraws an entry (the
    # players' take-backs happen on the board, or not at all), so it is allowed there.
    if not state.setup.options.casual and state.otb is None:
        raise GameError("no take-backs in an official game", "undo_not_allowed")
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    if state.phase is not Phase.PLAYING:
        raise GameError(f"cannot take back: the game is {state.phase.value}", "wrong_phase")
    if state.undo_target(colour) is None:
        raise GameError(f"{colour} has no move to take back", "nothing_to_undo")


def _undo_request(state: GameState, event: UndoRequest) -> None:
    _undo_allowed(state, event.colour)
    if state.undo_request is not None:
        raise GameError(f"{state.undo_request} has already asked to take back",
                        "wrong_phase")
    state.undo_request = event.colour


def _undo_decline(state: GameState, event: UndoDecline) -> None:
    if state.undo_request is not event.colour.other:
        raise GameError("there is no take-back request of the opponent to decline",
                        "no_undo_request")
    state.undo_request = None


def _undo(state: GameState, event: Undo) -> None:
    colour = event.colour
    _undo_allowed(state, colour)
    if not state.is_person(colour):
        raise GameError("only a person's move is taken back (with the replies after it)",
                        "nothing_to_undo")
    if state.is_person(colour.other) and state.undo_request is not colour:
        raise GameError(f"taking back {colour}'s move needs the opponent's consent",
                        "no_undo_request")
    target = state.undo_target(colour)
    assert target is not None
    while len(state.moves) > target:
        state.moves.pop()
        state.board.pop()
    state.marks = tuple(m for m in state.marks if m.move_number <= target)
    state.faults = tuple(f for f in state.faults
                         if f.decision != "kept" or f.fault.move_number <= target)
    if state.clock is not None and state.otb is None:
        state.clock, _ = state.clock.switch(_runner(state, state.board.turn), event.at)
    state.undo_request = None
    state.position_revision = state.revision + 1


# ---- over the board ----------------------------------------------------------------------
def _otb_clock(state: GameState, seconds: float, at: float) -> ClockState:
    """The clock of a game over the board when play begins: stopped until the first
    press, except for a late player's time, which runs from their scheduled start."""
    clock = ClockState(seconds, seconds, None, at)
    late = state.late
    if late is None:
        return clock
    colour = state.colour_of(late.participant)
    assert colour is not None
    if late.arrived is None:
        return ClockState(seconds, seconds, colour, late.since)
    used = max(0.0, late.arrived - late.since)
    return ClockState(seconds - used if colour is BLACK else seconds,
                      seconds - used if colour is WHITE else seconds, None, at)


def _need_otb(state: GameState, what: str) -> OverBoard:
    if state.otb is None:
        raise GameError(f"{what} belongs to games played over the board", "wrong_phase")
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    return state.otb


def _over_the_board(state: GameState, event: OverTheBoard) -> None:
    if state.otb is not None:
        raise GameError("the game is already played over the board", "wrong_phase")
    if not all(p.is_person for p in state.setup.participants):
        raise GameError("a game over the board is played by two people")
    if state.moves or state.suspended or state.phase not in (Phase.COLOURS, Phase.PLAYING):
        raise GameError("a game is declared over the board before it begins", "wrong_phase")
    first = state.board.root().turn
    state.otb = OverBoard(event.scheduled, event.byoyomi, first)
    seconds = state.setup.options.clock_seconds
    if state.clock is not None and seconds is not None:
        # the colours were set at creation: the clock waits for the first press
        state.clock = ClockState(float(seconds), float(seconds), None, event.at)


def _late_participant(state: GameState, participant: int | None) -> Late:
    late = state.late
    if late is None or participant != late.participant:
        raise GameError("that participant was not absent", "wrong_phase")
    return late


def _before_start(state: GameState, otb: OverBoard, what: str) -> None:
    if otb.started or state.moves or state.phase not in (Phase.COLOURS, Phase.PLAYING):
        raise GameError(f"{what} only before the game has begun", "wrong_phase")


def _absent(state: GameState, event: Absent) -> None:
    otb = _need_otb(state, "a late arrival")
    _before_start(state, otb, "a player is absent")
    if event.participant not in (0, 1):
        raise GameError("the absent participant is 0 or 1")
    if state.late is not None:
        raise GameError("a player is already absent", "wrong_phase")
    if state.setup.options.clock_seconds is None:
        raise GameError("a late player's time runs on a clock: this game has none", "no_flag")
    if event.since > event.at:
        raise GameError("the absent player's clock runs from the scheduled start, which "
                        "has not come yet")
    state.late = Late(event.participant, event.since)
    colour = state.colour_of(event.participant)
    if state.clock is not None and colour is not None:
        state.clock = replace(state.clock, running=colour, since=event.since)


def _arrival(state: GameState, event: Arrival) -> None:
    otb = _need_otb(state, "an arrival")
    late = _late_participant(state, event.participant)
    if late.arrived is not None:
        raise GameError("that player has arrived already", "wrong_phase")
    _before_start(state, otb, "an arrival")
    state.late = replace(late, arrived=event.at)
    if state.clock is not None and state.clock.running is not None:
        state.clock, _ = state.clock.switch(None, event.at)


def _late_forfeit(state: GameState, event: LateForfeit) -> None:
    otb = _need_otb(state, "a late player's forfeit")
    late = _late_participant(state, event.participant)
    _before_start(state, otb, "a late player's forfeit")
    if late.arrived is None:
        state.late = replace(late, arrived=event.at)
    if state.seats is None:  # never begun: the present player is written as Black
        state.seats = {BLACK: 1 - late.participant, WHITE: late.participant}
    loser = state.colour_of(late.participant)
    assert loser is not None
    _finish(state, forfeit(loser.other, rated=False, squares=state.board.square_count()),
            event.at)


def _clock_press(state: GameState, event: ClockPress) -> None:
    otb = _need_otb(state, "pressing the clock")
    if state.phase is not Phase.PLAYING:
        raise GameError(f"the clock is not pressed now: the game is {state.phase.value}",
                        "game_over" if state.phase is Phase.OVER else "wrong_phase")
    clock = state.clock
    if clock is None:
        raise GameError("this game has no clock", "wrong_phase")
    late = state.late
    if late is not None and late.arrived is None:
        name = state.setup.participants[late.participant].name
        raise GameError(f"{name} has not arrived: their time runs", "wrong_phase")
    colour = event.colour
    if not otb.started:
        starter = otb.first.other
        if colour is not starter or event.passed:
            raise GameError(f"{starter} starts the clock (rule 5)", "not_your_turn")
        state.otb = replace(otb, started=True)
        state.clock, _ = clock.switch(otb.first, event.at)
    else:
        if clock.running is not colour:
            running = "no clock" if clock.running is None else f"{clock.running}'s clock"
            raise GameError(f"{colour} pressed, but {running} is running", "not_your_turn")
        state.clock, _ = clock.switch(colour.other, event.at)
    state.presses += 1
    state.last_press = (colour, event.passed)


def _illegal_claim(state: GameState, event: IllegalClaim) -> None:
    otb = _need_otb(state, "claiming an illegal move on the clock")
    if state.phase is not Phase.PLAYING or not otb.started or state.clock is None:
        raise GameError("an illegal move is claimed during play", "wrong_phase")
    if state.clock.running is not event.by:
        raise GameError("an illegal move is claimed on the claimant's own turn, before "
                        "moving (rule 6①)", "not_your_turn")
    offender = event.by.other
    if state.in_byoyomi(offender, event.at):
        _begin_timeout(state, offender, event.at)
        return
    state.clock, _ = state.clock.switch(offender, event.at)  # back to the offender


def _entered_move(state: GameState, event: EnteredMove) -> None:
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    if state.phase not in (Phase.PLAYING, Phase.PLAYOUT):
        code = "game_over" if state.phase is Phase.OVER else "wrong_phase"
        raise GameError(f"no move now: the game is {state.phase.value}", code)
    board = state.board
    entry = entry_from_event(board, event)
    number = len(state.moves) + 1
    faults = check_entry(board, entry, number)
    if faults:
        state.pending = PendingEntry(number, entry, tuple(faults), event.at)
        state.position_revision = state.revision + 1
        return
    _playout_time(state, event.at)
    move = PASS if entry.square is None else Move(entry.square)
    board.push(move)
    _after_ply(state, event.by, move, event.at)


def _correct_entry(state: GameState, event: CorrectEntry) -> None:
    pending = state.pending
    if pending is None:
        raise GameError("there is no faulty move to correct", "wrong_phase")
    state.pending = None
    state.faults += tuple(DecidedFault(f, "corrected") for f in pending.faults)
    entry = pending.entry
    fixed = correction(state.board, entry)
    if fixed is None:  # withdrawn: the side to move plays again
        state.position_revision = state.revision + 1
    else:
        state.board.push(fixed)
        _after_ply(state, entry.by, fixed, event.at)
    if state.in_byoyomi(entry.by, pending.at) and (
            state.phase is Phase.PLAYING or (state.phase is Phase.OVER
                                             and not state.result_final)):
        _begin_timeout(state, entry.by, event.at)  # rule 15: corrected, then a time-out


def _push_as_played(board: Board, entry: Entry) -> Move:
    """Push ``entry`` onto ``board`` as it stands, legal or not, keeping the move stack
    and its snapshots in step (so a take-back and the replay still work).

    :class:`Board` has no public way to push an illegal position; the snapshot format is
    the one :meth:`Board.push` writes and :meth:`Board.pop` restores."""
    move = PASS if entry.square is None else Move(entry.square)
    board._snapshots.append((board.black, board.white, board.turn, *board._hand))
    if board.disc_limit is not None and entry.square is not None:
        colour = entry.colour()
        hand = board._hand
        board._hand = (hand[0] - 1, hand[1]) if colour is BLACK else (hand[0], hand[1] - 1)
    board.black, board.white = entry.black, entry.white
    board.turn = entry.by.other
    board.move_stack.append(move)
    return move


def _keep_board(state: GameState, event: KeepBoard) -> None:
    pending = state.pending
    if pending is None:
        raise GameError("there is no faulty move to keep", "wrong_phase")
    state.pending = None
    state.faults += tuple(DecidedFault(f, "kept") for f in pending.faults)
    move = _push_as_played(state.board, pending.entry)
    state.marks += (BoardMark(pending.move_number, state.board.to_string()),)
    _after_ply(state, pending.entry.by, move, event.at)


def _card_result(state: GameState, black: int, white: int) -> GameResult:
    result = result_card(black, white, squares=state.board.square_count())
    if result.winner is None and not state.setup.options.draws_allowed \
            and state.draw_win is not None:
        return replace(result, winner=state.draw_win, by_draw_win=True)
    return result


def _playout_card(state: GameState, black: int, white: int) -> GameResult:
    winner = _winner_of_timeout(state)
    card = result_card(black, white, squares=state.board.square_count())
    if card.winner is not winner:  # the win was decided by the time-out (see playout_result)
        return timeout_win(winner, squares=state.board.square_count())
    return GameResult(card.black, card.white, winner, Termination.PLAYOUT)


def _result_card(state: GameState, event: ResultCard) -> None:
    if not all(p.is_person for p in state.setup.participants):
        raise GameError("a result card is signed by two people")
    if state.card is not None:
        raise GameError("the result card was handed in already (rule 18: no corrections)",
                        "wrong_phase")
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    black, white = event.black, event.white
    phase = state.phase
    result = state.result
    if phase is Phase.PLAYING:
        _finish(state, _card_result(state, black, white), event.at)
    elif phase is Phase.PLAYOUT:
        _finish(state, _playout_card(state, black, white), event.at)
    elif phase is Phase.OVER and result is not None:
        if result.termination is Termination.NORMAL:
            state.result = _card_result(state, black, white)
        elif result.termination is Termination.PLAYOUT or state.playout_from is not None:
            # a play-out's count (the 33–31 it fell back to when the board said less)
            state.result = _playout_card(state, black, white)
        else:
            read = result_card(black, white, squares=state.board.square_count())
            if (read.black, read.white) != (result.black, result.white):
                raise GameError(f"the game ended by {result.termination.value} at {result}: "
                                "the card must read so", "bad_request")
    else:
        raise GameError(f"no result card now: the game is {phase.value}", "wrong_phase")
    state.card = (black, white)
    state.accepted = frozenset({BLACK, WHITE})


# ---- the user study -------------------------------------------------------------------------
def _study_gate(state: GameState, event: Event) -> None:
    """The subject moves (or passes) only once the last program move's questions are
    answered."""
    study = state.study
    if study is None or type(event) not in (MovePlayed, Pass, EnteredMove):
        return
    asked = study.asked
    mover = getattr(event, "colour", getattr(event, "by", None))
    if asked is not None and mover is study.subject:
        missing = [q for q in STUDY_QUESTIONS if asked.answer(q) is None]
        raise GameError(f"answer the questions about the program's move {asked.move_number} "
                        f"first ({', '.join(missing)})", "wrong_phase")


def _study_game(state: GameState, event: StudyGame) -> None:
    if state.study is not None:
        raise GameError("the game is a study game already", "wrong_phase")
    persons = state.persons
    if state.seats is None or len(persons) != 1:
        raise GameError("a study game is one person (the subject) against a program")
    if state.moves or state.phase is not Phase.PLAYING or state.otb is not None:
        raise GameError("a game becomes a study game before its first move", "wrong_phase")
    state.study = StudyProgress(persons[0])


def _ask(state: GameState, colour: Color, move: Move, at: float) -> None:
    """After a program's move that leaves the game in play, the questions are asked."""
    study = state.study
    if study is None or colour is study.subject or state.phase is not Phase.PLAYING:
        return
    question = StudyQuestion(len(state.moves), move, state.board.to_string(), at)
    state.study = replace(study, questions=(*study.questions, question))


def _study_answer(state: GameState, event: StudyAnswer) -> None:
    study = state.study
    if study is None:
        raise GameError("only a study game asks questions", "wrong_phase")
    asked = study.asked
    if asked is None or asked.move_number != event.move_number:
        answered = next((q for q in study.questions if q.move_number == event.move_number),
                        None)
        if answered is not None and answered.answer(event.question) is not None:
            raise GameError(f"the question {event.question} about move {event.move_number} "
                            "is answered already", "wrong_phase")
        waiting = "nothing" if asked is None else f"move {asked.move_number}"
        raise GameError(f"no question is asked about move {event.move_number} (asked: "
                        f"{waiting})", "wrong_phase")
    choices = STUDY_QUESTIONS.get(event.question)
    if choices is None or event.answer not in choices:
        raise GameError(f"{event.question} is answered with one of "
                        f"{', '.join(choices or ())}")
    if asked.answer(event.question) is not None:
        raise GameError(f"the question {event.question} about move {event.move_number} is "
                        "answered already", "wrong_phase")
    question = replace(asked, answers=(*asked.answers, event))
    state.study = replace(study, questions=(*study.questions[:-1], question))
    clock = state.clock
    if clock is not None and clock.running is study.subject and state.otb is None \
            and not state.suspended and not clock.flagged(study.subject, event.at):
        # answering is not playing: the subject's time restarts from the answer
        state.clock = ClockState(clock.black, clock.white, clock.running, event.at)


#: what may happen while a faulty entered move awaits the recorder's decision: the
#: decision, the clock's own business, and the end of a play-out on time (the count then
#: stands, the faults stay undecided)
_WHILE_PENDING: frozenset[type[Event]] = frozenset(
    {CorrectEntry, KeepBoard, ClockPress, Suspend, Resume, StopPlayout})

_HANDLERS: dict[type[Event], Callable[[GameState, Any], None]] = {
    ColourStep: _colour_step,
    MovePlayed: _move,
    Pass: _pass,
    Claim: _claim,
    TimeoutChoice: _timeout_choice,
    StopPlayout: _stop_playout,
    Suspend: _suspend,
    Resume: _resume,
    ProgramWaiting: _program_waiting,
    ProgramReady: _program_ready,
    Resign: _resign,
    AcceptResult: _accept,
    UndoRequest: _undo_request,
    UndoDecline: _undo_decline,
    Undo: _undo,
    OverTheBoard: _over_the_board,
    ClockPress: _clock_press,
    Absent: _absent,
    Arrival: _arrival,
    LateForfeit: _late_forfeit,
    IllegalClaim: _illegal_claim,
    EnteredMove: _entered_move,
    CorrectEntry: _correct_entry,
    KeepBoard: _keep_board,
    ResultCard: _result_card,
    StudyGame: _study_game,
    StudyAnswer: _study_answer,
}

__all__ = [
    "TIMEOUT_CHOICES",
    "BoardMark",
    "ColourProgress",
    "DecidedFault",
    "GameState",
    "Late",
    "OverBoard",
    "PendingEntry",
    "Phase",
    "PlayedMove",
    "StudyProgress",
    "StudyQuestion",
    "apply",
    "initial",
    "replay",
]
