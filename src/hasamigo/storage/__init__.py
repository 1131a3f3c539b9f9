"""Storage for games: SQLAlchemy 2 typed ORM, SQLite by default, PostgreSQL by URL.

A game is stored as exactly what it is: its setup and its append-only events (see
:mod:`hasamigo.storage.models`), with a summary row for the library; the seats' hashed
secrets and the server's runs sit beside them. The tournament tables (entrants, rounds,
pairings, results, audit log) are defined here too and used by
:mod:`hasamigo.tournament.store`, which sits above storage. Schema changes go through the
Alembic revisions in ``storage/alembic`` (:meth:`Database.open` upgrades).
"""

from __future__ import annotations

from hasamigo.storage.db import Database, default_db_url
from hasamigo.storage.models import Base
from hasamigo.storage.repository import (
    ConcurrentWrite,
    GameRepository,
    GameSummary,
    SeatSecret,
    StoredGame,
    summary_columns,
)
from hasamigo.storage.reviews import ReviewRepository, StoredReview
from hasamigo.storage.variations import StoredNode, TreeFull, VariationRepository

__all__ = [
    "Base",
    "ConcurrentWrite",
    "Database",
    "GameRepository",
    "GameSummary",
    "ReviewRepository",
    "SeatSecret",
    "StoredGame",
    "StoredNode",
    "StoredReview",
    "TreeFull",
    "VariationRepository",
    "default_db_url",
    "summary_columns",
]
