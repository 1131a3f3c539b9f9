"""Games on the server: their controllers, seats, storage, programs and clocks.

* **Events are the truth.** A request becomes an event of the game
  (:mod:`hasamigo.game.events`), checked by the controller against the fold of the
  events before it, and **committed to the database before the caller gets an answer**.
  If the commit fails the game is dropped from memory and reloaded on next use, so memory
  never runs ahead of what is stored.
* **Seats.** Only hashes of seat tokens and join codes are stored; every action names the
  seat it acts for through its token.
* **Bounded.** Live games are kept in memory up to a limit; finished and idle games leave
  it and reload on demand. Programs' searches run on a bounded pool of search threads.
* **Several processes** may serve one database (``hasamigo serve --workers N``, or servers
  behind a proxy): memory is only a cache of the database, one process at a time owns a
  game in play, and watchers on any process get every move.

The parts, one job each, wired by the coordinator :class:`GameService` (the routes and
the other services call only it):

* :mod:`~hasamigo.web.services.games.store` — the live-game cache and its storage
  (:class:`GameStore`, with the group commit);
* :mod:`~hasamigo.web.services.games.seats` — seat tokens and join codes
  (:class:`SeatKeeper`, :func:`secret_hash`);
* :mod:`~hasamigo.web.services.games.leases` — this server's run and its leases
  (:class:`Ownership`);
* :mod:`~hasamigo.web.services.games.feed` — other processes' changes and the watchers
  (:class:`ChangeFeed`: ``LISTEN``/``NOTIFY``, polling, the websockets' queues);
* :mod:`~hasamigo.web.services.games.programs` — the programs' moves and the kernels they
  wait for (:class:`ProgramRunner`);
* :mod:`~hasamigo.web.services.games.ticker` — what time brings (:class:`ClockTicker`);
* :mod:`~hasamigo.web.services.games.live` — a game in memory (:class:`LiveGame`);
  :mod:`~hasamigo.web.services.games.new_game` — the game a request asks for
  (:func:`setup_of`).
"""

from __future__ import annotations

from hasamigo.move import BLACK, WHITE
from hasamigo.web.errors import NotFound, StorageFailure
from hasamigo.web.services.games.feed import ChangeFeed
from hasamigo.web.services.games.leases import Ownership
from hasamigo.web.services.games.live import Created, LiveGame, TimeSource
from hasamigo.web.services.games.new_game import setup_of
from hasamigo.web.services.games.programs import ProgramRunner
from hasamigo.web.services.games.seats import SeatKeeper, secret_hash
from hasamigo.web.services.games.service import GameService
from hasamigo.web.services.games.store import GameStore, GroupCommit
from hasamigo.web.services.games.ticker import ClockTicker

__all__ = ["BLACK", "WHITE", "ChangeFeed", "ClockTicker", "Created", "GameService",
           "GameStore", "GroupCommit", "LiveGame", "NotFound", "Ownership", "ProgramRunner",
           "SeatKeeper", "StorageFailure", "TimeSource", "secret_hash", "setup_of"]
