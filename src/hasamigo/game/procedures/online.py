"""The procedure of a game played on the server, which every game follows (the games over
the board and the study games add their own rules to it):

* **moves and passes**: a pass only when no move exists (refused naming the moves, rule
  6①); the clock of the side to move runs from the previous event, a pass included.
* **time-out (rule 15)**: a flag is lost only when claimed, by the opponent or by the
  player (self-report); never by the clock alone. A flag that fell stays down: it can be
  claimed later in the game, and the last mover's even after the end, until both players
  have accepted the result. A claim when the claimant's flag is down too is "both flags
  down": a draw, or the draw-win holder's win; not rated. The winner chooses 33–31 or
  play-out (勝手打ち: the winner plays both colours on their own remaining time, and the
  count when they stop, or when their time runs out, stands; empties go to the loser).
* **correspondence games** (``days_per_move``): the clock is each turn's deadline (a
  side whose turn begins has the days afresh: :class:`~hasamigo.game.clock.ClockState`'s
  ``per_turn``). The flag that falls is claimed like any other, by the server for the
  opponent as soon as it is down (:meth:`~hasamigo.game.controller.GameController.observe`,
  the ticker's path for a program's claim), and the claim ends the game at once with the
  time-out's 33–31 (termination ``timeout``): a player away for days chooses no play-out.
* **take-backs** in casual games only; between two people the opponent must consent.
  Time already used is not given back.
* **suspend/resume**: the server's outages stop the clock (see the web service).
* **a program waiting for its kernels** (:class:`~hasamigo.game.events.ProgramWaiting`
  until :class:`~hasamigo.game.events.ProgramReady`: a fresh server compiles them): its
  clock does not run while it is on move, and the time is not charged to it. In a casual
  game the person plays on meanwhile; an **official game does not begin, nor go on,
  until every program can move**: neither clock runs and no move is accepted (rule 5's
  clock starts for the first mover when the last program is ready).
* **a seat taken by an account** (:class:`~hasamigo.game.events.SeatNamed`): the person
  of that seat plays under the account's name from then on; the fold renames the
  participant of :attr:`GameState.setup <hasamigo.game.procedures.core.GameState>` (the
  stored setup is never changed), a program's seat never.
"""

from __future__ import annotations

from dataclasses import replace

from hasamigo.errors import IllegalMoveError, IllegalReason
from hasamigo.game.errors import GameError
from hasamigo.game.events import (
    AcceptResult,
    Claim,
    Event,
    MovePlayed,
    Pass,
    ProgramReady,
    ProgramWaiting,
    Resign,
    Resume,
    SeatNamed,
    StopPlayout,
    Suspend,
    TimeoutChoice,
    Undo,
    UndoDecline,
    UndoRequest,
)
from hasamigo.game.procedures import over_board
from hasamigo.game.procedures.core import (
    Draft,
    Phase,
    Rule,
    begin_timeout,
    check_end,
    finish,
    play,
    playout_time,
    runner,
    winner_of_timeout,
)
from hasamigo.game.result import both_flags_down, playout_result, resignation, timeout_win
from hasamigo.move import PASS, Color, Move


# ---- moves ---------------------------------------------------------------------------
def _on_board(state: Draft, colour: Color, what: str) -> None:
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    if state.paused:
        raise GameError("the game begins once the program can move (its engine is being "
                        "prepared on this server)", "program_waiting")
    if state.phase not in (Phase.PLAYING, Phase.PLAYOUT):
        code = "game_over" if state.phase is Phase.OVER else "wrong_phase"
        raise GameError(f"no {what} now: the game is {state.phase.value}", code)
    turn = state.position.turn
    if colour is not turn:
        raise IllegalMoveError(
            f"illegal {what} for {colour}: {IllegalReason.NOT_YOUR_TURN.value} ({turn} to move)",
            IllegalReason.NOT_YOUR_TURN)


def _move(state: Draft, event: MovePlayed) -> None:
    _on_board(state, event.colour, "move")
    if state.waits(event.colour):
        raise GameError(f"the program playing {event.colour} cannot move yet",
                        "program_waiting")
    playout_time(state, event.at)
    play(state, event.colour, Move(event.square, event.turned), event.at)


def _pass(state: Draft, event: Pass) -> None:
    _on_board(state, event.colour, "pass")
    playout_time(state, event.at)
    board = state.position
    if board.legal_moves_mask():
        legal = ", ".join(board.move_name(m) for m in board.legal_moves)
        raise IllegalMoveError(
            f"illegal pass for {event.colour}: {IllegalReason.PASS_NOT_ALLOWED.value} "
            f"(legal: {legal})", IllegalReason.PASS_NOT_ALLOWED)
    play(state, event.colour, PASS, event.at)


# ---- time ----------------------------------------------------------------------------
def _claim(state: Draft, event: Claim) -> None:
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
        finish(state, both_flags_down(draw_win=draw_win,
                                      squares=state.root.square_count()), event.at)
        return
    if state.clock.per_turn is not None:  # correspondence: no choice, a 33–31 loss
        finish(state, timeout_win(other, squares=state.root.square_count()), event.at)
        return
    begin_timeout(state, flagged, event.at)


def _timeout_choice(state: Draft, event: TimeoutChoice) -> None:
    if state.phase is not Phase.TIMEOUT_CHOICE:
        raise GameError("there is no time-out to settle", "wrong_phase")
    winner = winner_of_timeout(state)
    squares = state.root.square_count()
    if event.choice == "33-31":
        finish(state, timeout_win(winner, squares=squares), event.at)
        return
    if event.choice != "playout":
        raise GameError("the choice is '33-31' or 'playout'")
    assert state.clock is not None
    state.phase = Phase.PLAYOUT
    state.playout_from = state.ply_count
    state.clock, _ = state.clock.switch(winner, event.at)
    state.position_revision = state.revision + 1
    if state.clock.flagged(winner, event.at):  # no time left to play anything
        finish(state, playout_result(state.position, winner), event.at)
        return
    check_end(state, event.at)


def _stop_playout(state: Draft, event: StopPlayout) -> None:
    if state.phase is not Phase.PLAYOUT:
        raise GameError("no play-out is in progress", "wrong_phase")
    winner = winner_of_timeout(state)
    assert state.clock is not None
    fell = state.clock.flag_time(winner)
    if event.timed_out and (fell is None or event.at < fell):
        raise GameError("the play-out winner's time has not run out", "bad_request")
    at = event.at if fell is None else min(event.at, fell)
    finish(state, playout_result(state.position, winner), at)


def _suspend(state: Draft, event: Suspend) -> None:
    if state.suspended:
        raise GameError("the game is already suspended", "suspended")
    running = None if state.clock is None else state.clock.running
    if running is None:
        raise GameError("no clock is running", "wrong_phase")
    assert state.clock is not None
    state.clock, _ = state.clock.switch(None, event.at)
    state.suspended, state.suspended_running = True, running


def _resume(state: Draft, event: Resume) -> None:
    if not state.suspended or state.clock is None:
        raise GameError("the game is not suspended", "wrong_phase")
    state.clock, _ = state.clock.switch(runner(state, state.suspended_running), event.at)
    state.suspended, state.suspended_running = False, None


# ---- programs waiting for their kernels --------------------------------------------------
def _waiting_participant(state: Draft, participant: int | None) -> int:
    if participant not in (0, 1):
        raise GameError("the waiting program is participant 0 or 1")
    assert participant is not None
    if state.setup.participants[participant].is_person:
        raise GameError("only a program waits for its kernels", "not_in_game")
    return participant


def _program_waiting(state: Draft, event: ProgramWaiting) -> None:
    who = _waiting_participant(state, event.participant)
    if state.phase not in (Phase.COLOURS, Phase.PLAYING):
        raise GameError(f"a program waits for its kernels only before or during play, "
                        f"not when the game is {state.phase.value}", "wrong_phase")
    if who in state.waiting:
        raise GameError("that program is waiting already", "wrong_phase")
    state.waiting = state.waiting | {who}
    clock = state.clock
    if clock is not None and clock.running is not None and not state.suspended \
            and runner(state, clock.running) is None:
        state.clock, _ = clock.switch(None, event.at)


def _program_ready(state: Draft, event: ProgramReady) -> None:
    who = _waiting_participant(state, event.participant)
    if who not in state.waiting:
        raise GameError("that program is not waiting", "wrong_phase")
    state.waiting = state.waiting - {who}
    clock = state.clock
    # in play, a stopped clock that is not suspended was stopped for the programs
    if clock is not None and clock.running is None and state.phase is Phase.PLAYING \
            and not state.suspended and not state.players_clock:
        moving = runner(state, state.position.turn)
        if moving is not None:
            state.clock, _ = clock.switch(moving, event.at)


# ---- resign, accept, take-backs ----------------------------------------------------------
def _resign(state: Draft, event: Resign) -> None:
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    if state.phase is not Phase.PLAYING:
        if state.phase is Phase.TIMEOUT_CHOICE or state.phase is Phase.PLAYOUT:
            raise GameError("the time-out winner settles the game", "wrong_phase")
        raise GameError(f"cannot resign: the game is {state.phase.value}", "wrong_phase")
    finish(state, resignation(event.colour, squares=state.root.square_count()), event.at)


def _accept(state: Draft, event: AcceptResult) -> None:
    if state.phase is not Phase.OVER:
        raise GameError("there is no result to accept yet", "wrong_phase")
    if event.colour in state.accepted:
        raise GameError(f"{event.colour} has already accepted the result", "wrong_phase")
    state.accepted = state.accepted | {event.colour}


def _undo_allowed(state: Draft, colour: Color) -> None:
    # Over the board the record is the recorder's: a take-back withdraws an entry (the
    # players' take-backs happen on the board, or not at all), so it is allowed there.
    if not state.setup.options.casual and over_board.of(state).otb is None:
        raise GameError("no take-backs in an official game", "undo_not_allowed")
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    if state.phase is not Phase.PLAYING:
        raise GameError(f"cannot take back: the game is {state.phase.value}", "wrong_phase")
    if state.undo_target(colour) is None:
        raise GameError(f"{colour} has no move to take back", "nothing_to_undo")


def _undo_request(state: Draft, event: UndoRequest) -> None:
    _undo_allowed(state, event.colour)
    if state.undo_request is not None:
        raise GameError(f"{state.undo_request} has already asked to take back",
                        "wrong_phase")
    state.undo_request = event.colour


def _undo_decline(state: Draft, event: UndoDecline) -> None:
    if state.undo_request is not event.colour.other:
        raise GameError("there is no take-back request of the opponent to decline",
                        "no_undo_request")
    state.undo_request = None


def _undo(state: Draft, event: Undo) -> None:
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
    while state.last is not None and state.last.number > target:
        state.last = state.last.before
    over_board.take_back(state, target)
    if state.clock is not None and not state.players_clock:
        state.clock, _ = state.clock.switch(runner(state, state.position.turn), event.at)
    state.undo_request = None
    state.position_revision = state.revision + 1


# ---- seats -----------------------------------------------------------------------------
def _seat_named(state: Draft, event: SeatNamed) -> None:
    """An account took a person's seat: the participant plays under its name from now on
    (any phase: a finished game taken over from the terminal is named too). The new name
    is checked as any participant's (:class:`~hasamigo.game.setup.Participant`), and two
    players alike are refused (:class:`~hasamigo.game.setup.GameSetup`)."""
    setup = state.setup
    people = list(setup.participants)
    if not people[event.seat].is_person:
        raise GameError("a program's seat keeps its program's name", "not_in_game")
    people[event.seat] = replace(people[event.seat], name=event.name)
    state.setup = replace(setup, participants=(people[0], people[1]))


RULES: dict[type[Event], Rule] = {
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
    SeatNamed: _seat_named,
}

__all__ = ["RULES"]
