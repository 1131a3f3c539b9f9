"""A chess clock for two sides, as pure logic over an injected monotonic time source.

JOF procedure: every official game uses a clock (default 20 minutes each); a side's time
runs during its turn, a declared pass included, and every move ends with pressing the
clock. Tests drive the clock with a fake time source instead of sleeping.

>>> now = [0.0]
>>> clock = Clock(60, time_source=lambda: now[0])
>>> clock.start(BLACK)
>>> now[0] = 12.5
>>> clock.press(BLACK)
12.5
>>> clock.remaining(BLACK), clock.running
(47.5, Color.WHITE)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from hasamigo.errors import HasamigoError, InvalidOptionError
from hasamigo.move import BLACK, WHITE, Color

TimeSource = Callable[[], float]

#: JOF default: 20 minutes a side (World Championship final: 40).
DEFAULT_SECONDS = 20 * 60.0


class ClockError(HasamigoError, RuntimeError):
    """A clock operation out of order (pressing the clock that is not running, ...)."""

    code = "clock"


@dataclass(frozen=True, slots=True)
class ClockState:
    """A clock as a value: each side's remaining seconds at the instant ``since`` and the
    side whose time has been running since then (``None``: stopped). The game's fold
    (:mod:`hasamigo.game.state`) moves it from event to event; nothing here reads a clock.

    >>> c = ClockState(60.0, 60.0, BLACK, since=100.0)
    >>> c.remaining(BLACK, now=112.5), c.flag_time(BLACK)
    (47.5, 160.0)
    >>> c, used = c.switch(WHITE, at=112.5)
    >>> (c.black, c.running, used)
    (47.5, Color.WHITE, 12.5)
    """

    black: float
    white: float
    running: Color | None
    since: float = 0.0
    #: a correspondence game's time for each move: a side whose time starts running
    #: (a new turn) gets this much afresh, so its flag falls at the turn's deadline
    per_turn: float | None = None

    def left(self, color: Color) -> float:
        """``color``'s remaining seconds at ``since``."""
        return self.black if color is BLACK else self.white

    def remaining(self, color: Color, now: float) -> float:
        """``color``'s seconds left at ``now`` (negative once its flag has fallen)."""
        left = self.left(color)
        if self.running is color:
            left -= max(0.0, now - self.since)
        return left

    def flagged(self, color: Color, now: float) -> bool:
        return self.remaining(color, now) <= 0

    def flag_time(self, color: Color) -> float | None:
        """The instant ``color``'s flag falls (or fell), if its time is running."""
        if self.running is not color:
            return None
        return self.since + self.left(color)

    def switch(self, running: Color | None, at: float) -> tuple[ClockState, float]:
        """Charge the running side up to ``at``, then run ``running`` (``None``: stop).
        Returns the new state and the seconds charged. With :attr:`per_turn`, a side
        whose time starts (it was not running) has that much afresh: a new turn.

        >>> c = ClockState(60.0, 60.0, BLACK, since=0.0, per_turn=60.0)
        >>> c, used = c.switch(WHITE, at=50.0)
        >>> c.black, c.flag_time(WHITE), used
        (10.0, 110.0, 50.0)
        >>> c.switch(BLACK, at=70.0)[0].flag_time(BLACK)
        130.0
        """
        used = max(0.0, at - self.since) if self.running is not None else 0.0
        black, white = self.black, self.white
        if self.running is BLACK:
            black -= used
        elif self.running is WHITE:
            white -= used
        if self.per_turn is not None and running is not None and running is not self.running:
            if running is BLACK:
                black = self.per_turn
            else:
                white = self.per_turn
        return ClockState(black, white, running, at, self.per_turn), used

    def deduct(self, color: Color, seconds: float, at: float) -> ClockState:
        """``seconds`` taken off ``color``'s time at ``at`` (an arbiter's penalty), the
        running side charged up to ``at`` first; the flag may fall by it.

        >>> ClockState(60.0, 60.0, BLACK, since=0.0).deduct(BLACK, 30.0, at=10.0).black
        20.0
        """
        clock, _ = self.switch(self.running, at)
        if color is BLACK:
            return ClockState(clock.black - seconds, clock.white, clock.running, at,
                              self.per_turn)
        return ClockState(clock.black, clock.white - seconds, clock.running, at,
                          self.per_turn)


class Clock:
    """Two countdowns; at most one runs. Remaining time may go below zero (a flag fell)."""

    def __init__(
        self,
        seconds: float | Mapping[Color, float] = DEFAULT_SECONDS,
        *,
        time_source: TimeSource = time.monotonic,
    ) -> None:
        if isinstance(seconds, Mapping):
            remaining = {BLACK: float(seconds[BLACK]), WHITE: float(seconds[WHITE])}
        else:
            remaining = {BLACK: float(seconds), WHITE: float(seconds)}
        for color, value in remaining.items():
            if not value > 0:
                raise InvalidOptionError(f"{color}'s time must be positive, not {value}")
        self._remaining = remaining
        self._now = time_source
        self._running: Color | None = None
        self._since = 0.0

    @classmethod
    def from_state(cls, state: ClockState, *, time_source: TimeSource = time.monotonic) -> Clock:
        """A clock resumed from :meth:`state`; the running side's time runs from now."""
        clock = cls.__new__(cls)
        clock._remaining = {BLACK: state.black, WHITE: state.white}
        clock._now = time_source
        clock._running = None
        clock._since = 0.0
        if state.running is not None:
            clock.start(state.running)
        return clock

    @property
    def running(self) -> Color | None:
        """The side whose time is running, or ``None`` when stopped."""
        return self._running

    def remaining(self, color: Color) -> float:
        """Seconds left for ``color`` right now (negative once its flag has fallen)."""
        left = self._remaining[color]
        if self._running is color:
            left -= self._now() - self._since
        return left

    def flagged(self, color: Color) -> bool:
        """True once ``color`` has used all its time."""
        return self.remaining(color) <= 0

    def start(self, color: Color) -> None:
        """Start ``color``'s time (at the start of a game or after a stop)."""
        if self._running is not None:
            raise ClockError(f"the clock is already running for {self._running}")
        self._running = color
        self._since = self._now()

    def press(self, color: Color) -> float:
        """``color`` ends its turn: its time stops, the opponent's starts. Returns the
        seconds charged for the turn."""
        if self._running is not color:
            state = "stopped" if self._running is None else f"running for {self._running}"
            raise ClockError(f"{color} pressed the clock, but it is {state}")
        used = self._charge()
        self._running = color.other
        self._since = self._now()
        return used

    def stop(self) -> float:
        """Stop the clock (game over, adjudication); returns the seconds charged."""
        if self._running is None:
            return 0.0
        used = self._charge()
        self._running = None
        return used

    def _charge(self) -> float:
        assert self._running is not None
        used = self._now() - self._since
        self._remaining[self._running] -= used
        return used

    def state(self) -> ClockState:
        """The clock as it stands now, for storage."""
        return ClockState(self.remaining(BLACK), self.remaining(WHITE), self._running)
