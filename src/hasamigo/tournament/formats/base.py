"""The base of the tournament formats, :class:`Format` (what every format answers), and
the knockout games' helpers that the Meijin formats and the knockout share.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from hasamigo.tournament.awards import Award, DanTable
from hasamigo.tournament.model import (
    Colours,
    Decision,
    Pairing,
    PairingKind,
    Settings,
    Stage,
)
from hasamigo.tournament.view import TournamentView


class Format(ABC):
    """What every format answers; the tournament asks, the format decides."""

    key: ClassVar[str]
    title: ClassVar[str]
    #: the dan table, if the format awards dan
    dan_table: DanTable | None = None

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @abstractmethod
    def total_rounds(self, t: TournamentView) -> int:
        """How many rounds the tournament has (with its entrants as they are now)."""

    @abstractmethod
    def brightwell_games(self, t: TournamentView) -> int:
        """The games each player plays that count: the divisor of C = 64 ÷ games."""

    @abstractmethod
    def plan_round(self, t: TournamentView, number: int, rng: random.Random) -> list[Pairing]:
        """The pairings of round ``number`` (the round before is complete)."""

    def final_order(self, t: TournamentView) -> list[int]:
        """Everyone in final-ranking order (provisional until the end): by default the
        standings after the last round."""
        return t.order()

    def women_champion(self, t: TournamentView, order: list[int]) -> int | None:
        """The women's champion, if the format has one."""
        return None

    def award(self, t: TournamentView, place: int, number: int) -> Award:
        """The dan award and 王座戦 qualification of ``place``; none without a table."""
        if self.dan_table is None or not t.finished:
            return Award(None, False)
        won = self.award_wins(t, number)
        return Award(self.dan_table.award(place, won), self.dan_table.qualifies(place, won))

    def award_wins(self, t: TournamentView, number: int) -> float:
        """The wins the award lines count: the counting games'."""
        return t.scores()[0].get(number, 0.0)


def knockout_pair(number: int, board: int, stage: Stage, a: int, b: int,
                  why: str, rule: str) -> Pairing:
    """A knockout game: colours by fuse-ishi at the board, no draws."""
    return Pairing(number, board, stage, a, b, PairingKind.GAME, Colours.FUSE_ISHI,
                   (Decision(rule, why), Decision("colour", "colours by fuse-ishi at the "
                                                            "board; no draws: the draw-win "
                                                            "right decides a 32–32 game")))


def winner_loser(t: TournamentView, round_number: int, stage: Stage) -> list[tuple[int, int]]:
    """(winner, loser) of each finished game of ``stage`` in ``round_number``."""
    out = []
    for p in t.pairings.get(round_number, []):
        if p.stage is stage and p.kind is PairingKind.GAME:
            g = t.game(round_number, p.board)
            if g.finished and g.winner is not None and g.loser is not None:
                out.append((g.winner, g.loser))
    return out
