"""Deciding the colours (and the draw-win right), the step before play in every game.

By choice, a random draw, or fuse-ishi (伏せ石): the hider is the higher rank, else the
elder, else drawn. With draws allowed the caller calls top/bottom and plays that face's
colour. Without draws the caller calls a colour; whoever wins the call takes the draw-win
right (引き分け勝ち) or the colour right, the other gets the other. **Without draws and
another colour method**, a fuse-ishi after the colours decides the draw-win right alone:
whoever wins the call holds it. A 32–32 game always goes to the draw-win holder when draws
are not allowed.
"""

from __future__ import annotations

from dataclasses import replace

from hasamigo.errors import InvalidOptionError
from hasamigo.game.clock import ClockState
from hasamigo.game.colours import FuseIshiError
from hasamigo.game.errors import GameError
from hasamigo.game.events import ColourStep, Event
from hasamigo.game.procedures.core import (
    ColourProgress,
    Draft,
    Phase,
    Rule,
    check_end,
    fuse_machine,
    runner,
)
from hasamigo.game.procedures.over_board import of, otb_clock
from hasamigo.game.setup import hider
from hasamigo.move import BLACK, WHITE, Color


def _colour_step(state: Draft, event: ColourStep) -> None:
    pending = state.pending_colour_step()
    if pending is None:
        raise GameError("colours are not being decided now", "wrong_phase")
    step, who = pending
    if event.step != step or event.participant != who:
        name = "the server" if who is None else state.setup.participants[who].name
        raise GameError(f"colours: waiting for {name} to take the {step} step", "colours")
    late = of(state).late
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


def _settle_fuse(state: Draft, at: float) -> None:
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
        machine = fuse_machine(state)
        if state.pending_colour_step() is not None:
            return
        decision = machine.decision()
    except FuseIshiError as exc:
        raise GameError(f"colours: {exc}", "colours") from exc
    _seat(state, {BLACK: int(decision.black), WHITE: int(decision.white)}, at)
    state.draw_win = decision.draw_win_colour


def _seat(state: Draft, seats: dict[Color, int], at: float) -> None:
    state.seats = seats
    options = state.setup.options
    if not options.draws_allowed and state.setup.colour_method != "fuse-ishi":
        # colours are set; a fuse-ishi decides the draw-win right alone
        found = hider(*state.setup.participants)
        state.colours = ColourProgress(hider=found, draw_win_only=True)
        return
    _begin(state, at)


def _begin(state: Draft, at: float) -> None:
    state.phase = Phase.PLAYING
    options = state.setup.options
    if options.clock_seconds is not None:
        seconds = float(options.clock_seconds)
        state.clock = ClockState(seconds, seconds, runner(state, state.position.turn), at) \
            if of(state).otb is None else otb_clock(state, seconds, at)
    elif options.move_seconds is not None:  # correspondence: each turn's deadline
        per_turn = options.move_seconds
        state.clock = ClockState(per_turn, per_turn, runner(state, state.position.turn), at,
                                 per_turn)
    state.position_revision = state.revision + 1
    check_end(state, at)


def _participant_value(value: str) -> int:
    if value not in ("0", "1"):
        raise GameError("colours: a participant is '0' or '1'", "colours")
    return int(value)


def _colour_value(value: str) -> Color:
    try:
        return Color.parse(value)
    except InvalidOptionError as exc:
        raise GameError(f"colours: {exc}", "colours") from exc


RULES: dict[type[Event], Rule] = {ColourStep: _colour_step}

__all__ = ["RULES"]
