"""Tournament formats: subclasses of one base, :class:`Format`, each saying what its
rounds are, how the next one is paired, and how the final ranking reads.

* :class:`SwissFormat` — plain Swiss with N rounds (round 1 drawn, then
  :func:`~hasamigo.tournament.pairing.pair_swiss`).
* :class:`MeijinOpen` — the open division (無差別の部) of the JOF's 43rd Meijin tournament
  (第43期オセロ名人戦全国大会, 2023), as its format section (大会方式) gives it:
  6 Swiss rounds with Brightwell points, round 1 redrawn while the seeds meet,
  the round-6 bye for a player 1.5 wins or more above the provisional 5th and
  the round-6 game not played, a draw, between two players each exactly 1.0 above it;
  semifinals 1 v 4 and 2 v 3, rematches allowed, the final and the
  third-place game, a placement round 7 for 5th and below, the women's
  final between the top two women after round 7 unless a woman reached the semifinals.
  Knockout games and the women's final: no draws, colours by fuse-ishi (rule 2).
* :class:`MeijinDivision` — the master, student and elementary divisions: 5 rounds (the
  tournament's timetable) then the final (1 v 2) and the third-place game (3 v 4) in the
  one "決勝等" slot the timetable gives them (our reading: the rules name no more).
* :class:`RoundRobin` — everyone meets everyone by the Berger tables (``rounds`` cycles,
  colours reversed in every second one).
* :class:`Knockout` — single elimination, seeded so the first two can meet only in the
  final, byes to the top seeds, a third-place game unless switched off.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from dataclasses import replace
from typing import ClassVar

from hasamigo.tournament.awards import MASTER, OPEN, STUDENT, TABLES, Award, DanTable
from hasamigo.tournament.model import (
    Colours,
    Decision,
    Pairing,
    PairingKind,
    Settings,
    Stage,
    TournamentError,
    initial_order,
)
from hasamigo.tournament.pairing import SwissRound, draw_round, pair_swiss
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


def _knockout_pair(number: int, board: int, stage: Stage, a: int, b: int,
                   why: str, rule: str) -> Pairing:
    return Pairing(number, board, stage, a, b, PairingKind.GAME, Colours.FUSE_ISHI,
                   (Decision(rule, why), Decision("colour", "colours by fuse-ishi at the "
                                                            "board; no draws: the draw-win "
                                                            "right decides a 32–32 game")))


def _winner_loser(t: TournamentView, round_number: int, stage: Stage) -> list[tuple[int, int]]:
    """(winner, loser) of each finished game of ``stage`` in ``round_number``."""
    out = []
    for p in t.pairings.get(round_number, []):
        if p.stage is stage and p.kind is PairingKind.GAME:
            g = t.game(round_number, p.board)
            if g.finished and g.winner is not None and g.loser is not None:
                out.append((g.winner, g.loser))
    return out


class MeijinOpen(SwissFormat):
    """The 43rd Meijin open division (see the module docstring). Rounds 1-6 Swiss,
    7 semifinals + placement, 8 final, third-place game and women's final."""

    key = "meijin"
    title = "名人戦 無差別 (Meijin open)"
    default_rounds = 6
    #: ≥ this many wins above the provisional 5th: a bye in the last Swiss round
    BYE_MARGIN = 1.5
    #: exactly this many above it, paired together: not played, a draw
    DRAW_MARGIN = 1.0

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.dan_table = replace(OPEN, prize_places=settings.prize_places)

    def total_rounds(self, t: TournamentView) -> int:
        return self.swiss_rounds + 2

    def brightwell_games(self, t: TournamentView) -> int:
        # Everyone plays rounds 1-7 for the standings: the Swiss rounds and, below the
        # semifinalists, the placement round (the semifinalists' places come from the
        # knockout games). 7 games: C = 9.
        return self.swiss_rounds + 1

    @property
    def semifinal_round(self) -> int:
        return self.swiss_rounds + 1

    @property
    def final_round(self) -> int:
        return self.swiss_rounds + 2

    def plan_round(self, t: TournamentView, number: int, rng: random.Random) -> list[Pairing]:
        active = t.active(number)
        if number < self.swiss_rounds:
            return self.swiss_round(t, number, active, Stage.SWISS, rng)
        if number == self.swiss_rounds:
            return self.last_swiss_round(t, number, active, rng)
        if number == self.semifinal_round:
            return self.semifinals(t, number, active, rng)
        return self.finals(t, number)

    def provisional_fifth(self, t: TournamentView, after: int, active: list[int]
                          ) -> float | None:
        """The wins of the provisional 5th place (of the players still playing)."""
        playing = set(active)
        ranked = [n for n in t.order(after) if n in playing]
        if len(ranked) < 5:
            return None
        return t.scores(after)[0].get(ranked[4], 0.0)

    def last_swiss_round(self, t: TournamentView, number: int, active: list[int],
                         rng: random.Random) -> list[Pairing]:
        """Round 6: the bye for the clear leaders, the Swiss pairing of the others, and
        the games between two players exactly 1.0 above the 5th marked not played."""
        fifth = self.provisional_fifth(t, number - 1, active)
        if fifth is None or number == 1:
            return self.swiss_round(t, number, active, Stage.SWISS, rng)
        won = t.scores(number - 1)[0]
        leaders = [n for n in t.order(number - 1)
                   if n in active and won.get(n, 0.0) >= fifth + self.BYE_MARGIN]
        rest = [n for n in active if n not in leaders]
        out: list[Pairing] = []
        if len(rest) >= 1:
            out = self.swiss_round(t, number, rest, Stage.SWISS, rng)
        marked = []
        for p in out:
            if (p.kind is PairingKind.GAME and p.b is not None
                    and won.get(p.a, 0.0) == won.get(p.b, 0.0) == fifth + self.DRAW_MARGIN):
                why = Decision("not_played_draw",
                               f"{t.name(p.a)} and {t.name(p.b)} both have "
                               f"{_num(fifth + self.DRAW_MARGIN)} wins, exactly 1.0 above "
                               f"the provisional 5th ({_num(fifth)}): the game is not "
                               "played and counts as a draw (43rd Meijin rules)")
                p = replace(p, kind=PairingKind.NOT_PLAYED_DRAW, why=(*p.why, why))
            marked.append(p)
        board = len(marked) + 1
        for n in leaders:
            why = Decision("round6_bye",
                           f"{t.name(n)} has {_num(won.get(n, 0.0))} wins, "
                           f"{_num(won.get(n, 0.0) - fifth)} above the provisional 5th "
                           f"({_num(fifth)} wins): at least 1.5 more, a bye (a win) in round "
                           f"{number} (43rd Meijin rules)")
            marked.append(Pairing(number, board, Stage.SWISS, n, None, PairingKind.BYE,
                                  Colours.PRESCRIBED, (why,)))
            board += 1
        return marked

    def semifinalists(self, t: TournamentView) -> list[int]:
        """The top four after the Swiss rounds (of those still playing)."""
        playing = set(t.active(self.semifinal_round))
        return [n for n in t.order(self.swiss_rounds) if n in playing][:4]

    def semifinals(self, t: TournamentView, number: int, active: list[int],
                   rng: random.Random) -> list[Pairing]:
        top = self.semifinalists(t)
        if len(top) < 4:
            raise TournamentError("the semifinals need four players still playing")
        names = [t.name(n) for n in top]
        out = [
            _knockout_pair(number, 1, Stage.SEMIFINAL, top[0], top[3],
                           f"semifinal: 1st {names[0]} v 4th {names[3]} after round "
                           f"{self.swiss_rounds} (rematches allowed; 43rd Meijin rules)",
                           "semifinal"),
            _knockout_pair(number, 2, Stage.SEMIFINAL, top[1], top[2],
                           f"semifinal: 2nd {names[1]} v 3rd {names[2]} after round "
                           f"{self.swiss_rounds} (rematches allowed; 43rd Meijin rules)",
                           "semifinal"),
        ]
        rest = [n for n in active if n not in top]
        if rest:
            placement = self.swiss_round(t, number, rest, Stage.PLACEMENT, rng, first_board=3)
            note = Decision("placement", "placement round for 5th and below (43rd Meijin rules): "
                                         "Swiss pairing, colours prescribed, draws allowed")
            placement[0] = replace(placement[0], why=(*placement[0].why, note))
            out += placement
        return out

    def women_finalists(self, t: TournamentView) -> tuple[list[int], Decision]:
        """The two women of the women's final, or none (and why)."""
        top = self.semifinalists(t) if self.semifinal_round in t.pairings else []
        if any(t.entrant(n).woman for n in top):
            woman = next(t.name(n) for n in top if t.entrant(n).woman)
            return [], Decision("women_final", f"{woman} reached the semifinals: no women's "
                                               "final; the best-placed woman is 女流名人 "
                                               "(43rd Meijin rules)")
        playing = set(t.active(self.final_round))
        women = [n for n in t.order(self.semifinal_round)
                 if t.entrant(n).woman and n in playing and n not in top][:2]
        if len(women) < 2:
            return [], Decision("women_final", "fewer than two women: no women's final")
        return women, Decision("women_final",
                               f"women's final: {t.name(women[0])} v {t.name(women[1])}, the "
                               f"top two women after round {self.semifinal_round} "
                               "(43rd Meijin rules)")

    def finals(self, t: TournamentView, number: int) -> list[Pairing]:
        semis = _winner_loser(t, self.semifinal_round, Stage.SEMIFINAL)
        if len(semis) != 2:
            raise TournamentError("the final needs both semifinals decided")
        (w1, l1), (w2, l2) = semis
        out = [_knockout_pair(number, 1, Stage.FINAL, w1, w2,
                              f"final: the semifinal winners {t.name(w1)} and {t.name(w2)} "
                              "(43rd Meijin rules)", "final"),
               _knockout_pair(number, 2, Stage.THIRD_PLACE, l1, l2,
                              f"third-place game: the semifinal losers {t.name(l1)} and "
                              f"{t.name(l2)} (43rd Meijin rules)", "third_place")]
        women, why = self.women_finalists(t)
        if women:
            out.append(Pairing(number, 3, Stage.WOMEN_FINAL, women[0], women[1],
                               PairingKind.GAME, Colours.FUSE_ISHI,
                               (why, Decision("colour", "colours by fuse-ishi; no draws"))))
        return out

    def final_order(self, t: TournamentView) -> list[int]:
        """Final and third-place game first (their winners 1st and 3rd, losers 2nd and
        4th), then wins, Brightwell points and the previous rank after the last counting
        round."""
        last = min(t.rounds_paired, self.semifinal_round)
        order = t.order(last)
        if self.semifinal_round not in t.pairings:
            return order
        top = [p.players for p in t.pairings[self.semifinal_round]
               if p.stage is Stage.SEMIFINAL]
        four = [n for pair in top for n in pair]
        head = sorted(four, key=order.index)
        decided = []
        for stage in (Stage.FINAL, Stage.THIRD_PLACE):
            for winner, loser in _winner_loser(t, self.final_round, stage):
                decided += [winner, loser]
        head = decided + [n for n in head if n not in decided]
        return head + [n for n in order if n not in four]

    def women_champion(self, t: TournamentView, order: list[int]) -> int | None:
        """The women's final's winner; without one, the best-placed woman (the women's champion,
        女流名人, either way)."""
        women_final = _winner_loser(t, self.final_round, Stage.WOMEN_FINAL)
        if women_final:
            return women_final[0][0]
        if self.final_round in t.pairings and any(
                p.stage is Stage.WOMEN_FINAL for p in t.pairings[self.final_round]):
            return None  # to be played
        return next((n for n in order if t.entrant(n).woman), None)

    def award_wins(self, t: TournamentView, number: int) -> float:
        """Wins in rounds 1-7 (everyone plays seven: the semifinalists' seventh is the
        semifinal), for the wins lines and the 王座戦 line."""
        total = 0.0
        for g in t.games(through=self.semifinal_round):
            if number in g.players and g.stage in (Stage.SWISS, Stage.PLACEMENT,
                                                   Stage.SEMIFINAL):
                total += g.points_of(number)
        return total


class MeijinDivision(SwissFormat):
    """The master, student and elementary divisions: 5 Swiss rounds, then the final and
    the third-place game; dan by the division's table."""

    key = "division"
    title = "名人戦 division"
    default_rounds = 5
    division = "master"

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.dan_table = TABLES[self.division]

    def total_rounds(self, t: TournamentView) -> int:
        return self.swiss_rounds + 1

    def plan_round(self, t: TournamentView, number: int, rng: random.Random) -> list[Pairing]:
        active = t.active(number)
        if number <= self.swiss_rounds:
            return self.swiss_round(t, number, active, Stage.SWISS, rng)
        playing = set(active)
        top = [n for n in t.order(self.swiss_rounds) if n in playing][:4]
        if len(top) < 2:
            raise TournamentError("the final needs two players still playing")
        out = [_knockout_pair(number, 1, Stage.FINAL, top[0], top[1],
                              f"final: 1st {t.name(top[0])} v 2nd {t.name(top[1])} after "
                              f"round {self.swiss_rounds}", "final")]
        if len(top) == 4:
            out.append(_knockout_pair(number, 2, Stage.THIRD_PLACE, top[2], top[3],
                                      f"third-place game: 3rd {t.name(top[2])} v 4th "
                                      f"{t.name(top[3])}", "third_place"))
        return out

    def final_order(self, t: TournamentView) -> list[int]:
        order = t.order(min(t.rounds_paired, self.swiss_rounds))
        decided = []
        for stage in (Stage.FINAL, Stage.THIRD_PLACE):
            for winner, loser in _winner_loser(t, self.swiss_rounds + 1, stage):
                decided += [winner, loser]
        return decided + [n for n in order if n not in decided]


class MasterDivision(MeijinDivision):
    key = "master"
    title = "名人戦 マスターの部 (master, 40 and over)"
    division = "master"
    dan_table = MASTER


class StudentDivision(MeijinDivision):
    key = "student"
    title = "名人戦 学生の部 (student)"
    division = "student"
    dan_table = STUDENT


class ElementaryDivision(MeijinDivision):
    key = "elementary"
    title = "名人戦 小学生の部 (elementary school)"
    division = "elementary"


# ---- round robin ------------------------------------------------------------------------------
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
        order = initial_order(list(t.entrants.values()))
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


# ---- knockout ---------------------------------------------------------------------------------
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
            order = initial_order(list(t.entrants.values()))
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
                out.append(_knockout_pair(number, board, stage, present[0], present[1],
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
                out.append(_knockout_pair(number, len(out) + 1, Stage.THIRD_PLACE, pair[0],
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
        seeding = initial_order(list(t.entrants.values()))
        out_in: dict[int, int] = {}
        for r in sorted(t.pairings):
            for p in t.pairings[r]:
                loser = self.loser(t, p)
                if loser is not None:
                    out_in[loser] = r
        last = self.total_rounds(t)
        final = _winner_loser(t, last, Stage.FINAL)
        decided = [n for pair in final for n in pair]
        if final:
            decided += [n for pair in _winner_loser(t, last, Stage.THIRD_PLACE) for n in pair]
        rest = [n for n in seeding if n not in decided]
        rest.sort(key=lambda n: (-out_in.get(n, 1_000), seeding.index(n)))
        return decided + rest


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


FORMATS: dict[str, type[Format]] = {
    cls.key: cls for cls in (MeijinOpen, MasterDivision, StudentDivision, ElementaryDivision,
                             SwissFormat, RoundRobin, Knockout)
}


def make_format(settings: Settings) -> Format:
    """The format object of ``settings``; an unknown format key raises
    :class:`~hasamigo.tournament.model.TournamentError`."""
    try:
        cls = FORMATS[settings.format]
    except KeyError:
        raise TournamentError(f"unknown format {settings.format!r}; known: "
                              f"{', '.join(FORMATS)}") from None
    return cls(settings)


__all__ = [
    "FORMATS",
    "ElementaryDivision",
    "Format",
    "Knockout",
    "MasterDivision",
    "MeijinDivision",
    "MeijinOpen",
    "RoundRobin",
    "StudentDivision",
    "SwissFormat",
    "berger_round",
    "bracket_slots",
    "make_format",
]
