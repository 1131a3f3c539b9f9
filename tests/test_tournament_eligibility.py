"""Divisions' eligibility (the 43rd Meijin sheet's 「マスター (40歳以上) の部」, 「学生の部」,
「小学生の部」): the conditions read from an entrant's birth date or year, student status
and school year on the tournament's date; an entry refused saying which condition, or let
in by the director with a reason the audit log keeps."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from hasamigo.storage import Database
from hasamigo.tournament import Entrant, Settings, TournamentError
from hasamigo.tournament.eligibility import age_on, refusals
from hasamigo.tournament.service import TournamentService

DAY = date(2023, 3, 18)  # the master, student and elementary divisions' day


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TournamentService]:
    db = Database(f"sqlite:///{tmp_path}/t.db")
    yield TournamentService.open(db)
    db.close()


def test_age_is_counted_on_the_day_birthdays_included() -> None:
    assert age_on(date(1983, 3, 18), DAY) == 40
    assert age_on(date(1983, 3, 19), DAY) == 39
    assert age_on(date(1984, 2, 29), date(2024, 2, 28)) == 39
    assert age_on(date(1984, 2, 29), date(2024, 2, 29)) == 40


@pytest.mark.parametrize(("facts", "eligible"), [
    ({"born": "1983-03-18"}, True),  # 40 on the day
    ({"born": "1983-03-19"}, False),  # 40 the day after
    ({"birth_year": 1982}, True),  # 40 or 41 whatever the birthday
    ({"birth_year": 1983}, False),  # 39 or 40: the birth date decides
    ({"birth_year": 2015}, False),
    ({}, False),  # nothing to count the age from
])
def test_the_master_division_is_40_and_over_on_the_tournaments_date(
        facts: dict[str, object], eligible: bool) -> None:
    entrant = Entrant(1, "P", **facts)  # type: ignore[arg-type]
    found = refusals("master", entrant, on=DAY)
    assert (found == []) is eligible
    if not eligible:
        assert "40 or older on 2023-03-18" in found[0]


def test_the_student_and_elementary_divisions() -> None:
    pupil = Entrant(1, "Pupil", student=True, school_year=4)
    highschool = Entrant(2, "High", student=True, school_year=11)
    university = Entrant(3, "Uni", student=True)
    worker = Entrant(4, "Worker", student=False)
    assert refusals("student", pupil, on=DAY) == refusals("student", university, on=DAY) == []
    assert refusals("student", Entrant(5, "Year", school_year=8), on=DAY) == []
    assert "not a student" in refusals("student", worker, on=DAY)[0]
    assert refusals("elementary", pupil, on=DAY) == []
    assert "school year 11" in refusals("elementary", highschool, on=DAY)[0]
    assert "no school year" in refusals("elementary", university, on=DAY)[0]
    for division in ("open", None):
        assert refusals(division, worker, on=DAY) == []
    assert refusals("master", Entrant(6, "Bot", program="random"), on=DAY) == []


def test_an_entrants_facts_are_checked() -> None:
    with pytest.raises(TournamentError, match="a date like 2023-03-18"):
        Entrant(1, "P", born="18/03/1983")
    with pytest.raises(TournamentError, match="not born in 1984"):
        Entrant(1, "P", born="1983-03-18", birth_year=1984)
    with pytest.raises(TournamentError, match="school year is 1 to 12"):
        Entrant(1, "P", school_year=13)
    with pytest.raises(TournamentError, match="tournament's date"):
        Settings("master", date="March")


def test_a_child_entered_in_the_master_division_is_refused_or_let_in_with_a_reason(
        service: TournamentService) -> None:
    info = service.create("Meijin master", Settings("master", date="2023-03-18"))
    with pytest.raises(TournamentError, match=r"Kid cannot enter: .*40 or older on "
                       r"2023-03-18.*born in 2015, at most 8.*override"):
        service.register(info.id, "Kid", birth_year=2015)
    assert service.entrants(info.id) == []
    old = service.register(info.id, "Elder", born="1960-05-01")
    assert (old.birth_year, old.born) == (1960, "1960-05-01")
    kid = service.register(info.id, "Kid", birth_year=2015, override="the sponsor's guest")
    assert [e.name for e in service.entrants(info.id)] == ["Elder", "Kid"]
    entry = service.audit(info.id)[-1]
    assert entry.action == "register" and entry.after["name"] == kid.name
    assert entry.reason is not None and entry.reason.startswith("eligibility overridden (")
    assert entry.reason.endswith("): the sponsor's guest") and "2015" in entry.reason
    assert service.audit(info.id)[-2].reason is None  # an eligible entry needs none


def test_the_divisions_facts_are_stored(service: TournamentService) -> None:
    info = service.create("Meijin elementary", Settings("elementary", date="2023-03-18"))
    with pytest.raises(TournamentError, match="elementary-school pupils"):
        service.register(info.id, "Big", student=True, school_year=9)
    service.register(info.id, "Small", student=True, school_year=3, born="2014-06-01")
    [small] = service.entrants(info.id)
    assert (small.student, small.school_year, small.born, small.birth_year) == \
        (True, 3, "2014-06-01", 2014)
    student = service.create("Meijin student", Settings("student"))
    with pytest.raises(TournamentError, match="not a student"):
        service.register(student.id, "Worker", student=False)
    open_ = service.create("Open", Settings("meijin"))
    service.register(open_.id, "Anyone", birth_year=2015)  # the open division: no condition
