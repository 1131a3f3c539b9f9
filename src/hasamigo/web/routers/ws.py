"""The game websocket: the server pushes the state after every change; the client may
ask for it (``sync``), ping, or play a move.

The first message must be ``{"type": "hello", "token": …}`` within
``ws_hello_seconds``: the seat token binds the socket to its seats (``null`` watches a
public game, read-only). Client messages are a typed union dispatched through a dict.
Text frames only, each at most ``max_ws_message_bytes``, at most
``ws_messages_per_second``; a binary frame or a malformed message gets a typed error and
the socket stays open; an oversized message closes it (1009), a flood too (1008).

What a client does logs one line at most (issue 65, item 4): a text frame that is not
UTF-8 is refused by uvicorn (closed 1007), which logged an ERROR and a traceback each
time; :class:`OneLineForBadFrames` makes that one WARNING line without the traceback, at
most one every :data:`BAD_FRAME_LOG_SECONDS` with a count of the others. A client that
floods and then aborts the connection left the messages already read to be answered on a
dead transport, each write logged by asyncio (``socket.send() raised exception``); every
send now lets the loop run once, so the connection's loss is seen before the next write
and the socket's loop ends quietly.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from hasamigo.errors import HasamigoError
from hasamigo.move import Color
from hasamigo.web.errors import Forbidden, NotFound, Unauthorized, error_body
from hasamigo.web.routers.games import refuse_recorded
from hasamigo.web.schemas import (
    ClientMessage,
    ErrorBody,
    ErrorMessage,
    HelloMessage,
    MoveMessage,
    PingMessage,
    PongMessage,
    StateMessage,
    SyncMessage,
)
from hasamigo.web.services.games import GameService, LiveGame
from hasamigo.web.state import services_of

router = APIRouter()
_client_messages: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)

Sender = Callable[[str], Awaitable[None]]
#: at most one line in this many seconds for the frames uvicorn refuses (the rest counted)
BAD_FRAME_LOG_SECONDS = 60.0
#: what uvicorn's sans-I/O websocket logs, with a traceback, for a text frame not UTF-8
_UVICORN_BAD_UTF8 = "Invalid UTF-8 sequence received from client"


class OneLineForBadFrames(logging.Filter):
    """A filter on the ``uvicorn.error`` logger: its record of a text frame that is not
    UTF-8 becomes one WARNING line without a traceback, at most one every ``seconds``
    (the next says how many were not logged); every other record passes unchanged."""

    def __init__(self, seconds: float = BAD_FRAME_LOG_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.seconds, self.clock = seconds, clock
        self._last: float | None = None
        self._quiet = 0
        self._lock = threading.Lock()

    def reset(self) -> None:
        """Forget the last line: the next bad frame is logged."""
        with self._lock:
            self._last, self._quiet = None, 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(_UVICORN_BAD_UTF8):
            return True
        with self._lock:
            now = self.clock()
            if self._last is not None and now - self._last < self.seconds:
                self._quiet += 1
                return False
            self._last, quiet, self._quiet = now, self._quiet, 0
        record.msg = ("a websocket client sent a text frame that is not UTF-8: closed (1007)"
                      + (f"; {quiet} more not logged since the last" if quiet else ""))
        record.args = None
        record.exc_info = record.exc_text = None
        record.stack_info = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_bad_frames(logger: logging.Logger | None = None) -> OneLineForBadFrames:
    """Put :class:`OneLineForBadFrames` on uvicorn's error logger (once)."""
    logger = logger or logging.getLogger("uvicorn.error")
    for existing in logger.filters:
        if isinstance(existing, OneLineForBadFrames):
            return existing
    added = OneLineForBadFrames()
    logger.addFilter(added)
    return added


quiet_bad_frames()

#: close codes: policy violation, message too big, try again later, not allowed, unknown game
POLICY, TOO_BIG, TRY_LATER, FORBIDDEN, NOT_FOUND = 1008, 1009, 1013, 4403, 4404


@dataclass
class Session:
    games: GameService
    live: LiveGame
    you: frozenset[int]
    send: Sender

    async def state(self) -> None:
        if self.live.deleted:
            raise NotFound("this game was deleted")
        view = self.games.view(self.live, self.you)
        await self.send(StateMessage(game=view).model_dump_json())


async def _sync(session: Session, _msg: SyncMessage) -> None:
    await session.games.act(session.live, lambda _live: None)
    await session.state()


async def _ping(session: Session, _msg: PingMessage) -> None:
    await session.send(PongMessage().model_dump_json())


async def _move(session: Session, msg: MoveMessage) -> None:
    if not session.you:
        raise Unauthorized("say hello with your seat token before playing")
    if session.live.deleted:
        raise NotFound("this game was deleted")
    refuse_recorded(session.live, "move")
    colour = Color.parse_optional(msg.colour)
    await session.games.play(session.live, session.you, msg.move, colour, msg.revision)


async def _hello_again(_session: Session, _msg: HelloMessage) -> None:
    raise Forbidden("this socket has said hello already", "bad_request")


HANDLERS: dict[type, Callable[..., Awaitable[None]]] = {
    SyncMessage: _sync,
    PingMessage: _ping,
    MoveMessage: _move,
    HelloMessage: _hello_again,
}


def _first_problem(exc: ValidationError) -> str:
    for error in exc.errors()[:1]:
        where = ".".join(str(p) for p in error["loc"])
        return f"{where}: {error['msg']}"[:200] if where else error["msg"][:200]
    return "invalid message"


def _error(code: str, message: str) -> str:
    return ErrorMessage(error=ErrorBody(code=code, message=message)).model_dump_json()


async def _receive_text(websocket: WebSocket, limit: int) -> str | None:
    """The next text message; ``None`` for a binary frame. Raises WebSocketDisconnect."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    data = message.get("bytes")
    size = len(text.encode("utf-8", "replace")) if text is not None else len(data or b"")
    if size > limit:
        await websocket.close(code=TOO_BIG, reason="message too large")
        raise WebSocketDisconnect(TOO_BIG)
    return text


async def _refuse(websocket: WebSocket, send: Sender, text: str, code: int) -> None:
    """Say why, then close with ``code``; a client that has gone already (many sockets
    opened and closed at once, refused for being over the watchers' limit) is no error:
    there is nobody left to tell."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await send(text)
        await websocket.close(code=code)


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    services = services_of(websocket.app)
    assert services is not None, "sockets are served once the lifespan has built the services"
    games: GameService = services.games
    settings = games.settings
    await websocket.accept()
    send_lock = asyncio.Lock()

    async def send(text: str) -> None:
        async with send_lock:
            await websocket.send_text(text)
        # let the loop run once: a write that found the client gone has scheduled the
        # connection's loss, and the next send then raises (WebSocketDisconnect) instead
        # of writing to a dead transport (asyncio logs each such write past the fifth)
        await asyncio.sleep(0)

    # ---- hello: which game, which seats ----------------------------------------------
    try:
        raw = await asyncio.wait_for(
            _receive_text(websocket, settings.max_ws_message_bytes), settings.ws_hello_seconds)
    except TimeoutError:
        await _refuse(websocket, send, _error("unauthorized",
                                              "say hello with your seat token first"), POLICY)
        return
    except WebSocketDisconnect:
        return
    try:
        hello = HelloMessage.model_validate_json(raw or "")
        live, you = await games.reader(game_id, hello.token)
        queue = games.subscribe(live)
    except (ValidationError, ValueError):
        await _refuse(websocket, send, _error(
            "bad_message", 'the first message must be {"type": "hello", "token": <seat token '
            'or null>}'), POLICY)
        return
    except HasamigoError as exc:
        status, body = error_body(exc)
        await _refuse(websocket, send, ErrorMessage(error=body).model_dump_json(),
                      {404: NOT_FOUND, 503: TRY_LATER}.get(status, FORBIDDEN))
        return
    session = Session(games, live, you, send)

    async def pusher() -> None:
        while True:
            await queue.get()
            if live.deleted:
                await send(_error("not_found", "this game was deleted"))
                await websocket.close(code=NOT_FOUND)
                return
            if not session.you and not live.public:  # the game was made private
                await send(_error("forbidden", "this game is private now"))
                await websocket.close(code=FORBIDDEN)
                return
            await session.state()

    push_task = asyncio.create_task(pusher())
    window_start, count = time.monotonic(), 0
    try:
        await session.state()
        while True:
            raw = await _receive_text(websocket, settings.max_ws_message_bytes)
            now = time.monotonic()
            if now - window_start >= 1.0:
                window_start, count = now, 0
            count += 1
            if count > settings.ws_messages_per_second:
                await send(_error("rate_limited", "too many messages"))
                await websocket.close(code=POLICY, reason="too many messages")
                return
            if raw is None:
                await send(_error("bad_message", "text frames only (JSON messages)"))
                continue
            try:
                message = _client_messages.validate_json(raw)
            except ValidationError as exc:
                await send(_error("bad_message", _first_problem(exc)))
                continue
            try:
                await HANDLERS[type(message)](session, message)
            except HasamigoError as exc:  # refusals go back to the client, typed
                _status, body = error_body(exc)
                await send(ErrorMessage(error=body).model_dump_json())
    except WebSocketDisconnect:
        pass
    except (RuntimeError, OSError, json.JSONDecodeError):  # the socket went away mid-send
        pass
    finally:
        push_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await push_task
        games.unsubscribe(live, queue)
