"""Matches and tournaments between players (people and programs).

* :mod:`~hasamigo.tournament.match` — two players, games in parallel, Elo.
* :mod:`~hasamigo.tournament.model` — entrants, pairings, results, games (the facts).
* :mod:`~hasamigo.tournament.state` — :class:`Tournament`, the fold of those facts:
  standings, Brightwell points, ranking, awards; checks every request.
* :mod:`~hasamigo.tournament.formats` — the formats (the 43rd Meijin open division and
  its other divisions, Swiss, round robin, knockout), subclasses of one base.
* :mod:`~hasamigo.tournament.pairing` — Swiss pairing as a maximum-weight matching.
* :mod:`~hasamigo.tournament.brightwell`, :mod:`~hasamigo.tournament.awards` — the
  tie-break and the dan tables.
* :mod:`~hasamigo.tournament.store` — :class:`TournamentRepository`, a tournament's
  facts and audit log in the database (tables from :mod:`hasamigo.storage.models`).
* :mod:`~hasamigo.tournament.service` — :class:`TournamentService`, the stored
  tournament for the command line and the web pages.
* :mod:`~hasamigo.tournament.programs` — tournaments that programs play by themselves;
  :mod:`~hasamigo.tournament.simulate` — a Meijin tournament with simulated results.
"""

from __future__ import annotations

from hasamigo.tournament.awards import Award
from hasamigo.tournament.brightwell import Brightwell, brightwell_points, nearest_c
from hasamigo.tournament.formats import FORMATS, Format
from hasamigo.tournament.match import (
    MatchGame,
    MatchSummary,
    elo_difference,
    elo_interval,
    play_game,
    run_match,
)
from hasamigo.tournament.model import (
    BoardResult,
    Colours,
    Decision,
    Entrant,
    Game,
    GameKind,
    Pairing,
    PairingKind,
    Settings,
    Stage,
    TournamentError,
)
from hasamigo.tournament.pairing import Candidate, pair_swiss
from hasamigo.tournament.state import Placing, Standing, Tournament

__all__ = [
    "FORMATS",
    "Award",
    "BoardResult",
    "Brightwell",
    "Candidate",
    "Colours",
    "Decision",
    "Entrant",
    "Format",
    "Game",
    "GameKind",
    "MatchGame",
    "MatchSummary",
    "Pairing",
    "PairingKind",
    "Placing",
    "Settings",
    "Stage",
    "Standing",
    "Tournament",
    "TournamentError",
    "brightwell_points",
    "elo_difference",
    "elo_interval",
    "nearest_c",
    "pair_swiss",
    "play_game",
    "run_match",
]
