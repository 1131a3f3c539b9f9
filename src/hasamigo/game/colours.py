"""Deciding colours: by choice, at random, or by fuse-ishi (伏せ石) with the draw-win right.

Fuse-ishi (JOF): the higher-ranked player (or the elder) hides one disc flat on the board.

* Draws allowed: the other calls "top" or "bottom" and plays the colour of that face.
* Draws not allowed: the other calls "black" or "white" (which colour is on top). If the call
  is right the caller, otherwise the hider, chooses one of two rights: the **draw-win right**
  (引き分け勝ち: wins a 32–32 game) or the right to **choose colour**; the opponent gets the
  other right, and the colour-right holder then picks a colour.

>>> f = FuseIshi("Ann", "Bob", draws_allowed=False)   # Ann ranks higher and hides
>>> f.hide(top=BLACK); f.call(WHITE)                   # Bob calls white: wrong
>>> f.chooser
'Ann'
>>> f.choose_right(Right.DRAW_WIN)                     # Ann takes the draw-win right
>>> f.choose_colour(BLACK)                             # so Bob picks: black
>>> f.decision()
ColourDecision(black='Bob', white='Ann', draw_win='Ann')
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Literal

from hasamigo.errors import HasamigoError
from hasamigo.move import BLACK, WHITE, Color


class Right(enum.Enum):
    DRAW_WIN = "draw-win right (引き分け勝ち)"
    COLOUR = "right to choose colour"


@dataclass(frozen=True, slots=True)
class ColourDecision:
    """Who plays Black, who White, and who (if anyone) holds the draw-win right."""

    black: str
    white: str
    draw_win: str | None = None

    def colour_of(self, player: str) -> Color:
        if player == self.black:
            return BLACK
        if player == self.white:
            return WHITE
        raise KeyError(f"{player!r} is not in this game")

    @property
    def draw_win_colour(self) -> Color | None:
        return None if self.draw_win is None else self.colour_of(self.draw_win)


def by_choice(chooser: str, other: str, colour: Color) -> ColourDecision:
    """``chooser`` takes ``colour``."""
    return ColourDecision(chooser, other) if colour is BLACK else ColourDecision(other, chooser)


def at_random(first: str, second: str, rng: random.Random | None = None) -> ColourDecision:
    """Colours drawn at random (as in the paper's GUI, which picks who moves first)."""
    rng = rng or random.Random()
    return ColourDecision(first, second) if rng.random() < 0.5 else ColourDecision(second, first)


class FuseIshiError(HasamigoError, ValueError):
    """A fuse-ishi step out of order or by the wrong player."""

    code = "colours"


class FuseIshi:
    """The fuse-ishi procedure as a small state machine: hide → call → (rights) → colour."""

    def __init__(self, hider: str, caller: str, *, draws_allowed: bool) -> None:
        if hider == caller:
            raise FuseIshiError("the two players must be different")
        self.hider, self.caller, self.draws_allowed = hider, caller, draws_allowed
        self.top: Color | None = None
        self._call: Color | Literal["top", "bottom"] | None = None
        self.chooser: str | None = None  # who picks a right (draws not allowed)
        self._rights: dict[Right, str] = {}
        self._decision: ColourDecision | None = None

    def hide(self, top: Color) -> None:
        """The hider places the disc; ``top`` is the colour of its upper face."""
        if self.top is not None:
            raise FuseIshiError("the disc is already hidden")
        self.top = top

    def call(self, call: Color | Literal["top", "bottom"]) -> None:
        """The caller's declaration: "top"/"bottom" with draws, BLACK/WHITE without."""
        if self.top is None:
            raise FuseIshiError("hide the disc before the call")
        if self._call is not None:
            raise FuseIshiError("the call has been made")
        if self.draws_allowed:
            if call not in ("top", "bottom"):
                raise FuseIshiError("with draws allowed the call is 'top' or 'bottom'")
            colour = self.top if call == "top" else self.top.other
            self._decision = by_choice(self.caller, self.hider, colour)
        else:
            if not isinstance(call, Color):
                raise FuseIshiError("without draws the call is black or white")
            self.chooser = self.caller if call is self.top else self.hider
        self._call = call

    def choose_right(self, right: Right) -> None:
        """The winner of the call takes a right; the opponent gets the other one."""
        if self.draws_allowed or self.chooser is None:
            raise FuseIshiError("no right to choose now")
        if self._rights:
            raise FuseIshiError("the rights have been chosen")
        other = self.hider if self.chooser == self.caller else self.caller
        other_right = Right.COLOUR if right is Right.DRAW_WIN else Right.DRAW_WIN
        self._rights = {right: self.chooser, other_right: other}

    @property
    def colour_chooser(self) -> str | None:
        """Who picks the colour (after the rights are chosen)."""
        return self._rights.get(Right.COLOUR)

    def choose_colour(self, colour: Color) -> None:
        """The holder of the colour right picks a colour."""
        if self._decision is not None:
            raise FuseIshiError("colours are decided")
        picker = self.colour_chooser
        if picker is None:
            raise FuseIshiError("choose the rights first")
        other = self.hider if picker == self.caller else self.caller
        decision = by_choice(picker, other, colour)
        self._decision = ColourDecision(
            decision.black, decision.white, self._rights[Right.DRAW_WIN]
        )

    def decision(self) -> ColourDecision:
        if self._decision is None:
            raise FuseIshiError("the procedure is not finished")
        return self._decision
