"""The JOF's 43rd Meijin tournament (第43期オセロ名人戦全国大会, 2023): its open division
(:class:`MeijinOpen`) and the master, student and elementary divisions
(:class:`MeijinDivision`), as :mod:`hasamigo.tournament.formats` describes them.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hasamigo.tournament.awards import MASTER, OPEN, STUDENT, TABLES
from hasamigo.tournament.formats.base import knockout_pair, winner_loser
from hasamigo.tournament.formats.swiss import SwissFormat
from hasamigo.tournament.model import (
    Colours,
    Decision,
    Pairing,
    PairingKind,
    Settings,
    Stage,
    TournamentError,
)
from hasamigo.tournament.view import TournamentView


class MeijinOpen(SwissFormat):
    """The 43rd Meijin open division (see :mod:`hasamigo.tournament.formats`). Rounds 1-6 Swiss,
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
            knockout_pair(number, 1, Stage.SEMIFINAL, top[0], top[3],
                           f"semifinal: 1st {names[0]} v 4th {names[3]} after round "
                           f"{self.swiss_rounds} (rematches allowed; 43rd Meijin rules)",
                           "semifinal"),
            knockout_pair(number, 2, Stage.SEMIFINAL, top[1], top[2],
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
        semis = winner_loser(t, self.semifinal_round, Stage.SEMIFINAL)
        if len(semis) != 2:
            raise TournamentError("the final needs both semifinals decided")
        (w1, l1), (w2, l2) = semis
        out = [knockout_pair(number, 1, Stage.FINAL, w1, w2,
                              f"final: the semifinal winners {t.name(w1)} and {t.name(w2)} "
                              "(43rd Meijin rules)", "final"),
               knockout_pair(number, 2, Stage.THIRD_PLACE, l1, l2,
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
            for winner, loser in winner_loser(t, self.final_round, stage):
                decided += [winner, loser]
        head = decided + [n for n in head if n not in decided]
        return head + [n for n in order if n not in four]

    def women_champion(self, t: TournamentView, order: list[int]) -> int | None:
        """The women's final's winner; without one, the best-placed woman (the women's champion,
        女流名人, either way)."""
        women_final = winner_loser(t, self.final_round, Stage.WOMEN_FINAL)
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
        out = [knockout_pair(number, 1, Stage.FINAL, top[0], top[1],
                              f"final: 1st {t.name(top[0])} v 2nd {t.name(top[1])} after "
                              f"round {self.swiss_rounds}", "final")]
        if len(top) == 4:
            out.append(knockout_pair(number, 2, Stage.THIRD_PLACE, top[2], top[3],
                                      f"third-place game: 3rd {t.name(top[2])} v 4th "
                                      f"{t.name(top[3])}", "third_place"))
        return out

    def final_order(self, t: TournamentView) -> list[int]:
        order = t.order(min(t.rounds_paired, self.swiss_rounds))
        decided = []
        for stage in (Stage.FINAL, Stage.THIRD_PLACE):
            for winner, loser in winner_loser(t, self.swiss_rounds + 1, stage):
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


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
