"""Accounts: people who come back (issue 67). Optional: anyone can still play without one.

* :mod:`~hasamigo.accounts.model` — :class:`Account`, the rules of a name and a password.
* :mod:`~hasamigo.accounts.store` — :class:`AccountStore`: accounts, password checks
  (argon2id through :mod:`hasamigo.passwords`), sessions (only a token's hash stored).

An account holds seats of games through the seats' rows (``game_seats.account_id``); it
knows nothing of ratings (:mod:`hasamigo.ratings` rates subjects such as
``account:<id>``).
"""

from __future__ import annotations

from hasamigo.accounts.model import (
    NAME_LENGTH,
    PASSWORD_LENGTH,
    Account,
    AccountError,
    AccountNotFound,
    InvalidName,
    InvalidPassword,
    LoginFailed,
    NameTaken,
    check_password,
    name_key,
    normalise_name,
)
from hasamigo.accounts.store import AccountStore

__all__ = ["NAME_LENGTH", "PASSWORD_LENGTH", "Account", "AccountError", "AccountNotFound",
           "AccountStore", "InvalidName", "InvalidPassword", "LoginFailed", "NameTaken",
           "check_password", "name_key", "normalise_name"]
