"""One game under the official (JOF) procedure: board, two players, record and clock.

:class:`GameController` is pure: it never runs a program and never sleeps. A front-end
(web app, CLI, tournament runner) asks :meth:`GameController.program_to_move` whose move
a program must compute, runs the program wherever it likes (a thread, a worker pool) and
hands the move back through :meth:`GameController.play`. Time comes from an injected
monotonic source, so every clock rule is tested without sleeping.

The procedure it applies:

* colours by choice, at random (as in the amusement paper's GUI) or by **fuse-ishi**
  (伏せ石), with the **draw-win right** (引き分け勝ち) when draws are not allowed;
* handicap games (1–4 corner discs to Black; **White moves first**);
* passes are automatic (a forced pass presses the clock at once);
* the clock (default 20 minutes each, or none): a side is charged from the moment its turn
  is offered until its move is received;
* time-out: the flagged side loses once the flag is **claimed**. A person's flag is claimed
  by whoever runs the game as soon as it sees it (:meth:`tick`); a program's flag only by
  the person (:meth:`claim_flag`). The winner chooses **33–31** or **play-out** (勝手打ち:
  the winner plays both colours alone on their remaining time and stops when they like;
  empties then go to the loser). Both flags down → a draw (the draw-win holder wins);
* resignation; undo only in casual games (official games: no take-backs).

State for storage is a plain JSON-able dict (:meth:`to_dict` / :meth:`from_dict`).

**Time during an outage.** The stored clock is the remaining time of both sides *at the
instant of saving* (``saved_at``), the running side and the wall-clock instant its turn
started. A restored game's running side resumes from the saved remaining time: the gap
between the last save and the restore (a server outage) is charged to nobody. Front-ends
save on every move and checkpoint running clocks every few seconds, so at most one
checkpoint interval of real thinking time is forgiven after a crash, and none after an
orderly shutdown (which saves every running clock).

>>> now = [0.0]
>>> game = GameController.new(Participant("You"), Participant("Bot", program="random"),
...                           colour="black", time_source=lambda: now[0])
>>> game.phase, game.seat(BLACK).name, game.board.turn
(<Phase.PLAYING: 'playing'>, 'You', Color.BLACK)
>>> now[0] = 3.0
>>> _ = game.play(BLACK, "f5")
>>> game.program_to_move(), game.clock.remaining(BLACK)
((Color.WHITE, 'random'), 1197.0)
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from hasamigo.board import Board
from hasamigo.errors import HasamigoError, IllegalMoveError, IllegalReason
from hasamigo.game.clock import DEFAULT_SECONDS, Clock, ClockState
from hasamigo.game.colours import ColourDecision, FuseIshi, FuseIshiError, Right, at_random
from hasamigo.game.result import (
    GameResult,
    Termination,
    both_flags_down,
    playout_result,
    resignation,
    timeout_win,
)
from hasamigo.move import BLACK, PASS, WHITE, Color, Move
from hasamigo.notation.record import GameRecord
from hasamigo.variants import find_variant

TimeSource = Callable[[], float]
STATE_VERSION = 1
COLOUR_METHODS = ("black", "white", "random", "fuse-ishi")
TIMEOUT_CHOICES = ("33-31", "playout")


class GameError(HasamigoError):
    """A request the procedure refuses; ``code`` names the reason for front-ends.

    Codes: ``time_up``, ``program_to_move``, ``game_over``, ``wrong_phase``,
    ``undo_not_allowed``, ``nothing_to_undo``, ``no_flag``, ``stale``, ``colours``,
    ``bad_request``.
    """

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class Phase(enum.Enum):
    COLOURS = "colours"  # fuse-ishi in progress
    PLAYING = "playing"
    TIMEOUT_CHOICE = "timeout-choice"  # a flag was claimed: the winner picks 33–31 or play-out
    PLAYOUT = "playout"  # 勝手打ち: the winner plays both colours
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Participant:
    """A player before colours are known: a person (``program=None``) or a program spec."""

    name: str
    program: str | None = None

    @property
    def is_person(self) -> bool:
        return self.program is None


@dataclass(frozen=True, slots=True)
class GameOptions:
    """How a game is set up. ``clock_seconds=None`` plays without a clock; ``casual``
    games allow undo (official games do not); ``draws_allowed=False`` makes fuse-ishi
    hand out the draw-win right. ``position`` is a board string to start from (casual
    set-up positions and tests)."""

    variant: str = "standard"
    start: str | None = None
    handicap: int = 0
    clock_seconds: float | None = DEFAULT_SECONDS
    casual: bool = True
    draws_allowed: bool = True
    position: str | None = None

    def new_board(self) -> Board:
        cls = find_variant(self.variant)
        if self.position is not None:
            if self.handicap:
                raise GameError("a set-up position cannot also take a handicap", "bad_request")
            board = cls.from_string(self.position)
            if self.start is not None:
                board.start = self.start
            return board
        return cls(start=self.start, handicap=self.handicap)


@dataclass(slots=True)
class PlayedMove:
    """A move in the record with its colour and the seconds charged for it."""

    colour: Color
    move: Move
    seconds: float | None = None
    automatic: bool = False  # a forced pass played by the controller


@dataclass(slots=True)
class _FuseIshiSteps:
    top: Color
    hider: int  # participant index
    call: str | None = None
    right: str | None = None  # "draw-win" | "colour" (the chooser's right)
    colour: Color | None = None


def _colour(text: str | None) -> Color | None:
    return None if text is None else Color(text)


class GameController:
    """A game under the JOF procedure (see the module docstring)."""

    def __init__(
        self,
        participants: tuple[Participant, Participant],
        options: GameOptions,
        *,
        time_source: TimeSource = time.monotonic,
        wall_clock: TimeSource = time.time,
    ) -> None:
        if participants[0].name == participants[1].name:
            raise GameError("the two players need different names", "bad_request")
        self.participants = participants
        self.options = options
        self._now = time_source
        self._wall = wall_clock
        try:
            self.board = options.new_board()
        except (ValueError, HasamigoError) as exc:
            raise GameError(str(exc), "bad_request") from exc
        self._start_string = self.board.to_string()
        self.history: list[PlayedMove] = []
        self.seats: dict[Color, int] | None = None  # colour -> participant index
        self.draw_win: Color | None = None
        self.phase = Phase.COLOURS
        self.result: GameResult | None = None
        self.timeout_loser: Color | None = None
        self.playout_from: int | None = None
        self.clock: Clock | None = None
        self.turn_started_at: float | None = None  # wall clock
        self.revision = 0
        self.colour_method = "black"
        self._fuse: _FuseIshiSteps | None = None
        self._fuse_machine: FuseIshi | None = None
        if options.clock_seconds is not None and not options.clock_seconds > 0:
            raise GameError("clock time must be positive (or no clock)", "bad_request")
        # settle any forced passes of a set-up position only once play starts

    # ---- construction ----------------------------------------------------------------
    @classmethod
    def new(
        cls,
        first: Participant,
        second: Participant,
        *,
        colour: str = "black",
        options: GameOptions | None = None,
        rng: random.Random | None = None,
        time_source: TimeSource = time.monotonic,
        wall_clock: TimeSource = time.time,
    ) -> GameController:
        """A new game. ``colour`` is what ``first`` asked for: ``black``, ``white``,
        ``random`` or ``fuse-ishi`` (``second`` hides the disc; ``first`` calls).

        In a handicap game the handicap goes to Black (the weaker player), so the colour
        must be chosen (``black``/``white``), not drawn.
        """
        options = options or GameOptions()
        if colour not in COLOUR_METHODS:
            raise GameError(f"colour must be one of {', '.join(COLOUR_METHODS)}", "bad_request")
        if options.handicap and colour not in ("black", "white"):
            raise GameError(
                "in a handicap game the weaker player takes Black: choose black or white",
                "bad_request",
            )
        game = cls((first, second), options, time_source=time_source, wall_clock=wall_clock)
        game.colour_method = colour
        rng = rng or random.Random()
        if colour == "black":
            game._begin({BLACK: 0, WHITE: 1})
        elif colour == "white":
            game._begin({BLACK: 1, WHITE: 0})
        elif colour == "random":
            decision = at_random("0", "1", rng)
            game._begin({BLACK: int(decision.black), WHITE: int(decision.white)})
        else:
            game._fuse = _FuseIshiSteps(top=BLACK if rng.random() < 0.5 else WHITE, hider=1)
            game._rebuild_fuse()
            game._fuse_auto()
        return game

    # ---- colours ---------------------------------------------------------------------
    def _rebuild_fuse(self) -> None:
        """Replay the stored fuse-ishi steps on a fresh :class:`FuseIshi`."""
        steps = self._fuse
        assert steps is not None
        hider, caller = str(steps.hider), str(1 - steps.hider)
        machine = FuseIshi(hider, caller, draws_allowed=self.options.draws_allowed)
        machine.hide(steps.top)
        if steps.call is not None:
            call = steps.call
            machine.call(Color(call) if call in ("black", "white") else call)  # type: ignore[arg-type]
        if steps.right is not None:
            machine.choose_right(Right.DRAW_WIN if steps.right == "draw-win" else Right.COLOUR)
        if steps.colour is not None:
            machine.choose_colour(steps.colour)
        self._fuse_machine = machine

    def fuse_ishi_pending(self) -> tuple[str, int] | None:
        """The fuse-ishi step awaited: (``call`` | ``right`` | ``colour``, participant)."""
        if self.phase is not Phase.COLOURS or self._fuse_machine is None:
            return None
        machine, steps = self._fuse_machine, self._fuse
        assert steps is not None
        if steps.call is None:
            return ("call", 1 - steps.hider)
        if not self.options.draws_allowed:
            if steps.right is None:
                assert machine.chooser is not None
                return ("right", int(machine.chooser))
            if steps.colour is None:
                assert machine.colour_chooser is not None
                return ("colour", int(machine.colour_chooser))
        return None

    def fuse_ishi_step(self, participant: int, step: str, value: str) -> None:
        """A fuse-ishi step by ``participant``: ``call`` (top/bottom, or black/white without
        draws), ``right`` (``draw-win`` / ``colour``), ``colour`` (black/white)."""
        pending = self.fuse_ishi_pending()
        if pending is None:
            raise GameError("colours are not being decided by fuse-ishi now", "wrong_phase")
        wanted, who = pending
        if step != wanted or participant != who:
            name = self.participants[who].name
            raise GameError(f"fuse-ishi: waiting for {name} to choose the {wanted}", "colours")
        assert self._fuse is not None
        saved = (self._fuse.call, self._fuse.right, self._fuse.colour)
        try:
            if step == "call":
                self._fuse.call = value
            elif step == "right":
                if value not in ("draw-win", "colour"):
                    raise FuseIshiError("the right is 'draw-win' or 'colour'")
                self._fuse.right = value
            else:
                self._fuse.colour = Color(value)
            self._rebuild_fuse()
        except (FuseIshiError, ValueError) as exc:
            self._fuse.call, self._fuse.right, self._fuse.colour = saved
            self._rebuild_fuse()
            raise GameError(f"fuse-ishi: {exc}", "colours") from exc
        self._fuse_auto()
        self.revision += 1

    def _fuse_auto(self) -> None:
        """Programs take their fuse-ishi steps at once: a program that wins the call takes
        the draw-win right (the person then picks the colour); a program left with the
        colour right plays White. Then, once decided, the game begins."""
        while (pending := self.fuse_ishi_pending()) is not None:
            step, who = pending
            if self.participants[who].is_person:
                return
            assert self._fuse is not None
            if step == "right":
                self._fuse.right = "draw-win"
            elif step == "colour":
                self._fuse.colour = WHITE
            else:  # a program never calls here (the person calls), but stay total
                self._fuse.call = "top" if self.options.draws_allowed else "black"
            self._rebuild_fuse()
        assert self._fuse_machine is not None
        decision: ColourDecision = self._fuse_machine.decision()
        self.draw_win = decision.draw_win_colour
        self._begin({BLACK: int(decision.black), WHITE: int(decision.white)})

    @property
    def fuse_ishi_top(self) -> Color | None:
        """The hidden disc's top face, once it has been called (revealed)."""
        if self._fuse is None or self._fuse.call is None:
            return None
        return self._fuse.top

    def _begin(self, seats: dict[Color, int]) -> None:
        self.seats = seats
        self.phase = Phase.PLAYING
        if self.options.clock_seconds is not None and self.clock is None:
            self.clock = Clock(self.options.clock_seconds, time_source=self._now)
            self.clock.start(self.board.turn)
            self.turn_started_at = self._wall()
        self._auto_pass()
        self._check_end()

    # ---- queries ---------------------------------------------------------------------
    def seat(self, colour: Color) -> Participant:
        if self.seats is None:
            raise GameError("colours are not decided yet", "wrong_phase")
        return self.participants[self.seats[colour]]

    def colour_of(self, participant: int) -> Color | None:
        if self.seats is None:
            return None
        return BLACK if self.seats[BLACK] == participant else WHITE

    @property
    def persons(self) -> list[Color]:
        """Colours played by people (empty before colours are decided)."""
        if self.seats is None:
            return []
        return [c for c in (BLACK, WHITE) if self.seat(c).is_person]

    def program_to_move(self) -> tuple[Color, str] | None:
        """``(colour, spec)`` when a program must move now, else ``None``."""
        if self.phase is not Phase.PLAYING or self.seats is None:
            return None
        player = self.seat(self.board.turn)
        if player.program is None:
            return None
        return self.board.turn, player.program

    @property
    def can_undo(self) -> bool:
        return (
            self.options.casual
            and self.phase is Phase.PLAYING
            and self._undo_target() is not None
        )

    def claimable_flag(self) -> Color | None:
        """A program's fallen flag that the person may claim now."""
        if self.phase is not Phase.PLAYING or self.clock is None:
            return None
        for colour in (BLACK, WHITE):
            if (not self.seat(colour).is_person and self.seat(colour.other).is_person
                    and self.clock.flagged(colour)):
                return colour
        return None

    def record(self) -> GameRecord:
        """The game as a :class:`GameRecord` (moves with passes; start when not standard)."""
        variant = type(self.board)
        standard = variant().to_string() if self.board.start == variant.default_start else None
        start = None if self._start_string == standard else self._start_string
        black = white = ""
        if self.seats is not None:
            black, white = self.seat(BLACK).name, self.seat(WHITE).name
        record = GameRecord(
            variant=variant,
            start=start,
            moves=list(self.board.move_stack),
            black=black,
            white=white,
        )
        if self.result is not None:
            record.recorded_score = self.result.black
        return record

    # ---- playing ---------------------------------------------------------------------
    def play(self, colour: Color | None, move: Move | str, *, revision: int | None = None
             ) -> list[PlayedMove]:
        """Play ``move`` for ``colour`` (``None``: the side to move). Returns the moves
        added (the move, then any automatic passes). In play-out the winner moves for
        both colours. ``revision`` guards against a move computed for an older state.

        Raises :class:`GameError` (turn, phase) or :class:`IllegalMoveError` (rules);
        nothing changes when it raises.
        """
        if revision is not None and revision != self.revision:
            raise GameError("the game changed while this move was being chosen", "stale")
        if self.tick() and self.timeout_loser is not None:
            raise GameError(f"time is up: {self.timeout_loser}'s flag has fallen", "time_up")
        if self.phase not in (Phase.PLAYING, Phase.PLAYOUT):
            code = "game_over" if self.phase is Phase.OVER else "wrong_phase"
            raise GameError(f"no moves now: the game is {self.phase.value}", code)
        turn = self.board.turn
        if self.phase is Phase.PLAYING and colour is not None and colour is not turn:
            raise IllegalMoveError(
                f"illegal move for {colour}: {IllegalReason.NOT_YOUR_TURN.value} "
                f"({turn} to move)",
                IllegalReason.NOT_YOUR_TURN,
            )
        if isinstance(move, str):
            try:
                move = self.board.parse_move(move, cut_ok=True)
            except HasamigoError as exc:
                raise GameError(str(exc), "bad_request") from exc
        self.board.push(move)  # raises IllegalMoveError naming the reason, changing nothing
        seconds = self._press(turn)
        added = [PlayedMove(turn, move, seconds)]
        self.history.append(added[0])
        added += self._auto_pass()
        self.revision += 1
        self._check_end()
        return added

    def _press(self, colour: Color) -> float | None:
        if self.clock is None or self.phase is Phase.PLAYOUT:
            return None
        used = self.clock.press(colour)
        self.turn_started_at = self._wall()
        return used

    def _auto_pass(self) -> list[PlayedMove]:
        added = []
        while self.board.must_pass():
            turn = self.board.turn
            self.board.push(PASS)
            added.append(PlayedMove(turn, PASS, self._press(turn), automatic=True))
            self.history.append(added[-1])
        return added

    def _check_end(self) -> None:
        if self.phase not in (Phase.PLAYING, Phase.PLAYOUT):
            return
        outcome = self.board.outcome()
        if outcome is None:
            return
        if self.phase is Phase.PLAYOUT:
            assert self.timeout_loser is not None
            self._finish(playout_result(self.board, self.timeout_loser.other))
        else:
            self._finish(GameResult.from_outcome(outcome, draw_win=self.draw_win))

    def _finish(self, result: GameResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        if self.clock is not None:
            self.clock.stop()
        self.turn_started_at = None

    # ---- clock and flags -------------------------------------------------------------
    def tick(self) -> bool:
        """Look at the clock: claim a person's fallen flag, see both flags down, end a
        play-out whose time ran out. Returns True when something changed."""
        clock = self.clock
        if clock is None:
            return False
        if self.phase is Phase.PLAYOUT:
            assert self.timeout_loser is not None
            winner = self.timeout_loser.other
            if clock.flagged(winner):
                self._finish(playout_result(self.board, winner))
                self.revision += 1
                return True
            return False
        if self.phase is not Phase.PLAYING:
            return False
        turn = self.board.turn
        if not clock.flagged(turn):
            return False
        if clock.flagged(turn.other):
            self._finish(
                both_flags_down(draw_win=self.draw_win, squares=self.board.square_count())
            )
            self.revision += 1
            return True
        if self.seat(turn).is_person:
            self._time_out(turn)
            return True
        return False  # a program's flag waits for the person's claim

    def claim_flag(self, claimant: Color) -> None:
        """``claimant`` (a person) claims the opponent's fallen flag."""
        self.tick()
        if self.phase is not Phase.PLAYING or self.clock is None:
            raise GameError("there is no flag to claim now", "no_flag")
        loser = claimant.other
        if not self.clock.flagged(loser):
            left = self.clock.remaining(loser)
            raise GameError(f"{loser}'s flag has not fallen ({left:.0f} s left)", "no_flag")
        self._time_out(loser)

    def _time_out(self, loser: Color) -> None:
        assert self.clock is not None
        self.clock.stop()
        self.timeout_loser = loser
        self.phase = Phase.TIMEOUT_CHOICE
        self.turn_started_at = None
        self.revision += 1
        if not self.seat(loser.other).is_person:
            self.choose_after_timeout("33-31")  # programs take the 33–31 win

    def choose_after_timeout(self, choice: str) -> None:
        """The time-out winner's choice: ``33-31`` or ``playout`` (勝手打ち)."""
        if self.phase is not Phase.TIMEOUT_CHOICE:
            raise GameError("there is no time-out to settle", "wrong_phase")
        assert self.timeout_loser is not None and self.clock is not None
        winner = self.timeout_loser.other
        if choice == "33-31":
            self._finish(timeout_win(winner, squares=self.board.square_count()))
        elif choice == "playout":
            self.phase = Phase.PLAYOUT
            self.playout_from = len(self.board.move_stack)
            self.clock.start(winner)
            self.turn_started_at = self._wall()
            self._check_end()
        else:
            raise GameError("the choice is '33-31' or 'playout'", "bad_request")
        self.revision += 1

    def stop_playout(self) -> None:
        """The play-out winner stops: the count now stands (empties to the loser)."""
        if self.phase is not Phase.PLAYOUT:
            raise GameError("no play-out is in progress", "wrong_phase")
        assert self.timeout_loser is not None
        self._finish(playout_result(self.board, self.timeout_loser.other))
        self.revision += 1

    # ---- resign and undo ---------------------------------------------------------------
    def resign(self, colour: Color) -> None:
        self.tick()
        if self.phase in (Phase.OVER, Phase.COLOURS):
            raise GameError(f"cannot resign: the game is {self.phase.value}", "wrong_phase")
        if self.phase is not Phase.PLAYING:
            raise GameError("the time-out winner settles the game", "wrong_phase")
        self._finish(resignation(colour, squares=self.board.square_count()))
        self.revision += 1

    def _undo_target(self) -> int | None:
        """Stack length to go back to: before the last move a person played."""
        persons = set(self.persons)
        for index in range(len(self.history) - 1, -1, -1):
            played = self.history[index]
            if played.colour in persons and not played.move.is_pass:
                return index
        return None

    def undo(self) -> list[PlayedMove]:
        """Casual games only: take back the last move a person played (and the program's
        reply and forced passes after it). Time already used is not given back."""
        if not self.options.casual:
            raise GameError("no take-backs in an official game", "undo_not_allowed")
        if self.phase is not Phase.PLAYING:
            raise GameError(f"cannot undo: the game is {self.phase.value}", "wrong_phase")
        target = self._undo_target()
        if target is None:
            raise GameError("there is no move of yours to take back", "nothing_to_undo")
        removed = self.history[target:]
        del self.history[target:]
        while len(self.board.move_stack) > target:
            self.board.pop()
        if self.clock is not None:
            self.clock.stop()
            self.clock.start(self.board.turn)
            self.turn_started_at = self._wall()
        self.revision += 1
        return removed

    # ---- storage ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-able state; :meth:`from_dict` resumes the game exactly (see module doc)."""
        clock: dict[str, Any] | None = None
        if self.clock is not None:
            state = self.clock.state()
            clock = {
                "black": state.black,
                "white": state.white,
                "running": None if state.running is None else state.running.value,
                "saved_at": self._wall(),
                "turn_started_at": self.turn_started_at,
            }
        result = None
        if self.result is not None:
            r = self.result
            result = {
                "black": r.black,
                "white": r.white,
                "winner": None if r.winner is None else r.winner.value,
                "termination": r.termination.name,
                "rated": r.rated,
                "by_draw_win": r.by_draw_win,
            }
        fuse = None
        if self._fuse is not None:
            f = self._fuse
            fuse = {
                "top": f.top.value,
                "hider": f.hider,
                "call": f.call,
                "right": f.right,
                "colour": None if f.colour is None else f.colour.value,
            }
        o = self.options
        return {
            "state_version": STATE_VERSION,
            "participants": [
                {"name": p.name, "program": p.program} for p in self.participants
            ],
            "options": {
                "variant": o.variant,
                "start": o.start,
                "handicap": o.handicap,
                "clock_seconds": o.clock_seconds,
                "casual": o.casual,
                "draws_allowed": o.draws_allowed,
                "position": o.position,
            },
            "colour_method": self.colour_method,
            "fuse_ishi": fuse,
            "seats": None
            if self.seats is None
            else {"black": self.seats[BLACK], "white": self.seats[WHITE]},
            "draw_win": None if self.draw_win is None else self.draw_win.value,
            "moves": [
                {
                    "colour": m.colour.value,
                    "move": self.board.move_name(m.move),
                    "seconds": m.seconds,
                    "automatic": m.automatic,
                }
                for m in self.history
            ],
            "phase": self.phase.value,
            "timeout_loser": None if self.timeout_loser is None else self.timeout_loser.value,
            "playout_from": self.playout_from,
            "clock": clock,
            "result": result,
            "revision": self.revision,
        }

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        *,
        time_source: TimeSource = time.monotonic,
        wall_clock: TimeSource = time.time,
    ) -> GameController:
        """Resume a game saved by :meth:`to_dict`; a running clock resumes from the time
        saved (the gap since ``saved_at`` is not charged)."""
        if data.get("state_version") != STATE_VERSION:
            raise ValueError(f"unknown game state version {data.get('state_version')!r}")
        participants = tuple(Participant(p["name"], p["program"]) for p in data["participants"])
        assert len(participants) == 2
        game = cls(
            (participants[0], participants[1]),
            GameOptions(**data["options"]),
            time_source=time_source,
            wall_clock=wall_clock,
        )
        game.colour_method = data["colour_method"]
        if data["fuse_ishi"] is not None:
            f = data["fuse_ishi"]
            game._fuse = _FuseIshiSteps(
                top=Color(f["top"]),
                hider=f["hider"],
                call=f["call"],
                right=f["right"],
                colour=_colour(f["colour"]),
            )
            game._rebuild_fuse()
        if data["seats"] is not None:
            game.seats = {BLACK: data["seats"]["black"], WHITE: data["seats"]["white"]}
        game.draw_win = _colour(data["draw_win"])
        for m in data["moves"]:
            move = game.board.parse_move(m["move"], cut_ok=True)
            game.board.push(move)
            game.history.append(
                PlayedMove(Color(m["colour"]), move, m["seconds"], m["automatic"])
            )
        game.phase = Phase(data["phase"])
        game.timeout_loser = _colour(data["timeout_loser"])
        game.playout_from = data["playout_from"]
        if data["clock"] is not None:
            c = data["clock"]
            state = ClockState(c["black"], c["white"], _colour(c["running"]))
            game.clock = Clock.from_state(state, time_source=time_source)
            game.turn_started_at = c["turn_started_at"]
        if data["result"] is not None:
            r = data["result"]
            game.result = GameResult(
                r["black"],
                r["white"],
                _colour(r["winner"]),
                Termination[r["termination"]],
                r["rated"],
                r["by_draw_win"],
            )
        game.revision = data["revision"]
        return game


@dataclass(frozen=True, slots=True)
class Verdict:
    """A result from one participant's point of view: ``win``, ``lose`` or ``draw``."""

    outcome: Literal["win", "lose", "draw"]
    score: str
    notes: list[str] = field(default_factory=list)


def verdict_for(result: GameResult, colour: Color) -> Verdict:
    """WIN / LOSE / DRAW for ``colour`` with the official score (own count first)."""
    mine, theirs = result.counts_for(colour), result.counts_for(colour.other)
    if result.winner is None:
        return Verdict("draw", f"{mine}–{theirs}")
    return Verdict("win" if result.winner is colour else "lose", f"{mine}–{theirs}")


__all__ = [
    "COLOUR_METHODS",
    "TIMEOUT_CHOICES",
    "GameController",
    "GameError",
    "GameOptions",
    "Participant",
    "Phase",
    "PlayedMove",
    "Verdict",
    "verdict_for",
]
