"""The study's stored rows that are read, then written (a game's evaluation, a subject's
step, a felt-fun answer) take SQLite's write lock first: two writers at once never fail
with "database is locked" (a deferred transaction that read before another writer
committed could not write, seen under load while a report rendered)."""

from __future__ import annotations

import threading
from pathlib import Path

from hasamigo.game.controller import GameController
from hasamigo.game.setup import GameOptions, GameSetup, Participant
from hasamigo.storage.db import Database
from hasamigo.storage.repository import GameRepository
from hasamigo.study.store import StudyRepository


def test_concurrent_read_then_write_transactions_all_land(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'study.db'}")
    db.open()
    games = GameRepository(db)
    store = StudyRepository(db)
    ids = []
    for k in range(2):
        setup = GameSetup((Participant("Subject"), Participant("victory", program="victory")),
                          GameOptions(clock_seconds=None, casual=False), "random")
        game = GameController.new(setup, game_id=f"writer{k}")
        games.create(game)
        ids.append(game.id)
    errors: list[BaseException] = []
    start = threading.Barrier(len(ids))

    def write(game_id: str) -> None:
        start.wait()
        try:
            for move in range(150):
                # both writers touch every row: each read sees the other's commits
                for other in ids:
                    store.put_evaluation(other, move, float(move), move % 2 == 0)
        except BaseException as exc:  # handed to the test
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(g,)) for g in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    stored = store.evaluations(ids)
    assert len(stored) == 2 * 150
    assert stored[(ids[0], 149)] == (149.0, False)
    db.close()
