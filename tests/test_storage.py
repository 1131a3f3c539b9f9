"""Storage: migrations, database URLs, and the move rows kept in step with the state."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from hasamigo import BLACK
from hasamigo.game.controller import GameController, GameOptions, Participant
from hasamigo.storage import Base, Database, GameRepository, default_db_url
from hasamigo.storage.db import normalise_url
from hasamigo.storage.migrations import MIGRATIONS, current_version, migrate


def test_migrations_build_the_schema_of_the_models(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'm.db'}")
    db.open()
    assert current_version(db.engine) == MIGRATIONS[-1][0]
    assert migrate(db.engine) == []  # idempotent
    inspector = sa.inspect(db.engine)
    for table in Base.metadata.sorted_tables:
        migrated = {c["name"]: c for c in inspector.get_columns(table.name)}
        assert set(migrated) == {c.name for c in table.columns}, table.name
        for column in table.columns:
            assert migrated[column.name]["nullable"] == column.nullable, column


def test_database_urls(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("HASAMIGO_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_url() == f"sqlite:///{tmp_path}/hasamigo/hasamigo.db"
    monkeypatch.setenv("HASAMIGO_DB", "postgresql://u@localhost/h")
    assert default_db_url() == "postgresql+psycopg://u@localhost/h"
    assert normalise_url("games.db").startswith("sqlite:///")
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_saving_keeps_move_rows_in_step_with_undo(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 's.db'}")
    db.open()
    repo = GameRepository(db)
    game = GameController.new(Participant("A"), Participant("B"),
                              options=GameOptions(clock_seconds=None))
    stored = repo.create("g1", game)
    for square in ("f5", "d6", "c3"):
        game.play(None, square)
        stored = repo.save("g1", game, stored)
    game.undo()  # two people: the last move only
    game.play(None, "c5")
    stored = repo.save("g1", game, stored)
    loaded = repo.load("g1")
    assert loaded is not None
    assert [m.move for m in loaded.moves] == ["f5", "d6", "c5"]
    again = GameController.from_dict(loaded.state)
    assert again.board == game.board and again.seat(BLACK).name == "A"
    summary = repo.summaries()[0]
    assert summary.id == "g1" and summary.move_count == 3 and summary.phase == "playing"
    assert repo.active_ids() == ["g1"] and repo.count() == 1
    with pytest.raises(KeyError):
        repo.save("missing", game, [])
