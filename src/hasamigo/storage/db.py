"""Database set-up: URL choice, engine options per backend, sessions.

SQLite is the default, in a file under the user's data directory
(``$XDG_DATA_HOME/hasamigo/hasamigo.db``, usually ``~/.local/share/hasamigo/hasamigo.db``);
``HASAMIGO_DB`` or an explicit URL (``postgresql://…``, needs the ``postgres`` extra) wins.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from hasamigo.storage.migrations import migrate


def default_db_url() -> str:
    """``HASAMIGO_DB`` if set, else a SQLite file in the user's data directory."""
    env = os.environ.get("HASAMIGO_DB")
    if env:
        return normalise_url(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    path = Path(base) / "hasamigo" / "hasamigo.db"
    return f"sqlite:///{path}"


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` (psycopg 3 driver) and bare file paths (SQLite)."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser()}"
    return url


class Database:
    """An engine and a session factory; the schema is migrated on :meth:`open`."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url) if url else default_db_url()
        options: dict[str, Any] = {"future": True}
        if self.url.startswith("sqlite"):
            path = self.url.split("///", 1)[1] if "///" in self.url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            options["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            options["pool_pre_ping"] = True
            options["pool_size"] = 10
        self.engine: Engine = create_engine(self.url, **options)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    def open(self) -> None:
        migrate(self.engine)

    def session(self) -> Session:
        return self.sessions()

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL: readers do not block the writer; synchronous=NORMAL is durable at commit in WAL
    # except on power loss, FULL would fsync every commit. We keep FULL: a committed move
    # must survive anything.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
