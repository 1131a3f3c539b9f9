"""What is stored of a seat's secret: the one home of hashing a token or join code.

The web app (which hands out seat tokens and join codes and looks them up when a browser
presents one) and the terminal (``hasamigo play --share``, which stores a join code for a
browser to redeem) both write :class:`~hasamigo.storage.SeatSecret` rows: they must hash
alike, so both call :func:`secret_hash` here, below them both.
"""

from __future__ import annotations

import hashlib


def secret_hash(secret: str) -> str:
    """What is stored of a token or join code (never the secret itself): its hex SHA-256
    (64 characters, the width of ``GameSeatRow.secret_hash``).

    >>> secret_hash("abc")
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


__all__ = ["secret_hash"]
