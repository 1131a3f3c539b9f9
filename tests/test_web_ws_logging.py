"""What a websocket client can make the server log (issue 65, item 4), on a live uvicorn
server: a text frame that is not UTF-8, and a flood of messages then an aborted
connection, each log one line at most, never an ERROR or a traceback."""

from __future__ import annotations

import base64
import logging
import os
import socket
import struct
import sys
import time

import httpx2
from test_web_sockets_flood import Records, live

from hasamigo.web.routers.ws import OneLineForBadFrames

__all__ = ["live"]  # the live server's fixture, shared with the flood's test

HELLO = b'{"type": "hello", "token": null}'


def frame(opcode: int, payload: bytes) -> bytes:
    """One masked frame, as a client sends it (``opcode`` 1: text)."""
    mask = os.urandom(4)
    size = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([0x80 | size]) if size < 126
                                     else bytes([0x80 | 126]) + struct.pack("!H", size))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_socket(address: str, game: str) -> socket.socket:
    """A websocket opened by hand (a client library will not send a bad frame)."""
    host, port = address.split(":")
    conn = socket.create_connection((host, int(port)), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    conn.sendall(f"GET /ws/games/{game} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += conn.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
    conn.sendall(frame(1, HELLO))
    time.sleep(0.2)
    return conn


def read_all(conn: socket.socket) -> bytes:
    """Whatever the server sends until it closes the connection."""
    data = b""
    while chunk := conn.recv(4096):
        data += chunk
    return data


def abort(conn: socket.socket) -> None:
    """Close with a reset (SO_LINGER 0): the client is gone at once."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def public_game(address: str) -> str:
    created = httpx2.post(f"http://{address}/api/games",
                          json={"opponent": "person", "public": True})
    game: str = created.json()["id"]
    return game


def lines(records: Records) -> list[str]:
    return [f"{r.levelname} {r.name}: {r.getMessage()}" for r in records.records]


def test_text_frames_that_are_not_utf8_log_one_line_without_a_traceback(
        live: tuple[str, Records]) -> None:
    address, records = live
    game = public_game(address)
    installed = [f for f in logging.getLogger("uvicorn.error").filters
                 if isinstance(f, OneLineForBadFrames)]
    assert len(installed) == 1  # by the websocket's module, on import
    installed[0].reset()
    for _ in range(3):
        conn = raw_socket(address, game)
        conn.sendall(frame(1, b"\xff\xfe{"))
        assert b"\x88\x02" + struct.pack("!H", 1007) in read_all(conn)  # closed: bad data
        conn.close()
    deadline = time.monotonic() + 10  # the server logs after it closes: on a busy machine,
    while time.monotonic() < deadline and not any("UTF-8" in x for x in lines(records)):
        time.sleep(0.05)  # a moment later
    time.sleep(0.5)  # and a second line, were there one, would have come by now
    assert not [r for r in records.records if r.levelno >= logging.ERROR], lines(records)
    assert not [r for r in records.records if r.exc_info or r.exc_text], lines(records)
    said = [line for line in lines(records) if "UTF-8" in line]
    assert len(said) == 1, lines(records)  # one line, the next two counted for later
    assert said[0].startswith("WARNING uvicorn.error: a websocket client sent a text frame")


def test_a_flood_then_an_aborted_connection_logs_nothing(
        live: tuple[str, Records]) -> None:
    address, records = live
    game = public_game(address)
    for _ in range(3):
        conn = raw_socket(address, game)
        conn.sendall(b"".join(frame(1, b'{"type": "ping"}') for _ in range(3000)))
        abort(conn)
        time.sleep(0.5)
    time.sleep(0.5)
    assert not [line for line in lines(records) if "socket.send()" in line], lines(records)
    assert len(records.records) <= 3, lines(records)  # one line a client at the most


def test_the_filter_counts_what_it_kept_quiet() -> None:
    now = [0.0]
    quiet = OneLineForBadFrames(seconds=60, clock=lambda: now[0])

    def record() -> logging.LogRecord:
        try:
            b"\xff".decode()
        except UnicodeDecodeError:
            return logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1,
                                     "Invalid UTF-8 sequence received from client.", None,
                                     sys.exc_info())
        raise AssertionError

    first = record()
    assert quiet.filter(first) and first.levelno == logging.WARNING and not first.exc_info
    assert not quiet.filter(record()) and not quiet.filter(record())
    now[0] = 61.0
    later = record()
    assert quiet.filter(later) and "2 more not logged" in later.getMessage()
    other = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "other", None, None)
    assert quiet.filter(other) and other.levelno == logging.ERROR
