"""Changes of games announced to the other server processes (:class:`ChangeAnnouncer`).

On PostgreSQL every change of a game is announced on the channel :data:`CHANGES`
(``NOTIFY``, delivered at commit: :func:`announce`, called inside the writer's
transaction), so other server processes on the same database see it at once; on SQLite
they poll the games' versions."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from hasamigo.storage.db import Database

log = logging.getLogger(__name__)

#: The PostgreSQL channel on which changes of games are announced (payload: the game's id).
CHANGES = "hasamigo_games"


def announce(session: Session, game_id: str) -> None:
    """Tell the other server processes that the game changed (PostgreSQL: ``NOTIFY``,
    sent when the transaction commits, not at all if it rolls back; SQLite has no such
    thing: they poll :meth:`~hasamigo.storage.games.GameRecords.versions`)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_notify(CHANGES, game_id)))


class ChangeAnnouncer:
    """Whether changes are announced, and the listener for them."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def announces(self) -> bool:
        """Whether changes are announced (PostgreSQL); else other processes poll."""
        return self.db.engine.dialect.name == "postgresql"

    def listen(self, heard: Callable[[str], None], stopping: threading.Event) -> None:
        """Call ``heard(game_id)`` for every change of a game announced on
        :data:`CHANGES`, until ``stopping`` is set (PostgreSQL; for a thread of its own).
        A lost connection is opened again; what was announced meanwhile is missed, which
        the callers' polling makes up for."""
        import psycopg

        url = self.db.engine.url.set(drivername="postgresql")
        dsn = url.render_as_string(hide_password=False)
        while not stopping.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANGES}")
                    while not stopping.is_set():
                        for note in connection.notifies(timeout=0.5):
                            heard(note.payload)
            except Exception:
                if stopping.is_set():
                    return
                log.exception("listening for other server processes failed; again in 1 s")
                stopping.wait(1.0)


__all__ = ["CHANGES", "ChangeAnnouncer", "announce"]
