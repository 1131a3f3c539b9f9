"""What a server process hears of other processes' changes (``ChangeFeed``, ``GameStore``):
a change announced while the game was being loaded, or while it was being caught up, is
not lost until the next poll (every ``checkpoint_seconds`` where changes are announced)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from test_storage import two_people

from hasamigo import BLACK, WHITE
from hasamigo.storage import Database, GameRepository
from hasamigo.storage.repository import StoredGame
from hasamigo.web.services.games.feed import ChangeFeed
from hasamigo.web.services.games.live import LiveGame
from hasamigo.web.services.games.store import GameStore
from hasamigo.web.settings import Settings


@pytest.fixture
def two_processes(tmp_path: Path) -> tuple[GameRepository, GameRepository]:
    """This server's repository and another process's, on one database file."""
    url = f"sqlite:///{tmp_path / 'feed.db'}"
    mine = Database(url)
    mine.open()
    return GameRepository(mine), GameRepository(Database(url))


def first_move(game: Any, colour: Any) -> None:
    game.play(colour, sorted(str(m) for m in game.board.legal_moves)[0])


def test_a_change_announced_while_the_game_loads_is_caught_up_once_loaded(
        two_processes: tuple[GameRepository, GameRepository],
        monkeypatch: pytest.MonkeyPatch) -> None:
    repo, other = two_processes
    theirs = two_people("g")
    other.create(theirs)
    first_move(theirs, BLACK)
    other.append(theirs, len(theirs.events) - 1)
    store = GameStore(repo, Settings(), time_source=time.monotonic, wall_clock=time.time)
    real_load = repo.load

    def load(game_id: str, **kwargs: Any) -> StoredGame | None:
        stored = real_load(game_id, **kwargs)  # what this process read...
        if len(theirs.history) == 1:  # ...then the other stores a move and announces it
            first_move(theirs, WHITE)
            other.append(theirs, len(theirs.events) - 1)
            store.heard(game_id)
        return stored

    monkeypatch.setattr(repo, "load", load)

    async def main() -> LiveGame:
        return await store.get("g")

    try:
        live = asyncio.run(main())
        assert live.stored == len(theirs.events) == len(live.game.events)
    finally:
        store.shutdown()


def test_a_change_heard_during_a_catch_up_makes_it_look_again(
        two_processes: tuple[GameRepository, GameRepository],
        monkeypatch: pytest.MonkeyPatch) -> None:
    repo, other = two_processes
    theirs = two_people("g")
    other.create(theirs)
    store = GameStore(repo, Settings(), time_source=time.monotonic, wall_clock=time.time)

    async def main() -> LiveGame:
        live = await store.get("g")
        feed = ChangeFeed(store, Settings(), after_change=lambda _live: asyncio.sleep(0))
        real_versions = repo.versions
        calls = 0

        def versions(ids: Any) -> Any:
            nonlocal calls
            calls += 1
            read = real_versions(ids)  # what this process read...
            if calls == 1:  # ...then the other stores a move and announces it
                first_move(theirs, BLACK)
                other.append(theirs, len(theirs.events) - 1)
                loop.call_soon_threadsafe(feed._changed, "g")
            return read

        loop = asyncio.get_running_loop()
        monkeypatch.setattr(repo, "versions", versions)
        queue = feed.subscribe(live)
        feed._changed("g")
        await asyncio.wait_for(queue.get(), 5)  # woken
        for _ in range(100):
            if not live.catching_up:
                break
            await asyncio.sleep(0.02)
        assert calls == 2  # looked again
        return live

    try:
        live = asyncio.run(main())
        assert live.stored == len(theirs.events) == len(live.game.events) > 0
    finally:
        store.shutdown()
