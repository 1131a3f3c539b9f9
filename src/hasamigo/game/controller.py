"""One game under the official (JOF) procedure: its setup, its events, and what follows.

A :class:`GameController` holds a game's :class:`~hasamigo.game.setup.GameSetup` and its
append-only list of events (:mod:`hasamigo.game.events`); everything else (board, phase,
seats, clock, result) is :attr:`GameController.state`, the pure fold of those events
(:mod:`hasamigo.game.state`). Each request becomes an event, is checked against the
fold and appended only if the rules allow it; nothing changes when it is refused.

The controller also appends what follows by itself: the server's draws (random colours,
the hidden disc's face, an undecided hider), the programs' colour steps (a program that
wins the call takes the draw-win right; one left with the colour right plays White), forced
passes (at the same instant, so they cost no time), a program winner's choice of 33–31
after a time-out, a program's claim of a fallen flag (``program_claims``) and its
acceptance of the result. :meth:`GameController.observe` appends what the passing of
time brings: a play-out that ran out of time, and the claims programs (and people who
asked for "claim flags for me") make as soon as a flag is down.

Games played **over the board** are declared with :meth:`GameController.declare_over_the_board`;
the players press the clock (:meth:`~GameController.press`), a late player's time runs
(:meth:`~GameController.absent`, :meth:`~GameController.arrive`,
:meth:`~GameController.late_forfeit`), illegal moves are claimed on the clock
(:meth:`~GameController.claim_illegal`), moves are entered as played, faults and all
(:meth:`~GameController.enter`; then :meth:`~GameController.correct_entry` or
:meth:`~GameController.keep_board`), the arbiter penalises (:meth:`~GameController.penalise`)
and the result card is handed in (:meth:`~GameController.hand_in_card`). The rules are the
fold's (:mod:`hasamigo.game.state`).

A front-end that prepares the programs' kernels in the background says when a program
cannot move yet and when it can (:meth:`~GameController.program_waiting`,
:meth:`~GameController.program_ready`): its clock does not run meanwhile.

It never runs a program and never sleeps: a front-end asks :meth:`program_to_move`, runs
the program where it likes and hands the move back through :meth:`play`. Time comes from
an injected source (seconds since the epoch on the server), so every clock rule is tested
without sleeping.

Every request a front-end makes of a game is one short method of this one class; the
rules themselves are in :mod:`hasamigo.game.procedures`.

>>> now = [0.0]
>>> game = GameController.new(GameSetup((Participant("You"),
...                                      Participant("Bot", program="random"))),
...                           time_source=lambda: now[0])
>>> game.phase, game.seat(BLACK).name, game.board.turn
(<Phase.PLAYING: 'playing'>, 'You', Color.BLACK)
>>> now[0] = 3.0
>>> [e.kind for e in game.play(BLACK, "f5")]
['move']
>>> game.program_to_move(), game.remaining(WHITE), game.remaining(BLACK)
((Color.WHITE, 'random'), 1200.0, 1197.0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from typing import Any

from hasamigo.board import Board
from hasamigo.game import events as ev
from hasamigo.game.clock import Clock, ClockState
from hasamigo.game.entry import Entry, entry_from_board, entry_from_turned
from hasamigo.game.errors import GameError, StoredGameError
from hasamigo.game.events import PROGRAM_MOVE, Event
from hasamigo.game.procedures.over_board import of as over_board_of
from hasamigo.game.procedures.study import of as study_of
from hasamigo.game.result import GameResult, Verdict, verdict_for  # (re-exported)
from hasamigo.game.setup import COLOUR_METHODS, GameOptions, GameSetup, Participant
from hasamigo.game.state import (
    TIMEOUT_CHOICES,
    BoardMark,
    DecidedFault,
    GameState,
    OverBoardState,
    PendingEntry,
    Phase,
    PlayedMove,
    StudyProgress,
    apply,
    initial,
    replay,
)
from hasamigo.move import BLACK, PASS, WHITE, Color, Move
from hasamigo.notation.record import GameRecord
from hasamigo.notation.transcript import write_transcript

TimeSource = Callable[[], float]


class GameController:
    """A game: setup, events and their fold (see the module docstring)."""

    def __init__(self, setup: GameSetup, events: Iterable[Event] = (), *,
                 time_source: TimeSource = time.time, rng: random.Random | None = None,
                 game_id: str | None = None) -> None:
        """Replay ``events`` (refused ones raise :class:`StoredGameError` naming the event);
        nothing is appended. Use :meth:`new` for a new game."""
        self.setup = setup
        self._events: list[Event] = list(events)
        self._now = time_source
        self._rng = rng or random.Random()
        self.id = game_id
        self.state: GameState = replay(setup, self._events, game=game_id) if self._events \
            else _initial(setup, game_id)

    @classmethod
    def new(cls, setup: GameSetup, *, time_source: TimeSource = time.time,
            rng: random.Random | None = None, game_id: str | None = None) -> GameController:
        """A new game: the colour steps that need nobody's choice are taken at once."""
        game = cls(setup, time_source=time_source, rng=rng)  # a bad setup: GameError
        game.id = game_id
        game._follow_up(game.now())
        return game

    # ---- the record --------------------------------------------------------------
    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def now(self) -> float:
        """The time source's reading, never before the last event."""
        now = self._now()
        last = self.state.last_at
        return now if last is None or now > last else last

    def append(self, event: Event) -> list[Event]:
        """Check ``event`` against the fold and append it, then what follows by itself.
        Returns every event appended; raises (changing nothing) if it is refused."""
        start = len(self._events)
        self._apply(event)
        self._follow_up(event.at)
        return self._events[start:]

    def _apply(self, event: Event) -> None:
        self.state = apply(self.state, event)
        self._events.append(event)

    def _follow_up(self, at: float) -> None:
        while (event := self._automatic(at)) is not None:
            self._apply(event)

    def _automatic(self, at: float) -> Event | None:
        """The next event that needs nobody's decision, if any."""
        state = self.state
        phase = state.phase
        if phase is Phase.COLOURS:
            return self._automatic_colour_step(at)
        if phase in (Phase.PLAYING, Phase.PLAYOUT) and not state.suspended \
                and over_board_of(state).pending is None and not state.paused:
            board = state.position
            if board.must_pass() and not self._questions_wait(board.turn):
                return ev.Pass(board.turn, at=at)
            return None
        if phase is Phase.TIMEOUT_CHOICE:
            assert state.timeout_loser is not None
            winner = state.timeout_loser.other
            if not state.is_person(winner):
                return ev.TimeoutChoice("33-31", at=at)
            return None
        if phase is Phase.OVER and state.seats is not None:
            claim = self._automatic_claim(at)
            if claim is not None:
                return claim
            for colour in (BLACK, WHITE):
                if not state.is_person(colour) and colour not in state.accepted:
                    return ev.AcceptResult(colour, at=at)
        return None

    def _questions_wait(self, colour: Color) -> bool:
        """A study's question is asked that ``colour`` must wait for: its own as the
        subject, or, at the subject-move timing, the subject's before the program goes on
        (a forced pass waits too)."""
        study = self.study
        return study is not None and study.asked is not None and (
            study.subject is colour or study.after_subject)

    def _automatic_colour_step(self, at: float) -> Event | None:
        pending = self.state.pending_colour_step()
        if pending is None:
            return None
        step, who = pending
        rng = self._rng
        if step == "choose":
            return ev.ColourStep("choose", self.setup.colour_method, 0, at=at)
        if step == "draw":
            return ev.ColourStep("draw", rng.choice("01"), None, at=at)
        if step == "hider":
            return ev.ColourStep("hider", rng.choice("01"), None, at=at)
        if step == "hide":
            return ev.ColourStep("hide", rng.choice(("black", "white")), who, at=at)
        assert who is not None
        if self.setup.participants[who].is_person:
            return None
        if step == "call":
            options = ("black", "white") if (self.state.colours.draw_win_only
                                             or not self.setup.options.draws_allowed) \
                else ("top", "bottom")
            return ev.ColourStep("call", rng.choice(options), who, at=at)
        if step == "right":
            return ev.ColourStep("right", "draw-win", who, at=at)
        return ev.ColourStep("colour", "white", who, at=at)

    def _automatic_claim(self, at: float, busy: frozenset[Color] = frozenset()
                         ) -> ev.Claim | None:
        """A claim a program (``program_claims``) or a person with ``auto_claim`` makes
        as soon as it sees its opponent's flag down, and in a correspondence game the
        server's for the opponent of a side whose deadline passed; never against a side
        in ``busy`` (a program whose move is being computed: its move is completed first)."""
        state = self.state
        if state.clock is None or state.seats is None \
                or over_board_of(state).pending is not None:
            return None
        for flagged in (BLACK, WHITE):
            claimant = flagged.other
            if flagged in busy or not state.can_claim(flagged, at):
                continue
            fell = state.clock.flag_time(flagged)
            if state.clock.per_turn is not None and fell is not None:
                # correspondence: the game ends at the deadline, however late it is seen
                return ev.Claim(claimant, flagged, at=max(fell, state.last_at or fell))
            person = self.setup.participants[state.seat(claimant)]
            if person.is_person:
                if person.auto_claim and not state.is_person(flagged):
                    return ev.Claim(claimant, flagged, at=at)
            elif self.setup.options.program_claims:
                return ev.Claim(claimant, flagged, at=at)
        return None

    def observe(self, busy: Iterable[Color] = ()) -> list[Event]:
        """Append what time has brought by now: the end of a play-out whose time ran out,
        and the automatic claims (see :meth:`_automatic_claim`). Returns the events."""
        start = len(self._events)
        state = self.state
        now = self.now()
        if state.phase is Phase.PLAYOUT and state.clock is not None and not state.suspended:
            assert state.timeout_loser is not None
            fell = state.clock.flag_time(state.timeout_loser.other)
            if fell is not None and fell <= now:
                self.append(ev.StopPlayout(timed_out=True, at=max(fell, state.last_at or fell)))
        elif state.phase in (Phase.PLAYING, Phase.OVER):
            claim = self._automatic_claim(now, frozenset(busy))
            if claim is not None:
                self.append(claim)
        return self._events[start:]

    # ---- requests ------------------------------------------------------------------
    def play(self, colour: Color | None, move: Move | str, *, revision: int | None = None
             ) -> list[Event]:
        """Play ``move`` for ``colour`` (``None``: the side to move); a pass only when
        forced. ``revision``: the :attr:`revision` the move was chosen at; a move chosen
        before the position last changed is refused as ``stale``."""
        state = self.state
        if revision is not None and revision < state.position_revision:
            raise GameError("the position changed while this move was being chosen", "stale")
        if isinstance(move, str):
            move = state.position.parse_move(move, cut_ok=True)
        mover = state.position.turn if colour is None else colour
        at = self.now()
        event: Event = ev.Pass(mover, at=at) if move.is_pass else \
            ev.MovePlayed(mover, move.square, move.turned, at=at)  # type: ignore[arg-type]
        return self.append(event)

    def colour_step(self, participant: int, step: str, value: str) -> list[Event]:
        """A person's fuse-ishi step: ``call``, ``right`` or ``colour``."""
        if step not in ("call", "right", "colour"):
            raise GameError("a person's colour step is 'call', 'right' or 'colour'",
                            "colours")
        return self.append(ev.ColourStep(step, value, participant, at=self.now()))

    def claim(self, by: Color, flagged: Color | None = None) -> list[Event]:
        """``by`` claims ``flagged``'s fallen flag (default: the opponent's); claiming
        one's own is a self-report."""
        return self.append(ev.Claim(by, by.other if flagged is None else flagged,
                                 at=self.now()))

    def choose_after_timeout(self, choice: str) -> list[Event]:
        """The time-out winner's choice: ``33-31`` or ``playout`` (勝手打ち)."""
        if choice not in TIMEOUT_CHOICES:
            raise GameError("the choice is '33-31' or 'playout'")
        return self.append(ev.TimeoutChoice(choice, at=self.now()))

    def stop_playout(self) -> list[Event]:
        return self.append(ev.StopPlayout(at=self.now()))

    def resign(self, colour: Color) -> list[Event]:
        return self.append(ev.Resign(colour, at=self.now()))

    def accept_result(self, colour: Color) -> list[Event]:
        return self.append(ev.AcceptResult(colour, at=self.now()))

    def request_undo(self, colour: Color) -> list[Event]:
        return self.append(ev.UndoRequest(colour, at=self.now()))

    def decline_undo(self, colour: Color) -> list[Event]:
        return self.append(ev.UndoDecline(colour, at=self.now()))

    def undo(self, colour: Color) -> list[Event]:
        """Take back ``colour``'s last move and what followed (casual games; against a
        person only after their :meth:`request_undo` was answered by this call)."""
        return self.append(ev.Undo(colour, at=self.now()))

    def suspend(self, at: float | None = None) -> list[Event]:
        """Stop the running clock (the server is going down, or was last seen at ``at``)."""
        when = self.now() if at is None else max(at, self.state.last_at or at)
        return self.append(ev.Suspend(at=when))

    def resume(self) -> list[Event]:
        return self.append(ev.Resume(at=self.now()))

    def name_seat(self, participant: int, name: str) -> list[Event]:
        """The person of ``participant`` plays under ``name`` from now on (an account took
        the seat): refused for a program's seat, a name no participant could have, or the
        other player's name."""
        return self.append(ev.SeatNamed(participant, name, at=self.now()))

    # ---- programs waiting for their kernels --------------------------------------------
    def program_waiting(self, participant: int, *, from_start: bool = False) -> list[Event]:
        """The program of ``participant`` cannot move yet (its kernels are being prepared):
        its clock stops while it is on move; an official game waits for it.
        ``from_start``: it was known when the game was made, so it waits from the game's
        last event (not a millisecond of its clock runs in between)."""
        last = self.state.last_at
        at = last if from_start and last is not None else self.now()
        return self.append(ev.ProgramWaiting(participant, at=at))

    def program_ready(self, participant: int) -> list[Event]:
        """The program of ``participant`` can move from now."""
        return self.append(ev.ProgramReady(participant, at=self.now()))

    @property
    def waiting(self) -> frozenset[int]:
        """The participants whose program cannot move yet."""
        return self.state.waiting

    # ---- the user study --------------------------------------------------------------------
    def declare_study(self, timing: str = PROGRAM_MOVE) -> list[Event]:
        """Make this game (one person against a program, before its first move) a study
        game: the person answers the study's questions after every program move
        (``timing`` :data:`~hasamigo.game.events.PROGRAM_MOVE`) or after every move of
        their own (:data:`~hasamigo.game.events.SUBJECT_MOVE`, the paper's; see
        :mod:`hasamigo.game.procedures.study`)."""
        return self.append(ev.StudyGame(timing=timing, at=self.now()))

    def answer(self, move_number: int, question: str, answer: str, *, seconds: float,
               move_kind: str = "normal") -> list[Event]:
        """The subject's ``answer`` to ``question`` asked after move number
        ``move_number``, ``seconds`` after it was shown; ``move_kind``: what the program
        reported of the move the answer is about (:attr:`StudyQuestion.about`). Once the
        questions are answered, a forced pass that waited for them follows by itself."""
        return self.append(ev.StudyAnswer(move_number, question, answer, float(seconds),
                                       move_kind, at=self.now()))

    @property
    def study(self) -> StudyProgress | None:
        """A study game's questions so far (``None``: not a study game)."""
        return study_of(self.state)

    # ---- over the board ----------------------------------------------------------------
    def declare_over_the_board(self, *, scheduled: float | None = None,
                               byoyomi: float = 0.0) -> list[Event]:
        """Declare the game played on a real board with a chess clock (before it begins):
        the clock waits for the first press. ``scheduled``: the round's start, from which
        a late player's clock runs; ``byoyomi``: seconds left at or below which a player is
        in byo-yomi (an illegal move claimed then is a time-out)."""
        return self.append(ev.OverTheBoard(scheduled, float(byoyomi), at=self.now()))

    def press(self, colour: Color, *, passed: bool = False) -> list[Event]:
        """``colour`` presses its clock: its turn ends (``passed``: with a declared pass);
        the first press, by the side that does not move first, starts the game."""
        return self.append(ev.ClockPress(colour, passed, at=self.now()))

    def absent(self, participant: int, since: float | None = None) -> list[Event]:
        """``participant`` is not there: their clock runs from ``since`` (default: the
        scheduled start if it has passed, else now)."""
        now = self.now()
        if since is None:
            otb = self.over_board.otb
            scheduled = None if otb is None else otb.scheduled
            since = scheduled if scheduled is not None and scheduled <= now else now
        return self.append(ev.Absent(participant, since, at=now))

    def arrive(self, participant: int) -> list[Event]:
        """The late ``participant`` arrives: the clock stops."""
        return self.append(ev.Arrival(participant, at=self.now()))

    def late_forfeit(self, participant: int) -> list[Event]:
        """The late ``participant`` chooses a forfeit loss (64–0, not rated)."""
        return self.append(ev.LateForfeit(participant, at=self.now()))

    def claim_illegal(self, by: Color) -> list[Event]:
        """``by`` claims the opponent's last move illegal (on its turn; rule 10: later)."""
        return self.append(ev.IllegalClaim(by, at=self.now()))

    def penalise(self, colour: Color, reason: str, *, seconds: float = 0.0,
                 loss: bool = False) -> list[Event]:
        """The arbiter's penalty (rule 21): ``seconds`` off the clock, or a ``loss``."""
        return self.append(ev.Penalty(colour, reason, float(seconds), loss, at=self.now()))

    def enter(self, entry: Entry) -> list[Event]:
        """Enter a move as it was played on the board (see :mod:`hasamigo.game.entry`).
        A faulty one waits for :meth:`correct_entry` or :meth:`keep_board`."""
        return self.append(entry.event(self.state.position, self.now()))

    def enter_move(self, square: int | str | None, colour: Color | None = None,
                   turned: Iterable[int | str] | None = None, *, by: Color | None = None
                   ) -> list[Event]:
        """Enter "``by`` put a ``colour`` disc on ``square`` and turned ``turned``"
        (``square=None``: a pass; ``by``: the side to move; ``colour``: ``by``'s;
        ``turned``: what the disc brackets unless given, ``()`` for nothing)."""
        return self.enter(entry_from_turned(self.state.position, square, colour, turned, by=by))

    def enter_board(self, after: str, *, by: Color | None = None,
                    square: int | str | None = None) -> list[Event]:
        """Enter a move as the whole board after it (a board string, side optional)."""
        return self.enter(entry_from_board(self.state.position, after, by=by, square=square))

    def correct_entry(self) -> list[Event]:
        """Correct the faulty move entered last: the board returns to the legal position."""
        return self.append(ev.CorrectEntry(at=self.now()))

    def keep_board(self) -> list[Event]:
        """Keep the faulty move entered last as the board shows it (the record marks it)."""
        return self.append(ev.KeepBoard(at=self.now()))

    def hand_in_card(self, black: int, white: int) -> list[Event]:
        """The signed result card: both disc counts as written (JOF rule 18)."""
        return self.append(ev.ResultCard(black, white, at=self.now()))

    @property
    def over_board(self) -> OverBoardState:
        """What the procedure over the board keeps: the declaration, a late player, the
        entered record's faults and marks, the card, the presses and the penalties."""
        return over_board_of(self.state)

    @property
    def pending_entry(self) -> PendingEntry | None:
        return self.over_board.pending

    @property
    def faults(self) -> tuple[DecidedFault, ...]:
        return self.over_board.faults

    @property
    def marks(self) -> tuple[BoardMark, ...]:
        return self.over_board.marks

    def entered_record(self) -> dict[str, Any]:
        """The record of a game entered as played: its moves (each legal from the
        position before it; where the board as played was kept, ``marks`` give the
        position the game went on from), every fault with its move number and the
        recorder's decision, the faults awaiting one, and the result."""
        state, entered = self.state, self.over_board
        board = state.board
        variant = type(board)
        result = state.result
        return {
            "transcript": write_transcript(board.move_stack, variant),
            "moves": [variant.move_name(m) for m in board.move_stack],
            "marks": [{"move_number": m.move_number, "board": m.board} for m in entered.marks],
            "faults": [f.to_json() for f in entered.faults],
            "pending": None if entered.pending is None
            else [f.to_json() for f in entered.pending.faults],
            "result": None if result is None else {
                "black": result.black, "white": result.white, "score": str(result),
                "scoring": result.score.scoring.code,
                "winner": None if result.winner is None else result.winner.value,
                "termination": result.termination.code, "rated": result.rated},
        }

    # ---- queries ---------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def variant(self) -> type[Board]:
        """The game's variant (its board class), without building the board."""
        return type(self.state.root)

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def result(self) -> GameResult | None:
        return self.state.result

    @property
    def revision(self) -> int:
        return self.state.revision

    @property
    def participants(self) -> tuple[Participant, Participant]:
        """The two participants as the game calls them now: the setup's, each named by
        the last :class:`~hasamigo.game.events.SeatNamed` of its seat, if any (an account
        that took the seat; :attr:`setup` keeps the names it was created with)."""
        return self.state.setup.participants

    @property
    def options(self) -> GameOptions:
        return self.setup.options

    @property
    def history(self) -> list[PlayedMove]:
        return list(self.state.moves)

    @property
    def draw_win(self) -> Color | None:
        return self.state.draw_win

    @property
    def timeout_loser(self) -> Color | None:
        return self.state.timeout_loser

    def seat(self, colour: Color) -> Participant:
        """The participant playing ``colour``, named as the game calls them now."""
        return self.participants[self.state.seat(colour)]

    def colour_of(self, participant: int) -> Color | None:
        return self.state.colour_of(participant)

    @property
    def persons(self) -> list[Color]:
        return self.state.persons

    def remaining(self, colour: Color) -> float | None:
        """``colour``'s seconds left now (``None`` without a clock)."""
        return self.state.remaining(colour, self.now())

    def clock_now(self) -> ClockState | None:
        """The clock as it stands now (remaining times read at :meth:`now`)."""
        clock = self.state.clock
        if clock is None:
            return None
        now = self.now()
        return ClockState(clock.remaining(BLACK, now), clock.remaining(WHITE, now),
                          clock.running, now, clock.per_turn)

    def program_clock(self, time_source: TimeSource | None = None) -> Clock | None:
        """A :class:`Clock` for a program to budget its time by (its own copy)."""
        clock = self.clock_now()
        if clock is None:
            return None
        return Clock.from_state(clock, time_source=time_source or self._now)

    def program_to_move(self) -> tuple[Color, str] | None:
        """``(colour, spec)`` when a program must move now, else ``None``."""
        state = self.state
        if state.phase is not Phase.PLAYING or state.suspended or state.seats is None:
            return None
        player = self.seat(state.position.turn)
        if player.program is None or self._questions_wait(state.position.turn):
            return None
        return state.position.turn, player.program

    def can_undo(self, colour: Color) -> bool:
        state = self.state
        return (self.setup.options.casual and state.phase is Phase.PLAYING
                and state.seats is not None and state.is_person(colour)
                and state.undo_target(colour) is not None)

    def claimable(self, by: Color) -> Color | None:
        """The flag ``by`` may claim now (the opponent's, or its own to self-report)."""
        now = self.now()
        for flagged in (by.other, by):
            if self.state.can_claim(flagged, now):
                return flagged
        return None

    def record(self) -> GameRecord:
        """The game as a :class:`GameRecord` (moves with passes; start when not standard)."""
        board = self.state.board
        variant = type(board)
        standard = variant().to_string() if board.start == variant.default_start else None
        start = None if self.state.start == standard else self.state.start
        black = white = ""
        if self.state.seats is not None:
            black, white = self.seat(BLACK).name, self.seat(WHITE).name
        record = GameRecord(variant=variant, start=start, moves=list(board.move_stack),
                            black=black, white=white)
        if self.state.result is not None:
            record.recorded_score = self.state.result.black
        return record


def _initial(setup: GameSetup, game_id: str | None) -> GameState:
    try:
        return initial(setup)
    except GameError as exc:
        if game_id is None:
            raise
        raise StoredGameError(f"the setup is refused: {exc}", game=game_id) from exc


__all__ = [
    "COLOUR_METHODS",
    "PASS",
    "TIMEOUT_CHOICES",
    "GameController",
    "GameError",
    "GameOptions",
    "GameSetup",
    "Participant",
    "Phase",
    "PlayedMove",
    "Verdict",
    "verdict_for",
]
