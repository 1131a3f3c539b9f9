"""Where the ``play`` command keeps its game: the games database (the web app's, so the
game shows up in its library) and :class:`Saver`, which keeps it in step with the game
as it is played. The game's set-up (:mod:`hasamigo.cli.play`) opens the database and
creates the game here; the game loop (:mod:`hasamigo.cli.play_session`) saves after
every action.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from hasamigo.cli import err_console

if TYPE_CHECKING:
    from hasamigo.game.controller import GameController
    from hasamigo.storage import GameRepository


class Saver:
    """Keeps the database in step with the game: the game's row, events and join code at
    creation, then the new events after every action.

    A failed write leaves the events in memory and is retried by the next :meth:`save`
    (the repository appends from the count already stored), so a database that is busy
    for a moment loses nothing; only the last save decides the exit status."""

    def __init__(self, repo: GameRepository, game: GameController, out: Console) -> None:
        self.repo = repo
        self.game = game
        self.out = out
        self.stored = 0
        self.error: str | None = None

    def create(self, join_seats: tuple[int, ...]) -> str:
        """Store the new game with a join code for ``join_seats``; returns the code."""
        from hasamigo.storage import SeatSecret
        from hasamigo.storage.secrets import secret_hash  # as the web app looks it up

        code = secrets.token_urlsafe(18)
        self.repo.create(self.game, public=False, creator=None,
                         secrets=[SeatSecret("join", secret_hash(code), join_seats, None)])
        self.stored = len(self.game.events)
        return code

    def save(self) -> bool:
        """Store the events not stored yet; ``False`` (and a warning, once) if it fails."""
        if len(self.game.events) == self.stored:
            return True
        try:
            self.stored = self.repo.append(self.game, self.stored)
        except Exception as exc:  # SQLAlchemy's, the driver's, the disk's: retried later
            if self.error is None:
                err_console.print(f"[yellow]warning:[/] the game could not be saved yet "
                                  f"({escape(str(exc)[:200])}); trying again after the "
                                  "next move", highlight=False)
            self.error = str(exc)
            return False
        self.error = None
        return True


def open_repository(db: str | None) -> tuple[GameRepository, str]:
    """The games database (migrated to the newest schema) and its URL to show (without
    a password)."""
    from hasamigo.cli.database import open_database
    from hasamigo.storage import GameRepository

    database, shown = open_database(db)
    return GameRepository(database), shown


__all__ = ["Saver", "open_repository"]
