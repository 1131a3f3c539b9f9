"""Storage for games: SQLAlchemy 2 typed ORM, SQLite by default, PostgreSQL by URL.

Tables (see :mod:`hasamigo.storage.models`): ``games`` (one row per game, its summary
and the controller state as JSON) and ``moves`` (one row per ply, committed in the same
transaction as the state). Schema changes go through :mod:`hasamigo.storage.migrations`.
"""

from __future__ import annotations

from hasamigo.storage.db import Database, default_db_url
from hasamigo.storage.models import Base, GameRow, MoveRow
from hasamigo.storage.repository import GameRepository, GameSummary, MoveEntry, StoredGame

__all__ = [
    "Base",
    "Database",
    "GameRepository",
    "GameRow",
    "GameSummary",
    "MoveEntry",
    "MoveRow",
    "StoredGame",
    "default_db_url",
]
