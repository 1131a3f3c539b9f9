"""Telling a player that a correspondence game's turn is theirs (:class:`TurnNotifier`).

The game page says it to whoever has it open (the view's ``deadline``, pushed over the
websocket). For a player who is away, the server runs a command of the operator's
choosing (``Settings.notify_command``, ``HASAMIGO_NOTIFY_COMMAND``) each time a turn
passes: its words split as a shell would (no shell runs it), then three arguments, the
game's id, the colour to move (``black``/``white``) and the deadline in ISO 8601 (UTC).
It works for anonymous games as for games whose seats accounts hold: the command knows
whom to tell (an address book, a chat room, a mail alias per game). A command rather than
an SMTP URL: the server keeps no mail password, sends nothing itself, and any channel
(mail, a chat webhook, a push service) is one small script.

It runs in the background after the move is committed, at most ``notify_seconds``; a
command that fails, is missing or hangs is logged and stopped, and never touches the move.
At most :data:`MAX_RUNNING` commands run at once: a player who moves quickly in many games
(or a script doing so) starts no more processes than that. A turn waiting for its command
is replaced by the same game's next turn (the player is told the newest deadline once),
and beyond :data:`MAX_WAITING` games waiting a turn is not told (logged).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import subprocess
from datetime import UTC, datetime

from hasamigo.move import Color
from hasamigo.web.settings import Settings

log = logging.getLogger(__name__)

#: notify commands running at once, and games whose turn waits for one
MAX_RUNNING, MAX_WAITING = 4, 256


class TurnNotifier:
    """Runs the notify command in the background, one process per turn."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._tasks: set[asyncio.Task[None]] = set()
        self._waiting: dict[str, list[str]] = {}  # game id -> its newest turn's command
        self._slots = asyncio.Semaphore(MAX_RUNNING)

    @property
    def enabled(self) -> bool:
        return self.settings.notify_command is not None

    def turn_passed(self, game_id: str, colour: Color, deadline: float) -> None:
        """``colour`` is to move in ``game_id`` by ``deadline`` (seconds since the epoch):
        run the command (if one is set) without waiting for it."""
        if self.settings.notify_command is None:
            return
        when = datetime.fromtimestamp(deadline, UTC).isoformat(timespec="seconds")
        argv = [*shlex.split(self.settings.notify_command), game_id, colour.value, when]
        if game_id in self._waiting:  # its command has not started: it tells this turn
            self._waiting[game_id] = argv
            return
        if len(self._waiting) >= MAX_WAITING:
            log.warning("the notify command for game %s was not run: %d games are waiting "
                        "for one", game_id, len(self._waiting))
            return
        self._waiting[game_id] = argv
        task = asyncio.create_task(self._next(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _next(self, game_id: str) -> None:
        """The game's newest turn, once fewer than :data:`MAX_RUNNING` commands run."""
        async with self._slots:
            argv = self._waiting.pop(game_id)
            await self._run(argv, game_id)

    async def _run(self, argv: list[str], game_id: str) -> None:
        try:
            process = await asyncio.create_subprocess_exec(
                *argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE)
        except OSError as exc:
            log.warning("the notify command for game %s could not start: %s", game_id, exc)
            return
        try:
            _out, err = await asyncio.wait_for(process.communicate(),
                                               self.settings.notify_seconds)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
            log.warning("the notify command for game %s ran over %.0f s and was stopped",
                        game_id, self.settings.notify_seconds)
            return
        if process.returncode != 0:
            tail = err.decode("utf-8", "replace").strip()[-300:]
            log.warning("the notify command for game %s failed (exit %s): %s", game_id,
                        process.returncode, tail)

    async def drain(self) -> None:
        """Wait for the commands still running (at stop, and in tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


__all__ = ["MAX_RUNNING", "MAX_WAITING", "TurnNotifier"]
