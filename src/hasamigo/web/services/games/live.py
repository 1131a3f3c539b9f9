"""A game in memory (:class:`LiveGame`) and what every part of the game service shares
about it: the program's search under way, the watchers to tell, the players to let go."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from hasamigo.game.controller import GameController
from hasamigo.move import Color, Move
from hasamigo.web.services.players import Player

TimeSource = Callable[[], float]


class SearchCancelled(Exception):
    """A program's search that was no longer wanted."""


@dataclass
class SearchTicket:
    """One search of a program: cancelled when its position is no longer the game's."""

    revision: int
    player: Player
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True
        cancel = getattr(self.player, "cancel", None)
        if cancel is not None:
            cancel()


@dataclass
class LiveGame:
    id: str
    game: GameController
    stored: int  # events known to be in the database
    public: bool = False
    creator: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    players: dict[Color, Player] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    search: SearchTicket | None = None
    #: a program's move computed but not yet appended (a claim lands it first: rule 15)
    ready: tuple[Color, Move, int] | None = None
    subscribers: set[asyncio.Queue[None]] = field(default_factory=set)
    seats: dict[str, frozenset[int]] = field(default_factory=dict)
    touched: float = 0.0
    failure: str | None = None
    #: the second person's seat is still empty (a two-browser game): the clock waits
    awaiting_join: bool = False
    #: requests waiting for the program's reply (``?wait=true``): not abandoned
    waiters: int = 0
    #: deleted by its creator: the sockets still open on it close
    deleted: bool = False
    #: this process holds the game's lease: it runs the game's clock and programs
    owner: bool = False
    #: a catch-up with what another process stored is under way
    catching_up: bool = False
    #: another change was heard meanwhile: the catch-up looks once more when done (it
    #: may have read the database before that change was committed)
    heard_again: bool = False

    @property
    def thinking(self) -> bool:
        return self.search is not None and not self.search.cancelled

    @property
    def busy(self) -> bool:
        """In use: watched, waited for, or a program is thinking (not to be evicted to
        make room)."""
        return bool(self.subscribers) or self.thinking or self.lock.locked() \
            or self.waiters > 0

    def notify(self) -> None:
        """Tell the game's watchers that it changed (each queue holds one wake-up)."""
        for queue in list(self.subscribers):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)

    def stop_stale_search(self) -> None:
        """Stop the program's search when its position is no longer the game's."""
        ticket = self.search
        if ticket is None or ticket.cancelled:
            return
        if self.game.state.position_revision > ticket.revision \
                or self.game.program_to_move() is None:
            ticket.cancel()
            self.ready = None

    def stop_programs(self) -> None:
        """Stop the program's search and its task (the game leaves memory)."""
        if self.search is not None:
            self.search.cancel()
        if self.task is not None:
            self.task.cancel()


def release_players(live: LiveGame) -> None:
    """Let the game's players go of what they hold outside (an external engine's process),
    on a thread of its own: a stopping process may take seconds."""
    players = list(live.players.values())
    live.players.clear()
    closers = [close for p in players if (close := getattr(p, "close", None)) is not None]
    if closers:
        threading.Thread(target=lambda: [close() for close in closers], daemon=True,
                         name="release-players").start()


@dataclass(frozen=True, slots=True)
class Created:
    live: LiveGame
    token: str
    seats: frozenset[int]  # what the token acts for
    join_code: str | None


__all__ = ["Created", "LiveGame", "SearchCancelled", "SearchTicket", "TimeSource",
           "release_players"]
