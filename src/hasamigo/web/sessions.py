"""Signed sessions: the tournament director's and the study researcher's bearer tokens.

A session is signed, not stored: itsdangerous' URL-safe timed serializer signs ``{"t":
tournament or study id, "w": who}`` and the time of signing (HMAC-SHA256). The key is the
tournament's (study's) stored password *hash*, and each purpose has its own salt, so a
token survives a server restart, works on every process serving the database, stops
working when the password (or its hash, see :mod:`hasamigo.passwords`) changes, and a
director's token is no researcher's. The password itself never leaves the login request.

>>> kind = SessionKind("example", seconds=3600)
>>> token, expires = kind.sign("t1", "Ann", "hash-a", now=1e9)
>>> kind.read(token, "hash-a", now=1e9 + 60)
DirectorSession(tournament_id='t1', who='Ann', expires=1000003600.0)
>>> kind.read(token, "hash-b", now=1e9) is None  # the password changed
True
>>> kind.read(token, "hash-a", now=expires)
Traceback (most recent call last):
...
hasamigo.web.sessions.SessionEnded: the session ended at 1000003600
>>> SessionKind.claimed(token)
't1'
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer

#: how long a director's (researcher's) session lasts (a tournament day)
SESSION_SECONDS = 12 * 3600


@dataclass(frozen=True, slots=True)
class DirectorSession:
    """Someone logged in to one tournament (study); ``who`` goes into the audit log."""

    tournament_id: str
    who: str
    expires: float


class SessionEnded(Exception):
    """A token signed for the right key whose time is up."""


class _ClockSigner(TimestampSigner):
    """itsdangerous' timestamp signer on the app's wall clock (tests drive it by hand)."""

    def __init__(self, *args: Any, clock: Callable[[], float], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clock = clock

    def get_timestamp(self) -> int:
        return int(self._clock())


@dataclass(frozen=True, slots=True)
class SessionKind:
    """The sessions of one purpose (its salt), lasting ``seconds``."""

    purpose: str
    seconds: float = SESSION_SECONDS

    def _serializer(self, password_hash: str, now: float) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(
            password_hash, salt=f"hasamigo {self.purpose} session", signer=_ClockSigner,
            signer_kwargs={"clock": lambda: now, "digest_method": hashlib.sha256})

    def sign(self, subject_id: str, who: str, password_hash: str, *, now: float
             ) -> tuple[str, float]:
        """A token for ``who`` in ``subject_id`` and when it ends."""
        token = self._serializer(password_hash, now).dumps({"t": subject_id, "w": who})
        return token, float(int(now) + self.seconds)

    def read(self, token: str, password_hash: str, *, now: float) -> DirectorSession | None:
        """The session a token signed for ``password_hash`` holds (``None``: not signed
        so); :class:`SessionEnded` when its time is up. The time is checked here, not by
        itsdangerous' ``max_age``, which also refuses a token signed in the next second by
        another server whose clock is a little ahead."""
        try:
            data, signed = self._serializer(password_hash, now).loads(
                token, return_timestamp=True)
            session = DirectorSession(str(data["t"]), str(data["w"]),
                                      signed.timestamp() + self.seconds)
        except (BadSignature, KeyError, TypeError):
            return None
        if session.expires <= now:
            raise SessionEnded(f"the session ended at {session.expires:.0f}")
        return session

    @staticmethod
    def claimed(token: str) -> str | None:
        """The id a token claims to be for, unchecked: to tell another tournament's
        (study's) session from a spoilt one."""
        _valid, data = URLSafeTimedSerializer("unchecked").loads_unsafe(token)
        value = data.get("t") if isinstance(data, dict) else None
        return value if isinstance(value, str) else None


def session_reply(token: str, who: str, expires: float) -> dict[str, str]:
    """The one shape in which the API hands out a session, the director's and the
    researcher's alike (the login's answer; ``"session"`` in a creation's answer):
    ``{"token": …, "who": …, "expires_at": …}``, the end an ISO 8601 time in UTC.

    >>> session_reply("abc", "Mori", 1e9)
    {'token': 'abc', 'who': 'Mori', 'expires_at': '2001-09-09T01:46:40+00:00'}
    """
    return {"token": token, "who": who,
            "expires_at": datetime.fromtimestamp(expires, UTC).isoformat()}


__all__ = ["SESSION_SECONDS", "DirectorSession", "SessionEnded", "SessionKind",
           "session_reply"]
