"""The accounts' API bodies (:mod:`hasamigo.web.routers.accounts`). The name and password
rules are the domain's (:mod:`hasamigo.accounts.model`: 400 ``invalid_name`` /
``invalid_password`` saying what is wrong); the bounds here only keep a body small."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

#: longest name and password read (the rules allow 20 and 256 characters)
NAME_INPUT, PASSWORD_INPUT = 200, 1024

NameInput = Annotated[str, Field(min_length=1, max_length=NAME_INPUT)]
PasswordInput = Annotated[str, Field(min_length=1, max_length=PASSWORD_INPUT)]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Credentials(Request):
    """A name and a password: sign-up (the new account's) or sign-in."""

    name: NameInput
    password: PasswordInput


class PasswordAgain(Request):
    """The password, asked again before something that cannot be undone."""

    password: PasswordInput


class AccountView(BaseModel):
    """An account as the API shows it (never a password or a hash)."""

    id: str
    name: str


class AccountReply(BaseModel):
    account: AccountView


__all__ = ["AccountReply", "AccountView", "Credentials", "PasswordAgain"]
