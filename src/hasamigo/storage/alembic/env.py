"""Alembic's environment: run the revisions on the connection the caller opened.

:func:`hasamigo.storage.db.migrate` passes a connection inside a transaction, so every
revision of an upgrade commits together (or not at all). There is no ``alembic.ini``:
the configuration is built in code.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection


def run() -> None:
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("hasamigo's migrations run through hasamigo.storage.db.migrate(), "
                           "which passes the connection to upgrade")
    # render_as_batch: SQLite alters tables by rebuilding them (see the revisions).
    context.configure(connection=connection, render_as_batch=True,
                      transaction_per_migration=False)
    with context.begin_transaction():
        context.run_migrations()


def _run_by_alembic() -> bool:
    """True when Alembic executes this file; False when it is merely imported (the
    doctest collector imports every module of the package)."""
    try:
        context.is_offline_mode()
    except NameError:
        return False
    return True


if _run_by_alembic():
    run()
