"""Dan awards and the 王座戦 (Ouza-sen) qualification line, per division, from the
43rd Meijin tournament's table (表彰および段級位認定).

The table, as data:

=================  ==================  ==================  ==============
place / wins        無差別 (open)        マスター, 学生         小学生 (elementary)
=================  ==================  ==================  ==============
優勝 winner          七段 7-dan           五段 5-dan           三段 3-dan
準優勝 2nd           六段 6-dan           四段 4-dan           二段 2-dan
3位 3rd              六段 6-dan           三段 3-dan           初段 1-dan
入賞 prize places    五段 5-dan
4位 4th / 5 wins                         二段 2-dan
5.5 wins             四段 4-dan
4.5 / 5.0 wins       三段 3-dan
4 wins                                   初段 1-dan
3.5 / 4.0 wins       二段 2-dan
3 wins                                   1級 1-kyu
王座戦 qualifies     5 wins or more       4 wins or more       8th place or better
=================  ==================  ==================  ==============

Readings (the table does not say more): a wins line is "at least" (6 wins outside the
prizes still earns 5.5's award); a player gets the best award any line gives them; the
open division's 入賞 (prize places) are places 4 to ``prize_places`` (8 unless the
tournament says otherwise); the elementary division's awards from 4th place on depend on
the number of entrants (4位以下は参加人数に応じて級位認定) and are left to the director.

>>> OPEN.award(1, 6.0), OPEN.award(9, 5.0), OPEN.award(12, 3.0)
('七段', '三段', None)
>>> OPEN.qualifies(20, 5.0), MASTER.qualifies(3, 3.5), ELEMENTARY.qualifies(8, 1.0)
(True, False, True)
"""

from __future__ import annotations

from dataclasses import dataclass

#: How a dan (or kyu) reads in English, for pages and exports.
ENGLISH = {"七段": "7 dan", "六段": "6 dan", "五段": "5 dan", "四段": "4 dan",
           "三段": "3 dan", "二段": "2 dan", "初段": "1 dan", "1級": "1 kyu"}
#: Awards from best to worst (to pick the best a player earns).
ORDER = ("七段", "六段", "五段", "四段", "三段", "二段", "初段", "1級")


@dataclass(frozen=True, slots=True)
class DanTable:
    """One division's column of the table."""

    division: str
    by_place: tuple[tuple[int, str], ...]  # (place, award)
    prize: str | None  # the award of places 4 .. prize_places (open division)
    by_wins: tuple[tuple[float, str], ...]  # (at least these wins, award)
    ouza_wins: float | None  # 王座戦: at least these wins ...
    ouza_place: int | None  # ... or at least this place
    prize_places: int = 8

    def award(self, place: int, wins: float) -> str | None:
        """The best award for ``place`` (1-based) and ``wins``; ``None``: no award."""
        earned = [award for p, award in self.by_place if p == place]
        if self.prize is not None and 4 <= place <= self.prize_places:
            earned.append(self.prize)
        earned += [award for least, award in self.by_wins if wins >= least]
        return min(earned, key=ORDER.index) if earned else None

    def qualifies(self, place: int, wins: float) -> bool:
        """On the 王座戦 qualification line?"""
        if self.ouza_wins is not None and wins >= self.ouza_wins:
            return True
        return self.ouza_place is not None and place <= self.ouza_place


OPEN = DanTable("open", ((1, "七段"), (2, "六段"), (3, "六段")), "五段",
                ((5.5, "四段"), (4.5, "三段"), (3.5, "二段")), 5.0, None)
MASTER = DanTable("master", ((1, "五段"), (2, "四段"), (3, "三段"), (4, "二段")), None,
                  ((5.0, "二段"), (4.0, "初段"), (3.0, "1級")), 4.0, None)
STUDENT = DanTable("student", MASTER.by_place, None, MASTER.by_wins, 4.0, None)
ELEMENTARY = DanTable("elementary", ((1, "三段"), (2, "二段"), (3, "初段")), None, (),
                      None, 8)

TABLES = {table.division: table for table in (OPEN, MASTER, STUDENT, ELEMENTARY)}


@dataclass(frozen=True, slots=True)
class Award:
    """What a place earns: the dan (or kyu), and whether it qualifies for the 王座戦."""

    dan: str | None
    ouza: bool

    @property
    def dan_english(self) -> str | None:
        return None if self.dan is None else ENGLISH.get(self.dan, self.dan)


__all__ = ["ELEMENTARY", "ENGLISH", "MASTER", "OPEN", "STUDENT", "TABLES", "Award",
           "DanTable"]
