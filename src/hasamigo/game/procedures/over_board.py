"""Games played over the board: an :class:`~hasamigo.game.events.OverTheBoard` event, both
players people at a real board and clock. Besides the online procedure's rules
(:mod:`~hasamigo.game.procedures.online`):

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
  then a time-out (rule 15). **The last move** (rule 10) may be claimed by the side that
  did not play it whatever the time left, after the game ended and its clock stopped too,
  until the result is agreed (a card, or both accepting it): the record knows the move
  was illegal when the recorder kept it as played; it is then corrected as a claim
  during play would have it (:func:`last_move_claimant`);
* **penalties** (rule 21): the arbiter takes time off a player's clock (持ち時間減) or
  declares the game lost by penalty (反則負け, scored like a forfeit), always with the
  reason (:attr:`OverBoardState.penalties`);
* **record entry**: a move entered as played (:class:`~hasamigo.game.events.EnteredMove`)
  is checked by :func:`hasamigo.game.entry.check_entry`; a legal one is a move, a faulty
  one waits (nothing else may happen but the clock) until the recorder corrects it (the
  legal position) or keeps the board as it stands (the record marks the point; a byo-yomi
  offender's corrected move is a time-out too). The faults stay in ``faults`` with their
  decisions;
* **the result card** (rule 18, any game between two people): it ends a game still in
  play, or stands in for the count of a finished one (a play-out's too); counts that do
  not add up are read to the winner's disadvantage; once signed, no time-out can be
  claimed.

What this procedure keeps is its own: an :class:`OverBoardState` beside the game's state
(one of :attr:`~hasamigo.game.procedures.core.GameState.parts`, read with :func:`of`). The
core knows only that the clock is the players' (``players_clock``, set by the
declaration), which the shared rules need to leave it alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from hasamigo.game.clock import ClockState
from hasamigo.game.entry import Entry, Fault, check_entry, correction, entry_from_event
from hasamigo.game.errors import GameError
from hasamigo.game.events import (
    Absent,
    Arrival,
    ClockPress,
    CorrectEntry,
    EnteredMove,
    Event,
    IllegalClaim,
    KeepBoard,
    LateForfeit,
    OverTheBoard,
    Penalty,
    ResultCard,
    Resume,
    SeatNamed,
    StopPlayout,
    Suspend,
)
from hasamigo.game.procedures.core import (
    Draft,
    GameState,
    Phase,
    Queries,
    Rule,
    Snapshot,
    after_ply,
    begin_timeout,
    finish,
    play,
    playout_time,
    winner_of_timeout,
)
from hasamigo.game.result import (
    GameResult,
    Termination,
    forfeit,
    penalty_loss,
    result_card,
    timeout_win,
)
from hasamigo.move import BLACK, PASS, WHITE, Color, Move


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
    ``move_number`` the game went on from ``board`` (a board string). ``entry`` is the
    move as it was entered (what a claim of the last move corrects, rule 10)."""

    move_number: int
    board: str
    entry: Entry | None = None


@dataclass(frozen=True, slots=True)
class OverBoardState:
    """What the procedure over the board keeps beside the game's state (:func:`of`):
    the declaration (``otb``, ``None`` in a game not declared over the board), a late
    player, a faulty entered move awaiting the recorder's decision (``pending``), the
    faults decided and the points where the board as played was kept (``marks``), the
    result card's counts, the clock presses (how many, the last: colour and whether it
    declared a pass) and the arbiter's penalties (rule 21), in order. Entered moves and
    the result card belong to any game between two people, declared or not."""

    otb: OverBoard | None = None
    late: Late | None = None
    pending: PendingEntry | None = None
    faults: tuple[DecidedFault, ...] = ()
    marks: tuple[BoardMark, ...] = ()
    card: tuple[int, int] | None = None
    presses: int = 0
    last_press: tuple[Color, bool] | None = None
    penalties: tuple[Penalty, ...] = ()


#: the state of a game where nothing of this procedure has happened yet
NOTHING = OverBoardState()


def of(state: Queries) -> OverBoardState:
    """What the procedure over the board keeps of ``state`` (:data:`NOTHING` yet)."""
    part = state.part(OverBoardState)
    return NOTHING if part is None else part


def _put(state: Draft, **changes: Any) -> OverBoardState:
    """Change this procedure's fields of ``state`` (a draft) and hand back the result."""
    part = replace(of(state), **changes)
    state.put(part)
    return part


def in_byoyomi(state: Queries, colour: Color, at: float) -> bool:
    """``colour`` had at most the byo-yomi seconds left at ``at`` (over the board)."""
    otb = of(state).otb
    if otb is None or state.clock is None or not otb.started:
        return False
    return state.clock.remaining(colour, at) <= otb.byoyomi


def take_back(state: Draft, target: int) -> None:
    """The record is cut back to ``target`` plies (a take-back): the marks after it go,
    and so do the faults of moves kept as played after it."""
    part = state.part(OverBoardState)
    if part is None:
        return
    marks = tuple(m for m in part.marks if m.move_number <= target)
    faults = tuple(f for f in part.faults
                   if f.decision != "kept" or f.fault.move_number <= target)
    if (marks, faults) != (part.marks, part.faults):
        state.put(replace(part, marks=marks, faults=faults))


#: what may happen while a faulty entered move awaits the recorder's decision: the
#: decision, the clock's own business, the end of a play-out on time (the count then
#: stands, the faults stay undecided) and a seat's new name (it changes no record)
WHILE_PENDING: frozenset[type[Event]] = frozenset(
    {CorrectEntry, KeepBoard, ClockPress, Suspend, Resume, StopPlayout, Penalty, SeatNamed})


def gate(state: GameState, event: Event) -> None:
    """While a faulty entry waits, nothing happens but its decision and the clock."""
    pending = of(state).pending
    if pending is not None and type(event) not in WHILE_PENDING:
        raise GameError(f"move {pending.move_number} was entered with faults: correct "
                        "it or keep the board first", "wrong_phase")


def settle(state: Draft) -> None:
    """A game that ended while a faulty entry waited: its faults stay, undecided."""
    part = of(state)
    if state.phase is Phase.OVER and part.pending is not None:
        _put(state, pending=None, faults=part.faults + tuple(
            DecidedFault(f, "undecided") for f in part.pending.faults))


def otb_clock(state: Queries, seconds: float, at: float) -> ClockState:
    """The clock of a game over the board when play begins: stopped until the first
    press, except for a late player's time, which runs from their scheduled start."""
    clock = ClockState(seconds, seconds, None, at)
    late = of(state).late
    if late is None:
        return clock
    colour = state.colour_of(late.participant)
    assert colour is not None
    if late.arrived is None:
        return ClockState(seconds, seconds, colour, late.since)
    used = max(0.0, late.arrived - late.since)
    return ClockState(seconds - used if colour is BLACK else seconds,
                      seconds - used if colour is WHITE else seconds, None, at)


def _need_otb(state: Draft, what: str) -> OverBoard:
    otb = of(state).otb
    if otb is None:
        raise GameError(f"{what} belongs to games played over the board", "wrong_phase")
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    return otb


def _over_the_board(state: Draft, event: OverTheBoard) -> None:
    if of(state).otb is not None:
        raise GameError("the game is already played over the board", "wrong_phase")
    if not all(p.is_person for p in state.setup.participants):
        raise GameError("a game over the board is played by two people")
    if state.setup.options.days_per_move is not None:
        raise GameError("a correspondence game (days per move) is not played over the board")
    if state.last is not None or state.suspended \
            or state.phase not in (Phase.COLOURS, Phase.PLAYING):
        raise GameError("a game is declared over the board before it begins", "wrong_phase")
    first = state.root.turn
    _put(state, otb=OverBoard(event.scheduled, event.byoyomi, first))
    state.players_clock = True
    seconds = state.setup.options.clock_seconds
    if state.clock is not None and seconds is not None:
        # the colours were set at creation: the clock waits for the first press
        state.clock = ClockState(float(seconds), float(seconds), None, event.at)


def _late_participant(state: Draft, participant: int | None) -> Late:
    late = of(state).late
    if late is None or participant != late.participant:
        raise GameError("that participant was not absent", "wrong_phase")
    return late


def _before_start(state: Draft, otb: OverBoard, what: str) -> None:
    if otb.started or state.last is not None \
            or state.phase not in (Phase.COLOURS, Phase.PLAYING):
        raise GameError(f"{what} only before the game has begun", "wrong_phase")


def _absent(state: Draft, event: Absent) -> None:
    otb = _need_otb(state, "a late arrival")
    _before_start(state, otb, "a player is absent")
    if event.participant not in (0, 1):
        raise GameError("the absent participant is 0 or 1")
    if of(state).late is not None:
        raise GameError("a player is already absent", "wrong_phase")
    if state.setup.options.clock_seconds is None:
        raise GameError("a late player's time runs on a clock: this game has none", "no_flag")
    if event.since > event.at:
        raise GameError("the absent player's clock runs from the scheduled start, which "
                        "has not come yet")
    _put(state, late=Late(event.participant, event.since))
    colour = state.colour_of(event.participant)
    if state.clock is not None and colour is not None:
        state.clock = replace(state.clock, running=colour, since=event.since)


def _arrival(state: Draft, event: Arrival) -> None:
    otb = _need_otb(state, "an arrival")
    late = _late_participant(state, event.participant)
    if late.arrived is not None:
        raise GameError("that player has arrived already", "wrong_phase")
    _before_start(state, otb, "an arrival")
    _put(state, late=replace(late, arrived=event.at))
    if state.clock is not None and state.clock.running is not None:
        state.clock, _ = state.clock.switch(None, event.at)


def _late_forfeit(state: Draft, event: LateForfeit) -> None:
    otb = _need_otb(state, "a late player's forfeit")
    late = _late_participant(state, event.participant)
    _before_start(state, otb, "a late player's forfeit")
    if late.arrived is None:
        _put(state, late=replace(late, arrived=event.at))
    if state.seats is None:  # never begun: the present player is written as Black
        state.seats = {BLACK: 1 - late.participant, WHITE: late.participant}
    loser = state.colour_of(late.participant)
    assert loser is not None
    finish(state, forfeit(loser.other, rated=False, squares=state.root.square_count()),
           event.at)


def _clock_press(state: Draft, event: ClockPress) -> None:
    otb = _need_otb(state, "pressing the clock")
    if state.phase is not Phase.PLAYING:
        raise GameError(f"the clock is not pressed now: the game is {state.phase.value}",
                        "game_over" if state.phase is Phase.OVER else "wrong_phase")
    clock = state.clock
    if clock is None:
        raise GameError("this game has no clock", "wrong_phase")
    part = of(state)
    late = part.late
    if late is not None and late.arrived is None:
        name = state.setup.participants[late.participant].name
        raise GameError(f"{name} has not arrived: their time runs", "wrong_phase")
    colour = event.colour
    if not otb.started:
        starter = otb.first.other
        if colour is not starter or event.passed:
            raise GameError(f"{starter} starts the clock (rule 5)", "not_your_turn")
        otb = replace(otb, started=True)
        state.clock, _ = clock.switch(otb.first, event.at)
    else:
        if clock.running is not colour:
            running = "no clock" if clock.running is None else f"{clock.running}'s clock"
            raise GameError(f"{colour} pressed, but {running} is running", "not_your_turn")
        state.clock, _ = clock.switch(colour.other, event.at)
    _put(state, otb=otb, presses=part.presses + 1, last_press=(colour, event.passed))


def last_move_claimant(state: Queries) -> Color | None:
    """Who may still claim the game's last move illegal (rule 10: the side that did not
    play it, whatever the time left, the clock stopped or not), or ``None``: the game
    ended on the board with that move kept as played (the recorder's keep: nobody had
    claimed it), and the result is not agreed yet (no card, not both accepting it)."""
    last, result, part = state.last, state.result, of(state)
    if (part.otb is None or state.phase is not Phase.OVER or result is None
            or result.termination is not Termination.NORMAL or part.card is not None
            or state.result_final or last is None or not part.marks
            or part.marks[-1].move_number != last.number):
        return None
    return last.played.colour.other


def _claim_last_move(state: Draft, event: IllegalClaim) -> None:
    """Rule 10: the last move claimed after the game ended. The move kept as played is
    taken off the record and corrected (the offender's clock runs for it, as a claim
    during play gives it back); a byo-yomi offender's correction is then a time-out."""
    claimant = last_move_claimant(state)
    if claimant is None:
        raise GameError("the game is over: only a last move kept as played can still be "
                        "claimed illegal, until the result is agreed (rule 10)",
                        "wrong_phase")
    if event.by is not claimant:
        raise GameError("the last move is claimed by the side that did not play it "
                        "(rule 10)", "not_your_turn")
    part = of(state)
    last, mark = state.last, part.marks[-1]
    assert last is not None and mark.entry is not None
    offender, entry = claimant.other, mark.entry
    byoyomi = in_byoyomi(state, offender, last.played.at)
    state.last = last.before
    _put(state, marks=part.marks[:-1], faults=tuple(
        DecidedFault(f.fault, "claimed")
        if f.fault.move_number == mark.move_number and f.decision == "kept"
        else f for f in part.faults))
    state.result = None
    state.accepted = frozenset()
    state.phase = Phase.PLAYING
    state.position_revision = state.revision + 1
    fixed = correction(state.position, entry)
    if state.clock is not None:  # the offender corrects and presses; a move withdrawn
        # (out of turn, or nowhere to play) leaves the side to move to play
        runs = offender if fixed is not None else state.position.turn
        state.clock, _ = state.clock.switch(runs, event.at)
    if fixed is not None:
        play(state, entry.by, fixed, event.at)
    if byoyomi and state.phase in (Phase.PLAYING, Phase.OVER):
        begin_timeout(state, offender, event.at)  # rule 15: corrected, then a time-out


def _illegal_claim(state: Draft, event: IllegalClaim) -> None:
    otb = _need_otb(state, "claiming an illegal move on the clock")
    if state.phase is Phase.OVER:
        _claim_last_move(state, event)
        return
    if state.phase is not Phase.PLAYING or not otb.started or state.clock is None:
        raise GameError("an illegal move is claimed during play", "wrong_phase")
    if state.clock.running is not event.by:
        raise GameError("an illegal move is claimed on the claimant's own turn, before "
                        "moving (rule 6①)", "not_your_turn")
    offender = event.by.other
    if in_byoyomi(state, offender, event.at):
        begin_timeout(state, offender, event.at)
        return
    state.clock, _ = state.clock.switch(offender, event.at)  # back to the offender


def _entered_move(state: Draft, event: EnteredMove) -> None:
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    if state.phase not in (Phase.PLAYING, Phase.PLAYOUT):
        code = "game_over" if state.phase is Phase.OVER else "wrong_phase"
        raise GameError(f"no move now: the game is {state.phase.value}", code)
    board = state.position
    entry = entry_from_event(board, event)
    number = state.ply_count + 1
    faults = check_entry(board, entry, number)
    if faults:
        _put(state, pending=PendingEntry(number, entry, tuple(faults), event.at))
        state.position_revision = state.revision + 1
        return
    playout_time(state, event.at)
    play(state, event.by, PASS if entry.square is None else Move(entry.square), event.at)


def _decide_pending(state: Draft, verdict: str) -> PendingEntry:
    """Close the faulty entry waiting for the arbiter, its faults decided ``verdict``
    ('corrected' or 'kept'), and hand it back."""
    part = of(state)
    pending = part.pending
    if pending is None:
        verb = "correct" if verdict == "corrected" else "keep"
        raise GameError(f"there is no faulty move to {verb}", "wrong_phase")
    _put(state, pending=None,
         faults=part.faults + tuple(DecidedFault(f, verdict) for f in pending.faults))
    return pending


def _correct_entry(state: Draft, event: CorrectEntry) -> None:
    pending = _decide_pending(state, "corrected")
    entry = pending.entry
    fixed = correction(state.position, entry)
    if fixed is None:  # withdrawn: the side to move plays again
        state.position_revision = state.revision + 1
    else:
        play(state, entry.by, fixed, event.at)
    if in_byoyomi(state, entry.by, pending.at) and (
            state.phase is Phase.PLAYING or (state.phase is Phase.OVER
                                             and not state.result_final)):
        begin_timeout(state, entry.by, event.at)  # rule 15: corrected, then a time-out


def _as_played(state: Draft, entry: Entry) -> Snapshot:
    """The position ``entry`` shows, legal or not (the discs in hand as a move leaves
    them): the record keeps it as the position after the move."""
    black_hand, white_hand = state.position._hand
    if state.root.disc_limit is not None and entry.square is not None:
        if entry.colour() is BLACK:
            black_hand -= 1
        else:
            white_hand -= 1
    return (entry.black, entry.white, entry.by.other, black_hand, white_hand)


def _keep_board(state: Draft, event: KeepBoard) -> None:
    pending = _decide_pending(state, "kept")
    entry = pending.entry
    move = PASS if entry.square is None else Move(entry.square)
    after_ply(state, entry.by, move, _as_played(state, entry), event.at)
    mark = BoardMark(pending.move_number, state.position.to_string(), entry)
    _put(state, marks=(*of(state).marks, mark))


def _card_result(state: Draft, black: int, white: int) -> GameResult:
    result = result_card(black, white, squares=state.root.square_count())
    if result.winner is None and not state.setup.options.draws_allowed \
            and state.draw_win is not None:
        return replace(result, winner=state.draw_win, by_draw_win=True)
    return result


def _playout_card(state: Draft, black: int, white: int) -> GameResult:
    winner = winner_of_timeout(state)
    card = result_card(black, white, squares=state.root.square_count())
    if card.winner is not winner:  # the win was decided by the time-out (see playout_result)
        return timeout_win(winner, squares=state.root.square_count())
    return GameResult(card.black, card.white, winner, Termination.PLAYOUT)


def _result_card(state: Draft, event: ResultCard) -> None:
    if not all(p.is_person for p in state.setup.participants):
        raise GameError("a result card is signed by two people")
    if of(state).card is not None:
        raise GameError("the result card was handed in already (rule 18: no corrections)",
                        "wrong_phase")
    if state.suspended:
        raise GameError("the game is suspended", "suspended")
    black, white = event.black, event.white
    phase = state.phase
    result = state.result
    if phase is Phase.PLAYING:
        finish(state, _card_result(state, black, white), event.at)
    elif phase is Phase.PLAYOUT:
        finish(state, _playout_card(state, black, white), event.at)
    elif phase is Phase.OVER and result is not None:
        if result.termination is Termination.NORMAL:
            state.result = _card_result(state, black, white)
        elif result.termination is Termination.PLAYOUT or state.playout_from is not None:
            # a play-out's count (the 33–31 it fell back to when the board said less)
            state.result = _playout_card(state, black, white)
        else:
            read = result_card(black, white, squares=state.root.square_count())
            if (read.black, read.white) != (result.black, result.white):
                raise GameError(f"the game ended by {result.termination.value} at {result}: "
                                "the card must read so", "bad_request")
    else:
        raise GameError(f"no result card now: the game is {phase.value}", "wrong_phase")
    _put(state, card=(black, white))
    state.accepted = frozenset({BLACK, WHITE})


def _penalty(state: Draft, event: Penalty) -> None:
    """Rule 21: time off ``colour``'s clock while the game is played (the flag may fall
    by it; it is lost when claimed, as any other), or the game lost by penalty, at any
    time before the result is agreed."""
    _need_otb(state, "an arbiter's penalty")
    if not event.reason.strip():
        raise GameError("a penalty is given with its reason (rule 21)")
    if state.phase is Phase.OVER and (state.result_final or of(state).card is not None):
        raise GameError("the result is agreed: no penalty changes it now", "game_over")
    if event.loss:
        if event.deducted:
            raise GameError("a penalty is time off the clock or a loss, not both")
        state.seat(event.colour)  # colours must be decided
        finish(state, penalty_loss(event.colour, squares=state.root.square_count()),
               event.at)
    else:
        if not event.deducted > 0:
            raise GameError("a time penalty takes some seconds off the clock")
        if state.clock is None:
            raise GameError("this game has no clock to take time off", "no_flag")
        if state.phase not in (Phase.PLAYING, Phase.PLAYOUT):
            raise GameError("time is taken off a clock while the game is played",
                            "wrong_phase")
        state.clock = state.clock.deduct(event.colour, event.deducted, event.at)
    _put(state, penalties=(*of(state).penalties, event))


RULES: dict[type[Event], Rule] = {
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
    Penalty: _penalty,
}

__all__ = [
    "NOTHING",
    "RULES",
    "WHILE_PENDING",
    "BoardMark",
    "DecidedFault",
    "Late",
    "OverBoard",
    "OverBoardState",
    "PendingEntry",
    "gate",
    "in_byoyomi",
    "last_move_claimant",
    "of",
    "otb_clock",
    "settle",
    "take_back",
]
