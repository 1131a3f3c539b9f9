"""Plain Swiss (:class:`SwissFormat`): N rounds, round 1 drawn, then
:func:`~hasamigo.tournament.pairing.pair_swiss`; the Meijin formats build on it.
"""

from __future__ import annotations

import random

from hasamigo.tournament.formats.base import Format
from hasamigo.tournament.model import (
    Colours,
    Decision,
    Pairing,
    PairingKind,
    Stage,
)
from hasamigo.tournament.pairing import SwissRound, draw_round, pair_swiss
from hasamigo.tournament.view import TournamentView


def _pairings(t: TournamentView, number: int, stage: Stage, swiss: SwissRound,
              first_board: int = 1, extra: tuple[Decision, ...] = ()) -> list[Pairing]:
    out = []
    board = first_board
    for i, game in enumerate(swiss.games):
        notes = (*swiss.notes, *extra) if i == 0 else ()
        out.append(Pairing(number, board, stage, game.black, game.white, PairingKind.GAME,
                           Colours.PRESCRIBED, (*game.why, *notes)))
        board += 1
    if swiss.bye is not None:
        out.append(Pairing(number, board, stage, swiss.bye, None, PairingKind.BYE,
                           Colours.PRESCRIBED, swiss.bye_why))
    return out


class SwissFormat(Format):
    """Plain Swiss: ``rounds`` rounds (default 5), Brightwell points as the tie-break."""

    key = "swiss"
    title = "Swiss"
    default_rounds = 5

    @property
    def swiss_rounds(self) -> int:
        return self.settings.rounds or self.default_rounds

    def total_rounds(self, t: TournamentView) -> int:
        return self.swiss_rounds

    def brightwell_games(self, t: TournamentView) -> int:
        return self.swiss_rounds

    def plan_round(self, t: TournamentView, number: int, rng: random.Random) -> list[Pairing]:
        return self.swiss_round(t, number, t.active(number), Stage.SWISS, rng)

    def swiss_round(self, t: TournamentView, number: int, players: list[int], stage: Stage,
                    rng: random.Random, first_board: int = 1) -> list[Pairing]:
        candidates = t.candidates(players, number - 1)
        if len(candidates) == 1:
            (only,) = candidates
            why = (Decision("bye", f"{only.name} is the only player left to pair: a bye"),)
            return [Pairing(number, first_board, stage, only.number, None, PairingKind.BYE,
                            Colours.PRESCRIBED, why)]
        if number == 1:
            swiss = draw_round(candidates, rng, keep_seeds_apart=self.settings.keep_seeds_apart)
        else:
            swiss = pair_swiss(candidates, rng)
        return _pairings(t, number, stage, swiss, first_board)
