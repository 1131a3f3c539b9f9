"""Changes of games announced to the other server processes (:class:`ChangeAnnouncer`),
so that they see them at once; every process also polls the games' versions, which makes
up for an announcement lost.

- PostgreSQL: every change of a game is announced on the channel :data:`CHANGES`
  (``NOTIFY``, delivered at commit: :func:`announce`, called inside the writer's
  transaction).
- SQLite, a file on Linux: the processes on one database file are on one machine. Each
  listening process binds one of :data:`LOCAL_SLOTS` datagram sockets named after the
  file (in Linux's abstract namespace: no file is made, and they vanish with the
  process), and a commit that changed games sends their ids to the others' slots
  *after* it commits (a rolled-back change sends nothing). A datagram not delivered (a
  full queue, every slot taken) is made up for by polling.
- SQLite elsewhere, or in memory: nothing is announced; other processes poll."""

from __future__ import annotations

import hashlib
import logging
import os
import re
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import event, func, select
from sqlalchemy.engine import URL, Engine
from sqlalchemy.orm import Session

from hasamigo.storage.db import Database

log = logging.getLogger(__name__)

#: The PostgreSQL channel on which changes of games are announced (payload: the game's id).
CHANGES = "hasamigo_games"

#: How many processes on one SQLite file hear each other's changes at once: more
#: processes than these find every slot taken and poll, as all did before.
LOCAL_SLOTS = 32

#: what a game's id may be in a datagram heard (anything else is dropped)
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_PENDING = "hasamigo_announce"  # the session's ``info`` key: ids changed, to send at commit


def announce(session: Session, game_id: str) -> None:
    """Tell the other server processes that the game changed, when the transaction
    commits (not at all if it rolls back): PostgreSQL's ``NOTIFY``; on a SQLite file on
    Linux a datagram to each listening process (see the module's docstring)."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        session.execute(select(func.pg_notify(CHANGES, game_id)))
    elif _local_channel(bind.engine.url) is not None:
        session.info.setdefault(_PENDING, {})[game_id] = _sender(bind.engine)


@event.listens_for(Session, "after_commit")
def _send_pending(session: Session) -> None:
    if session.in_nested_transaction():  # a savepoint released: nothing is committed yet
        return
    pending = session.info.pop(_PENDING, None)
    if not pending:
        return
    channel = _local_channel(session.get_bind().engine.url)
    if channel is not None:
        for game_id, sender in pending.items():
            channel.send(game_id, sender)


@event.listens_for(Session, "after_rollback")
def _drop_pending(session: Session) -> None:
    if not session.in_nested_transaction():  # the whole transaction, not a savepoint
        session.info.pop(_PENDING, None)


def _sender(engine: Engine) -> str:
    """Who announces: this process and this database object (a listener may leave out
    its own changes: :meth:`ChangeAnnouncer.listen`)."""
    return f"{os.getpid()}.{id(engine)}"


class _LocalChannel:
    """The datagram slots of one SQLite file (see the module's docstring)."""

    def __init__(self, key: str) -> None:
        self.names = [f"\0hasamigo-changes-{key}-{slot}".encode() for slot in range(LOCAL_SLOTS)]
        self._sender: socket.socket | None = None
        self._pid = 0
        #: this process's listeners that leave out their own changes: slot → who they are
        self.deaf_to: dict[bytes, str] = {}

    def send(self, game_id: str, sender: str) -> None:
        """Send ``game_id`` to every slot; a slot nobody holds refuses at once."""
        if self._sender is None or self._pid != os.getpid():  # none yet, or forked
            self._sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._sender.setblocking(False)
            self._pid = os.getpid()
        data = f"{game_id} {sender}".encode()
        for name in self.names:
            if self.deaf_to.get(name) == sender:
                continue
            try:
                self._sender.sendto(data, name)
            except OSError:  # nobody in the slot, or its queue full: it polls
                continue

    def bind(self) -> socket.socket | None:
        """A socket on the first free slot; ``None`` if all are taken."""
        for name in self.names:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            try:
                sock.bind(name)
            except OSError:
                sock.close()
                continue
            return sock
        return None


_channels: dict[str, _LocalChannel | None] = {}
_channels_lock = threading.Lock()


def _local_channel(url: URL) -> _LocalChannel | None:
    """The slots of a SQLite file on Linux, ``None`` for any other database."""
    key = str(url)
    try:
        return _channels[key]
    except KeyError:
        pass
    channel = None
    database = url.database or ""
    if (url.get_backend_name() == "sqlite" and sys.platform.startswith("linux")
            and database and database != ":memory:" and not database.startswith("file:")):
        path = os.path.realpath(Path(database).expanduser())
        channel = _LocalChannel(hashlib.sha256(path.encode()).hexdigest()[:24])
    with _channels_lock:
        return _channels.setdefault(key, channel)


class ChangeAnnouncer:
    """Whether changes are announced, and the listener for them."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def announces(self) -> bool:
        """Whether changes are announced (PostgreSQL, a SQLite file on Linux); else other
        processes poll."""
        return (self.db.engine.dialect.name == "postgresql"
                or _local_channel(self.db.engine.url) is not None)

    def listen(self, heard: Callable[[str], None], stopping: threading.Event, *,
               own: bool = True) -> None:
        """Call ``heard(game_id)`` for every change of a game announced, until
        ``stopping`` is set (for a thread of its own). ``own=False``: not for the changes
        made through this same database object, on SQLite (a server process knows its
        own; PostgreSQL announces them too). Returns at once when nothing can be heard
        (SQLite with every slot taken): the caller polls."""
        if self.db.engine.dialect.name != "postgresql":
            self._listen_locally(heard, stopping, own=own)
            return
        import psycopg

        url = self.db.engine.url.set(drivername="postgresql")
        dsn = url.render_as_string(hide_password=False)
        while not stopping.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANGES}")
                    while not stopping.is_set():
                        for note in connection.notifies(timeout=0.5):
                            heard(note.payload)
            except Exception:
                if stopping.is_set():
                    return
                log.exception("listening for other server processes failed; again in 1 s")
                stopping.wait(1.0)

    def _listen_locally(self, heard: Callable[[str], None], stopping: threading.Event, *,
                        own: bool) -> None:
        channel = _local_channel(self.db.engine.url)
        if channel is None:
            return
        sock = channel.bind()
        if sock is None:
            log.warning("all %d slots for announcing changes on %s are taken: this process "
                        "polls", LOCAL_SLOTS, self.db.engine.url)
            return
        me = _sender(self.db.engine)
        name = sock.getsockname()
        if not own:
            channel.deaf_to[name] = me  # its own are not even sent
        sock.settimeout(0.5)
        try:
            with sock:
                while not stopping.is_set():
                    try:
                        data = sock.recv(256)
                    except TimeoutError:
                        continue
                    game_id, _, sender = data.decode("ascii", "replace").partition(" ")
                    if _GAME_ID.fullmatch(game_id) and (own or sender != me):
                        heard(game_id)
        finally:
            channel.deaf_to.pop(name, None)


__all__ = ["CHANGES", "ChangeAnnouncer", "announce"]
