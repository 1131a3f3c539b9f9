"""Database set-up: URL choice, engine options per backend, sessions, schema migrations.

SQLite is the default, in a file under the user's data directory
(``$XDG_DATA_HOME/hasamigo/hasamigo.db``, usually ``~/.local/share/hasamigo/hasamigo.db``);
``HASAMIGO_DB`` or an explicit URL (``postgresql://…``, needs the ``postgres`` extra) wins.

The schema changes only through the Alembic revisions shipped in
``hasamigo/storage/alembic/versions``; :meth:`Database.open` upgrades to the newest. A
database made by the numbered migrations used before Alembic (a ``schema_version`` table
at version 1) is first stamped with revision ``0001``, the same schema.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from pydantic import Field
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session, sessionmaker

from hasamigo.errors import HasamigoError
from hasamigo.settings import EnvSettings

log = logging.getLogger(__name__)

#: Where the Alembic environment and revisions live (shipped as package data).
ALEMBIC_DIR = Path(__file__).with_name("alembic")
#: The revision that is the schema of the numbered migrations' version 1.
PRE_ALEMBIC_REVISION = "0001"
#: PostgreSQL advisory lock key held while migrating ("hasa").
_PG_LOCK = 0x68617361


class SchemaError(HasamigoError, RuntimeError):
    """A database whose schema can't be brought up to date (made by something else, or a
    migration that failed its own checks); nothing was changed."""

    code = "schema"


class DatabaseSettings(EnvSettings):
    """The database: ``db_url`` from ``HASAMIGO_DB`` (``None``: the default file)."""

    db_url: str | None = Field(default=None, validation_alias="HASAMIGO_DB")


def default_db_url() -> str:
    """``HASAMIGO_DB`` if set, else a SQLite file in the user's data directory."""
    env = DatabaseSettings().db_url
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
        options: dict[str, Any] = {}
        self.sqlite = self.url.startswith("sqlite")
        if self.sqlite:
            path = self.url.split("///", 1)[1] if "///" in self.url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            options["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            options["pool_pre_ping"] = True
            options["pool_size"] = 10
        self.engine: Engine = create_engine(self.url, **options)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    def open(self) -> list[str]:
        """Migrate the schema to the newest revision; returns the revisions applied."""
        return migrate(self.engine)

    def session(self) -> Session:
        return self.sessions()

    def close(self) -> None:
        self.engine.dispose()


# ---- SQLite -----------------------------------------------------------------------------
def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # The driver's own transaction handling skips BEGIN before DDL and SELECT (a failed
    # migration would leave half a schema, a read would not see one snapshot): switch it
    # off and let _sqlite_begin emit BEGIN (SQLAlchemy's documented recipe).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # WAL: readers do not block the writer. synchronous=FULL fsyncs every commit: a
    # committed event must survive a power loss too.
    _switch_to_wal(cursor)
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _switch_to_wal(cursor: Any, patience: float = 10.0) -> None:
    """``PRAGMA journal_mode=WAL``, retried while the file is locked.

    Turning a rollback-journal file into WAL needs an exclusive lock, and SQLite answers
    "database is locked" at once instead of calling the busy handler when another
    connection holds one (two servers opening a new database together, measured: 7% of
    runs with six openers). Once the file is in WAL mode the pragma is a no-op."""
    deadline = time.monotonic() + patience
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def _sqlite_begin(connection: Connection) -> None:
    # IMMEDIATE takes the write lock at once (waiting up to the busy timeout) for work
    # that reads before it writes, like a migration; a deferred transaction would fail
    # with "database is locked" if another writer committed after its first read.
    immediate = connection.get_execution_options().get("sqlite_immediate", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def write_lock(session: Session) -> None:
    """Take SQLite's write lock before the first read (``BEGIN IMMEDIATE``, waiting up to
    the busy timeout), for a transaction that reads, then writes: a deferred one fails
    with "database is locked" when another writer got there between. PostgreSQL ignores
    it. Call first in the transaction."""
    session.connection(execution_options={"sqlite_immediate": True})


def _sqlite_pragma(connection: Connection, pragma: str) -> None:
    """A PRAGMA outside any transaction (``foreign_keys`` is a no-op inside one)."""
    cursor = connection.connection.cursor()
    try:
        cursor.execute(f"PRAGMA {pragma}")
    finally:
        cursor.close()


# ---- migrations ---------------------------------------------------------------------------
def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, built in code (no ``alembic.ini``): the shipped scripts,
    and the connection the revisions run on (``env.py`` uses it as it is)."""
    config = Config()
    config.set_main_option("script_location", str(ALEMBIC_DIR))
    # new revisions are named rNNNN_slug.py: importable, so that mypy checks them
    config.set_main_option("file_template", "r%%(rev)s_%%(slug)s")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The database's Alembic revision (``None``: empty, or not yet under Alembic)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: Engine) -> list[str]:
    """Upgrade to the newest revision in one transaction; returns the revisions applied
    (none when the database is up to date). See the module docstring for old databases."""
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head()
    with engine.connect() as connection:
        if MigrationContext.configure(connection).get_current_revision() == head:
            return []
        connection.rollback()
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Alembic's batch mode rebuilds a table and drops the old one; with foreign
            # keys on, SQLite's DROP TABLE would delete the rows that refer to it (ON
            # DELETE CASCADE). They are checked once the new schema is complete.
            _sqlite_pragma(connection, "foreign_keys=OFF")
        try:
            connection = connection.execution_options(sqlite_immediate=True)
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    # two servers starting at once: the second waits, then finds the
                    # schema up to date (the revision is read again below, under the lock)
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK})")
                config = alembic_config(connection)
                current = _current_or_stamp(connection, config)
                applied = [r.revision for r in script.iterate_revisions(head, current)]
                command.upgrade(config, "head")
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise SchemaError(
                            f"migration left dangling references: {broken[:5]}")
        finally:
            if sqlite:
                _sqlite_pragma(connection, "foreign_keys=ON")
    applied.reverse()
    if applied:
        log.info("database %s upgraded: %s", engine.url.render_as_string(),
                 ", ".join(applied))
    return applied


def _current_or_stamp(connection: Connection, config: Config) -> str | None:
    """The current revision; a database of the pre-Alembic migrations is stamped first."""
    current = MigrationContext.configure(connection).get_current_revision()
    if current is not None:
        return current
    tables = set(sa.inspect(connection).get_table_names())
    if "schema_version" not in tables:
        return None
    version = connection.exec_driver_sql("SELECT MAX(version) FROM schema_version").scalar()
    if version != 1 or not {"games", "moves"} <= tables:
        raise SchemaError(f"unknown pre-Alembic schema (version {version!r}, tables "
                          f"{', '.join(sorted(tables))}): not migrating it")
    command.stamp(config, PRE_ALEMBIC_REVISION)
    return PRE_ALEMBIC_REVISION
