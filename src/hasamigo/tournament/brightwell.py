"""Wins and Brightwell points, the league's tie-break (the 43rd Meijin rules: a 6-round
Swiss league by "the Brightwell method", the World Championship's preliminary system).

Brightwell points = the player's own disc counts + C × the sum of all their opponents'
wins, where C is the integer nearest to 64 ÷ the number of games each player plays (10
games → 6; a setting keeps the older fixed C = 6). A bye, and a game against an entrant
who withdrew, count **32 discs + C × the player's own wins** instead, as the WOC handles
them: the missing (or stopped) opponent would otherwise make the tie-break depend on who
happened to miss them.

Only finished games of the counting stages enter (the league, the placement round, a
round robin); a draw (a game not played by the round-6 rule too) is half a win.

>>> nearest_c(10), nearest_c(7), nearest_c(6), nearest_c(5)
(6, 9, 11, 13)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from hasamigo.tournament.model import Game, GameKind

#: The discs a bye (or a game against a withdrawn entrant) counts.
BYE_DISCS = 32
#: The older rules' fixed C.
OLD_C = 6


def nearest_c(games: int) -> int:
    """The integer nearest to 64 ÷ ``games`` (halves round up); at least 1."""
    if games < 1:
        raise ValueError("a tournament has at least one game a player")
    return max(1, math.floor(64 / games + 0.5))


@dataclass(frozen=True, slots=True)
class BrightwellLine:
    """One game's part: the discs it adds and the wins that are multiplied by C.
    ``substituted``: a bye or a withdrawn opponent (32 discs + the player's own wins)."""

    round: int
    board: int
    opponent: int | None
    discs: int
    wins: float
    substituted: bool


@dataclass(frozen=True, slots=True)
class Brightwell:
    """A player's Brightwell points with the formula's parts:
    ``total == discs + c * opponents_wins``."""

    number: int
    c: int
    discs: int
    opponents_wins: float
    lines: tuple[BrightwellLine, ...]

    @property
    def total(self) -> float:
        return self.discs + self.c * self.opponents_wins

    @property
    def formula(self) -> str:
        """The sum as a page shows it, e.g. ``212 + 9 × 17.5 = 369.5``."""
        return f"{self.discs} + {self.c} × {_num(self.opponents_wins)} = {_num(self.total)}"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def counting(games: Iterable[Game]) -> list[Game]:
    """The finished games that enter wins and Brightwell points."""
    return [g for g in games if g.finished and g.stage.counts]


def wins(games: Iterable[Game]) -> dict[int, float]:
    """Each player's wins over ``games`` (a bye a win, a draw ½): every game counts."""
    out: dict[int, float] = defaultdict(float)
    for game in games:
        for player in game.players:
            out[player] += game.points_of(player)
    return dict(out)


def brightwell_points(games: Iterable[Game], c: int, *, withdrawn: Collection[int] = (),
                      players: Iterable[int] = ()) -> dict[int, Brightwell]:
    """Brightwell points of every player of ``games`` (and of ``players``, who may have
    none yet) over those games, which should be :func:`counting`'s. ``withdrawn``: the
    entrants whose games count as byes for their opponents."""
    games = list(games)
    won = wins(games)
    lines: dict[int, list[BrightwellLine]] = defaultdict(list)
    for number in players:
        lines.setdefault(number, [])  # an entry for a player without games
    for game in games:
        for player in game.players:
            opponent = game.opponent_of(player)
            if game.kind is GameKind.BYE or opponent is None or opponent in withdrawn:
                line = BrightwellLine(game.round, game.board, opponent, BYE_DISCS,
                                      won.get(player, 0.0), True)
            else:
                discs = game.discs_of(player)
                assert discs is not None
                line = BrightwellLine(game.round, game.board, opponent, discs,
                                      won.get(opponent, 0.0), False)
            lines[player].append(line)
    return {number: Brightwell(number, c, sum(line.discs for line in parts),
                               sum(line.wins for line in parts), tuple(parts))
            for number, parts in lines.items()}


__all__ = [
    "BYE_DISCS",
    "OLD_C",
    "Brightwell",
    "BrightwellLine",
    "brightwell_points",
    "counting",
    "nearest_c",
    "wins",
]
