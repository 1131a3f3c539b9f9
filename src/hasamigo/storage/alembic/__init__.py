"""The Alembic environment and revisions of the storage schema (run by
:func:`hasamigo.storage.db.migrate`; a package only so that they ship and are checked)."""
