"""The database a command works on: opened in one place for every command that takes
``--db`` (the games library, play, the study, tournaments)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hasamigo.cli import fail

if TYPE_CHECKING:
    from hasamigo.storage import Database


def open_database(db: str | None) -> tuple[Database, str]:
    """The database at the URL ``db`` (``None``: the default one), migrated to the newest
    schema, and its URL to show (without a password). One that cannot be used (a bad URL,
    a locked or foreign database, a missing driver) ends the command with exit status 2,
    naming the database and why."""
    from hasamigo.storage import Database

    shown = db or "the default database"
    try:
        database = Database(db)
        shown = database.engine.url.render_as_string(hide_password=True)
        database.open()
    except Exception as exc:  # a bad URL, a locked or foreign database, a missing driver
        raise fail(f"cannot use {shown}: {exc}") from None
    return database, shown
