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

The base and one module per format: :mod:`.base`, :mod:`.swiss`, :mod:`.meijin`,
:mod:`.round_robin`, :mod:`.knockout`; this package names them (:data:`FORMATS`) and makes
them (:func:`make_format`).
"""

from __future__ import annotations

from hasamigo.tournament.formats.base import Format
from hasamigo.tournament.formats.knockout import Knockout, bracket_slots
from hasamigo.tournament.formats.meijin import (
    ElementaryDivision,
    MasterDivision,
    MeijinDivision,
    MeijinOpen,
    StudentDivision,
)
from hasamigo.tournament.formats.round_robin import RoundRobin, berger_round
from hasamigo.tournament.formats.swiss import SwissFormat
from hasamigo.tournament.model import Settings, TournamentError

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
