"""Password hashes: the tournament director's and the study researcher's passwords.

New hashes are argon2id through pwdlib (:func:`hash_password`). Hashes written before
(``pbkdf2_sha256$iterations$salt$hash``, hex, by hashlib's PBKDF2-HMAC-SHA256) still verify
(:class:`LegacyPbkdf2Hasher`), and :func:`verify_and_update` hands back an argon2id hash to
store in their place after a successful check, so they go at the next login.

>>> stored = hash_password("secret")
>>> stored.startswith("$argon2id$"), verify_password("secret", stored)
(True, True)
>>> verify_password("Secret", stored), verify_password("secret", "not a hash")
(False, False)
"""

from __future__ import annotations

import hashlib
import hmac

from pwdlib import PasswordHash
from pwdlib.exceptions import UnknownHashError
from pwdlib.hashers.argon2 import Argon2Hasher
from pwdlib.hashers.base import ensure_str

#: argon2id at OWASP's minimum (19 MiB, 2 passes, 1 lane): about 0.15 s a check on this
#: two-core machine under load, as the PBKDF2 hashes cost (argon2-cffi's defaults, 64 MiB,
#: 3 passes and 4 lanes, took 1.3 s)
ARGON2_MEMORY_KIB, ARGON2_PASSES, ARGON2_LANES = 19 * 1024, 2, 1
_LEGACY = "pbkdf2_sha256"


class LegacyPbkdf2Hasher:
    """Reads the hashes written before argon2 (``pbkdf2_sha256$iterations$salt$hash``);
    writes none (pwdlib's hasher protocol: :meth:`hash` is not offered)."""

    @classmethod
    def identify(cls, hash: str | bytes) -> bool:
        try:
            return ensure_str(hash).startswith(_LEGACY + "$")
        except UnicodeDecodeError:
            return False

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        raise NotImplementedError("PBKDF2 hashes are only read; new hashes are argon2id")

    def verify(self, password: str | bytes, hash: str | bytes) -> bool:
        try:
            _scheme, iterations, salt, digest = ensure_str(hash).split("$")
            secret = password.encode() if isinstance(password, str) else password
            candidate = hashlib.pbkdf2_hmac("sha256", secret, bytes.fromhex(salt),
                                            int(iterations))
        except (ValueError, TypeError, UnicodeDecodeError):
            return False
        return hmac.compare_digest(candidate.hex(), digest)

    def check_needs_rehash(self, hash: str | bytes) -> bool:
        return True


_HASHER = PasswordHash((
    Argon2Hasher(memory_cost=ARGON2_MEMORY_KIB, time_cost=ARGON2_PASSES,
                 parallelism=ARGON2_LANES),
    LegacyPbkdf2Hasher(),
))


def hash_password(password: str) -> str:
    """A salted argon2id hash of ``password`` (pwdlib's PHC string, under 100 characters)."""
    return _HASHER.hash(password)


def verify_and_update(password: str, stored: str) -> tuple[bool, str | None]:
    """Does ``password`` match ``stored``, and the hash to store instead (an old format,
    or weaker parameters), else ``None``. An unknown format does not match."""
    try:
        return _HASHER.verify_and_update(password, stored)
    except UnknownHashError:
        return False, None


def verify_password(password: str, stored: str) -> bool:
    """Does ``password`` match a stored hash (argon2id, or the old PBKDF2 format)?"""
    try:
        return _HASHER.verify(password, stored)
    except UnknownHashError:
        return False


__all__ = ["LegacyPbkdf2Hasher", "hash_password", "verify_and_update", "verify_password"]
