"""The accounts of the web app (:class:`AccountService`): sign-up, sign-in and sign-out
over :class:`~hasamigo.accounts.store.AccountStore`, with the limits a public server needs.

The session travels in an HttpOnly cookie (:data:`SESSION_COOKIE`, SameSite=Lax, Secure
over https): scripts never see it, and another site's form or script cannot send it with
a POST. Sign-ups are limited per client address, sign-in attempts per address and per
name (a name guessed from many addresses is still limited). A password is only ever
passed to the store: it is not logged, not echoed in an error, not returned.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from hasamigo.accounts import Account, AccountStore, LoginFailed, name_key
from hasamigo.accounts.model import SESSION_MAX_DAYS
from hasamigo.web.limits import RateWindow

#: the cookie holding a signed-in browser's session token
SESSION_COOKIE = "hasamigo_session"
#: the cookie's lifetime (the session's own end is the store's to say)
COOKIE_SECONDS = SESSION_MAX_DAYS * 24 * 3600


class AccountService:
    """The accounts of one app; the limits count per ``time_source`` minute."""

    def __init__(self, store: AccountStore, *, signups_per_hour: int = 10,
                 logins_per_minute: int = 10, logins_per_name_per_hour: int = 30,
                 time_source: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._signups = RateWindow(signups_per_hour, 3600.0, time_source=time_source)
        self._logins = RateWindow(logins_per_minute, 60.0, time_source=time_source)
        self._name_logins = RateWindow(logins_per_name_per_hour, 3600.0,
                                       time_source=time_source)

    async def sign_up(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """A new account and its first session's token (429 beyond the address's
        sign-ups)."""
        self._signups.enforce(address, "new accounts from this address")
        account = await asyncio.to_thread(self.store.create, name, password)
        token = await asyncio.to_thread(self.store.open_session, account.id)
        return account, token

    async def log_in(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """The account and a new session's token, for the right password (401 for a wrong
        name or password, which one not said; 429 beyond the limits)."""
        self._logins.enforce(address, "sign-in attempts from this address")
        self._name_logins.enforce(name_key(name.strip())[:80], "sign-in attempts for this name")
        account = await asyncio.to_thread(self.store.authenticate, name, password)
        if account is None:
            raise LoginFailed("wrong name or password")
        token = await asyncio.to_thread(self.store.open_session, account.id)
        return account, token

    async def log_out(self, token: str) -> None:
        await asyncio.to_thread(self.store.close_session, token)

    async def viewer(self, token: str | None) -> Account | None:
        """The account the session cookie's ``token`` is signed in to, else ``None``."""
        if not token:
            return None
        return await asyncio.to_thread(self.store.session_account, token)


__all__ = ["COOKIE_SECONDS", "SESSION_COOKIE", "AccountService"]
