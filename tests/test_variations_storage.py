"""Stored variation trees (table ``variations``, revision 0006): one row per move, the
same move under the same parent stored once, a limit per game, a node deleted with its
subtree, the tree gone with its game. SQLite, and PostgreSQL when
``HASAMIGO_TEST_POSTGRES`` holds a URL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from test_review_storage import stored_game
from test_storage_migration import game_rows

from hasamigo.storage import Database, GameRepository, TreeFull, VariationRepository
from hasamigo.storage.db import alembic_config, head_revision, normalise_url


def test_nodes_are_stored_once_per_move_and_parent(db: Database) -> None:
    game_id = stored_game(db)
    repo = VariationRepository(db)
    assert repo.nodes(game_id) == []
    root, created = repo.add(game_id, None, 1, "f6", max_nodes=10)
    assert created and (root.parent_id, root.ply, root.move) == (None, 1, "f6")
    again, created = repo.add(game_id, None, 1, "f6", max_nodes=10)
    assert not created and again == root  # no duplicate off the main line
    other, created = repo.add(game_id, None, 0, "f6", max_nodes=10)
    assert created and other.id != root.id  # another ply is another branch
    child, created = repo.add(game_id, root.id, 2, "e6", max_nodes=10)
    assert created and child.parent_id == root.id
    assert repo.add(game_id, root.id, 2, "e6", max_nodes=10) == (child, False)
    assert [n.id for n in repo.nodes(game_id)] == [root.id, other.id, child.id]
    assert repo.count(game_id) == 3


def test_adding_refuses_a_full_tree_and_foreign_or_missing_parents(db: Database) -> None:
    game_id = stored_game(db)
    other_game = stored_game(db, "g2")
    repo = VariationRepository(db)
    first, _ = repo.add(game_id, None, 1, "f6", max_nodes=2)
    repo.add(game_id, first.id, 2, "e6", max_nodes=2)
    with pytest.raises(TreeFull):
        repo.add(game_id, first.id, 2, "c6", max_nodes=2)
    assert repo.add(game_id, first.id, 2, "e6", max_nodes=2)[1] is False  # existing: fine
    with pytest.raises(KeyError):
        repo.add(other_game, first.id, 2, "e6", max_nodes=10)  # another game's node
    with pytest.raises(KeyError):
        repo.add(game_id, 9999, 2, "e6", max_nodes=10)
    with pytest.raises(KeyError):
        repo.add("nope", None, 0, "f5", max_nodes=10)


def test_a_race_to_add_the_same_move_stores_one_node(db: Database) -> None:
    game_id = stored_game(db)
    repo = VariationRepository(db)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _i: repo.add(game_id, None, 1, "f6", max_nodes=10),
                                range(8)))
    assert len({node.id for node, _created in results}) == 1
    assert sum(created for _node, created in results) == 1
    assert repo.count(game_id) == 1


def test_deleting_a_node_deletes_its_subtree_and_the_game_its_tree(db: Database) -> None:
    game_id = stored_game(db)
    repo = VariationRepository(db)
    a, _ = repo.add(game_id, None, 1, "f6", max_nodes=10)
    b, _ = repo.add(game_id, a.id, 2, "e6", max_nodes=10)
    repo.add(game_id, b.id, 3, "f4", max_nodes=10)
    c, _ = repo.add(game_id, a.id, 2, "c6", max_nodes=10)
    keep, _ = repo.add(game_id, None, 1, "f4", max_nodes=10)
    assert repo.delete("g2", b.id) == 0  # not this game's node
    assert repo.delete(game_id, b.id) == 2
    assert [n.id for n in repo.nodes(game_id)] == [a.id, c.id, keep.id]
    assert repo.delete(game_id, b.id) == 0
    assert repo.delete(game_id, a.id) == 2
    assert [n.id for n in repo.nodes(game_id)] == [keep.id]
    GameRepository(db).delete(game_id)
    assert repo.nodes(game_id) == []


def test_r0006_adds_the_variations_table_and_leaves_the_games_alone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r0005.db'}"
    engine = sa.create_engine(normalise_url(url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0005")
    engine.dispose()
    db = Database(url)
    stored_game(db, "old")
    assert "variations" not in sa.inspect(db.engine).get_table_names()
    applied = db.open()  # 0006 first, then every later one (a new migration adds its own)
    assert applied[0] == "0006" and applied[-1] == head_revision()
    assert applied == [f"{n:04d}" for n in range(6, int(head_revision()) + 1)]
    assert "variations" in sa.inspect(db.engine).get_table_names()
    assert GameRepository(db).load("old") is not None
    VariationRepository(db).add("old", None, 1, "f6", max_nodes=10)
    rows = game_rows(db, "old")
    with db.engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0005")
    assert "variations" not in sa.inspect(db.engine).get_table_names()
    assert game_rows(db, "old") == rows  # the game and every event kept
    db.close()
