"""A game's state as a pure fold over its events: board, phase, seats, clock and result.

:func:`replay` folds a :class:`~hasamigo.game.setup.GameSetup` and its events into a
:class:`GameState`; :func:`apply` takes one more event, returning a **new** frozen state or
raising (:class:`~hasamigo.game.errors.GameError`, :class:`~hasamigo.errors.IllegalMoveError`)
with the old one untouched. Nothing here reads a clock or draws a random number: the
instant of every event is in the event, so the same events give the same state anywhere.
Each event costs the same whatever the length of the game: the new state shares the old
one's values, its record of moves included (see :mod:`hasamigo.game.procedures.core`).

The JOF procedure it enforces (the official rules of the Japan Othello Federation), one
module per procedure over a shared core:

* the colours (and the draw-win right): :mod:`hasamigo.game.procedures.colours`;
* moves, passes, time-outs and play-outs, take-backs, suspend/resume and programs
  waiting for their kernels, in every game: :mod:`hasamigo.game.procedures.online`;
* games played **over the board** (an :class:`~hasamigo.game.events.OverTheBoard` event):
  the players' clock, late arrival, illegal moves claimed, the record entered as played
  and the result card: :mod:`hasamigo.game.procedures.over_board`;
* **user-study games** (a :class:`~hasamigo.game.events.StudyGame` event): the questions
  after each program move: :mod:`hasamigo.game.procedures.study`.

The core's :class:`GameState` holds what every game has; the over-the-board and study
procedures keep their own states beside it (:attr:`GameState.parts`), each read with its
module's ``of`` (:func:`hasamigo.game.procedures.over_board.of`,
:func:`hasamigo.game.procedures.study.of`). This module is where the procedures meet: it
alone imports them all.
"""

from __future__ import annotations

from hasamigo.errors import IllegalMoveError
from hasamigo.game.errors import GameError, StoredGameError
from hasamigo.game.events import Event
from hasamigo.game.procedures import colours, online, over_board, study
from hasamigo.game.procedures.core import (
    TIMEOUT_CHOICES,
    ColourProgress,
    Draft,
    GameState,
    Phase,
    PlayedMove,
    Ply,
    Rule,
)
from hasamigo.game.procedures.over_board import (
    BoardMark,
    DecidedFault,
    Late,
    OverBoard,
    OverBoardState,
    PendingEntry,
)
from hasamigo.game.procedures.study import StudyProgress, StudyQuestion
from hasamigo.game.setup import GameSetup, hider

#: every event's rule, from the procedure it belongs to
RULES: dict[type[Event], Rule] = {**colours.RULES, **online.RULES, **over_board.RULES,
                                   **study.RULES}


def initial(setup: GameSetup) -> GameState:
    """The state before any event: the start position, colours undecided."""
    board = setup.options.new_board()
    found = hider(*setup.participants)
    progress = ColourProgress(hider=found) if setup.colour_method == "fuse-ishi" \
        and found is not None else ColourProgress()
    return GameState(setup, board, board.to_string(), colours=progress)


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
    rule = RULES.get(type(event))
    if rule is None:
        raise GameError(f"no rule for {type(event).__name__} events")
    study.gate(state, event)
    over_board.gate(state, event)
    draft = Draft(state)
    rule(draft, event)
    over_board.settle(draft)
    study.ask(state, draft)
    draft.last_at = event.at
    draft.revision += 1
    return draft.freeze()


__all__ = [
    "RULES",
    "TIMEOUT_CHOICES",
    "BoardMark",
    "ColourProgress",
    "DecidedFault",
    "GameState",
    "Late",
    "OverBoard",
    "OverBoardState",
    "PendingEntry",
    "Phase",
    "PlayedMove",
    "Ply",
    "StudyProgress",
    "StudyQuestion",
    "apply",
    "initial",
    "replay",
]
