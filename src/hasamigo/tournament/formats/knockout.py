"""Single elimination (:class:`Knockout`), seeded by :func:`bracket_slots` so the first two
can meet only in the final, byes to the top seeds, a third-place game unless switched off.
"""

from __future__ import annotations

import math
import random

from hasamigo.tournament.formats.base import Format, knockout_pair, winner_loser
from hasamigo.tournament.model import (
    Colours,
    Decision,
    Pairing,
    PairingKind,
    Stage,
)
from hasamigo.tournament.view import TournamentView


def bracket_slots(size: int) -> list[int]:
    """Seed numbers in bracket order for a power-of-two ``size``: consecutive pairs meet,
    and seeds 1 and 2 can meet only in the final.

    >>> bracket_slots(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    slots = [1]
    while len(slots) < size:
        total = 2 * len(slots) + 1
        slots = [x for s in slots for x in (s, total - s)]
    return slots


class Knockout(Format):
    """Single elimination; no draws, fuse-ishi colours."""

    key = "knockout"
    title = "Knockout"

    def _size(self, t: TournamentView) -> int:
        return 1 << max(1, math.ceil(math.log2(max(2, len(t.entrants)))))

    def total_rounds(self, t: TournamentView) -> int:
        return int(math.log2(self._size(t)))

    def brightwell_games(self, t: TournamentView) -> int:
        return self.total_rounds(t)

    def _stage(self, t: TournamentView, number: int) -> Stage:
        left = self.total_rounds(t) - number
        return Stage.FINAL if left == 0 else Stage.SEMIFINAL if left == 1 else Stage.KNOCKOUT

    def plan_round(self, t: TournamentView, number: int, rng: random.Random) -> list[Pairing]:
        stage = self._stage(t, number)
        if number == 1:
            order = t.initial_order()
            slots = [order[s - 1] if s <= len(order) else None
                     for s in bracket_slots(self._size(t))]
            pairs = [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]
        else:
            previous = [p for p in t.pairings[number - 1] if p.stage is not Stage.THIRD_PLACE]
            winners: list[int | None] = [self.winner(t, p) for p in previous]
            pairs = [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
        out = []
        for board, (a, b) in enumerate(pairs, 1):
            present = [n for n in (a, b) if n is not None and t.entrant(n).plays_in(number)]
            if len(present) == 2:
                out.append(knockout_pair(number, board, stage, present[0], present[1],
                                          f"{stage.value.replace('_', ' ')}: bracket "
                                          f"position {board}", "bracket"))
            elif present:
                out.append(Pairing(number, board, stage, present[0], None, PairingKind.BYE,
                                   Colours.PRESCRIBED,
                                   (Decision("bye", f"{t.name(present[0])} has no opponent "
                                                    "in the bracket: goes through"),)))
        if stage is Stage.FINAL and self.settings.third_place and number > 1:
            losers = [self.loser(t, p) for p in t.pairings[number - 1]]
            pair = [n for n in losers if n is not None and t.entrant(n).plays_in(number)]
            if len(pair) == 2:
                out.append(knockout_pair(number, len(out) + 1, Stage.THIRD_PLACE, pair[0],
                                          pair[1], "third-place game: the semifinal losers",
                                          "third_place"))
        return out

    @staticmethod
    def winner(t: TournamentView, p: Pairing) -> int | None:
        if p.kind is PairingKind.BYE:
            return p.a
        g = t.game(p.round, p.board)
        return g.winner if g.finished else None

    @staticmethod
    def loser(t: TournamentView, p: Pairing) -> int | None:
        if p.kind is PairingKind.BYE:
            return None
        return t.game(p.round, p.board).loser

    def final_order(self, t: TournamentView) -> list[int]:
        """Champion, runner-up, third-place game, then by the round each went out in
        (later first), then the seeding."""
        seeding = t.initial_order()
        out_in: dict[int, int] = {}
        for r in sorted(t.pairings):
            for p in t.pairings[r]:
                loser = self.loser(t, p)
                if loser is not None:
                    out_in[loser] = r
        last = self.total_rounds(t)
        final = winner_loser(t, last, Stage.FINAL)
        decided = [n for pair in final for n in pair]
        if final:
            decided += [n for pair in winner_loser(t, last, Stage.THIRD_PLACE) for n in pair]
        rest = [n for n in seeding if n not in decided]
        rest.sort(key=lambda n: (-out_in.get(n, 1_000), seeding.index(n)))
        return decided + rest
