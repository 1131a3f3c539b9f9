"""Ratings (issue 67): a subject's number in a pool, by a maintained library.

A rating knows subjects, not accounts: ``account:<id>`` or ``program:<spec>``
(:mod:`~hasamigo.ratings.model`). The maths is openskill's, configured to the 1500 scale
(:mod:`~hasamigo.ratings.system`); what a game says and which results the rules keep out
(:mod:`~hasamigo.ratings.outcome`); the store of current ratings and of every change
(:mod:`~hasamigo.ratings.store`); the programs' measured ratings
(:mod:`~hasamigo.ratings.calibration`).
"""

from __future__ import annotations

from hasamigo.ratings.model import (
    Pool,
    Rating,
    RatingChange,
    is_subject,
    subject_of_account,
    subject_of_program,
)
from hasamigo.ratings.outcome import Exclusion, Placings, of_result, ranked, two_player
from hasamigo.ratings.store import RatingStore

__all__ = ["Exclusion", "Placings", "Pool", "Rating", "RatingChange", "RatingStore",
           "is_subject", "of_result", "ranked", "subject_of_account", "subject_of_program",
           "two_player"]
