"""Round robin (:class:`RoundRobin`): everyone meets everyone by the Berger tables
(:func:`berger_round`), ``rounds`` cycles, colours reversed in every second one.
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
from hasamigo.tournament.view import TournamentView


def berger_round(players: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` (from 1) of the Berger tables for an even number of
    ``players`` numbered 1..n: (first, second) pairs, board order; the first plays Black.

    >>> berger_round(6, 1), berger_round(6, 2)
    ([(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)])
    >>> berger_round(4, 3)
    [(2, 4), (3, 1)]
    """
    n = players
    if n < 2 or n % 2:
        raise ValueError("the Berger tables are for an even number of players")
    if not 1 <= round_number <= n - 1:
        raise ValueError(f"{n} players play rounds 1 to {n - 1}")
    m = n - 1
    k = (round_number + 1) // 2 if round_number % 2 else round_number // 2 + n // 2

    def wrap(x: int) -> int:
        return (x - 1) % m + 1

    k = wrap(k)
    first = [(k, n) if round_number % 2 else (n, k)]
    return first + [(wrap(k + j), wrap(k - j)) for j in range(1, n // 2)]


class RoundRobin(Format):
    """Everyone meets everyone (Berger tables); ``rounds`` is the number of cycles."""

    key = "round-robin"
    title = "Round robin"

    def _size(self, t: TournamentView) -> int:
        n = len(t.entrants)
        return n + n % 2

    @property
    def cycles(self) -> int:
        return self.settings.rounds or 1

    def total_rounds(self, t: TournamentView) -> int:
        return max(1, (self._size(t) - 1) * self.cycles)

    def brightwell_games(self, t: TournamentView) -> int:
        return self.total_rounds(t)

    def plan_round(self, t: TournamentView, number: int, rng: random.Random) -> list[Pairing]:
        order = t.initial_order()
        size = self._size(t)
        per_cycle = size - 1
        cycle, inner = divmod(number - 1, per_cycle)
        table = berger_round(size, inner + 1)
        out = []
        board = 1
        byes = []
        for first, second in table:
            a = order[first - 1] if first <= len(order) else None
            b = order[second - 1] if second <= len(order) else None
            if cycle % 2:
                a, b = b, a
            why = Decision("berger", f"Berger table, {size} players, round {inner + 1}"
                                     + (f" of cycle {cycle + 1} (colours reversed)"
                                        if cycle % 2 else ""))
            missing = [n for n in (a, b) if n is None or not t.entrant(n).plays_in(number)]
            present = [n for n in (a, b) if n is not None and n not in missing]
            if len(present) == 2:
                assert a is not None and b is not None
                out.append(Pairing(number, board, Stage.ROUND_ROBIN, a, b, PairingKind.GAME,
                                   Colours.PRESCRIBED, (why,)))
                board += 1
            elif present:
                byes.append((present[0], why))
        for n, why in byes:
            note = Decision("bye", f"{t.name(n)}'s opponent of the table is missing "
                                   "(an odd field, or withdrawn): a bye")
            out.append(Pairing(number, board, Stage.ROUND_ROBIN, n, None, PairingKind.BYE,
                               Colours.PRESCRIBED, (why, note)))
            board += 1
        return out
