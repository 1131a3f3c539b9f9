"""The game websocket: the server pushes the state after every change; the client may
ask for it (``sync``), ping, or play a move. Client messages are a typed union dispatched
through a dict."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from hasamigo.move import Color
from hasamigo.web.errors import error_body
from hasamigo.web.schemas import (
    ClientMessage,
    ErrorBody,
    ErrorMessage,
    MoveMessage,
    PingMessage,
    PongMessage,
    StateMessage,
    SyncMessage,
)
from hasamigo.web.services.games import GameService, LiveGame

router = APIRouter()
_client_messages: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)

Sender = Callable[[str], Awaitable[None]]


async def _sync(games: GameService, live: LiveGame, _msg: SyncMessage, send: Sender) -> None:
    await games.refresh(live.id)
    await send(StateMessage(game=games.view(live)).model_dump_json())


async def _ping(_games: GameService, _live: LiveGame, _msg: PingMessage, send: Sender) -> None:
    await send(PongMessage().model_dump_json())


async def _move(games: GameService, live: LiveGame, msg: MoveMessage, send: Sender) -> None:
    colour = None if msg.colour is None else Color(msg.colour)
    await games.play(live.id, msg.move, colour, msg.revision)


HANDLERS: dict[type, Callable[..., Awaitable[None]]] = {
    SyncMessage: _sync,
    PingMessage: _ping,
    MoveMessage: _move,
}


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    games: GameService = websocket.app.state.games
    await websocket.accept()
    try:
        live = await games.get(game_id)
    except LookupError:
        await websocket.send_text(
            ErrorMessage(error=ErrorBody(code="not_found", message=f"no game {game_id!r}"))
            .model_dump_json()
        )
        await websocket.close(code=4404)
        return
    queue = games.subscribe(live)
    send_lock = asyncio.Lock()

    async def send(text: str) -> None:
        async with send_lock:
            await websocket.send_text(text)

    async def pusher() -> None:
        while True:
            view = await queue.get()
            await send(StateMessage(game=view).model_dump_json())

    push_task = asyncio.create_task(pusher())
    try:
        await send(StateMessage(game=games.view(live)).model_dump_json())
        while True:
            raw = await websocket.receive_text()
            try:
                message = _client_messages.validate_json(raw)
                await HANDLERS[type(message)](games, live, message, send)
            except ValidationError as exc:
                body = ErrorBody(code="bad_message", message=str(exc.errors()[0]["msg"]))
                await send(ErrorMessage(error=body).model_dump_json())
            except Exception as exc:  # refusals go back to the client, typed
                _status, body = error_body(exc)
                await send(ErrorMessage(error=body).model_dump_json())
    except WebSocketDisconnect:
        pass
    finally:
        push_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await push_task
        games.unsubscribe(live, queue)
