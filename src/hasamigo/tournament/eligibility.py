"""Who may enter a division: the 43rd Meijin tournament's divisions and their conditions.

The tournament's sheet names four divisions: 「マスター (40歳以上) の部」, 「学生の部」,
「小学生の部」 and 「無差別の部」 (the open division, no condition). Read as conditions:

* **master** — 40 or older on the tournament's date (:attr:`Settings.date
  <hasamigo.tournament.model.Settings.date>`; unset, the day the player is entered), the
  age counted from the birth date; a birth year alone decides only when every birthday in
  that year gives the same answer;
* **student** — a student (``student``; a school year of 1–12 says so too). The sheet
  gives no age or school range; our reading takes every student, elementary pupils too;
* **elementary** — an elementary-school pupil: school year 1 to 6 (小学1–6年).

A division is a format's ``division`` (:class:`~hasamigo.tournament.formats.meijin.MeijinDivision`);
other formats have none. A program is not checked (it has no age nor school).
:func:`refusals` says, in words, every condition an entrant does
not meet (nothing: eligible); the service refuses the entry unless the director overrides
it with a reason, which the audit log keeps.

>>> from hasamigo.tournament.model import Entrant
>>> [why] = refusals("master", Entrant(1, "Kid", born="2015-04-02"), on=date(2023, 3, 18))
>>> why.endswith("40 or older on 2023-03-18 (マスター 40歳以上): born 2015-04-02, 7")
True
>>> refusals("master", Entrant(2, "Old", birth_year=1960), on=date(2023, 3, 18))
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from hasamigo.tournament.model import Entrant, parse_date

#: the master division's age (「マスター (40歳以上) の部」)
MASTER_AGE = 40
#: the school years of elementary school (小学1–6年)
ELEMENTARY_YEARS = range(1, 7)


@dataclass(frozen=True, slots=True)
class Division:
    """A division's name as the sheet gives it and the condition in words."""

    key: str
    name: str
    condition: str


DIVISIONS: dict[str, Division] = {d.key: d for d in (
    Division("open", "無差別の部", "none"),
    Division("master", "マスターの部", f"{MASTER_AGE} or older on the tournament's date "
             f"({MASTER_AGE}歳以上)"),
    Division("student", "学生の部", "a student (学生)"),
    Division("elementary", "小学生の部", "an elementary-school pupil (小学生, school year 1–6)"),
)}


def age_on(born: date, day: date) -> int:
    """Completed years on ``day`` of someone born on ``born``.

    >>> age_on(date(1983, 3, 19), date(2023, 3, 18)), age_on(date(1983, 3, 18), date(2023, 3, 18))
    (39, 40)
    """
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def _master(e: Entrant, day: date) -> str | None:
    why = (f"the master division is for players {MASTER_AGE} or older on {day.isoformat()} "
           f"(マスター {MASTER_AGE}歳以上)")
    if e.born is not None:
        age = age_on(parse_date(e.born, "a birth date"), day)
        return None if age >= MASTER_AGE else f"{why}: born {e.born}, {age}"
    if e.birth_year is None:
        return f"{why}: give the birth date"
    youngest, oldest = day.year - e.birth_year - 1, day.year - e.birth_year
    if youngest >= MASTER_AGE:
        return None
    if oldest < MASTER_AGE:
        return f"{why}: born in {e.birth_year}, at most {oldest}"
    return f"{why}: born in {e.birth_year}, {youngest} or {oldest}: give the birth date"


def _student(e: Entrant) -> str | None:
    if e.student or (e.student is None and e.school_year is not None):
        return None
    return "the student division is for students (学生の部): not a student"


def _elementary(e: Entrant) -> str | None:
    if e.school_year in ELEMENTARY_YEARS and e.student is not False:
        return None
    year = "no school year given" if e.school_year is None else f"school year {e.school_year}"
    return (f"the elementary division is for elementary-school pupils (小学生の部, school "
            f"year 1–6): {year}")


def refusals(division: str | None, entrant: Entrant, *, on: date) -> list[str]:
    """Every condition of ``division`` that ``entrant`` does not meet on the day ``on``,
    in words (empty: eligible; no division or the open one: always)."""
    if entrant.program is not None or division in (None, "open"):
        return []
    if division not in DIVISIONS:
        return []
    found = {"master": lambda: _master(entrant, on), "student": lambda: _student(entrant),
             "elementary": lambda: _elementary(entrant)}[division]()
    return [] if found is None else [found]


__all__ = ["DIVISIONS", "ELEMENTARY_YEARS", "MASTER_AGE", "Division", "age_on", "refusals"]
