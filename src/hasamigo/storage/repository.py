"""Reading and writing games: a setup, its events, the seats' secrets, the server's runs,
their announcements to other processes and their leases.

Each of these is a repository of its own over the same :class:`~hasamigo.storage.db.Database`
(its engine and sessions): :class:`~hasamigo.storage.games.GameRecords` (games, events,
the library), :class:`~hasamigo.storage.seats.SeatRepository` (seat tokens and join
codes), :class:`~hasamigo.storage.runs.RunRepository` (the server's runs),
:class:`~hasamigo.storage.announcements.ChangeAnnouncer` (``LISTEN``/``NOTIFY``) and
:class:`~hasamigo.storage.leases.LeaseRepository` (which process runs which game).
:class:`GameRepository` is all of them at once, for the many callers that store a game
and its seats together (the web app, the study, the tournaments, the CLI)."""

from __future__ import annotations

from hasamigo.storage.announcements import CHANGES, ChangeAnnouncer
from hasamigo.storage.db import Database
from hasamigo.storage.games import (
    MAX_LIMIT,
    MAX_OFFSET,
    ConcurrentWrite,
    GameRecords,
    GameSummary,
    GameVersion,
    LibraryResult,
    StoredGame,
    summary_columns,
)
from hasamigo.storage.leases import LeaseRepository
from hasamigo.storage.runs import RunRepository
from hasamigo.storage.seats import SECRET_KINDS, SeatRepository, SeatSecret


class GameRepository(GameRecords, SeatRepository, RunRepository, ChangeAnnouncer,
                     LeaseRepository):
    """Games in a :class:`~hasamigo.storage.db.Database` with their seats, the server's
    runs, announcements and leases: the five repositories over one database (see the
    module docstring). Each keeps only ``db``; this facade adds nothing of its own."""

    def __init__(self, db: Database) -> None:
        self.db = db


__all__ = ["CHANGES", "MAX_LIMIT", "MAX_OFFSET", "SECRET_KINDS", "ChangeAnnouncer",
           "ConcurrentWrite", "GameRecords", "GameRepository", "GameSummary", "GameVersion",
           "LeaseRepository", "LibraryResult", "RunRepository", "SeatRepository",
           "SeatSecret", "StoredGame", "summary_columns"]
