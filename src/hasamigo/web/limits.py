"""Bounds on what a client can make the server hold: body sizes and request rates.

:class:`BodyLimit` is plain ASGI middleware: a request whose declared or actual body is
larger than the limit is answered 413 (in the one error shape) before any route reads it.
:class:`RateWindow` counts events per key over a sliding window (new games per client
address), in one process's memory and bounded in the number of keys it keeps (the
accounts' sign-in and sign-up limits are counted in the database instead, for every
process at once: :mod:`hasamigo.accounts.attempts`). :class:`TrustedProxies`
says which address those limits count: the peer's, unless the peer is a proxy named in
``Settings.forwarded_allow_ips``, whose ``X-Forwarded-For`` then names the client.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping, Sequence
from typing import Any

from hasamigo.web.errors import RateLimited

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """Refuse HTTP request bodies over ``limit`` bytes with 413; ``paths`` gives some
    paths (exactly) a limit of their own (an imported game's file)."""

    def __init__(self, app: ASGIApp, limit: int, paths: Mapping[str, int] | None = None
                 ) -> None:
        self.app = app
        self.limit = limit
        self.paths = dict(paths or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.limit)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                size = -1
            if size < 0 or size > limit:
                await self._refuse(send, limit)
                return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send, limit)

    @staticmethod
    async def _refuse(send: Send, limit: int) -> None:
        body = json.dumps({"error": {
            "code": "too_large", "reason": None,
            "message": f"the request body is larger than {limit} bytes"}}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class RateWindow:
    """At most ``limit`` events per ``seconds`` for each key; remembers at most
    ``max_keys`` keys (the least recently seen are forgotten first)."""

    def __init__(self, limit: int, seconds: float = 60.0, *, max_keys: int = 10_000,
                 time_source: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.seconds = seconds
        self.max_keys = max_keys
        self._now = time_source
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()  # routes that are plain functions run on a thread pool

    def check(self, key: str) -> float | None:
        """Count an event for ``key``; ``None`` if allowed, else the seconds to wait."""
        with self._lock:
            return self._check(key)

    def enforce(self, key: str, what: str) -> None:
        """:meth:`check`, refusing with :class:`RateLimited` ("too many ``what``")."""
        wait = self.check(key)
        if wait is not None:
            raise RateLimited(f"too many {what}; try again in {int(wait) + 1} s",
                              int(wait) + 1)

    def _check(self, key: str) -> float | None:
        now = self._now()
        times = self._seen.pop(key, None) or deque()
        while times and now - times[0] >= self.seconds:
            times.popleft()
        self._seen[key] = times
        while len(self._seen) > self.max_keys:
            self._seen.popitem(last=False)
        if len(times) >= self.limit:
            return self.seconds - (now - times[0])
        times.append(now)
        return None


#: the hops of ``X-Forwarded-For`` looked at (from the right) and the longest address kept
MAX_HOPS, ADDRESS_LENGTH = 16, 64


class TrustedProxies:
    """The proxies whose ``X-Forwarded-For`` header is believed: addresses or networks
    (``10.0.0.0/8``), or ``*`` for any peer. Without them (the default) the header is
    ignored, so a client cannot dodge a per-address limit by sending one.

    >>> proxies = TrustedProxies(["10.0.0.0/8"])
    >>> proxies.client("10.1.2.3", ["203.0.113.9, 198.51.100.7"])
    '198.51.100.7'
    >>> proxies.client("198.51.100.7", ["203.0.113.9"])  # not a proxy of ours: ignored
    '198.51.100.7'
    """

    def __init__(self, entries: Iterable[str]) -> None:
        entries = [e.strip() for e in entries if e.strip()]
        self.any = "*" in entries
        try:
            self.networks = [ipaddress.ip_network(e, strict=False) for e in entries
                             if e != "*"]
        except ValueError as exc:
            raise ValueError(f"a trusted proxy is an IP address, a network or '*': {exc}"
                             ) from None

    def trusts(self, host: str) -> bool:
        if self.any:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def client(self, peer: str, forwarded: Sequence[str]) -> str:
        """The client's address: ``peer`` (the connection's), or, when ``peer`` is a
        trusted proxy, the nearest address of ``X-Forwarded-For`` (its ``forwarded``
        header lines) that is not a trusted proxy itself (each proxy appends the address
        it was reached from: what lies to the left of our own proxies' entries is
        whatever the client claimed)."""
        if not forwarded or not self.trusts(peer):
            return peer
        hops = [hop.strip() for line in forwarded for hop in line.split(",")][-MAX_HOPS:]
        hops = [hop for hop in hops if hop]
        for hop in reversed(hops):
            if not self.trusts(hop):
                return hop[:ADDRESS_LENGTH]
        return hops[0][:ADDRESS_LENGTH] if hops else peer


@functools.lru_cache(maxsize=16)
def trusted_proxies(entries: tuple[str, ...]) -> TrustedProxies:
    """The :class:`TrustedProxies` of a settings' ``forwarded_allow_ips`` (made once)."""
    return TrustedProxies(entries)


__all__ = ["BodyLimit", "RateWindow", "TrustedProxies", "trusted_proxies"]
