"""The schema's revisions, oldest first: ``0001`` games and moves, ``0002`` events.

A new one: ``alembic.command.revision(hasamigo.storage.db.alembic_config(), "what",
rev_id="0003")`` writes ``r0003_what.py`` here. Spell the tables out (never import the
models); once released, a revision is frozen.
"""
