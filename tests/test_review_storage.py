"""Stored reviews (table ``reviews``, revision 0005): created once per game, grown a row
at a time with each row committed, resumable, gone with their game. SQLite, and
PostgreSQL when ``HASAMIGO_TEST_POSTGRES`` holds a URL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from test_storage_migration import game_rows, revisions_from

from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.storage import ConcurrentWrite, Database, GameRepository, ReviewRepository
from hasamigo.storage.db import alembic_config, normalise_url


def stored_game(db: Database, game_id: str = "g1") -> str:
    game = GameController.new(GameSetup((Participant("Ann"), Participant("Ben")),
                                        GameOptions(clock_seconds=None)), game_id=game_id)
    game.play(None, "f5")
    GameRepository(db).create(game)
    return game_id


def row(ply: int) -> dict[str, Any]:
    return {"ply": ply, "colour": "black" if ply % 2 == 0 else "white", "move": "f5",
            "best_move": "d3", "best_score": 4, "played_score": 4 - ply, "loss": ply,
            "label": "good", "exact": False}


def test_a_review_is_created_once_and_grows_a_committed_row_at_a_time(db: Database) -> None:
    game_id = stored_game(db)
    reviews = ReviewRepository(db)
    assert reviews.get(game_id) is None
    review, created = reviews.create(game_id, depth=10, exact_empties=20)
    assert created and review.status == "queued" and review.rows == ()
    assert (review.depth, review.exact_empties) == (10, 20)
    again, created = reviews.create(game_id, depth=3, exact_empties=2)
    assert not created and (again.depth, again.exact_empties) == (10, 20)  # kept as made
    assert reviews.unfinished() == [game_id]

    assert reviews.append(game_id, 0, row(0)) == 1
    assert reviews.append(game_id, 1, row(1)) == 2
    # a fresh repository on a fresh connection sees both rows, in order: each was committed
    other = Database(db.url)
    seen = ReviewRepository(other).get(game_id)
    other.close()
    assert seen is not None and seen.rows == (row(0), row(1)) and seen.status == "running"

    with pytest.raises(ConcurrentWrite):  # a stale writer that thinks one row is stored
        reviews.append(game_id, 1, row(1))
    after = reviews.get(game_id)
    assert after is not None and after.rows == (row(0), row(1))

    reviews.set_status(game_id, "done")
    assert reviews.unfinished() == []
    reviews.set_status(game_id, "failed", "x" * 2000)
    failed = reviews.get(game_id)
    assert failed is not None and failed.status == "failed" and len(failed.error or "") == 500
    with pytest.raises(KeyError):
        reviews.append("nope", 0, row(0))
    with pytest.raises(KeyError):
        reviews.create("nope", depth=10, exact_empties=20)


def test_two_writers_appending_the_same_row_store_it_once(db: Database) -> None:
    game_id = stored_game(db)
    reviews = ReviewRepository(db)
    reviews.create(game_id, depth=4, exact_empties=8)

    def append(_: int) -> str:
        try:
            reviews.append(game_id, 0, row(0))
        except ConcurrentWrite:
            return "refused"
        return "stored"

    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = sorted(pool.map(append, range(4)))
    assert outcomes == ["refused"] * 3 + ["stored"]
    stored = reviews.get(game_id)
    assert stored is not None and stored.rows == (row(0),)


def test_deleting_the_game_deletes_its_review(db: Database) -> None:
    game_id = stored_game(db)
    reviews = ReviewRepository(db)
    reviews.create(game_id, depth=4, exact_empties=8)
    reviews.append(game_id, 0, row(0))
    assert GameRepository(db).delete(game_id)
    assert reviews.get(game_id) is None


def test_r0005_adds_the_reviews_table_and_leaves_the_games_alone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r0004.db'}"
    engine = sa.create_engine(normalise_url(url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0004")
    engine.dispose()
    db = Database(url)
    stored_game(db, "old")
    assert "reviews" not in sa.inspect(db.engine).get_table_names()
    assert db.open() == revisions_from("0005")
    assert "reviews" in sa.inspect(db.engine).get_table_names()
    assert GameRepository(db).load("old") is not None
    rows = game_rows(db, "old")
    with db.engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0004")
    assert "reviews" not in sa.inspect(db.engine).get_table_names()
    assert game_rows(db, "old") == rows  # the game and every event kept
    db.close()
